"""The app's session state and the callbacks that change it.

Everything the user does goes through a callback here (Streamlit runs callbacks before the script),
so a click changes the state once and the page is drawn once with the result. The stage itself is
only changed by the pure functions of :mod:`designer.app.dirt.editing`.
"""
from __future__ import annotations

import functools
from typing import Callable

import streamlit as st

from designer.app.dirt import editing, links, mapview, sources
from designer.core.errors import DesignerError
from designer.core.words import plural
from designer.systems.dirt.board.stage import RallyInfo, Stage
from designer.systems.dirt.board.tileset import Tileset, get_tileset

ss = st.session_state
_md = sources.md_escape

PALETTE_MODES = {"end": "Add at the open end", "before": "Insert before the selected tile",
                 "after": "Insert after the selected tile", "replace": "Replace the selected tile",
                 "free": "Lay at a free place beside a road end"}
VIEWS = ("Design", "Analysis", "Rally", "Export", "Generate")


# -- set-up -------------------------------------------------------------------------------

def init() -> None:
    """First run of a session: open the rulebook's first stage, and its rally."""
    if "stage" in ss:
        return
    ss.history = editing.History()
    ss.selected = None
    ss.flash = []
    ss.map_nonce = 0
    ss.upload_nonce = 0
    ss.palette_mode = "end"
    ss.rally_slot = None
    ss.rally_name = "My rally"
    ss.rally_stages = []
    stage = stage_from_address()
    rallies = sources.bundled_rallies()
    if stage is not None:
        pass
    elif rallies:
        first_rally = next(iter(rallies))
        try:
            stages = [sources.load_bundled(b.key) for b in rallies[first_rally]]
            ss.rally_name = first_rally
            ss.rally_stages = stages
            stage = stages[0]
            ss.rally_slot = 0
            ss.bundled_choice = rallies[first_rally][0].key
        except DesignerError as exc:
            flash("error", f"The bundled stages could not be read: {exc}")
    _put_stage(stage or editing.new_stage())


def stage_from_address() -> Stage | None:
    """The stage (and rally) named by the page address (``?stage=`` and ``?rally=``), or None.

    A link that cannot be read is a message; the app then opens as if the address held nothing.
    Only the stage and the rally live in the address: the undo history starts afresh after a reload."""
    qp = st.query_params
    stage = None
    if qp.get("rally"):
        try:
            name, stages, slot = links.read_rally_code(qp.get("rally"))
            ss.rally_name, ss.rally_stages, ss.rally_slot = name, stages, slot
        except DesignerError as exc:
            flash("error", f"**The rally in this link could not be opened.**  \n{sources.message_of(exc)}")
    if qp.get("stage"):
        try:
            stage = links.read_stage_code(qp.get("stage"))
            stage = editing.relative_form(stage, tileset_of(stage))
        except DesignerError as exc:
            flash("error", f"**The stage in this link could not be opened.**  \n{sources.message_of(exc)}")
            stage = None
    if stage is None and ss.rally_stages:
        ss.rally_slot = ss.rally_slot or 0
        stage = ss.rally_stages[ss.rally_slot]
    if stage is not None and ss.rally_slot is not None:
        ss.rally_stages[ss.rally_slot] = stage
    if stage is None:
        ss.rally_slot = None
    return stage


def sync_address() -> None:
    """Write the edited stage (and the rally, when there is one) into the page address, so that a reload or a
    copied address opens the same work. Only parameters that changed are written."""
    qp = st.query_params
    want = {"stage": links.stage_code(ss.stage)}
    if ss.get("rally_stages"):
        want["rally"] = links.rally_code(ss.rally_name, list(ss.rally_stages), ss.get("rally_slot"))
    elif "rally" in qp:
        del qp["rally"]
    for key, value in want.items():
        if qp.get(key) != value:
            qp[key] = value


def tileset_of(stage: Stage) -> Tileset:
    """The stage's tileset (cached by the loader); the bundled DIRT core box when it is unknown."""
    if stage.tileset not in sources.tileset_names():
        ss.setdefault("flash", []).append(
            ("warning", f"The stage names the tileset {_md(str(stage.tileset)[:60])!r}, which this app does not have "
                        "(it offers the bundled tilesets and those in the folder its owner chose) - showing it with "
                        "dirt-core"))
        return get_tileset("dirt-core")
    try:
        return sources.offered_tileset(stage.tileset)
    except DesignerError as exc:
        ss.setdefault("flash", []).append(("warning", f"{exc} - showing it with dirt-core"))
        return get_tileset("dirt-core")


