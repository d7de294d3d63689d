"""The route of a stage written two ways, read and written both ways.

- **Course sheet** (P.C. COURSE, ART.1): ``START | joins | FINISH``, e.g. ``L0 | L1-C7 C6-L2 | L3``: start at road
  end 0 of zone L, leave L at 1 and enter C at 7, leave C at 6 and enter L at 2, finish at L's end 3. A ``*``
  after an end marks the zone's snow side (``J1*``).
- **Share form**: one traversal per zone crossed, ``L0-1/C7-6*/L2-3`` (zone, entry end, exit end, ``*`` for snow).

>>> r = parse_sheet("L0 | L1-C7 C6-L2 | L3")
>>> share(r)
'L0-1/C7-6/L2-3'
>>> sheet(parse_share("C3-8*"))
'C3* | - | C8*'
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from designer.core.errors import DesignerError

_END = re.compile(r"^([A-Z])([0-9])(\*?)$")
_TRAV = re.compile(r"^([A-Z])([0-9])-([0-9])(\*?)$")
HINT_SHEET = "write START | joins | FINISH, e.g. L0 | L1-C7 C6-L2 | L3 (a * after an end for the snow side)"
HINT_SHARE = "write one crossing per zone, e.g. L0-1/C7-6*/L2-3"


@dataclass(frozen=True)
class Traversal:
    """One crossing of a zone: entered at road end ``entry``, left at ``exit``."""
    zone: str
    entry: int
    exit: int
    snow: bool = False

    def label(self) -> str:
        return f"{self.zone}{self.entry}-{self.exit}{'*' if self.snow else ''}"


Route = tuple[Traversal, ...]


def _end(token: str, where: str) -> tuple[str, int, bool]:
    m = _END.match(token.strip().upper())
    if not m:
        raise DesignerError(f"{token!r} is not a road end (a zone letter, a digit 0-9, and * for snow)",
                            where=where, hint=HINT_SHEET)
    return m.group(1), int(m.group(2)), bool(m.group(3))


def _check(route: list[Traversal], where: str) -> Route:
    if not route:
        raise DesignerError("the route is empty", where=where, hint=HINT_SHEET)
    if len(route) > 8:
        raise DesignerError(f"the route crosses {len(route)} zones; a stage of 1-4 boards crosses at most 8",
                            where=where, hint="split it into two stages")
    for i, t in enumerate(route):
        if t.entry == t.exit:
            raise DesignerError(f"zone {t.zone} is entered and left at the same road end {t.entry}",
                                where=f"{where}: crossing {i + 1}", hint="a road goes from one end to another")
    return tuple(route)


def parse_sheet(text: str | dict, where: str = "route") -> Route:
    """The course-sheet form, as one line ``START | joins | FINISH`` or a mapping {start, joins, finish}."""
    if isinstance(text, dict):
        start, finish = str(text.get("start", "")), str(text.get("finish", ""))
        joins = text.get("joins") or []
        joins = joins if isinstance(joins, list) else str(joins).replace(",", " ").split()
    else:
        parts = [p.strip() for p in str(text).split("|")]
        if len(parts) == 2:
            parts = [parts[0], "", parts[1]]
        if len(parts) != 3:
            raise DesignerError(f"{text!r} is not a course-sheet route", where=where, hint=HINT_SHEET)
        start, mid, finish = parts
        joins = [] if mid in ("", "-", "→") else mid.replace(",", " ").split()
    zone, entry, snow = _end(start, f"{where}: START")
    out: list[Traversal] = []
    for i, join in enumerate(joins):
        left, sep, right = str(join).strip().partition("-")
        if not sep:
            raise DesignerError(f"join {join!r} needs two road ends, e.g. C3-J1", where=f"{where}: join {i + 1}",
                                hint=HINT_SHEET)
        z, a, s = _end(left, f"{where}: join {i + 1}")
        if z != zone:
            raise DesignerError(f"join {join} leaves zone {z}, but the car is in zone {zone}",
                                where=f"{where}: join {i + 1}",
                                hint=f"the join after entering {zone} starts with {zone}, e.g. {zone}3-...")
        if s != snow:
            raise DesignerError(f"zone {zone} is marked snow at one end and not at the other (mixed sides)",
                                where=f"{where}: join {i + 1}", hint="mark both ends of a snow zone with *")
        out.append(Traversal(zone, entry, a, snow))
        zone, entry, snow = _end(right, f"{where}: join {i + 1}")
    z, a, s = _end(finish, f"{where}: FINISH")
    if z != zone:
        raise DesignerError(f"FINISH {finish} is in zone {z}, but the car is in zone {zone}", where=f"{where}: FINISH",
                            hint=f"finish at a road end of {zone}, or add the join from {zone} to {z}")
    if s != snow:
        raise DesignerError(f"zone {zone} is marked snow at one end and not at the other (mixed sides)",
                            where=f"{where}: FINISH", hint="mark both ends of a snow zone with *")
    out.append(Traversal(zone, entry, a, snow))
    return _check(out, where)


def sheet_parts(route: Route) -> tuple[str, list[str], str]:
    """(START, joins, FINISH) as the course sheet prints them."""
    def end(t: Traversal, n: int) -> str:
        return f"{t.zone}{n}{'*' if t.snow else ''}"
    joins = [f"{end(a, a.exit)}-{end(b, b.entry)}" for a, b in zip(route, route[1:])]
    return end(route[0], route[0].entry), joins, end(route[-1], route[-1].exit)


def sheet(route: Route) -> str:
    start, joins, finish = sheet_parts(route)
    return f"{start} | {' '.join(joins) or '-'} | {finish}"


def parse_share(text: str, where: str = "share") -> Route:
    items = [x for x in re.split(r"[/\s]+", str(text).strip().upper()) if x]
    out = []
    for i, item in enumerate(items):
        m = _TRAV.match(item)
        if not m:
            raise DesignerError(f"{item!r} is not a zone crossing", where=f"{where}: item {i + 1}", hint=HINT_SHARE)
        out.append(Traversal(m.group(1), int(m.group(2)), int(m.group(3)), bool(m.group(4))))
    return _check(out, where)


def share(route: Route) -> str:
    return "/".join(t.label() for t in route)


def parse_any(text, where: str = "route") -> Route:
    """Either form: a mapping or text with ``|`` is the course sheet, anything else the share form."""
    if isinstance(text, dict) or "|" in str(text):
        return parse_sheet(text, where)
    return parse_share(str(text), where)
