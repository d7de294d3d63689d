"""An independent solver written from the rulebook (shared/seeds/004_…), compared with the product's planner.

The solver below does not call the product's planning code: on tiny stages (2 to 4 sections) it enumerates every
legal play of the hand at every section (each card of the hand left in hand, laid upright, or laid across; at
most the cards a turn allows), reads each crossing from the tables as the rules do (one die, six faces), and
takes the best expectation over the backs a driver cannot see yet (the player aid's ranges, every pair of safety
and top speed equally likely, as the ruleset's ``hidden_backs`` says). It checks:

- the product's plan from the fronts expects what the brute force expects, and posts on the real cards what
  the brute force's own choices post (the same tie rule: the lower speed, then the wheel right);
- with every back known, the same on the real backs;
- a hand-worked stage where hiding the backs changes the plan.
"""
from __future__ import annotations

import dataclasses
import itertools
import os
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from designer.systems.rallye.driving.plan import solve
from designer.systems.rallye.model.deck import loads_deck
from designer.systems.rallye.model.rules import Param

CI = settings(max_examples=60, deadline=None, derandomize=bool(os.environ.get("CI")),
              suppress_health_check=[HealthCheck.too_slow])

# The rulebook's numbers (S4): 13 - speed/20 s a section, a spin 5 s more and timed at 0 km/h.
STEP, TOP, AT_ZERO, SPIN_PENALTY = 20, 12, 13, 5
RIGHT = {0: (0, 0, 0, 0, 0, 0), 1: (0, 0, 0, 1, 1, 2), 2: (0, 1, 1, 2, 3, "spin"), 3: (1, 2, 3, "spin", "spin", "spin")}
WRONG = {0: (0, 0, 1, 1, 2, 3), 1: (1, 1, 2, 3, "spin", "spin"), 2: (2, 3, "spin", "spin", "spin", "spin")}


def faces(v: int, safety: int, top: int, wheel_ok: bool) -> tuple:
    """The six faces of the die for a crossing at step v (the bundled ruleset's tables, written out again)."""
    if v > top:
        return ("spin",) * 6
    table = RIGHT if wheel_ok else WRONG
    return table.get(max(0, v - safety), ("spin",) * 6)


def cost(v: int, face) -> tuple[int, int]:
    if face == "spin":
        return AT_ZERO + SPIN_PENALTY, 0
    return AT_ZERO - v + face, v


def plays(hand: tuple, most: int, wheel: str | None) -> set[tuple[int, bool]]:
    """Every (change of speed in steps, wheel right) a hand can make: each card kept, upright or across."""
    out = set()
    for signs in itertools.product((0, 1, -1), repeat=len(hand)):
        if sum(1 for s in signs if s) > most:
            continue
        change = sum(s * card[0] for s, card in zip(signs, hand))
        ok = wheel is None or any(s and wheel in card[1] for s, card in zip(signs, hand))
        out.add((change, ok))
    return out


def brute(sections: list[dict], hand: tuple, most: int, hidden: bool) -> tuple[float, float]:
    """(expected seconds as the driver sees them, expected seconds of those choices on the real cards)."""

    def backs(s):
        if not hidden:
            return [(1.0, s["safety"], s["top"])]
        pairs = [(a, b) for a in range(s["aid_safety"][0], s["aid_safety"][1] + 1)
                 for b in range(s["aid_top"][0], s["aid_top"][1] + 1) if a <= b]
        return [(1 / len(pairs), a, b) for a, b in pairs]

    def expect(i, v, ok, back_list, after):
        return sum(pb * sum(c + after(i + 1, nv) for c, nv in (cost(v, f) for f in faces(v, a, b, ok))) / 6
                   for pb, a, b in back_list)

    @lru_cache(maxsize=None)
    def choose(i: int, prev: int):
        s = sections[i]
        best = None
        for change, ok in plays(hand, most, s["wheel"]):
            v = prev + change
            if not 0 <= v <= TOP:
                continue
            value = expect(i, v, ok, backs(s), believed)
            key = (value, v, not ok)
            if best is None or value < best[0] - 1e-9 or (abs(value - best[0]) <= 1e-9 and key[1:] < best[1][1:]):
                best = (value, key, (v, ok))
        return best

    @lru_cache(maxsize=None)
    def believed(i: int, prev: int) -> float:
        return 0.0 if i == len(sections) else choose(i, prev)[0]

    @lru_cache(maxsize=None)
    def real(i: int, prev: int) -> float:
        if i == len(sections):
            return 0.0
        v, ok = choose(i, prev)[2]
        s = sections[i]
        return expect(i, v, ok, [(1.0, s["safety"], s["top"])], real)

    return believed(0, 0), real(0, 0)


# -- random tiny stages ----------------------------------------------------------------------------------

COLOURS = ("none", "yellow", "orange", "red")


