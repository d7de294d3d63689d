"""Benchmark: the road book of a three-stage rulebook rally (target: at most 3 s).

    python benchmarks/bench_roadbook.py [stages/dirt/rally-1/rally.yaml] [--repeat 5] [--paper A4]

Prints the time of the first build in a fresh process (cold: tileset loading, font parsing, lazy
imports) and of the following builds (warm), with the split between gathering the facts (assembly,
validation, pace notes, fastest line, table time) and laying out and writing the PDF.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_S = 3.0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rally", nargs="?", default=str(ROOT / "stages/dirt/rally-1/rally.yaml"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--paper", default="A4")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    from designer.systems.dirt import roadbook as rb
    from designer.systems.dirt.stage import load_rally
    t_import = time.perf_counter() - t0

    def build():
        t = time.perf_counter()
        rally = load_rally(args.rally)
        near = Path(args.rally).resolve().parent
        facts = [rb.stage_facts(s, near=near) for s in rally.stages]
        t_facts = time.perf_counter() - t
        pdf = rb._new_book(args.paper, rally.name)
        rb._rally_cover(pdf, rally, facts)
        for k, f in enumerate(facts, start=1):
            rb._stage_pages(pdf, f, rally_name=rally.name, position=k, count=len(facts))
        rb._rally_sheet(pdf, rally, facts)
        data = bytes(pdf.output())
        total = time.perf_counter() - t
        return total, t_facts, total - t_facts, len(data), pdf.page_no(), len(rally.stages)

    runs = [build() for _ in range(max(args.repeat, 1))]
    # The public function gives the same PDF (checked once, not timed).
    assert rb.rally_roadbook(load_rally(args.rally), None, args.paper)[:5] == b"%PDF-"
    cold, warm = runs[0], runs[1:] or runs[:1]
    _, _, _, size, pages, stages = cold
    print(f"road book of {args.rally} ({stages} stages, {pages} pages, {size / 1024:.0f} KiB, {args.paper})")
    print(f"  import designer.systems.dirt.roadbook: {t_import:.3f} s")
    print(f"  cold build: {cold[0]:.3f} s (facts {cold[1]:.3f} s + PDF {cold[2]:.3f} s)")
    med = statistics.median(r[0] for r in warm)
    print(f"  warm builds: median {med:.3f} s, min {min(r[0] for r in warm):.3f} s over {len(warm)} "
          f"(facts {statistics.median(r[1] for r in warm):.3f} s + PDF {statistics.median(r[2] for r in warm):.3f} s)")
    worst = t_import + cold[0]
    print(f"  import + cold build: {worst:.3f} s; target <= {TARGET_S:.1f} s: {'met' if worst <= TARGET_S else 'MISSED'}")
    return 0 if worst <= TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
