"""The compiled plan search (designer/systems/dirt/dice/_search.pyx) against the Python and numpy reference of
plan_search.py and PointNumbers: the same candidates in the same order, the same Pareto choices, step rows,
gains, point numbers and plan sets, to the last bit, on every search of a rulebook stage and with the optional
rules that change the die options (canon start, red zone, leader dice), and under the reading ``as_laid`` of a
failed Big Attack (the points of a turn told apart by their failure profiles, every profile kept)."""
from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice import plan_search
from designer.systems.dirt.dice.mishaps import load_mishaps
from designer.systems.dirt.dice.plans import PointNumbers, StepTable, plan_set
from designer.systems.dirt.dice.sweep import closure, sweep
from designer.systems.dirt.dice.turn_model import DirtModel
from designer.systems.dirt.driving.rules import TurnEngine, road_of
from designer.systems.dirt.driving.ruleset import Pool, load_ruleset
from tests.test_expected_dirt import demo_track

pytestmark = pytest.mark.skipif(plan_search.COMPILED is None,
                                reason="the compiled plan search is not built here (pip install -e . builds it)")

RULEBOOK = "stages/dirt/rally-6/ss3.yaml"     # long jumps: one turn may carry two jump dice


@functools.lru_cache(maxsize=None)
def rulebook_road():
    return road_of(load_track(load_stage(RULEBOOK)).graph)


def _search(engine, cell, gear, compiled: bool):
    if compiled:
        found = plan_search.search_plans(engine, cell, gear)
        assert found.compiled is not None
        return found
    return plan_search._search_py(engine, cell, gear)


def _same_search(fast, slow):
    for name in ("end", "risk", "dice", "parent", "depth", "used"):
        a, b = getattr(fast, name), getattr(slow, name)
        assert a.dtype == b.dtype and np.array_equal(a, b), name
    assert [fast.step(i) for i in range(fast.n)] == [slow.step(i) for i in range(slow.n)]
    assert [fast.key(i) for i in range(fast.n)] == [slow.key(i) for i in range(slow.n)]
    assert (fast.failures is None) == (slow.failures is None)
    if slow.failures is not None:
        assert fast.failures.dtype == slow.failures.dtype and np.array_equal(fast.failures, slow.failures)


def _tables(road, rules):
    return StepTable(rules, [road.graph.nodes[n].get("cut") is not None for n in road.nodes])


def _smaller(pool: Pool) -> list[Pool]:
    out = [pool]
    for kind in ("gear", "gas", "brake", "leader"):
        if getattr(pool, kind):
            out.append(pool.model_copy(update={kind: getattr(pool, kind) - 1}))
    return out


def _compare_boundaries(road, rules, pool, boundaries, monkeypatch) -> int:
    """Search each boundary both ways and compare the searches and everything taken from them: the order,
    the Pareto choice under the pool and smaller ones, step rows, gains, point numbers, plan sets."""
    fast_engine, slow_engine = TurnEngine(road, rules, pool, None), TurnEngine(road, rules, pool, None)
    fast_table, slow_table = _tables(road, rules), _tables(road, rules)
    fast_points, slow_points = PointNumbers(len(road.nodes)), PointNumbers(len(road.nodes))
    plans = 0
    for cell, gear in boundaries:
        fast = _search(fast_engine, cell, gear, True)
        slow = _search(slow_engine, cell, gear, False)
        _same_search(fast, slow)
        for a, b in zip(plan_search.arrays(fast), plan_search.arrays(slow)):
            assert np.array_equal(a, b)
        for smaller in _smaller(pool):
            chosen = plan_search.pareto_index(slow, smaller)
            assert np.array_equal(plan_search.pareto_index(fast, smaller), chosen)
            monkeypatch.setattr(plan_search, "COMPILED", None)
            ps_slow = plan_set(None, cell, gear, slow_table, smaller, slow)
            monkeypatch.undo()
            ps_fast = plan_set(None, cell, gear, fast_table, smaller, fast)
            for name in ("sid", "length", "gain", "need"):
                assert np.array_equal(getattr(ps_fast, name), getattr(ps_slow, name)), name
            assert ps_fast.steps == ps_slow.steps
            assert np.array_equal(fast_points.index(ps_fast, fast_table), slow_points.index(ps_slow, slow_table))
            assert fast_points.distinct(ps_fast, fast_table) == slow_points.distinct(ps_slow, slow_table)
            plans += ps_slow.n
        assert np.array_equal(fast.cache["rows"][0], slow.cache["rows"][0])
        assert np.array_equal(fast.cache["gains"], slow.cache["gains"])
        assert np.array_equal(fast.cache["points"], slow.cache["points"])
    assert fast_table.n == slow_table.n
    assert np.array_equal(fast_table.ints[:slow_table.n], slow_table.ints[:slow_table.n])
    assert np.array_equal(fast_table.floats[:slow_table.n], slow_table.floats[:slow_table.n])
    assert fast_points.list == slow_points.list
    return plans


def test_every_boundary_of_a_rulebook_stage(monkeypatch):
    road = rulebook_road()
    rules = load_ruleset()
    boundaries = [(cell, gear) for cell in range(len(road.nodes)) for gear in range(7)]
    assert _compare_boundaries(road, rules, rules.pool("gravel", False), boundaries, monkeypatch) > 1000


