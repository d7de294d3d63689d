"""Speed of this checkout against another revision, run alternately: on a shared machine whose speed drifts (by a
third over an afternoon here) only runs made in turn, minutes apart at most, can be compared.

Each run is a process of its own; the CPU seconds of the measured part are printed (least and median) for both.

Run:
  python benchmarks/compare.py [--runs 5] REV expected stages/dirt/rally-3/ss2.yaml
      the expected-time optimum of a stage (solved in the process, as bench_expected.py does)
  python benchmarks/compare.py [--runs 5] REV analyze stages/dirt/rally-3/ss2.yaml [WARM]
      the analysis without the expected time (lines, speed limits, estimate), in the process, on a freshly
      assembled track after one analysis of another copy (the app's redraw); the answer is the fastest line's
      seconds and a digest of its turns. WARM: the stage analysed first instead (another stage, or the same stage
      with one tile changed: what is kept from the turns of one road serves the same road elsewhere), or `none`
      (the first analysis in the process)
  python benchmarks/compare.py [--runs 5] REV cli roadbook stages/rallye/demo-rally.yaml -o /tmp/book.pdf
      a whole `rally-designer` command, start-up included, e.g. `cli generate --tiles 14 -o /tmp/g.yaml -j 1`
  python benchmarks/compare.py [--ignore KEY] REV answers [STAGE ...]
      not a speed: the whole analysis without the expected time (its JSON, every key) of every bundled DIRT stage
      (or of the stages given), as a follower and as the leader, with and without a risk budget of 0.1, in one
      process in file order, again in reverse order on freshly assembled tracks (work kept between stages
      changes nothing) and each stage alone in a process of its own: every answer must be the same in both
      checkouts; prints the stages that differ and exits 1 if any does. ``--ignore rules`` leaves a top-level key
      out of the comparison (say which: e.g. a ruleset file changed since REV in a parameter the lines do not read)

REV is checked out once into a temporary git worktree (removed at the end); this checkout runs as it is, uncommitted
changes included.
"""
from __future__ import annotations

import argparse
import json
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
warm = sys.argv[2] if len(sys.argv) > 2 else sys.argv[1]
if warm != "none":
    analyze(load_track(load_stage(warm)), expected=False)
track = load_track(stage)
cpu = time.process_time()
result = analyze(track, expected=False)
took = time.process_time() - cpu
turns = json.dumps(result['fastest_line']['turn_list'], sort_keys=True).encode()
print(took, f"{result['fastest_line']['seconds']}s/" + hashlib.sha1(turns).hexdigest()[:10])
"""


ANSWERS = """
import json, sys
sys.path.insert(0, '.')
from designer.core.errors import DesignerError
from designer.systems.dirt.analysis import analyze
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
ignore = sys.argv[1].split(",") if sys.argv[1] else []
paths = sys.argv[2:]
out = {}
for rnd, order in enumerate((paths, paths[::-1])):
    for path in order:
        for leader, risk in ((False, None), (True, None), (False, 0.1)):
            try:
                result = analyze(load_track(load_stage(path)), expected=False, leader=leader, max_risk=risk)
            except DesignerError as exc:
                result = {"error": str(exc)}
            for key in ignore:
                result.pop(key, None)
            out[f"{path} leader={leader} max_risk={risk} round={rnd}"] = json.dumps(result, sort_keys=True)
print(json.dumps(out))
"""


def _answers(tree: Path, stages: list[str], ignore: list[str]) -> dict[str, str]:
    """Every answer of the ``answers`` kind in ``tree``: all stages in one process, then each alone."""
    def run(paths):
        done = subprocess.run([sys.executable, "-c", ANSWERS, ",".join(ignore), *paths], cwd=tree, check=True, capture_output=True,
                              text=True)
        return json.loads(done.stdout)
    out = {f"{k} together": v for k, v in run(stages).items()}
    for path in stages:
        out.update({f"{k} alone": v for k, v in run([path]).items()})
    return out


def _check_answers(rev: str, other: Path, stages: list[str], ignore: list[str]) -> int:
    missing = [s for s in stages if not (ROOT / s).is_file()]
    if missing:
        print(f"no stage file {', '.join(missing)}", file=sys.stderr)
        return 2
    if not stages:
        stages = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "stages" / "dirt").rglob("*.yaml")
                        if p.name != "rally.yaml")
    theirs, mine = _answers(other, stages, ignore), _answers(ROOT, stages, ignore)
    differ = sorted(k for k in theirs if theirs[k] != mine.get(k))
    for k in differ:
        print(f"differs: {k}")
    left_out = f", leaving out {', '.join(ignore)}" if ignore else ""
    print(f"{len(theirs) - len(differ)} of {len(theirs)} analyses the same as {rev} ({len(stages)} stages{left_out})")
    return 1 if differ else 0


def _once(tree: Path, kind: str, args: list[str]) -> tuple[float, str]:
    """CPU seconds of one run in ``tree`` (the solve alone, or the whole command) and what it answered."""
    if kind in ("expected", "analyze"):
        code = SOLVE if kind == "expected" else ANALYZE
        out = subprocess.run([sys.executable, "-c", code, args[0], *args[1:2]], cwd=tree, check=True, capture_output=True,
                             text=True).stdout.split()
        return float(out[0]), out[1]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "designer", *args], cwd=tree, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the revision to compare with (a commit, a tag, HEAD~3...)")
    parser.add_argument("kind", choices=("expected", "analyze", "cli", "answers"))
    parser.add_argument("args", nargs=argparse.REMAINDER, help="a stage file, or the command's arguments")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--ignore", action="append", default=[], help="answers: a top-level key left out")
    opts = parser.parse_args(argv)
    args = [a for a in opts.args if a != "--"]
    if not args and opts.kind != "answers":
        parser.error("give a stage file (expected) or a command (cli)")
    other = Path(tempfile.mkdtemp(prefix="rally-compare-")) / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", str(other), opts.rev], cwd=ROOT, check=True,
                   capture_output=True)
    try:
        if opts.kind == "answers":
            return _check_answers(opts.rev, other, args, opts.ignore)
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
