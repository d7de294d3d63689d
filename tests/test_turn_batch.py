"""Following the policy of the DIRT expected time: the turns from one boundary worked out for every token count at
once (dice/turn_batch.py, compiled in _turns where built) against the reference, replay.turn_outcomes one count at
a time, and the statistics of the policy (Solution.stats) against the same statistics read one pair at a time:
the same outcome lists (chances to the last bit, the same order and labels) and the same figures."""
from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

from designer.racing.mdp import Solution
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice import turn_batch
from designer.systems.dirt.dice.expected_time import expected_time
from designer.systems.dirt.dice.mishaps import load_mishaps
from designer.systems.dirt.driving.ruleset import load_ruleset
from tests.test_expected_dirt import demo_track
from tests.test_expected_exhaustive import roads, tiny_road

ROOT = Path(__file__).resolve().parents[1]
FIELDS = ("seconds", "sd", "turns", "loss_chance", "expected_losses", "occupancy", "turn_seconds", "turn_loss")


class OneByOne:
    """A turn model without ``outcomes_many``: the statistics ask for each (state, tokens) alone."""
    outcomes_many = None

    def __init__(self, model):
        self.model = model

    def __getattr__(self, name):
        return getattr(self.model, name)


@functools.lru_cache(maxsize=None)
def stage_result(name: str, reading: str, sisu: bool):
    stage = load_stage(ROOT / "stages/dirt" / f"{name}.yaml")
    stage = stage.model_copy(update={"options": stage.options.model_copy(update={"big_attack_failure": reading})})
    return expected_time(load_track(stage), sisu=sisu)


def same_as_the_reference(result) -> None:
    sol, model = result.solution, result.model
    fast = result.stats
    reference = Solution(OneByOne(model), dict(sol.values), dict(sol.decisions))
    slow = reference.stats(result.starts)
    for name in FIELDS:
        a, b = getattr(fast, name), getattr(slow, name)
        assert (list(a.items()) == list(b.items())) if isinstance(a, dict) else a == b, name
    # the spread against the second moment searched for from the start (the recursion of _moment2)
    start = min(result.starts, key=lambda s: sol.value(s, 0))
    mean = sol.value(start, 0)
    assert fast.sd == float(np.sqrt(max(0.0, reference._moment2(start, 0, {}) - mean * mean)))
    # every turn worked out for the statistics is the reference's, compiled or not
    assert sol._outcomes == reference._outcomes
    banks: dict = {}
    for s, b in sol._outcomes:
        banks.setdefault(s, {})[b] = sol.decision(s, b)
    for s, decisions in banks.items():
        for compiled in (True, False):
            got = turn_batch.turn_outcomes_many(model, s, decisions, sol._vector, compiled=compiled)
            assert got == {b: sol._outcomes[(s, b)] for b in decisions}, (s, compiled)


def codes_as_the_replay(result) -> int:
    """What to do before each die, compiled and in numpy, against Replay.choice everywhere (how many plans)."""
    sol, model = result.solution, result.model
    seen = set()
    for s, b in sol._outcomes:
        d = sol.decision(s, b)
        if d.mode != "roll" or s[2][4] or (s, d) in seen:
            continue
        seen.add((s, d))
        plan = turn_batch._Plan(model, s, d, sol._vector)
        replay = model.single(s, d, sol._vector)[3]
        want = [{"stop": 0, "roll": 1, "secure": 2}[replay.choice(i, h, k, t)]
                for i in range(replay.length) for h in range(model.limit) for k in range(model.K + 1)
                for t in range(model.T1)]
        assert plan.codes(model.limit, model.K, compiled=False) == want
        assert replay.codes() == want
        if turn_batch.COMPILED is not None:
            assert list(plan.codes(model.limit, model.K)) == want
    return len(seen)


@pytest.mark.parametrize("name, reading, sisu", [
    ("rally-1/ss1", "achievable", False),
    ("rally-1/ss1", "latest", True),
    ("expansions/tokens-demo", "latest", False),
    ("expansions/tokens-demo", "achievable", True),
])
def test_the_statistics_and_turns_are_the_reference_on_stages(name, reading, sisu):
    result = stage_result(name, reading, sisu)
    same_as_the_reference(result)
    if name == "rally-1/ss1":
        assert codes_as_the_replay(result) > 10          # plans rolled one by one are met


@pytest.mark.parametrize("reading", ["achievable", "as_laid", "latest"])
def test_the_statistics_and_turns_are_the_reference_on_the_demo(reading):
    rules = load_ruleset().with_options(big_attack_failure=reading)
    result = expected_time(demo_track(), rules, mishaps=load_mishaps().replace(max_damage=1, most_damage=None))
    same_as_the_reference(result)
    codes_as_the_replay(result)


@settings(max_examples=12, deadline=None)
@given(case=roads())
def test_the_statistics_and_turns_are_the_reference_on_tiny_roads(case):
    for reading in ("achievable", "as_laid", "latest"):
        rules = load_ruleset().with_options(big_attack_failure=reading)
        same_as_the_reference(expected_time(tiny_road(*case), rules, mishaps=load_mishaps()))


def test_relay_outcomes_many_is_relay_outcomes():
    """A failed Big Attack's classes laid for several counts of tokens at once, compiled and in numpy."""
    from designer.systems.dirt.dice.relaid import relay_outcomes

    result = stage_result("rally-1/ss1", "achievable", False)
    sol, model = result.solution, result.model
    checked = 0
    for s, b in list(sol._outcomes)[:400]:
        d = sol.decision(s, b)
        if d.mode != "attack":
            continue
        steps = model.plans(*s).steps[d.plan]
        banks = list(range(model.T1))
        want = {t: relay_outcomes(model, s[0], s[1], steps, s[2], t, sol._vector) for t in banks}
        for compiled in (True, False):
            assert turn_batch.relay_outcomes_many(model, s[0], s[1], steps, s[2], banks, sol._vector,
                                                  compiled=compiled) == want
        checked += 1
    assert checked


@pytest.mark.skipif(turn_batch.COMPILED is None, reason="the compiled replay (_turns) is not built")
def test_rows_added_in_c_are_the_python_rows():
    """The rows of outcome lists (numbers of their entries' seconds less credit, next state and loss) made by
    _turns.add_row and by _Rows.row_python, for the model's stop and loss lists with no credit, 0 and 2 tokens."""
    result = stage_result("rally-1/ss1", "achievable", False)
    model = result.model
    lists = [outs for table in (model._stops, model._losses) for outs in table.values()][:600]
    assert len(lists) > 50
    fast, slow = turn_batch._Rows(), turn_batch._Rows()
    for i, outs in enumerate(lists):
        credit = (0.0, 0, 2)[i % 3]
        assert turn_batch.COMPILED.add_row(fast, outs, credit) == slow.row_python(outs, credit)
    assert list(fast.chance) == list(slow.chance) and list(fast.key_of) == list(slow.key_of)
    assert list(fast.starts) == list(slow.starts) and fast.named == slow.named and fast.keys == slow.keys
    assert [type(k[0]) for k in fast.named] == [type(k[0]) for k in slow.named]
