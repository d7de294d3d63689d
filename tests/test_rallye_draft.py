"""Drafting a Rallye stage, laying it on the table, and the located validation messages."""
from __future__ import annotations

import os

import statistics
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from designer.core.errors import DesignerError
from designer.systems.rallye.model.deck import get_deck
from designer.systems.rallye.model.rules import Param
from designer.systems.rallye.model.stage import loads
from designer.systems.rallye.table.draft import draft
from designer.systems.rallye.table.layout import exit_of, lay_out
from designer.systems.rallye.validate import validate

DECK = get_deck("rallye-demo")
RULES = DECK.ruleset


def codes(problems, severity="error"):
    return [p.code for p in problems if p.severity == severity]


@settings(max_examples=30, deadline=None, derandomize=bool(os.environ.get("CI")))
@given(st.integers(0, 10 ** 6), st.integers(1, 4), st.sampled_from(["random", "fast", "slow"]))
def test_a_draft_is_a_legal_stage(seed, players, policy):
    """Every draft of the demo deck lays a stage: when the piles run out the discards are reshuffled."""
    result = draft(DECK, players, seed, policy)
    assert len(result.cards) == 12 and len(set(result.cards)) == 12
    assert lay_out([DECK.sections[c] for c in result.cards], RULES).ok
    assert draft(DECK, players, seed, policy).cards == result.cards          # the same seed, the same stage
    stage = loads(f"system: rallye\nstage: drafted\ncards: {result.cards}\n", "drafted")
    assert codes(validate(stage, DECK)) == []


@pytest.mark.parametrize("seed", [4448, 4451, 8025, 77, 123456])
def test_a_slow_draft_that_once_ran_out_now_lays_a_stage(seed):
    result = draft(DECK, 1, seed, "slow")
    assert len(result.cards) == 12 and lay_out([DECK.sections[c] for c in result.cards], RULES).ok


def test_the_piles_are_reshuffled_when_they_run_out():
    few = {k: v for k, v in list(DECK.sections.items())[::3]}           # 14 cards, straights and corners
    deck = type(DECK)(**{**DECK.__dict__, "sections": few})
    found, refused = [], []
    for seed in range(40):
        try:
            found.append(draft(deck, 1, seed, "slow"))
        except DesignerError as exc:
            refused.append(str(exc))
    assert any("reshuffled" in " ".join(r.log) for r in found)
    assert all(len(r.cards) == 12 and lay_out([deck.sections[c] for c in r.cards], RULES).ok for r in found)
    # with 14 cards some orders leave no way to finish: said so, naming the reshuffles
    assert len(refused) < 5 and all("reshuffled 20 times" in m for m in refused)


def test_fast_drafters_lay_faster_stages_than_slow_ones():
    def mean_safety(policy):
        return statistics.fmean(DECK.sections[c].safety for seed in range(20)
                                for c in draft(DECK, 3, seed, policy).cards)
    assert mean_safety("fast") > mean_safety("random") > mean_safety("slow")


def test_a_stage_from_its_draft_line():
    stage = loads("system: rallye\nstage: d\ndraft: {seed: 41, players: 4}\n", "d.yaml")
    problems = validate(stage, DECK)
    assert codes(problems) == []
    assert draft(DECK, 4, 41).cards == ["40", "15", "11", "22", "36", "1", "19", "33", "39", "38", "25", "5"]


def test_a_draft_that_cannot_finish_says_so():
    tiny = dict(RULES.params)
    tiny["table_cards"] = Param({"columns": 2, "rows": 1}, "assumed", "test")
    deck = type(DECK)(**{**DECK.__dict__, "ruleset": type(RULES)(RULES.name, RULES.title, tiny, RULES.tables)})
    with pytest.raises(DesignerError, match="the deck ran out after"):
        draft(deck, 2, 1)


def _ids(severity, direction=None, n=1):
    out = [s.id for s in DECK.sections.values() if s.severity == severity and (direction is None or s.direction == direction)]
    return out[:n]


def test_four_right_turns_close_on_the_start():
    rights = _ids("orange", "right", 2) + _ids("red", "right", 2)
    straights = _ids("none", n=8)
    assert all(exit_of(DECK.sections[c], RULES.turn_quarters) == "right" for c in rights)
    cards = rights + straights
    stage = loads(f"system: rallye\nstage: loop\ncards: {cards}\n", "loop.yaml")
    problems = validate(stage, DECK)
    bad = [p for p in problems if p.code == "cannot-lay"]
    assert bad and "section 4" in bad[0].message and "run into section 1" in bad[0].message
    assert bad[0].where == "loop.yaml:3: cards[3]"


def test_a_long_straight_outgrows_the_table():
    straights = _ids("none", n=9) + _ids("yellow", n=3)
    stage = loads(f"system: rallye\nstage: long\ncards: {straights}\n", "long.yaml")
    bad = [p for p in validate(stage, DECK) if p.code == "cannot-lay"]
    assert bad and "outgrow the table" in bad[0].message or "leave the table" in bad[0].message


def test_validation_messages_say_where():
    cards = ["32", "5", "37", "25", "13", "4", "31", "17", "9", "27", "5"]
    text = "system: rallye\nstage: bad\ncards:\n" + "".join(f"  - {c}\n" for c in cards)
    problems = validate(loads(text, "bad.yaml"), DECK)
    assert codes(problems) == ["stage-length", "card-twice"]
    twice = next(p for p in problems if p.code == "card-twice")
    assert twice.where == "bad.yaml:14: cards[10]" and "already section 2" in twice.message
    length = next(p for p in problems if p.code == "stage-length")
    assert "11 cards" in length.message and "add 1" in length.hint
    unknown = validate(loads(text.replace("  - 9\n", "  - 99\n"), "bad.yaml"), DECK)
    miss = next(p for p in unknown if p.code == "unknown-card")
    assert miss.where == "bad.yaml:12: cards[8]" and "no card '99'" in miss.message


def test_demo_stages_are_valid_and_flag_demo_data():
    for path in sorted((Path(__file__).resolve().parent.parent / "stages" / "rallye").glob("demo-ss*.yaml")):
        problems = validate(loads(path.read_text(encoding="utf-8"), str(path)), DECK)
        assert codes(problems) == [], path
        assert "demo-deck" in codes(problems, "info") and "assumed-tables" in codes(problems, "info")


@settings(max_examples=15, deadline=None, derandomize=bool(os.environ.get("CI")))
@given(st.integers(0, 10 ** 6), st.sampled_from(["fast", "slow"]), st.integers(1, 5))
def test_a_drafting_driver_sees_the_fronts_only(seed, policy, turn):
    """The draft lays cards "sans montrer l'autre face": deal the backs of the cards that share a front among them
    in another order, and a fast or a slow driver lays the same cards."""
    from dataclasses import replace

    groups: dict = {}
    for cid, s in DECK.sections.items():
        groups.setdefault((s.width, s.surface, s.severity, s.direction), []).append(cid)
    dealt = dict(DECK.sections)
    for ids in groups.values():
        backs = [(DECK.sections[i].safety, DECK.sections[i].top) for i in ids]
        backs = backs[turn % len(backs):] + backs[:turn % len(backs)]
        for i, (safety, top) in zip(ids, backs):
            dealt[i] = replace(DECK.sections[i], safety=safety, top=top)
    other = replace(DECK, sections=dealt)
    assert any(dealt[i] != DECK.sections[i] for i in dealt)
    a, b = draft(DECK, 2, seed, policy), draft(other, 2, seed, policy)
    assert a.cards == b.cards
