"""The job of a batch: one file in, its stages' rows out (plain data, so it runs on any worker)."""
from __future__ import annotations

from pathlib import Path

from designer.core.errors import DesignerError

COLUMNS = ("file", "system", "stage", "valid", "pieces", "length", "ideal_seconds", "expected_seconds",
           "spread_seconds", "loss_of_control", "damage_tracked", "table_minutes", "boxes", "errors", "warnings",
           "problems")
# With a simulated table (``job["simulate"]``): the analysis option that races several cars, by system, and the
# key of its result. The games whose table has seats with a stage time (DIRT, classic Rallyman).
TABLE_OPTION = {"dirt": ("table_runs", "table"), "classic": ("table_runs", "simulated_table")}
TABLE_COLUMNS = ("simulated_players", "simulated_runs", "simulated_table_turns", "simulated_table_minutes")
# per seat: column suffix -> the seat's key in the simulated table
SEAT_FIELDS = {"seconds": "expected_seconds", "sd": "sd", "blocked": "blocked_chance", "turns": "turns"}


def seat_columns(players: int) -> list[str]:
    """The per-seat columns of a table of ``players`` cars: ``seat1_seconds``, ``seat1_sd``..."""
    return [f"seat{k}_{f}" for k in range(1, players + 1) for f in SEAT_FIELDS]


def columns_of(rows: list[dict]) -> list[str]:
    """The columns of a batch's rows: :data:`COLUMNS`, then the simulated table's when any row has one (per
    seat up to the most players simulated)."""
    n = max((r.get("simulated_players") or 0 for r in rows), default=0)
    return list(COLUMNS) + (list(TABLE_COLUMNS) + seat_columns(n) if n else [])


def _row(path: str, system, stage=None, **values) -> dict:
    row = {k: None for k in COLUMNS}
    name = None
    if system and stage is not None:
        try:
            name = system.stage_name(stage)
        except Exception:
            name = None
    row.update(file=path, system=system.name if system else None, stage=name, failed=False)
    row.update(values)
    return row


def message(exc: BaseException) -> str:
    """One line for a table cell: a DesignerError's message and details (not its hint), else the internal error."""
    if isinstance(exc, DesignerError):
        lines = exc.details or str(exc).splitlines()[:1]       # the details when there are (the head counts them)
        text = "; ".join(line.strip() for line in lines if line.strip())
    elif isinstance(exc, MemoryError):
        text = "the file needs more memory than this machine has"
    elif isinstance(exc, RecursionError):
        text = "the file is nested too deeply to read"
    else:
        text = f"internal error ({type(exc).__name__}: {exc}); this is a bug in rally-designer, please report it"
    return " ".join(text.split())[:500]


def _failed(path: str, system, exc: BaseException, stage=None) -> dict:
    return _row(path, system, stage, valid=False, failed=True, errors=1, problems=message(exc))


def analyse_file(job: dict) -> list[dict]:
    """Rows for every stage of ``job["path"]``; a file or a stage that cannot be read or analysed gives a row
    saying why (``failed`` true), whatever went wrong, so one bad file never stops a batch.

    Rally files (a list of stages) and box files are skipped: their stages are analysed from their own files.
    """
    from designer import systems

    path = job["path"]
    system = None
    try:
        system = systems.system_of_file(path)
        doc = system.load(path)
        if system.is_rally(doc):
            return []
        stages = list(system.stages_of(doc))
    except Exception as exc:                           # a DesignerError, or a bug: one row, the batch goes on
        return [_failed(path, system, exc)]
    rows = []
    near = Path(path).resolve().parent
    for stage in stages:
        try:
            rows.append(_stage_row(job, path, system, stage, near))
        except Exception as exc:
            rows.append(_failed(path, system, exc, stage))
    return rows


def _stage_row(job: dict, path: str, system, stage, near: Path) -> dict:
    try:
        box = system.box_of(stage, near)
        problems = system.validate(stage, box)
    except DesignerError as exc:
        return _failed(path, system, exc, stage)
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity == "warning"]
    row = _row(path, system, stage, valid=not errors, errors=len(errors), warnings=len(warnings),
               problems="; ".join(str(p) for p in errors + warnings)[:500])
    result = None
    if not errors:
        try:
            options = dict(job.get("options", {}).get(system.name, {}))
            runs = job.get("simulate")
            if runs and system.name in TABLE_OPTION:
                options[TABLE_OPTION[system.name][0]] = int(runs)
            result = system.analyse(stage, box, players=job.get("players"), **options)
        except DesignerError as exc:                   # valid, but its analysis was refused (too large...)
            row["problems"] = (row["problems"] + "; " if row["problems"] else "") + message(exc)
            row["failed"] = True
    row.update({k: v for k, v in system.facts(stage, box, result).items() if k in row})
    if result is not None and system.name in TABLE_OPTION:
        row.update(table_figures(result.get(TABLE_OPTION[system.name][1])))
    if job.get("thumbnail"):
        try:
            row["svg"] = system.draw(stage, box, None)
        except Exception:                              # no map for this row; its figures stand
            row["svg"] = None
    return row


def table_figures(table: dict | None) -> dict:
    """The row's columns of a simulated table (:data:`TABLE_COLUMNS`, then per seat); none without one."""
    if not table:
        return {}
    out = {"simulated_players": table.get("players"), "simulated_runs": table.get("runs"),
           "simulated_table_turns": table.get("table_turns"), "simulated_table_minutes": table.get("table_minutes")}
    for seat in table.get("seats") or []:
        for suffix, key in SEAT_FIELDS.items():
            out[f"seat{seat['seat']}_{suffix}"] = seat.get(key)
    return out
