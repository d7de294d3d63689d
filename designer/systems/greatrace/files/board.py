"""A Great Race board: the hex map (cities, risk zones, off-board hexes, transport lines, progression bands)
and the bag of terrain tiles that goes with it.

Hexes are flat-topped and named like a map grid: a column letter and a row number (``C4``); odd columns
(B, D, ...) sit half a hex lower. Internally a hex is the axial pair of :mod:`designer.core.hexgrid`.
The file format is documented in ``tilesets/greatrace/README.md``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from designer.core import hexgrid, yamlio
from designer.core.errors import DesignerError
from designer.systems.greatrace.files.rules import Ruleset, load_ruleset

Hex = tuple[int, int]
MAX_COLUMNS = 26
MAX_ROWS = 40
MODES = ("sea", "air")
_LABEL = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")


def hex_of(col: int, row: int) -> Hex:
    """Axial hex of a 0-based column and row."""
    return (col, row - (col - (col & 1)) // 2)


def col_row(h: Hex) -> tuple[int, int]:
    q, r = h
    return q, r + (q - (q & 1)) // 2


def label(h: Hex) -> str:
    c, r = col_row(h)
    return f"{chr(ord('A') + c)}{r + 1}"


def parse_label(text: Any) -> Hex:
    m = _LABEL.match(str(text))
    if not m:
        raise ValueError(f"{text!r} is not a hex name like C4 (a column letter and a row number)")
    return hex_of(ord(m.group(1).upper()) - ord("A"), int(m.group(2)) - 1)


@dataclass(frozen=True)
class TileKind:
    terrain: str
    count: int
    fuel: int
    mech: int
    danger: bool = False
    stop: bool = False


@dataclass(frozen=True)
class City:
    name: str
    at: Hex
    cards: int = 1
    purple: bool = False
    median: bool = False       # a median-city slot: a city only when a race puts the token on it


@dataclass(frozen=True)
class Transport:
    a: str
    b: str
    mode: str
    fare: int


@dataclass(frozen=True)
class Band:
    name: str
    axis: str                  # "columns" or "rows"
    first: int                 # 0-based, inclusive
    last: int


@dataclass
class Board:
    name: str
    title: str
    columns: int
    rows: int
    off: set[Hex] = field(default_factory=set)
    risk: set[Hex] = field(default_factory=set)
    cities: dict[str, City] = field(default_factory=dict)
    transports: list[Transport] = field(default_factory=list)
    bands: list[Band] = field(default_factory=list)
    bag: list[TileKind] = field(default_factory=list)
    rules: Ruleset | None = None
    rules_name: str | None = None
    source: str = ""

    def spaces(self) -> list[Hex]:
        """Every hex on the board, column by column."""
        return [hex_of(c, r) for c in range(self.columns) for r in range(self.rows)
                if hex_of(c, r) not in self.off]

    def on_board(self, h: Hex) -> bool:
        c, r = col_row(h)
        return 0 <= c < self.columns and 0 <= r < self.rows and h not in self.off

    def city_at(self, h: Hex) -> City | None:
        for city in self.cities.values():
            if city.at == h:
                return city
        return None

    def purple(self) -> list[str]:
        return [c.name for c in self.cities.values() if c.purple]

    def median_slots(self) -> list[str]:
        return [c.name for c in self.cities.values() if c.median]

    def tile(self, terrain: str) -> TileKind | None:
        for kind in self.bag:
            if kind.terrain == terrain:
                return kind
        return None

    def bag_size(self) -> int:
        return sum(k.count for k in self.bag)

    def band_of(self, h: Hex) -> str | None:
        c, r = col_row(h)
        for band in self.bands:
            v = c if band.axis == "columns" else r
            if band.first <= v <= band.last:
                return band.name
        return None


# -- reading --------------------------------------------------------------------------------

def _int(value: Any, path, problems, low: int = 0, high: int = 10 ** 6) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        problems.append((path, f"write a whole number from {low} to {high}, not {value!r}"))
        return low
    return value


def _hexes(value: Any, path, problems) -> list[Hex]:
    if value is None:
        return []
    if not isinstance(value, list):
        problems.append((path, "write a list of hex names like [C4, D4]"))
        return []
    out = []
    for i, item in enumerate(value):
        try:
            out.append(parse_label(item))
        except ValueError as exc:
            problems.append((path + (i,), str(exc)))
    return out


def _span(value: Any, axis: str, path, problems) -> tuple[int, int]:
    """A band's [first, last] columns (letters) or rows (numbers), inclusive."""
    if not isinstance(value, list) or len(value) != 2:
        problems.append((path, f"write the band's first and last {axis[:-1]} as [first, last]"))
        return (0, -1)
    out = []
    for v in value:
        if axis == "columns" and isinstance(v, str) and len(v.strip()) == 1 and v.strip().isalpha():
            out.append(ord(v.strip().upper()) - ord("A"))
        elif axis == "rows" and isinstance(v, int) and not isinstance(v, bool) and v >= 1:
            out.append(v - 1)
        else:
            problems.append((path, f"{v!r} is not a {'column letter' if axis == 'columns' else 'row number'}"))
            return (0, -1)
    return (min(out), max(out))


