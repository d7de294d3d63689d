"""A Rallye deck (the box): road-section cards, the player aid's section types, action cards and stress cards.

The format is documented in ``tilesets/rallye/README.md``. Loading checks every field and reports every problem
at once with its file and line; a card may name a ``type`` of the player aid and take its width, surface and
severity from it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from designer.core import offered, paths, yamlio
from designer.core.errors import DesignerError
from designer.systems.rallye.model import schema
from designer.systems.rallye.model.rules import Ruleset, Tables, check_system, get_ruleset, parse_tables

SEVERITIES = ("none", "yellow", "orange", "red")
SEVERITY_WORDS = {"none": "straight", "yellow": "light", "orange": "medium", "red": "tight"}
DIRECTIONS = ("left", "right")
EXITS = ("straight", "left", "right")
OWNERS = ("start", "pile")
DEFAULT_DECK = "rallye-demo"


@dataclass(frozen=True)
class SectionType:
    """One line of the player aid: a kind of section and its ranges of safety and top speed (km/h)."""
    name: str
    width: str
    surface: str
    severity: str
    safety: tuple[int, int]
    top: tuple[int, int]


@dataclass(frozen=True)
class Section:
    """A road-section card. Speeds in km/h; ``exit`` is where the road leaves the card (None: from the ruleset)."""
    id: str
    width: str
    surface: str
    severity: str
    direction: str | None
    safety: int
    top: int
    type: str | None = None
    exit: str | None = None
    tables: Tables | None = None
    note: str = ""
    line: int | None = None

    @property
    def wheel(self) -> str | None:
        """The wheel arrow this card asks for (``orange-left``), None on a straight."""
        return None if self.severity == "none" else f"{self.severity}-{self.direction}"

    def pace_note(self) -> str:
        if self.severity == "none":
            return "straight"
        return f"{self.direction} {SEVERITY_WORDS[self.severity]} ({self.severity})"

    def with_safety(self, safety: int) -> "Section":
        return Section(**{**self.__dict__, "safety": safety})


@dataclass(frozen=True)
class ActionCard:
    """An action card: its acceleration (km/h) and the wheel arrows it allows, ``count`` copies."""
    id: str
    acceleration: int
    steering: frozenset[str]
    owner: str = "start"
    count: int = 1


@dataclass
class Deck:
    name: str
    title: str
    ruleset: Ruleset
    widths: tuple[str, ...]
    surfaces: tuple[str, ...]
    types: dict[str, SectionType]
    sections: dict[str, Section]
    actions: list[ActionCard]
    stress_count: int
    tables: Tables
    tables_status: str = "assumed"
    demo: bool = False
    source: str = ""
    data: dict = field(default_factory=dict, repr=False)

    def section(self, card_id: Any) -> Section:
        key = str(card_id)
        if key not in self.sections:
            raise DesignerError(f"no section card {key!r} in the deck {self.name!r}", where="cards",
                                hint=f"the deck has cards {', '.join(list(self.sections)[:12])} ...")
        return self.sections[key]

    def tables_of(self, section: Section) -> Tables:
        return section.tables or self.tables

    def starting_set(self) -> list[ActionCard]:
        """One player's starting action cards, one entry per physical card."""
        return [a for a in self.actions if a.owner == "start" for _ in range(a.count)]

    def pile(self) -> list[ActionCard]:
        return [a for a in self.actions if a.owner == "pile" for _ in range(a.count)]


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _speed(v, step, top, path, problems) -> int | None:
    if not _is_int(v) or v < 0 or v > top or v % step:
        problems.append((path, f"a speed in km/h from 0 to {top}, in steps of {step}, not {v!r}"))
        return None
    return v


def _range(v, step, top, path, problems) -> tuple[int, int] | None:
    if not (isinstance(v, list) and len(v) == 2):
        problems.append((path, "a range is [lowest, highest] in km/h"))
        return None
    lo, hi = (_speed(x, step, top, path, problems) for x in v)
    if lo is None or hi is None:
        return None
    if lo > hi:
        problems.append((path, f"the range starts above its end ({lo} > {hi})"))
        return None
    return lo, hi


def _names(data, key, default, problems) -> tuple[str, ...]:
    v = data.get(key, default)
    if not (isinstance(v, list) and v and all(isinstance(x, str) and x for x in v)):
        problems.append(((key,), "a list of words, e.g. " + ", ".join(default)))
        return tuple(default)
    return tuple(v)


