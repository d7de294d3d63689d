"""Classic Rallyman pages of the app: open a demo stage or rally, or upload one; edit the route; see the
analysis and the course sheet; enter zones with the zone editor.

Session state keys start with ``classic_``. The open document (a stage or a rally) is kept as the system's own
objects; a zone box uploaded or made in the editor is kept as YAML text. Nothing is written on the server:
stages, rallies, boxes and road books leave as downloads.
"""
from __future__ import annotations

from typing import Callable

import streamlit as st

from designer.app.classic.state import K, ensure, open_path, open_text, ss
from designer.app.classic.work import ADDRESS_PARAMS, address_work, open_address  # noqa: F401 (the shell's)
from designer.core.errors import DesignerError
from designer.systems.classic.system import SYSTEM

MAX_UPLOAD_BYTES = 1024 * 1024          # the uploader's limit (max_upload_size is in MB), checked again here


def uploaded_text(name: str, data: bytes) -> str:
    """The text of an uploaded stage, rally or zone box, or a message saying why it cannot be read."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise DesignerError(f"the file is {len(data) / (1024 * 1024):.1f} MB; the limit is "
                            f"{MAX_UPLOAD_BYTES // (1024 * 1024)} MB", where=name,
                            hint="a stage, rally or zone box is a few kilobytes; check that this is the right file")
    if not data:
        raise DesignerError("the file is empty", where=name, hint="upload a stage, rally or zone box YAML file")
    return data.decode("utf-8", errors="replace")


def sidebar() -> None:
    ensure()
    sb = st.sidebar
    sb.subheader("Classic Rallyman")
    examples = [e for e in SYSTEM.examples() if e.kind in ("stage", "rally")]
    labels = {e.key: f"{e.label} ({e.kind})" for e in examples}
    key = sb.selectbox("Example", [e.key for e in examples], format_func=lambda k: labels[k], key=K + "example")
    if sb.button("Open example", key=K + "open"):
        open_path(next(e.path for e in examples if e.key == key))
        ss[K + "message"] = f"opened {labels[key]}"
    up = sb.file_uploader("Upload a stage, rally or zone box (YAML)", type=["yaml", "yml"], key=K + "upload",
                          max_upload_size=MAX_UPLOAD_BYTES // (1024 * 1024),
                          help=f"at most {MAX_UPLOAD_BYTES // (1024 * 1024)} MB")
    if up is not None and ss.get(K + "uploaded") != (up.name, up.size):
        ss[K + "uploaded"] = (up.name, up.size)
        try:
            open_text(uploaded_text(up.name, up.getvalue()), up.name)
            ss.setdefault(K + "message", f"opened {up.name}")
        except DesignerError as exc:
            ss[K + "message"] = f"error: {exc}"
    if sb.button("New stage", key=K + "new"):
        open_text("system: classic\nstage: My stage\nzones: demo-zones\nroute: 'X0 | - | X4'\n", "new stage")
        ss[K + "message"] = "a new stage on the demo zones: change its route in the Stage tab"
    if ss.get(K + "box_text"):
        sb.caption("Zones: your own box (uploaded or from the editor)")
        if sb.button("Back to the bundled zones", key=K + "bundled"):
            ss.pop(K + "box_text")
            ss[K + "analysis"] = {}
    msg = ss.get(K + "message")
    if msg:
        (sb.error if msg.startswith("error") else sb.info)(msg)


def tabs() -> list[tuple[str, Callable[[], None]]]:
    from designer.app.classic import editor, views

    ensure()
    return [("Stage", views.stage_tab), ("Analysis", views.analysis_tab), ("Rally & road book", views.rally_tab),
            ("Zone editor", editor.editor_tab)]
