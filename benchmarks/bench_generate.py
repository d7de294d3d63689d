"""The DIRT stage generator over several seeds: CPU time, candidates per second, fastest lines searched, and the
quality of the stage chosen (its score against the targets and its figures). Prints figures; not a test.

    python benchmarks/bench_generate.py [--seeds 10] [--tree PATH]

``--tree`` imports the generator from another checkout (e.g. a ``git worktree`` of an older commit) so that the
same script measures before and after. Two asks are run, each over the seeds: the default of
``rally-designer generate --tiles 14`` (300 candidates, no target) and ``--tiles 10-14 --difficulty medium``.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ASKS = {"default --tiles 14": {"tiles": (14, 14)},
        "--tiles 10-14 --difficulty medium": {"tiles": (10, 14), "difficulty": "medium"}}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--candidates", type=int, default=300)
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--ask", choices=list(ASKS), action="append", help="only these asks (default: both)")
    opts = parser.parse_args(argv)
    sys.path.insert(0, opts.tree)
    from designer.systems.dirt import generate as G
    from designer.systems.dirt.board.tileset import get_tileset
    from designer.systems.dirt.driving import lines as L

    get_tileset("dirt-core")                                 # read once, outside the figures
    searched = [0]
    fastest = L.fastest_line

    def counted(*a, **k):
        searched[0] += 1
        return fastest(*a, **k)

    L.fastest_line = counted
    built = [0]
    build = G._build

    def counted_build(*a, **k):
        stage = build(*a, **k)
        built[0] += stage is not None
        return stage

    G._build = counted_build
    print(f"tree {opts.tree}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} "
          f"cores; one process (jobs=1); CPU seconds of the search alone;\n"
          "cand/s: candidates built (laid on the table) per CPU second; lines: fastest lines searched")
    for label in opts.ask or list(ASKS):
        print(f"\n{label}, {opts.candidates} candidates:")
        print(f"  {'seed':>4} {'cpu s':>6} {'cand/s':>7} {'built':>5} {'lines':>5}  {'score':>6} {'tiles':>5} {'ideal':>5} "
              f"{'tight/tile':>10} {'loss':>6}")
        cpus, scores, met = [], [], 0
        for seed in range(opts.seeds):
            spec = G.Spec(seed=seed, candidates=opts.candidates, **ASKS[label])
            searched[0] = built[0] = 0
            t = time.process_time()
            best = G.search(spec, jobs=1, keep=1)[0]
            cpu = time.process_time() - t
            f = best.figures
            cpus.append(cpu)
            scores.append(best.score)
            met += best.score == 0
            print(f"  {seed:>4} {cpu:>6.2f} {built[0] / cpu:>7.1f} {built[0]:>5} {searched[0]:>5}  {best.score:>6.3f} "
                  f"{f['tiles']:>5} {f['ideal_seconds']:>5} {f['tight_per_tile']:>10} {f['loss_of_control']:>6}")
        print(f"  CPU s: least {min(cpus):.2f}, median {statistics.median(cpus):.2f}, most {max(cpus):.2f}; "
              f"every target met on {met} of {opts.seeds} seeds; score median {statistics.median(scores):.3f}, "
              f"most {max(scores):.3f}")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
