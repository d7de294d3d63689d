"""Editing a zone face as four small tables (cells, road ends, roads, corners), for the app's zone editor.

The tables are lists of plain rows (dicts), what ``st.data_editor`` shows; :func:`face_from_tables` turns them
back into the box file's data and :func:`box_data` wraps faces into a whole box, checked by the same loader
as a file (:func:`designer.systems.classic.files.zones.box_from_data`), so the editor's messages are the file's.

>>> t = empty_tables()
>>> t = toggle_path_cell(add_road(t, 0, 3), 0, "A2")
>>> t["roads"][0]["path"]
'A2'
"""
from __future__ import annotations

import copy

import yaml

from designer.core.errors import DesignerError
from designer.systems.classic.files.zones import Box, box_from_data

CELL_COLUMNS = ("cell", "env", "bump", "ford", "half", "lanes", "crossroads")
END_COLUMNS = ("end", "cell", "side")
ROAD_COLUMNS = ("from_end", "to_end", "path")
CORNER_COLUMNS = ("road", "inside", "note", "drift", "gear", "cut", "k")


def empty_tables() -> dict:
    return {"env": "meadow", "cells": [], "ends": [], "roads": [], "corners": []}


def _blank(v) -> bool:
    return v is None or (isinstance(v, float) and v != v) or (isinstance(v, str) and not v.strip())


def _int(v, where: str = "zone editor"):
    if _blank(v):
        return None
    try:
        return int(v)
    except (TypeError, ValueError):
        raise DesignerError(f"{v!r} is not a whole number", where=where, hint="write a number, e.g. 3") from None


def _incomplete(row: dict, need: tuple[str, ...], table: str, i: int) -> bool:
    """True for a blank row (skipped); a row with some values but not every needed one is an error, never
    dropped in silence."""
    if all(_blank(v) or v is False for v in row.values()):
        return True
    missing = [k for k in need if _blank(row.get(k))]
    if missing:
        raise DesignerError(f"row {i + 1} of the {table} table has no {' or '.join(missing)}",
                            where=f"{table} table, row {i + 1}",
                            hint=f"fill in {', '.join(missing)}, or clear the whole row to remove it")
    return False


def tables_from_face(fd: dict) -> dict:
    """Box-file data of one face -> the editor's tables."""
    cells = [{"cell": n, "env": (a or {}).get("env"), "bump": (a or {}).get("bump"),
              "ford": bool((a or {}).get("ford")), "half": bool((a or {}).get("half")),
              "lanes": (a or {}).get("lanes", 1), "crossroads": bool((a or {}).get("crossroads"))}
             for n, a in (fd.get("cells") or {}).items()]
    ends = []
    for n, spec in (fd.get("ends") or {}).items():
        cell, _, side = str(spec).partition("/")
        ends.append({"end": int(n), "cell": cell, "side": side or None})
    roads, corners = [], []
    for i, r in enumerate(fd.get("roads") or []):
        path = r.get("path")
        roads.append({"from_end": r["ends"][0], "to_end": r["ends"][1],
                      "path": " ".join(path) if isinstance(path, list) else str(path)})
        for c in r.get("corners") or []:
            corners.append({"road": i, "inside": c.get("inside"), "note": c.get("note"), "drift": c.get("drift"),
                            "gear": c.get("gear"), "cut": c.get("cut"), "k": c.get("k")})
    return {"env": fd.get("env", "meadow"), "cells": cells, "ends": ends, "roads": roads, "corners": corners}


def face_from_tables(t: dict) -> dict:
    """The editor's tables -> box-file data of one face (blank cells left out)."""
    cells = {}
    for n, row in enumerate(t.get("cells", [])):
        if _incomplete({k: v for k, v in row.items() if k != "lanes" or _int(v) != 1}, ("cell",), "cells", n):
            continue
        a = {}
        if not _blank(row.get("env")):
            a["env"] = str(row["env"])
        if not _blank(row.get("bump")):
            a["bump"] = _int(row["bump"], f"cells table, row {n + 1}: bump")
        for flag in ("ford", "half", "crossroads"):
            if row.get(flag) is True:
                a[flag] = True
        if not _blank(row.get("lanes")) and _int(row["lanes"]) != 1:
            a["lanes"] = _int(row["lanes"], f"cells table, row {n + 1}: lanes")
        cells[str(row["cell"]).strip().upper()] = a
    ends = {}
    for n, row in enumerate(t.get("ends", [])):
        if _incomplete(row, ("end", "cell"), "road ends", n):
            continue
        spec = str(row["cell"]).strip().upper() + (f"/{row['side']}" if not _blank(row.get("side")) else "")
        ends[_int(row["end"], f"road ends table, row {n + 1}")] = spec
    roads = []
    for row in t.get("roads", []):
        if _blank(row.get("from_end")) and _blank(row.get("to_end")) and _blank(row.get("path")):
            continue
        roads.append({"ends": [_int(row.get("from_end")), _int(row.get("to_end"))],
                      "path": str(row.get("path") or "").strip().upper()})
    for n, row in enumerate(t.get("corners", [])):
        if _incomplete(row, ("road", "inside"), "corners", n):
            continue
        i = _int(row["road"], f"corners table, row {n + 1}")
        if not 0 <= i < len(roads):
            raise DesignerError(f"corner on road {i}: there are roads 0 to {len(roads) - 1}", where="corners table",
                                hint="the road column is the row number of the road in the roads table")
        c = {"inside": str(row["inside"]).strip().upper()}
        for key in ("note", "gear", "k"):
            if not _blank(row.get(key)):
                c[key] = _int(row[key], f"corners table, row {n + 1}: {key}")
        for key in ("drift", "cut"):
            if not _blank(row.get(key)):
                c[key] = str(row[key]).strip().upper()
        roads[i].setdefault("corners", []).append(c)
    return {"env": t.get("env") or "meadow", "cells": cells, "ends": ends, "roads": roads}