def deck_from_data(data: Any, lines: dict, source: str, near: Path | None = None) -> Deck:
    if not isinstance(data, dict):
        raise DesignerError("a deck file is a mapping (deck, sections, actions ...)", where=source,
                            hint="start from tilesets/rallye/rallye-demo.yaml")
    check_system(data, lines, source, "deck")
    if "deck" not in data:
        raise DesignerError("this is not a Rallye deck (no `deck:` name)", where=source,
                            hint="a deck file has deck:, sections: and actions:")
    schema.check(schema.DeckFile, data, lines, source, "deck", hint="see tilesets/rallye/README.md for the format")
    line = yamlio.line_of(lines, ("ruleset",))
    ruleset = get_ruleset(data.get("ruleset") or None, near, where=f"{source}:{line}" if line else source)
    step, vmax = ruleset.speed_step, ruleset.speed_max
    problems: list[tuple[tuple, str]] = []
    widths = _names(data, "widths", ["narrow", "medium", "wide"], problems)
    surfaces = _names(data, "surfaces", ["tarmac", "wet", "gravel", "snow"], problems)

    def check_word(value, allowed, path, what):
        if value not in allowed:
            problems.append((path, f"{what} is one of {', '.join(allowed)}, not {value!r}"))

    types: dict[str, SectionType] = {}
    for i, t in enumerate(data.get("types") or []):
        path = ("types", i)
        if not isinstance(t, dict) or not t.get("type"):
            problems.append((path, "a type is {type: name, width, surface, severity, safety: [lo, hi], top: [lo, hi]}"))
            continue
        name = str(t["type"])
        if name in types:
            problems.append((path + ("type",), f"the type {name!r} is given twice"))
        check_word(t.get("width"), widths, path + ("width",), "width")
        check_word(t.get("surface"), surfaces, path + ("surface",), "surface")
        check_word(t.get("severity"), SEVERITIES, path + ("severity",), "severity")
        safety = _range(t.get("safety"), step, vmax, path + ("safety",), problems)
        top = _range(t.get("top"), step, vmax, path + ("top",), problems)
        if safety and top:
            types[name] = SectionType(name, t.get("width"), t.get("surface"), t.get("severity"), safety, top)

    sections: dict[str, Section] = {}
    raw_sections = data.get("sections")
    if not isinstance(raw_sections, list) or not raw_sections:
        problems.append((("sections",), "a deck needs a list of section cards"))
        raw_sections = []
    for i, c in enumerate(raw_sections):
        path = ("sections", i)
        if not isinstance(c, dict) or c.get("id") in (None, ""):
            problems.append((path, "a section card is a mapping with at least id, safety and top"))
            continue
        cid = str(c["id"])
        if cid in sections:
            problems.append((path + ("id",), f"the card number {cid} is used twice"))
            continue
        base = {}
        if c.get("type") is not None:
            t = types.get(str(c["type"]))
            if t is None:
                problems.append((path + ("type",), f"no type {c['type']!r} in types (have: {', '.join(types) or 'none'})"))
            else:
                base = {"width": t.width, "surface": t.surface, "severity": t.severity}
        width = c.get("width", base.get("width"))
        surface = c.get("surface", base.get("surface"))
        severity = c.get("severity", base.get("severity"))
        check_word(width, widths, path + ("width",), "width")
        check_word(surface, surfaces, path + ("surface",), "surface")
        check_word(severity, SEVERITIES, path + ("severity",), "severity")
        direction = c.get("direction")
        if severity == "none":
            if direction not in (None, "none"):
                problems.append((path + ("direction",), "a straight has no direction (leave it out)"))
            direction = None
        elif severity in SEVERITIES:
            check_word(direction, DIRECTIONS, path + ("direction",), "the direction of a corner")
        safety = _speed(c.get("safety"), step, vmax, path + ("safety",), problems)
        top = _speed(c.get("top"), step, vmax, path + ("top",), problems)
        if safety is not None and top is not None and safety > top:
            problems.append((path + ("safety",), f"the safety speed {safety} is above the top speed {top}"))
        exit_ = c.get("exit")
        if exit_ is not None:
            check_word(exit_, EXITS, path + ("exit",), "exit")
        tables = None
        if c.get("tables") is not None:
            tables, more = parse_tables(c["tables"], path + ("tables",))
            problems += more
        sections[cid] = Section(cid, width, surface, severity, direction, safety or 0, top or 0,
                                str(c["type"]) if c.get("type") is not None else None, exit_, tables,
                                str(c.get("note", "")), yamlio.line_of(lines, path))

    actions: list[ActionCard] = []
    arrows = {f"{s}-{d}" for s in SEVERITIES[1:] for d in DIRECTIONS}
    raw_actions = data.get("actions")
    if not isinstance(raw_actions, list) or not raw_actions:
        problems.append((("actions",), "a deck needs a list of action cards"))
        raw_actions = []
    seen = set()
    for i, a in enumerate(raw_actions):
        path = ("actions", i)
        if not isinstance(a, dict) or a.get("id") in (None, ""):
            problems.append((path, "an action card is {id, acceleration, steering: [orange-left, ...], owner, count}"))
            continue
        aid = str(a["id"])
        if aid in seen:
            problems.append((path + ("id",), f"the action card {aid} is given twice (use count: for copies)"))
        seen.add(aid)
        acc = a.get("acceleration")
        if not _is_int(acc) or acc <= 0 or acc % step or acc > vmax:
            problems.append((path + ("acceleration",), f"km/h above 0, in steps of {step}, not {acc!r}"))
            continue
        steering = a.get("steering") or []
        if not isinstance(steering, list):
            problems.append((path + ("steering",), "a list of arrows such as [yellow-left, orange-right]"))
            continue
        bad = [s for s in steering if s not in arrows]
        if bad:
            problems.append((path + ("steering",), f"unknown arrow {bad[0]!r}: write <yellow|orange|red>-<left|right>"))
        owner = a.get("owner", "start")
        check_word(owner, OWNERS, path + ("owner",), "owner")
        count = a.get("count", 1)
        if not _is_int(count) or count < 1:
            problems.append((path + ("count",), f"a number of copies, 1 or more, not {count!r}"))
            continue
        actions.append(ActionCard(aid, acc, frozenset(steering), owner, count))
    if actions and not any(a.owner == "start" for a in actions):
        problems.append((("actions",), "no action card has owner: start, so a driver has no starting set"))

    stress = data.get("stress", {"count": 24})
    stress_count = stress.get("count") if isinstance(stress, dict) else None
    if not _is_int(stress_count) or stress_count < 0:
        problems.append((("stress",), "give the stress cards as {count: 24}"))
        stress_count = 0

    tables, status = ruleset.tables, ruleset.params["resolution"].status
    if data.get("resolution") is not None:
        res = data["resolution"]
        if not isinstance(res, dict) or "value" not in res:
            problems.append((("resolution",), "give the deck's tables as {value: {wheel_right, wheel_wrong}, status, source}"))
        else:
            tables, more = parse_tables(res["value"], ("resolution", "value"))
            problems += more
            status = str(res.get("status", "assumed"))
    if problems:
        raise yamlio.schema_error(source, lines, problems, "deck", hint="see tilesets/rallye/README.md for the format")
    return Deck(str(data["deck"]), str(data.get("title", data["deck"])), ruleset, widths, surfaces, types,
                sections, actions, stress_count, tables, status, bool(data.get("demo", False)), source, data)


