"""The page kit every road book uses (designer.core.pdfkit, designer.core.pdfsvg): drawings written as PDF paths,
the 6 pt floor, quick word wrap, plain cells, and the DIRT print drawings (number corner, turn labels)."""
import re
import shutil
import subprocess
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.core import pdfsvg
from designer.core.errors import DesignerError
from designer.core.pdfkit import MIN_PT, Column, finish, new_book

POPPLER = shutil.which("pdftotext")
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils is not installed: apt-get install poppler-utils")


def streams(data: bytes) -> bytes:
    out = b""
    for m in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        try:
            out += zlib.decompress(m.group(1))
        except zlib.error:
            out += m.group(1)
    return out


def text_of(data: bytes, tmp_path) -> str:
    p = tmp_path / "t.pdf"
    p.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(p), "-"], capture_output=True, text=True, check=True).stdout


def test_paper_is_checked():
    with pytest.raises(DesignerError, match="paper"):
        new_book("A5")


def test_drawings_become_paths_not_images():
    book = new_book("A4", "t")
    book.add_page()
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50">'
           '<polygon points="0,0 100,0 100,50" fill="#336699" stroke="#000" stroke-width="2"/>'
           '<path d="M10,10 q5,-5 10,0 t10,0 L40,40 Z" fill="none" stroke="#1f5fbf"/>'
           '<circle cx="50" cy="25" r="10" fill="white" stroke="#222" stroke-dasharray="2,1"/>'
           '<g transform="translate(10,5)"><rect x="0" y="0" width="5" height="5" fill="#111"/></g>'
           '<text x="50" y="25" font-size="8" text-anchor="middle" dominant-baseline="central">42</text></svg>')
    w, h = book.svg(svg, 10, 10, 100, 100)
    assert (w, h) == pytest.approx((100, 50))
    data = finish(book)
    body = streams(data)
    assert b"/Subtype /Image" not in data
    assert body.count(b" c ") >= 4 + 2           # the circle's four curves and the two quadratic pieces
    assert b"[" in body and b"] 0 d" in body      # the dash
    assert re.search(rb"BT /F\d+ [\d.]+ Tf", body)


def test_unsupported_svg_is_placed_as_a_picture():
    book = new_book("A4", "t")
    book.add_page()
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><ellipse cx="5" cy="5" rx="4" ry="2"/></svg>'
    assert book.svg(svg, 0, 0, 20, 20) == pytest.approx((20, 20))
    data = finish(book)
    assert data.startswith(b"%PDF-") and b"/Subtype /Image" in data
    assert re.search(rb"/I1 Do", streams(data))


def test_a_broken_drawing_is_a_clear_error():
    book = new_book("A4", "t")
    book.add_page()
    with pytest.raises(DesignerError, match="drawing"):
        book.svg("<svg viewBox='0 0 10 10'><circle", 0, 0, 20, 20)


@needs_poppler
def test_text_survives_the_font_subset(tmp_path):
    """Accents (composite glyphs), symbols and both faces print and read back; only used glyphs are embedded."""
    import io

    from fontTools.ttLib import TTFont

    from designer.core.pdffont import TrueType

    book = new_book("A4", "Café ≈ test")
    book.add_page()
    book.font(10)
    book.cell(0, 6, "Café crème ≈ 2:55 · L3 → R1 ± 0:10 × 6", new_x="LMARGIN", new_y="NEXT")
    book.font(10, bold=True)
    book.cell(0, 6, "Épreuve spéciale", new_x="LMARGIN", new_y="NEXT")
    data = finish(book)
    text = " ".join(text_of(data, tmp_path).split())
    assert "Café crème ≈ 2:55 · L3 → R1 ± 0:10 × 6" in text and "Épreuve spéciale" in text
    regular = book.fonts["dejavu sans"]
    font = TrueType.load(regular.font.path)
    program = TTFont(io.BytesIO(font.subset(regular.used)))
    order = program.getGlyphOrder()
    glyf = program["glyf"]
    drawn = {g for g in range(len(order)) if glyf[order[g]].numberOfContours}
    e_acute = font.glyph("é")
    assert e_acute in drawn and font.glyph("Z") not in drawn
    assert len(drawn) < 60 < font.glyphs
    assert len(data) < 60_000
    fonts = subprocess.run(["pdffonts", str(tmp_path / "t.pdf")], capture_output=True, text=True).stdout
    assert fonts.count("CID TrueType") == 2 and "yes yes yes" in fonts


