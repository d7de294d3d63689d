"""The exact distribution of the stage time under the policy (designer/racing/mdp.py): carried over whole seconds
as arrays where every turn's seconds are whole, it gives the same times and chances as the general form that
carries a dict of the seconds met; seconds that are not whole take the general form."""
from __future__ import annotations

import numpy as np
import pytest

from designer.racing import mdp
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice.expected_time import expected_time
from tests.test_expected_dirt import demo_track


def _both(result):
    start = min(result.starts, key=lambda s: result.solution.value(s, 0))
    return result.solution.distribution(result.starts), result.solution._distribution_any(start, 0, 6)


@pytest.mark.parametrize("track", ["demo", "stages/dirt/rally-1/ss1.yaml"])
def test_whole_seconds_give_the_general_distribution(track):
    result = expected_time(demo_track() if track == "demo" else load_track(load_stage(track)))
    fast, slow = _both(result)
    assert list(fast) == list(slow)                     # the same times, in rising order
    assert all(fast[t] == pytest.approx(p, abs=1e-13) for t, p in slow.items())
    assert sum(fast.values()) == pytest.approx(1.0, abs=1e-9)
    mean = sum(t * p for t, p in fast.items())
    assert mean == pytest.approx(result.seconds, abs=1e-6)    # the policy's value, followed forward


def test_seconds_not_whole_take_the_general_form(monkeypatch):
    result = expected_time(demo_track())

    def never_whole(seconds):
        raise mdp._NotWhole

    monkeypatch.setattr(mdp, "_whole", never_whole)
    monkeypatch.setattr(mdp, "POLICY", None)            # the Python walk reads mdp._whole
    fast, slow = _both(result)
    assert fast == slow


class HalfSeconds:
    """A two-turn course whose second turn may take half a second more: not whole seconds."""
    bank = 0

    def terminal(self, s):
        return np.zeros(1) if s >= 2 else None

    def progress(self, s):
        return s

    def decide(self, s, value):
        outs = self.outcomes(s, 0, None, value)
        return np.array([sum(o.p * (o.seconds + float(value(o.state)[0])) for o in outs)]), [None]

    def outcomes(self, s, b, decision, value):
        if s == 0:
            return [mdp.Outcome(1.0, 10.0, 1, 0)]
        return [mdp.Outcome(0.5, 10.0, 2, 0), mdp.Outcome(0.5, 10.5, 2, 0)]


def test_seconds_not_whole_give_the_general_form_compiled_or_not(monkeypatch):
    sol = mdp.solve(HalfSeconds(), [0])
    want = {20.0: 0.5, 20.5: 0.5}
    assert sol.distribution([0]) == want
    if mdp.POLICY is not None:
        assert mdp.POLICY.distribution_whole(sol, sol.model, 0, 0) is None
    monkeypatch.setattr(mdp, "POLICY", None)
    assert sol.distribution([0]) == want


@pytest.mark.skipif(mdp.POLICY is None, reason="the compiled carry (designer/racing/_policy.pyx) is not built")
@pytest.mark.parametrize("track", ["demo", "stages/dirt/rally-1/ss1.yaml", "stages/dirt/rally-2/ss3.yaml"])
def test_the_compiled_carry_is_the_numpy_carry_to_the_last_bit(track):
    result = expected_time(demo_track() if track == "demo" else load_track(load_stage(track)))
    start = min(result.starts, key=lambda s: result.solution.value(s, 0))
    fast = result.solution._distribution_whole(start, 0)
    slow = result.solution._distribution_whole_numpy(start, 0)
    assert list(fast.items()) == list(slow.items())     # the same times, in the same order, the same chances
    assert fast == result.solution.distribution(result.starts)


def test_without_the_compiled_carry_numpy_carries(monkeypatch):
    result = expected_time(demo_track())
    start = min(result.starts, key=lambda s: result.solution.value(s, 0))
    want = result.solution._distribution_whole_numpy(start, 0)
    monkeypatch.setattr(mdp, "POLICY", None)
    assert list(result.solution.distribution(result.starts).items()) == list(want.items())


def test_the_compiled_carry_grows_and_sums_as_numpy():
    """A hand-made walk: pair 0 (the start) leads to pairs 1 and 2, both lead to pair 3, which ends the stage; the
    second add into pair 3 grows its array with zeros."""
    if mdp.POLICY is None:
        pytest.skip("the compiled carry is not built")
    ints = lambda *x: np.array(x, dtype=np.int64)      # noqa: E731
    lo, arr = mdp.POLICY.carry_whole(4, ints(0, 1, 2, 3), ints(0, 0, 0, 1), ints(0, 0, 0, 5), ints(0, 2, 3, 4, 4),
                                     ints(1, 2, 3, 3), ints(3, 10, 1, 4), np.array([0.25, 0.75, 0.5, 1.0]))
    # pair 1 at second 3 (0.25), pair 2 at 10 (0.75); pair 3: 0.25 * 0.5 at 4, then 0.75 at 14; ends 5 s later
    assert lo == 9
    assert arr.tolist() == [0.125] + [0.0] * 9 + [0.75]
