"""Sections of a DIRT road book share pages: a short section follows the one before it when it fits, the line
map shrinks (not under its minimum) to share a page with the pace notes, and the pace-notes table sums its
seconds columns and says what the expected seconds add up to."""
import re
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.core.pdfkit import new_book
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.book.facts import stage_facts
from designer.systems.dirt.book.flow import GAP, height_alone, open_section, paper_of, room_below
from designer.systems.dirt.book.notes import ideal_by_tile, pace_notes_page
from designer.systems.dirt.book.roadbook import roadbook
from tests.conftest import ROOT

TOKENS = ROOT / "stages" / "dirt" / "expansions" / "tokens-demo.yaml"
RALLY5 = ROOT / "stages" / "dirt" / "rally-5" / "rally.yaml"
needs_poppler = pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils is not installed")


def texts(pdf) -> list[str]:
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return out.split("\f")[:-1]


@settings(max_examples=60, deadline=None)
@given(paper=st.sampled_from(["A4", "Letter"]), used=st.floats(0, 300), height=st.one_of(st.none(), st.floats(0, 400)))
def test_a_section_never_starts_where_it_does_not_fit(paper, used, height):
    pdf = new_book(paper)
    pdf.add_page()
    pdf.set_y(min(pdf.t_margin + used, pdf.bottom))
    before = pdf.page_no()
    shared = open_section(pdf, height)
    if shared:
        assert pdf.page_no() == before and height is not None
        assert pdf.get_y() + height <= pdf.bottom + 1e-6
    else:
        assert pdf.page_no() == before + 1 and pdf.get_y() == pdf.t_margin
        assert height is None or used <= 1 or room_below_at(paper, used) < height


def room_below_at(paper: str, used: float) -> float:
    pdf = new_book(paper)
    pdf.add_page()
    pdf.set_y(min(pdf.t_margin + used, pdf.bottom))
    return room_below(pdf)


def test_an_empty_book_or_page_starts_a_page():
    pdf = new_book("Letter")
    assert paper_of(pdf) == "Letter" and room_below(pdf) == 0.0
    assert not open_section(pdf, 10.0) and pdf.page_no() == 1
    assert not open_section(pdf, 10.0) and pdf.page_no() == 2          # nothing on the page yet: a fresh page
    pdf.ln(20)
    assert open_section(pdf, 10.0) and pdf.page_no() == 2
    assert pdf.get_y() > pdf.t_margin + 20 + GAP - 1e-6


def test_height_alone_measures_the_pace_notes():
    f = stage_facts(load_stage(TOKENS), near=TOKENS.parent)
    pdf = new_book("A4")
    ends: list = []
    h = height_alone(pdf, lambda b: ends.extend(pace_notes_page(b, f)))
    assert h is not None and 20 < h < 200 and pdf.page_no() == 0          # measured apart: the book is untouched
    assert ends == sorted(ends) and abs(ends[-1] - h) < 1e-6
    assert len(ends) == len(f.notes) + 1                                    # each row, then the sums


@needs_poppler
def test_pace_notes_share_the_build_sheet_page_with_their_sums(tmp_path):
    out = tmp_path / "tokens.pdf"
    roadbook(TOKENS, out, "A4")
    pages = texts(out)
    both = [p for p in pages if "Build sheet · " in p and "Pace notes · " in p]
    assert len(both) == 1
    notes = both[0].split("Pace notes · ", 1)[1]
    f = stage_facts(load_stage(TOKENS), near=TOKENS.parent)
    total = sum(ideal_by_tile(f.track, f.fastest).values())
    assert re.search(rf"Sum of the column\s+{total:g}\b", notes) and total == f.fastest.game_seconds
    assert "Ideal s adds up to the ideal time." in " ".join(notes.split())
    assert "(both assumed: tilesets/dirt-token-rules.yaml)" in " ".join(notes.split())


@needs_poppler
def test_the_line_shares_a_page_with_the_pace_notes_and_keeps_its_table(tmp_path):
    out = tmp_path / "rally5.pdf"
    roadbook(RALLY5, out, "A4")
    pages = texts(out)
    shared = [p for p in pages if "Pace notes · " in p and "Line and times · " in p]
    assert shared
    for page in shared:
        line = page.split("Line and times · ", 1)[1]
        assert re.search(r"^\s*T1\s+tile \d+", line, re.M)                  # the turn table under the map
    # every section heading is printed once per stage, in order
    heads = re.findall(r"^\s*(Build sheet|Pace notes|Line and times) · ", "\n".join(pages), re.M)
    assert heads == ["Build sheet", "Pace notes", "Line and times"] * 3
