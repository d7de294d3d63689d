import json

from click.testing import CliRunner

from designer.cli import main
from tests.conftest import ROOT, STAGE_FILES

SS1 = str(STAGE_FILES[0])


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_validate_all_rulebook_stages():
    r = run("validate", ROOT / "stages" / "dirt")
    assert r.exit_code == 0, r.output
    files = [p for p in (ROOT / "stages" / "dirt").rglob("*.yaml") if p.name != "rally.yaml"]
    assert r.output.count(": valid") == len(files) >= 18 + 5        # the rulebook's 18 and the expansions' stages
    for p in STAGE_FILES:
        assert f"{p}: valid" in r.output or f"{p.relative_to(ROOT)}: valid" in r.output


def test_validate_json_and_invalid(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("stage: broken\ntiles: [202a A, 205a A]\n")
    r = run("validate", "--json", bad)
    assert r.exit_code == 1
    data = json.loads(r.output)
    assert data[0]["valid"] is False
    assert {p["code"] for p in data[0]["problems"]} >= {"no-finish"}


def test_bad_input_exit_2(tmp_path):
    r = run("validate", tmp_path / "missing.yaml")
    assert r.exit_code == 2 and "no such file" in r.output and "Traceback" not in r.output
    broken = tmp_path / "broken.yaml"
    broken.write_text("tiles: [202a A,\n")
    r = run("info", broken)
    assert r.exit_code == 2 and "broken.yaml:" in r.output
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("tiles: [202a A, 205a Q]\n")
    r = run("validate", wrong)
    assert r.exit_code == 2 and "wrong.yaml:1" in r.output and "210b C" in r.output


def test_unknown_tile_is_invalid_not_a_crash(tmp_path):
    s = tmp_path / "unknown.yaml"
    s.write_text("tiles: [202a A, 299z D, 203a A]\n")
    r = run("validate", s)
    assert r.exit_code == 1 and "unknown-tile" in r.output


def test_tiles_filters_and_sheet(tmp_path):
    r = run("tiles", "--kind", "hairpin", "--feature", "cut")
    assert r.exit_code == 0
    assert "211b" in r.output and "205a" not in r.output
    out = tmp_path / "sheet.svg"
    r = run("tiles", "--sheet", out)
    assert r.exit_code == 0 and out.read_text().startswith("<svg")
    r = run("tiles", "--sheet", tmp_path / "sheet.txt")
    assert r.exit_code == 2


def test_info(tmp_path):
    r = run("info", SS1, "--json")
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert data["road_tiles"] == 10 and data["assistance"] is True
    assert data["boxes"] == ["DIRT Core Box"] and data["footprint"]["tiles"] == 11


def test_render_svg_and_png(tmp_path):
    svg = tmp_path / "ss1.svg"
    r = run("render", SS1, "-o", svg)
    assert r.exit_code == 0, r.output
    text = svg.read_text()
    assert text.startswith("<svg") and "202a" in text and "START" in text and "FINISH" in text
    png = tmp_path / "ss1.png"
    assert run("render", SS1, "-o", png).exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_share_code_export():
    r = run("export", SS1, "--to", "share")
    assert r.exit_code == 0 and r.output.startswith("RD1/dirt-core/202aA.210bC")


def test_module_entry_point():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "designer", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "validate" in out.stdout


def test_analyze_text_and_json():
    r = run("analyze", SS1, "--players", 3)
    assert r.exit_code == 0, r.output
    assert "Rally 1 - SS1" in r.output and "fastest line:" in r.output and "for 3 players" in r.output
    r = run("analyze", SS1, "--json", "--max-risk", "0.2")
    data = json.loads(r.output)
    assert data["fastest_line"]["turns"] >= 1 and data["safe_line"]["max_risk"] == 0.2
    assert data["graph"]["cells"] and data["graph"]["links"]


def test_analyze_without_cells_is_a_message(tmp_path):
    s = tmp_path / "gt.yaml"
    s.write_text("tileset: official\ntiles: [202a A, 103a A, 203a A]\n")
    r = run("analyze", s)
    assert r.exit_code == 2 and "103a" in r.output and "Traceback" not in r.output


def test_import_export_round_trip(tmp_path):
    rgt = tmp_path / "ss1.rgt"
    assert run("export", SS1, "--to", "rgt", "-o", rgt).exit_code == 0
    back = tmp_path / "back.yaml"
    r = run("import", rgt, "-o", back)
    assert r.exit_code == 0, r.output
    assert run("validate", back).exit_code == 0
    broken = tmp_path / "broken.rgt"
    broken.write_text('{"Tuiles": [')
    r = run("import", broken, "-o", tmp_path / "x.yaml")
    assert r.exit_code == 2 and "not valid JSON" in r.output


def test_roadbook_command(tmp_path):
    out = tmp_path / "rb.pdf"
    r = run("roadbook", SS1, "-o", out, "--paper", "letter")
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:5] == b"%PDF-"


def test_analyze_several_stages_gives_a_list():
    r = run("analyze", "--json", STAGE_FILES[0], STAGE_FILES[1])
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert isinstance(data, list) and len(data) == 2


def test_roadbook_for_competitive_play_has_no_line(tmp_path):
    import subprocess

    out = tmp_path / "book.pdf"
    r = run("roadbook", SS1, "-o", out, "--no-lines")
    assert r.exit_code == 0, r.output
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout
    assert "Pick list" in text or "pick list" in text.lower()
    assert "T1" not in text
    r = run("roadbook", ROOT / "stages" / "rallye" / "demo-ss1-col-des-essais.yaml", "-o", out, "--no-lines")
    assert r.exit_code == 2 and "DIRT" in r.output