def board_from_data(data: Any, lines: dict, source: str, near: Path | None = None,
                    rules: Ruleset | None = None) -> Board:
    """A board from parsed YAML; every problem is reported with its line."""
    if not isinstance(data, dict):
        raise DesignerError("a board file is a mapping with board, columns, rows, cities and bag", where=source,
                            hint="start from tilesets/greatrace/demo-frontier.yaml")
    from designer.systems.greatrace.files import schema

    schema.check(schema.Board, data, lines, source, "board")
    problems: list = []
    board = Board(name=str(data.get("board", "")), title=str(data.get("title", data.get("board", ""))),
                  columns=_int(data.get("columns", 1), ("columns",), problems, 1, MAX_COLUMNS),
                  rows=_int(data.get("rows", 1), ("rows",), problems, 1, MAX_ROWS), source=source)
    board.off = set(_hexes(data.get("off"), ("off",), problems))
    board.risk = set(_hexes(data.get("risk"), ("risk",), problems))
    for key in ("off", "risk"):
        for i, h in enumerate(sorted(getattr(board, key))):
            c, r = col_row(h)
            if not (0 <= c < board.columns and 0 <= r < board.rows):
                problems.append(((key,), f"{label(h)} is outside the {board.columns} x {board.rows} board"))
    cities = data.get("cities") or []
    if not isinstance(cities, list):
        problems.append((("cities",), "write a list of {name, at, cards, purple}"))
        cities = []
    for i, c in enumerate(cities):
        path = ("cities", i)
        if not isinstance(c, dict) or "name" not in c or "at" not in c:
            problems.append((path, "a city needs at least a name and a hex: {name: Fort Lumen, at: K5}"))
            continue
        name = str(c["name"]).strip()
        try:
            at = parse_label(c["at"])
        except ValueError as exc:
            problems.append((path + ("at",), str(exc)))
            continue
        if name in board.cities:
            problems.append((path + ("name",), f"two cities are called {name!r}"))
        if not board.on_board(at):
            problems.append((path + ("at",), f"{label(at)} is not on the board (outside it or marked off)"))
        other = board.city_at(at)
        if other is not None:
            problems.append((path + ("at",), f"{label(at)} already holds {other.name}"))
        for k in c:
            if k not in ("name", "at", "cards", "purple", "median"):
                problems.append((path + (k,), f"unknown key {k!r} (known: name, at, cards, purple, median)"))
        board.cities[name] = City(name, at, _int(c.get("cards", 1), path + ("cards",), problems, 0, 9),
                                  bool(c.get("purple", False)), bool(c.get("median", False)))
    transports = data.get("transport") or []
    if not isinstance(transports, list):
        problems.append((("transport",), "write a list of {from, to, mode, fare}"))
        transports = []
    for i, t in enumerate(transports):
        path = ("transport", i)
        if not isinstance(t, dict):
            problems.append((path, "a line is {from: CITY, to: CITY, mode: sea, fare: 60}"))
            continue
        ends = [str(t.get("from", "")).strip(), str(t.get("to", "")).strip()]
        for end, key in zip(ends, ("from", "to")):
            if end not in board.cities:
                problems.append((path + (key,), f"{end!r} is not a city of this board"))
        if ends[0] == ends[1]:
            problems.append((path, "a transport line joins two different cities"))
        mode = str(t.get("mode", "sea"))
        if mode not in MODES:
            problems.append((path + ("mode",), f"mode is sea or air, not {mode!r}"))
        board.transports.append(Transport(ends[0], ends[1], mode, _int(t.get("fare"), path + ("fare",), problems,
                                                                       0, 1000)))
    bands = data.get("bands") or []
    if not isinstance(bands, list):
        problems.append((("bands",), "write a list of {name, columns: [A, C]} or {name, rows: [1, 3]}"))
        bands = []
    for i, b in enumerate(bands):
        path = ("bands", i)
        if not isinstance(b, dict) or ("columns" in b) == ("rows" in b):
            problems.append((path, "a band has a name and either columns: [A, C] or rows: [1, 3]"))
            continue
        axis = "columns" if "columns" in b else "rows"
        first, last = _span(b[axis], axis, path + (axis,), problems)
        board.bands.append(Band(str(b.get("name", i + 1)), axis, first, last))
    bag = data.get("bag") or []
    if not isinstance(bag, list):
        problems.append((("bag",), "write a list of {terrain, count, fuel, mech, danger, stop}"))
        bag = []
    for i, k in enumerate(bag):
        path = ("bag", i)
        if not isinstance(k, dict) or "terrain" not in k:
            problems.append((path, "a tile kind is {terrain: plain, count: 20, fuel: 1, mech: 0}"))
            continue
        terrain = str(k["terrain"]).strip()
        if board.tile(terrain) is not None:
            problems.append((path + ("terrain",), f"the terrain {terrain!r} is listed twice"))
        for key in k:
            if key not in ("terrain", "count", "fuel", "mech", "danger", "stop"):
                problems.append((path + (key,), f"unknown key {key!r} (known: terrain, count, fuel, mech, danger, stop)"))
        board.bag.append(TileKind(terrain, _int(k.get("count", 0), path + ("count",), problems, 0, 500),
                                  _int(k.get("fuel", 0), path + ("fuel",), problems, 0, 9),
                                  _int(k.get("mech", 0), path + ("mech",), problems, 0, 9),
                                  bool(k.get("danger", False)), bool(k.get("stop", False))))
    if problems:
        raise yamlio.schema_error(source, lines, problems, "board",
                                  hint="the format is described in tilesets/greatrace/README.md")
    board.rules_name = data.get("rules")
    board.rules = rules or _rules_for(board.rules_name, near, source, lines)
    return board


