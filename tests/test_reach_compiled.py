"""The compiled reach of a turn without a risk budget (designer/systems/dirt/driving/_reach.pyx) against the Python
walk it replaces (TurnEngine._reach_free, the reference): the same ends, in the same order, from every turn boundary
of every bundled DIRT stage (jumps, fords, cuts, several surfaces, roads that fork); and the best turn to one end,
searched only over the points that can lead to it, against the whole search it prunes."""
from __future__ import annotations

from pathlib import Path

import pytest

from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.driving import lines
from designer.systems.dirt.driving.rules import COMPILED_REACH, TurnEngine

ROOT = Path(__file__).resolve().parent.parent
STAGES = sorted(p for p in (ROOT / "stages" / "dirt").rglob("*.yaml") if p.name != "rally.yaml")

compiled = pytest.mark.skipif(COMPILED_REACH is None, reason="the compiled reach is not built (no C++ compiler)")


def _turns(path, leader=False):
    track = load_track(load_stage(path))
    return track, lines._Turns(track.graph, lines._rules_for(track, None), leader, None, lines._stage_surface(track))


def _boundaries(turns):
    """Every (cell, gear) a turn can start from, whether a line reaches it or not."""
    top = turns.rules.top_gear
    return [(c, g) for c in range(len(turns.road.nodes)) for g in range(top + 1)
            if g <= turns.road.limit[c] and not turns.road.finish[c]]


@compiled
@pytest.mark.parametrize("path", STAGES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_compiled_ends_are_the_python_ends(path):
    _track, turns = _turns(path, leader="rally-2" in str(path))
    if turns.road.margin:
        pytest.skip("a circuit: its links go backwards, the Python walk runs there")
    pools = {}
    for c, g in _boundaries(turns):
        pool = turns.pool(c)
        if pool not in pools:
            pools[pool] = (TurnEngine(turns.road, turns.rules, pool, compiled=True),
                           TurnEngine(turns.road, turns.rules, pool, compiled=False))
        fast, slow = pools[pool]
        assert fast._compiled is not None and slow._compiled is None
        assert fast.ends(c, g) == slow.ends(c, g), (path.name, c, g)
        assert fast.reach(c, g) == slow.reach(c, g)


@compiled
def test_compiled_reach_in_any_order():
    """The compiled tables are filled as points are met: asking from the finish back gives the same sets."""
    _track, turns = _turns(ROOT / "stages" / "dirt" / "rally-3" / "ss2.yaml")
    pool = turns.pool(0)
    points = _boundaries(turns)
    forward, backward = (TurnEngine(turns.road, turns.rules, pool, compiled=True) for _ in range(2))
    ends = {p: forward.ends(*p) for p in points}
    assert all(backward.ends(*p) == ends[p] for p in reversed(points))


def test_roads_read_backwards_and_risk_budgets_keep_the_python_walk():
    """Where a link goes backwards (a road's margin above 0) or under a risk budget, the Python walk runs, and it
    finds the same ends with its sets widened by the margin."""
    _track, turns = _turns(ROOT / "stages" / "dirt" / "rally-1" / "ss1.yaml")
    road, pool = turns.road, turns.pool(0)
    assert TurnEngine(road, turns.rules, pool, max_risk=0.1)._compiled is None
    forward = TurnEngine(road, turns.rules, pool)
    expected = {p: forward.ends(*p) for p in _boundaries(turns)[:60]}
    road.margin, kept = 40, road.margin
    try:
        back = TurnEngine(road, turns.rules, pool)
        assert back._compiled is None
        assert all(back.ends(*p) == ends for p, ends in expected.items())
        if COMPILED_REACH is not None:
            with pytest.raises(ValueError, match="forward"):
                COMPILED_REACH(back)
    finally:
        road.margin = kept


@pytest.mark.parametrize("path", [ROOT / "stages" / "dirt" / "rally-3" / "ss2.yaml",
                                  ROOT / "stages" / "dirt" / "expansions" / "climb-demo.yaml",
                                  ROOT / "stages" / "dirt" / "expansions" / "tokens-demo.yaml"],
                         ids=lambda p: p.stem)
@pytest.mark.parametrize("use_compiled", [True, False])
def test_best_turn_to_one_end_is_the_whole_search_witness(path, use_compiled):
    """best_turn searches only the points that lead to its end; the turn is the one the whole search keeps."""
    if use_compiled and COMPILED_REACH is None:
        pytest.skip("the compiled reach is not built")
    track, turns = _turns(path)
    line = lines.fastest_line(track)
    starts = [(turns.road.index[t.start], t.start_gear) for t in line.turns]
    for c, g in starts[:6]:
        engine = TurnEngine(turns.road, turns.rules, turns.pool(c), compiled=use_compiled)
        best, seen = engine.outcomes(c, g, with_parents=True)            # the whole search
        for end in engine.ends(c, g):
            risk, key = best[end]
            whole = engine.turn_from(c, g, risk, key, seen)
            assert engine.best_turn(c, g, *end) == whole, (path.name, c, g, end)
