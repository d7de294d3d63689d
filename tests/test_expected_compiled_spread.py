"""The compiled roll-outs of the sweep when a failed Big Attack's dice are laid again (``big_attack_failure:
achievable``): the branch and bound runs in Python there and rolls plans out with ``_kernels.roll_rows`` and
``attack_rows`` (the failures given as ``spread[plan, tokens]``); every state's values equal to the numpy
roll-outs' to the last bit, and the same decisions."""
from __future__ import annotations

import numpy as np
import pytest

from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice import rollout
from designer.systems.dirt.dice import sweep as sweep_module
from designer.systems.dirt.dice.mishaps import load_mishaps
from designer.systems.dirt.dice.plans import BIG
from designer.systems.dirt.dice.turn_model import DirtModel
from designer.systems.dirt.driving.rules import road_of
from designer.systems.dirt.driving.ruleset import load_ruleset
from tests.test_expected_dirt import demo_track

pytestmark = pytest.mark.skipif(rollout.KERNELS is None,
                                reason="the compiled roll-outs are not built here (pip install -e . builds them)")


def _solve(road, rules, monkeypatch, compiled: bool, calls: list | None = None):
    kernels = rollout.KERNELS
    monkeypatch.setattr(rollout, "KERNELS", kernels if compiled else None)
    monkeypatch.setattr(sweep_module, "RELAID_COMPILED", False)     # the branch and bound in Python
    if calls is not None:
        attack, roll = kernels.attack_rows, kernels.roll_rows

        def counted(*args):
            calls.append("attack" if args[-1] is not None else "attack without a spread")
            return attack(*args)

        def rolled(*args):
            calls.append("roll")
            return roll(*args)
        monkeypatch.setattr(kernels, "attack_rows", counted)
        monkeypatch.setattr(kernels, "roll_rows", rolled)
    model = DirtModel(road, rules, load_mishaps())
    assert model.achievable
    starts = [(s, 0, model.start_damage) for s in model.road.starts()]
    try:
        return sweep_module.sweep(model, starts)
    finally:
        monkeypatch.setattr(rollout, "KERNELS", kernels)


def _same(road, rules, monkeypatch):
    calls: list = []
    fast = _solve(road, rules, monkeypatch, compiled=True, calls=calls)
    slow = _solve(road, rules, monkeypatch, compiled=False)
    assert set(calls) == {"roll", "attack"}        # both ran compiled, every Big Attack with its laid failures
    assert set(fast[0]) == set(slow[0])
    for state, v in slow[0].items():
        assert np.array_equal(fast[0][state], v), state
    assert fast[1] == slow[1]
    return fast


@pytest.mark.parametrize("options", [{}, {"canon_start": True}, {"red_zone": True}])
def test_achievable_same_values_and_decisions(monkeypatch, options):
    rules = load_ruleset().with_options(big_attack_failure="achievable", **options)
    _same(road_of(demo_track().graph), rules, monkeypatch)


def test_achievable_rulebook_stage_same_values_and_decisions(monkeypatch):
    road = road_of(load_track(load_stage("stages/dirt/rally-1/ss1.yaml")).graph)
    values, decisions = _same(road, load_ruleset().with_options(big_attack_failure="achievable"), monkeypatch)
    modes = {d.mode for row in decisions.values() for d in row}
    assert {"roll", "attack"} <= modes          # both roll-outs were chosen somewhere


def test_attack_rows_with_a_spread_is_the_numpy_big_attack():
    """Random point values and spreads: the compiled Big Attack of some plans equals rollout.attack_values."""
    model = DirtModel(road_of(demo_track().graph), load_ruleset(), load_mishaps())
    rng = np.random.default_rng(5)
    checked = 0
    for cell in range(0, len(model.road.nodes), 3):
        for gear in range(0, 4):
            ps = model.plans(cell, gear, model.start_damage)
            if not ps.n:
                continue
            gidx = model.point_index(ps)
            table = rng.uniform(0, 50, size=(int(gidx.max()) + 1, 2, model.T1))
            table[0] = BIG
            table[rng.random(len(table)) < 0.05] = BIG          # points that cannot be reached
            spread = rng.uniform(0, 30, size=(ps.n, model.T1))
            rows = np.arange(ps.n)
            fast = rollout.KERNELS.attack_rows(rows, ps.sid, ps.length, ps.gain, gidx, table, model.steps.floats,
                                               model.limit, 0, spread)
            both = table[gidx]
            where = model.shift_index(ps, both[:, :, 0].shape)
            slow = rollout.attack_values(ps, model._shift(ps, both[:, :, 0], where),
                                         model._shift(ps, both[:, :, 1], where), model.limit, spread=spread)
            assert np.array_equal(fast, slow)
            checked += ps.n
    assert checked > 50


def test_rows_beyond_the_stacked_plans_are_refused():
    model = DirtModel(road_of(demo_track().graph), load_ruleset(), load_mishaps())
    ps = model.plans(0, 0, model.start_damage)
    gidx = model.point_index(ps)
    table = np.zeros((int(gidx.max()) + 1, 2, model.T1))
    with pytest.raises(ValueError):
        rollout.KERNELS.roll_rows(np.array([ps.n], dtype=np.int64), ps.sid, ps.length, gidx, table,
                                  model.steps.ints, model.steps.floats, model.limit, model.K)
    with pytest.raises(ValueError):
        rollout.KERNELS.attack_rows(np.arange(ps.n), ps.sid, ps.length, ps.gain, gidx, table, model.steps.floats,
                                    model.limit, 0, np.zeros((ps.n + 1, model.T1)))