def test_labels_never_print_below_the_floor():
    book = new_book("A4", "t")
    book.add_page()
    tiny = '<svg viewBox="0 0 1000 1000"><text x="10" y="10" font-size="5">x</text></svg>'
    book.svg(tiny, 0, 0, 50, 50)                  # 5 units at 0.05 mm a unit: 0.7 pt
    assert book.small_text == 1
    sizes = [float(s) for s in re.findall(rb"/F\d+ ([\d.]+) Tf", streams(finish(book)))]
    assert sizes and min(sizes) >= MIN_PT


def test_font_calls_keep_the_floor():
    book = new_book("A4", "t")
    book.add_page()
    book.font(3)
    assert book.font_size_pt == MIN_PT


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="abcdefghij →·", min_size=1, max_size=12), min_size=1, max_size=40),
       st.floats(min_value=15, max_value=180))
def test_wrap_keeps_every_word_and_the_width(words, width):
    book = new_book("A4", "t")
    book.add_page()
    book.font(8)
    text = " ".join(words)
    lines = book.wrap(text, width)
    assert " ".join(" ".join(lines).split()) == " ".join(text.split())
    for line in lines:
        assert book.get_string_width(line) <= width + 1e-6 or len(line.split()) <= 1


@needs_poppler
def test_plain_cells_tables_and_page_count(tmp_path):
    book = new_book("Letter", "Kit")
    book.add_page()
    book.heading("Table")
    rows = [[str(k), f"row {k}", "right"] for k in range(80)]
    book.table([Column("#", 12, "R"), Column("Name"), Column("Side", 20, "R")], rows, size=8)
    text = text_of(finish(book), tmp_path)
    pages = text.split("\f")
    assert len([p for p in pages if p.strip()]) >= 2
    # The header is repeated on the next page, the rows keep their order, the footer counts the pages.
    assert all("Name" in p for p in pages if "row" in p)
    assert re.findall(r"row (\d+)", text) == [str(k) for k in range(80)]
    assert re.search(r"page 2/\d", text) and "{nb}" not in text


# -- DIRT print drawings -----------------------------------------------------------------------------

def test_number_corner_turns_with_the_tile():
    from designer.systems.dirt.book.draw import CORNER_WORDS, number_corner

    assert CORNER_WORDS[number_corner(0)] == "upper left"          # upright: the F/A corner
    assert [number_corner(k) for k in range(6)] == [4, 5, 0, 1, 2, 3]
    assert len({CORNER_WORDS[number_corner(k)] for k in range(6)}) == 6


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_turning_a_straight_tile_round_is_symmetric(data):
    """For any face whose road runs straight across: turned round twice is the tile itself, the number moves to
    the opposite corner, and 'either way round' holds for both or neither."""
    from designer.systems.dirt.board.stage import Stage
    from designer.systems.dirt.board.tileset import get_tileset
    from designer.systems.dirt.board.track import assemble
    from designer.systems.dirt.book.build import either_way, turned_round

    ts = get_tileset("dirt-core")
    faces = sorted(f.id for f in ts.tiles.values() if f.has_cells and f.role is None and f.ends
                   and len(f.ends) == 2 and (ord(f.ends[1]) - ord(f.ends[0])) % 6 == 3)
    face = data.draw(st.sampled_from(faces))
    end = data.draw(st.sampled_from(ts.face(face).ends))
    track = assemble(Stage(tiles=["202a A", f"{face} {end}", "203a A"]), ts)
    tile = track.tiles[1]
    other = turned_round(tile)
    assert other is not None and turned_round(other) == tile
    assert (other.rotation - tile.rotation) % 6 == 3
    assert either_way(tile, track) == either_way(other, track)


