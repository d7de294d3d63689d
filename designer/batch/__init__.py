"""Many stages at once: every stage of the given files and folders analysed (in parallel, locally or on a Dask
cluster) into one comparison table, written as CSV and as an HTML page with sortable columns and small maps.

:func:`designer.batch.worker.analyse_file` is the job (importable, plain data in and out);
:func:`designer.batch.table.csv_text` / :func:`~designer.batch.table.html_text` give the results as text.
"""
from __future__ import annotations

from pathlib import Path

from designer.core import parallel
from designer.core.errors import DesignerError

MAX_FILES = 5000
# what a local worker imports before it starts (once, in the fork server): each game's analysis. Only speed: a
# module missing here is imported by the first job that needs it.
PRELOAD = ("designer.batch.worker", "designer.systems.dirt.system", "designer.systems.dirt.analysis",
           "designer.systems.dirt.dice.expected_time", "designer.systems.classic.system",
           "designer.systems.classic.analysis", "designer.systems.greatrace.system",
           "designer.systems.greatrace.driving.analysis", "designer.systems.rallye.system",
           "designer.systems.rallye.analyse")


def stage_files(paths) -> list[str]:
    """The YAML files named, and those under the folders named (sorted), without duplicates."""
    out: list[str] = []
    for p in paths:
        q = Path(p)
        if q.is_dir():
            found = sorted(str(x) for x in q.rglob("*.yaml") if x.is_file())
            out += found
        elif q.exists():
            out.append(str(q))
        else:
            raise DesignerError("no such file or folder", where=str(q))
    seen, unique = set(), []
    for f in out:
        key = str(Path(f).resolve())
        if key not in seen:
            seen.add(key)
            unique.append(f)
    if len(unique) > MAX_FILES:
        raise DesignerError(f"{len(unique)} files is more than one batch takes ({MAX_FILES})",
                            hint="split the folders into several batches")
    return unique


def analyse_all(paths, *, jobs: int | None = None, scheduler: str | None = None, players: int | None = None,
                thumbnails: bool = True, progress=None, options: dict | None = None,
                simulate: int | None = None, usage: list | None = None) -> list[dict]:
    """One row per stage (a rally file gives none: its stages are files of their own), in file order.

    ``options`` maps a game system to the analysis options its stages get, e.g. ``{"dirt": {"expected": False}}``.
    ``simulate``: race ``players`` cars that many times on each DIRT and classic stage; the rows get the simulated
    table's turns and minutes and per seat the time, its sd, the chance of being blocked and the turns
    (:func:`designer.batch.worker.columns_of`). ``usage``: see :func:`designer.core.parallel.run` (one entry per
    file, for benchmarks).
    """
    from designer.batch.cost import guess
    from designer.batch.worker import analyse_file

    files = stage_files(paths)
    if not files:
        raise DesignerError("no stage files found", where=" ".join(map(str, paths)),
                            hint="give .yaml stage files or folders holding them")
    if simulate is not None and not 1 <= int(simulate) <= 100_000:
        raise DesignerError(f"{simulate} is not a number of simulated races", hint="give 1 to 100000, e.g. 500")
    jobs_in = [{"path": f, "players": players, "thumbnail": thumbnails, "options": options or {},
                "simulate": simulate} for f in files]
    # the longest stages first (see designer.batch.cost), on workers that start with the analysis imported
    pool = parallel.scheduler_address(scheduler) is not None or min(parallel.default_jobs(jobs), len(files)) > 1
    cost = [guess(f) for f in files] if pool else None
    rows_per_file = parallel.run(analyse_file, jobs_in, jobs=jobs, scheduler=scheduler, progress=progress,
                                 cost=cost, preload=PRELOAD, usage=usage)
    return [row for rows in rows_per_file for row in rows]
