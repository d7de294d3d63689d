"""Rallye speed plans: the acceleration rule, the cautious and fastest plans and their invariants, simulation."""
from __future__ import annotations

import itertools
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from designer.systems.rallye.driving.plan import reachable, solve
from designer.systems.rallye.driving.simulate import simulate
from designer.systems.rallye.model.deck import get_deck, loads_deck

DECK = get_deck("rallye-demo")
IDS = sorted(DECK.sections, key=int)

STRAIGHTS = """system: rallye
deck: straights
sections:
""" + "".join(f"  - {{id: {i}, width: wide, surface: tarmac, severity: none, safety: 240, top: 240}}\n" for i in range(1, 13)) + \
    "  - {id: 13, width: narrow, surface: gravel, severity: red, direction: left, safety: 40, top: 60}\n" + \
    "actions:\n  - {id: a, acceleration: ACC, steering: [red-left], owner: start, count: 12}\n"

stages = st.lists(st.sampled_from(IDS), min_size=12, max_size=12, unique=True)
settings_ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                     derandomize=bool(os.environ.get("CI")))          # reproducible in CI, a fresh search locally


def test_acceleration_rule_on_a_straight_stage():
    slow = loads_deck(STRAIGHTS.replace("ACC", "20"))          # six cards of 20 km/h: +120 km/h per section at most
    plan = solve(slow, [slow.section(i) for i in range(1, 13)], cautious=True)
    assert plan.speeds == [120] + [240] * 11
    assert plan.expected == pytest.approx(7 + 11 * 1)          # 13 - 120/20 = 7 s, then 1 s per section
    quick = loads_deck(STRAIGHTS.replace("ACC", "40"))         # six cards of 40: 0 to 240 in one section
    assert solve(quick, [quick.section(i) for i in range(1, 13)], cautious=True).expected == pytest.approx(12)


def test_braking_is_limited_by_the_cards_too():
    slow = loads_deck(STRAIGHTS.replace("ACC", "20"))
    sections = [slow.section(i) for i in range(1, 12)] + [slow.section(13)]
    plan = solve(slow, sections, cautious=True)
    assert plan.speeds[-1] == 40 and plan.speeds[-2] <= 160    # slowed down one section early to make the hairpin
    assert plan.legs[-1].penalty == 0


def test_reachable_matches_brute_force():
    hand = ((1, frozenset({"red-left"})), (2, frozenset()), (2, frozenset({"orange-right"})), (3, frozenset()))
    for wheel in (None, "red-left", "orange-right", "yellow-left"):
        right, anyway = reachable(hand, 3, wheel, True)
        want_right, want_any = set(), set()
        for choice in itertools.product((0, 1, -1), repeat=len(hand)):
            if sum(1 for c in choice if c) > 3:
                continue
            value = sum(c * card[0] for c, card in zip(choice, hand))
            want_any.add(value)
            if wheel is None or any(c and wheel in card[1] for c, card in zip(choice, hand)):
                want_right.add(value)
        assert right == want_right and anyway == want_any
    assert reachable(hand, 6, "yellow-left", True)[0] == frozenset()      # no card carries that arrow


@settings_
@given(stages)
def test_cautious_plan_is_never_faster_than_the_fastest(ids):
    sections = [DECK.sections[i] for i in ids]
    cautious, fastest = solve(DECK, sections, cautious=True), solve(DECK, sections)
    assert cautious.expected >= fastest.expected - 1e-9
    assert cautious.expected >= sum(DECK.ruleset.solo(s.top // 20) for s in sections)   # nobody beats the top speeds


@settings_
@given(stages)
def test_cautious_plan_stays_under_safety_where_it_can_brake(ids):
    sections = [DECK.sections[i] for i in ids]
    plan = solve(DECK, sections, cautious=True)
    for i, (leg, s) in enumerate(zip(plan.legs, sections)):
        if leg.speed > s.safety:        # only when the section before was too fast to brake from in one go
            assert i > 0 and plan.legs[i - 1].speed - s.safety > 0


@settings_
@given(stages, st.integers(0, 11), st.integers(1, 12))
def test_raising_a_safety_speed_never_slows_the_best_plan(ids, where, raise_by):
    sections = [DECK.sections[i] for i in ids]
    s = sections[where]
    new_safety = min(s.top, s.safety + 20 * raise_by)
    raised = sections[:where] + [s.with_safety(new_safety)] + sections[where + 1:]
    assert solve(DECK, raised).expected <= solve(DECK, sections).expected + 1e-9
    assert solve(DECK, raised, cautious=True).expected <= solve(DECK, sections, cautious=True).expected + 1e-9


def test_simulation_is_reproducible_and_no_better_than_the_ideal():
    sections = [DECK.sections[i] for i in IDS[:12]]
    plan = solve(DECK, sections)
    a = simulate(DECK, sections, plan, runs=150, seed=5)
    b = simulate(DECK, sections, plan, runs=150, seed=5)
    assert a == b
    assert a["runs"] == 150 and sum(a["histogram"].values()) == 150
    # Real hands cannot do better on average than the best hand every time (allow for sampling noise).
    assert a["mean_seconds"] >= plan.expected - 1.5
    assert a["best_seconds"] >= sum(DECK.ruleset.solo(s.top // 20) for s in sections)


def test_stress_cards_in_the_starting_set_cost_time():
    sections = [DECK.sections[i] for i in ["40", "15", "11", "22", "36", "1", "19", "33", "39", "38", "25", "5"]]
    plan = solve(DECK, sections)
    clean = simulate(DECK, sections, plan, runs=200, seed=3)
    stressed = simulate(DECK, sections, plan, runs=200, seed=3, extra_stress=3)
    assert stressed["extra_stress"] == 3
    # Fewer action cards in hand; but a stress card is also the card a driver lays face down when it plays
    # nothing (no action card lost), so a driver who plays its hand loses little: never a clear gain.
    assert stressed["mean_seconds"] >= clean["mean_seconds"] - 1.0


def test_spin_figures_say_what_they_measure_and_batch_reports_real_hands():
    from pathlib import Path

    from designer.systems.rallye.system import SYSTEM

    path = Path(__file__).resolve().parent.parent / "stages" / "rallye" / "demo-ss1-col-des-essais.yaml"
    stage = SYSTEM.load(path)
    deck = SYSTEM.box_of(stage, path.parent)
    result = SYSTEM.analyse(stage, deck, runs=600)      # a spin in under 1 % of runs: enough runs to see some
    sim = result["simulation"]["fastest"]
    assert sim["spins_per_stage"] > 0 and 0 < sim["spin_stage_chance"] <= 1
    facts = SYSTEM.facts(stage, deck, result)
    assert facts["loss_of_control"] == sim["spin_stage_chance"]
    fastest_line = next(s for s in result["summary"] if s.startswith("fastest plan"))
    assert "best hand" in fastest_line
    real = next(s for s in result["summary"] if s.startswith("with real hands"))
    from designer.systems.rallye.analyse import _percent

    assert f"spins in {_percent(sim['spin_stage_chance'])} of runs" in real       # runs with at least one spin
    assert f"{sim['spins_per_stage']} per stage" in real
    assert SYSTEM.facts(stage, deck, SYSTEM.analyse(stage, deck, runs=0))["loss_of_control"] is None
