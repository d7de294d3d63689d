"""Typesetting of every bundled DIRT road book: no text cut with "…", no word under 6 pt and (almost) no word
over another (poppler measures each word). Books of rallies in A4, single stages on Letter (the narrower page).

Overlaps: tile labels and turn labels are placed with a collision check; what is left are gear discs of
neighbouring cells on a small line map and a few tile ids with no free spot on their tile, at most
:data:`OVERLAPS_LEFT` pairs a book (13 pairs over the 15 books when this was written)."""
import re
import shutil
import subprocess

import pytest

from designer.systems.dirt.book.roadbook import roadbook
from tests.conftest import ROOT

POPPLER = shutil.which("pdftotext")
DIRT = ROOT / "stages" / "dirt"
BOOKS = sorted(DIRT.glob("rally-*/rally.yaml")) + sorted(DIRT.glob("expansions/*.yaml")) + sorted(DIRT.glob("demo/*.yaml"))
OVERLAPS_LEFT = 3
WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')


def words(pdf) -> list[tuple[int, float, float, float, float, str]]:
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return [(k, *map(float, m.groups()[:4]), m.group(5)) for k, page in enumerate(out.split("<page ")[1:])
            for m in WORD.finditer(page)]


@pytest.mark.skipif(not POPPLER, reason="poppler-utils is not installed (pdftotext)")
@pytest.mark.parametrize("book", BOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_cut_text_and_no_word_under_six_points(book, tmp_path):
    out = tmp_path / "book.pdf"
    roadbook(book, out, "A4" if book.name == "rally.yaml" else "Letter")
    found = words(out)
    assert found
    cut = [(k + 1, w) for k, *_box, w in found if "…" in w]
    assert not cut, cut
    # DejaVu Sans words are about 1.16 em tall: 6 pt type measures 7 pt.
    small = [(k + 1, w, round(y2 - y1, 2)) for k, x1, y1, x2, y2, w in found if y2 - y1 < 6.0 * 1.1]
    assert not small, small[:10]
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
    assert len(overlaps) <= OVERLAPS_LEFT, overlaps
