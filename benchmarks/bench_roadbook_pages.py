"""Typesetting and page filling of every bundled DIRT road book, on A4 and Letter, with and without the expected time.

    python benchmarks/bench_roadbook_pages.py [--paper A4 --paper Letter] [--expected both|yes|no] [--jobs 2]
                                              [--keep FOLDER]

For each book, paper and flag it prints the seconds it took, the pages, how full each page is (the lowest ink
above the running footer, as a share of the body's height, read from a grayscale render by poppler's
``pdftoppm``), the pages under 40 % full, and the typesetting faults poppler finds (cut words, words under 6 pt,
words over words; the same check as ``tests/test_roadbook_typesetting.py``). Then the totals. ``--keep``
writes the PDFs to a folder, to look at them.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DIRT = ROOT / "stages" / "dirt"
LOW = 40          # a page under this share (%) is counted as nearly empty


def books() -> list[Path]:
    return (sorted(DIRT.glob("rally-*/rally.yaml")) + sorted(DIRT.glob("expansions/*.yaml"))
            + sorted(DIRT.glob("demo/*.yaml")))


def fill(pdf: Path) -> list[int]:
    """How full each page is (%): the lowest dark row above the footer, over the body's height."""
    import numpy as np
    from PIL import Image

    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-r", "20", "-gray", "-png", str(pdf), f"{tmp}/p"], check=True)
        out = []
        for png in sorted(Path(tmp).glob("p-*.png")):
            a = np.asarray(Image.open(png).convert("L"))
            h = a.shape[0]
            top, bottom = int(h * 0.06), int(h * 0.93)        # 12 mm margin; the running footer below 93 %
            rows = np.where((a[:bottom] < 200).sum(axis=1) > 0)[0]
            out.append(round(100 * (rows.max() - top) / (bottom - top)) if len(rows) else 0)
        return out


def one(job) -> str:
    book, paper, expected, keep = job
    from designer.systems.dirt.book.roadbook import roadbook
    from tests.test_roadbook_typesetting import faults

    folder = Path(keep) if keep else Path(tempfile.mkdtemp())
    out = folder / f"{book.parent.name}-{book.stem}-{paper}{'-expected' if expected else ''}.pdf"
    t = time.perf_counter()
    roadbook(book, out, paper, expected=expected)
    seconds = time.perf_counter() - t
    found = faults(out)
    pages = fill(out)
    if not keep:
        out.unlink()
    low = sum(p < LOW for p in pages)
    bad = {k: v for k, v in found.items() if v}
    return (f"{book.parent.name}/{book.stem:28} {paper:6} {'expected' if expected else 'ideal   '} {seconds:6.1f} s  "
            f"pages {len(pages):2}  under {LOW} %: {low}  full: {pages}  faults: {bad or 'none'}"), len(pages), low, \
        sum(len(v) for v in found.values())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", action="append", choices=["A4", "Letter"])
    ap.add_argument("--expected", choices=["both", "yes", "no"], default="both")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="write the PDFs to this folder")
    args = ap.parse_args(argv)
    papers = args.paper or ["A4", "Letter"]
    flags = {"both": [False, True], "yes": [True], "no": [False]}[args.expected]
    if args.keep:
        Path(args.keep).mkdir(parents=True, exist_ok=True)
    jobs = [(b, p, e, args.keep) for e in flags for b in books() for p in papers]
    pages = low = faults = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for line, n, k, f in pool.map(one, jobs):
            print(line, flush=True)
            pages, low, faults = pages + n, low + k, faults + f
    print(f"{len(jobs)} books: {pages} pages, {low} under {LOW} % full, {faults} typesetting faults")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