def flash(kind: str, text: str) -> None:
    """A message shown once at the top of the page (kind: success, info, warning, error)."""
    ss.setdefault("flash", []).append((kind, text))


def pop_flash() -> list[tuple[str, str]]:
    out = list(ss.get("flash", []))
    ss.flash = []
    return out


def show_flash() -> None:
    """Messages float over the page (they never push the map down between two clicks); errors stay until closed."""
    for kind, text in pop_flash():
        icon = {"success": ":material/check_circle:", "warning": ":material/warning:",
                "error": ":material/error:"}.get(kind, ":material/info:")
        st.toast(text, icon=icon, duration="infinite" if kind == "error" else "long")


#: The parts of the Design tab that an edit of the stage changes (see design_view.page).
EDIT_PARTS = ("dirt_header", "dirt_board", "dirt_checks")


def redraw_after_edit() -> None:
    """From a Design-tab callback: redraw only the parts an edit changes, not the sidebar nor the palette
    (unless the palette hides the tiles in the stage, which an edit changes too)."""
    parts = list(EDIT_PARTS) + (["dirt_palette"] if ss.get("flt_in_box") else [])
    st.rerun(parts)


# -- the stage ------------------------------------------------------------------------------

def _put_stage(stage: Stage) -> None:
    ss.stage = stage
    ss.stage_name_input = stage.name
    ss.stage_players_input = stage.players or 4
    ss.stage_surface_input = stage.surface or "gravel"
    _clamp_selection()


def commit(new: Stage, select: int | None | str = "keep") -> None:
    """Make ``new`` the edited stage, remembering the old one for undo (and the rally slot)."""
    old = ss.stage
    ss.history = editing.record(ss.history, old, new)
    _put_stage(new)
    if ss.get("rally_slot") is not None and ss.rally_slot < len(ss.rally_stages):
        ss.rally_stages[ss.rally_slot] = new
    if select != "keep":
        set_selected(select)
    else:
        _clamp_selection()
    ss.last_edited = ss.get("selected")


def open_stage(stage: Stage, message: str | None = None, rally_slot: int | None = None) -> None:
    """Replace the edited stage by another (undo brings the old one back).

    Raises DesignerError, before changing anything, when the stage's tileset is unknown."""
    ts = sources.offered_tileset(stage.tileset)
    stage = editing.relative_form(stage, ts)
    ss.rally_slot = rally_slot
    commit(stage, select=None)
    if message:
        flash("success", message)


def _clamp_selection() -> None:
    sel = ss.get("selected")
    n = len(ss.stage.tiles)
    if sel is not None and sel < 0:
        sel = None
    if sel is not None and sel >= n:
        sel = n - 1 if n else None
    ss.selected = sel
    ss.sel_box = sel


def set_selected(index: int | None) -> None:
    ss.selected = index
    _clamp_selection()


def map_key() -> str:
    """The map chart's widget key. The chart remembers the last tile clicked on it (``map_holds``); while that is
    the selected tile the chart is kept (a click only changes its data), otherwise a fresh chart replaces it, so
    that clicking that tile again is seen."""
    holds = ss.get("map_holds")
    if holds is not None and holds != ss.get("selected"):
        ss.map_nonce = ss.get("map_nonce", 0) + 1
        ss.map_holds = None
    return f"map_{ss.get('map_nonce', 0)}"


def map_drawn_afresh() -> None:
    """The whole page is drawn (a tab opened, the page loaded): the browser may build the map chart again, without
    the tile last picked on it, so the chart is replaced and the selected tile outlined by its row."""
    if ss.get("map_holds") is not None:
        ss.map_nonce = ss.get("map_nonce", 0) + 1
        ss.map_holds = None


