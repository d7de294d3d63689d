"""The compiled roll-outs of the expected-time sweep (designer/systems/dirt/_kernels.pyx) against the numpy
ones they replace: every state's values equal to the last bit and the same decisions, under the default rules
and with the optional rules that change what a step does (canon start, red zone, leader dice)."""
from __future__ import annotations

import numpy as np
import pytest

from designer.systems.dirt import rollout
from designer.systems.dirt import sweep as sweep_module
from designer.systems.dirt.expected import DirtModel
from designer.systems.dirt.mishaps import load_mishaps
from designer.systems.dirt.rules import road_of
from designer.systems.dirt.ruleset import load_ruleset
from designer.systems.dirt.stage import load_stage
from designer.systems.dirt.track import load_track
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


@pytest.mark.parametrize("options", [{"canon_start": True}, {"red_zone": True}])
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
    from designer.systems.dirt.expected import DirtModel
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
