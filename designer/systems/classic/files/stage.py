"""Stages (épreuves spéciales) and rallies of classic Rallyman as files.

A stage names its zone box, its route (course-sheet or share form), weather, tyres and whether an assistance
follows it; a rally names its stages (files beside it, or written inside it). Format: tilesets/classic/README.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from designer.core import files, offered, paths, yamlio
from designer.core.errors import DesignerError
from designer.systems.classic.files import notation, schema
from designer.systems.classic.files.rally import link_stages
from designer.systems.classic.files.rules import TYRES

WEATHERS = ("fixed", "variable")
STAGE_KEYS = set(schema.StageFile.model_fields)
MAX_STAGES = schema.MAX_STAGES
OFFERED = paths.TILESETS / "classic"


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
    sisu: bool = False                  # the car holds its SISU card at the start (ART.7.5: once a rally)
    notes: list[str] = field(default_factory=list)
    source: str = "<stage>"
    near: Path | None = field(default=None, compare=False)   # folder of the file read from disk; None: upload
    damage_in: int = 0                  # black dice lost before the start (ART.8, ART.14: no assistance before)
    soft_sector: str | None = None      # soft tyres kept from the stage before: the whole stage is this sector
    penalty_seconds: int = 0            # time-control penalty after the stage (ART.22)
    carried_from: "Stage | None" = field(default=None, compare=False, repr=False)   # stage before, no assistance
    tyre_change_refused: str | None = field(default=None, compare=False, repr=False)


@dataclass
class Rally:
    name: str
    stages: list[Stage]
    date: str = ""
    drivers: list[str] = field(default_factory=list)
    source: str = "<rally>"


class IsABox(DesignerError):
    """The file is a zone box, not a stage (the command line's ``validate`` checks it as a box)."""

    def __init__(self, box, source: str):
        super().__init__(f"this is a zone box ({box.name}: zones {', '.join(box.zones)}), not a stage",
                         where=source, hint=f"give a stage or rally file that uses it with `zones: {box.name}`; "
                                            "the box itself reads without a problem")
        self.box = box


def _fail(lines, source, path, msg, hint="see tilesets/classic/README.md for the stage format"):
    line = yamlio.line_of(lines, path)
    raise DesignerError(msg, where=f"{source}:{line}" if line else source, hint=hint)


def _offered_name(value, what: str, lines, source: str, path: tuple, near: Path | None) -> str:
    """A box or ruleset name as written; from an upload or a link only a plain name (never a path)."""
    line = yamlio.line_of(lines, path)
    where = f"{source}:{line}" if line else source
    if near is None:
        offered.plain_name(value, what=what, where=where, offered=offered.names_in([OFFERED]))
    return str(value).strip()


def stage_from_data(data, lines, source: str, at: tuple = (), defaults: dict | None = None,
                    near: Path | None = None) -> Stage:
    """A stage from its mapping; ``near`` is the folder of a file read from disk (None for an upload)."""
    if not isinstance(data, dict):
        _fail(lines, source, at, "a stage is a mapping with `stage` (its name), `zones` and `route`")
    if "rally" in data or "stages" in data:
        _fail(lines, source, at, "a rally cannot be a stage of another rally",
              "list the stages themselves (their files or mappings), not a rally")
    fields = schema.check(schema.StageFile, data, lines, source, "stage", at)
    given = {k: v for k, v in fields.model_dump().items() if v is not None}
    values = {**{k: v for k, v in (defaults or {}).items() if v is not None}, **given}
    if fields.route is None and fields.share is None:
        _fail(lines, source, at, "the stage has no `route`",
              "add route: 'L0 | L1-C7 | C6' (course sheet) or share: L0-1/C7-6")
    key = "route" if fields.route is not None else "share"
    line = yamlio.line_of(lines, at + (key,))
    where = f"{source}:{line}" if line else source
    route = (notation.parse_any(data["route"], where) if key == "route"
             else notation.parse_share(str(data["share"]), where))
    splits = []
    for i, s in enumerate(fields.splits or []):
        text = str(s).strip().upper()
        idx, _, cell = text.rpartition(":")
        try:
            n = int(idx) - 1 if idx else 0
        except ValueError:
            _fail(lines, source, at + ("splits", i), f"split {s!r}: write the crossing number and the cell, e.g. 2:D4")
        if n < 0 or n >= len(route):
            _fail(lines, source, at + ("splits", i), f"split {s!r}: the route has {len(route)} crossings")
        splits.append((n, cell))
    zones = values.get("zones", "demo-zones")
    rules = values.get("rules")
    zones_at = at + ("zones",) if "zones" in given else ("zones",)
    _offered_name(zones, "zone box", lines, source, zones_at, near)
    if rules is not None:
        _offered_name(rules, "ruleset", lines, source, at + ("rules",) if "rules" in given else ("rules",), near)
    name = str(values.get("stage") or values.get("name") or Path(source).stem)
    return Stage(name=name, route=route, zones=zones, weather=values.get("weather", "fixed"),
                 tyres=values.get("tyres", "asphalt"), assistance=values.get("assistance", True), splits=splits,
                 players=values.get("players", 4), leader=values.get("leader", False), rules=rules,
                 big_attack=values.get("big_attack", False), sisu=values.get("sisu", False),
                 notes=list(values.get("notes") or []),
                 source=source, near=near, damage_in=values.get("damage_in", 0),
                 soft_sector=values.get("soft_sector"), penalty_seconds=values.get("penalty_seconds", 0))


def rally_from_data(data, lines, source: str, base: Path | None, seen: tuple[str, ...] = ()) -> Rally:
    """A rally; ``base`` is the folder of a rally read from disk (None for an upload: its stages are inside)."""
    items = data.get("stages")
    if isinstance(items, list) and len(items) > MAX_STAGES:
        _fail(lines, source, ("stages",), f"a rally of {len(items)} stages; the course sheet holds 3, this tool "
                                          f"at most {MAX_STAGES}", "split it into several rallies")
    fields = schema.check(schema.RallyFile, data, lines, source, "rally")
    defaults = {k: getattr(fields, k) for k in ("zones", "tyres", "weather", "players", "rules")
                if getattr(fields, k) is not None}
    stages = []
    for i, item in enumerate(data["stages"]):
        if isinstance(item, str):
            if base is None:
                _fail(lines, source, ("stages", i), "this rally names stage files, which an upload cannot reach",
                      "write the stages inside the rally file")
            p = (base / item).resolve()
            if not p.is_file():
                _fail(lines, source, ("stages", i), f"no stage file {item!r} beside the rally",
                      "check the file name")
            if str(p) in seen:
                _fail(lines, source, ("stages", i), f"the rally lists {p.name}, which lists this rally again "
                                                    f"(a loop: {' -> '.join(Path(x).name for x in seen + (str(p),))})",
                      "a rally lists stages, not itself or another rally")
            text = files.read_text(p, what="stage file")
            sd, sl = yamlio.loads(text, str(p))
            if isinstance(sd, dict) and "rally" in sd:
                _fail(lines, source, ("stages", i), f"{item!r} is a rally ({p}), not a stage; rallies do not nest",
                      "list that rally's stages here instead")
            stages.append(stage_from_data(sd, sl, str(p), defaults=defaults, near=p.parent))
        else:
            stages.append(stage_from_data(item, lines, source, ("stages", i), defaults=defaults, near=base))
    link_stages(stages)
    return Rally(name=fields.rally, stages=stages, date=fields.date or "", drivers=list(fields.drivers or []),
                 source=source)


def loads(text: str, source: str = "<text>", path: Path | None = None):
    """A stage or rally from text. ``path``: the file it was read from on the user's own disk; without it
    (an upload, a link) the text may name zone boxes and rulesets only by name, never by path."""
    data, lines = yamlio.loads(text, source)
    if not isinstance(data, dict):
        raise DesignerError("a classic stage or rally file is a YAML mapping", where=source,
                            hint="start with `system: classic` and `stage:` or `rally:`")
    near = Path(path).resolve().parent if path else None
    if "rally" in data:
        return rally_from_data(data, lines, source, near, (str(Path(path).resolve()),) if path else ())
    if isinstance(data.get("zones"), dict):
        from designer.systems.classic.files.zones import box_from_data

        raise IsABox(box_from_data(data, lines, source), source)     # a broken box says where, like any box
    return stage_from_data(data, lines, source, near=near)


def load(path) -> Stage | Rally:
    p = Path(path)
    return loads(files.read_text(p, what="stage file"), str(p), p)


def named_tyres(stage: Stage) -> str:
    """The tyres the stage names (in a rally with no assistance before it, the car keeps those of the stage before
    on: ``stage.tyres``)."""
    return stage.tyre_change_refused or stage.tyres


def stage_to_data(stage: Stage) -> dict:
    out = {"system": "classic", "stage": stage.name, "zones": stage.zones, "route": notation.sheet(stage.route),
           "weather": stage.weather, "tyres": named_tyres(stage), "assistance": stage.assistance}
    if stage.splits:
        out["splits"] = [f"{i + 1}:{c}" for i, c in stage.splits]
    if stage.players != 4:
        out["players"] = stage.players
    if stage.leader:
        out["leader"] = True
    if stage.big_attack:
        out["big_attack"] = True
    if stage.sisu:
        out["sisu"] = True
    if stage.rules:
        out["rules"] = stage.rules
    if stage.notes:
        out["notes"] = stage.notes
    for key in ("damage_in", "soft_sector", "penalty_seconds"):
        if getattr(stage, key):
            out[key] = getattr(stage, key)
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
