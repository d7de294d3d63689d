"""The compiled roll-outs of the expected-time sweep (designer/systems/dirt/dice/_kernels.pyx) against the numpy
ones they replace: every state's values equal to the last bit and the same decisions, under the default rules
and with the optional rules that change what a step does (canon start, red zone, leader dice)."""
from __future__ import annotations

import numpy as np
import pytest

from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice import rollout
from designer.systems.dirt.dice import sweep as sweep_module
from designer.systems.dirt.dice.mishaps import load_mishaps
from designer.systems.dirt.dice.plans import X
from designer.systems.dirt.dice.turn_model import DirtModel
from designer.systems.dirt.driving.rules import road_of
from designer.systems.dirt.driving.ruleset import Pool, load_ruleset
from tests.test_expected_dirt import demo_track

pytestmark = pytest.mark.skipif(rollout.KERNELS is None,
                                reason="the compiled roll-outs are not built here (pip install -e . builds them)")


def _solve(road, rules, leader, monkeypatch, compiled: bool):
    monkeypatch.setattr(rollout, "KERNELS", rollout.KERNELS if compiled else None)
    model = DirtModel(road, rules, load_mishaps(), leader=leader)
    starts = [(s, 0, model.start_damage) for s in model.road.starts()]
    return sweep_module.sweep(model, starts)


def _same(road, rules, monkeypatch, leader=False):
    fast = _solve(road, rules, leader, monkeypatch, compiled=True)
    slow = _solve(road, rules, leader, monkeypatch, compiled=False)
    assert set(fast[0]) == set(slow[0])
    for state, v in slow[0].items():
        assert np.array_equal(fast[0][state], v), state
    assert fast[1] == slow[1]
    return fast


def test_rulebook_stage_same_values_and_decisions(monkeypatch):
    road = road_of(load_track(load_stage("stages/dirt/rally-1/ss1.yaml")).graph)
    values, decisions = _same(road, load_ruleset(), monkeypatch)
    modes = {d.mode for row in decisions.values() for d in row}
    assert {"roll", "attack"} <= modes          # both roll-outs were used and chosen


@pytest.mark.parametrize("options", [{"canon_start": True}, {"red_zone": True}, {"big_attack_failure": "latest"},
                                     {"big_attack_failure": "as_laid"}])
def test_optional_rules_same_values_and_decisions(monkeypatch, options):
    _same(road_of(demo_track().graph), load_ruleset().with_options(**options), monkeypatch)


def test_leader_dice_same_values_and_decisions(monkeypatch):
    _same(road_of(demo_track().graph), load_ruleset(), monkeypatch, leader=True)


def test_kernels_decline_sizes_they_do_not_hold():
    k = rollout.KERNELS
    assert k.fits(3, 3, 9, 20, sweep_module.FIRST)
    assert not k.fits(3, 3, 9, 200)                  # a plan longer than the compiled buffers
    assert not k.fits(3, 3, 200, 20)                 # more tokens than they hold
    assert not k.fits(3, 3, 9, 20, 100)              # more first plans per state


def test_first_loss_same_numbers():
    """The chances of where a Big Attack first fails, compiled and numpy, on every plan of some boundaries."""
    from designer.systems.dirt.dice.turn_model import DirtModel
    model = DirtModel(road_of(load_track(load_stage("stages/dirt/rally-1/ss1.yaml")).graph), load_ruleset(),
                      load_mishaps())
    checked = 0
    for cell in range(0, len(model.road.nodes), 7):
        for gear in range(0, 5):
            ps = model.plans(cell, gear, model.start_damage)
            if not ps.n:
                continue
            fast, slow = rollout.first_loss(ps, model.limit), rollout.first_loss_numpy(ps, model.limit)
            assert np.array_equal(fast[0], slow[0]) and np.array_equal(fast[1], slow[1])
            checked += ps.n
    assert checked > 1000


def test_a_step_of_five_dice_keeps_every_hazard_count(monkeypatch):
    """A ruleset may brake four gears in one move (a gear die and four brake dice): a step of five dice, up to
    five hazards, all counted (the chances of 0..5 hazards add up to 1), and both roll-outs agree on it."""
    rules = load_ruleset()
    box = rules.box_dice
    rules = rules.replace(max_brake_skip=4, box_dice=Pool(gear=box.gear, gas=box.gas, brake=4, leader=box.leader),
                          dashboards={k: Pool(gear=box.gear, gas=0, brake=4, leader=0) for k in rules.dashboards})
    road = road_of(load_track(load_stage("stages/dirt/rally-1/ss1.yaml")).graph)
    _same(road, rules, monkeypatch)
    model = DirtModel(road, rules, load_mishaps())
    sweep_module.sweep(model, [(s, 0, model.start_damage) for s in model.road.starts()])
    steps = model.steps
    assert steps.ints[:steps.n, 3].max() == 5 and X >= 6
    assert np.allclose(steps.floats[:steps.n, 2:].sum(axis=1), 1.0, atol=1e-12)


def test_kernels_refuse_sizes_beyond_their_buffers():
    """Called with sizes their buffers do not hold, the compiled functions raise instead of writing past them."""
    k = rollout.KERNELS
    q = np.zeros((1, 3, X))
    q[:, :, 0] = 1.0
    with pytest.raises(ValueError):
        k.first_loss(q, np.zeros((1, 3)), np.array([2]), 4000)
    with pytest.raises(ValueError):
        k.first_loss(q, np.zeros((1, 3)), np.array([5]), 3)
    table = np.zeros((1, 2, 9))
    ints, floats = np.zeros((1, 6), dtype=np.int64), np.zeros((1, 2 + X))
    one = np.zeros(1, dtype=np.int64)
    with pytest.raises(ValueError):
        k.decide_group(np.zeros((1, 2), dtype=np.int64), np.array([5]), one, np.zeros((1, 2), dtype=np.int64),
                       table, ints, floats, one, one, 1, 3, 3, 8)
