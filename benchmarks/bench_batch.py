"""Batch analysis of every bundled stage (DIRT with the expected time) on 1 and 2 local processes: the speed-up and
what stands in its way. Prints figures; not a test.

The check on a quiet machine (nothing else running; `uptime` load under 0.5), whole commands as a user runs them:

    python benchmarks/bench_batch.py --cli --rounds 3

runs `rally-designer batch stages -o FILE.csv --jobs 1` and `--jobs 2` alternately, prints each one's wall and CPU
seconds and the load, checks that both tables are identical, and ends with the wall-clock ratio (median of the
rounds; the target is at least 1.7x on 2 cores).

On a shared machine the wall time is not the program's, so the default mode measures the structure in CPU seconds:

    python benchmarks/bench_batch.py [--rounds 2] [--stages FOLDER] [--dask] [--generator] [--simulate RUNS]

each round runs the batch in a fresh process with --jobs 1 and then with --jobs 2 (alternately), and prints the CPU
of every stage (one process), of each worker (its start included) and of the calling process, the rows checked
identical, and from those figures the speed-up a quiet machine would show: the CPU of one process over the CPU of
the busiest worker plus the calling process's and the fork server's (on a quiet machine a process's wall time is
its CPU time). The bound is the total over max(longest stage, total / 2). `--dask` adds a local two-worker Dask
cluster; `--generator` the DIRT generator on 1 and 2 processes; `--simulate RUNS` the rulebook DIRT stages with 4
cars raced RUNS times against the same batch without the table (one process).
"""
from __future__ import annotations

import argparse
import hashlib
import json
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


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _children() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def _digest(rows: list[dict]) -> str:
    return hashlib.sha256(json.dumps(rows, sort_keys=True, default=str).encode()).hexdigest()[:16]


def measure(jobs: int, folder: Path) -> dict:
    """One batch of ``folder`` in this (fresh) process with ``jobs`` processes: the figures as a dict."""
    import pickle

    from designer.batch import analyse_all, stage_files
    from designer.core import diskcache, parallel_pool

    diskcache.enable()                                 # as the command line does
    files = stage_files([folder])
    usage: list = []
    wall, cpu, children, began = time.perf_counter(), time.process_time(), _children(), time.time()
    rows = analyse_all([folder], jobs=jobs, thumbnails=False, usage=usage)
    parallel_pool.shutdown()                           # workers and fork server stopped, their CPU counted
    wall, cpu, children = time.perf_counter() - wall, time.process_time() - cpu, _children() - children
    workers: dict[int, float] = {}
    for u in usage:
        workers[u["pid"]] = max(workers.get(u["pid"], 0.0), u["worker_cpu"])
    spans: dict[int, list] = {}
    for u in sorted(usage, key=lambda u: u["start"]):
        spans.setdefault(u["pid"], []).append((u["start"] - began, u["end"] - began))
    idle = {pid: sum(b[0] - a[1] for a, b in zip(s, s[1:])) for pid, s in spans.items()}
    return {"first_start": min(s[0][0] for s in spans.values()), "idle": sum(idle.values()),
            "ends": sorted(s[-1][1] for s in spans.values()),"jobs": jobs, "wall": wall, "cpu": cpu, "children": children, "load": _load(),
            "stages": {os.path.relpath(files[u["index"]], folder): u["cpu"] for u in usage},
            "finished": [os.path.relpath(files[u["index"]], folder) for u in usage],
            "workers": workers if jobs > 1 else {}, "rows": len(rows), "digest": _digest(rows),
            "failed": sum(1 for r in rows if r.get("failed")), "result_bytes": len(pickle.dumps(rows))}


