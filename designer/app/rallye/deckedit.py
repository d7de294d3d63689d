"""Plain functions behind the deck editor: a deck's YAML data to editable tables and back.

Tables are lists of row dicts (what ``st.data_editor`` gives back from a DataFrame); empty cells arrive as None,
NaN or "" and are left out of the data, so that a card with a ``type`` takes the missing fields from it. A row
with anything typed in it is kept, even without its number: the deck's check then names what it lacks, and the
row stays in the table to be completed.
"""
from __future__ import annotations

import math
from typing import Any

import yaml

TYPE_COLUMNS = ["type", "width", "surface", "severity", "safety_from", "safety_to", "top_from", "top_to"]
SECTION_COLUMNS = ["id", "type", "width", "surface", "severity", "direction", "safety", "top", "exit", "note"]
ACTION_COLUMNS = ["id", "acceleration", "steering", "owner", "count"]


def _blank(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v)) or (isinstance(v, str) and not v.strip())


def _empty(row: dict) -> bool:
    """A row with nothing typed in it (a new row the table shows before anything is entered)."""
    return all(_blank(v) or v is False for v in row.values())


def _num(v: Any):
    """A whole number from a table cell (pandas may give floats), or the value as it is for the loader to judge."""
    if isinstance(v, float) and not math.isnan(v) and v == int(v):
        return int(v)
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        return int(v.strip())
    return v


def types_table(data: dict) -> list[dict]:
    rows = []
    for t in data.get("types") or []:
        s, m = t.get("safety") or [None, None], t.get("top") or [None, None]
        rows.append({"type": t.get("type"), "width": t.get("width"), "surface": t.get("surface"),
                     "severity": t.get("severity"), "safety_from": s[0], "safety_to": s[1],
                     "top_from": m[0], "top_to": m[1]})
    return rows


def sections_table(data: dict) -> list[dict]:
    return [{c: s.get(c) for c in SECTION_COLUMNS} for s in data.get("sections") or []]


def rows_without_id(rows: list[dict], key: str = "id") -> int:
    """How many rows hold something but no id (they are left out of the deck: the page says so)."""
    return sum(1 for r in rows if _blank(r.get(key)) and any(not _blank(v) for k, v in r.items() if k != key))


FACES = [str(k) for k in range(1, 7)]
TABLE_COLUMNS = ["wheel", "over safety"] + FACES


def crossing_rows(tables: dict | None) -> list[dict]:
    """A card back's two crossing tables as rows: wheel (right / wrong), steps over the safety speed, six faces."""
    rows = []
    for wheel in ("right", "wrong"):
        table = (tables or {}).get(f"wheel_{wheel}") or {}
        for k in sorted(table, key=lambda x: int(x) if str(x).lstrip("-").isdigit() else 10 ** 6):
            faces = list(table[k]) + [None] * 6
            rows.append({"wheel": wheel, "over safety": _num(k), **{f: faces[i] for i, f in enumerate(FACES)}})
    return rows


def _outcome(v: Any):
    if isinstance(v, str) and v.strip().lower() == "spin":
        return "spin"
    return _num(v)


def rows_to_crossing(rows: list[dict]) -> dict:
    """The rows back as ``{wheel_right: {0: [...]}, wheel_wrong: {...}}`` (the loader checks the values)."""
    out: dict = {"wheel_right": {}, "wheel_wrong": {}}
    for r in rows:
        wheel = str(r.get("wheel") or "").strip().lower()
        if wheel not in ("right", "wrong") or _blank(r.get("over safety")):
            continue
        out[f"wheel_{wheel}"][_num(r["over safety"])] = [_outcome(r.get(f)) for f in FACES]
    return out


def actions_table(data: dict) -> list[dict]:
    return [{"id": a.get("id"), "acceleration": a.get("acceleration"),
             "steering": ", ".join(a.get("steering") or []), "owner": a.get("owner", "start"),
             "count": a.get("count", 1)} for a in data.get("actions") or []]


def tables_to_data(base: dict, types: list[dict], sections: list[dict], actions: list[dict],
                   stress: int | None = None) -> dict:
    """The deck data with its types, cards and action cards replaced by the edited tables."""
    out = {k: v for k, v in base.items() if k not in ("types", "sections", "actions")}
    out.setdefault("system", "rallye")
    out["types"] = []
    for r in types:
        if _empty(r):
            continue
        name = None if _blank(r.get("type")) else str(r["type"]).strip()
        out["types"].append({"type": name, "width": r.get("width"), "surface": r.get("surface"),
                             "severity": r.get("severity"),
                             "safety": [_num(r.get("safety_from")), _num(r.get("safety_to"))],
                             "top": [_num(r.get("top_from")), _num(r.get("top_to"))]})
    out["sections"] = []
    before = {str(c.get("id")): c for c in base.get("sections") or [] if isinstance(c, dict)}
    for r in sections:             # a row without its number is kept: the deck's check says what it lacks
        if _empty(r):
            continue
        old = before.get(str(_num(r.get("id"))), {}) if not _blank(r.get("id")) else {}
        card = {k: v for k, v in old.items() if k not in SECTION_COLUMNS}     # e.g. a card's own `tables`
        for c in SECTION_COLUMNS:
            v = r.get(c)
            if _blank(v):
                continue
            card[c] = _num(v) if c in ("id", "safety", "top") else (str(v).strip() if isinstance(v, str) else v)
        out["sections"].append(card)
    out["actions"] = []
    for r in actions:
        if _empty(r):
            continue
        steering = r.get("steering")
        arrows = [] if _blank(steering) else [s.strip() for s in str(steering).replace(";", ",").split(",") if s.strip()]
        number = None if _blank(r.get("id")) else str(_num(r["id"]))
        out["actions"].append({"id": number, "acceleration": _num(r.get("acceleration")),
                               "steering": arrows, "owner": r.get("owner") or "start",
                               "count": _num(r.get("count")) if not _blank(r.get("count")) else 1})
    if stress is not None:
        out["stress"] = {"count": int(stress)}
    return out


def card_from_type(data: dict, type_name: str, card_id: Any, direction: str | None = None) -> dict:
    """A new card row copying a type of the player aid (speeds at the low end of its ranges)."""
    t = next((t for t in data.get("types") or [] if t.get("type") == type_name), None)
    if t is None:
        raise KeyError(type_name)
    row = {c: None for c in SECTION_COLUMNS}
    row.update({"id": card_id, "type": type_name, "safety": (t.get("safety") or [None])[0],
                "top": (t.get("top") or [None])[0]})
    if t.get("severity") != "none":
        row["direction"] = direction or "left"
    return row


def cards_from_type(data: dict, type_name: str, count: int, direction: str | None = None) -> list[dict]:
    """``count`` new cards of one type, numbered on from the highest number (many cards entered at once)."""
    out, ids = [], next_card_id(data)
    for k in range(count):
        row = card_from_type(data, type_name, ids + k, direction)
        out.append({c: v for c, v in row.items() if v is not None})
    return out


def next_card_id(data: dict) -> int:
    ids = [int(s["id"]) for s in data.get("sections") or [] if str(s.get("id", "")).isdigit()]
    return max(ids, default=0) + 1


def dumps_deck(data: dict) -> str:
    head = ("# A Rallye deck (format: tilesets/rallye/README.md), written by the rally-designer deck editor.\n")
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=120)
