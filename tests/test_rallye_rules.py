"""Rallye timing rules from the rulebook (S4), the crossing tables and the ruleset file."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from designer.core.errors import DesignerError
from designer.systems.rallye.model import rules
from designer.systems.rallye.model.rules import SPIN, get_ruleset, multiplayer_round, parse_tables, seconds_received, solo_seconds


# -- solo scoring: "1 s pour 240 km/h ; 2 s pour 220 km/h ... 12 secondes pour 20 km/h ; 13 s pour 0 km/h" --------

@pytest.mark.parametrize("speed,seconds", [(240, 1), (220, 2), (200, 3), (180, 4), (160, 5), (140, 6), (120, 7),
                                           (100, 8), (80, 9), (60, 10), (40, 11), (20, 12), (0, 13)])
def test_solo_scoring_table(speed, seconds):
    assert solo_seconds(speed) == seconds


def test_solo_scoring_refuses_speeds_off_the_scale():
    with pytest.raises(ValueError):
        solo_seconds(30)
    with pytest.raises(ValueError):
        solo_seconds(-20)


def test_ruleset_scores_as_the_rulebook():
    r = get_ruleset()
    assert [r.solo(v) for v in range(r.top_step + 1)] == list(range(13, 0, -1))
    assert r.spin_penalty_seconds == 5 and r.spin_stress_cards == 2 and r.spin_timed_speed == 0


# -- multiplayer: 1 s per full 20 km/h behind the fastest; /2 from 10 s held, /3 from 20 s, /4 from 30 s ---------

@pytest.mark.parametrize("gap,held,received", [
    (0, 0, 0), (19, 0, 0), (20, 0, 1), (30, 0, 1), (100, 0, 5), (240, 0, 12),
    (100, 9, 5), (100, 10, 2), (100, 19, 2),          # halved (rounded down) from 10 s
    (120, 20, 2), (140, 20, 2), (100, 29, 1),         # thirded from 20 s
    (120, 30, 1), (160, 30, 2), (240, 39, 3),         # quartered from 30 s
    (240, 40, 2),                                      # "et ainsi de suite": fifths from 40 s
])
def test_multiplayer_seconds_received(gap, held, received):
    assert seconds_received(gap, held) == received


def test_multiplayer_round_takes_the_leaders_seconds_off_everyone():
    # Three drivers at 200, 160 and 100 km/h; the third already holds 12 s.
    assert multiplayer_round([200, 160, 100], [0, 0, 12]) == [0, 2, 14]
    # The leader of the race held seconds too: everyone drops the least held.
    assert multiplayer_round([100, 100], [3, 5]) == [0, 2]
    assert multiplayer_round([240], [0]) == [0]


@given(st.lists(st.integers(0, 12), min_size=1, max_size=4), st.lists(st.integers(0, 60), min_size=4, max_size=4))
def test_multiplayer_round_invariants(steps, held):
    speeds = [20 * s for s in steps]
    held = held[:len(speeds)]
    after = multiplayer_round(speeds, held)
    assert min(after) == 0                                  # somebody leads with no seconds
    assert all(a >= 0 for a in after)
    raw = [h + seconds_received(max(speeds) - v, h) for v, h in zip(speeds, held)]
    assert [r - a for r, a in zip(raw, after)] == [min(raw)] * len(raw)   # the same amount taken off all


# -- crossing tables -----------------------------------------------------------------------------------------

def test_default_tables_outcomes():
    t = get_ruleset().tables
    assert t.outcomes(4, 4, 6, True) == {0: pytest.approx(1.0)}          # at the safety speed: nothing happens
    assert t.outcomes(7, 4, 6, True) == {SPIN: 1.0}                      # above the top speed: a spin
    assert sum(t.outcomes(6, 4, 6, False).values()) == pytest.approx(1.0)
    assert t.row(99, True) == (SPIN,) * 6                                # past the last row: a spin


def test_tables_refuse_a_kinder_row_and_bad_outcomes():
    kinder = {"wheel_right": {"0": [0, 0, 0, 0, 0, 3], "1": [0, 0, 0, 0, 0, 0]},
              "wheel_wrong": {"0": [1, 1, 1, 1, 1, 3]}}
    tables, problems = parse_tables(kinder, ("resolution",))
    assert tables is None and any("kinder than row 0" in m for _, m in problems)
    bad = {"wheel_right": {"0": [0, 0, 0, 0, "crash", -1]}, "wheel_wrong": {"0": [0, 0, 0]}}
    tables, problems = parse_tables(bad, ("resolution",))
    messages = [m for _, m in problems]
    assert any("'crash'" in m for m in messages) and any("-1" in m for m in messages)
    assert any("6 outcomes" in m for m in messages)


def test_wrong_wheel_never_kinder_than_right():
    t = {"wheel_right": {"0": [0, 0, 0, 0, 0, 2]}, "wheel_wrong": {"0": [0, 0, 0, 0, 0, 0]}}
    tables, problems = parse_tables(t, ("r",))
    assert tables is None and "kinder with the wheel wrong" in problems[0][1]


def test_ruleset_file_errors_are_located(tmp_path):
    text = (rules.RULESET_FILE.read_text(encoding="utf-8")
            .replace("status: rulebook\n  source: \"S4 'Tête à queue': 5", "status: guessed\n  source: \"S4 'Tête à queue': 5")
            .replace("value: 240\n", "value: 250\n", 1))
    bad = tmp_path / "mine.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(DesignerError) as exc:
        rules.load_ruleset(bad)
    msg = str(exc.value)
    assert "spin_penalty_seconds.status" in msg and "guessed" in msg
    assert f"{bad}:" in msg                                   # file:line of each problem


def test_unknown_ruleset_name():
    with pytest.raises(DesignerError, match="no ruleset named 'nope'"):
        get_ruleset("nope")
