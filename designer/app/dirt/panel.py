"""The DIRT part of the sidebar (undo, the stage's name and surface, open, upload, new) and the page header."""
from __future__ import annotations

import streamlit as st

from designer.app.dirt import checks, sources, state

ss = st.session_state


def sidebar() -> None:
    state.init()
    sb = st.sidebar
    row = sb.container(horizontal=True, gap="small", key="undo_row")
    row.button("Undo", icon=":material/undo:", key="undo", on_click=state.on_undo,
                  shortcut="Mod+Z",
                  help="Undo the last edit (the history is kept while the page is open, not across a reload)")
    row.button("Redo", icon=":material/redo:", key="redo", on_click=state.on_redo,
               shortcut="Mod+Y")

    sb.subheader("Stage", anchor=False)
    sb.text_input("Name", key="stage_name_input", on_change=state.on_rename)
    sb.selectbox("Surface", ["gravel", "asphalt", "snow"], key="stage_surface_input", on_change=state.on_surface,
                 help="What the stage is driven on: it picks the dice used for the expected time (Analysis tab), "
                      "and the road book prints it. The tiles' own surface marks still apply where printed.")
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
        sb.selectbox("Bundled stages", keys, format_func=lambda k: labels[k], key="bundled_choice")
        sb.button("Open the example", icon=":material/folder_open:", key="open_bundled",
                  on_click=state.on_open_bundled, width="stretch")
    with sb.form("share_form", clear_on_submit=False, border=False):
        st.text_input("Share link or code", key="share_code_input", placeholder="https://…/?system=dirt&stage=d1.…",
                      help="A link copied from the Export tab or the address bar; an older RD1/… code works too")
        st.form_submit_button("Open the link", icon=":material/link:", on_click=state.on_share_code,
                              width="stretch")
    upload_key = f"upload_{ss.get('upload_nonce', 0)}"
    sb.file_uploader("Upload a stage: YAML, .rgt or rekee .json", type=list(sources.UPLOAD_TYPES),
                     key=upload_key, on_change=state.on_upload, args=(upload_key,), max_upload_size=1,
                     help=f"Stage or rally YAML, a Rallyman Track Editor .rgt, or a rekee .json "
                          f"(at most {sources.MAX_UPLOAD_BYTES // (1024 * 1024)} MB)")
    names = sources.tileset_names()
    sb.selectbox("Tileset of a new stage", names, key="new_tileset",
                 index=names.index("dirt-core") if "dirt-core" in names else 0)
    sb.button("New stage", icon=":material/add:", key="new_stage", on_click=state.on_new_stage, width="stretch")


def header(ctx) -> None:
    errs = sum(p.severity == "error" for p in ctx.problems)
    status = checks.status(ctx.problems, len(ctx.stage.tiles))
    badge = {"valid": ":green-badge[:material/check: valid]",
             "incomplete": ":blue-badge[:material/construction: incomplete]"}.get(
        status, f":red-badge[:material/close: {errs} error{'s' if errs != 1 else ''}]")
    st.markdown(f"### {sources.md_escape(ctx.stage.name)} &nbsp; {badge} "
                f":gray-badge[{len(ctx.track.laid_road_tiles)} road tiles] "
                f":gray-badge[{ctx.tileset.name}]")
    state.show_flash()
