"""A solved DIRT stage drops the tables of its solve once its answers are read (memory of a whole rally), and
answers every later question the same: the analysis, the policy, a race at the table."""
from __future__ import annotations

import random
import tracemalloc

from designer.systems.dirt.analysis import analyze
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice.expected_time import expected_time
from designer.systems.dirt.dice.table import Table
from designer.systems.dirt.dice.table_rally import simulate_rally

STAGE = "stages/dirt/rally-1/ss1.yaml"
SMALL = "stages/dirt/demo/215b-cut-middle-cut.yaml"        # 4 tiles and a cut: quick to solve twice


def _track(path=STAGE):
    return load_track(load_stage(path))


def _races(table, n=200, seed=3):
    rng = random.Random(seed)
    return [table.race(3, rng)[:3] for _ in range(n)]


def test_a_released_solution_answers_the_same():
    e = expected_time(_track())
    before = e.to_dict()
    kept = [name for name, v in vars(e.model).items() if isinstance(v, dict) and v]
    assert "_state_plans" in kept and "_relay_cache" in kept
    e.release()
    assert not e.model._state_plans and not e.model._relay_cache and not e.solution._outcomes
    assert e.to_dict() == before


def test_a_race_at_the_table_is_the_same_after_release():
    kept = Table(_track(SMALL))
    freed = Table(_track(SMALL))
    for solved in (freed.lead, freed.gas):
        solved.release()
    assert _races(kept) == _races(freed)


def test_release_frees_most_of_the_memory_of_a_solve():
    tracemalloc.start()
    try:
        track = _track(SMALL)
        base = tracemalloc.get_traced_memory()[0]
        e = expected_time(track)
        held = tracemalloc.get_traced_memory()[0] - base
        e.release()
        left = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert left < held / 3, (held, left)


def test_the_analysis_and_the_race_share_one_solve():
    track = _track()
    result = analyze(track, players=3, expected=True)
    solved = expected_time(track)           # what a race at the table asks for: the one the analysis solved
    assert solved.ideal_seconds == result["fastest_line"]["seconds"]
    assert not solved.model._state_plans    # released by the analysis once its answers were read
    assert solved.to_dict() == result["expected"]


def test_a_rally_raced_with_released_solutions_matches_one_raced_without():
    kept = Table(_track(SMALL))                     # a graph of its own: nothing released
    track = _track(SMALL)
    repaired = [True, True]                         # an assistance after each stage: every car starts fresh
    released = simulate_rally([track, track], players=2, runs=40, seed=5, assistance=repaired)
    assert len(expected_time(track).model._state_plans) < len(kept.gas.model._state_plans)   # only what it met
    assert released == simulate_rally(None, players=2, runs=40, seed=5, tables=[kept, kept], assistance=repaired)
    # damaged cars going on to the next stage: the boundaries they start from are worked out as they are met
    assert simulate_rally([track, track], players=2, runs=40, seed=5) == \
        simulate_rally(None, players=2, runs=40, seed=5, tables=[kept, kept])