def box_data(name: str, size: int, zones: dict, title: str = "") -> dict:
    """``zones``: {letter: {"title": ..., "faces": {surface: face data}}} -> a whole box file's data."""
    return {"system": "classic", "box": name, "title": title or f"{name} (entered with the zone editor)",
            "size": size, "zones": copy.deepcopy(zones)}


def check(data: dict, source: str = "zone editor") -> tuple[Box | None, str | None]:
    """The box, or the loader's message saying what to fix."""
    try:
        return box_from_data(data, {}, source), None
    except DesignerError as exc:
        return None, str(exc)


def dump(data: dict) -> str:
    return ("# Zone box entered with the rally-designer zone editor (system: classic).\n"
            + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110))


def add_road(t: dict, a: int, b: int) -> dict:
    t = copy.deepcopy(t)
    t["roads"].append({"from_end": a, "to_end": b, "path": ""})
    return t


def toggle_path_cell(t: dict, road: int, cell: str) -> dict:
    """Clicking a cell adds it at the end of the road's path; clicking the last cell again takes it away."""
    t = copy.deepcopy(t)
    row = t["roads"][road]
    path = str(row.get("path") or "").split()
    if path and path[-1] == cell:
        path.pop()
    elif cell not in path:
        path.append(cell)
    row["path"] = " ".join(path)
    return t


def set_cell(t: dict, cell: str, **attrs) -> dict:
    """Set attributes of one cell (a row is added when the cell has none yet)."""
    t = copy.deepcopy(t)
    row = next((r for r in t["cells"] if str(r.get("cell")).upper() == cell), None)
    if row is None:
        row = {"cell": cell, "env": None, "bump": None, "ford": False, "half": False, "lanes": 1, "crossroads": False}
        t["cells"].append(row)
    row.update(attrs)
    return t


def preview_face(t: dict, zone: str, surface: str, size: int):
    """A face built leniently from the tables (what can be read of them), to draw while it is being entered."""
    from designer.systems.classic.files.zones import Cell, Corner, End, Face, Road, border_sides, parse_cell

    def cells_of(text) -> tuple:
        out = []
        for name in str(text or "").replace(",", " ").upper().split():
            try:
                c, r = parse_cell(name)
            except ValueError:
                continue
            if 0 <= c < size and 0 <= r < size:
                out.append(name)
        return tuple(out)

    face_env = t.get("env") if t.get("env") in ("meadow", "earth", "forest", "rocks") else "meadow"
    cells = {}
    for row in t.get("cells", []):
        name = cells_of(row.get("cell"))
        if not name:
            continue
        c, r = parse_cell(name[0])
        env = row.get("env") if row.get("env") in ("meadow", "earth", "forest", "rocks") else face_env
        bump = row.get("bump") if isinstance(row.get("bump"), (int, float)) and not _blank(row.get("bump")) else None
        cells[name[0]] = Cell(name[0], c, r, env, int(bump) if bump else None, row.get("ford") is True,
                              row.get("half") is True, 2 if row.get("lanes") == 2 else 1, row.get("crossroads") is True)
    ends = {}
    for row in t.get("ends", []):
        name = cells_of(row.get("cell"))
        if not name or _blank(row.get("end")):
            continue
        sides = border_sides(*parse_cell(name[0]), size)
        if sides:
            ends[int(row["end"])] = End(int(row["end"]), name[0], str(row.get("side") or sides[0]) if
                                        str(row.get("side") or "") in sides else sides[0])
    roads = []
    for i, row in enumerate(t.get("roads", [])):
        corners = []
        for c in t.get("corners", []):
            if _blank(c.get("road")) or int(c["road"]) != i or not cells_of(c.get("inside")):
                continue
            corners.append(Corner(cells_of(c.get("inside")), _int(c.get("note")), cells_of(c.get("drift")),
                                  _int(c.get("gear")), cells_of(c.get("cut")), _int(c.get("k"))))
        roads.append(Road((_int(row.get("from_end")) or 0, _int(row.get("to_end")) or 0),
                          cells_of(row.get("path")), tuple(corners)))
    return Face(zone, surface, size, cells, ends, roads, {}, face_env)
