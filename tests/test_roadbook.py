"""The DIRT road book PDF: its text (pdftotext) holds the build sheet with each tile's number corner, the pace
notes and the turns T1..Tn in driving order; no type under 6 pt; pages render; A4 and Letter; it degrades
without racing lines; a competitive-play book has no lines or times.

Set ROADBOOK_PNG_DIR to keep the rendered pages for a look.
"""
import os
import re
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from designer.core.errors import DesignerError
from designer.systems.dirt.board.stage import Stage, load_rally, load_stage
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.book.build import build_rows, either_way, pick_list, swaps, turned_round
from designer.systems.dirt.book.draw import CORNER_WORDS, corner_words, number_corner
from designer.systems.dirt.book.roadbook import (FONT_DIR, player_notes, rally_roadbook, roadbook, stage_facts,
                                                 stage_roadbook)
from designer.systems.dirt.driving.pacenotes import pace_notes
from tests.conftest import ROOT, STAGE_FILES

SS1 = ROOT / "stages/dirt/rally-1/ss1.yaml"
RALLY1 = ROOT / "stages/dirt/rally-1/rally.yaml"
R3SS2 = ROOT / "stages/dirt/rally-3/ss2.yaml"
POPPLER = shutil.which("pdftotext") and shutil.which("pdftoppm")
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils is not installed (pdftotext, pdftoppm): "
                                                       "apt-get install poppler-utils")


def pages(pdf: Path) -> list[str]:
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return out.split("\f")[:-1] if out.endswith("\f") else out.split("\f")


SECTION_HEADS = ("ROAD BOOK · ", "Build sheet · ", "Pace notes · ", "Line and times · ", "Rally sheet · ")


def sections(texts: list[str], heading: str) -> list[str]:
    """The text of every section that starts with ``heading``, up to the next section's heading: sections share
    pages (a short one follows the one before it) and a long one runs onto the next page."""
    out, current = [], None
    for line in "\n".join(texts).splitlines():
        head = line.lstrip().startswith(SECTION_HEADS)
        if head and current is not None:
            out.append("\n".join(current))
            current = None
        if head and line.lstrip().startswith(heading):
            current = [line]
        elif current is not None:
            current.append(line)
    if current is not None:
        out.append("\n".join(current))
    return out


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def rally_pdf(tmp_path_factory):
    out = tmp_path_factory.mktemp("rb") / "rally1.pdf"
    data = roadbook(RALLY1, out, "A4")
    assert out.read_bytes() == data
    return out


@pytest.fixture(scope="module")
def r3_pdf(tmp_path_factory):
    out = tmp_path_factory.mktemp("rb") / "r3ss2.pdf"
    roadbook(R3SS2, out, "Letter")
    return out


def media_boxes(data: bytes) -> set[tuple[float, float]]:
    return {(round(float(w)), round(float(h))) for w, h in re.findall(rb"/MediaBox\s*\[0 0 ([\d.]+) ([\d.]+)\]", data)}


def content_streams(data: bytes) -> list[bytes]:
    out = []
    for m in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        try:
            out.append(zlib.decompress(m.group(1)))
        except zlib.error:
            out.append(m.group(1))
    return out


# -- the PDF itself --------------------------------------------------------------------------

def test_paper_sizes_bytes_and_file(tmp_path):
    stage = load_stage(SS1)
    a4 = stage_roadbook(stage, None, "A4")
    letter = stage_roadbook(stage, tmp_path / "ss1.pdf", paper="letter")
    assert a4.startswith(b"%PDF-") and letter.startswith(b"%PDF-")
    assert media_boxes(a4) == {(595, 842)} and media_boxes(letter) == {(612, 792)}
    assert (tmp_path / "ss1.pdf").read_bytes() == letter


def test_vector_drawings_and_bundled_font():
    data = stage_roadbook(load_stage(SS1), None)
    assert b"/Subtype /Image" not in data            # maps and tiles are paths, not pictures
    assert b"DejaVuSans" in data and b"/Helvetica" not in data
    assert "Bitstream" in (FONT_DIR / "LICENSE-DejaVu.txt").read_text()


def test_bad_paper_missing_file_and_folder(tmp_path):
    with pytest.raises(DesignerError, match="paper"):
        stage_roadbook(load_stage(SS1), None, paper="A3")
    with pytest.raises(DesignerError, match="no such file"):
        roadbook(tmp_path / "nope.yaml", tmp_path / "out.pdf")
    with pytest.raises(DesignerError, match="folder does not exist"):
        roadbook(SS1, tmp_path / "no-such-dir" / "out.pdf")


