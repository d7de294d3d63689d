"""The DIRT expected-time sweep (many boundaries per numpy call) against the plain recursion, and the plan
search shared by the damaged dashboards against a search of each dashboard on its own."""
from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.racing.mdp import solve
from designer.systems.dirt.dice.mishaps import load_mishaps
from designer.systems.dirt.dice.plans import StepTable, pareto_plans, plan_set, search_plans
from designer.systems.dirt.dice.sweep import closure, sweep
from designer.systems.dirt.dice.turn_model import DirtModel
from designer.systems.dirt.driving.rules import TurnEngine, road_of
from designer.systems.dirt.driving.ruleset import Pool, load_ruleset
from tests.test_expected_dirt import demo_track   # the demonstration stage of the expected-time tests

@functools.lru_cache(maxsize=None)
def demo_road():
    return road_of(demo_track().graph)


def _model(sisu=False, **changes):
    mishaps = load_mishaps().replace(**changes) if changes else load_mishaps()
    return DirtModel(demo_road(), load_ruleset(), mishaps, sisu=sisu)


@pytest.mark.parametrize("sisu", [False, True])
def test_sweep_gives_the_values_of_the_recursion(sisu):
    swept = _model(sisu)
    starts = [(s, 0, swept.start_damage) for s in swept.road.starts()]
    known = sweep(swept, starts)
    assert known is not None
    plain = _model(sisu)
    reference = solve(plain, starts)
    # the closure holds every state the recursion meets (with the SISU token, also where cancelling a loss of
    # control on plans the branch and bound never rolled out would lead)
    # without the SISU token, the states after a change of wheel only where the change could pay (here nowhere)
    assert set(known[0]) == closure(plain, starts, wheel=sisu)
    if sisu:
        assert set(known[0]) >= set(reference.values)
    else:
        missing = set(reference.values) - set(known[0])
        assert set(known[0]) <= set(reference.values) and missing and all(s[2][3] for s in missing)
    worst = max(float(abs(known[0][s] - v).max()) for s, v in reference.values.items() if s in known[0])
    assert worst < 1e-9
    # and the decisions taken are worth the same (ties may pick another plan of equal value)
    fast = solve(swept, starts, known)
    for s in starts:
        for t in range(swept.T1):
            outs = fast.outcomes(s, t)
            again = sum(o.p * (o.seconds + fast.value(o.state, o.bank)) for o in outs)
            assert again == pytest.approx(reference.value(s, t), abs=1e-6)


def test_one_search_serves_every_damaged_dashboard():
    """The plan set of a dashboard with a die less, taken from the full dashboard's search, is the plan set
    a search of that dashboard alone finds."""
    road = demo_road()
    rules = load_ruleset()
    full = rules.pool("gravel", False)
    table = StepTable(rules, [road.graph.nodes[n].get("cut") is not None for n in road.nodes])
    smaller = [Pool(gear=full.gear - 1, gas=full.gas, brake=full.brake, leader=full.leader),
               Pool(gear=full.gear, gas=full.gas - 1, brake=full.brake, leader=full.leader),
               Pool(gear=full.gear, gas=full.gas, brake=full.brake - 1, leader=full.leader)]
    checked = 0
    for cell in range(len(road.nodes)):
        for gear in range(0, 7):
            search = search_plans(TurnEngine(road, rules, full, None), cell, gear)
            for pool in smaller:
                shared = plan_set(None, cell, gear, table, pool, search)
                alone = plan_set(TurnEngine(road, rules, pool, None), cell, gear, table)
                assert shared.steps == alone.steps
                checked += shared.n
    assert checked > 100


def test_pareto_plans_keep_more_tokens_only_for_more_risk():
    road = demo_road()
    rules = load_ruleset()
    engine = TurnEngine(road, rules, rules.pool("gravel", False), None)
    by_end: dict = {}
    for cell in range(len(road.nodes)):
        for gear in range(0, 7):
            for end, gain, risk, _key in pareto_plans(search_plans(engine, cell, gear)):
                by_end.setdefault((cell, gear, end), []).append((gain, risk))
    assert any(len(v) > 1 for v in by_end.values())          # some end is kept with several plans
    for plans in by_end.values():
        gains = [g for g, _ in plans]
        risks = [r for _, r in plans]
        assert gains == sorted(gains, reverse=True) and len(set(gains)) == len(gains)
        assert all(a > b for a, b in zip(risks, risks[1:]))      # fewer tokens only for strictly less risk


def test_changing_the_spare_wheel_goes_forward():
    """The spare wheel keeps the car on its cell in gear 0: the model's order of states still grows, so that
    following the policy (statistics, distribution) never meets a state twice."""
    from designer.systems.dirt.dice.turn_model import Decision

    model = _model()
    state = (3, 1, (0, 1, 0, 0, 0))
    outs = model.outcomes(state, 0, Decision("spare"), lambda s: None)
    assert [o.state for o in outs] == [(3, 0, (0, 0, 0, 1, 0))]
    assert model.progress(outs[0].state) > model.progress(state)
    assert model.progress((4, 0, (0, 0, 0, 1, 0))) > model.progress((3, 6, (0, 0, 0, 1, 0)))


