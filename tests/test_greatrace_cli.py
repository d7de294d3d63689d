"""The Great Race through the command line (the shared contract) and its file errors."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from designer.cli import main
from designer.core import paths
from designer.core.errors import DesignerError
from designer.systems.greatrace.files.board import loads_board
from designer.systems.greatrace.files.race import loads_race
from designer.systems.greatrace.system import SYSTEM

DEMOS = sorted((paths.STAGES / "greatrace").glob("demo-race-*.yaml"))
BOARD = paths.TILESETS / "greatrace" / "demo-frontier.yaml"


def test_there_are_demo_races_and_a_demo_board():
    assert len(DEMOS) >= 2
    kinds = {e.kind for e in SYSTEM.examples()}
    assert kinds == {"stage", "box"}
    for e in SYSTEM.examples():
        assert "demo" in e.path.name
        assert "system: greatrace" in e.path.read_text()


@pytest.mark.parametrize("path", DEMOS, ids=lambda p: p.stem)
def test_demo_races_end_to_end(path, tmp_path):
    runner = CliRunner()
    r = runner.invoke(main, ["validate", str(path)])
    assert r.exit_code == 0, r.output
    assert "valid" in r.output
    r = runner.invoke(main, ["analyze", str(path)])
    assert r.exit_code == 0, r.output
    assert "fastest:" in r.output and "cheapest:" in r.output and "Monte Carlo" in r.output
    svg = tmp_path / "map.svg"
    r = runner.invoke(main, ["render", str(path), "-o", str(svg)])
    assert r.exit_code == 0, r.output
    assert svg.read_text().startswith("<svg")
    pdf = tmp_path / "book.pdf"
    r = runner.invoke(main, ["roadbook", str(path), "-o", str(pdf)])
    assert r.exit_code == 0, r.output
    assert pdf.read_bytes()[:5] == b"%PDF-"


def test_analyze_json_has_the_routes_and_both_directions():
    import json

    r = CliRunner().invoke(main, ["analyze", "--json", str(DEMOS[0])])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    data = data[0] if isinstance(data, list) else data
    assert data["system"] == "greatrace"
    assert set(data["directions"]) == {"forward", "reverse"}
    assert data["cheapest"]["francs"] <= data["shortest"]["francs"]


def test_an_invalid_race_exits_1(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: greatrace\nrace: bad\nboard: demo-frontier\nstart: Mesa Verde\nfinish: Fort Lumen\n")
    r = CliRunner().invoke(main, ["validate", str(bad)])
    assert r.exit_code == 1
    assert "start-not-purple" in r.output
    for command in (["analyze", str(bad)], ["roadbook", str(bad), "-o", str(tmp_path / "b.pdf")]):
        r = CliRunner().invoke(main, command)
        assert r.exit_code == 2 and "fix them first" in r.output and "Traceback" not in r.output


def test_an_unknown_board_exits_2_with_a_hint(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: greatrace\nrace: bad\nboard: atlantis\nstart: A\nfinish: B\n")
    r = CliRunner().invoke(main, ["validate", str(bad)])
    assert r.exit_code == 2
    assert "atlantis" in r.output and "hint" in r.output
    assert "Traceback" not in r.output


def test_broken_yaml_says_the_line():
    with pytest.raises(DesignerError) as exc:
        loads_race("system: greatrace\nrace: x\nlaid: {C4: plain\n", "r.yaml")
    assert "r.yaml:" in str(exc.value)


def test_schema_errors_name_file_line_and_key():
    text = ("system: greatrace\nboard: b\ncolumns: 4\nrows: 3\n"
            "cities:\n  - {name: X, at: Z99}\n  - {name: Y, at: B2, cards: many}\n"
            "bag:\n  - {terrain: plain, count: -3}\n")
    with pytest.raises(DesignerError) as exc:
        loads_board(text, "b.yaml")
    msg = str(exc.value)
    # types and ranges are checked first, every one of them at once
    assert "b.yaml:7: cities[1].cards" in msg
    assert "b.yaml:9: bag[0].count" in msg
    # then what needs the board's shape: a hex off the board
    fixed = text.replace("cards: many", "cards: 1").replace("count: -3", "count: 3")
    with pytest.raises(DesignerError) as exc:
        loads_board(fixed, "b.yaml")
    assert "b.yaml:6: cities[0].at" in str(exc.value)


def test_a_board_file_opened_alone_is_checked_as_a_race_between_its_purple_cities():
    doc = SYSTEM.load(BOARD)
    board = SYSTEM.box_of(doc)
    assert doc.start in board.purple() and doc.finish in board.purple()
    assert not [p for p in SYSTEM.validate(doc, board) if p.severity == "error"]


def test_a_race_with_too_many_laid_tiles_or_tiles_on_cities_is_flagged():
    race = loads_race("system: greatrace\nrace: r\nboard: demo-frontier\nstart: Porto Azul\nfinish: Fort Lumen\n"
                      "laid: {A6: plain, B5: lava}\n", "r.yaml")
    board = SYSTEM.box_of(race)
    codes = {p.code for p in SYSTEM.validate(race, board)}
    assert {"laid-on-city", "unknown-terrain"} <= codes


def test_dumps_reads_back():
    race = SYSTEM.load(str(DEMOS[1]))
    again = SYSTEM.loads(SYSTEM.dumps(race), "again")
    assert (again.start, again.finish, again.laid, again.cards) == (race.start, race.finish, race.laid, race.cards)


def test_board_edits_round_trip():
    from designer.systems.greatrace.files import edit
    from designer.systems.greatrace.files.board import board_from_data, board_to_data, load_board

    board = load_board(BOARD)
    data = edit.paint(board_to_data(board), ["C3"], "purple city", "Harbour")
    again = board_from_data(loads_board(edit.dumps(data), "x") and data, {}, "x")
    assert again.cities["Harbour"].purple
    assert len(again.bag) == len(board.bag) and again.bands == board.bands


def test_batch_rows_carry_the_race_figures(tmp_path):
    import csv

    out = tmp_path / "table.csv"
    r = CliRunner().invoke(main, ["batch", str(DEMOS[0]), "-o", str(out), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(out.open()))
    assert rows and rows[0]["boxes"] == "demo-frontier"
    for key in ("pieces", "length", "table_minutes", "loss_of_control"):
        assert rows[0][key] not in ("", None), key
    facts = SYSTEM.facts(None, None, SYSTEM.analyse(SYSTEM.load(DEMOS[0]), SYSTEM.box_of(SYSTEM.load(DEMOS[0]))))
    assert facts["ideal_seconds"] is None and facts["pieces"] > 0 and 0 <= facts["loss_of_control"] <= 1


@pytest.mark.parametrize("path", DEMOS, ids=lambda p: p.stem)
def test_the_fastest_route_has_one_price_everywhere(path):
    import re

    race = SYSTEM.load(path)
    result = SYSTEM.analyse(race, SYSTEM.box_of(race), runs=50)
    f = result["fastest"]
    text = SYSTEM.report(result)
    assert f"price {f['francs']} F" in text
    for line in text.splitlines():
        for amount in re.findall(r"fastest route's price is (\d+) F", line):
            assert int(amount) == f["francs"]
        assert "spends" not in line
    assert f"{f['spent']} F paid during the race" in text


def test_counts_of_one_are_singular():
    import re

    from designer.core.words import plural

    assert plural(1, "space") == "1 space" and plural(2, "space") == "2 spaces"
    for path in DEMOS:
        race = SYSTEM.load(path)
        text = SYSTEM.report(SYSTEM.analyse(race, SYSTEM.box_of(race), runs=20))
        assert not re.search(r"\b1 (spaces|rounds|pilot actions|scouting actions|funding actions|players)\b", text)
        assert not re.search(r"about 1 rounds", text)