def guard(fn: Callable) -> Callable:
    """Turn a refused edit into a message; the stage stays as it was."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (DesignerError, ValueError, IndexError, sources.Unavailable) as exc:
            flash("error", sources.message_of(exc))
    return wrapper


# -- callbacks: editing (the Design tab's own are in design_actions) ---------------------------

def _history_step(possible: bool, step, word: str) -> None:
    if not possible:
        flash("info", f"Nothing to {word}.")
        return
    ss.history, stage = step(ss.history, ss.stage)
    _put_stage(stage)
    _sync_rally_slot()


def _history_click(possible: bool, step, word: str) -> None:
    before = ss.stage
    _history_step(possible, step, word)
    # On the Design tab an undo that keeps the name and surface redraws the edited parts only (the sidebar
    # shows the name and surface); anything else redraws the page.
    if ss.get("dirt_view") in (None, "Design") and ss.stage is not before \
            and (ss.stage.name, ss.stage.surface) == (before.name, before.surface):
        redraw_after_edit()


def on_undo() -> None:
    _history_click(ss.history.can_undo, editing.undo, "undo")


def on_redo() -> None:
    _history_click(ss.history.can_redo, editing.redo, "redo")


def _sync_rally_slot() -> None:
    if ss.get("rally_slot") is not None and ss.rally_slot < len(ss.rally_stages):
        ss.rally_stages[ss.rally_slot] = ss.stage


def on_rename() -> None:
    name = (ss.get("stage_name_input") or "").strip()
    if name and name != ss.stage.name:
        commit(editing.rename(ss.stage, name))


def on_players() -> None:
    n = ss.get("stage_players_input")
    if n and n != ss.stage.players:
        commit(ss.stage.model_copy(update={"players": int(n)}))


def on_surface() -> None:
    s = ss.get("stage_surface_input")
    if s and s != (ss.stage.surface or "gravel"):
        commit(ss.stage.model_copy(update={"surface": s}))


# -- callbacks: selection ------------------------------------------------------------------

def on_select(index: int | None) -> None:
    set_selected(index)


def on_select_box() -> None:
    set_selected(ss.get("sel_box"))


def on_step_selection(step: int) -> None:
    n = len(ss.stage.tiles)
    if not n:
        return
    sel = ss.get("selected")
    sel = (0 if step > 0 else n - 1) if sel is None or sel < 0 else max(0, min(n - 1, sel + step))
    set_selected(sel)


def on_map(key: str) -> None:
    """The map was clicked: select that tile (the open end switches the palette to 'add at the end')."""
    index = mapview.tile_from_event(ss.get(key))
    ss.map_holds = index
    if index is None:
        return
    if index == mapview.OPEN_END:
        ss.palette_mode = "end"
        set_selected(None)
        flash("info", "The palette adds tiles at the open end (the dashed hexagon).")
        return
    set_selected(index)


# -- callbacks: opening and saving -----------------------------------------------------------

@guard
def on_new_stage() -> None:
    ts_name = ss.get("new_tileset") or "dirt-core"
    open_stage(editing.new_stage("New stage", ts_name), "New empty stage: add a start tile (202a) from the palette.")


@guard
def on_open_bundled() -> None:
    key = ss.get("bundled_choice")
    if not key:
        return
    stage = sources.load_bundled(key)
    slot = None
    # Opening a stage of the rally being built edits it in place.
    for i, s in enumerate(ss.get("rally_stages", [])):
        if s.name == stage.name:
            slot = i
            break
    open_stage(stage, f"Opened {_md(stage.name)}.", rally_slot=slot)


@guard
def on_share_code() -> None:
    code = ss.get("share_code_input", "")
    stage = links.read_stage_code(code)
    open_stage(stage, f"Opened {_md(stage.name)} from its share link.")


def on_upload(key: str) -> None:
    """A file was uploaded: open it if it reads cleanly; otherwise say why and keep the stage."""
    up = ss.get(key)
    if up is None:
        return
    ss.upload_nonce = ss.get("upload_nonce", 0) + 1      # an empty uploader next time
    try:
        loaded = sources.read_upload(up.name, up.getvalue())
        for stage in loaded.stages:
            sources.offered_tileset(stage.tileset)   # a tileset the app does not offer is refused here, unread
    except (DesignerError, sources.Unavailable) as exc:
        flash("error", f"**Could not open {sources.md_escape(up.name)}.** The stage you were editing is unchanged."
                       f"  \n{sources.message_of(exc)}")
        return
    except Exception as exc:  # a foreign importer's bug must not lose the user's work
        flash("error", f"**Could not open {sources.md_escape(up.name)}** ({type(exc).__name__}: "
                       f"{sources.md_escape(str(exc))}). The stage you were editing is unchanged.")
        return
    if loaded.is_rally:
        ss.rally_name = loaded.rally_name
        ss.rally_stages = list(loaded.stages)
        open_stage(loaded.stage, f"Opened the rally {_md(loaded.rally_name)} ({plural(len(loaded.stages), 'stage')}) "
                                 f"from {_md(up.name)}; editing its first stage.", rally_slot=0)
    else:
        from designer.app.dirt.carried import upload_summary

        extra = upload_summary(loaded.stage)
        open_stage(loaded.stage, f"Opened {_md(loaded.stage.name)} from {_md(up.name)}." + (f"  \n{extra}" if extra
                                                                                            else ""))


# -- callbacks: rally ----------------------------------------------------------------------

def numbered(stages: list[Stage], rally_name: str) -> list[Stage]:
    """The stages with the rally's name and their place in it written into each (``rally: {name, number}``)."""
    out = []
    for i, stage in enumerate(stages):
        info = stage.rally.model_copy(update={"name": rally_name, "number": i + 1}) if stage.rally \
            else RallyInfo(name=rally_name, number=i + 1)
        out.append(stage if stage.rally == info else stage.model_copy(update={"rally": info}))
    return out


