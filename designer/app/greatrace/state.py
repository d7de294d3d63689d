"""Session state of The Great Race pages: the board and the race as plain data, rebuilt on every rerun.

Keys are prefixed ``greatrace_``. Nothing here writes a file on the server.
"""
from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import streamlit as st

from designer.systems.greatrace.files.board import board_from_data, board_to_data, load_board
from designer.systems.greatrace.files.race import race_from_data, race_to_data
from designer.systems.greatrace.system import SYSTEM

ss = st.session_state
K = "greatrace_"


def _demo_board_path() -> Path:
    return next(e.path for e in SYSTEM.examples() if e.kind == "box")


def open_example(path: Path) -> None:
    """Put a bundled race (with its board) or a board in the session."""
    open_text(path.read_text(encoding="utf-8"), path.name, near=path.parent)


def open_text(text: str, source: str, near: Path | None = None) -> None:
    """Open a race or a board; a race naming the board already in the editor is raced on that board."""
    doc = SYSTEM.loads(text, source, near=near)
    held = ss.get(K + "board")
    if doc.board_obj is None and held and held.get("board") == doc.board:
        doc.board_obj = board_from_data(held, {}, "board in the editor", rules=ss.get(K + "board_rules"))
    board = SYSTEM.box_of(doc, near)
    ss[K + "board"] = board_to_data(board)
    ss[K + "board_rules"] = board.rules
    race = race_to_data(doc)
    ss[K + "race"] = race
    ss[K + "result"] = None
    ss[K + "message"] = f"opened {source}"
    forget_race_widgets()


RACE_WIDGETS = ("race_name", "start", "finish", "median", "players", "fuel", "engine", "chassis", "money",
                "c_transport", "c_escort", "c_guide", "laid_pending")


def forget_race_widgets() -> None:
    """A newly opened race must show its own values, not what the widgets held for the previous one: the race's
    widgets and tables are keyed with the number of the document (:func:`doc`), which changes here."""
    for key in RACE_WIDGETS:
        ss.pop(wkey(key), None)
    ss[K + "doc_n"] = ss.get(K + "doc_n", 0) + 1


def doc() -> int:
    """The number of the document open (a new one for every race or board opened)."""
    return ss.get(K + "doc_n", 0)


def wkey(name: str) -> str:
    """The key of a widget of the race form for the open document."""
    return f"{K}{name}_{doc()}"


def ensure() -> None:
    if K + "board" not in ss:
        races = [e for e in SYSTEM.examples() if e.kind == "stage"]
        open_example(races[0].path)


def current_board():
    """The board being edited, or a DesignerError describing what is wrong with it."""
    data = ss[K + "board"]
    return board_from_data(data, {}, "board in the editor", rules=ss.get(K + "board_rules"))


def current_race():
    return race_from_data(ss[K + "race"], {}, "race in the editor")


def svg_image(svg: str) -> None:
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    st.markdown(f'<img src="data:image/svg+xml;base64,{data}" style="max-width:100%"/>', unsafe_allow_html=True)


def load_demo_board():
    return load_board(_demo_board_path())


def tag(value) -> str:
    """A short tag of a table's content: a widget keyed with it starts afresh when the content changes."""
    return hashlib.sha1(repr(value).encode("utf-8")).hexdigest()[:10]