@pytest.mark.parametrize("max_damage", [1, 2])
def test_a_spent_spare_wheel_that_never_counts_again_changes_no_value(max_damage, monkeypatch):
    """The sweep works out once the states whose spent spare wheel can never matter (no gas damage and no
    more damage tracked) and copies them from the same state with the wheel: the plain recursion, which
    decides each on its own, finds the same values (the sweep deciding every state after a change of wheel)."""
    from designer.systems.dirt.dice import sweep as sweep_module
    from designer.systems.dirt.dice.sweep import _twins
    from designer.systems.dirt.dice.turn_model import FIN

    model = _model(max_damage=max_damage)
    starts = [(s, 0, model.start_damage) for s in model.road.starts()]
    reference = solve(_model(max_damage=max_damage), starts)
    states = [s for s in reference.values if s != FIN and model.terminal(s) is None]
    twins = _twins(model, states)
    assert len(twins) > 10
    for state, twin in twins.items():
        assert state[2][3] == 1 and twin[2][3] == 0
        assert np.abs(reference.values[state] - reference.values[twin]).max() < 1e-9
    monkeypatch.setattr(sweep_module, "WHEEL_ON_DEMAND", False)
    values, _ = sweep(model, starts)
    assert all(np.array_equal(values[s], values[t]) for s, t in twins.items())


def _both_sweeps(road, rules, mishaps):
    """The sweep deciding the states after a change of wheel on demand, and deciding them all (the reference):
    each one's values, decisions and the statistics of the policy followed from the start."""
    from designer.systems.dirt.dice import sweep as sweep_module

    got = []
    for on_demand in (True, False):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(sweep_module, "WHEEL_ON_DEMAND", on_demand)
            model = DirtModel(road, rules, mishaps)
            starts = [(s, 0, model.start_damage) for s in model.road.starts()]
            values, decisions = sweep(model, starts)
        got.append((values, decisions, solve(model, starts, (values, decisions)).stats(starts)))
    (lazy, lazy_d, lazy_stats), (full, full_d, full_stats) = got
    assert set(lazy) <= set(full)
    assert all(s[2][3] for s in set(full) - set(lazy))            # only states with the wheel spent are left out
    for s, v in lazy.items():
        assert np.array_equal(v, full[s]), s
        if s in full_d:
            assert lazy_d[s] == full_d[s], s
    assert lazy_stats.occupancy == full_stats.occupancy and lazy_stats.seconds == full_stats.seconds
    return lazy, lazy_d, full


@settings(max_examples=10, deadline=None)
@given(seconds=st.sampled_from([0, 3, 8, 20, 60]), flat=st.sampled_from([1, 3]), max_damage=st.integers(1, 2),
       reading=st.sampled_from(["achievable", "as_laid"]))
def test_the_states_after_a_change_of_wheel_decided_on_demand_give_every_answer_of_deciding_them_all(
        seconds, flat, max_damage, reading):
    """A change of wheel is weighed against a lower bound first (the same state with the wheel still there); the
    states after it are decided only where the bound does not rule it out. Whether the change costs nothing or
    more than it could ever save: the values and decisions of every state both sweeps decide are the same, to
    the last bit, and so is the policy followed from the start."""
    base = load_mishaps()
    mishaps = base.replace(spare_wheel_seconds=seconds, max_damage=max_damage, most_damage=None,
                           cut_tokens={**base.cut_tokens, "flat": flat})
    _both_sweeps(demo_road(), load_ruleset().with_options(big_attack_failure=reading), mishaps)


@pytest.mark.parametrize("seconds", [0, 10, 30])
def test_where_a_change_of_wheel_pays_the_states_after_it_are_decided_as_when_none_were_left_out(seconds):
    """On a rulebook stage a cheap change of wheel pays somewhere: from the first cell where its bound does not
    rule it out, every state after a change is decided, and the answers are those of deciding them all; at 30 s a
    change pays on few boundaries."""
    from designer.systems.dirt.board.stage import load_stage
    from designer.systems.dirt.board.track import load_track

    road = road_of(load_track(load_stage("stages/dirt/rally-5/ss2.yaml")).graph)
    mishaps = load_mishaps().replace(spare_wheel_seconds=seconds, max_damage=1, most_damage=None)
    lazy, decisions, full = _both_sweeps(road, load_ruleset(), mishaps)
    assert any(d.mode == "spare" for row in decisions.values() for d in row)
    assert any(s[2][3] for s in lazy if s in full and len(s) == 3)