def test_no_type_below_six_points(rally_pdf, r3_pdf):
    """Every font size set in the content streams, and every word's height as poppler measures it."""
    for pdf in (rally_pdf, r3_pdf):
        sizes = [float(s) for c in content_streams(pdf.read_bytes()) for s in re.findall(rb"/F\d+ ([\d.]+) Tf", c)]
        assert sizes and min(sizes) >= 6.0, sorted(sizes)[:5]
        bbox = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
        heights = [float(y2) - float(y1) for y1, y2 in
                   re.findall(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">', bbox)]
        # DejaVu Sans words are about 1.16 em tall: 6 pt type measures 7 pt.
        assert heights and min(heights) >= 6.0 * 1.1, min(heights)


# -- build sheet ---------------------------------------------------------------------------------

@needs_poppler
def test_build_sheet_names_the_number_corner_of_every_tile(rally_pdf):
    texts = pages(rally_pdf)
    rally = load_rally(RALLY1)
    sheets = sections(texts, "Build sheet · ")
    assert len(sheets) == 3
    for stage, body in zip(rally.stages, sheets):
        track = stage_facts(stage, near=RALLY1.parent, lines=False).track
        said = re.findall(r"number at the (upper left|upper right|lower left|lower right|left|right) corner"
                          r"|(either way round)", body)
        said = ["either" if e else c for c, e in said]
        expected = ["either" if either_way(t, track) else corner_words(t.rotation) for t in track.tiles]
        assert said == expected, stage.name
        # The corner agrees with the assembled rotation: the number sits at the F/A corner of the tile.
        for t, s in zip(track.tiles, said):
            if s != "either":
                assert s == CORNER_WORDS[(4 + t.rotation) % 6]
        assert re.findall(r"\b(\d{3}[ab])\b\s+(?:start|finish|hairpin|curve|straight|S-bend|kink|assistance)",
                          body) == [t.tile for t in track.tiles]
        picks = re.search(r"Pick list \((\d+)\):\s+(.+)", body)
        assert int(picks.group(1)) == len(track.tiles) and picks.group(2).split() == pick_list(track)


def test_either_way_only_where_turning_round_changes_nothing(dirt):
    """Straight-across tiles: 'either way round' exactly when the cells a car meets are the same."""
    seen = {True: 0, False: 0}
    for path in STAGE_FILES:
        track = assemble(load_stage(path), dirt)
        for t in track.tiles:
            other = turned_round(t)
            if other is None:
                assert not either_way(t, track)
                continue
            assert number_corner(other.rotation) == (number_corner(t.rotation) + 3) % 6
            assert either_way(other, track) == either_way(t, track)
            seen[either_way(t, track)] += 1
            if t.face.role in ("start", "finish"):
                assert not either_way(t, track)               # the start or finish line would move
    assert seen[True] and seen[False]


def test_an_s_bend_is_not_the_same_both_ways(dirt):
    # 214a driven A->D has its corner on the left; turned round, the same road turns right.
    track = assemble(Stage(tiles=["202a A", "214a A", "203a A"]), dirt)
    assert not either_way(track.tiles[1], track)
    rows = build_rows(track)
    assert rows[1]["kind"] == "S-bend" and rows[1]["two_ways"]


def test_pick_list_and_swaps_between_stages(dirt):
    rally = load_rally(RALLY1)
    tracks = [assemble(s, dirt) for s in rally.stages]
    for a, b in zip(tracks, tracks[1:]):
        change = swaps(a, b)
        before = sorted(change["keep"] + [x.split("→")[0] for x in change["turn over"]] + change["put away"])
        after = sorted(change["keep"] + [x.split("→")[1] for x in change["turn over"]] + change["take out"])
        assert before == sorted(t.tile for t in a.tiles) and after == sorted(t.tile for t in b.tiles)
        for x in change["turn over"]:
            old, new = x.split("→")
            assert old[:3] == new[:3] and old != new            # the same tile, other face up
    numbers = [int(t[:3]) for t in pick_list(tracks[0])]
    assert numbers == sorted(numbers)


# -- pace notes and line ---------------------------------------------------------------------------

@needs_poppler
def test_pace_notes_in_driving_order(rally_pdf, dirt):
    stage = load_rally(RALLY1).stages[0]
    notes = pace_notes(assemble(stage, dirt))
    texts = pages(rally_pdf)
    body = sections(texts, f"Pace notes · {stage.name}")[0]
    rows = re.findall(r"^\s*(\d+)\s+\+(\d+)\s+(?:\d+\s+\d{3}[ab]\s+\S+(?: \S+)*?\s{2,})?(.+?)\s{2,}", body, re.M)
    got = [(int(d), int(p), text.strip()) for d, p, text in rows]
    assert got == [(n.distance_from_start, n.distance_from_previous, n.text) for n in notes]
    assert "Slide" not in [n.text for n in notes] and "Flat" in [n.text for n in notes]


@needs_poppler
def test_turn_labels_on_the_map_and_in_the_table(rally_pdf):
    texts = pages(rally_pdf)
    rally = load_rally(RALLY1)
    for stage, text in zip(rally.stages, sections(texts, "Line and times · ")):
        facts = stage_facts(stage, near=RALLY1.parent)
        n = len(facts.fastest.turns)
        words = re.findall(r"\bT(\d+)\b", text)
        for k in range(1, n + 1):
            assert words.count(str(k)) >= 2, (stage.name, k)          # once on the map, once in the table
        table = re.findall(r"^\s*T(\d+)\s+tile (\d+) · (\d{3}[ab]): (.+?)\s{2,}", text, re.M)
        assert [int(t[0]) for t in table] == list(range(1, n + 1))
        for (k, tile, face, _), turn in zip(table, facts.fastest.turns):
            d = facts.track.graph.nodes[turn.cells[-1]]
            assert (int(tile), face) == (d["index"] + 1, d["tile"])
        assert "4:s2b" not in text                                  # no internal cell ids


@needs_poppler
def test_times_are_labelled_and_assumptions_named(rally_pdf):
    texts = pages(rally_pdf)
    line = flat(sections(texts, "Line and times · ")[0])
    assert re.search(r"Ideal \d+:\d\d", line) and "Risk" in line and "chance of at least one loss of control" in line
    assert "Assumed" in line and "time card" in line


def test_expected_time_is_the_headline_when_the_analysis_has_it(tmp_path, dirt):
    from designer.systems.dirt.analysis import analyze

    stage = load_stage(SS1)
    result = analyze(assemble(stage, dirt), players=4, expected=False)
    result["expected"] = {"seconds": 79.8, "sd": 28.4, "turns": 5.1, "loss_of_control_chance": 0.58,
                          "assumed": {"time_card": {}, "card_backs": {}}}
    out = tmp_path / "exp.pdf"
    stage_roadbook(stage, out, analysis=result)
    text = flat(" ".join(pages(out)))
    assert "Expected 1:20 ± 0:28" in text and "ideal 1:05" in text
    assert "card backs" in text and "58 % playing the expected way" in text
    assert "damage token" not in text.split("Expected: the average")[1][:400]      # no bound given: none said
    result["expected"]["bounds"] = {"max_damage": 2}
    stage_roadbook(stage, out, analysis=result)
    assert "the first 2 damage tokens a car draws take their dice away" in flat(" ".join(pages(out)))


@needs_poppler
def test_competitive_book_has_no_lines_or_times(tmp_path):
    out = tmp_path / "race.pdf"
    roadbook(RALLY1, out, lines=False)
    text = flat(" ".join(pages(out)))
    assert "Line and times" not in text and "Ideal" not in text and "ideal" not in text
    assert "Line gears" not in text and not re.search(r"\bT1\b", text)
    assert "Pace notes · " in text and "Build sheet · " in text and "Rally sheet" in text


# -- rally pages -------------------------------------------------------------------------------------

@needs_poppler
def test_rally_cover_and_sheet(rally_pdf):
    texts = pages(rally_pdf)
    cover = flat(texts[0])
    assert "Rally 1" in cover and "3 stages" in cover
    assert cover.index("SS1") < cover.index("SS2") < cover.index("SS3")
    assert "ASSISTANCE after SS1" in cover and "Tiles for the whole rally" in cover
    # The contents give the page each stage and the rally sheet start on.
    listed = re.findall(r"p\. (\d+)\s+(SS\d · Rally 1 - SS\d|Rally sheet)", texts[0])
    assert [t for _p, t in listed] == ["SS1 · Rally 1 - SS1", "SS2 · Rally 1 - SS2", "SS3 · Rally 1 - SS3",
                                       "Rally sheet"]
    for page, title in listed:
        assert texts[int(page) - 1].lstrip().startswith("ROAD BOOK" if title != "Rally sheet" else "Rally sheet")
    sheet = texts[-1]
    assert re.findall(r"SS\d START ORDER", sheet) == ["SS1 START ORDER", "SS2 START ORDER", "SS3 START ORDER"]
    assert sheet.lstrip().startswith("Rally sheet · Rally 1")
    labels = re.findall(r"^\s*(PLAYER|SS\d TIME|PENALTIES|DAMAGE|SPARE WHEEL|TOTAL TIME|FINAL TIME|POSITION)\b",
                        sheet, re.M)
    assert labels == ["PLAYER", "SS1 TIME", "PENALTIES", "DAMAGE", "SPARE WHEEL", "SS2 TIME", "PENALTIES",
                      "DAMAGE", "SPARE WHEEL", "TOTAL TIME", "SS3 TIME", "PENALTIES", "FINAL TIME", "POSITION"]
    assert sheet.count("SISU") >= 18                     # six players x three stages
    assert sheet.count("..V ..G ..F ..flat") == 12       # six players x two stages before the last
    # The last stage's title page does not say damage carries over.
    titles = [flat(texts[i]) for i, t in enumerate(texts) if "ROAD BOOK · Rallyman: DIRT" in t][1:]
    assert "carry over" not in titles[-1]


@needs_poppler
def test_single_stage_book_has_its_sheet_and_no_developer_references(r3_pdf):
    texts = pages(r3_pdf)
    assert texts[-1].lstrip().startswith("Rally sheet · ")
    assert "STAGE TIME" in texts[-1] and "FINAL TIME" in texts[-1]
    text = " ".join(texts)
    for word in ("reference facts", "designer.", ".py", "section 4"):
        assert word not in text, word


def test_player_notes_drop_source_sentences():
    assert player_notes("Example rally from the rulebook (p. 25). Entry edges from the reference facts, "
                        "section 4.") == "Example rally from the rulebook (p. 25)."


@needs_poppler
def test_pages_render_in_colour_and_grey(rally_pdf, tmp_path):
    from PIL import Image

    keep = os.environ.get("ROADBOOK_PNG_DIR")
    out_dir = Path(keep) if keep else tmp_path
    out_dir.mkdir(parents=True, exist_ok=True)
    for mode in ("colour", "gray"):
        args = ["pdftoppm", "-r", "30", "-png"] + (["-gray"] if mode == "gray" else [])
        subprocess.run(args + [str(rally_pdf), str(out_dir / mode)], check=True)
        pngs = sorted(out_dir.glob(f"{mode}-*.png"))
        assert len(pngs) == len(pages(rally_pdf))
        for png in pngs:
            lo, hi = Image.open(png).convert("L").getextrema()
            assert lo < 100 and hi > 240, png                 # ink on white paper


def test_palette_reads_in_grayscale():
    from designer.core import pdfkit

    def lum(c):
        return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]

    for ink in (pdfkit.INK, pdfkit.GREY, pdfkit.ALERT):
        assert lum(ink) < 100                                # dark enough on white
    for fill in (pdfkit.SHADE, pdfkit.PALE, pdfkit.BAND):
        assert lum(fill) > 200                               # light enough under ink


# -- degrading ---------------------------------------------------------------------------------------

@needs_poppler
def test_broken_and_tile_level_stages_still_print(tmp_path):
    broken = tmp_path / "broken.pdf"
    stage_roadbook(Stage(name="Broken", tiles=["202a A", "999z D", "203a A"]), broken)
    text = flat(" ".join(pages(broken)))
    assert "This stage is not legal" in text and "999z" in text
    assert "The fastest line is not available" in text and "No pace notes" in text
    gt = tmp_path / "gt.pdf"
    stage_roadbook(Stage(name="GT", tileset="official", tiles=["101a A"]), gt)
    assert "No pace notes" in flat(" ".join(pages(gt)))
    assert stage_roadbook(Stage(name="Empty"), None).startswith(b"%PDF-")


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


def test_table_time_does_not_depend_on_what_the_book_prints():
    stage = load_stage(SS1)
    with_lines = stage_facts(stage, near=SS1.parent, lines=True)
    without = stage_facts(stage, near=SS1.parent, lines=False)
    assert with_lines.table_minutes is not None
    assert with_lines.table_minutes == without.table_minutes and with_lines.table_basis == without.table_basis
