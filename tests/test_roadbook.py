"""The road book PDF: its text (pdftotext) holds the build list and the pace notes in driving order,
its pages render (pdftoppm), it is vector, in A4 and Letter, and it degrades without racing lines.

Set ROADBOOK_PNG_DIR to keep the rendered pages for a look.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import designer.systems.dirt as dirt_pkg
from designer.core.errors import DesignerError
from designer.systems.dirt.pacenotes import pace_notes
from designer.systems.dirt.roadbook import (FONT_DIR, build_rows, pdf_svg, rally_roadbook, roadbook, stage_facts,
                               stage_roadbook)
from designer.systems.dirt.stage import Stage, load_rally, load_stage
from designer.systems.dirt.track import assemble
from tests.conftest import ROOT

SS1 = ROOT / "stages/dirt/rally-1/ss1.yaml"
RALLY1 = ROOT / "stages/dirt/rally-1/rally.yaml"
POPPLER = shutil.which("pdftotext") and shutil.which("pdftoppm")
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils is not installed (pdftotext, pdftoppm): "
                                                       "apt-get install poppler-utils")
MM = 72 / 25.4


def pages(pdf: Path, crop_left_mm: float | None = None) -> list[str]:
    """The text of every page (pdftotext -layout); ``crop_left_mm`` drops what lies left of it."""
    args = ["pdftotext", "-layout"]
    if crop_left_mm is not None:
        args += ["-x", str(int(crop_left_mm * MM)), "-y", "0", "-W", "3000", "-H", "3000"]
    out = subprocess.run(args + [str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return out.split("\f")[:-1] if out.endswith("\f") else out.split("\f")


def section_pages(texts: list[str], heading: str, stage_name: str) -> list[int]:
    """Indices of the pages of one section (its heading page and the pages that continue it)."""
    start = next(i for i, t in enumerate(texts) if t.lstrip().startswith(f"{heading} · {stage_name}"))
    out = [start]
    for i in range(start + 1, len(texts)):
        first = texts[i].lstrip().split("\n", 1)[0]
        if "·" in first and not first.startswith("From start") and not first.startswith("#"):
            break
        out.append(i)
    return out


@pytest.fixture(scope="module")
def ss1_pdf(tmp_path_factory):
    out = tmp_path_factory.mktemp("rb") / "ss1.pdf"
    roadbook(SS1, out, "A4")
    return out


@pytest.fixture(scope="module")
def rally_pdf(tmp_path_factory):
    out = tmp_path_factory.mktemp("rb") / "rally1.pdf"
    data = roadbook(RALLY1, out, "Letter")
    assert out.read_bytes() == data
    return out


def media_boxes(data: bytes) -> set[tuple[float, float]]:
    return {(round(float(w)), round(float(h))) for w, h in re.findall(rb"/MediaBox\s*\[0 0 ([\d.]+) ([\d.]+)\]", data)}


# -- the PDF itself --------------------------------------------------------------------------

def test_stage_roadbook_bytes_and_paper_sizes(tmp_path):
    stage = load_stage(SS1)
    a4 = stage_roadbook(stage, None, "A4")
    letter = stage_roadbook(stage, tmp_path / "ss1.pdf", paper="letter")
    assert a4.startswith(b"%PDF-") and letter.startswith(b"%PDF-")
    assert media_boxes(a4) == {(595, 842)}
    assert media_boxes(letter) == {(612, 792)}
    assert (tmp_path / "ss1.pdf").read_bytes() == letter


def test_vector_drawings_and_bundled_font():
    data = stage_roadbook(load_stage(SS1), None)
    assert b"/Subtype /Image" not in data            # maps and tiles are paths, not pictures
    assert b"DejaVuSans" in data and b"/Helvetica" not in data
    assert (FONT_DIR / "DejaVuSans.ttf").is_file() and (FONT_DIR / "DejaVuSans-Bold.ttf").is_file()
    assert "Bitstream" in (FONT_DIR / "LICENSE-DejaVu.txt").read_text()


def test_bad_paper_and_missing_file(tmp_path):
    with pytest.raises(DesignerError, match="paper"):
        stage_roadbook(load_stage(SS1), None, paper="A3")
    with pytest.raises(DesignerError, match="no such file"):
        roadbook(tmp_path / "nope.yaml", tmp_path / "out.pdf")
    with pytest.raises(DesignerError, match="cannot write"):
        roadbook(SS1, tmp_path / "no-such-dir" / "out.pdf")


# -- text: build list and pace notes in order --------------------------------------------------

@needs_poppler
def test_build_list_in_driving_order(ss1_pdf):
    stage = load_stage(SS1)
    texts = pages(ss1_pdf)
    idx = section_pages(texts, "Build sheet", stage.name)
    body = "\n".join(pages(ss1_pdf, crop_left_mm=40)[i] for i in idx)
    rows = re.findall(r"^\s*(\d{3}[ab])\s+in: (.+?) \(edge ([A-F])\)\s+(\d) · (\d+)°\s+(.*)$", body, re.M)
    assert [r[0] for r in rows] == stage.tile_ids
    assert [r[2] for r in rows] == [p.entry for p in stage.tiles]
    assert [int(r[3]) * 60 for r in rows] == [int(r[4]) for r in rows]
    # Each tile attaches to the one before it.
    for k, r in enumerate(rows[1:], start=1):
        assert r[5].startswith(f"tile {k} ({stage.tile_ids[k - 1]}), on its "), r
    outs = re.findall(r"^\s*\S.*?out: (.+?) \(edge ([A-F])\)", body, re.M)
    track = stage_facts(stage, near=SS1.parent).track
    assert [o[1] for o in outs] == [t.exit for t in track.tiles if t.exit]
    assert "Boxes needed: DIRT Core Box" in texts[idx[0]].replace("\n", " ")


@needs_poppler
def test_pace_notes_in_driving_order(ss1_pdf, dirt):
    stage = load_stage(SS1)
    notes = pace_notes(assemble(stage, dirt))
    texts = pages(ss1_pdf)
    idx = section_pages(texts, "Pace notes", stage.name)
    body = "\n".join(pages(ss1_pdf, crop_left_mm=40)[i] for i in idx).split("Fastest line ·")[0]
    rows = re.findall(r"^\s*(\d+)\s+\+(\d+)\s+(.+?)(?:\s{2,}(yellow|orange|red))?\s*$", body, re.M)
    got = [(int(d), int(p), text.strip()) for d, p, text, _ in rows]
    assert got == [(n.distance_from_start, n.distance_from_previous, n.text) for n in notes]
    dangers = [c for *_, c in rows]
    assert dangers == [n.danger or "" for n in notes]
    heads = re.findall(r"Tile (\d+) · (\d{3}[ab]) · ", body)
    assert [h[1] for h in heads] == stage.tile_ids
    assert [int(h[0]) for h in heads] == list(range(1, len(stage.tiles) + 1))


@needs_poppler
def test_title_block(ss1_pdf):
    first = pages(ss1_pdf)[0]
    flat = " ".join(first.split())
    for expected in ("Rally 1 - SS1", "Rally Rally 1", "Stage SS1", "Surface gravel", "Options leader dice",
                     "Tiles 10 road tiles + assistance", "Length 26 cells", "Table time ≈",
                     "for 4 players", "Boxes DIRT Core Box", "ASSISTANCE", "START", "FINISH"):
        assert expected in flat, expected
    assert re.search(r"Fastest line (\d+:\d\d game time \(\d+ turns\)|not available)", flat)


@needs_poppler
def test_fastest_line_section(ss1_pdf):
    pytest.importorskip("designer.systems.dirt.lines")
    flat = " ".join(" ".join(pages(ss1_pdf)).split())
    assert re.search(r"Fastest line: game time \d+:\d\d, \d+ turns", flat)
    assert "Dice, in order" in flat and "Time card" in flat
    assert re.search(r"tile 2 210b [1-6]", flat)       # the gear on the hairpin


@needs_poppler
def test_rally_book(rally_pdf):
    texts = pages(rally_pdf)
    cover = " ".join(texts[0].split())
    assert "Rally 1" in cover and "3 stages" in cover
    assert cover.index("SS1") < cover.index("SS2") < cover.index("SS3")
    assert "ASSISTANCE after SS1" in cover and "ASSISTANCE after SS2" in cover
    # The stages follow in order.
    build = [i for i, t in enumerate(texts) if t.lstrip().startswith("Build sheet · ")]
    assert [texts[i].lstrip().split("\n", 1)[0] for i in build] == [
        f"Build sheet · Rally 1 - SS{k}" for k in (1, 2, 3)]
    sheet = texts[-1]
    assert sheet.lstrip().startswith("Rally sheet · Rally 1")
    labels = re.findall(r"^\s*(PLAYER|SS\d TIME|DAMAGE|SPARE WHEEL|TOTAL TIME|FINAL TIME|POSITION)\b", sheet, re.M)
    assert labels == ["PLAYER", "SS1 TIME", "DAMAGE", "SPARE WHEEL", "SS2 TIME", "DAMAGE", "SPARE WHEEL",
                      "TOTAL TIME", "SS3 TIME", "FINAL TIME", "POSITION"]
    assert sheet.count("...V / ...G / ...F") == 10      # 5 players x 2 stages before the last
    assert len(re.findall(r"○\s*O\s+○\s*N", sheet)) == 10
    assert "Place:" in sheet and "Date:" in sheet
    assert "V: speed (Vitesse), G: throttle (Gaz)" in " ".join(sheet.split())


@needs_poppler
def test_every_printed_character_has_a_glyph(rally_pdf):
    from fontTools.ttLib import TTFont

    regular = set(TTFont(FONT_DIR / "DejaVuSans.ttf").getBestCmap())
    bold = set(TTFont(FONT_DIR / "DejaVuSans-Bold.ttf").getBestCmap())
    text = "".join(pages(rally_pdf))
    missing = {c for c in text if not c.isspace() and (ord(c) not in regular or ord(c) not in bold)}
    assert not missing
    assert {"↑", "↗", "↙", "○", "≈", "→", "°", "·"} <= set(text)


@needs_poppler
def test_pages_render_to_png(rally_pdf, tmp_path):
    from PIL import Image

    keep = os.environ.get("ROADBOOK_PNG_DIR")
    out_dir = Path(keep) if keep else tmp_path
    out_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(rally_pdf), str(out_dir / "page")], check=True)
    pngs = sorted(out_dir.glob("page-*.png"))
    assert len(pngs) == len(pages(rally_pdf))
    for png in pngs:
        img = Image.open(png).convert("L")
        w, h = img.size
        assert abs(w / h - 612 / 792) < 0.01                  # Letter
        lo, hi = img.getextrema()
        assert lo < 100 and hi > 240, png                     # ink on white paper


# -- degrading --------------------------------------------------------------------------------

def test_without_racing_lines_the_section_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "designer.systems.dirt.lines", None)
    monkeypatch.delattr(dirt_pkg, "lines", raising=False)
    facts = stage_facts(load_stage(SS1), near=SS1.parent)
    assert facts.fastest is None and "designer.systems.dirt.lines" in facts.fastest_missing
    assert facts.table_minutes == pytest.approx(25.0)       # the rulebook's 2.5 minutes a tile
    data = stage_roadbook(load_stage(SS1), None)
    assert data.startswith(b"%PDF-")


def test_a_failing_line_search_still_prints(monkeypatch):
    import types

    fake = types.ModuleType("designer.systems.dirt.lines")

    def boom(track, *a, **k):
        raise RuntimeError("half-written")

    fake.fastest_line = boom
    monkeypatch.setitem(sys.modules, "designer.systems.dirt.lines", fake)
    monkeypatch.setattr(dirt_pkg, "lines", fake, raising=False)
    with pytest.warns(UserWarning, match="half-written"):
        facts = stage_facts(load_stage(SS1), near=SS1.parent)
    assert facts.fastest is None and "half-written" in facts.fastest_missing


def test_analyze_only_module_is_read(monkeypatch, dirt):
    """A lines module exposing only analyze() (turns with steps) is understood."""
    import types

    track = assemble(load_stage(SS1), dirt)
    start = track.start_cells()[0]
    path = [start]
    while not track.graph.nodes[path[-1]]["finish"]:
        path.append(sorted(track.graph.successors(path[-1]))[0])
    cells = path[1:]
    turns = [{"turn": k + 1, "gear": 2, "seconds": 40,
              "steps": [{"cells": [c], "dice": ["gear2"] if j else ["gear1"], "gear": 2} for j, c in enumerate(chunk)]}
             for k, chunk in enumerate(cells[i:i + 5] for i in range(0, len(cells), 5))]
    fake = types.ModuleType("designer.systems.dirt.lines")
    fake.analyze = lambda track, players=4, max_risk=None: {
        "fastest_line": {"start": start, "seconds": 40 * len(turns), "turns": len(turns), "turn_list": turns},
        "estimate": {"table_minutes": 31.0}}
    monkeypatch.setitem(sys.modules, "designer.systems.dirt.lines", fake)
    monkeypatch.setattr(dirt_pkg, "lines", fake, raising=False)
    facts = stage_facts(load_stage(SS1), near=SS1.parent)
    assert facts.fastest is not None and len(facts.fastest.turns) == len(turns)
    assert facts.fastest.game_seconds == 40 * len(turns) and facts.table_minutes == 31.0
    assert facts.fastest.cell_gears[0] == (start, None) and len(facts.fastest.cell_gears) == len(path)
    assert facts.fastest.turns[0].dice == "1 2 2 2 2"
    assert stage_roadbook(load_stage(SS1), None).startswith(b"%PDF-")


@needs_poppler
def test_broken_and_tile_level_stages_still_print(tmp_path):
    broken = tmp_path / "broken.pdf"
    stage_roadbook(Stage(name="Broken", tiles=["202a A", "999z D", "203a A"]), broken)
    text = " ".join(" ".join(pages(broken)).split())
    assert "This stage is not legal" in text and "999z" in text
    assert "The fastest line is not available" in text and "No pace notes" in text
    gt = tmp_path / "gt.pdf"
    stage_roadbook(Stage(name="GT", tileset="official", tiles=["101a A"]), gt)
    assert "No pace notes" in " ".join(" ".join(pages(gt)).split())
    empty = stage_roadbook(Stage(name="Empty"), None)
    assert empty.startswith(b"%PDF-")


# -- pieces -------------------------------------------------------------------------------------

def test_build_rows(dirt):
    track = assemble(load_stage(SS1), dirt)
    rows = build_rows(track)
    assert [r["tile"] for r in rows] == load_stage(SS1).tile_ids
    assert rows[0]["attaches_short"] == "first"
    assert rows[-1]["tile"] == "201a" and rows[-1]["attaches"].startswith("tile 10 (203a)")
    assert rows[-1]["exit"] is None and rows[-1]["kind"] == "assistance"
    assert rows[1]["kind"] == "hairpin left" and rows[1]["from"] == "↓"


def test_svg_text_is_centred_for_fpdf2():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><title>t</title>'
           '<text x="5" y="5.00" font-size="2.00" dominant-baseline="central">7</text></svg>')
    out = pdf_svg(svg)
    assert "dominant-baseline" not in out and "<title>" not in out and 'y="5.72"' in out


def test_maps_are_scaled_to_fit_their_box():
    from designer.systems.dirt.roadbook import _new_book

    pdf = _new_book("A4", "t")
    pdf.add_page()
    wide = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4000 500"><rect width="4000" height="500"/></svg>'
    tall = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 6000"><rect width="300" height="6000"/></svg>'
    w, h = pdf.svg(wide, 12, 20, 186, 200)
    assert w == pytest.approx(186) and h < 200
    w, h = pdf.svg(tall, 12, 20, 186, 200)
    assert h == pytest.approx(200) and w < 186
    w, h = pdf.svg(wide, 12, 20, 186, 200, max_scale=0.01)
    assert w == pytest.approx(40)


def test_cli_roadbook(tmp_path):
    from designer.cli import main

    out = tmp_path / "rally.pdf"
    r = CliRunner().invoke(main, ["roadbook", str(RALLY1), "-o", str(out), "--paper", "letter"])
    assert r.exit_code == 0, r.output
    assert media_boxes(out.read_bytes()) == {(612, 792)}
    r = CliRunner().invoke(main, ["roadbook", str(tmp_path / "missing.yaml"), "-o", str(out)])
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_rally_roadbook_from_a_rally_object():
    rally = load_rally(RALLY1)
    data = rally_roadbook(rally, None, "A4")
    assert data.startswith(b"%PDF-") and media_boxes(data) == {(595, 842)}
    with pytest.raises(DesignerError, match="no stage"):
        rally_roadbook(rally.model_copy(update={"stages": []}))
