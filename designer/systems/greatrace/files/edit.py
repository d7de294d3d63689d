"""Editing a board as plain data (the dict a board YAML holds): paint hexes, replace the tables, start a
new board. The app's map editor calls these; they never write a file.

>>> data = new_board("my-map", 6, 5)
>>> data = paint(data, ["B2", "C3"], "risk")
>>> data["risk"]
['B2', 'C3']
"""
from __future__ import annotations

import copy

import yaml

from designer.systems.greatrace.files.board import label, parse_label

MODES = ("open", "risk", "off", "city", "purple city", "median slot")
LINE_MODES = ("sea line", "air line")


def new_board(name: str, columns: int, rows: int) -> dict:
    """A blank board: every hex open, no city, a small placeholder bag to fill in."""
    return {"system": "greatrace", "board": name, "title": f"{name} (user board)", "columns": int(columns),
            "rows": int(rows), "off": [], "risk": [], "cities": [], "transport": [], "bands": [],
            "bag": [{"terrain": "plain", "count": 20, "fuel": 1, "mech": 0}]}


def _norm(text: str) -> str:
    return label(parse_label(text))


def paint(data: dict, hexes: list[str], mode: str, city_name: str | None = None) -> dict:
    """Make each hex open, a risk zone, off the board, a city, a purple city or a median-city slot.

    A hex is one thing at a time: painting a city removes it from off; painting off removes its city.
    A city painted without a name is called after its hex.
    """
    if mode not in MODES:
        raise ValueError(f"paint mode {mode!r} is not one of {', '.join(MODES)}")
    out = copy.deepcopy(data)
    out.setdefault("off", [])
    out.setdefault("risk", [])
    out.setdefault("cities", [])
    targets = [_norm(h) for h in hexes]
    for h in targets:
        off = [x for x in out["off"] if _norm(x) != h]
        risk = [x for x in out["risk"] if _norm(x) != h]
        cities = [c for c in out["cities"] if _norm(c["at"]) != h]
        existing = [c for c in out["cities"] if _norm(c["at"]) == h]
        if mode == "risk":
            risk.append(h)
        elif mode == "off":
            off.append(h)
        elif mode in ("city", "purple city", "median slot"):
            old = existing[0] if existing else {}
            name = (city_name if city_name and len(targets) == 1 else None) or old.get("name") or f"City {h}"
            city = {"name": name, "at": h, "cards": old.get("cards", 1)}
            if mode == "purple city":
                city["purple"] = True
            if mode == "median slot":
                city["median"] = True
            cities.append(city)
        out["off"], out["risk"], out["cities"] = off, risk, cities
    return out


def add_transport(data: dict, a: str, b: str, mode: str = "sea", fare: int = 50) -> dict:
    """A transport line between the cities on hexes ``a`` and ``b``."""
    names = {_norm(c["at"]): c["name"] for c in data.get("cities", [])}
    ends = []
    for h in (a, b):
        h = _norm(h)
        if h not in names:
            raise ValueError(f"{h} is not a city: a transport line joins two cities")
        ends.append(names[h])
    if ends[0] == ends[1]:
        raise ValueError("a transport line joins two different cities")
    if mode not in ("sea", "air"):
        raise ValueError(f"mode is sea or air, not {mode!r}")
    out = copy.deepcopy(data)
    out["transport"] = [t for t in out.get("transport", []) if {t.get("from"), t.get("to")} != set(ends)]
    out["transport"].append({"from": ends[0], "to": ends[1], "mode": mode, "fare": int(fare)})
    return out


def set_table(data: dict, key: str, rows: list[dict]) -> dict:
    """Replace the cities, transport, bands or bag table with edited rows (empty cells dropped)."""
    out = copy.deepcopy(data)
    clean = []
    for row in rows:
        r = {k: (int(v) if isinstance(v, float) and v.is_integer() else v) for k, v in row.items()
             if v is not None and v == v and v != ""}
        if key == "bands" and "axis" in r:
            axis = r.pop("axis")
            first, last = r.pop("first", None), r.pop("last", None)
            r[axis] = [first, last]
        if key in ("cities", "bag") and not any(r.get(k) for k in ("name", "terrain")):
            continue
        for flag in ("purple", "median", "danger", "stop"):
            if flag in r and not r[flag]:
                del r[flag]
        if r:
            clean.append(r)
    out[key] = clean
    return out


def bands_every(data: dict, width: int) -> dict:
    """Progression bands of ``width`` columns each, across the board."""
    out = copy.deepcopy(data)
    cols = int(out.get("columns", 1))
    width = max(1, int(width))
    out["bands"] = [{"name": str(i + 1), "columns": [chr(65 + c), chr(65 + min(cols - 1, c + width - 1))]}
                    for i, c in enumerate(range(0, cols, width))]
    return out


def dumps(data: dict) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
