"""Speed of this checkout against another revision, run alternately: on a shared machine whose speed drifts (by a
third over an afternoon here) only runs made in turn, minutes apart at most, can be compared.

Each run is a process of its own; the CPU seconds of the measured part are printed (least and median) for both.

Run:
  python benchmarks/compare.py [--runs 5] REV expected stages/dirt/rally-3/ss2.yaml
      the expected-time optimum of a stage (solved in the process, as bench_expected.py does)
  python benchmarks/compare.py [--runs 5] REV analyze stages/dirt/rally-3/ss2.yaml
      the analysis without the expected time (lines, speed limits, estimate), in the process, on a freshly
      assembled track after one analysis of another copy (the app's redraw); the answer is the fastest line's
      seconds and a digest of its turns
  python benchmarks/compare.py [--runs 5] REV cli roadbook stages/rallye/demo-rally.yaml -o /tmp/book.pdf
      a whole `rally-designer` command, start-up included, e.g. `cli generate --tiles 14 -o /tmp/g.yaml -j 1`

REV is checked out once into a temporary git worktree (removed at the end); this checkout runs as it is, uncommitted
changes included.
"""
from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SOLVE = """
import sys, time
sys.path.insert(0, '.')
from designer.systems.dirt.dice.expected_time import expected_time
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
track = load_track(load_stage(sys.argv[1]))
cpu = time.process_time()
result = expected_time(track)
print(time.process_time() - cpu, repr(float(result.seconds)))
"""


ANALYZE = """
import hashlib, json, sys, time
sys.path.insert(0, '.')
from designer.systems.dirt.analysis import analyze
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
stage = load_stage(sys.argv[1])
analyze(load_track(stage), expected=False)
track = load_track(stage)
cpu = time.process_time()
result = analyze(track, expected=False)
took = time.process_time() - cpu
turns = json.dumps(result['fastest_line']['turn_list'], sort_keys=True).encode()
print(took, f"{result['fastest_line']['seconds']}s/" + hashlib.sha1(turns).hexdigest()[:10])
"""


def _once(tree: Path, kind: str, args: list[str]) -> tuple[float, str]:
    """CPU seconds of one run in ``tree`` (the solve alone, or the whole command) and what it answered."""
    if kind in ("expected", "analyze"):
        code = SOLVE if kind == "expected" else ANALYZE
        out = subprocess.run([sys.executable, "-c", code, args[0]], cwd=tree, check=True, capture_output=True,
                             text=True).stdout.split()
        return float(out[0]), out[1]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "designer", *args], cwd=tree, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the revision to compare with (a commit, a tag, HEAD~3...)")
    parser.add_argument("kind", choices=("expected", "analyze", "cli"))
    parser.add_argument("args", nargs=argparse.REMAINDER, help="a stage file, or the command's arguments")
    parser.add_argument("--runs", type=int, default=5)
    opts = parser.parse_args(argv)
    args = [a for a in opts.args if a != "--"]
    if not args:
        parser.error("give a stage file (expected) or a command (cli)")
    other = Path(tempfile.mkdtemp(prefix="rally-compare-")) / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", str(other), opts.rev], cwd=ROOT, check=True,
                   capture_output=True)
    try:
        times: dict[str, list[float]] = {opts.rev: [], "this checkout": []}
        answers: dict[str, set] = {k: set() for k in times}
        for _ in range(opts.runs):
            for label, tree in ((opts.rev, other), ("this checkout", ROOT)):
                try:
                    cpu, answer = _once(tree, opts.kind, args)
                except subprocess.CalledProcessError as exc:
                    said = (exc.stderr or "").strip()[-400:]
                    print(f"{label}: the run failed (exit {exc.returncode}){': ' + said if said else ''}",
                          file=sys.stderr)
                    return 2
                times[label].append(cpu)
                answers[label].add(answer)
        for label, cpu in times.items():
            said = f", answer {', '.join(sorted(answers[label]))}" if opts.kind != "cli" else ""
            print(f"{label:>14}: least {min(cpu):.3f} s, median {statistics.median(cpu):.3f} s CPU over "
                  f"{len(cpu)} runs{said}")
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, capture_output=True)
        shutil.rmtree(other.parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
