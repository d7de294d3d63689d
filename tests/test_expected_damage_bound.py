"""The damage bound of the expected time grows where it matters: a stage is solved again with one more damage token
tracked while the optimal policy is expected to start more than ``damage_turns`` turns with every tracked token
drawn (where a further token would cost nothing in the model)."""
from __future__ import annotations

from pathlib import Path

import pytest

from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice import expected_time as E
from designer.systems.dirt.dice.mishaps import load_mishaps
from tests.test_expected_dirt import demo_track

ROOT = Path(__file__).resolve().parents[1]


def _fixed(mishaps, bound):
    return mishaps.replace(max_damage=bound, most_damage=None)


def test_each_solve_tracks_one_more_token_while_the_turns_at_the_bound_exceed_the_limit():
    start = load_mishaps().replace(max_damage=0, most_damage=2, damage_turns=0.0)
    result = E.expected_time(demo_track(), mishaps=start)
    steps = result.damage_steps
    assert [s["max_damage"] for s in steps] == [0, 1, 2]
    assert [s.get("stop") for s in steps] == [None, None, "most_damage"]
    for step in steps:                                  # each step is the solve with that bound, on its own
        alone = E.expected_time(demo_track(), mishaps=_fixed(start, step["max_damage"]))
        assert step["seconds"] == round(alone.seconds, 3)
        assert step["turns_at_bound"] == round(E.turns_at_damage_bound(alone.stats, step["max_damage"]), 3)
        assert [s["max_damage"] for s in alone.damage_steps] == [step["max_damage"]]
    assert steps[0]["turns_at_bound"] == pytest.approx(result.stats.turns, abs=2e-3)   # no token: every turn
    assert steps[1]["turns_at_bound"] < steps[0]["turns_at_bound"]
    assert result.seconds == E.expected_time(demo_track(), mishaps=_fixed(start, 2)).seconds
    bounds = result.to_dict(details=False)["bounds"]
    assert bounds["max_damage"] == 2 and bounds["damage_steps"] == steps
    assert bounds["turns_at_damage_bound"] == steps[-1]["turns_at_bound"]


def test_no_more_token_when_the_turns_at_the_bound_are_few_or_the_states_too_many(monkeypatch):
    start = load_mishaps().replace(max_damage=1, most_damage=3, damage_turns=0.0)
    first = E.expected_time(demo_track(), mishaps=_fixed(start, 1)).damage_steps[0]
    few = E.expected_time(demo_track(), mishaps=start.replace(damage_turns=first["turns_at_bound"] + 0.01))
    assert [s["max_damage"] for s in few.damage_steps] == [1] and few.damage_steps[-1]["stop"] == "turns"
    most = E.expected_time(demo_track(), mishaps=start.replace(damage_turns=0.001, most_damage=1))
    assert [s["max_damage"] for s in most.damage_steps] == [1] and most.damage_steps[-1]["stop"] == "most_damage"
    monkeypatch.setattr(E, "DAMAGE_STATES", 2 * first["states"] - 1)       # the next solve would not fit
    big = E.expected_time(demo_track(), mishaps=start.replace(damage_turns=0.001))
    assert [s["max_damage"] for s in big.damage_steps] == [1] and big.damage_steps[-1]["stop"] == "memory"


def test_on_a_rulebook_stage_the_next_token_moves_the_answer_less_than_the_turns_at_the_bound():
    """Rally 1 SS1 stops at two tokens (0.16 turns at the bound, under the default 0.5); a third token tracked
    moves it by less than one second per such turn, and less than half a second."""
    track = load_track(load_stage(ROOT / "stages/dirt/rally-1/ss1.yaml"))
    result = E.expected_time(track)
    assert result.mishaps.max_damage == 2 and len(result.damage_steps) == 1
    at_bound = result.damage_steps[0]["turns_at_bound"]
    assert at_bound <= load_mishaps().damage_turns
    more = E.expected_time(track, mishaps=_fixed(load_mishaps(), 3))
    assert 0.0 <= more.seconds - result.seconds <= min(0.5, at_bound)


