"""Typesetting of every bundled DIRT road book: no text cut with "…", no word under 6 pt and no word over another
(poppler measures each word), on both paper sizes. Tile labels, turn labels and the line's gear discs are placed
with a collision check (:mod:`designer.systems.dirt.book.draw`), so no overlap is allowed.

Books printed with ``--expected`` (the expected time, a solve of seconds to minutes a stage) are checked here for
two short single-stage books; ``benchmarks/bench_roadbook_pages.py`` checks every book on both papers with and
without it.
"""
import re
import shutil
import subprocess

import pytest

from designer.systems.dirt.book.roadbook import roadbook
from tests.conftest import ROOT

POPPLER = shutil.which("pdftotext")
DIRT = ROOT / "stages" / "dirt"
RALLIES = sorted(DIRT.glob("rally-*/rally.yaml"))
SINGLE = sorted(DIRT.glob("expansions/*.yaml")) + sorted(DIRT.glob("demo/*.yaml"))
BOOKS = RALLIES + SINGLE
WITH_EXPECTED = [DIRT / "expansions" / "tokens-demo.yaml", DIRT / "demo" / "215b-cut-middle-cut.yaml"]
WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils is not installed (pdftotext)")


def words(pdf) -> list[tuple[int, float, float, float, float, str]]:
    """Every word of a PDF with its page (from 0) and box in points, as poppler reads it."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return [(k, *map(float, m.groups()[:4]), m.group(5)) for k, page in enumerate(out.split("<page ")[1:])
            for m in WORD.finditer(page)]


def faults(pdf) -> dict[str, list]:
    """Cut words (with "…"), words under 6 pt, and pairs of words over each other, with their page (from 1)."""
    found = words(pdf)
    assert found
    cut = [(k + 1, w) for k, *_box, w in found if "…" in w]
    # DejaVu Sans words are about 1.16 em tall: 6 pt type measures 7 pt.
    small = [(k + 1, w, round(y2 - y1, 2)) for k, x1, y1, x2, y2, w in found if y2 - y1 < 6.0 * 1.1]
    overlaps, pages = [], {}
    for word in found:
        pages.setdefault(word[0], []).append(word)
    for k, on_page in pages.items():
        on_page.sort(key=lambda w: w[1])
        for i, (_k, x1, y1, x2, y2, w) in enumerate(on_page):
            for _k2, a1, b1, a2, b2, w2 in on_page[i + 1:]:
                if a1 >= x2:
                    break               # sorted by left edge: no later word reaches this one
                ox, oy = min(x2, a2) - max(x1, a1), min(y2, b2) - max(y1, b1)
                if ox > 0.5 and oy > 0.5 and ox * oy > 0.15 * min((x2 - x1) * (y2 - y1), (a2 - a1) * (b2 - b1)):
                    overlaps.append((k + 1, w, w2))
    return {"cut": cut, "small": small, "overlaps": overlaps}


def _check(book, paper, tmp_path, expected=False):
    out = tmp_path / "book.pdf"
    roadbook(book, out, paper, expected=expected)
    found = faults(out)
    assert found == {"cut": [], "small": [], "overlaps": []}, found


@needs_poppler
@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("book", BOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_cut_text_no_small_word_no_overlap(book, paper, tmp_path):
    _check(book, paper, tmp_path)


@needs_poppler
@pytest.mark.parametrize("book", WITH_EXPECTED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_books_with_the_expected_time(book, tmp_path):
    _check(book, "Letter", tmp_path, expected=True)


def test_faults_finds_words_over_each_other(tmp_path):
    """The check itself: two words printed on the same spot are found, and a clean page has none."""
    from designer.core.pdfkit import finish, new_book

    pdf = new_book("A4")
    pdf.add_page()
    pdf.font(9)
    pdf.cell(40, 5, "alone")
    pdf.set_xy(20, 60)
    pdf.cell(40, 5, "over")
    pdf.set_xy(21, 60)
    pdf.cell(40, 5, "under")
    out = tmp_path / "t.pdf"
    finish(pdf, out)
    if not POPPLER:
        pytest.skip("poppler-utils is not installed (pdftotext)")
    found = faults(out)
    assert found["overlaps"] == [(1, "over", "under")] and not found["cut"] and not found["small"]