def load_deck(path: str | Path) -> Deck:
    """A deck file from the user's disk (its ruleset may be a file beside it)."""
    data, lines = yamlio.load_plain(path)
    return deck_from_data(data, lines, str(path), Path(path).resolve().parent)


def loads_deck(text: str, source: str = "<deck>") -> Deck:
    """A deck sent as text (an upload): it may name only a bundled ruleset."""
    data, lines = yamlio.loads_plain(text, source)
    return deck_from_data(data, lines, source)


@lru_cache(maxsize=16)
def _cached(path: str, mtime: float) -> Deck:
    return load_deck(path)


def _is_deck(p: Path) -> bool:
    return p.stem != "ruleset"


def offered_decks() -> list[str]:
    """The names of the bundled decks (what an upload or a link may name)."""
    return offered.names_in([paths.TILESETS / "rallye"], _is_deck)


def find_deck(name: str | None, near: Path | None = None, where: str = "deck") -> Path:
    """The file of the deck called ``name``.

    ``near`` is the folder of a stage read from the user's disk: a deck file there (by name, or a path relative
    to it) is found first. Without it (an upload, a link, the app's editor) only a bundled deck, named by its
    name, is ever opened: a path is refused before any file is touched.
    """
    return offered.find(name or DEFAULT_DECK, what="deck", where=where, folders=[paths.TILESETS / "rallye"],
                        near=near, keep=_is_deck)


def get_deck(name: str | None = None, near: Path | None = None, where: str = "deck") -> Deck:
    """The deck called ``name``: a file beside ``near`` (a stage on disk) first, then the bundled decks."""
    p = find_deck(name, near, where)
    return _cached(str(p.resolve()), p.stat().st_mtime)


def deck_of(stage: Any, near: Path | None = None) -> Deck:
    """The deck a stage names: beside the stage when it was read from disk, else a bundled deck by name."""
    return get_deck(stage.deck, stage.near or near, where=getattr(stage, "deck_where", "") or stage.source)
