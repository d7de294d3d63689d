"""Pace notes of a classic stage in the game's own notation, one line per zone crossed.

Straights are counted in cells; a corner is written ``3/444/K4``: the inside note, the drift gear once per drift
cell, the cut note after K (ART.9); ``^3`` a bump (ART.11), ``~`` a ford (ART.23), ``+`` a crossroads (ART.25),
``//`` half-cells (ART.18); the environment where leaving the road costs dice is added in brackets (ART.8).

>>> from designer.systems.classic.files.zones import Corner
>>> corner_note(Corner(("E2",), 3, ("E1", "F2", "F3"), 4, ("D3",), 4))
'3/444/K4'
"""
from __future__ import annotations

from designer.systems.classic.board.assembly import Course, _oriented
from designer.systems.classic.files.zones import Corner


def corner_note(c: Corner) -> str:
    parts = [str(c.note) if c.note is not None else "-"]
    if c.drift:
        parts.append(str(c.gear) * len(c.drift))
    if c.cut:
        parts.append(f"K{c.k}")
    return ("long " if c.long else "") + "/".join(parts)


def crossing_notes(course: Course, i: int) -> list[str]:
    t, face = course.route[i], course.faces[i]
    path, corners = _oriented(face, t)
    by_cell = {c.inside[0]: c for c in corners}
    inside_rest = {cell for c in corners for cell in c.inside[1:]}
    out, run = [], 0

    def flush():
        nonlocal run
        if run:
            out.append(f"{run}")
            run = 0

    for cell in path:
        info = face.cell(cell)
        if cell in inside_rest:
            continue
        marks = []
        if cell in by_cell:
            c = by_cell[cell]
            envs = {face.cell(x).env for x in (*c.inside, *c.drift, *c.cut)}
            danger = [e for e in ("rocks", "forest") if e in envs]
            marks.append(corner_note(c) + (f" ({', '.join(danger)})" if danger else ""))
        if info.bump:
            marks.append(f"^{info.bump}")
        if info.ford and face.surface != "snow":
            marks.append("~")
        if info.half:
            marks.append("//")
        if info.crossroads and cell not in by_cell:
            marks.append("+")
        if marks:
            flush()
            out.append(" ".join(marks))
        else:
            run += 1
    flush()
    return out


def stage_notes(course: Course) -> list[tuple[str, str]]:
    """(crossing label, notes) per zone crossed."""
    return [(f"{t.zone}{t.entry}>{t.exit}{'*' if t.snow else ''}", " · ".join(crossing_notes(course, i)))
            for i, t in enumerate(course.route)]
