"""What of the Rallye work the page address keeps: the stage (its cards as chosen so far), and the deck when it is
the owner's own (edited or uploaded) rather than a bundled deck by its name.

Everything read back is checked as an upload is: a deck named by name, never by path, or carried whole.
"""
from __future__ import annotations

from typing import Any

from designer.app.address import Kept, document_and_box, open_parts, yaml_text
from designer.app.rallye import deckedit
from designer.app.rallye.state import K, current_deck, current_stage, ensure, open_stage, ss
from designer.core import offered
from designer.core.errors import DesignerError
from designer.systems.rallye.model.deck import deck_from_data, get_deck
from designer.systems.rallye.model.stage import Rally, dumps
from designer.systems.rallye.system import SYSTEM

ADDRESS_PARAMS = ("stage", "box")
WHERE = "the page address"


def bundled_deck(name: Any) -> dict | None:
    """The data of the bundled deck called ``name`` (cached by the deck reader), or None."""
    if not isinstance(name, str) or not offered.is_plain(name):
        return None
    try:
        return get_deck(name, None).data
    except DesignerError:
        return None


def address_work() -> list[Kept]:
    deck = ss.get(K + "deck")
    return document_and_box(Kept("stage", ss.get(K + "stage"), "stage", "stage.yaml", lambda: dumps(current_stage())),
                            Kept("box", deck, "deck", text=lambda: deckedit.dumps_deck(deck)), bundled_deck, "deck")


def open_address(found: dict[str, Any]) -> None:
    held: dict[str, Any] = {}

    def open_deck(data: Any) -> None:
        if not isinstance(data, dict):
            raise DesignerError("this link holds no deck", where=WHERE)
        held["deck"] = deck_from_data(data, {}, WHERE)          # checked like an uploaded deck
        held["data"] = data

    def open_stage_data(data: Any) -> None:
        doc = SYSTEM.loads(yaml_text(data, "stage"), WHERE)     # a deck named by name only, as for an upload
        stage = doc.stages[0] if isinstance(doc, Rally) else doc
        deck, note = held.get("deck"), ""
        if deck is None:
            try:
                deck = SYSTEM.box_of(stage)
            except DesignerError:
                if not offered.is_plain(stage.deck):       # a path: refused, never looked up
                    raise
                ensure()                                  # a deck too large for the address: the demo deck
                deck = current_deck()
                note = (f"the deck {stage.deck!r} is not in this address (too large for it) nor bundled: the "
                        f"stage is shown with the deck {deck.name!r}; upload your deck to use it")
        open_stage(stage, deck, WHERE)
        ss[K + "message"] = note

    try:
        open_parts(found, [("box", open_deck), ("stage", open_stage_data)])
    finally:
        if "deck" in held and K + "stage" not in ss:       # the deck came, its stage did not: keep the deck
            ensure()
            ss[K + "deck"] = held["data"]
            ss[K + "stage"]["deck"] = str(held["data"].get("deck"))