def test_canon_start_red_zone_and_leader_dice(monkeypatch):
    road = rulebook_road()
    rules = load_ruleset().with_options(canon_start=True, red_zone=True)
    boundaries = [(cell, gear) for cell in range(0, len(road.nodes), 3) for gear in range(7)]
    assert _compare_boundaries(road, rules, rules.pool("gravel", True), boundaries, monkeypatch) > 500


def test_as_laid_every_boundary_of_a_rulebook_stage(monkeypatch):
    """Under as_laid the searches number the same failure profiles and keep the same plans; there are more
    candidates and plans than under the default reading (orders of dice kept apart), never fewer."""
    road = rulebook_road()
    rules = load_ruleset().with_options(big_attack_failure="as_laid")
    boundaries = [(cell, gear) for cell in range(0, len(road.nodes), 4) for gear in range(7)]
    laid = _compare_boundaries(road, rules, rules.pool("gravel", True), boundaries, monkeypatch)
    default = _compare_boundaries(road, load_ruleset(), load_ruleset().pool("gravel", True), boundaries, monkeypatch)
    assert laid > default > 300


@settings(max_examples=8, deadline=None)
@given(gear=st.integers(1, 6), gas=st.integers(0, 4), brake=st.integers(0, 3), leader=st.integers(0, 2),
       canon=st.booleans(), red=st.booleans(), reading=st.sampled_from(["achievable", "as_laid", "as_laid cells"]))
def test_any_pool_of_dice(gear, gas, brake, leader, canon, red, reading):
    """Whatever the dice left, the optional rules and the reading (as laid, with the cells in the failure
    profiles or not), the two searches agree on the demonstration road. As laid every order of the dice is a
    candidate: the Python search of a full pool takes minutes there, so those pools are smaller and every third
    cell is searched."""
    road = road_of(demo_track().graph)
    rules = load_ruleset().with_options(canon_start=canon, red_zone=red, big_attack_failure=reading.split()[0])
    laid = reading != "achievable"
    if laid:
        gas, brake, leader = min(gas, 2), min(brake, 2), min(leader, 1)
    pool = Pool(gear=gear, gas=gas, brake=brake, leader=leader)
    boundaries = [(cell, g) for cell in range(0, len(road.nodes), 3 if laid else 1) for g in range(7)]
    with pytest.MonkeyPatch.context() as cells, pytest.MonkeyPatch.context() as monkeypatch:
        cells.setattr(plan_search, "FAILURE_CELLS", reading.endswith("cells"))   # kept through monkeypatch.undo()
        _compare_boundaries(road, rules, pool, boundaries, monkeypatch)


def _model_plans(road, rules, monkeypatch, compiled: bool):
    """Every plan set the expected-time model builds for a stage (the closure of its start), in order."""
    monkeypatch.setattr(plan_search, "COMPILED", plan_search.COMPILED if compiled else None)
    model = DirtModel(road, rules, load_mishaps())
    closure(model, [(s, 0, model.start_damage) for s in road.starts()])
    monkeypatch.undo()
    return model


@pytest.mark.parametrize("options", [{}, {"canon_start": True, "red_zone": True},
                                     {"big_attack_failure": "as_laid"}])
def test_the_model_builds_the_same_plan_sets(options, monkeypatch):
    road = rulebook_road()
    rules = load_ruleset().with_options(**options)
    fast = _model_plans(road, rules, monkeypatch, True)
    slow = _model_plans(road, rules, monkeypatch, False)
    assert list(fast._plans) == list(slow._plans)
    for key, ps in slow._plans.items():
        other = fast._plans[key]
        for name in ("sid", "length", "gain", "need"):
            assert np.array_equal(getattr(other, name), getattr(ps, name)), (key, name)
        assert np.array_equal(fast.point_index(other), slow.point_index(ps)), key
        assert fast.points(other) == slow.points(ps), key
    assert any(s.compiled is not None for s in fast._searches.values())
    assert all(s.compiled is None for s in slow._searches.values())
    assert fast.numbers.list == slow.numbers.list
    assert fast.steps.n == slow.steps.n and np.array_equal(fast.steps.ints, slow.steps.ints)


@pytest.mark.parametrize("options", [{"canon_start": True, "red_zone": True},
                                     {"canon_start": True, "big_attack_failure": "as_laid"}])
def test_the_same_values_and_decisions_with_canon_start_and_red_zone(options, monkeypatch):
    """The whole solve (values and decisions of every state) with both optional rules on, and as_laid."""
    same_solve(road_of(demo_track().graph), load_ruleset().with_options(**options), monkeypatch, plan_search)


def same_solve(road, rules, monkeypatch, module, compiled_model=None) -> None:
    """The whole sweep (values and decisions of every state, in the same order) with ``module.COMPILED`` as built
    and set to None (its Python reference); ``compiled_model`` is called with the model solved compiled."""
    solved = []
    for compiled in (True, False):
        monkeypatch.setattr(module, "COMPILED", module.COMPILED if compiled else None)
        model = DirtModel(road, rules, load_mishaps())
        solved.append(sweep(model, [(s, 0, model.start_damage) for s in road.starts()]))
        if compiled and compiled_model is not None:
            compiled_model(model)
        monkeypatch.undo()
    (fast_values, fast_decisions), (slow_values, slow_decisions) = solved
    assert list(fast_values) == list(slow_values)
    for state, v in slow_values.items():
        assert np.array_equal(fast_values[state], v), state
    assert fast_decisions == slow_decisions
