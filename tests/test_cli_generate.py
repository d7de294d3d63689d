"""`rally-designer generate` and `rally-designer batch` as a user runs them."""
from __future__ import annotations

import csv
from pathlib import Path

from click.testing import CliRunner

from designer.cli import main
from designer.systems.dirt.board.stage import load_rally, load_stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.validate import validate

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_generate_a_stage_then_a_rally_that_keeps_its_tiles(tmp_path):
    out = tmp_path / "gen.yaml"
    r = run("generate", "-o", out, "--tiles", "9-10", "--table", "150x100", "--seed", "3", "--candidates", "6",
            "--jobs", "1", "--reserve", "210", "--assistance")
    assert r.exit_code == 0, r.output
    stage = load_stage(out)
    assert not [p for p in validate(stage, get_tileset("dirt-core")) if p.severity == "error"]
    assert "210" not in {p.tile[:3] for p in stage.tiles} and stage.tiles[-1].tile.startswith("201")
    folder = tmp_path / "rally"
    r = run("generate", "-o", folder, "--stages", "2", "--tiles", "8", "--seed", "1", "--candidates", "4",
            "--jobs", "1", "--reserve-from", out)
    assert r.exit_code == 0, r.output
    rally = load_rally(folder / "rally.yaml")
    assert len(rally.stages) == 2
    mine = {p.tile[:3] for p in stage.tiles} - {"201", "202", "203"}
    for s in rally.stages:
        assert not mine & {p.tile[:3] for p in s.tiles}


def test_generate_refuses_nonsense(tmp_path):
    for args, text in [(("--tiles", "x"), "range"), (("--table", "big"), "WIDTHxHEIGHT"), (("--box", "gt"), "box"),
                       (("--target", "fun=1:2"), "target"), (("--tile-cm", "nan"), "tile size")]:
        r = run("generate", "-o", tmp_path / "g.yaml", "--candidates", "2", *args)
        assert r.exit_code == 2 and text in r.output, r.output


def test_batch_writes_csv_and_html(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("stage: broken\ntiles: [202a A, 999z D]\n")
    r = run("batch", bad, "-o", tmp_path / "t.csv", "--html", tmp_path / "t.html", "--jobs", "1")
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader((tmp_path / "t.csv").open()))
    assert rows[0]["valid"] == "False" and "999z" in rows[0]["problems"]
    assert "<table>" in (tmp_path / "t.html").read_text()
    r = run("batch", bad, "-o", tmp_path / "t.txt")
    assert r.exit_code == 2 and ".csv" in r.output


def test_rallye_stages_are_drafted_and_ranked(tmp_path):
    from designer import systems

    rallye = systems.get("rallye")
    easy = rallye.generate(seed=4, count=2, candidates=12, difficulty="easy")
    hard = rallye.generate(seed=4, count=2, candidates=12, difficulty="hard")
    assert easy[0][1]["best_solo_seconds"] <= easy[1][1]["best_solo_seconds"]
    assert easy[0][1]["best_solo_seconds"] < hard[0][1]["best_solo_seconds"]
    assert rallye.generate(seed=4, count=1, candidates=12, difficulty="easy")[0][0].cards == easy[0][0].cards
    r = run("generate", "--system", "rallye", "-o", tmp_path / "drafted", "--stages", "2", "--candidates", "6")
    assert r.exit_code == 0, r.output
    for k in (1, 2):
        stage = rallye.load(tmp_path / "drafted" / f"stage{k}.yaml")
        assert len(stage.cards) == 12
        assert not [p for p in rallye.validate(stage, rallye.box_of(stage)) if p.severity == "error"]
    r = run("generate", "--system", "classic", "-o", tmp_path / "c.yaml")
    assert r.exit_code == 2 and "no stage generator" in r.output


def test_great_race_pairs_are_ranked_by_balance(tmp_path):
    from designer import systems

    race = systems.get("greatrace")
    ranked = race.generate(count=10)
    imbalance = [f["imbalance"] for _r, f in ranked]
    assert imbalance == sorted(imbalance) and len(ranked) >= 3
    for r, f in ranked:
        assert f["actions"] <= f["actions_reversed"]                   # offered in its easier direction
        assert {r.start, r.finish} == {f["start"], f["finish"]}
    r = run("generate", "--system", "greatrace", "-o", tmp_path / "race.yaml")
    assert r.exit_code == 0, r.output
    made = race.load(tmp_path / "race.yaml")
    assert not [p for p in race.validate(made, race.box_of(made)) if p.severity == "error"]


def test_generate_best_examines_every_candidate(tmp_path):
    first, best = tmp_path / "first.yaml", tmp_path / "best.yaml"
    common = ("--tiles", "8-10", "--seed", "4", "--candidates", "10", "--jobs", "1", "--target", "tight_corners=1:5")
    assert run("generate", "-o", first, *common).exit_code == 0
    r = run("generate", "-o", best, "--best", *common)
    assert r.exit_code == 0, r.output
    assert "every target met" in r.output
    assert load_stage(best).tiles and load_stage(first).tiles
