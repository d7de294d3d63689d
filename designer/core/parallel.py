"""Running many independent jobs (analyses of stages, batches of generator candidates) in parallel.

Locally through joblib on the machine's cores (processes: each job is CPU-bound pure Python); on a Dask cluster
when a scheduler address is given (``scheduler="tcp://host:8786"``, or the ``RALLY_DASK_SCHEDULER`` environment
variable). The job function must live in an importable module and take and return plain data, so the same call
runs in a local process or on a remote worker. Results come back in the order of the items.

>>> run(abs, [-1, 2, -3], jobs=1)
[1, 2, 3]
"""
from __future__ import annotations

import os
from typing import Any, Callable, Iterable, Sequence

from designer.core.errors import DesignerError

SCHEDULER_ENV = "RALLY_DASK_SCHEDULER"
Progress = Callable[[int, int], None]


def scheduler_address(scheduler: str | None = None) -> str | None:
    """The Dask scheduler to use: the argument, else ``$RALLY_DASK_SCHEDULER``, else None (local cores)."""
    return scheduler or os.environ.get(SCHEDULER_ENV) or None


def default_jobs(jobs: int | None) -> int:
    if jobs is None or jobs == 0:
        return max(1, os.cpu_count() or 1)
    if jobs < 0:
        return max(1, (os.cpu_count() or 1) + 1 + jobs)
    return jobs


def run(fn: Callable[[Any], Any], items: Sequence[Any], *, jobs: int | None = None, scheduler: str | None = None,
        progress: Progress | None = None) -> list:
    """``[fn(item) for item in items]``, in parallel; ``progress(done, total)`` is called as results arrive."""
    items = list(items)
    address = scheduler_address(scheduler)
    if address:
        return _run_dask(fn, items, address, progress)
    n = min(default_jobs(jobs), max(1, len(items)))
    if n == 1:
        out = []
        for k, item in enumerate(items, start=1):
            out.append(fn(item))
            if progress:
                progress(k, len(items))
        return out
    import warnings

    from joblib import Parallel, delayed

    out = []
    runner = Parallel(n_jobs=n, return_as="generator", batch_size=1)
    with warnings.catch_warnings():
        # joblib restarts a worker whose memory grew and says so as a warning meant for developers; the
        # results are unaffected, so it is not shown to users.
        warnings.filterwarnings("ignore", message="A worker stopped", category=UserWarning)
        for k, result in enumerate(runner(delayed(fn)(item) for item in items), start=1):
            out.append(result)
            if progress:
                progress(k, len(items))
    return out


def _run_dask(fn, items: list, address: str, progress: Progress | None) -> list:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise DesignerError("running on a Dask cluster needs the `distributed` package",
                            hint="pip install 'rally-designer[cluster]'") from None
    try:
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise DesignerError(f"cannot reach the Dask scheduler ({exc})", where=address,
                            hint=f"start one with `dask scheduler`, or unset {SCHEDULER_ENV} to use this machine") from None
    try:
        futures = client.map(fn, items, pure=False)
        index = {f.key: k for k, f in enumerate(futures)}
        out: list = [None] * len(items)
        for done, future in enumerate(as_completed(futures), start=1):
            out[index[future.key]] = future.result()
            if progress:
                progress(done, len(items))
        return out
    finally:
        client.close()


def chunks(items: Iterable[Any], size: int) -> list[list]:
    """Items in lists of ``size`` (the last may be shorter): fewer, larger jobs when each item is quick."""
    out, cur = [], []
    for item in items:
        cur.append(item)
        if len(cur) == size:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out
