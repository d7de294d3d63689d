"""The job of a batch: one file in, its stages' rows out (plain data, so it runs on any worker)."""
from __future__ import annotations

from pathlib import Path

from designer.core.errors import DesignerError

COLUMNS = ("file", "system", "stage", "valid", "pieces", "length", "ideal_seconds", "expected_seconds",
           "spread_seconds", "loss_of_control", "table_minutes", "boxes", "errors", "warnings", "problems")


def _row(path: str, system, stage=None, **values) -> dict:
    row = {k: None for k in COLUMNS}
    row.update(file=path, system=system.name if system else None,
               stage=system.stage_name(stage) if (system and stage is not None) else None)
    row.update(values)
    return row


def analyse_file(job: dict) -> list[dict]:
    """Rows for every stage of ``job["path"]``; a file that cannot be read gives one row saying why.

    Rally files (a list of stages) and box files are skipped: their stages are analysed from their own files.
    """
    from designer import systems

    path = job["path"]
    system = None
    try:
        system = systems.system_of_file(path)
        doc = system.load(path)
    except DesignerError as exc:
        return [_row(path, system, valid=False, errors=1, problems=str(exc).splitlines()[0])]
    if system.is_rally(doc):
        return []
    rows = []
    near = Path(path).resolve().parent
    for stage in system.stages_of(doc):
        try:
            box = system.box_of(stage, near)
            problems = system.validate(stage, box)
        except DesignerError as exc:
            rows.append(_row(path, system, stage, valid=False, errors=1, problems=str(exc).splitlines()[0]))
            continue
        errors = [p for p in problems if p.severity == "error"]
        warnings = [p for p in problems if p.severity == "warning"]
        row = _row(path, system, stage, valid=not errors, errors=len(errors), warnings=len(warnings),
                   problems="; ".join(str(p) for p in errors + warnings)[:500])
        result = None
        if not errors:
            try:
                options = dict(job.get("options", {}).get(system.name, {}))
                result = system.analyse(stage, box, players=job.get("players"), **options)
            except DesignerError as exc:
                row["problems"] = (row["problems"] + "; " if row["problems"] else "") + str(exc).splitlines()[0]
        row.update({k: v for k, v in system.facts(stage, box, result).items() if k in row})
        if job.get("thumbnail"):
            try:
                row["svg"] = system.draw(stage, box, None)
            except DesignerError:
                row["svg"] = None
        rows.append(row)
    return rows
