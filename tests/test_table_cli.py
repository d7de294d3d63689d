"""`rally-designer analyze --players N --simulate RUNS`: several cars raced on a stage, from the command line."""
from __future__ import annotations

import json

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
    assert "time-control penalty bids between stages (ART.22)" in d["not_modelled"]["several cars"]
    text = run("analyze", "stages/classic/es2-demo.yaml", "--players", 3, "--simulate", 30)
    assert text.exit_code == 0 and "3 cars raced 30 times" in text.output
    r = run("analyze", "stages/rallye/demo-ss1-col-des-essais.yaml", "--players", 2, "--simulate", 20, "--json")
    assert r.exit_code == 0, r.output
    assert len(json.loads(r.output)["race"]["seats"]) == 2
