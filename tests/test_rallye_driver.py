"""The simulated driver plays its own hand: it keeps the arrows the corners ahead need, never spends an arrow card
where it buys nothing, and does better than a driver who plays as if it always held the best hand."""
from __future__ import annotations

import random

from designer.systems.rallye.driving.plan import solve
from designer.systems.rallye.driving.simulate import _choose, simulate
from designer.systems.rallye.model.deck import get_deck, loads_deck

DECK = get_deck("rallye-demo")

TWO = """system: rallye
deck: two
sections:
  - {id: 1, width: wide, surface: tarmac, severity: none, safety: 240, top: 240}
  - {id: 2, width: wide, surface: tarmac, severity: none, safety: 240, top: 240}
  - {id: 3, width: narrow, surface: gravel, severity: red, direction: left, safety: 40, top: 80}
actions:
  - {id: plain, acceleration: 20, steering: [], owner: start, count: 6}
  - {id: red, acceleration: 20, steering: [red-left], owner: start, count: 2}
"""


def test_an_arrow_card_is_not_spent_on_a_straight_when_a_plain_one_does():
    deck = loads_deck(TWO, "two.yaml")
    sections = [deck.section(i) for i in ("1", "2", "3")]
    plan = solve(deck, sections)
    hand = sorted([(1, frozenset({"red-left"})), (1, frozenset())], key=lambda c: (c[0], sorted(c[1])))
    # at 220 km/h on a straight: one card of +20 makes 240, the plain one or the red arrow; the plain one goes
    for keep in (True, False):
        pile = [(1, frozenset())] * 6                                  # what it may draw
        v, ok, used = _choose(deck, sections, plan, 0, 11, hand, pile, random.Random(1), keep, {})
        assert v == 12 and len(used) == 1 and not hand[used[0]][1]


def test_the_red_arrow_is_kept_for_the_hairpin_it_can_see():
    deck = loads_deck(TWO, "two.yaml")
    sections = [deck.section(i) for i in ("1", "2", "3")]
    plan = solve(deck, sections)
    runs = simulate(deck, sections, plan, runs=200, seed=5)
    assert runs["spin_stage_chance"] == 0


def test_playing_the_hand_beats_the_best_hand_assumption_on_spins():
    ids = ["32", "5", "37", "25", "13", "4", "31", "17", "9", "27", "8", "26"]
    sections = [DECK.sections[i] for i in ids]
    fastest = solve(DECK, sections)
    sim = simulate(DECK, sections, fastest, runs=200, seed=2)
    assert sim["mean_seconds"] >= fastest.expected - 1.5            # never better than the best hand each time
    assert sim["spin_stage_chance"] < 0.25                          # the old driver spun in about a third of runs
    cautious = simulate(DECK, sections, solve(DECK, sections, cautious=True), runs=200, seed=2)
    assert cautious["spin_stage_chance"] <= 0.02
    assert "cards_bought_per_stage" in sim and sim["cards_bought_per_stage"] == 0
