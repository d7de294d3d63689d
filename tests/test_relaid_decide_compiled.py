"""The compiled branch and bound of the sweep under ``big_attack_failure: achievable`` (``_relaid.decide_relaid``
with the failures valued by ``relay_spread``, the bounds by ``relay_low`` and ``relay_bound``) against the numpy
loop of :func:`designer.systems.dirt.dice.sweep.decide_many` (``RELAID_COMPILED`` off): the values of every state
to the last bit and the same decisions, on rulebook stages, the demo road with the optional rules, random tiny
roads, and with the laying search compiled or not."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice import relaid
from designer.systems.dirt.dice import sweep as sweep_module
from designer.systems.dirt.dice.mishaps import load_mishaps
from designer.systems.dirt.dice.plans import BIG
from designer.systems.dirt.dice.turn_model import DirtModel
from designer.systems.dirt.driving.rules import road_of
from designer.systems.dirt.driving.ruleset import load_ruleset
from tests.test_expected_dirt import demo_track
from tests.test_expected_exhaustive import MISHAPS, tiny_road

KERNELS = sweep_module.RELAID_KERNELS
pytestmark = pytest.mark.skipif(KERNELS is None,
                                reason="the compiled branch and bound is not built here (pip install -e . builds it)")

RULES = load_ruleset().with_options(big_attack_failure="achievable")


def _solve(road, rules, mishaps, monkeypatch, compiled: bool, calls: list | None = None):
    monkeypatch.setattr(sweep_module, "RELAID_COMPILED", compiled)
    if calls is not None:
        decide = KERNELS.decide_relaid

        def counted(*args):
            calls.append(len(args[7]))
            return decide(*args)
        monkeypatch.setattr(KERNELS, "decide_relaid", counted)
    model = DirtModel(road, rules, mishaps)
    try:
        return sweep_module.sweep(model, [(s, 0, model.start_damage) for s in road.starts()])
    finally:
        monkeypatch.undo()


def _same(road, rules=RULES, mishaps=None, monkeypatch=None, laid: bool = True):
    mishaps = mishaps or load_mishaps()
    calls: list = []
    fast_values, fast_decisions = _solve(road, rules, mishaps, monkeypatch, True, calls)
    slow_values, slow_decisions = _solve(road, rules, mishaps, monkeypatch, False)
    if laid:
        assert calls, "the compiled branch and bound never ran"
    assert list(fast_values) == list(slow_values)
    for state, v in slow_values.items():
        assert np.array_equal(fast_values[state], v), state
    assert fast_decisions == slow_decisions
    return fast_values, fast_decisions


@pytest.mark.parametrize("stage", ["rally-4/ss1", "rally-5/ss2"])
def test_rulebook_stages(monkeypatch, stage):
    road = road_of(load_track(load_stage(f"stages/dirt/{stage}.yaml")).graph)
    _values, decisions = _same(road, monkeypatch=monkeypatch)
    modes = {d.mode for row in decisions.values() for d in row}
    assert {"roll", "attack"} <= modes          # both kinds of plans chosen somewhere


@pytest.mark.parametrize("options", [{}, {"canon_start": True}, {"red_zone": True}])
def test_the_demo_road_with_the_optional_rules(monkeypatch, options):
    _same(road_of(demo_track().graph), RULES.with_options(**options), monkeypatch=monkeypatch)


def test_without_the_compiled_laying_search(monkeypatch):
    """The Python laying search and its sets of points (a dict) under the compiled branch and bound."""
    monkeypatch.setattr(relaid, "COMPILED", None)
    road = road_of(demo_track().graph)
    mishaps = load_mishaps()
    fast = _solve(road, RULES, mishaps, monkeypatch, True)
    monkeypatch.setattr(relaid, "COMPILED", None)
    slow = _solve(road, RULES, mishaps, monkeypatch, False)
    assert list(fast[0]) == list(slow[0])
    assert all(np.array_equal(fast[0][s], v) for s, v in slow[0].items())
    assert fast[1] == slow[1]


@settings(max_examples=12, deadline=None)
@given(length=st.integers(4, 8), lanes=st.integers(1, 2), seed=st.integers(0, 10 ** 6), canon=st.booleans())
def test_random_tiny_roads(length, lanes, seed, canon):
    rng = np.random.default_rng(seed)
    limits = {(int(rng.integers(1, length)), int(rng.integers(0, lanes))): int(rng.integers(1, 6))
              for _ in range(int(rng.integers(0, 4)))}
    cuts = {(int(rng.integers(1, length - 1)), int(rng.integers(0, lanes))): int(rng.integers(2, 5))
            for _ in range(int(rng.integers(0, 3)))}
    road = road_of(tiny_road(length, lanes, limits, cuts))
    with pytest.MonkeyPatch.context() as mp:
        _same(road, RULES.with_options(canon_start=canon), MISHAPS, mp, laid=False)


def _numpy_spread(entries, gains, T1):
    """relaid._spread's arithmetic: each class at its set's least value after the gain, times its chance,
    added with numpy's add.reduceat."""
    out = np.zeros((len(entries), T1))
    tokens = np.arange(T1)
    for r, ((probs, raw), g) in enumerate(zip(entries, gains)):
        if not len(probs):
            continue
        total = tokens[None, :] + g
        idx = np.minimum(total, T1 - 1)
        best = np.where(raw >= BIG, BIG, np.take_along_axis(raw, np.broadcast_to(idx, raw.shape), axis=1)
                        - (total - idx))
        out[r] = np.add.reduceat(probs[:, None] * best, [0], axis=0)[0]
    return out


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10 ** 6), T1=st.integers(1, 12))
def test_relay_spread_adds_the_classes_as_numpy(seed, T1):
    """Random classes (up to 600 per plan: numpy's pairwise sums beyond 8 and 128 terms) and set minima."""
    rng = np.random.default_rng(seed)
    nsets = 50
    mins = rng.uniform(-5, 300, size=(nsets, T1)) * 10.0 ** rng.integers(-3, 4, size=(nsets, T1))
    mins[rng.random((nsets, T1)) < 0.05] = BIG
    counts = [int(c) for c in rng.choice([0, 1, 3, 7, 8, 9, 17, 128, 129, 300, 600], size=6)]
    ids = [rng.integers(0, nsets, size=c) for c in counts]
    probs = [rng.random(c) * 10.0 ** rng.integers(-6, 0, size=c) for c in counts]
    gains = rng.integers(0, 4, size=len(counts))
    start = np.cumsum([0] + counts[:-1]).astype(np.int64)
    out, missing = KERNELS.relay_spread(
        np.arange(len(counts), dtype=np.int64), gains.astype(np.int64), np.zeros(len(counts), dtype=np.int64),
        start, np.array(counts, dtype=np.int64), np.concatenate(probs), np.concatenate(ids).astype(np.int64),
        [mins[::-1].copy()], [np.arange(nsets - 1, -1, -1, dtype=np.int64)], T1)   # set i kept in row nsets-1-i
    assert missing is None
    want = _numpy_spread([(p, mins[i]) for p, i in zip(probs, ids)], gains, T1)
    assert np.array_equal(out, want)


