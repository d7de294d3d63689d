"""The Great Race pages of the app: open a demo or an upload, set up a race, see its analysis, edit a map.

Session state (keys prefixed ``greatrace_``) holds the board and the race as the plain data their YAML files
hold; every rerun rebuilds them, so an edit shows its problems at once. Nothing is written on the server:
edited files leave as downloads.
"""
from __future__ import annotations

import base64
from pathlib import Path
from typing import Callable

import streamlit as st

from designer.core import yamlio
from designer.core.errors import DesignerError
from designer.systems.greatrace import edit
from designer.systems.greatrace.board import board_from_data, board_to_data, load_board
from designer.systems.greatrace.race import race_from_data, race_to_data
from designer.systems.greatrace.system import SYSTEM

ss = st.session_state
K = "greatrace_"


def _demo_board_path() -> Path:
    return next(e.path for e in SYSTEM.examples() if e.kind == "box")


def open_example(path: Path) -> None:
    """Put a bundled race (with its board) or a board in the session."""
    open_text(path.read_text(encoding="utf-8"), path.name, near=path.parent)


def open_text(text: str, source: str, near: Path | None = None) -> None:
    doc = SYSTEM.loads(text, source, near=near)
    board = SYSTEM.box_of(doc, near)
    ss[K + "board"] = board_to_data(board)
    ss[K + "board_rules"] = board.rules
    race = race_to_data(doc)
    ss[K + "race"] = race
    ss[K + "result"] = None
    ss[K + "message"] = f"opened {source}"
    _forget_race_widgets()


RACE_WIDGETS = ("race_name", "start", "finish", "median", "players", "fuel", "engine", "chassis", "money",
                "c_transport", "c_escort", "c_guide")


def _forget_race_widgets() -> None:
    """A newly opened race must show its own values, not what the widgets held for the previous one."""
    for key in RACE_WIDGETS:
        ss.pop(K + key, None)


def _ensure() -> None:
    if K + "board" not in ss:
        races = [e for e in SYSTEM.examples() if e.kind == "stage"]
        open_example(races[0].path)


def current_board():
    """The board being edited, or a DesignerError describing what is wrong with it."""
    data = ss[K + "board"]
    return board_from_data(data, {}, "board in the editor", rules=ss.get(K + "board_rules"))


def current_race():
    return race_from_data(ss[K + "race"], {}, "race in the editor")


def sidebar() -> None:
    _ensure()
    st.sidebar.subheader("The Great Race")
    examples = [e for e in SYSTEM.examples() if e.kind == "stage"]
    choice = st.sidebar.selectbox("Demo race", [e.label for e in examples], key=K + "demo_choice")
    if st.sidebar.button("Open demo", key=K + "open_demo"):
        open_example(next(e.path for e in examples if e.label == choice))
    up = st.sidebar.file_uploader("Open a race or board (YAML)", type=["yaml", "yml"], key=K + "upload")
    if up is not None and ss.get(K + "uploaded") != (up.name, up.size):
        ss[K + "uploaded"] = (up.name, up.size)
        try:
            data = up.getvalue()
            if len(data) > yamlio.MAX_BYTES:
                raise DesignerError("the file is too large for a race or board", where=up.name)
            open_text(data.decode("utf-8-sig", errors="replace"), up.name)
        except DesignerError as exc:
            ss[K + "message"] = f"error: {exc}"
    with st.sidebar.expander("New board"):
        cols = st.number_input("Columns", 4, 26, 12, key=K + "new_cols")
        rows = st.number_input("Rows", 3, 40, 8, key=K + "new_rows")
        if st.button("Start a blank board", key=K + "new_board"):
            data = edit.new_board("my-board", cols, rows)
            data = edit.paint(data, ["A1"], "purple city", "West")
            data = edit.paint(data, [f"{chr(64 + int(cols))}{int(rows)}"], "purple city", "East")
            ss[K + "board"] = data
            ss[K + "board_rules"] = None
            ss[K + "race"] = {"system": "greatrace", "race": "New race", "board": "my-board", "start": "West",
                              "finish": "East", "players": 4, "money": 80}
            ss[K + "result"] = None
            ss[K + "message"] = "a blank board: paint cities and risk zones in the map editor"
            _forget_race_widgets()
    msg = ss.get(K + "message")
    if msg:
        (st.sidebar.error if msg.startswith("error") else st.sidebar.caption)(msg)


def tabs() -> list[tuple[str, Callable[[], None]]]:
    from designer.app.greatrace import editor, views

    _ensure()
    return [("Race", views.race_tab), ("Analysis", views.analysis_tab), ("Map editor", editor.editor_tab)]


def svg_image(svg: str) -> None:
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    st.markdown(f'<img src="data:image/svg+xml;base64,{data}" style="max-width:100%"/>', unsafe_allow_html=True)


def load_demo_board():
    return load_board(_demo_board_path())