def _is_ruleset_file(p: Path) -> bool:
    """A bundled ruleset ends in ``-rules.yaml`` (boards share the folder); any file beside a board read from
    disk may be one."""
    from designer.core import paths

    bundled = (paths.TILESETS / "greatrace").resolve()
    return p.parent.resolve() != bundled or p.name.endswith(("-rules.yaml", "-rules.yml"))


def _rules_for(name: Any, near: Path | None, source: str, lines: dict) -> Ruleset:
    """The ruleset a board names: by name among the bundled ones, or (a board read from disk, ``near`` its
    folder) a file beside it. A board that arrived over the network may not name a path."""
    if name is None:
        return load_ruleset()
    from designer.core import offered, paths

    line = yamlio.line_of(lines, ("rules",))
    where = f"{source}:{line}" if line else source
    return load_ruleset(offered.find(name, what="ruleset", where=where, folders=[paths.TILESETS / "greatrace"],
                                     near=near, keep=_is_ruleset_file))


def load_board(path: str | Path, rules: Ruleset | None = None) -> Board:
    p = Path(path)
    data, lines = yamlio.load_plain(p)
    return board_from_data(data, lines, str(p), near=p.parent, rules=rules)


def loads_board(text: str, source: str = "<board>") -> Board:
    data, lines = yamlio.loads_plain(text, source)
    return board_from_data(data, lines, source)


def board_to_data(board: Board) -> dict:
    """The board as the plain data :func:`board_from_data` reads back (for YAML downloads)."""
    out: dict = {"system": "greatrace", "board": board.name, "title": board.title,
                 "columns": board.columns, "rows": board.rows}
    if board.rules_name:
        out["rules"] = board.rules_name
    out["off"] = sorted((label(h) for h in board.off), key=_label_key)
    out["risk"] = sorted((label(h) for h in board.risk), key=_label_key)
    out["cities"] = []
    for c in board.cities.values():
        row = {"name": c.name, "at": label(c.at), "cards": c.cards}
        if c.purple:
            row["purple"] = True
        if c.median:
            row["median"] = True
        out["cities"].append(row)
    out["transport"] = [{"from": t.a, "to": t.b, "mode": t.mode, "fare": t.fare} for t in board.transports]
    out["bands"] = [{"name": b.name, b.axis: ([chr(65 + b.first), chr(65 + b.last)] if b.axis == "columns"
                                              else [b.first + 1, b.last + 1])} for b in board.bands]
    out["bag"] = []
    for k in board.bag:
        row = {"terrain": k.terrain, "count": k.count, "fuel": k.fuel, "mech": k.mech}
        if k.danger:
            row["danger"] = True
        if k.stop:
            row["stop"] = True
        out["bag"].append(row)
    return out


def _label_key(text: str) -> tuple[str, int]:
    return (text[0], int(text[1:]))


def neighbours(board: Board, h: Hex) -> list[Hex]:
    return [n for n in hexgrid.neighbours(h) if board.on_board(n)]