def test_relay_spread_names_the_set_minima_it_lacks():
    mins = np.zeros((3, 3))
    slots = np.array([0, -1, 1, 2], dtype=np.int64)            # set 1 not worked out, set 5 beyond the slots
    out, (kinds, sets) = KERNELS.relay_spread(
        np.array([0], dtype=np.int64), np.array([0], dtype=np.int64), np.array([0], dtype=np.int64),
        np.array([0], dtype=np.int64), np.array([4], dtype=np.int64), np.ones(4),
        np.array([0, 1, 3, 5], dtype=np.int64), [mins], [slots], 3)
    assert out is None and kinds.tolist() == [0, 0] and sets.tolist() == [1, 5]
    with pytest.raises(ValueError):          # a slot beyond the rows of minima
        KERNELS.relay_spread(np.array([0], dtype=np.int64), np.array([0], dtype=np.int64),
                             np.array([0], dtype=np.int64), np.array([0], dtype=np.int64),
                             np.array([1], dtype=np.int64), np.ones(1), np.array([0], dtype=np.int64),
                             [np.zeros((1, 3))], [np.array([4], dtype=np.int64)], 3)


def test_wrong_shapes_are_refused():
    one = np.zeros(1, dtype=np.int64)
    with pytest.raises(ValueError):          # an entry beyond the store
        KERNELS.relay_spread(np.array([3], dtype=np.int64), one, one, one, one, np.ones(1), one,
                             [np.zeros((1, 2))], [np.zeros(1, dtype=np.int64)], 2)
    with pytest.raises(ValueError):          # a damage beyond the tables
        KERNELS.relay_spread(one, one, np.array([1], dtype=np.int64), one, one, np.ones(1), one,
                             [np.zeros((1, 2))], [np.zeros(1, dtype=np.int64)], 2)
    model = DirtModel(road_of(demo_track().graph), RULES, load_mishaps())
    ps = model.plans(0, 0, model.start_damage)
    gidx = model.point_index(ps)
    table = np.zeros((int(gidx.max()) + 1, 2, model.T1))
    owner = np.zeros(ps.n, dtype=np.int64)
    owner[0] = 1                                           # owners out of order
    low = np.zeros((ps.n, model.T1))
    with pytest.raises(ValueError):
        KERNELS.decide_relaid(ps.sid, ps.length, ps.gain, gidx, table, model.steps.ints, model.steps.floats, owner,
                              np.arange(ps.n), 2, model.limit, model.K, 8, low, low, lambda rows: None)


def test_the_policy_statistics_are_the_same(monkeypatch):
    """The whole expected time of a rulebook stage (the policy's statistics too, which follow where failures are
    laid): the compiled branch and bound numbers the points and their sets in the same order as the numpy loop."""
    from designer.systems.dirt.dice.expected_time import expected_time

    results = []
    for compiled in (True, False):
        monkeypatch.setattr(sweep_module, "RELAID_COMPILED", compiled)
        track = load_track(load_stage("stages/dirt/rally-5/ss1.yaml"))       # a fresh graph: solved again
        result = expected_time(track, RULES)
        results.append((result.seconds, repr(result.stats)))
    assert results[0] == results[1]