def _fresh(jobs: int, folder: Path) -> dict:
    out = subprocess.run([sys.executable, __file__, "--measure", str(jobs), "--stages", str(folder)],
                         capture_output=True, text=True, cwd=ROOT)
    if out.returncode:
        sys.exit(f"the measuring process failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.splitlines()[-1])


def structure(rounds: int, folder: Path) -> None:
    one_cpu, estimates, walls, digests = [], [], [], set()
    for r in range(1, rounds + 1):
        one = _fresh(1, folder)
        two = _fresh(2, folder)
        digests |= {one["digest"], two["digest"]}
        stages = one["stages"]
        total = sum(stages.values())
        longest = max(stages, key=stages.get)
        busiest = max(two["workers"].values())
        server = two["children"] - sum(two["workers"].values())
        estimate = one["cpu"] / (busiest + two["cpu"] + max(server, 0.0))
        one_cpu.append(one["cpu"])
        estimates.append(estimate)
        walls.append(one["wall"] / two["wall"])
        print(f"round {r}, 1 process: {one['rows']} stages ({one['failed']} failed), CPU {one['cpu']:.1f} s "
              f"(stages {total:.1f} s: the imports are paid in the first of each game), wall {one['wall']:.1f} s   [load {one['load']}]")
        top = sorted(stages.items(), key=lambda kv: -kv[1])[:5]
        print("    costliest stages: " + ", ".join(f"{k} {v:.1f} s" for k, v in top)
              + f"; longest / total = {stages[longest] / total:.0%}; bound on 2 workers: total / max(longest, "
                f"total/2) = {total / max(stages[longest], total / 2):.2f}x")
        print(f"round {r}, 2 processes: parent CPU {two['cpu']:.2f} s, workers' CPU (start included) "
              + ", ".join(f"{v:.1f}" for v in sorted(two["workers"].values(), reverse=True))
              + f" s, fork server and process starts {max(server, 0.0):.2f} s; stage CPU in workers "
              f"{sum(two['stages'].values()):.1f} s against {total:.1f} s in one process; results "
              f"{two['result_bytes'] / 1024:.0f} KB pickled; wall {two['wall']:.1f} s   [load {two['load']}]")
        print(f"    wall clock in the 2-process run: first job started {two['first_start']:.2f} s after the call, "
              f"workers idle between jobs {two['idle']:.2f} s in all, workers' last jobs ended at "
              + ", ".join(f"{e:.1f}" for e in two["ends"]) + " s")
        print(f"    finished first: {', '.join(two['finished'][:3])}; last {', '.join(two['finished'][-3:])}")
        print(f"    quiet-machine speed-up ~{estimate:.2f}x from CPU (one process's CPU over the busiest worker's + "
              f"parent's + server's); wall ratio under this load {one['wall'] / two['wall']:.2f}x")
    same = "identical" if len(digests) == 1 else f"DIFFERENT ({len(digests)} versions)"
    print(f"rows of every run {same}; median CPU estimate {statistics.median(estimates):.2f}x, median wall ratio "
          f"under load {statistics.median(walls):.2f}x over {rounds} rounds   [load {_load()}]")


def cli(rounds: int, folder: Path) -> None:
    exe = Path(sys.executable).with_name("rally-designer")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "designer"]
    ratios, tables = [], set()
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(1, rounds + 1):
            walls = {}
            for jobs in (1, 2):
                out = Path(tmp) / f"batch-{jobs}.csv"
                before, wall = _children(), time.perf_counter()
                done = subprocess.run(command + ["batch", str(folder), "-o", str(out), "--jobs", str(jobs)],
                                      cwd=ROOT, capture_output=True, text=True)
                wall, cpu = time.perf_counter() - wall, _children() - before
                if done.returncode:
                    sys.exit(f"batch --jobs {jobs} failed:\n{done.stderr[-3000:]}")
                tables.add(hashlib.sha256(out.read_bytes()).hexdigest())
                walls[jobs] = wall
                print(f"round {r}: batch --jobs {jobs}: wall {wall:6.1f} s, CPU {cpu:6.1f} s   [load {_load()}]")
            ratios.append(walls[1] / walls[2])
            print(f"round {r}: wall-clock ratio {ratios[-1]:.2f}x")
    same = "identical" if len(tables) == 1 else "DIFFERENT"
    print(f"tables {same}; median wall-clock ratio {statistics.median(ratios):.2f}x over {rounds} rounds "
          f"(target 1.7x on a quiet machine)   [load {_load()}]")


def dask(folder: Path) -> None:
    try:
        import distributed
    except ImportError:
        print("distributed is not installed: no cluster figures (pip install 'rally-designer[cluster]')")
        return
    from designer.batch import analyse_all

    one = _fresh(1, folder)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        usage: list = []
        wall, cpu = time.perf_counter(), time.process_time()
        analyse_all([folder], scheduler=cluster.scheduler_address, thumbnails=False, usage=usage)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        workers: dict[int, float] = {}
        for u in usage:
            workers[u["pid"]] = max(workers.get(u["pid"], 0.0), u["worker_cpu"])
        print(f"Dask, 2 local workers: wall {wall:.1f} s, parent CPU {cpu:.1f} s, workers' CPU "
              f"{', '.join(f'{v:.1f}' for v in sorted(workers.values(), reverse=True))} s (Dask's own threads "
              f"included); ~{one['cpu'] / (max(workers.values()) + cpu):.2f}x over 1 process   [load {_load()}]")


def simulate(runs: int) -> None:
    from designer.batch import analyse_all

    rulebook = sorted((ROOT / "stages" / "dirt").glob("rally-*"))
    for label, kw in (("without the table", {}), (f"4 cars x {runs} races", {"players": 4, "simulate": runs})):
        wall, cpu = time.perf_counter(), time.process_time()
        rows = analyse_all(rulebook, jobs=1, thumbnails=False, **kw)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"rulebook DIRT stages, 1 process, {label}: {len(rows)} stages, wall {wall:6.1f} s, CPU {cpu:6.1f} s"
              f"   [load {_load()}]")


def generator() -> None:
    from designer.core import parallel_pool
    from designer.systems.dirt import generate as G

    spec = G.Spec(tiles=(10, 14), seed=1, candidates=60, difficulty="medium")
    for label, kw in (("1 process", {"jobs": 1}), ("2 processes", {"jobs": 2})):
        t, c, ch = time.perf_counter(), time.process_time(), _children()
        G.search(spec, keep=1, **kw)
        parallel_pool.shutdown()
        print(f"generator, {label}: {spec.candidates} candidates asked, wall {time.perf_counter() - t:.1f} s, "
              f"CPU here {time.process_time() - c:.1f} s, in workers {_children() - ch:.1f} s   [load {_load()}]")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--cli", action="store_true", help="whole commands, wall clock (for a quiet machine)")
    parser.add_argument("--dask", action="store_true")
    parser.add_argument("--generator", action="store_true")
    parser.add_argument("--simulate", type=int, default=0, metavar="RUNS")
    parser.add_argument("--stages", type=Path, default=ROOT / "stages", help="the folder to batch (default: all)")
    parser.add_argument("--measure", type=int, default=0, help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    folder = opts.stages.resolve()
    if opts.measure:
        print(json.dumps(measure(opts.measure, folder)))
        return
    print(f"{os.cpu_count()} cores; load average {_load()}; {folder}")
    if opts.cli:
        cli(opts.rounds, folder)
    else:
        structure(opts.rounds, folder)
    if opts.dask:
        dask(folder)
    if opts.simulate:
        simulate(opts.simulate)
    if opts.generator:
        generator()


if __name__ == "__main__":
    main()
