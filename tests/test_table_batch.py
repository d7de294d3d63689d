"""`batch --players N --simulate RUNS`: each DIRT (and classic) stage's simulated table in the batch rows, the CSV,
the HTML page and the text table, the same figures as the one-stage analysis."""
from __future__ import annotations

import csv
import io
from pathlib import Path

from click.testing import CliRunner

from designer import systems
from designer.batch import analyse_all
from designer.batch.table import csv_text, html_text
from designer.batch.worker import COLUMNS, columns_of
from designer.cli import main

ROOT = Path(__file__).resolve().parent.parent
SS1 = ROOT / "stages" / "dirt" / "rally-1" / "ss1.yaml"
RALLYE = ROOT / "stages" / "rallye" / "demo-ss1-col-des-essais.yaml"


def test_rows_carry_the_simulated_table_of_the_one_stage_analysis():
    rows = analyse_all([SS1, RALLYE], jobs=1, players=3, simulate=25, thumbnails=False)
    dirt, rallye = rows
    system = systems.get("dirt")
    stage = system.load(SS1)
    table = system.analyse(stage, system.box_of(stage, SS1.parent), players=3, table_runs=25)["table"]
    assert dirt["simulated_players"] == 3 and dirt["simulated_runs"] == 25
    assert dirt["simulated_table_minutes"] == table["table_minutes"] > 0
    assert dirt["simulated_table_turns"] == table["table_turns"]
    for seat in table["seats"]:                                      # seeded: the very same figures
        k = seat["seat"]
        assert (dirt[f"seat{k}_seconds"], dirt[f"seat{k}_sd"], dirt[f"seat{k}_blocked"], dirt[f"seat{k}_turns"]) \
            == (seat["expected_seconds"], seat["sd"], seat["blocked_chance"], seat["turns"])
    assert "simulated_players" not in rallye                          # a game without a seat table: no columns
    columns = columns_of(rows)
    assert columns[:len(COLUMNS)] == list(COLUMNS) and columns[-1] == "seat3_turns"
    sheet = list(csv.DictReader(io.StringIO(csv_text(rows))))
    assert float(sheet[0]["seat2_seconds"]) == dirt["seat2_seconds"] and sheet[1]["seat2_seconds"] == ""
    page = html_text(rows)
    assert "Seat 3 time (s)" in page and "Table (min, simulated)" in page


def test_without_simulate_the_columns_are_as_before():
    rows = analyse_all([SS1], jobs=1, thumbnails=False, options={"dirt": {"expected": False}})
    assert columns_of(rows) == list(COLUMNS) and "simulated_players" not in rows[0]


def test_the_command_prints_the_seats_and_refuses_no_expected(tmp_path):
    out = tmp_path / "t.csv"
    r = CliRunner().invoke(main, ["batch", str(SS1), "--players", "2", "--simulate", "20", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert "2 cars x 20 races" in r.output and "min at the table; seats 1:" in r.output
    assert "seat2_blocked" in out.read_text().splitlines()[0]
    r = CliRunner().invoke(main, ["batch", str(SS1), "--simulate", "20", "--no-expected"])
    assert r.exit_code == 2 and "--no-expected" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["batch", str(SS1), "--simulate", "0"])
    assert r.exit_code == 2
