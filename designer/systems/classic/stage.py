"""Stages (épreuves spéciales) and rallies of classic Rallyman as files.

A stage names its zone box, its route (course-sheet or share form), weather, tyres and whether an assistance
follows it; a rally names its stages (files beside it, or written inside it). Format: tilesets/classic/README.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from designer.core import files, yamlio
from designer.core.errors import DesignerError
from designer.systems.classic import notation
from designer.systems.classic.rules import TYRES

WEATHERS = ("fixed", "variable")
STAGE_KEYS = {"system", "stage", "name", "zones", "route", "share", "weather", "tyres", "assistance", "splits",
              "players", "leader", "rules", "big_attack", "notes", "demo"}


@dataclass
class Stage:
    name: str
    route: notation.Route
    zones: str = "demo-zones"
    weather: str = "fixed"
    tyres: str = "asphalt"
    assistance: bool = True
    splits: list[tuple[int, str]] = field(default_factory=list)   # (crossing index from 0, cell)
    players: int = 4
    leader: bool = False
    rules: str | None = None
    big_attack: bool = False
    notes: list[str] = field(default_factory=list)
    source: str = "<stage>"


@dataclass
class Rally:
    name: str
    stages: list[Stage]
    date: str = ""
    drivers: list[str] = field(default_factory=list)
    source: str = "<rally>"


def _fail(lines, source, path, msg, hint="see tilesets/classic/README.md for the stage format"):
    line = yamlio.line_of(lines, path)
    raise DesignerError(msg, where=f"{source}:{line}" if line else source, hint=hint)


def stage_from_data(data, lines, source: str, at: tuple = (), defaults: dict | None = None) -> Stage:
    if not isinstance(data, dict):
        _fail(lines, source, at, "a stage is a mapping with `stage` (its name), `zones` and `route`")
    data = {**(defaults or {}), **data}
    unknown = set(data) - STAGE_KEYS - {"rally", "date", "drivers", "stages"}
    if unknown:
        _fail(lines, source, at + (sorted(unknown)[0],), f"unknown key {', '.join(sorted(unknown))}",
              f"a stage knows {', '.join(sorted(STAGE_KEYS))}")
    if data.get("route") is None and data.get("share") is None:
        _fail(lines, source, at, "the stage has no `route`",
              "add route: 'L0 | L1-C7 | C6' (course sheet) or share: L0-1/C7-6")
    key = "route" if data.get("route") is not None else "share"
    line = yamlio.line_of(lines, at + (key,))
    where = f"{source}:{line}" if line else source
    route = (notation.parse_any(data["route"], where) if key == "route"
             else notation.parse_share(str(data["share"]), where))
    weather = str(data.get("weather", "fixed"))
    if weather not in WEATHERS:
        _fail(lines, source, at + ("weather",), f"weather {weather!r}: write fixed or variable (ART.15)")
    tyres = str(data.get("tyres", "asphalt"))
    if tyres not in TYRES:
        _fail(lines, source, at + ("tyres",), f"unknown tyres {tyres!r}", f"tyres are {', '.join(TYRES)}")
    players = data.get("players", 4)
    if not isinstance(players, int) or not 1 <= players <= 6:
        _fail(lines, source, at + ("players",), "players is a number from 1 to 6")
    splits = []
    for i, s in enumerate(data.get("splits") or []):
        text = str(s).strip().upper()
        idx, _, cell = text.rpartition(":")
        try:
            n = int(idx) - 1 if idx else 0
        except ValueError:
            _fail(lines, source, at + ("splits", i), f"split {s!r}: write the crossing number and the cell, e.g. 2:D4")
        if n < 0 or n >= len(route):
            _fail(lines, source, at + ("splits", i), f"split {s!r}: the route has {len(route)} crossings")
        splits.append((n, cell))
    for flag in ("assistance", "leader", "big_attack"):
        if flag in data and not isinstance(data[flag], bool):
            _fail(lines, source, at + (flag,), f"{flag} is true or false")
    name = str(data.get("stage") or data.get("name") or Path(source).stem)
    return Stage(name=name, route=route, zones=str(data.get("zones") or "demo-zones"), weather=weather,
                 tyres=tyres, assistance=bool(data.get("assistance", True)), splits=splits, players=players,
                 leader=bool(data.get("leader", False)), rules=data.get("rules"),
                 big_attack=bool(data.get("big_attack", False)), notes=[str(n) for n in data.get("notes") or []],
                 source=source)


def rally_from_data(data, lines, source: str, base: Path | None) -> Rally:
    items = data.get("stages")
    if not isinstance(items, list) or not items:
        _fail(lines, source, ("stages",), "a rally lists its `stages` (file names beside it, or stage mappings)")
    if len(items) > 6:
        _fail(lines, source, ("stages",), f"a rally of {len(items)} stages; the course sheet holds 3 (at most 6 here)")
    defaults = {k: data[k] for k in ("zones", "tyres", "weather", "players") if k in data}
    stages = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            if base is None:
                _fail(lines, source, ("stages", i), "this rally names stage files, which an upload cannot reach",
                      "write the stages inside the rally file")
            p = (base / item).resolve()
            if not p.is_file():
                _fail(lines, source, ("stages", i), f"no stage file {item!r} beside the rally",
                      "check the file name")
            text = files.read_text(p, what="stage file")
            sd, sl = yamlio.loads(text, str(p))
            stages.append(stage_from_data(sd, sl, str(p), defaults=defaults))
        else:
            stages.append(stage_from_data(item, lines, source, ("stages", i), defaults=defaults))
    drivers = data.get("drivers") or []
    return Rally(name=str(data.get("rally")), stages=stages, date=str(data.get("date") or ""),
                 drivers=[str(d) for d in drivers] if isinstance(drivers, list) else [], source=source)


def loads(text: str, source: str = "<text>", path: Path | None = None):
    data, lines = yamlio.loads(text, source)
    if not isinstance(data, dict):
        raise DesignerError("a classic stage or rally file is a YAML mapping", where=source,
                            hint="start with `system: classic` and `stage:` or `rally:`")
    if "rally" in data:
        return rally_from_data(data, lines, source, path.parent if path else None)
    if isinstance(data.get("zones"), dict):
        from designer.systems.classic.zones import box_from_data

        box = box_from_data(data, lines, source)          # a broken box says where, like any box
        raise DesignerError(f"this is a zone box ({box.name}: zones {', '.join(box.zones)}), not a stage",
                            where=source, hint="give a stage or rally file that uses it with `zones: "
                                               f"{box.name}`; the box itself reads without a problem")
    return stage_from_data(data, lines, source)


def load(path) -> Stage | Rally:
    p = Path(path)
    return loads(files.read_text(p, what="stage file"), str(p), p)


def stage_to_data(stage: Stage) -> dict:
    out = {"system": "classic", "stage": stage.name, "zones": stage.zones, "route": notation.sheet(stage.route),
           "weather": stage.weather, "tyres": stage.tyres, "assistance": stage.assistance}
    if stage.splits:
        out["splits"] = [f"{i + 1}:{c}" for i, c in stage.splits]
    if stage.players != 4:
        out["players"] = stage.players
    if stage.leader:
        out["leader"] = True
    if stage.big_attack:
        out["big_attack"] = True
    if stage.rules:
        out["rules"] = stage.rules
    if stage.notes:
        out["notes"] = stage.notes
    return out


def dumps(doc) -> str:
    if isinstance(doc, Rally):
        data = {"system": "classic", "rally": doc.name}
        if doc.date:
            data["date"] = doc.date
        if doc.drivers:
            data["drivers"] = doc.drivers
        data["stages"] = [{k: v for k, v in stage_to_data(s).items() if k != "system"} for s in doc.stages]
    else:
        data = stage_to_data(doc)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)
