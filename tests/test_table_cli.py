"""`rally-designer analyze --players N --simulate RUNS`: several cars raced on a stage, from the command line."""
from __future__ import annotations

import json

import pytest

from click.testing import CliRunner

from designer.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_analyze_simulates_a_dirt_table():
    r = run("analyze", "stages/dirt/rally-1/ss1.yaml", "--players", 3, "--simulate", 40, "--json")
    assert r.exit_code == 0, r.output
    table = json.loads(r.output)["table"]
    assert table["players"] == 3 and table["runs"] == 40 and len(table["seats"]) == 3
    assert {"expected_seconds", "sd", "ci95", "blocked_chance", "turns"} <= set(table["seats"][0])
    assert table["assumed"]["blocked_turn"]["status"] == "decided"
    text = run("analyze", "stages/dirt/rally-1/ss1.yaml", "--players", 3, "--simulate", 40)
    assert text.exit_code == 0 and "3 cars raced 40 times" in text.output and "at the table" in text.output


def test_simulate_is_refused_where_it_cannot_run():
    r = run("analyze", "stages/dirt/rally-1/ss1.yaml", "--simulate", 10, "--no-expected")
    assert r.exit_code == 2 and "--no-expected" in r.output and "Traceback" not in r.output
    r = run("analyze", "stages/greatrace/demo-race-1.yaml", "--simulate", 10)
    assert r.exit_code == 2 and "--simulate is not an option" in r.output
    r = run("analyze", "stages/dirt/rally-1/ss1.yaml", "--simulate", 0)
    assert r.exit_code == 2


def test_analyze_simulates_a_classic_table_and_a_rallye_race():
    r = run("analyze", "stages/classic/es2-demo.yaml", "--players", 3, "--simulate", 30, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert len(d["simulated_table"]["seats"]) == 3 and d["simulated_table"]["runs"] == 30
    left = d["not_modelled"]["several cars"]                  # the table names what it leaves out
    assert left and all(isinstance(x, str) and x for x in left)
    assert set(d["not_modelled"]) == {"one car", "several cars"}  # nothing it simulates is said to be left out
    assert d["table"]["minutes"] == d["simulated_table"]["table_minutes"]      # one table time, the counted one
    text = run("analyze", "stages/classic/es2-demo.yaml", "--players", 3, "--simulate", 30)
    assert text.exit_code == 0 and "3 cars raced 30 times" in text.output
    r = run("analyze", "stages/rallye/demo-ss1-col-des-essais.yaml", "--players", 2, "--simulate", 20, "--json")
    assert r.exit_code == 0, r.output
    assert len(json.loads(r.output)["race"]["seats"]) == 2


def test_analyze_races_a_dirt_rally_as_a_whole():
    r = run("analyze", "stages/dirt/rally-1/rally.yaml", "--players", 2, "--simulate", 20, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    stages, rally = out[:-1], out[-1]
    assert len(stages) == 3 and all("table" not in s for s in stages)        # the rally is raced once, as a whole
    assert rally["rally"] == "Rally 1" and rally["players"] == 2 and rally["runs"] == 20 and rally["stages"] == 3
    for seat in rally["seats"]:
        assert {"expected_seconds", "sd", "p10_seconds", "p90_seconds", "blocked_chance", "turns", "win_chance"} \
            <= set(seat) and len(seat["stage_seconds"]) == 3
        assert seat["p10_seconds"] <= seat["expected_seconds"] <= seat["p90_seconds"] + 1e-9
    assert len(rally["table_turns"]) == 3 and rally["table_minutes"] > 0
    assert rally["rally_table_turns"] == pytest.approx(sum(rally["table_turns"]), abs=0.01)
    text = run("analyze", "stages/dirt/rally-1/rally.yaml", "--players", 2, "--simulate", 20)
    assert text.exit_code == 0 and "Rally 1: the rally at the table" in text.output
    assert "2 cars raced the 3 stages 20 times" in text.output and "turns at the table per stage: SS1" in text.output


def test_a_rally_with_a_broken_stage_is_refused_by_name(tmp_path):
    from designer.core.errors import DesignerError
    from designer.systems.dirt.board.stage import load_stage
    from designer.systems.dirt.board.tileset import get_tileset
    from designer.systems.dirt.dice.table_rally import race_rally

    good = load_stage("stages/dirt/rally-1/ss2.yaml")
    bad = good.model_copy(update={"tiles": [t for t in good.tiles if not t.tile.startswith("203")], "name": "No finish"})
    with pytest.raises(DesignerError, match=r"SS2 \(No finish\) cannot be raced") as e:
        race_rally([good, bad], lambda s: get_tileset(s.tileset), 2, 5)
    assert e.value.where == "SS2"
    with pytest.raises(DesignerError, match="at least one stage"):
        race_rally([], lambda s: None, 2, 5)
