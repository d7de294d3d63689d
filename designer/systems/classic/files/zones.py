"""Zone boards: square boards of cells, each side (face) with its roads, corners, bumps, fords and road ends.

A box file (``tilesets/classic/*.yaml``, format in ``tilesets/classic/README.md``) holds zones; a zone (a board
letter such as C) has one to two faces (asphalt, snow, gravel). A face is a square grid of ``size`` x ``size``
cells named like a chess board (column letter, row number from the top: ``A1`` is the top-left cell). Roads are
paths of cells between two numbered road ends on the border; a corner on a road replaces its inside cells by
a drift lane or a cut ("K") as alternatives.

Every mistake in a box file is a :class:`DesignerError` naming the file, the line and the fix.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from designer.core import files, offered, paths, yamlio
from designer.core.errors import DesignerError
from designer.systems.classic.files import schema

SURFACES = ("asphalt", "snow", "gravel")
ENVIRONMENTS = ("meadow", "earth", "forest", "rocks")
SIDES = ("N", "E", "S", "W")
_CELL = re.compile(r"^([A-Z])([1-9][0-9]?)$")
MAX_SIZE = 20


@dataclass(frozen=True)
class Cell:
    name: str
    col: int
    row: int
    env: str = "meadow"
    bump: int | None = None        # ART.11 bump note
    ford: bool = False             # ART.23
    half: bool = False             # ART.18 drift half-cells (split by a dotted line)
    lanes: int = 1                 # cars side by side (ART.12)
    crossroads: bool = False       # ART.25


@dataclass(frozen=True)
class Corner:
    """A corner on a road, its cells written in the road's own direction (from ``ends[0]`` to ``ends[1]``)."""
    inside: tuple[str, ...]        # the inside line cells ("trajectoire tendue"); 3 cells for a long corner
    note: int | None               # highest gear on the inside line
    drift: tuple[str, ...] = ()    # drift lane ("dérapage") cells
    gear: int | None = None        # imposed drift gear
    cut: tuple[str, ...] = ()      # cut ("corde") cells
    k: int | None = None           # highest gear in the cut

    @property
    def highest(self) -> int:
        return max(n for n in (self.note, self.gear, self.k) if n is not None)

    @property
    def long(self) -> bool:
        return len(self.inside) > 1


@dataclass(frozen=True)
class Road:
    ends: tuple[int, int]
    path: tuple[str, ...]
    corners: tuple[Corner, ...] = ()


@dataclass(frozen=True)
class End:
    number: int
    cell: str
    side: str


@dataclass
class Face:
    zone: str
    surface: str
    size: int
    cells: dict[str, Cell]
    ends: dict[int, End]
    roads: list[Road]
    damage: dict[str, int]
    env: str = "meadow"           # the environment beside a cell the face does not list (its ``env:``)

    @property
    def key(self) -> str:
        return f"{self.zone}-{self.surface}"

    def road_between(self, a: int, b: int) -> tuple[Road, bool] | None:
        """The road joining ends ``a`` and ``b`` and whether it is driven against its written direction."""
        for road in self.roads:
            if road.ends == (a, b):
                return road, False
            if road.ends == (b, a):
                return road, True
        return None

    def cell(self, name: str) -> Cell:
        return self.cells.get(name) or Cell(name, *parse_cell(name), env=self.env)


@dataclass
class Zone:
    letter: str
    title: str
    faces: dict[str, Face]

    @property
    def main(self) -> Face:
        return next(iter(self.faces.values()))

    def face(self, snow: bool) -> Face | None:
        return self.faces.get("snow") if snow else self.main


@dataclass
class Box:
    name: str
    title: str
    size: int
    zones: dict[str, Zone]
    path: str = ""
    demo: bool = False
    notes: list[str] = field(default_factory=list)


def parse_cell(name: str) -> tuple[int, int]:
    """``'C4'`` -> ``(2, 3)`` (column, row from 0)."""
    m = _CELL.match(str(name).strip().upper())
    if not m:
        raise ValueError(f"{name!r} is not a cell name (a column letter and a row number, e.g. C4)")
    return ord(m.group(1)) - 65, int(m.group(2)) - 1


def cell_name(col: int, row: int) -> str:
    return f"{chr(65 + col)}{row + 1}"


def border_sides(col: int, row: int, size: int) -> list[str]:
    out = []
    if row == 0:
        out.append("N")
    if col == size - 1:
        out.append("E")
    if row == size - 1:
        out.append("S")
    if col == 0:
        out.append("W")
    return out


