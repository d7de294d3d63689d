"""Generator and batch analysis on 1 and 2 local processes and on a local two-worker Dask cluster.

Prints: candidates examined per second by the DIRT generator, and the wall time of the batch analysis of every
bundled stage (all game systems; DIRT stages with the shakedown analysis, ``--no-expected``, since the expected time
has its own benchmark), for each way of running, and the machine's load. Run: python benchmarks/bench_batch.py
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def main() -> None:
    from designer.batch import analyse_all, stage_files
    from designer.systems.dirt import generate as G

    import os

    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    spec = G.Spec(tiles=(10, 14), seed=1, candidates=60, difficulty="medium")
    stages = [ROOT / "stages"]
    n_files = len(stage_files(stages))
    runs = [("1 process", {"jobs": 1}), ("2 processes", {"jobs": 2})]
    try:
        import distributed
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        runs.append(("Dask, 2 workers", {"scheduler": cluster.scheduler_address}))
    except ImportError:
        cluster = None
        print("distributed is not installed: no cluster figures (pip install 'rally-designer[cluster]')")
    for label, kw in runs:
        _, gen = _timed(lambda: G.search(spec, keep=1, **kw))
        rows, bat = _timed(lambda: analyse_all(stages, thumbnails=False, options={"dirt": {"expected": False}}, **kw))
        print(f"{label:16} generator {spec.candidates / gen:6.1f} candidates/s ({gen:.1f} s for {spec.candidates}); "
              f"batch of {n_files} files ({len(rows)} stages) {bat:.1f} s")
    if cluster is not None:
        cluster.close()


if __name__ == "__main__":
    main()
