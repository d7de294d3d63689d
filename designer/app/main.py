"""The stage designer in the browser: ``streamlit run designer/app/main.py`` (or ``rally-designer app``).

A thin script: it reads the session state, assembles and validates the stage with the library, and
lays out the sidebar and four tabs (Design, Analysis, Rally, Export). What a click does is in
:mod:`designer.app.state` (callbacks) and :mod:`designer.app.editing` (pure stage edits).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

try:
    import designer  # noqa: F401
except ImportError:  # started from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import streamlit as st

from designer.app import sources, state
from designer.systems.dirt.stage import Stage
from designer.systems.dirt.tileset import Tileset
from designer.systems.dirt.track import Track, assemble
from designer.systems.dirt.validate import validate

ss = st.session_state


@dataclass
class Context:
    """What every tab draws from: the stage, its tileset, the assembled track and its problems."""
    stage: Stage
    tileset: Tileset
    track: Track
    problems: list


def sidebar(ctx: Context) -> None:
    sb = st.sidebar
    sb.title("Rally stage designer", anchor=False)
    sb.caption("Rallyman: DIRT · tiles, lines, timing, road books")
    row = sb.columns(2)
    row[0].button("Undo", icon=":material/undo:", key="undo", on_click=state.on_undo,
               disabled=not ss.history.can_undo, width="stretch")
    row[1].button("Redo", icon=":material/redo:", key="redo", on_click=state.on_redo,
               disabled=not ss.history.can_redo, width="stretch")

    sb.subheader("Stage", anchor=False)
    sb.text_input("Name", key="stage_name_input", on_change=state.on_rename)
    sb.selectbox("Surface", ["gravel", "asphalt", "snow"], key="stage_surface_input", on_change=state.on_surface)
    if ss.get("rally_slot") is not None and ss.rally_slot < len(ss.get("rally_stages", [])):
        sb.caption(f"Stage {ss.rally_slot + 1} of the rally {sources.md_escape(ss.rally_name)}: "
                   "edits go into the rally.")

    sb.subheader("Open", anchor=False)
    bundled = sources.bundled_stages()
    if bundled:
        keys = [b.key for b in bundled]
        labels = {b.key: b.label for b in bundled}
        if ss.get("bundled_choice") not in keys:
            ss.bundled_choice = keys[0]
        sb.selectbox("Rulebook stages", keys, format_func=lambda k: labels[k], key="bundled_choice")
        sb.button("Open this stage", icon=":material/folder_open:", key="open_bundled",
                  on_click=state.on_open_bundled, width="stretch")
    with sb.form("share_form", clear_on_submit=False, border=False):
        st.text_input("Share code", key="share_code_input", placeholder="RD1/dirt-core/202aA.210bC/name=...")
        st.form_submit_button("Open share code", icon=":material/link:", on_click=state.on_share_code,
                              width="stretch")
    upload_key = f"upload_{ss.get('upload_nonce', 0)}"
    sb.file_uploader("Upload a stage: YAML, .rgt or rekee .json", type=list(sources.UPLOAD_TYPES),
                     key=upload_key, on_change=state.on_upload, args=(upload_key,), max_upload_size=10,
                     help=f"Stage or rally YAML, a Rallyman Track Editor .rgt, or a rekee .json "
                          f"(at most {sources.MAX_UPLOAD_BYTES // (1024 * 1024)} MB)")
    names = sources.tileset_names()
    sb.selectbox("Tileset of a new stage", names, key="new_tileset",
                 index=names.index("dirt-core") if "dirt-core" in names else 0)
    sb.button("New stage", icon=":material/add:", key="new_stage", on_click=state.on_new_stage, width="stretch")


def header(ctx: Context) -> None:
    errs = sum(p.severity == "error" for p in ctx.problems)
    badge = ":green-badge[:material/check: valid]" if not errs else \
        f":red-badge[:material/close: {errs} error{'s' if errs != 1 else ''}]"
    st.markdown(f"### {sources.md_escape(ctx.stage.name)} &nbsp; {badge} "
                f":gray-badge[{len(ctx.track.road_tiles)} road tiles] "
                f":gray-badge[{ctx.tileset.name}]")
    for kind, text in state.pop_flash():
        getattr(st, kind if kind in ("success", "info", "warning", "error") else "info")(text)


def main() -> None:
    st.set_page_config(page_title="Rally stage designer", page_icon=":material/flag:", layout="wide")
    state.init()
    stage: Stage = ss.stage
    tileset = state.tileset_of(stage)
    track = assemble(stage, tileset)
    ctx = Context(stage, tileset, track, validate(stage, tileset, track))
    sidebar(ctx)
    header(ctx)
    tabs = st.tabs(list(state.VIEWS), key="view", on_change="rerun")
    from designer.app import analysis_view, design_view, export_view, rally_view

    for tab, view in zip(tabs, (design_view, analysis_view, rally_view, export_view)):
        if tab.open:
            with tab:
                view.render(ctx)


main()