def edge_offset(col: int, row: int, side: str, size: int) -> int:
    """Place of a border cell along its edge, counted clockwise around the board."""
    return {"N": col, "E": row, "S": size - 1 - col, "W": size - 1 - row}[side]


def adjacent(a: str, b: str) -> bool:
    (ca, ra), (cb, rb) = parse_cell(a), parse_cell(b)
    return (ca, ra) != (cb, rb) and abs(ca - cb) <= 1 and abs(ra - rb) <= 1


def _cells(text) -> tuple[str, ...]:
    if text is None:
        return ()
    items = text if isinstance(text, list) else str(text).replace(",", " ").split()
    return tuple(str(x).strip().upper() for x in items if str(x).strip())


# -- reading ------------------------------------------------------------------------------------

class _Reader:
    def __init__(self, lines, source):
        self.lines, self.source = lines, source

    def fail(self, path, msg, hint="see tilesets/classic/README.md for the zone format"):
        line = yamlio.line_of(self.lines, path)
        raise DesignerError(msg, where=f"{self.source}:{line}" if line else self.source, hint=hint)

    def cell(self, name, size, path) -> str:
        try:
            c, r = parse_cell(name)
        except ValueError as exc:
            self.fail(path, str(exc))
        if not (0 <= c < size and 0 <= r < size):
            self.fail(path, f"cell {name} is outside the {size} x {size} board",
                      f"columns A-{chr(64 + size)}, rows 1-{size}")
        return str(name).strip().upper()

    def gear(self, value, path, what):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 5:
            self.fail(path, f"{what} must be a gear from 1 to 5, not {value!r}")
        return value


def box_from_data(data, lines, source: str) -> Box:
    rd = _Reader(lines, source)
    if not isinstance(data, dict):
        rd.fail((), "a zone box file is a mapping with `box`, `size` and `zones`")
    if str(data.get("system", "classic")).strip().lower() not in ("classic", "rallyman", "classic-rallyman"):
        rd.fail(("system",), "this box is not a classic Rallyman box", "write `system: classic`")
    schema.check(schema.BoxFile, data, lines, source, "zone box")
    size = data.get("size", 8)
    if not isinstance(size, int) or not 3 <= size <= MAX_SIZE:
        rd.fail(("size",), f"size must be a whole number of cells per board edge, 3 to {MAX_SIZE}")
    zones_data = data.get("zones")
    if not isinstance(zones_data, dict) or not zones_data:
        rd.fail(("zones",), "the box has no `zones`", "add zones: {C: {faces: {asphalt: ...}}}")
    zones = {}
    for letter, zd in zones_data.items():
        if not re.fullmatch(r"[A-Z]", str(letter)):
            rd.fail(("zones", letter), f"zone name {letter!r} must be one capital letter (C, J, L, V ...)")
        zones[letter] = _zone(rd, letter, zd, size, ("zones", letter))
    return Box(name=str(data.get("box") or Path(source).stem), title=str(data.get("title") or ""),
               size=size, zones=zones, path=source, demo=bool(data.get("demo", False)),
               notes=[str(n) for n in data.get("notes") or []])


def _zone(rd: _Reader, letter, zd, size, at) -> Zone:
    if not isinstance(zd, dict) or not isinstance(zd.get("faces"), dict) or not zd["faces"]:
        rd.fail(at, f"zone {letter} needs `faces` (asphalt, snow or gravel)")
    from designer.systems.classic.files.rules import load_rules

    damage = dict(load_rules().damage)          # the ruleset's legend (zone C's, ART.8) unless the zone has its own
    for env, n in (zd.get("damage") or {}).items():
        if env not in ENVIRONMENTS or not isinstance(n, int) or not 0 <= n <= 5:
            rd.fail(at + ("damage", env), f"damage: {env}: give {', '.join(ENVIRONMENTS)} with 0-5 dice lost")
        damage[env] = n
    faces = {}
    for surface, fd in zd["faces"].items():
        if surface not in SURFACES:
            rd.fail(at + ("faces", surface), f"unknown face {surface!r}", f"faces are {', '.join(SURFACES)}")
        faces[surface] = _face(rd, letter, surface, fd, size, damage, at + ("faces", surface))
    if "snow" in faces and len(faces) == 1:
        rd.fail(at + ("faces",), f"zone {letter} has only a snow face", "list its asphalt or gravel face first")
    if len(faces) > 2:
        rd.fail(at + ("faces",), f"zone {letter} has {len(faces)} faces; a board has two sides")
    return Zone(letter, str(zd.get("title") or f"Zone {letter}"), faces)


