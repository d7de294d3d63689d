"""The sets of points of failure classes numbered by the compiled ``PointSets`` (designer/systems/dirt/dice/_relay.pyx):
``number_known`` (each point's number read from the model's table of point numbers) gives the same numbers of points
and sets as ``number`` given those numbers, and numbers nothing when a point has no number yet."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.systems.dirt.dice import relaid

COMPILED = relaid.COMPILED
pytestmark = pytest.mark.skipif(COMPILED is None,
                                reason="the compiled laying search is not built here (pip install -e . builds it)")


def _classes(draw_sizes: list[int], n_points: int, rng: np.random.Generator):
    """Classes of point indexes (each class's members rising, as the laying search gives them)."""
    members, starts = [], []
    for size in draw_sizes:
        starts.append(len(members))
        members.extend(sorted(rng.choice(n_points, size=min(size, n_points), replace=False).tolist()))
    return np.array(members, dtype=np.int64), np.array(starts, dtype=np.int64)


@settings(max_examples=40, deadline=None)
@given(n_points=st.integers(1, 12), sizes=st.lists(st.integers(0, 6), min_size=1, max_size=8),
       batches=st.integers(1, 3), seed=st.integers(0, 2 ** 16))
def test_number_known_is_number_with_the_table(n_points, sizes, batches, seed):
    rng = np.random.default_rng(seed)
    lut = np.zeros(64 * 256 + 1, dtype=np.int64)
    known_sets, plain_sets = COMPILED.PointSets(), COMPILED.PointSets()
    for _ in range(batches):
        codes = np.sort(rng.choice(64 * 256, size=n_points, replace=False)).astype(np.int64)
        numbers = rng.integers(1, 500, size=n_points).astype(np.int64)
        lut[codes + 1] = numbers
        members, starts = _classes(sizes, n_points, rng)
        got = known_sets.number_known(codes, members, starts, lut)
        ids, _fresh = plain_sets.number(codes, members, starts, numbers)
        assert got is not None
        nums, known_ids = got
        assert nums.tolist() == numbers[members].tolist()
        assert known_ids.tolist() == ids.tolist()
        assert known_sets.count == plain_sets.count


def test_a_point_without_a_number_numbers_nothing():
    sets = COMPILED.PointSets()
    codes = np.array([3, 40, 700], dtype=np.int64)
    members = np.array([0, 1, 1, 2], dtype=np.int64)
    starts = np.array([0, 2], dtype=np.int64)
    lut = np.zeros(1024, dtype=np.int64)
    lut[codes[:2] + 1] = [5, 6]                       # the last point has no number yet
    assert sets.number_known(codes, members, starts, lut) is None
    assert sets.count == 0
    short = np.zeros(10, dtype=np.int64)               # a table too short for the codes
    assert sets.number_known(codes, members, starts, short) is None
    lut[codes[2] + 1] = 7
    nums, ids = sets.number_known(codes, members, starts, lut)
    assert nums.tolist() == [5, 6, 6, 7] and ids.tolist() == [0, 1] and sets.count == 2
    again = sets.number_known(codes, members, starts, lut)      # the same sets: the same numbers, none new
    assert again[1].tolist() == [0, 1] and sets.count == 2


def test_a_member_beyond_the_points_is_refused():
    sets = COMPILED.PointSets()
    codes = np.array([3], dtype=np.int64)
    lut = np.zeros(16, dtype=np.int64)
    lut[4] = 1
    with pytest.raises(ValueError, match="beyond the points"):
        sets.number_known(codes, np.array([1], dtype=np.int64), np.array([0], dtype=np.int64), lut)
