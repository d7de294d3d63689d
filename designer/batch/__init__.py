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
                simulate: int | None = None) -> list[dict]:
    """One row per stage (a rally file gives none: its stages are files of their own), in file order.

    ``options`` maps a game system to the analysis options its stages get, e.g. ``{"dirt": {"expected": False}}``.
    ``simulate``: race ``players`` cars that many times on each DIRT and classic stage; the rows get the simulated
    table's turns and minutes and per seat the time, its sd, the chance of being blocked and the turns
    (:func:`designer.batch.worker.columns_of`).
    """
    from designer.batch.worker import analyse_file

    files = stage_files(paths)
    if not files:
        raise DesignerError("no stage files found", where=" ".join(map(str, paths)),
                            hint="give .yaml stage files or folders holding them")
    if simulate is not None and not 1 <= int(simulate) <= 100_000:
        raise DesignerError(f"{simulate} is not a number of simulated races", hint="give 1 to 100000, e.g. 500")
    jobs_in = [{"path": f, "players": players, "thumbnail": thumbnails, "options": options or {},
                "simulate": simulate} for f in files]
    rows_per_file = parallel.run(analyse_file, jobs_in, jobs=jobs, scheduler=scheduler, progress=progress)
    return [row for rows in rows_per_file for row in rows]
