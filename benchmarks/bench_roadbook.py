"""Benchmark: the road book of a three-stage rulebook rally (target: at most 1.5 s from the command line).

    python benchmarks/bench_roadbook.py [stages/dirt/rally-1/rally.yaml] [--repeat 5] [--paper A4] [--cli 3]
    python benchmarks/bench_roadbook.py stages/dirt/rally-3/rally.yaml --expected 1

``--expected N``: only the command line with ``--expected`` (every stage's expected time under the dice and the
rally raced by the book's cars), N fresh processes, each one's CPU time and peak memory (its maximum resident set).

Prints, in this process: the import of the road book, the first build (cold: tileset loading, fonts, lazy
imports) and the following builds (warm), split into gathering the facts (assembly, validation, pace
notes, fastest line, table time) and laying out and writing the PDF (the page kit's own writer,
:mod:`designer.core.pdfdoc`); then the command line itself
(``rally-designer roadbook``) run ``--cli`` times in fresh processes, wall time and CPU time (user + system).
On a shared machine the CPU time is the steadier figure; the load average is printed beside it.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_S = 1.5


def cli_runs(rally: str, paper: str, n: int) -> list[tuple[float, float]]:
    """(wall, cpu) seconds of ``rally-designer roadbook`` in fresh processes."""
    exe = Path(sys.executable).with_name("rally-designer")
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(n):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run([str(exe), "roadbook", rally, "-o", str(Path(tmp) / "book.pdf"), "--paper", paper],
                           check=True, capture_output=True)
            wall = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            out.append((wall, cpu))
    return out


def expected_runs(rally: str, paper: str, n: int) -> list[tuple[float, float, float]]:
    """(wall s, CPU s, peak MB) of ``rally-designer roadbook --expected``, each in a fresh process."""
    exe = Path(sys.executable).with_name("rally-designer")
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(n):
            t = time.perf_counter()
            proc = subprocess.Popen([str(exe), "roadbook", rally, "-o", str(Path(tmp) / "book.pdf"), "--paper", paper,
                                     "--expected"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode:
                raise SystemExit(f"roadbook --expected failed: {proc.stderr.read().decode()[-400:]}")
            out.append((time.perf_counter() - t, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rally", nargs="?", default=str(ROOT / "stages/dirt/rally-1/rally.yaml"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--paper", default="A4")
    ap.add_argument("--cli", type=int, default=3, help="command-line runs (0: none)")
    ap.add_argument("--games", action="store_true",
                    help="also the command line on the classic, Great Race and Rallye examples (--cli runs each)")
    ap.add_argument("--expected", type=int, default=0, metavar="N",
                    help="only the command line with --expected, N runs: CPU time and peak memory")
    args = ap.parse_args(argv)
    if args.expected > 0:
        before = os.getloadavg()[0]
        runs_ = expected_runs(args.rally, args.paper, args.expected)
        print(f"road book of {args.rally} with the expected times, {len(runs_)} runs (load average {before:.1f} "
              f"before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores)")
        for wall, cpu, peak in runs_:
            print(f"  wall {wall:.2f} s, CPU {cpu:.2f} s, peak memory {peak:.0f} MB")
        return 0

    t0 = time.perf_counter()
    from designer.systems.dirt.board.stage import load_rally
    from designer.systems.dirt.book import roadbook as rb
    from designer.systems.dirt.book.rally import rally_cover, rally_sheet
    t_import = time.perf_counter() - t0

    def build():
        t = time.perf_counter()
        rally = load_rally(args.rally)
        near = Path(args.rally).resolve().parent
        facts = [rb.stage_facts(s, near=near) for s in rally.stages]
        t_facts = time.perf_counter() - t
        pdf = rb._book(args.paper, rally.name)
        rally_cover(pdf, rally, facts)
        for k, f in enumerate(facts, start=1):
            rb.stage_pages(pdf, f, rally.name, k, len(facts), facts[k - 2] if k > 1 else None, k == len(facts))
        rally_sheet(pdf, rally.name, facts)
        data = pdf.output()
        total = time.perf_counter() - t
        return total, t_facts, total - t_facts, len(data), pdf.page_no(), len(rally.stages)

    runs = [build() for _ in range(max(args.repeat, 1))]
    # The public function gives a PDF of the same pages (checked once, not timed).
    assert rb.rally_roadbook(load_rally(args.rally), None, args.paper)[:5] == b"%PDF-"
    cold, warm = runs[0], runs[1:] or runs[:1]
    _, _, _, size, pages, stages = cold
    print(f"road book of {args.rally} ({stages} stages, {pages} pages, {size / 1024:.0f} KiB, {args.paper})")
    print(f"  import designer.systems.dirt.book.roadbook: {t_import:.3f} s")
    print(f"  cold build: {cold[0]:.3f} s (facts {cold[1]:.3f} s + PDF {cold[2]:.3f} s)")
    med = statistics.median(r[0] for r in warm)
    print(f"  warm builds: median {med:.3f} s, min {min(r[0] for r in warm):.3f} s over {len(warm)} "
          f"(facts {statistics.median(r[1] for r in warm):.3f} s + PDF {statistics.median(r[2] for r in warm):.3f} s)")
    ok = True
    if args.cli > 0:
        before = os.getloadavg()[0]
        cli = cli_runs(args.rally, args.paper, args.cli)
        after = os.getloadavg()[0]
        wall = statistics.median(w for w, _ in cli)
        cpu = statistics.median(c for _, c in cli)
        print(f"  command line, {len(cli)} runs: median wall {wall:.3f} s, median CPU {cpu:.3f} s, "
              f"min CPU {min(c for _, c in cli):.3f} s (load average {before:.1f} before, {after:.1f} after, "
              f"on {os.cpu_count()} cores)")
        ok = cpu <= TARGET_S
        print(f"  target: CPU <= {TARGET_S:.1f} s: {'met' if ok else 'MISSED'}")
    if args.games and args.cli > 0:
        # The other games' books share the page kit; most of their time is their own analysis.
        for example in ("classic/rally.yaml", "greatrace/demo-race-1.yaml", "rallye/demo-rally.yaml"):
            runs_ = cli_runs(str(ROOT / "stages" / example), args.paper, args.cli)
            print(f"  command line, {example}: median wall {statistics.median(w for w, _ in runs_):.3f} s, "
                  f"median CPU {statistics.median(c for _, c in runs_):.3f} s over {len(runs_)} runs")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
