"""The road book: the course sheet and one section per stage, text a player can read."""
import subprocess
from pathlib import Path

import pytest

from designer.systems.classic.board.pacenotes import stage_notes
from designer.systems.classic.board.assembly import assemble
from designer.systems.classic.system import SYSTEM

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def book():
    doc = SYSTEM.load(ROOT / "stages/classic/rally.yaml")
    return SYSTEM.roadbook(doc)


def test_roadbook_has_course_sheet_and_stage_pages(book, tmp_path):
    pdf = tmp_path / "b.pdf"
    pdf.write_bytes(book)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True).stdout
    assert "P.C. COURSE" in text and "Demo Rally of the Two Boards" in text
    for words in ("X1* ", "X3*-Y3* Y6*-X5*", "DEMONSTRATION", "Building the stage", "Pace notes", "Ideal line"):
        assert words in text
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout
    assert "DejaVu" in fonts
    pages = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    import re
    assert int(re.search(r"Pages:\s+(\d+)", pages).group(1)) == 4


def test_no_text_under_7_points():
    import designer.systems.classic.roadbook as rb
    pdf = rb.Book("A4")
    pdf.add_page()
    pdf.font(3)
    assert pdf.font_size_pt >= rb.MIN_PT


def test_pace_notes_use_the_classic_notation():
    doc = SYSTEM.load(ROOT / "stages/classic/es1-demo.yaml")
    notes = dict(stage_notes(assemble(doc.route, SYSTEM.box_of(doc))))
    assert notes["X0>4"].startswith("2 · + · 1 · 3/444/K4 (rocks, forest)")
    assert "^4" in notes["X0>4"]
