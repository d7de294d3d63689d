"""The exact distribution of the stage time under the policy (designer/racing/mdp.py): carried over whole seconds
as arrays where every turn's seconds are whole, it gives the same times and chances as the general form that
carries a dict of the seconds met; seconds that are not whole take the general form."""
from __future__ import annotations

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
    fast, slow = _both(result)
    assert fast == slow
