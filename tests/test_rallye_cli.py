"""The demo Rallye stages end to end through the command line (the shared contract), and the road book PDF."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from designer.cli import main
from designer import systems

ROOT = Path(__file__).resolve().parent.parent
STAGES = ROOT / "stages" / "rallye"
SS = sorted(str(p) for p in STAGES.glob("demo-ss*.yaml"))
RALLY = str(STAGES / "demo-rally.yaml")


@pytest.fixture(scope="module")
def runner():
    return CliRunner()


def test_registry_finds_rallye_by_the_files_key():
    system = systems.system_of_file(SS[0])
    assert system.name == "rallye" and systems.get("rallye") is system
    kinds = {e.kind for e in system.examples()}
    assert kinds == {"stage", "rally", "box"}


def test_validate_demo_stages_and_rally(runner):
    result = runner.invoke(main, ["validate", *SS, RALLY])
    assert result.exit_code == 0, result.output
    assert result.output.count("valid (Rallye") == 6
    assert "demo-deck" in result.output


def test_validate_an_invalid_stage_exits_1_with_located_messages(runner, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: rallye\nstage: bad\ndeck: rallye-demo\ncards:\n  - 32\n  - 5\n  - 32\n  - 999\n",
                   encoding="utf-8")
    result = runner.invoke(main, ["validate", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:8: cards[3]" in result.output and "no card '999'" in result.output
    result = runner.invoke(main, ["validate", "--json", str(bad)])
    data = json.loads(result.output)
    assert {p["code"] for p in data[0]["problems"]} >= {"stage-length", "card-twice", "unknown-card"}


def test_bad_input_exits_2_without_traceback(runner, tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("system: rallye\nstage: [oops\n", encoding="utf-8")
    result = runner.invoke(main, ["analyze", str(broken)])
    assert result.exit_code == 2 and "not valid YAML" in result.output and "Traceback" not in result.output
    nodeck = tmp_path / "nodeck.yaml"
    nodeck.write_text("system: rallye\nstage: x\ndeck: my-own\ncards: [1]\n", encoding="utf-8")
    result = runner.invoke(main, ["analyze", str(nodeck)])
    assert result.exit_code == 2 and "no deck named 'my-own'" in result.output and "hint:" in result.output


def test_analyze_text_and_json(runner):
    result = runner.invoke(main, ["analyze", SS[0]])
    assert result.exit_code == 0, result.output
    assert "cautious plan" in result.output and "fastest plan" in result.output and "next hard" in result.output
    result = runner.invoke(main, ["analyze", "--json", "--players", "4", SS[1]])
    data = json.loads(result.output)
    assert data["system"] == "rallye" and data["players"] == 4 and len(data["recon"]) == 12
    assert data["cautious_solo_seconds"] >= data["best_solo_seconds"]
    assert data["simulation"]["fastest"]["runs"] > 0
    assert data["table_time"]["minutes"] > 0


def test_render_svg_and_png(runner, tmp_path):
    svg, png = tmp_path / "s.svg", tmp_path / "s.png"
    assert runner.invoke(main, ["render", SS[2], "-o", str(svg)]).exit_code == 0
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg") and "TIGHT" in text and "on the table" in text
    assert runner.invoke(main, ["render", SS[2], "-o", str(png)]).exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_roadbook_of_the_rally(runner, tmp_path):
    out = tmp_path / "rally.pdf"
    result = runner.invoke(main, ["roadbook", RALLY, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:5] == b"%PDF-"
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True).stdout
        assert "Rallye de Démonstration" in text
        for name in ("SS1 demo: Col des Essais", "SS2 demo: Forêt Longue", "SS3 demo: Neige au Tirage"):
            assert name in text
        assert text.count("DEMONSTRATION DATA") == 6                  # a drivers' and an organiser's sheet each
        play = text.split("· organiser's sheet")[0]
        assert play.count("drivers' sheet (fronts only)") == 3 and "if known" not in play
        assert "#32" not in play and "#32" in text                         # card numbers are on the backs
        assert "next hard" in text and "Solo challenge" in text
    if shutil.which("pdffonts"):
        fonts = subprocess.run(["pdffonts", str(out)], capture_output=True, text=True).stdout
        assert "DejaVu" in fonts


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
def test_the_drivers_sheet_is_the_same_for_two_stages_whose_cards_differ_only_on_their_backs(runner, tmp_path):
    """The demo deck holds cards with the same front and different backs: two stages laid from such twins print the
    same drivers' sheet (every figure on it from the fronts), and different organiser's sheets."""
    from designer.systems.rallye.model.deck import get_deck

    deck = get_deck("rallye-demo")
    sides = (["1", "9", "21", "14", "20", "6", "10", "23", "15", "22", "7", "11"],
             ["2", "11", "23", "16", "22", "8", "12", "21", "15", "24", "6", "13"])

    def front(i):
        c = deck.sections[i]
        return c.width, c.surface, c.severity, c.direction

    assert [front(i) for i in sides[0]] == [front(i) for i in sides[1]]
    assert any((deck.sections[a].safety, deck.sections[a].top) != (deck.sections[b].safety, deck.sections[b].top)
               for a, b in zip(*sides))
    sheets = []
    for k, side in enumerate(sides):
        stage = tmp_path / f"s{k}.yaml"
        stage.write_text(f"system: rallye\nstage: twins\ndeck: rallye-demo\nplayers: 1\ncards: [{', '.join(side)}]\n")
        out = tmp_path / f"s{k}.pdf"
        result = runner.invoke(main, ["roadbook", str(stage), "-o", str(out)])
        assert result.exit_code == 0, result.output
        text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True).stdout
        sheets.append(text.split("· organiser's sheet"))
    assert sheets[0][0] == sheets[1][0] and "Fastest plan" in sheets[0][0]
    assert sheets[0][1] != sheets[1][1]


def test_roadbook_text_is_never_under_6_pt(tmp_path):
    """Every text run the road book writes itself is 6 pt or more (drawings are scaled to keep theirs so)."""
    from designer.systems.rallye import roadbook as rb

    sizes = []
    original = rb._Book.set_font

    def spy(self, family=None, style="", size=0):
        if size:
            sizes.append(size)
        return original(self, family, style, size)

    rb._Book.set_font = spy
    try:
        system = systems.get("rallye")
        system.roadbook(system.load(RALLY), runs=20)
    finally:
        rb._Book.set_font = original
    assert sizes and min(sizes) >= 6


def test_a_misspelt_system_names_the_games_and_the_fix(tmp_path):
    from designer.core.errors import DesignerError
    from designer.systems.rallye.model.stage import loads

    with pytest.raises(DesignerError) as exc:
        loads("system: rally\nstage: x\ndeck: rallye-demo\ncards: [1]\n", "ss.yaml")
    text = str(exc.value)
    assert "ss.yaml:1" in text and "not a game" in text
    assert all(name in text for name in systems.names())
    assert "write `system: rallye`" in text


def test_generate_prints_a_readable_summary(runner, tmp_path):
    out = tmp_path / "gen.yaml"
    res = runner.invoke(main, ["generate", "--system", "rallye", "-o", str(out), "--seed", "1"])
    assert res.exit_code == 0, res.output
    assert "fastest plan" in res.output and "km/h" in res.output and "draft #" in res.output
    assert "best_solo_seconds" not in res.output and "_" not in res.output.split(":", 1)[1]


def test_a_rally_analysed_ends_with_its_totals():
    import json
    import re

    from click.testing import CliRunner

    from designer.cli import main

    out = CliRunner().invoke(main, ["analyze", "stages/rallye/demo-rally.yaml"])
    assert out.exit_code == 0, out.output
    head, figures = out.output.strip().splitlines()[-2:]
    assert "3 stages, times added up over the rally" in head
    stages = json.loads(CliRunner().invoke(main, ["analyze", "stages/rallye/demo-rally.yaml", "--json"]).output)
    assert len(stages) == 3
    for key, label in (("cautious_solo_seconds", "cautious plans"), ("best_solo_seconds", "fastest plans")):
        total = float(re.search(label + r" ([0-9.]+) s", figures).group(1))
        assert abs(total - sum(r[key] for r in stages)) < 0.06, (label, total)
    minutes = int(re.search(r"table about ([0-9]+) min", figures).group(1))
    assert minutes == sum(r["table_time"]["minutes"] for r in stages)


def test_a_cautious_plan_that_cannot_stay_under_a_limit_takes_the_speed_nearest_it():
    """A hand of 40 km/h cards from 20 km/h reaches 20, 60, 100...: on section 3, whose front allows a safety
    speed of 0, no speed stays under it, and the cautious plan takes 20, the nearest above, not 60."""
    import json

    from click.testing import CliRunner

    from designer.cli import main

    out = CliRunner().invoke(main, ["analyze", "tests/data/rallye-forced/stage.yaml", "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)["recon"]
    assert rows[2]["cautious_speed"] == 20 and rows[2]["planned_speed"] == 60
