"""Classic Rallyman pages of the app: open a demo stage or rally, or upload one; edit the route; see the
analysis and the course sheet; enter zones with the zone editor.

Session state keys start with ``classic_``. The open document (a stage or a rally) is kept as the system's own
objects; a zone box uploaded or made in the editor is kept as YAML text. Nothing is written on the server:
stages, rallies, boxes and road books leave as downloads.
"""
from __future__ import annotations

from typing import Callable

import streamlit as st

from designer.app import uploads
from designer.app.classic.state import K, ensure, open_path, open_text, ss
from designer.app.classic.work import ADDRESS_PARAMS, address_work, open_address  # noqa: F401 (the shell's)
from designer.systems.classic.system import SYSTEM

def sidebar() -> None:
    ensure()
    sb = st.sidebar
    sb.subheader("Classic Rallyman")
    examples = [e for e in SYSTEM.examples() if e.kind in ("stage", "rally")]
    labels = {e.key: f"{e.label} ({e.kind})" for e in examples}
    key = sb.selectbox("Example", [e.key for e in examples], format_func=lambda k: labels[k], key=K + "example")
    if sb.button("Open the example", key=K + "open"):
        open_path(next(e.path for e in examples if e.key == key))
        ss[K + "message"] = f"opened {labels[key]}"
    uploads.sidebar_upload(K, "Upload a stage, rally or zone box (YAML)", open_text, what="a stage, rally or zone box",
                           hint="a stage, rally or zone box is a few kilobytes; check that this is the right file")
    if sb.button("New stage", key=K + "new"):
        open_text("system: classic\nstage: My stage\nzones: demo-zones\nroute: 'X0 | - | X4'\n", "new stage")
        ss[K + "message"] = "a new stage on the demo zones: change its route in the Stage tab"
    if ss.get(K + "box_text"):
        sb.caption("Zones: your own box (uploaded or from the editor)")
        if sb.button("Back to the bundled zones", key=K + "bundled"):
            ss.pop(K + "box_text")
            ss[K + "analysis"] = {}
    uploads.show_message(K)


def tabs() -> list[tuple[str, Callable[[], None]]]:
    from designer.app.classic import editor, views

    ensure()
    return [("Stage", views.stage_tab), ("Analysis", views.analysis_tab), ("Rally & road book", views.rally_tab),
            ("Zone editor", editor.editor_tab)]
