"""The Design tab's edits: palette buttons, tile actions, tokens, the assistance toggle and the "show" buttons
of the checks. Each edit goes through :func:`designer.app.dirt.state.commit` and then redraws only the parts
of the tab it changes (:func:`designer.app.dirt.state.redraw_after_edit`); a refused edit is a message."""
from __future__ import annotations

import functools
from typing import Callable

import streamlit as st

from designer.app.dirt import editing, laying
from designer.app.dirt.state import (PALETTE_MODES, commit, flash, guard, redraw_after_edit, set_selected,
                                     tileset_of)
from designer.systems.dirt.board.tileset import Tileset

ss = st.session_state
VALUED = ("chicane-limit", "jump", "oxygen")      # token kinds that carry a number (limit, jump value, oxygen)


def _selected() -> int | None:
    """The index of the tile selected on the map, or None when none is."""
    sel = ss.get("selected")
    return sel if sel is not None and sel >= 0 else None


def _design_edit(fn: Callable) -> Callable:
    """A Design-tab callback that edits the stage: redraw the edited parts only, unless it was refused."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        before = ss.get("stage")
        fn(*args, **kwargs)
        if ss.get("stage") is not before:
            redraw_after_edit()
    return wrapper



@_design_edit
@guard
def on_palette(face_id: str, entry: str, exit_: str | None = None) -> None:
    """A palette button: add, insert or replace according to the palette mode."""
    stage, ts = ss.stage, tileset_of(ss.stage)
    mode = ss.get("palette_mode") or "end"
    sel = _selected()
    if mode not in ("end", "free") and sel is None:
        flash("warning", f"Select a tile on the map first ({PALETTE_MODES[mode].lower()}), "
                         "or switch the palette to 'Add at the open end'.")
        return
    if mode == "free":
        place = laying.find_place(stage, ts, ss.get("free_place"))
        if place is None:
            flash("warning", "Choose a free place beside a road end first (the list above the palette).")
            return
        commit(laying.lay_at(stage, ts, place, face_id, entry, exit_), select=len(stage.tiles))
        return
    place = {"end": len(stage.tiles), "replace": sel, "before": sel, "after": (sel or 0) + 1}[mode]
    refusal = editing.refused_after_finish(stage, ts, place, face_id)
    if refusal:
        flash("warning", refusal)
        return
    if mode == "end":
        new = editing.add_tile(stage, ts, face_id, entry=entry, exit_=exit_)
        select = None                  # the open end stays the target; tiles with errors stay red
        commit(new, select=select)
        ss.last_edited = len(new.tiles) - 1
        return
    elif mode == "replace":
        new = editing.replace_tile(stage, ts, sel, face_id, entry=entry, exit_=exit_)
        select = sel
    else:
        select = sel if mode == "before" else sel + 1
        new = editing.insert_tile(stage, ts, select, face_id, entry=entry, exit_=exit_)
    commit(new, select=select)


def other_face(face_id: str, ts: Tileset) -> str | None:
    """The face on the other side of the same physical tile (``210a`` -> ``210b``), when the tileset has it."""
    if len(face_id) < 4 or face_id[3] not in "ab":
        return None
    other = face_id[:3] + ("b" if face_id[3] == "a" else "a") + face_id[4:]
    return other if other in ts else None


@_design_edit
@guard
def on_flip() -> None:
    """Turn the selected tile over: its other face on the same place, entered by the same edge when it can be."""
    sel = _selected()
    if sel is None:
        return
    ts = tileset_of(ss.stage)
    placed = ss.stage.tiles[sel]
    other = other_face(placed.tile, ts)
    if other is None:
        flash("warning", f"{placed.tile} has no other face in {ts.name}.")
        return
    edges = {o.entry for o in editing.entry_options(ts.face(other))}
    entry = placed.entry if placed.entry in edges else None
    commit(editing.replace_tile(ss.stage, ts, sel, other, entry=entry), select=sel)


@_design_edit
@guard
def on_token_add() -> None:
    from designer.systems.dirt.board import tokens as T

    sel = _selected()
    kind, cell = ss.get("token_kind"), ss.get("token_cell")
    if sel is None or not kind or not cell:
        return
    value = int(ss.get("token_value", 3)) if kind in VALUED else None
    commit(T.add_token(ss.stage, sel, kind, cell=cell, value=value), select=sel)


@_design_edit
@guard
def on_token_remove(k: int) -> None:
    from designer.systems.dirt.board import tokens as T

    sel = _selected()
    if sel is None:
        return
    commit(T.remove_token(ss.stage, sel, k), select=sel)


def on_palette_more(step: int) -> None:
    ss.pal_shown = int(ss.get("pal_shown") or step) + step


@_design_edit
@guard
def on_remove() -> None:
    sel = _selected()
    if sel is None:
        return
    n = len(ss.stage.tiles)
    # The tile that takes its place stays selected (the new last one after removing the last).
    commit(editing.remove_tile(ss.stage, sel), select=sel if sel < n - 1 else (sel - 1 if sel > 0 else None))


@_design_edit
@guard
def on_reverse() -> None:
    sel = _selected()
    if sel is None:
        return
    commit(editing.reverse_tile(ss.stage, tileset_of(ss.stage), sel))


@_design_edit
@guard
def on_move(step: int) -> None:
    sel = _selected()
    if sel is None:
        return
    to = sel + step
    if not 0 <= to < len(ss.stage.tiles):
        return
    commit(editing.move_tile(ss.stage, sel, to), select=to)



@_design_edit
@guard
def on_assistance(on: bool | None = None) -> None:
    if on is None:
        on = bool(ss.get("assist_toggle"))
    commit(editing.set_assistance(ss.stage, tileset_of(ss.stage), on))



def on_show(index: int) -> None:
    """A problem's "show" button (beside the map): select its tile and redraw the board."""
    set_selected(index)
    st.rerun(["dirt_board"])


def laying_part(stage, ts: Tileset) -> None:
    """The free places a palette button lays its tile at, in 'Free place' mode (a list of road ends)."""
    places = laying.free_places(stage, ts)
    if not places:
        st.info("Every road end meets a tile: there is no free place beside a road.", icon=":material/info:")
        return
    keys = [p.key for p in places]
    if ss.get("free_place") not in keys:
        ss["free_place"] = keys[-1]
    labels = {p.key: p.label() for p in places}
    st.selectbox("Free place", keys, key="free_place", format_func=labels.get,
                 help="A road end that meets no tile: the palette button lays its tile there, its road entering "
                      "by the edge the button names. Tiles laid here are listed last and the next tile added "
                      "at the end carries on from them; where a road comes back onto a junction or the start, "
                      "the lap closes there (an RX circuit), and a branch between two junctions is a joker route.")
