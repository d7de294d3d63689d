"""The demo rally end to end through the command line (the shared contract only)."""
from pathlib import Path

from click.testing import CliRunner

from designer.cli import main

ROOT = Path(__file__).resolve().parent.parent
RALLY = str(ROOT / "stages/classic/rally.yaml")
ES3 = str(ROOT / "stages/classic/es3-demo.yaml")


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_validate_and_analyze_the_demo_rally():
    r = run("validate", RALLY)
    assert r.exit_code == 0 and r.output.count("valid (") == 3
    r = run("analyze", RALLY)
    assert r.exit_code == 0
    assert "ideal time" in r.output and "expected time" in r.output and "Demo ES3" in r.output
    r = run("analyze", "--json", ES3)
    import json
    data = json.loads(r.output)
    assert data["system"] == "classic" and data["route"] == "X1* | X3*-Y3* Y6*-X5* | X6*"
    assert [s["fraction"] for s in data["snow_chances"]] == ["1/6", "1/3"]
    assert data["expected"]["seconds"] >= data["ideal_line"]["time_seconds"]


def test_render_and_roadbook(tmp_path):
    out = tmp_path / "es3.svg"
    r = run("render", ES3, "--line", "fastest", "-o", str(out))
    assert r.exit_code == 0 and out.read_text().startswith("<svg")
    pdf = tmp_path / "book.pdf"
    r = run("roadbook", RALLY, "-o", str(pdf))
    assert r.exit_code == 0 and pdf.read_bytes()[:5] == b"%PDF-"


def test_bad_stage_is_a_message_not_a_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: classic\nstage: bad\nroute: 'X1 | X3-Y6 | Y8'\n")
    r = CliRunner().invoke(main, ["validate", str(bad)])
    assert r.exit_code == 1 and "ends-not-facing" in r.output
    broken = tmp_path / "broken.yaml"
    broken.write_text("system: classic\nstage: [x\n")
    r = CliRunner().invoke(main, ["analyze", str(broken)])
    assert r.exit_code == 2 and "broken.yaml:" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["analyze", "--max-risk", "0.2", ES3])
    assert r.exit_code == 2 and "max-risk" in r.output


def test_examples_lists_the_classic_demos():
    r = run("examples", "--system", "classic")
    assert r.exit_code == 0 and "Demo Rally of the Two Boards" in r.output and "demo-zones" in r.output


def test_a_stage_that_cannot_be_built_prints_its_problems_and_is_not_drawn(tmp_path):
    bad = tmp_path / "nowhere.yaml"
    bad.write_text("system: classic\nstage: nowhere\nroute: 'X0 | - | X3'\n")
    r = run("roadbook", str(bad), "-o", str(tmp_path / "b.pdf"))
    assert r.exit_code == 0                   # the road book prints the route and what is wrong with it
    r = run("render", str(bad), "-o", str(tmp_path / "b.svg"))
    assert r.exit_code == 2 and "cannot draw" in r.output and "no road of X-asphalt" in r.output
    assert not (tmp_path / "b.svg").exists()
    apart = tmp_path / "apart.yaml"
    apart.write_text("system: classic\nstage: apart\nroute: 'X1 | X3-Y6 | Y8'\n")     # boards that do not join
    r = run("render", str(apart), "-o", str(tmp_path / "c.svg"))
    assert r.exit_code == 2 and "do not face each other" in r.output and "hint:" in r.output
    r = CliRunner().invoke(main, ["analyze", str(bad)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "no road of X-asphalt leads from road end 0 to road end 3" in r.output
    assert "nowhere.yaml" in r.output and "hint:" in r.output


def test_analysing_a_broken_route_is_an_error_with_place_and_hint(tmp_path):
    bad = tmp_path / "broken-route.yaml"
    bad.write_text("system: classic\nstage: broken\nroute: 'X0 | - | X9'\n")
    r = CliRunner().invoke(main, ["analyze", str(bad)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "broken-route.yaml" in r.output and "road end 9" in r.output
    assert "hint: road ends of X-asphalt: 0, 1, 2, 3, 4, 5, 6, 7" in r.output
    r = CliRunner().invoke(main, ["analyze", "--json", str(bad)])
    assert r.exit_code == 2


def test_batch_table_has_the_classic_figures(tmp_path):
    out = tmp_path / "table.csv"
    r = run("batch", str(ROOT / "stages/classic"), "-o", str(out))
    assert r.exit_code == 0
    import csv
    rows = {row["stage"]: row for row in csv.DictReader(out.open())}
    es1 = rows["Demo ES1 - Col de la Croix X"]
    assert es1["pieces"] == "1" and es1["length"] == "11" and es1["ideal_seconds"] == "20"
    assert float(es1["expected_seconds"]) >= 20 and float(es1["spread_seconds"]) > 0
    assert 0 < float(es1["loss_of_control"]) < 1 and float(es1["table_minutes"]) > 0
    assert es1["boxes"] == "demo-zones"
    es3 = rows["Demo ES3 - Night on the snow"]
    assert es3["pieces"] == "2" and float(es3["expected_seconds"]) >= float(es3["ideal_seconds"])


def test_drawing_of_boards_that_cannot_be_laid_says_why_in_full(tmp_path):
    import re

    bad = tmp_path / "crossed.yaml"
    bad.write_text("system: classic\nstage: Demo ES1 - Col de la Croix X\nroute: 'X0 | X3-Y9 | Y1'\n")
    out = tmp_path / "crossed.svg"
    r = run("render", str(bad), "-o", str(out))
    assert r.exit_code == 2 and "road end 9" in r.output and not out.exists()
    # the road book still draws such a stage, with the reason written in full on the drawing
    from designer.systems.classic.board.assembly import assemble
    from designer.systems.classic.board.render import stage_svg
    from designer.systems.classic.system import SYSTEM

    stage = SYSTEM.load(bad)
    svg = stage_svg(assemble(stage.route, SYSTEM.box_of(stage)), title=stage.name)
    lines = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    width = int(re.search(r'width="(\d+)"', svg).group(1))
    assert "Demo ES1 - Col de la Croix X: the boards cannot be laid" in lines
    assert "road end 9" in " ".join(lines)
    assert all(len(x) * 14 * 0.62 + 12 <= width for x in lines)     # every line fits the drawing