def _face(rd: _Reader, letter, surface, fd, size, damage, at) -> Face:
    if not isinstance(fd, dict):
        rd.fail(at, "a face is a mapping with `ends`, `roads` and optional `cells`")
    env0 = fd.get("env", "meadow")
    if env0 not in ENVIRONMENTS:
        rd.fail(at + ("env",), f"unknown environment {env0!r}", f"use {', '.join(ENVIRONMENTS)}")
    cells: dict[str, Cell] = {}
    for name, cd in (fd.get("cells") or {}).items():
        p = at + ("cells", name)
        nm = rd.cell(name, size, p)
        cd = cd or {}
        if not isinstance(cd, dict):
            rd.fail(p, "cell attributes are a mapping, e.g. {env: forest, bump: 3}")
        unknown = set(cd) - {"env", "bump", "ford", "half", "lanes", "crossroads"}
        if unknown:
            rd.fail(p, f"unknown cell attribute {', '.join(sorted(unknown))}",
                    "cells know env, bump, ford, half, lanes, crossroads")
        env = cd.get("env", env0)
        if env not in ENVIRONMENTS:
            rd.fail(p + ("env",), f"unknown environment {env!r}", f"use {', '.join(ENVIRONMENTS)}")
        bump = rd.gear(cd["bump"], p + ("bump",), "a bump note") if cd.get("bump") is not None else None
        lanes = cd.get("lanes", 1)
        if lanes not in (1, 2, 3):
            rd.fail(p + ("lanes",), "lanes is 1, 2 or 3 cars side by side")
        c, r = parse_cell(nm)
        cells[nm] = Cell(nm, c, r, env, bump, bool(cd.get("ford", False)), bool(cd.get("half", False)),
                         lanes, bool(cd.get("crossroads", False)))
    ends: dict[int, End] = {}
    for num, spec in (fd.get("ends") or {}).items():
        p = at + ("ends", num)
        try:
            n = int(num)
        except ValueError:
            n = -1
        if not 0 <= n <= 9:
            rd.fail(p, f"road end {num!r} must be a number from 0 to 9")
        text = str(spec).upper().replace(" ", "")
        name, _, side = text.partition("/")
        nm = rd.cell(name, size, p)
        sides = border_sides(*parse_cell(nm), size)
        if not sides:
            rd.fail(p, f"road end {n} is at {nm}, which is not on the border of the board",
                    "a road end is a cell on the first or last row or column")
        if side and side not in sides:
            rd.fail(p, f"road end {n}: {nm} is not on the {side} edge", f"it touches {'/'.join(sides)}")
        if not side and len(sides) > 1:
            rd.fail(p, f"road end {n}: {nm} is a corner of the board; say which edge", f"write {nm}/{sides[0]}")
        ends[n] = End(n, nm, side or sides[0])
    if not ends:
        rd.fail(at, f"face {letter}-{surface} has no road `ends`", "number the road ends: ends: {0: A4, 3: H6}")
    roads = []
    for i, rdata in enumerate(fd.get("roads") or []):
        roads.append(_road(rd, rdata, size, ends, at + ("roads", i),
                           frozenset(n for n, c in cells.items() if c.crossroads)))
    if not roads:
        rd.fail(at, f"face {letter}-{surface} has no `roads`")
    seen = {}
    for i, road in enumerate(roads):
        key = frozenset(road.ends)
        if key in seen:
            rd.fail(at + ("roads", i), f"roads {seen[key]} and {i} join the same ends {road.ends[0]} and {road.ends[1]}")
        seen[key] = i
    return Face(letter, surface, size, cells, ends, roads, damage, env0)


def _road(rd: _Reader, data, size, ends, at, crossroads=frozenset()) -> Road:
    if not isinstance(data, dict):
        rd.fail(at, "a road is a mapping: {ends: [0, 3], path: A4 B4 C4 ...}")
    e = data.get("ends")
    if not (isinstance(e, list) and len(e) == 2 and all(isinstance(x, int) for x in e) and e[0] != e[1]):
        rd.fail(at + ("ends",), "a road's `ends` are two different road end numbers, e.g. [0, 3]")
    for x in e:
        if x not in ends:
            rd.fail(at + ("ends",), f"road end {x} is not in this face's `ends`", "add it under `ends:`")
    path = tuple(rd.cell(c, size, at + ("path",)) for c in _cells(data.get("path")))
    if len(path) < 2:
        rd.fail(at + ("path",), "a road's path needs at least two cells, from one end to the other")
    if len(set(path)) != len(path):
        rd.fail(at + ("path",), "a road's path goes through the same cell twice")
    if path[0] != ends[e[0]].cell or path[-1] != ends[e[1]].cell:
        rd.fail(at + ("path",), f"the path must start at road end {e[0]} ({ends[e[0]].cell}) and finish at "
                                f"road end {e[1]} ({ends[e[1]].cell})", "write the cells in order from the first end")
    for a, b in zip(path, path[1:]):
        if not adjacent(a, b):
            rd.fail(at + ("path",), f"{a} and {b} follow each other on the path but do not touch",
                    "consecutive cells share a side or a corner; add the cells in between")
    corners = tuple(_corner(rd, cd, path, size, at + ("corners", j), crossroads)
                    for j, cd in enumerate(data.get("corners") or []))
    return Road((e[0], e[1]), path, corners)


