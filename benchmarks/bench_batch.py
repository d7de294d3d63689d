"""Batch analysis of every bundled stage (DIRT with the expected time) and the DIRT generator, on 1 and 2 local
processes (and a local two-worker Dask cluster when ``distributed`` is installed). Prints figures; not a test.

    python benchmarks/bench_batch.py [--rounds 2] [--no-dask] [--no-generator] [--simulate RUNS]

With ``--simulate RUNS`` it also times the batch of the rulebook's DIRT stages (stages/dirt/rally-*) with 4 cars
raced RUNS times on each (``batch --players 4 --simulate RUNS``) against the same batch without the table, in one
process: the table's share of a batch.

The machine this runs on is often shared, so beside wall times it prints CPU seconds: the work of one process
(this process, jobs=1), and for a pool the CPU each worker spent on the batch (probed before and after with
:func:`designer.core.parallel.worker_cpu`). The speed-up a quiet machine would show is estimated as the CPU of one
process over the CPU of the busiest worker (plus the parent's share): on a quiet machine a worker's wall time is its
CPU time. The load averages are printed with every figure. Rounds alternate 1 and 2 processes.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _workers(jobs=None, scheduler=None) -> dict[int, float]:
    from designer.core import parallel

    out: dict[int, float] = {}
    for pid, cpu in parallel.run(parallel.worker_cpu, range(16), jobs=jobs, scheduler=scheduler):
        out[pid] = max(out.get(pid, 0.0), cpu)
    return out


def _ended() -> float:
    """CPU seconds of this process's children that have ended (local workers restarted or shut down)."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def _pool_run(fn, jobs=None, scheduler=None):
    """Wall seconds, parent CPU, CPU per live worker spent in ``fn``, and CPU of local workers that ended meanwhile
    (restarted: their work is lost to the per-worker figures)."""
    before = _workers(jobs, scheduler)
    ended = _ended()
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    after = _workers(jobs, scheduler)
    spent = {pid: after[pid] - before.get(pid, 0.0) for pid in after}
    return out, wall, cpu, spent, _ended() - ended


def _speedup(one: float, parent: float, spent: dict, lost: float) -> str:
    """The speed-up a quiet machine would show: one process's CPU over the busiest worker's (with the parent's);
    when workers were restarted their CPU cannot be placed, so the estimate spreads it evenly (a best case)."""
    if lost > 0.05:
        share = (sum(spent.values()) + lost) / 2
        return f"quiet-machine speed-up at best ~{one / (share + parent):.2f}x (workers restarted)"
    return f"quiet-machine speed-up ~{one / (max(spent.values()) + parent):.2f}x"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--no-generator", action="store_true")
    parser.add_argument("--simulate", type=int, default=0, metavar="RUNS")
    opts = parser.parse_args(argv)
    from designer.batch import analyse_all, stage_files
    from designer.systems.dirt import generate as G

    stages = [ROOT / "stages"]
    n_files = len(stage_files(stages))
    print(f"{n_files} files under stages/; {os.cpu_count()} cores; load average {_load()}")

    def batch(**kw):
        return analyse_all(stages, thumbnails=False, **kw)

    for r in range(1, opts.rounds + 1):
        wall, cpu = time.perf_counter(), time.process_time()
        rows = batch(jobs=1)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        failed = sum(1 for row in rows if row.get("failed"))
        print(f"round {r}: 1 process:   {len(rows)} stages ({failed} failed), wall {wall:6.1f} s, CPU {cpu:6.1f} s"
              f"   [load {_load()}]")
        _rows, wall2, parent, spent, lost = _pool_run(lambda: batch(jobs=2), jobs=2)
        print(f"round {r}: 2 processes: wall {wall2:6.1f} s, parent CPU {parent:4.1f} s, live workers' CPU "
              f"{', '.join(f'{v:.1f}' for v in sorted(spent.values(), reverse=True))} s, restarted workers' CPU "
              f"{lost:.1f} s; {_speedup(cpu, parent, spent, lost)} (wall ratio under this load "
              f"{wall / wall2:.2f}x)   [load {_load()}]")
    if not opts.no_dask:
        try:
            import distributed
        except ImportError:
            print("distributed is not installed: no cluster figures (pip install 'rally-designer[cluster]')")
        else:
            with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                          dashboard_address=None) as cluster:
                address = cluster.scheduler_address
                _rows, wall3, parent, spent, _lost = _pool_run(lambda: batch(scheduler=address), scheduler=address)
                print(f"Dask, 2 local workers: wall {wall3:6.1f} s, parent CPU {parent:4.1f} s, workers' CPU "
                      f"{', '.join(f'{v:.1f}' for v in sorted(spent.values(), reverse=True))} s; "
                      f"{_speedup(cpu, parent, spent, 0.0)} over 1 process   [load {_load()}]")
    if opts.simulate:
        rulebook = sorted((ROOT / "stages" / "dirt").glob("rally-*"))
        for label, kw in (("without the table", {}), (f"4 cars x {opts.simulate} races", {"players": 4,
                                                                                        "simulate": opts.simulate})):
            wall, cpu = time.perf_counter(), time.process_time()
            rows = analyse_all(rulebook, jobs=1, thumbnails=False, **kw)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            print(f"rulebook DIRT stages, 1 process, {label}: {len(rows)} stages, wall {wall:6.1f} s, CPU {cpu:6.1f} s"
                  f"   [load {_load()}]")
    if not opts.no_generator:
        spec = G.Spec(tiles=(10, 14), seed=1, candidates=60, difficulty="medium")
        for label, kw in (("1 process", {"jobs": 1}), ("2 processes", {"jobs": 2})):
            t, c = time.perf_counter(), time.process_time()
            G.search(spec, keep=1, **kw)
            print(f"generator, {label}: {spec.candidates} candidates asked, wall {time.perf_counter() - t:.1f} s, "
                  f"CPU here {time.process_time() - c:.1f} s   [load {_load()}]")


if __name__ == "__main__":
    main()