@st.composite
def cases(draw):
    n = draw(st.integers(2, 4))
    sections = []
    for i in range(n):
        sev = draw(st.sampled_from(COLOURS))
        s_lo = draw(st.integers(1, 10))
        s_hi = draw(st.integers(s_lo, min(12, s_lo + 2)))
        t_lo = draw(st.integers(s_lo, 12))
        t_hi = draw(st.integers(max(t_lo, s_hi), min(12, max(t_lo, s_hi) + 2)))
        safety = draw(st.integers(s_lo, s_hi))
        top = draw(st.integers(max(t_lo, safety), t_hi))
        direction = None if sev == "none" else draw(st.sampled_from(("left", "right")))
        sections.append({"id": str(i + 1), "severity": sev, "direction": direction, "aid_safety": (s_lo, s_hi),
                         "aid_top": (t_lo, t_hi), "safety": safety, "top": top,
                         "wheel": None if sev == "none" else f"{sev}-{direction}"})
    arrows = [f"{c}-{d}" for c in COLOURS[1:] for d in ("left", "right")]
    cards = [(draw(st.integers(1, 3)), frozenset(draw(st.lists(st.sampled_from(arrows), max_size=2))))
             for _ in range(draw(st.integers(2, 4)))]
    hand = tuple(sorted(cards, key=lambda c: (c[0], sorted(c[1]))))
    most = draw(st.integers(1, len(hand)))
    return sections, hand, most


def product_deck(sections, hand, most):
    """The same stage as a deck file (one aid line per section), with the hand as the whole starting set."""
    lines = ["system: rallye", "deck: tiny", "widths: [w]", "surfaces: [s]", "types:"]
    for s in sections:
        lines.append(f"  - {{type: t{s['id']}, width: w, surface: s, severity: {s['severity']}, "
                     f"safety: [{s['aid_safety'][0] * STEP}, {s['aid_safety'][1] * STEP}], "
                     f"top: [{s['aid_top'][0] * STEP}, {s['aid_top'][1] * STEP}]}}")
    lines.append("sections:")
    for s in sections:
        lines.append(f"  - {{id: {s['id']}, type: t{s['id']}, safety: {s['safety'] * STEP}, top: {s['top'] * STEP}"
                     + (f", direction: {s['direction']}" if s["direction"] else "") + "}")
    lines.append("actions:")
    for k, (acc, arrows) in enumerate(hand):
        lines.append(f"  - {{id: a{k}, acceleration: {acc * STEP}, steering: [{', '.join(sorted(arrows))}]}}")
    deck = loads_deck("\n".join(lines) + "\n", "tiny.yaml")
    params = dict(deck.ruleset.params)
    params["hand_size"] = Param(len(hand), "decided", "test")
    params["max_cards_per_turn"] = Param(most, "decided", "test")
    return dataclasses.replace(deck, ruleset=dataclasses.replace(deck.ruleset, params=params, _cache={}))


@CI
@given(cases())
def test_the_planner_matches_the_brute_force(case):
    sections, hand, most = case
    deck = product_deck(sections, hand, most)
    cards = [deck.sections[s["id"]] for s in sections]
    for hidden in (True, False):
        plan = solve(deck, cards, cautious=False, hidden=hidden)
        believed, real = brute(sections, hand, most, hidden)
        assert plan.believed == pytest.approx(believed, abs=1e-9)
        assert plan.expected == pytest.approx(real, abs=1e-9)
    full = solve(deck, cards, hidden=False)
    assert full.expected <= solve(deck, cards, hidden=True).expected + 1e-9     # knowing the backs never hurts


def test_a_hand_worked_stage_where_hiding_the_backs_changes_the_plan():
    # One tight corner, aid safety 40-80 and top 80-120 km/h, the card's back: safety 80, top 120.
    # Six cards of +20 with the red-left arrow: 0 to 120 km/h in one section.
    sections = [{"id": "1", "severity": "red", "direction": "left", "aid_safety": (2, 4), "aid_top": (4, 6),
                 "safety": 4, "top": 6, "wheel": "red-left"}]
    hand = tuple((1, frozenset({"red-left"})) for _ in range(6))
    deck = product_deck(sections, hand, 6)
    cards = [deck.sections["1"]]
    # Knowing the back, the cautious driver takes 80 km/h: 13 - 4 = 9 s.
    assert solve(deck, cards, cautious=True, hidden=False).speeds == [80]
    assert solve(deck, cards, cautious=True, hidden=False).expected == pytest.approx(9)
    # From the front, 80 might be 40 over a safety of 40: a cautious driver takes 40 km/h, 11 s.
    assert solve(deck, cards, cautious=True).speeds == [40]
    assert solve(deck, cards, cautious=True).expected == pytest.approx(11)
    # The fastest driver from the front: 9 pairs (safety 2..4 x top 4..6, all safety <= top). At 4 steps:
    # safety 2 -> row 2 (0,1,1,2,3,spin): 7/6 s + 1/6 spin (18 s instead of 9); safety 3 -> row 1: 4/6 s;
    # safety 4 -> row 0: 0. Mean over the three safeties: 9 + (7/6 + 9/6 + 4/6 + 0) / 3 = 9 + 20/18.
    plan = solve(deck, cards)
    assert plan.believed == pytest.approx(min(brute(sections, hand, 6, True)[0], 9 + 20 / 18))
    assert brute(sections, hand, 6, True)[0] == pytest.approx(plan.believed)
    assert solve(deck, cards, hidden=False).speeds != [40]