def _set_rally(stages: list[Stage]) -> None:
    """Store the rally's stages numbered in order; the edited stage follows when it is one of them."""
    ss.rally_stages = numbered(list(stages), ss.rally_name)
    slot = ss.get("rally_slot")
    if slot is not None and slot < len(ss.rally_stages) and ss.rally_stages[slot] != ss.stage:
        _put_stage(ss.rally_stages[slot])


def on_rally_add_current() -> None:
    slot = ss.get("rally_slot")
    if slot is not None and slot < len(ss.rally_stages):
        flash("info", f"{_md(ss.stage.name)} is already stage {slot + 1} of {_md(ss.rally_name)}: "
                      "edits go into the rally. Open or build another stage to add it.")
        return
    same = [i for i, s in enumerate(ss.rally_stages) if s.tiles == ss.stage.tiles]
    if same:
        flash("info", f"This stage is already stage {same[0] + 1} of {_md(ss.rally_name)} "
                      f"({_md(ss.rally_stages[same[0]].name)}); it was not added twice.")
        return
    ss.rally_slot = len(ss.rally_stages)
    _set_rally(list(ss.rally_stages) + [ss.stage])
    flash("success", f"{_md(ss.stage.name)} is now stage {ss.rally_slot + 1} of {_md(ss.rally_name)}.")


def on_rally_edit(i: int) -> None:
    open_stage(ss.rally_stages[i], f"Editing stage {i + 1} of {_md(ss.rally_name)}: {_md(ss.rally_stages[i].name)}.",
               rally_slot=i)
    ss.dirt_view = "Design"


def on_rally_move(i: int, step: int) -> None:
    stages = list(ss.rally_stages)
    j = i + step
    if not 0 <= j < len(stages):
        return
    stages[i], stages[j] = stages[j], stages[i]
    if ss.rally_slot == i:
        ss.rally_slot = j
    elif ss.rally_slot == j:
        ss.rally_slot = i
    _set_rally(stages)


def on_rally_remove(i: int) -> None:
    stages = list(ss.rally_stages)
    del stages[i]
    if ss.rally_slot == i:
        ss.rally_slot = None
    elif ss.rally_slot is not None and ss.rally_slot > i:
        ss.rally_slot -= 1
    _set_rally(stages)


@guard
def on_rally_assistance(i: int) -> None:
    stage = ss.rally_stages[i]
    ts = tileset_of(stage)
    on = bool(ss.get(f"rally_assist_{i}"))
    new = editing.set_assistance(stage, ts, on)
    if ss.rally_slot == i:
        commit(new)
    else:
        stages = list(ss.rally_stages)
        stages[i] = new
        ss.rally_stages = stages


@guard
def on_rally_open_bundled() -> None:
    name = ss.get("bundled_rally_choice")
    rally = sources.rally_from_bundle(name)
    ss.rally_name = rally.name
    ss.rally_stages = list(rally.stages)
    if rally.stages:
        open_stage(rally.stages[0], f"Opened {_md(rally.name)} ({plural(len(rally.stages), 'stage')}); editing its "
                                    "first stage.",
                   rally_slot=0)


def on_rally_new() -> None:
    ss.rally_name = "My rally"
    ss.rally_stages = []
    ss.rally_slot = None
    flash("info", "New empty rally: add stages with 'Add the stage being edited'.")


def on_rally_rename() -> None:
    name = (ss.get("rally_name_input") or "").strip()
    if name:
        ss.rally_name = name
        _set_rally(ss.rally_stages)