def _corner(rd: _Reader, cd, path, size, at, crossroads=frozenset()) -> Corner:
    if not isinstance(cd, dict):
        rd.fail(at, "a corner is {inside: D4, note: 3, drift: E3 E4 E5, gear: 4, cut: C5, k: 4}")
    inside = tuple(rd.cell(c, size, at + ("inside",)) for c in _cells(cd.get("inside")))
    if not inside:
        rd.fail(at + ("inside",), "a corner names its inside cells (on the road's path)")
    try:
        i = path.index(inside[0])
    except ValueError:
        rd.fail(at + ("inside",), f"inside cell {inside[0]} is not on the road's path")
    if tuple(path[i:i + len(inside)]) != inside:
        rd.fail(at + ("inside",), "the inside cells must follow each other on the road's path")
    if i == 0 or i + len(inside) >= len(path):
        rd.fail(at + ("inside",), "a corner cannot be the first or last cell of a road (there must be a cell "
                                  "before and after it)")
    before, after = path[i - 1], path[i + len(inside)]
    note = rd.gear(cd["note"], at + ("note",), "the inside note") if cd.get("note") is not None else None
    drift = tuple(rd.cell(c, size, at + ("drift",)) for c in _cells(cd.get("drift")))
    cut = tuple(rd.cell(c, size, at + ("cut",)) for c in _cells(cd.get("cut")))
    gear = rd.gear(cd["gear"], at + ("gear",), "the drift gear") if cd.get("gear") is not None else None
    k = rd.gear(cd["k"], at + ("k",), "the cut note K") if cd.get("k") is not None else None
    if note is None and not drift and not cut:
        rd.fail(at, "a corner needs an inside `note`, a `drift` lane or a `cut`")
    if bool(drift) != (gear is not None):
        rd.fail(at, "a drift lane needs its imposed `gear`, and a drift `gear` needs the `drift` cells")
    if bool(cut) != (k is not None):
        rd.fail(at, "a cut needs its note `k`, and `k` needs the `cut` cells")
    if drift and any(c in crossroads for c in inside):
        rd.fail(at + ("drift",), "there is no drift in a crossroads (ART.25)", "remove the drift lane of this corner")
    for lane, name in ((drift, "drift"), (cut, "cut")):
        if not lane:
            continue
        if set(lane) & set(path):
            rd.fail(at + (name,), f"the {name} cells must be beside the road, not on its path")
        if not adjacent(before, lane[0]) or not adjacent(lane[-1], after):
            rd.fail(at + (name,), f"the {name} lane must start beside {before} (the cell before the corner) and "
                                  f"end beside {after} (the cell after it)", "write its cells in the road's direction")
        for a, b in zip(lane, lane[1:]):
            if not adjacent(a, b):
                rd.fail(at + (name,), f"{name} cells {a} and {b} do not touch")
    return Corner(inside, note, drift, gear, cut, k)


def load_box(path: str | Path) -> Box:
    p = Path(path)
    text = files.read_text(p, what="zone box")
    data, lines = yamlio.loads(text, str(p))
    return box_from_data(data, lines, str(p))


def loads_box(text: str, source: str = "<zones>") -> Box:
    data, lines = yamlio.loads(text, source)
    return box_from_data(data, lines, source)


def is_box_file(p: Path) -> bool:
    """Any file the user names beside a stage; among the bundled files, the boxes (not the rulesets)."""
    bundled = paths.TILESETS / "classic"
    return p.parent.resolve() != bundled.resolve() or not p.stem.endswith("-rules")


def find_box(name: str, near: Path | None = None) -> Box:
    """A box by name (``demo-zones``) among the bundled boxes; with ``near`` (the folder of a stage read from
    the user's disk) also a file beside it or a path. Without ``near`` a path is refused before anything opens."""
    found = offered.find(name, what="zone box", where="zones", folders=[paths.TILESETS / "classic"], near=near,
                         keep=is_box_file)
    return load_box(found)
