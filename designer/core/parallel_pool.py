"""The local pool of :func:`designer.core.parallel.run`: worker processes on this machine's cores.

What a pool costs beyond the jobs themselves, and what this module does about each:

- **Starting workers.** A worker pays the imports of the analysis (about 0.4 CPU s) and the first reading of its
  tilesets. Workers are forked from a *fork server* that has imported the modules named by the caller
  (``preload``) once, so each worker starts with them imported; the server starts while the caller lists and
  reads its files. Where there is no fork server (not Linux), workers are spawned and import on their first job.
- **The disk cache** (:mod:`designer.core.diskcache`): when the calling process has it on, every worker uses the
  same folder, so a tileset read and checked once is read back by every worker instead of parsed again.
- **Starting again.** The pool is kept for the next call with the same number of workers and preloads (the
  generator runs its candidates in waves), and shut down when the program ends.
- **The order.** Jobs are handed out one at a time, each to the first idle worker, in the order the caller gives
  (:func:`designer.core.parallel.run` puts the costliest first: a long job started last would leave the other
  workers idle while it ends). Results travel back as they are: callers send paths and settings, and get rows.

Every job is timed where it runs (:class:`Timed`): its CPU seconds, the worker that ran it and that worker's CPU so
far (start included), for benchmarks on a machine whose wall time is not the program's.
"""
from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import os
import sys
import time
import types
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Sequence

from designer.core.errors import DesignerError

_POOL: tuple[tuple, ProcessPoolExecutor] | None = None


class Timed:
    """``fn`` run and timed in the process that runs it: ``(result, pid, job CPU s, the process's CPU s so far,
    (wall clock at the job's start, at its end))``."""

    def __init__(self, fn: Callable[[Any], Any]):
        self.fn = fn

    def __call__(self, item: Any) -> tuple[Any, int, float, float, tuple[float, float]]:
        cpu, start = time.process_time(), time.time()
        result = self.fn(item)
        end = time.process_time()
        return result, os.getpid(), end - cpu, end, (start, time.time())


def usage_entry(index: int, pid: int, cpu: float, worker_cpu: float, wall: tuple[float, float]) -> dict:
    """What :func:`designer.core.parallel.run` reports of one job (its ``usage`` list)."""
    return {"index": index, "pid": pid, "cpu": cpu, "worker_cpu": worker_cpu, "start": wall[0], "end": wall[1]}


def _start_worker(cache: str | None, preload: tuple[str, ...]) -> None:
    """Run once in each worker as it starts: the caller's disk cache folder, then the modules it will need (already
    imported when the worker was forked from the fork server; imported here otherwise)."""
    if cache is not None:
        from designer.core import diskcache

        diskcache.enable(cache)
    import importlib

    for name in preload:
        try:
            importlib.import_module(name)
        except Exception:               # the job meets the same error where it can report it
            pass


def _context(preload: tuple[str, ...]):
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(list(preload))      # read when the server starts (once per program)
        return ctx
    return multiprocessing.get_context("spawn")


def _cache_folder() -> str | None:
    from designer.core import diskcache

    if not diskcache.enabled():
        return None
    sub = diskcache.folder()           # checked here once (owner, mode, key), then used by every worker
    return str(sub.parent) if sub is not None else None


def pool(workers: int, preload: tuple[str, ...]) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that have imported ``preload``, kept for the next call with the same
    figures (one pool at a time)."""
    global _POOL
    key = (workers, tuple(preload), _cache_folder())
    if _POOL is not None:
        if _POOL[0] == key:
            return _POOL[1]
        shutdown()
    executor = ProcessPoolExecutor(workers, mp_context=_context(key[1]), initializer=_start_worker,
                                   initargs=(key[2], key[1]))
    _POOL = (key, executor)
    return executor


def shutdown() -> None:
    """Stop the kept pool's workers and the fork server (at the end of the program, or when a call needs another
    pool: a new server reads the new preloads). Stopped and waited for, every process's CPU is counted in this
    process's children (``resource.RUSAGE_CHILDREN``)."""
    global _POOL
    if _POOL is not None:
        executor = _POOL[1]
        _POOL = None
        executor.shutdown(wait=True, cancel_futures=True)
        try:
            from multiprocessing import forkserver

            forkserver._forkserver._stop()
        except Exception:               # another Python: the server ends with this program
            pass


atexit.register(shutdown)


@contextlib.contextmanager
def _plain_main():
    """While workers (and the fork server) start: a blank ``__main__``. A started process otherwise runs the
    caller's main script again by its path before its first job, and that script may be anything: a test
    runner's, or the page script of an app that runs a batch (which would run the page again in the worker)."""
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is not None:
            sys.modules["__main__"] = main


def run_local(fn: Callable[[Any], Any], items: Sequence[Any], order: Sequence[int], workers: int,
              preload: tuple[str, ...], progress, usage: list | None) -> list:
    """``fn`` over ``items`` on ``workers`` local processes, handed out in ``order`` (indices into ``items``);
    the results in the order of ``items``."""
    executor = pool(workers, preload)
    timed = Timed(fn)
    out: list = [None] * len(items)
    try:
        # At most two jobs per worker wait in the pool's queue, so the order holds as workers fall idle.
        waiting = list(reversed(order))
        running: dict = {}
        done = 0
        while waiting or running:
            while waiting and len(running) < 2 * workers:
                k = waiting.pop()
                with _plain_main():     # a submit may start a worker
                    running[executor.submit(timed, items[k])] = k
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                k = running.pop(future)
                out[k], *timing = future.result()
                done += 1
                if usage is not None:
                    usage.append(usage_entry(k, *timing))
                if progress:
                    progress(done, len(items))
    except BrokenProcessPool:
        shutdown()
        raise DesignerError("a worker process of the pool stopped (out of memory, or killed)",
                            hint="run again with fewer --jobs, or with --jobs 1") from None
    except BaseException:
        shutdown()                      # Ctrl+C or a job's error: no worker left running
        raise
    return out