def test_a_bound_held_for_memory_is_said_in_the_report_and_the_app():
    from designer.app.dirt.analysis import _bound_words
    from designer.systems.dirt.report import _damage_words

    held = {"max_damage": 1, "turns_at_damage_bound": 4.862,
            "damage_steps": [{"max_damage": 1, "turns_at_bound": 4.862, "stop": "memory"}]}
    assert "4.86 turns expected with all of them drawn; no more tracked, for memory" in _damage_words(held)
    assert "4.9 turns with all of them drawn" in _bound_words({"bounds": held})
    enough = dict(held, damage_steps=[{"max_damage": 1, "turns_at_bound": 0.2, "stop": "turns"}],
                  turns_at_damage_bound=0.2)
    assert "memory" not in _damage_words(enough) and "memory" not in _bound_words({"bounds": enough})
    assert _damage_words({}) == "" and _bound_words({}) == ""


def test_a_batch_row_names_the_damage_tokens_its_expected_time_tracks():
    import csv
    import io

    from designer.batch import analyse_all
    from designer.batch.table import csv_text

    rows = analyse_all([ROOT / "stages/dirt/rally-1/ss1.yaml"], jobs=1, thumbnails=False)
    assert rows[0]["damage_tracked"] == 2 and rows[0]["expected_seconds"] is not None
    table = list(csv.DictReader(io.StringIO(csv_text(rows))))
    assert table[0]["damage_tracked"] == "2"


def test_a_table_races_the_leader_and_the_follower_under_one_damage_bound():
    """A car changes policy as it takes or loses the lead and keeps its damage, so a table's two policies track
    the same tokens: the one solved with fewer is solved again with the other's bound (Rally 3 raced by 4 cars
    did not finish when its stages' two policies tracked different numbers of tokens)."""
    from designer.systems.dirt.dice.table import Table, simulate_table

    track = demo_track()
    base = load_mishaps()
    gas = E.expected_time(track, leader=False, mishaps=_fixed(base, 2))
    table = Table(track, lead=E.expected_time(track, leader=True, mishaps=_fixed(base, 1)), gas=gas)
    assert table.gas is gas and table.lead.mishaps.max_damage == 2 and table.lead.leader
    assert table.lead.seconds == E.expected_time(track, leader=True, mishaps=_fixed(base, 2)).seconds
    run = simulate_table(track, players=3, runs=100, seed=1, table=table)
    assert run.to_dict()["runs"] == 100


def test_a_table_solves_the_leader_from_the_bound_the_follower_reached(monkeypatch):
    from designer.systems.dirt.dice.table import Table

    grow = load_mishaps().replace(max_damage=1, most_damage=2, damage_turns=0.0)
    monkeypatch.setattr(E, "load_mishaps", lambda *a, **k: grow)
    table = Table(demo_track())
    assert [s["max_damage"] for s in table.gas.damage_steps] == [1, 2]
    assert [s["max_damage"] for s in table.lead.damage_steps] == [2] and table.lead.leader
    assert table.lead.seconds == E.expected_time(demo_track(), leader=True, mishaps=_fixed(grow, 2)).seconds


def test_a_solve_under_the_next_bound_shares_the_plans_of_the_last_and_gives_the_same_numbers():
    """The plans, failure classes and numbered points do not depend on the damage bound: the next solve takes them
    over from the last one, and its values and decisions are those of a solve of its own, to the last bit; what
    depends on the bound (point values, outcome lists, set minima) is not taken over."""
    from designer.systems.dirt.driving import lines as L
    from designer.systems.dirt.dice.set_minima import is_minima

    track = demo_track()
    graph, rules = L.check_track(track), L._rules_for(track, None)
    surface = L._stage_surface(track)
    start = _fixed(load_mishaps(), 1)
    first, solution, _starts, _stats = E._solve_bound(graph, rules, start, False, surface, False)
    assert any(is_minima(k) for k in first._relay_cache)
    solution.release()
    first.release_values()
    assert not first._point_values and not first._losses and not any(is_minima(k) for k in first._relay_cache)
    nxt = _fixed(start, 2)
    shared, got, _s, got_stats = E._solve_bound(graph, rules, nxt, False, surface, False, share=first)
    assert shared.numbers is first.numbers and shared._searches is first._searches and shared.steps is first.steps
    alone, want, _s, want_stats = E._solve_bound(graph, rules, nxt, False, surface, False)
    assert alone.numbers is not first.numbers
    assert got.values.keys() == want.values.keys()
    assert all((got.values[s] == want.values[s]).all() for s in want.values)
    assert got.decisions == want.decisions
    assert got_stats.occupancy == want_stats.occupancy and got_stats.seconds == want_stats.seconds
