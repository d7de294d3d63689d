"""The Rallye pages of the app: open a demo stage or an upload, choose or draft the 12 cards, see the speed plans,
print the reconnaissance sheet, and enter one's own deck card by card.

Session state (keys prefixed ``rallye_``) holds the stage and the deck as the plain data their YAML files hold;
every rerun rebuilds them, so an edit shows its problems at once. Nothing is written on the server: edited
files leave as downloads.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import streamlit as st

from designer.core import yamlio
from designer.core.errors import DesignerError
from designer.systems.rallye.deck import Deck, deck_from_data
from designer.systems.rallye.stage import Rally, Stage, stage_data, stage_from_data
from designer.systems.rallye.system import SYSTEM

ss = st.session_state
K = "rallye_"


def stage_examples():
    return [e for e in SYSTEM.examples() if e.kind == "stage"]


def open_stage(stage: Stage, deck: Deck, source: str) -> None:
    ss[K + "stage"] = stage_data(stage)
    ss[K + "deck"] = dict(deck.data)
    ss[K + "result"] = None
    ss[K + "editor_version"] = ss.get(K + "editor_version", 0) + 1
    ss[K + "message"] = f"opened {source}"


def open_example(path: Path) -> None:
    doc = SYSTEM.load(path)
    stage = SYSTEM.stages_of(doc)[0]
    open_stage(stage, SYSTEM.box_of(stage, path.parent), path.name)


def open_text(text: str, source: str) -> None:
    """An uploaded stage, rally (stages inline) or deck."""
    data, lines = yamlio.loads(text, source)
    if isinstance(data, dict) and "sections" in data and "deck" in data:
        deck_from_data(data, lines, source)          # checks it, with lines, before taking it
        ss[K + "deck"] = data
        ss[K + "stage"]["deck"] = str(data["deck"])
        ss[K + "result"] = None
        ss[K + "editor_version"] = ss.get(K + "editor_version", 0) + 1
        ss[K + "message"] = f"opened the deck {source}"
        return
    doc = SYSTEM.loads(text, source)
    stage = doc.stages[0] if isinstance(doc, Rally) else doc
    try:
        deck = SYSTEM.box_of(stage)
    except DesignerError:
        deck = current_deck()
        ss[K + "message"] = f"the deck {stage.deck!r} is not bundled: kept the deck in the editor (upload yours)"
    open_stage(stage, deck, source)


def _ensure() -> None:
    if K + "stage" not in ss:
        open_example(stage_examples()[0].path)
        ss[K + "message"] = ""


def current_deck() -> Deck:
    """The deck in the session (raises DesignerError with the problems of an edited deck)."""
    return deck_from_data(ss[K + "deck"], {}, "deck in the editor")


def current_stage() -> Stage:
    return stage_from_data(ss[K + "stage"], {}, "stage in the editor")


def sidebar() -> None:
    _ensure()
    st.sidebar.subheader("Rallye (12 cards)")
    examples = stage_examples()
    choice = st.sidebar.selectbox("Demo stage", [e.label for e in examples], key=K + "demo_choice")
    if st.sidebar.button("Open demo", key=K + "open_demo"):
        open_example(next(e.path for e in examples if e.label == choice))
    up = st.sidebar.file_uploader("Open a stage or deck (YAML)", type=["yaml", "yml"], key=K + "upload")
    if up is not None and ss.get(K + "uploaded") != (up.name, up.size):
        ss[K + "uploaded"] = (up.name, up.size)
        try:
            data = up.getvalue()
            if len(data) > yamlio.MAX_BYTES:
                raise DesignerError("the file is too large for a stage or deck", where=up.name)
            open_text(data.decode("utf-8-sig", errors="replace"), up.name)
        except DesignerError as exc:
            ss[K + "message"] = f"error: {exc}"
    with st.sidebar.expander("New stage"):
        name = st.text_input("Name", "SS new", key=K + "new_name")
        if st.button("Start an empty stage", key=K + "new_stage"):
            ss[K + "stage"] = {"system": "rallye", "stage": name or "SS new",
                               "deck": str(ss[K + "deck"].get("deck", "rallye-demo")), "cards": []}
            ss[K + "result"] = None
            ss[K + "editor_version"] = ss.get(K + "editor_version", 0) + 1
            ss[K + "message"] = "new stage: choose 12 cards or draft them"
    msg = ss.get(K + "message")
    if msg:
        (st.sidebar.error if msg.startswith("error") else st.sidebar.caption)(msg)


def tabs() -> list[tuple[str, Callable[[], None]]]:
    from designer.app.rallye import deck_page, stage_page

    _ensure()
    return [("Stage", stage_page.stage_tab), ("Analysis", stage_page.analysis_tab),
            ("Road book", stage_page.roadbook_tab), ("Deck editor", deck_page.deck_tab)]