def test_map_marks_turn_ends(dirt):
    from designer.systems.dirt.board.stage import load_stage
    from designer.systems.dirt.board.track import assemble
    from designer.systems.dirt.book.draw import map_svg
    from designer.systems.dirt.driving.lines import fastest_line
    from tests.conftest import ROOT

    track = assemble(load_stage(ROOT / "stages/dirt/rally-1/ss1.yaml"), dirt)
    line = fastest_line(track)
    ends = [t.end for t in line.turns]
    svg, limits = map_svg(track, 186, 180, line=line.cell_gears(), turn_ends=ends)
    assert not limits                                   # the line map leaves the limits to the other pages
    labels = re.findall(r">T(\d+)</text>", svg)
    assert labels == [str(k) for k in range(1, len(ends) + 1)]
    plain, limits = map_svg(track, 186, 180)
    assert limits and "T1" not in plain
    # The turn labels and the gears print at LABEL_PT or more once the map is placed in its box.
    from designer.systems.dirt.book.draw import LABEL_PT

    scale = pdfsvg.fit(svg, 186, 180, 0.25)[0]
    ours = re.findall(r'font-size="([\d.]+)"[^>]*>(T\d+|[1-6])</text>', svg)
    assert len(ours) >= len(ends) + len(line.cell_gears()) - 1
    assert min(float(s) for s, _ in ours) * scale / (25.4 / 72) >= LABEL_PT - 0.01


def test_the_kit_writes_books_without_fpdf2():
    """The DIRT road book is written by the kit's own writer: fpdf2 (half a second to import, with numpy and
    fontTools) stays out of the process."""
    import sys

    code = ("import sys; from designer.systems.dirt.book.roadbook import roadbook; "
            "roadbook('stages/dirt/rally-1/ss1.yaml', None); "
            "print(sorted(m for m in ('fpdf', 'fontTools', 'numpy') if m in sys.modules))")
    from tests.conftest import ROOT

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert "fpdf" not in out.stdout and "fontTools" not in out.stdout, out.stdout


# -- the kit's wrapping tables, wrapping headings and drawings made for screens -------------------------------

def test_no_product_module_imports_fpdf2():
    from tests.conftest import ROOT

    hits = [str(p.relative_to(ROOT)) for p in (ROOT / "designer").rglob("*.py")
            if re.search(r"^\s*(from|import)\s+fpdf\b", p.read_text(encoding="utf-8"), re.M)]
    assert hits == []


@needs_poppler
def test_every_game_prints_its_book_with_fpdf2_out_of_reach(tmp_path):
    """The classic, Great Race and Rallye books are written with fpdf2 made unimportable."""
    import sys

    from tests.conftest import ROOT

    code = ("import sys; sys.modules['fpdf'] = None\n"
            "from pathlib import Path\n"
            "from designer import systems\n"
            "for name, path, opts in (('classic', 'stages/classic/es1-demo.yaml', {}),\n"
            "                         ('greatrace', 'stages/greatrace/demo-race-1.yaml', {}),\n"
            "                         ('rallye', 'stages/rallye/demo-ss1-col-des-essais.yaml', {'runs': 20})):\n"
            "    system = systems.get(name)\n"
            f"    Path(r'{tmp_path}', name + '.pdf').write_bytes(system.roadbook(system.load(Path(path)), **opts))\n")
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    texts = {name: subprocess.run(["pdftotext", str(tmp_path / f"{name}.pdf"), "-"], capture_output=True,
                                  text=True, check=True).stdout for name in ("classic", "greatrace", "rallye")}
    assert "Building the stage" in texts["classic"] and "Pace notes" in texts["classic"]
    assert "Itinerary" in texts["greatrace"] and "Monte Carlo" in texts["greatrace"]
    assert "Solo challenge" in texts["rallye"] and "next hard" in texts["rallye"]
    assert re.search(r"\b\d+ drivers?, about", texts["rallye"]) and "(s)" not in "".join(texts.values())
    for data in (tmp_path / f"{name}.pdf" for name in texts):
        assert b"/Subtype /Image" not in data.read_bytes()          # the drawings are vector paths


