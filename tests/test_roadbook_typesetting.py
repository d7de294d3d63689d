"""Typesetting of every bundled DIRT road book: no text cut with "…" and no word under 6 pt (poppler measures
each word). Books of rallies in A4, single stages on Letter (the narrower page)."""
import re
import shutil
import subprocess

import pytest

from designer.systems.dirt.book.roadbook import roadbook
from tests.conftest import ROOT

POPPLER = shutil.which("pdftotext")
DIRT = ROOT / "stages" / "dirt"
BOOKS = sorted(DIRT.glob("rally-*/rally.yaml")) + sorted(DIRT.glob("expansions/*.yaml")) + sorted(DIRT.glob("demo/*.yaml"))
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
