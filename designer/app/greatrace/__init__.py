"""The Great Race pages of the app: open a demo or an upload, set up a race, see its analysis, edit a map.

The session holds the board and the race as the plain data their YAML files hold (``state``); every rerun
rebuilds them, so an edit shows its problems at once. Nothing is written on the server: edited files leave
as downloads.
"""
from __future__ import annotations

from typing import Callable

import streamlit as st

from designer.app import uploads
from designer.app.greatrace import editor, views
from designer.app.greatrace.state import K, SYSTEM, ensure, forget_race_widgets, open_example, open_text, ss
from designer.app.greatrace.work import ADDRESS_PARAMS, address_work, open_address  # noqa: F401 (the shell's)
from designer.systems.greatrace.files import edit

__all__ = ["sidebar", "tabs", "ADDRESS_PARAMS", "address_work", "open_address"]

def sidebar() -> None:
    ensure()
    st.sidebar.subheader("The Great Race")
    examples = [e for e in SYSTEM.examples() if e.kind == "stage"]
    choice = st.sidebar.selectbox("Demo race", [e.label for e in examples], key=K + "demo_choice")
    if st.sidebar.button("Open the example", key=K + "open_demo"):
        open_example(next(e.path for e in examples if e.label == choice))
    uploads.sidebar_upload(K, "Open a race or board (YAML)", open_text, what="a race or board file",
                           hint="a race or board file is a few kB: remove what is not the race or board, "
                                "or open the file from the command line")
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
            forget_race_widgets()
    uploads.show_message(K)


def tabs() -> list[tuple[str, Callable[[], None]]]:
    ensure()
    return [("Race", views.race_tab), ("Analysis", views.analysis_tab), ("Map editor", editor.editor_tab)]