@needs_poppler
def test_grid_wraps_cells_and_repeats_its_header(tmp_path):
    book = new_book("A4", "Kit")
    book.add_page()
    long = "Porto Azul - B5 - C5 - D4 - Mesa Verde - Copper Gap - R5 - S6 - Fort Lumen"
    rows = [[str(k), f"row{k} " + long, f"first{k}\nsecond{k}"] for k in range(40)]
    book.grid([Column("#", 10, "R"), Column("path"), Column("two lines", 30)], rows, size=8)
    text = text_of(finish(book), tmp_path)
    pages = [p for p in text.split("\f") if p.strip()]
    assert len(pages) >= 2 and all("two lines" in p for p in pages)
    words = text.split()
    for k in range(40):                 # every word of every cell is printed, the newline starts a line
        assert f"row{k}" in words and f"first{k}" in words and f"second{k}" in words
    assert words.count("Lumen") == 40
    assert re.findall(r"\brow(\d+)\b", text) == [str(k) for k in range(40)]
    line_of = {w: n for n, line in enumerate(text.splitlines()) for w in line.split()}
    assert line_of["second0"] > line_of["first0"]


def test_grid_rows_grow_with_their_tallest_cell_and_keep_min_height():
    book = new_book("A4", "Kit")
    book.add_page()
    y0 = book.get_y()
    book.grid([Column("a", 20), Column("b", 20)], [["x", "y"]], size=8, min_h=10)
    one = book.get_y() - y0
    y1 = book.get_y()
    book.grid([Column("a", 20), Column("b", 20)], [["x", "one two three four five six seven eight"]], size=8)
    tall = book.get_y() - y1
    head = one - 10
    assert head > 0 and tall - head > 10
    book.grid([Column("a", 20)], [], size=8)            # an empty table still prints its header
    assert book.get_y() > y1 + tall


def test_grid_sets_a_word_too_wide_smaller_but_not_under_the_floor():
    book = new_book("A4", "Kit")
    book.add_page()
    book.grid([Column("spaces", 9)], [["abcdefghijklmnopqrstuvwxyz"]], size=9)
    sizes = [float(s) for s in re.findall(rb"/F\d+ ([\d.]+) Tf", streams(finish(book)))]
    assert min(sizes) >= MIN_PT and any(s < 9 * 0.94 for s in sizes)


@needs_poppler
def test_title_block_wraps_a_long_heading(tmp_path):
    book = new_book("A4", "Kit")
    book.add_page()
    y0 = book.get_y()
    name = " ".join(f"word{k}" for k in range(30))
    book.title_block(name, 16)
    assert book.get_y() - y0 > 2 * 16 * 0.48
    assert text_of(finish(book), tmp_path).split()[:30] == name.split()


def test_plain_svg_resolves_percentages_and_group_attributes():
    from designer.core.pdfkit import plain_svg

    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" font-family="DejaVu Sans">'
           '<rect width="100%" height="50%" fill="white"/>'
           '<g font-size="9" fill="#555"><text x="1" y="2">a</text><text x="1" y="9" font-size="12">b</text></g>'
           '</svg>')
    import xml.etree.ElementTree as ET

    root = ET.fromstring(plain_svg(svg))
    rect = next(e for e in root.iter() if e.tag.endswith("rect"))
    assert (rect.get("width"), rect.get("height")) == ("200", "50")
    a, b = (e for e in root.iter() if e.tag.endswith("text"))
    assert (a.get("font-size"), a.get("fill"), b.get("font-size"), b.get("fill")) == ("9", "#555", "12", "#555")
    assert plain_svg("<svg") == "<svg"
    book = new_book("A4", "t")
    book.add_page()
    assert book.drawing(svg, 10, 10, 100, 100) == pytest.approx((100, 50))
    body = streams(finish(book))
    # 0.5 mm a unit: the group's 9 units print at 12.76 pt, the text's own 12 units at 17.01 pt.
    assert b"/Subtype /Image" not in body
    assert {b"12.76", b"17.01"} <= set(re.findall(rb"BT /F\d+ ([\d.]+) Tf", body))


def test_a_heading_is_a_ruled_title_block():
    one, other = new_book("A4", "Kit"), new_book("A4", "Kit")
    for book in (one, other):
        book.add_page()
    one.heading("Build sheet · a stage", 13)
    other.title_block("Build sheet · a stage", 13)
    assert one.get_y() == other.get_y()
    assert finish(one) == finish(other)
