"""A race on a Great Race board: start and finish cities, the median city, the tiles already laid, and the
car's dashboard, money and cards at the moment analysed.

A race file names its board (a name in ``tilesets/greatrace/`` or a file beside the race). Its format is
documented in ``tilesets/greatrace/README.md``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from designer.core import paths, yamlio
from designer.core.errors import DesignerError
from designer.systems.greatrace.files.board import Hex, label, parse_label

CARD_KEYS = ("transport", "escort", "guide")
KNOWN = {"system", "race", "title", "board", "start", "finish", "median", "players", "seat", "dashboard", "money", "cards",
         "laid", "notes"}


@dataclass
class Race:
    name: str
    board: str
    start: str
    finish: str
    median: str | None = None
    players: int = 4
    seat: int | None = None          # the player's place in the first round's order (None: not the last)
    fuel: int | None = None          # None: the gauge maximum (a car at the start of the race)
    engine: int | None = None
    chassis: int | None = None
    money: int | None = None         # francs at the start (None: the ruleset's purse for the seat, 80 or 70 F)
    cards: dict[str, int] = field(default_factory=dict)
    laid: dict[Hex, str] = field(default_factory=dict)
    notes: str = ""
    source: str = ""
    lines: dict = field(default_factory=dict, repr=False)
    near: Path | None = field(default=None, repr=False, compare=False)       # the folder the file came from
    board_obj: Any = field(default=None, repr=False, compare=False)          # a board given with the race

    def line(self, *path) -> str:
        n = yamlio.line_of(self.lines, path)
        return f"{self.source}:{n}" if n else self.source

    def reversed(self) -> "Race":
        """The same race driven the other way (the rules allow either direction)."""
        out = Race(**{k: getattr(self, k) for k in self.__dataclass_fields__})
        out.start, out.finish = self.finish, self.start
        out.name = f"{self.name} (reversed)"
        return out


def _int(value: Any, path, problems, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        problems.append((path, f"write a whole number from {low} to {high}, not {value!r}"))
        return low
    return value


def purse(rules, players: int, seat: int | None) -> int:
    """Francs at the start for a seat (1 = first player); the last seat gets less (MISE EN PLACE 7: "80 F sauf le
    dernier joueur qui ne touche que 70 F")."""
    money = rules["start_money"]
    return int(money["last_player"] if seat is not None and seat >= players else money["others"])


def with_purse(race: Race, rules) -> Race:
    """The race with its purse in francs: as written, else the ruleset's for its seat."""
    return race if race.money is not None else replace(race, money=purse(rules, race.players, race.seat))


def race_from_data(data: Any, lines: dict, source: str) -> Race:
    if not isinstance(data, dict):
        raise DesignerError("a race file is a mapping with race, board, start and finish", where=source,
                            hint="start from stages/greatrace/demo-race-1.yaml")
    from designer.systems.greatrace.files import schema

    schema.check(schema.Race, data, lines, source, "race")
    problems: list = []
    race = Race(name=str(data.get("race", "race")), board=str(data.get("board", "")),
                start=str(data.get("start", "")).strip(), finish=str(data.get("finish", "")).strip(),
                median=str(data["median"]).strip() if data.get("median") else None,
                players=_int(data.get("players", 4), ("players",), problems, 1, 5),
                seat=data.get("seat"),
                money=_int(data["money"], ("money",), problems, 0, 100000) if "money" in data else None,
                notes=str(data.get("notes", "")), source=source, lines=lines)
    if isinstance(race.seat, int) and isinstance(race.players, int) and race.seat > race.players:
        problems.append((("seat",), f"a seat of the {race.players} players: 1 to {race.players}"))
    dash = data.get("dashboard") or {}
    if not isinstance(dash, dict):
        problems.append((("dashboard",), "write {fuel: 10, engine: 5, chassis: 5}"))
        dash = {}
    for key in dash:
        if key not in ("fuel", "engine", "chassis"):
            problems.append((("dashboard", key), "the gauges are fuel, engine and chassis"))
        else:
            setattr(race, key, _int(dash[key], ("dashboard", key), problems, 0, 99))
    cards = data.get("cards") or {}
    if not isinstance(cards, dict):
        problems.append((("cards",), "write {transport: 1, escort: 0, guide: 0}"))
        cards = {}
    for key, n in cards.items():
        if key not in CARD_KEYS:
            problems.append((("cards", key), f"cards counted here: {', '.join(CARD_KEYS)}"))
        else:
            race.cards[key] = _int(n, ("cards", key), problems, 0, 20)
    laid = data.get("laid") or {}
    if not isinstance(laid, dict):
        problems.append((("laid",), "write hex: terrain pairs, like {C4: plain, D4: forest}"))
        laid = {}
    for key, terrain in laid.items():
        try:
            h = parse_label(key)
        except ValueError as exc:
            problems.append((("laid", key), str(exc)))
            continue
        race.laid[h] = str(terrain).strip()
    if problems:
        raise yamlio.schema_error(source, lines, problems, "race",
                                  hint="the format is described in tilesets/greatrace/README.md")
    return race


def load_race(path: str | Path) -> Race:
    from designer.core import files

    p = Path(path)
    text = files.read_text(p, what="race file")
    return loads_race(text, str(p))


def loads_race(text: str, source: str = "<race>") -> Race:
    data, lines = yamlio.loads_plain(text, source)
    return race_from_data(data, lines, source)


def race_to_data(race: Race) -> dict:
    out: dict = {"system": "greatrace", "race": race.name, "board": race.board, "start": race.start,
                 "finish": race.finish}
    if race.median:
        out["median"] = race.median
    out["players"] = race.players
    if race.seat is not None:
        out["seat"] = race.seat
    dash = {k: getattr(race, k) for k in ("fuel", "engine", "chassis") if getattr(race, k) is not None}
    if dash:
        out["dashboard"] = dash
    if race.money is not None:
        out["money"] = race.money
    if race.cards:
        out["cards"] = dict(race.cards)
    if race.laid:
        out["laid"] = {label(h): t for h, t in sorted(race.laid.items(), key=lambda kv: label(kv[0]))}
    if race.notes:
        out["notes"] = race.notes
    return out


def dumps_race(race: Race) -> str:
    return yaml.safe_dump(race_to_data(race), sort_keys=False, allow_unicode=True)


BOARDS = paths.TILESETS / "greatrace"


def _is_board_file(p: Path) -> bool:
    """A bundled file that is a board (rulesets share the folder and end in ``-rules.yaml``); any file beside
    a race read from disk."""
    return not (p.parent.resolve() == BOARDS.resolve() and p.name.endswith(("-rules.yaml", "-rules.yml")))


def offered_boards() -> list[str]:
    """The names of the boards the product offers (what an uploaded or linked race may name)."""
    from designer.core import offered

    return offered.names_in([BOARDS], _is_board_file)


def board_path(name: str, near: Path | None = None, where: str = "board") -> Path:
    """The board file a race names.

    ``near`` is the folder of a race read from disk: its board may then be a file beside it (or any path).
    A race that arrived over the network (an upload, a link) has ``near=None`` and names a bundled board by
    its name only; a path is refused before anything is opened.
    """
    from designer.core import offered

    return offered.find(name, what="board", where=where, folders=[BOARDS], near=near, keep=_is_board_file)
