"""Rallye deck and stage files: the demo data loads, bad files give every problem with its file and line."""
from __future__ import annotations

from pathlib import Path

import pytest

from designer.core.errors import DesignerError
from designer.systems.rallye.model.deck import get_deck, load_deck, loads_deck
from designer.systems.rallye.model.stage import Rally, Stage, dumps, load, loads

ROOT = Path(__file__).resolve().parent.parent
DEMO_DECK = ROOT / "tilesets" / "rallye" / "rallye-demo.yaml"
STAGES = ROOT / "stages" / "rallye"

GOOD_DECK = """system: rallye
deck: tiny
widths: [narrow, wide]
surfaces: [tarmac, gravel]
types:
  - {type: hairpin, width: narrow, surface: gravel, severity: red, safety: [20, 60], top: [60, 100]}
sections:
  - {id: 1, width: wide, surface: tarmac, severity: none, safety: 240, top: 240}
  - {id: 2, type: hairpin, direction: left, safety: 40, top: 80}
actions:
  - {id: a, acceleration: 40, steering: [red-left], owner: start, count: 12}
"""


def test_demo_deck_is_marked_and_complete():
    deck = get_deck("rallye-demo")
    assert deck.demo and "not the game" in deck.title
    assert "DEMO" in DEMO_DECK.read_text(encoding="utf-8").splitlines()[0]
    assert len(deck.sections) >= 36
    assert len(deck.starting_set()) == deck.ruleset.starting_set_size == 12
    assert len(deck.starting_set()) * 4 + len(deck.pile()) == 80        # 48 in the J1-J4 sets and a pile of 32
    assert deck.stress_count == 24
    arrows = set().union(*(a.steering for a in deck.starting_set()))
    assert {s.wheel for s in deck.sections.values() if s.wheel} <= arrows   # the starting set steers every corner


def test_type_fills_in_a_card():
    deck = loads_deck(GOOD_DECK)
    card = deck.section(2)
    assert (card.width, card.surface, card.severity, card.wheel) == ("narrow", "gravel", "red", "red-left")
    assert deck.section("1").wheel is None and deck.section("1").pace_note() == "straight"


def test_bad_deck_lists_every_problem_with_its_line():
    text = GOOD_DECK.replace("safety: 40, top: 80}", "safety: 90, top: 80}").replace(
        "severity: none, safety: 240", "severity: none, direction: left, safety: 240").replace(
        "steering: [red-left]", "steering: [purple-left]") + "  - {id: a, acceleration: 30}\n"
    with pytest.raises(DesignerError) as exc:
        loads_deck(text, "mine.yaml")
    msg = str(exc.value)
    assert "mine.yaml:9: sections[1].safety: a speed in km/h from 0 to 240, in steps of 20, not 90" in msg
    assert "mine.yaml:8: sections[0].direction: a straight has no direction" in msg
    assert "mine.yaml:11: actions[0].steering: unknown arrow 'purple-left'" in msg
    assert "actions[1].id: the action card a is given twice" in msg
    assert "actions[1].acceleration" in msg
    assert "hint:" in msg


def test_unknown_type_and_duplicate_card():
    text = GOOD_DECK.replace("type: hairpin, direction", "type: hairpn, direction") + \
        "  - {id: 9, acceleration: 20}\n"
    text = text.replace("  - {id: 2,", "  - {id: 1,")
    with pytest.raises(DesignerError) as exc:
        loads_deck(text, "d.yaml")
    assert "the card number 1 is used twice" in str(exc.value)


def test_broken_yaml_and_wrong_files():
    with pytest.raises(DesignerError, match="not valid YAML"):
        loads_deck("deck: [unclosed\n", "x.yaml")
    with pytest.raises(DesignerError, match="not a Rallye deck"):
        loads_deck("system: rallye\nsections: []\n")
    with pytest.raises(DesignerError, match="for Rallyman: DIRT") as exc:
        loads_deck("system: dirt\ndeck: x\n")
    assert "write `system: rallye`" in str(exc.value)
    with pytest.raises(DesignerError, match="no deck named 'nope'"):
        get_deck("nope")
    with pytest.raises(DesignerError, match="no such"):
        load_deck("/nonexistent/deck.yaml")


def test_demo_stages_and_rally_load_and_round_trip():
    files = sorted(STAGES.glob("*.yaml"))
    assert len([f for f in files if "ss" in f.stem]) == 3
    for f in files:
        assert "system: rallye" in f.read_text(encoding="utf-8")
        assert "demo" in f.read_text(encoding="utf-8").lower()
    rally = load(STAGES / "demo-rally.yaml")
    assert isinstance(rally, Rally) and len(rally.stages) == 3
    for stage in rally.stages:
        again = loads(dumps(stage), "again")
        assert isinstance(again, Stage) and again.cards == stage.cards and again.name == stage.name
        assert len(stage.cards) == 12
    inline = loads(dumps(rally), "rally text")
    assert isinstance(inline, Rally) and [s.cards for s in inline.stages] == [s.cards for s in rally.stages]


def test_stage_errors_are_located():
    text = "system: rallye\nstage: ''\ncards: [1, 2, {x: 3}]\nplayers: 7\ndraft: {seed: x}\n"
    with pytest.raises(DesignerError) as exc:
        loads(text, "s.yaml")
    msg = str(exc.value)
    assert "s.yaml:2: stage: the stage's name is 1 to 200 characters" in msg
    assert "s.yaml:3: cards[2]: a card number is a word or a number" in msg
    assert "s.yaml:4: players: Rallye is for 1 to 4 drivers" in msg
    assert "s.yaml:5: draft.seed" in msg
    with pytest.raises(DesignerError, match="needs its cards"):
        loads("system: rallye\nstage: x\n")
    with pytest.raises(DesignerError, match="this is a deck"):
        load(DEMO_DECK)


def test_rally_from_text_needs_inline_stages():
    with pytest.raises(DesignerError, match="inline"):
        loads("system: rallye\nrally: r\nstages: [a.yaml]\n")


def test_rally_cannot_reach_outside_its_folder(tmp_path):
    (tmp_path / "r.yaml").write_text("system: rallye\nrally: r\nstages: [../../etc/passwd]\n", encoding="utf-8")
    with pytest.raises(DesignerError, match="outside the rally's folder"):
        load(tmp_path / "r.yaml")


@pytest.mark.parametrize("name", ["../../etc/passwd", "/etc/hosts", ".hidden", "a\\b"])
def test_decks_and_rulesets_are_named_not_reached_by_path(name):
    with pytest.raises(DesignerError, match="named by a path"):
        get_deck(name)
    with pytest.raises(DesignerError, match="named by a path"):
        loads_deck(GOOD_DECK.replace("deck: tiny", f"deck: tiny\nruleset: '{name}'"))
