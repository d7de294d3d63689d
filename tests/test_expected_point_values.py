"""The values of the points of plans (designer/systems/dirt/dice/point_values.py): :func:`fill`, which reads the
outcomes off the model's lists per kind of point and asks each next state's value once, against
:func:`fill_reference`, which goes through the model's lists of outcomes one by one: every state's values equal
to the last bit and the same decisions, whatever the mishaps."""
from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice import plan_search, point_values
from designer.systems.dirt.dice import sweep as sweep_module
from designer.systems.dirt.dice import turn_model
from designer.systems.dirt.dice.mishaps import load_mishaps
from designer.systems.dirt.dice.turn_model import FIN, DirtModel
from designer.systems.dirt.driving.rules import road_of
from designer.systems.dirt.driving.ruleset import load_ruleset
from tests.test_expected_dirt import demo_track


@functools.lru_cache(maxsize=None)
def demo_road():
    return road_of(demo_track().graph)


def _solve(road, rules, mishaps, sisu, fill):
    model = DirtModel(road, rules, mishaps, sisu=sisu)
    original = turn_model.fill_points
    turn_model.fill_points = fill
    try:
        return model, sweep_module.sweep(model, [(s, 0, model.start_damage) for s in model.road.starts()])
    finally:
        turn_model.fill_points = original


def _same(road, rules, mishaps, sisu=False):
    fast_model, (values, decisions) = _solve(road, rules, mishaps, sisu, point_values.fill)
    slow_model, (ref_values, ref_decisions) = _solve(road, rules, mishaps, sisu, point_values.fill_reference)
    assert set(values) == set(ref_values) and FIN in values
    for state, v in ref_values.items():
        assert np.array_equal(values[state], v), state
    assert decisions == ref_decisions
    # the tables of point values themselves, every damage, to the last bit
    assert set(fast_model._point_values) == set(slow_model._point_values)
    for damage, (arr, done) in slow_model._point_values.items():
        fast_arr, fast_done = fast_model._point_values[damage]
        n = min(len(done), len(fast_done))
        assert np.array_equal(done[:n], fast_done[:n]) and not done[n:].any() and not fast_done[n:].any()
        assert np.array_equal(arr[:n][done[:n]], fast_arr[:n][done[:n]]), damage
    return values


def test_rulebook_stage_same_values():
    road = road_of(load_track(load_stage("stages/dirt/rally-1/ss1.yaml")).graph)
    values = _same(road, load_ruleset(), load_mishaps())
    assert len(values) > 1000


@pytest.mark.parametrize("reading", ["achievable", "as_laid", "latest"])
def test_readings_same_values(reading):
    _same(demo_road(), load_ruleset().with_options(big_attack_failure=reading), load_mishaps(), sisu=True)


def test_numpy_sums_same_values(monkeypatch):
    """Where the compiled plan search (and its sums of point values) is not built: the numpy sums."""
    monkeypatch.setattr(plan_search, "COMPILED", None)
    _same(demo_road(), load_ruleset(), load_mishaps().replace(max_damage=1), sisu=True)


@pytest.mark.skipif(plan_search.COMPILED is None, reason="the compiled plan search is not built here")
def test_compiled_sums_refuse_outcomes_out_of_order():
    arr = np.zeros((4, 2, 3))
    with pytest.raises(ValueError):
        plan_search.COMPILED.point_sums(arr, np.array([1, 2]), np.ones(3), np.ones(3), np.zeros(3, dtype=np.int64),
                                        np.array([4096 + 1, 1, 2 * 4096 + 1]), np.ones((1, 3)), 4096)


@settings(max_examples=10, deadline=None)
@given(backs=st.sampled_from([(0.5, 0.3, 0.2), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.0, 0.6, 0.4)]),
       flat=st.integers(0, 3), sisu_gear=st.sampled_from(["same", 0, 2]), max_damage=st.integers(0, 2),
       sisu=st.booleans(), every_cut_flat=st.booleans())
def test_same_values_under_any_mishaps(backs, flat, sisu_gear, max_damage, sisu, every_cut_flat):
    """Whichever backs of the card can happen (a SISU card in its own gear or the same), cuts that flatten a
    tyre, never do or always do and the damage tracked: the same values, bit for bit."""
    base = load_mishaps()
    cuts = {"ok": 0, "flat": 1, "mud": 0} if every_cut_flat else {**base.cut_tokens, "flat": flat}
    mishaps = base.replace(card_backs=dict(zip(("spin", "crash", "sisu"), backs)), sisu_gear=sisu_gear,
                           max_damage=max_damage, cut_tokens=cuts)
    _same(demo_road(), load_ruleset(), mishaps, sisu)
