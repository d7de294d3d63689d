"""The Rallye pages' session state: the stage and the deck as the plain data their YAML files hold.

Every rerun rebuilds the objects from this data, so an edit shows its problems at once.
"""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from designer.core import offered, yamlio
from designer.core.errors import DesignerError
from designer.systems.rallye.model.deck import Deck, deck_from_data
from designer.systems.rallye.model.stage import Rally, Stage, stage_data, stage_from_data
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
    data, lines = yamlio.loads_plain(text, source)
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
        deck = SYSTEM.box_of(stage)           # an upload names a bundled deck by name; a path is refused
    except DesignerError:
        if not offered.is_plain(stage.deck):
            raise
        deck = current_deck()
        ss[K + "message"] = f"the deck {stage.deck!r} is not bundled: kept the deck in the editor (upload yours)"
    open_stage(stage, deck, source)


def ensure() -> None:
    if K + "stage" not in ss:
        open_example(stage_examples()[0].path)
        ss[K + "message"] = ""


def current_deck() -> Deck:
    """The deck in the session (raises DesignerError with the problems of an edited deck)."""
    return deck_from_data(ss[K + "deck"], {}, "deck in the editor")


def current_stage() -> Stage:
    return stage_from_data(ss[K + "stage"], {}, "stage in the editor")
