"""The compiled laying search of a failed Big Attack (designer/systems/dirt/dice/_relay.pyx) against the Python and
numpy reference (:func:`relay.layings` then :func:`relay.failure_classes`): for every plan met while solving, the
same classes (chances to the last bit, the same points, the same class for every outcome); and the whole solve
under ``big_attack_failure: achievable`` gives the same values and decisions either way."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice import relaid, relay
from designer.systems.dirt.dice.mishaps import load_mishaps
from designer.systems.dirt.dice.plan_search import cut_cells
from designer.systems.dirt.dice.turn_model import NO_DAMAGE, DirtModel
from designer.systems.dirt.driving.rules import road_of
from designer.systems.dirt.driving.ruleset import load_ruleset
from tests.test_expected_dirt import demo_track
from tests.test_expected_exhaustive import MISHAPS, tiny_road
from tests.test_plan_search_compiled import same_solve

pytestmark = pytest.mark.skipif(relaid.COMPILED is None,
                                reason="the compiled laying search is not built here (pip install -e . builds it)")

RULES = load_ruleset().with_options(big_attack_failure="achievable")


def _reference(model, cell, gear, rolled, jumps):
    engine = model.engine(model.pool(cell, NO_DAMAGE))
    steps = relay.layings(engine, cut_cells(engine), cell, gear, rolled & ~relay._CANON)
    return relay.failure_classes(model.rules, steps, rolled, jumps, as_index=True)


def _compiled(model, cell, gear, rolled, jumps):
    engine = model.engine(model.pool(cell, NO_DAMAGE))
    codes, numbers, probs, members, starts, which = relaid._numbered(
        model, relaid._laid(model, engine, cell, gear, rolled, jumps, None))
    points = [((c // 256), (c // 32) % 8, bool((c // 16) % 2), c % 16) for c in codes.tolist()]
    ends = starts.tolist()[1:] + [len(members)]
    classes = [(p, members[a:b]) for p, a, b in zip(probs.tolist(), starts.tolist(), ends)]
    outs = model._relay_cache[(rolled, jumps)][None]
    return points, classes, {o: which[o] for _p, o in outs} if len(classes) else {}


def _same(model, cell, gear, rolled, jumps) -> int:
    fast = _compiled(model, cell, gear, rolled, jumps)
    slow = _reference(model, cell, gear, rolled, jumps)
    assert fast[0] == slow[0], "points"
    assert [p for p, _i in fast[1]] == [p for p, _i in slow[1]], "chances (to the last bit)"
    assert [i.tolist() for _p, i in fast[1]] == [i.tolist() for _p, i in slow[1]], "points of each class"
    assert fast[2] == slow[2], "class of each outcome"
    return len(slow[1])


def _plans_of(model, cell, gear):
    ps = model.plans(cell, gear, NO_DAMAGE)
    return {relay.plan_dice(ps.steps[p]) for p in range(ps.n)}


def test_every_plan_of_a_rulebook_stage():
    """Every plan from every boundary the ideal line's cells offer on a rulebook stage with long jumps, cuts and
    brake moves (Rally 6 SS3)."""
    track = load_track(load_stage("stages/dirt/rally-6/ss3.yaml"))
    model = DirtModel(road_of(track.graph), RULES, load_mishaps())
    classes = 0
    for cell in range(0, len(model.road.nodes), 7):
        for gear in (0, 2, 4):
            for rolled, jumps in sorted(_plans_of(model, cell, gear)):
                classes += _same(model, cell, gear, rolled, jumps)
    assert classes > 1000


@settings(max_examples=25, deadline=None)
@given(length=st.integers(4, 9), lanes=st.integers(1, 2), seed=st.integers(0, 10 ** 6),
       canon=st.booleans(), red=st.booleans())
def test_random_roads_and_optional_rules(length, lanes, seed, canon, red):
    """Tiny roads with random limits and cuts, with and without the canon start and the red zone."""
    rng = np.random.default_rng(seed)
    limits = {(int(rng.integers(1, length)), int(rng.integers(0, lanes))): int(rng.integers(1, 6))
              for _ in range(int(rng.integers(0, 4)))}
    cuts = {(int(rng.integers(1, length - 1)), int(rng.integers(0, lanes))): int(rng.integers(2, 5))
            for _ in range(int(rng.integers(0, 3)))}
    rules = RULES.with_options(canon_start=canon, red_zone=red)
    model = DirtModel(road_of(tiny_road(length, lanes, limits, cuts)), rules, MISHAPS)
    for cell in range(min(len(model.road.nodes), 6)):
        for gear in (0, 1, 3):
            for rolled, jmp in sorted(_plans_of(model, cell, gear)):
                _same(model, cell, gear, rolled, jmp)


def test_the_same_values_and_decisions(monkeypatch):
    """The whole solve under ``achievable`` (values and decisions of every state), compiled or not."""
    def laid_again(model):
        assert len(model._classes) > 50            # Big Attacks laid again were valued

    same_solve(road_of(demo_track().graph), RULES, monkeypatch, relaid, laid_again)
