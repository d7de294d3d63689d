"""What `analyze` says about the expected time beside its figures: the ideal that is no floor, the decisions the
JSON leaves out and the reason fewer damage tokens are tracked."""
import json

from click.testing import CliRunner

from designer.cli import main
from designer.systems.dirt.report import _damage_words, below_ideal


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_stage_whose_expected_time_is_below_the_ideal_says_why(tmp_path):
    stage = tmp_path / "two.yaml"
    stage.write_text("stage: two\ntileset: dirt-core\nsurface: gravel\ntiles:\n- 202a A\n- 203a A\n")
    out = run("analyze", stage)
    assert out.exit_code == 0, out.output
    data = json.loads(run("analyze", stage, "--json").output)["expected"]
    assert data["seconds"] < data["ideal_seconds"]          # Big Attack tokens off a one-turn stage
    assert "below the ideal: the seconds tokens a Big Attack earns come off the time" in out.output


def test_below_ideal_only_when_the_expected_time_is_lower():
    assert below_ideal({"seconds": 16.8, "ideal_seconds": 20})
    assert not below_ideal({"seconds": 87.9, "ideal_seconds": 65})
    assert not below_ideal({"seconds": 16.8, "ideal_seconds": None})


def test_all_decisions_lists_every_boundary_the_policy_reaches():
    stage = "stages/dirt/rally-1/ss1.yaml"
    some = json.loads(run("analyze", stage, "--json").output)["expected"]
    every = json.loads(run("analyze", stage, "--json", "--all-decisions").output)["expected"]
    assert some["decisions_min_chance"] == 0.001 and every["decisions_min_chance"] == 0.0
    assert some["decisions_left_out_chance"] > 0 and every["decisions_left_out_chance"] == 0
    assert len(every["decisions"]) > len(some["decisions"])
    assert min(d["chance"] for d in some["decisions"]) >= 0.001
    key = lambda d: (d["cell"], d["gear"], d["tokens"], json.dumps(d.get("damage"), sort_keys=True))  # noqa: E731
    assert {key(d) for d in some["decisions"]} <= {key(d) for d in every["decisions"]}
    assert every["seconds"] == some["seconds"]


def test_all_decisions_is_refused_where_it_means_nothing():
    out = run("analyze", "stages/dirt/rally-1/ss1.yaml", "--all-decisions")
    assert out.exit_code != 0 and "--json" in out.output
    out = run("analyze", "stages/classic/es1-demo.yaml", "--json", "--all-decisions")
    assert out.exit_code != 0 and "DIRT" in out.output


def test_damage_held_for_a_long_road_says_the_road_is_the_reason():
    steps = [{"max_damage": 1, "turns_at_bound": 20.0, "stop": "memory", "road_cells": 492, "road_cells_cap": 300}]
    words = _damage_words({"max_damage": 1, "turns_at_damage_bound": 20.0, "damage_steps": steps})
    assert "for memory (a road of 492 cells, lanes counted, over the 300 on which more are tracked)" in words
    steps = [{"max_damage": 2, "turns_at_bound": 2.0, "stop": "memory"}]      # the states, not the road
    words = _damage_words({"max_damage": 2, "turns_at_damage_bound": 2.0, "damage_steps": steps})
    assert "no more tracked, for memory: later" in words


def test_a_big_attack_decision_says_where_its_failures_are_laid():
    """Under the default reading (achievable), each Big Attack decision lists where its failing dice are laid
    again, with chances that add up to the turn's chance of a loss of control (no SISU token held)."""
    every = json.loads(run("analyze", "stages/dirt/rally-1/ss1.yaml", "--json", "--all-decisions").output)["expected"]
    first = every["policy"][0]
    assert first["mode"] == "attack"
    start = next(d for d in every["decisions"] if d["chance"] == 1.0)
    laid = start["failures_laid"]
    assert laid and all(set(x) == {"cell", "gear", "past_finish", "chance"} for x in laid)
    assert abs(sum(x["chance"] for x in laid if not x["past_finish"]) - first["loss_of_control_chance"]) < 1e-5
    assert all("failures_laid" not in d for d in every["decisions"] if d["mode"] != "attack")


def test_the_rally_single_car_figure_says_each_stage_starts_repaired_where_damage_could_go_on():
    from designer.systems.dirt.dice.table_rally import lone_car_words

    assert lone_car_words({"assistance_after": [True, True, False]}) == "single car alone"
    assert lone_car_words({"assistance_after": [False, True, False]}) == \
        "single car alone, each stage started repaired"
    assert lone_car_words({}) == "single car alone"          # one stage raced at the table
