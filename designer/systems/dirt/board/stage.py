"""Stages: an ordered list of tile placements, with optional rally data, in YAML and as a share code.

A stage file::

    stage: Rally 1 - SS1
    tileset: dirt-core
    rally: {name: Rally 1, number: 1, assistance_after: true}
    surface: gravel
    players: 4
    tiles:
      - 202a A            # face and the edge the road enters it by
      - 210b C
      - {tile: 415a, entry: B, exit: D}        # junctions name their exit too
      - {tile: 227a, at: [3, -2], rotation: 4} # imported layouts may give position and rotation

Tiles are listed in driving order; the first is the start tile, the last road tile the finish, and an
assistance tile (201) may follow the finish.
"""
from __future__ import annotations

import json
import re
import urllib.parse
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from designer.core import yamlio
from designer.core.errors import DesignerError
from designer.core.hexgrid import EDGES
from designer.systems.dirt.board.tokens import Token

SHARE_PREFIX = "RD1"
# Caps that no real stage reaches (the rulebook's stages have 9-14 road tiles; the largest circuits and
# championship stages about 40), so that a hostile file is refused at once instead of tying up a machine.
MAX_TILES = 150
MAX_RALLY_STAGES = 50         # a rulebook rally has 3; a season of rallies is several files
MAX_COORDINATE = 500
MAX_NAME = 120
MAX_NOTES = 5000
MAX_SHARE_CODE = 8000
_CONTROL = {i: None for i in range(32)}
_CONTROL_KEEP_LINES = {i: None for i in range(32) if i not in (9, 10)}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class Placement(_Model):
    tile: str
    entry: str | None = None
    exit: str | None = None
    at: tuple[int, int] | None = None
    rotation: int | None = Field(default=None, ge=0, le=5)
    tokens: list[Token] = Field(default_factory=list)   # chicanes, water, jumps... laid on this tile

    @field_validator("tile")
    @classmethod
    def _tile_lower(cls, v: str) -> str:
        v = str(v).strip().lower()
        if not re.fullmatch(r"[0-9a-z][0-9a-z\-]*", v):
            raise ValueError(f"tile {v!r} is not a face id such as 210a")
        return v

    @field_validator("entry", "exit")
    @classmethod
    def _edge_letter(cls, v):
        if v is None:
            return v
        v = str(v).strip().upper()
        if v not in EDGES:
            raise ValueError(f"edge {v!r} is not one of A, B, C, D, E, F")
        return v

    @field_validator("at")
    @classmethod
    def _on_a_table(cls, v):
        if v is not None and any(abs(c) > MAX_COORDINATE for c in v):
            raise ValueError(f"position {list(v)} is far off any table (at most {MAX_COORDINATE} hexes from the origin)")
        return v

    @model_validator(mode="after")
    def _entry_or_position(self):
        if self.entry is None and self.at is None:
            raise ValueError(f"tile {self.tile} needs the edge it is entered by (e.g. `{self.tile} D`) "
                             "or a position `at: [q, r]` with a rotation")
        if self.at is not None and self.rotation is None:
            raise ValueError(f"tile {self.tile} has a position but no rotation (0-5)")
        return self

    def short(self) -> str:
        if self.entry is not None:
            return f"{self.tile} {self.entry}" + (f" {self.exit}" if self.exit else "")
        return f"{self.tile} @{self.at[0]},{self.at[1]} r{self.rotation}"


class RallyInfo(_Model):
    name: str | None = None
    number: int | None = Field(default=None, ge=1)
    assistance_after: bool | None = None


class Options(_Model):
    """Optional rules (rulebook, 'Règles avancées' p. 23-24, and the leader dice p. 6)."""
    leader_dice: bool = True
    canon_start: bool = False
    red_zone: bool = False
    big_attack_failure: Literal["achievable", "latest", "as_laid"] = "achievable"   # a failed Big Attack's loss


class Stage(_Model):
    name: str = "Untitled stage"
    tileset: str = "dirt-core"
    tiles: list[Placement] = Field(default_factory=list)
    rally: RallyInfo | None = None
    surface: Literal["gravel", "asphalt", "snow"] | None = None
    players: int | None = Field(default=None, ge=1, le=6)
    options: Options = Field(default_factory=Options)
    notes: str | None = None
    start_rotation: int = Field(default=0, ge=0, le=5)
    laps: int = Field(default=1, ge=1, le=20)     # a circuit (road closing on itself): laps driven
    joker_lap: int | None = Field(default=None, ge=0, le=20)   # the lap driven through an RX joker (0: none)
    copies: int = Field(default=1, ge=1, le=9)    # copies of each tile the builder has (two core boxes: 2)

    @field_validator("tiles", mode="before")
    @classmethod
    def _short_forms(cls, v):
        if not isinstance(v, list):
            return v
        if len(v) > MAX_TILES:
            raise ValueError(f"a stage has at most {MAX_TILES} tiles; this one has {len(v)}")
        return [parse_short_placement(x) if isinstance(x, str) else x for x in v]

    @field_validator("name", mode="before")
    @classmethod
    def _clean_name(cls, v):
        if not isinstance(v, str):
            v = str(v)
        v = " ".join(v.translate(_CONTROL).split())
        if len(v) > MAX_NAME:
            raise ValueError(f"a stage name has at most {MAX_NAME} characters")
        return v or "Untitled stage"

    @field_validator("notes", mode="before")
    @classmethod
    def _clean_notes(cls, v):
        if v is None:
            return v
        v = str(v).translate(_CONTROL_KEEP_LINES)
        if len(v) > MAX_NOTES:
            raise ValueError(f"notes have at most {MAX_NOTES} characters")
        return v

    @property
    def tile_ids(self) -> list[str]:
        return [p.tile for p in self.tiles]

    # -- editing helpers (used by the app; each returns a new stage) -------------------------
    def with_tiles(self, tiles: list[Placement]) -> "Stage":
        return self.model_copy(update={"tiles": list(tiles)})


def parse_short_placement(text: str) -> dict:
    """``'210b C'`` -> {tile: 210b, entry: C}; ``'415a B D'`` adds the exit; ``'210bC'`` works too."""
    t = text.strip()
    m = re.fullmatch(r"(\d{3}[a-zA-Z](?:-\d+)?)\s*\(?\s*([A-Fa-f])(?:\s*(?:->|-|\s)\s*([A-Fa-f]))?\s*\)?", t)
    if m:
        d = {"tile": m.group(1), "entry": m.group(2)}
        if m.group(3):
            d["exit"] = m.group(3)
        return d
    m = re.fullmatch(r"([0-9a-zA-Z\-]+)\s*@\s*(-?\d+)\s*,\s*(-?\d+)\s*r\s*([0-5])", t)
    if m:
        return {"tile": m.group(1), "at": (int(m.group(2)), int(m.group(3))), "rotation": int(m.group(4))}
    raise ValueError(f"{text!r} is not a placement; write the face and its entry edge, e.g. `210b C`")


# -- YAML --------------------------------------------------------------------------------

def load_stage(path: str | Path) -> Stage:
    data, lines = yamlio.load(path)
    return stage_from_data(data, lines, str(path))


def loads_stage(text: str, source: str = "<upload>") -> Stage:
    data, lines = yamlio.loads(text, source)
    return stage_from_data(data, lines, source)


def stage_from_data(data, lines, source: str) -> Stage:
    if not isinstance(data, dict):
        raise DesignerError(("the file is empty" if data is None else "this is not a YAML mapping")
                            + ": a stage file is a mapping whose `system:` names its game (dirt, classic, greatrace "
                            "or rallye; dirt when absent, and a DIRT stage needs at least `tiles:`)",
                            where=f"{source}:1", hint="`rally-designer examples` lists the bundled stages of every "
                            "game, e.g. stages/dirt/rally-1/ss1.yaml or stages/rallye/demo-ss1-col-des-essais.yaml")
    data = dict(data)
    system = data.pop("system", None)
    if system is not None and str(system).strip().lower() not in ("dirt", "rallyman-dirt"):
        raise DesignerError(f"this is a {system!r} file, not a Rallyman: DIRT stage", where=f"{source}:1",
                            hint="open it with the game system it names")
    if "stage" in data and "name" not in data:
        data["name"] = data.pop("stage")
    try:
        return Stage(**data)
    except ValidationError as exc:
        problems = yamlio.pydantic_problems(exc)
        raise yamlio.schema_error(source, lines, problems, "stage", hint=_schema_hint(problems)) from None
    except ValueError as exc:  # from the short-form parser
        raise DesignerError(str(exc), where=source) from None


_TILES_HINT = "each tile is written `FACE EDGE`, e.g. `210b C`; see stages/dirt/rally-1/ss1.yaml"


def _schema_hint(problems: list) -> str:
    """The hint for a stage the schema refuses: about the keys that are wrong, not always about tiles."""
    parts = []
    top = [p[0] for p, _ in problems if p and p[0] not in Stage.model_fields and p[0] != "stage"]
    opts = [p[1] for p, _ in problems if len(p) > 1 and p[0] == "options" and p[1] not in Options.model_fields]
    if top:
        parts.append("a stage's keys are " + ", ".join(["stage"] + [k for k in Stage.model_fields if k != "name"]))
    if opts:
        parts.append("the options under `options:` are " + ", ".join(Options.model_fields))
    if any(p and p[0] == "options" and len(p) > 1 and p[1] in Options.model_fields for p, _ in problems):
        parts.append("options take yes/no, except big_attack_failure: achievable, latest or as_laid")
    if any(p and p[0] == "tiles" for p, _ in problems) or not parts:
        parts.append(_TILES_HINT)
    return "; ".join(parts)


def stage_to_data(stage: Stage) -> dict:
    out: dict = {"stage": stage.name, "tileset": stage.tileset}
    if stage.rally:
        out["rally"] = stage.rally.model_dump(exclude_none=True)
    if stage.surface:
        out["surface"] = stage.surface
    if stage.players:
        out["players"] = stage.players
    opts = stage.options.model_dump()
    if opts != Options().model_dump():
        out["options"] = opts
    if stage.start_rotation:
        out["start_rotation"] = stage.start_rotation
    if stage.laps != 1:
        out["laps"] = stage.laps
    if stage.joker_lap is not None:
        out["joker_lap"] = stage.joker_lap
    if stage.copies != 1:
        out["copies"] = stage.copies
    if stage.notes:
        out["notes"] = stage.notes
    tiles = []
    for p in stage.tiles:
        if p.entry is not None and p.at is None and not p.tokens:
            tiles.append(p.short())
        else:
            d = {k: (list(v) if isinstance(v, tuple) else v)
                 for k, v in p.model_dump(exclude_none=True, exclude={"tokens"}).items()}
            if p.tokens:
                d["tokens"] = [{k: (list(v) if isinstance(v, tuple) else v)
                                for k, v in t.model_dump(exclude_none=True, exclude_defaults=True).items()}
                               | {"kind": t.kind} for t in p.tokens]
            tiles.append(d)
    out["tiles"] = tiles
    return out


def dumps_stage(stage: Stage) -> str:
    return yaml.safe_dump(stage_to_data(stage), sort_keys=False, allow_unicode=True, width=100)


def save_stage(stage: Stage, path: str | Path) -> None:
    Path(path).write_text(dumps_stage(stage), encoding="utf-8")


# -- share code ---------------------------------------------------------------------------

def share_code(stage: Stage) -> str:
    """One line that holds the whole stage, e.g. ``RD1/dirt-core/202aA.210bC.205aD/name=SS1``.

    >>> s = Stage(name="Demo", tiles=["202a A", "205a D"])
    >>> share_code(s)
    'RD1/dirt-core/202aA.205aD/name=Demo'
    >>> from_share_code(share_code(s)) == s
    True
    """
    parts = []
    for p in stage.tiles:
        if p.entry is not None and p.at is None:
            parts.append(f"{p.tile}{p.entry}{p.exit or ''}")
        else:
            parts.append(f"{p.tile}@{p.at[0]},{p.at[1]}r{p.rotation}" + (p.entry or ""))
    meta = {"name": stage.name}
    if stage.rally:
        for k, v in stage.rally.model_dump(exclude_none=True).items():
            meta[f"rally.{k}"] = str(v).lower() if isinstance(v, bool) else v
    for k in ("surface", "players", "notes"):
        if getattr(stage, k):
            meta[k] = getattr(stage, k)
    if stage.start_rotation:
        meta["start_rotation"] = stage.start_rotation
    if stage.laps != 1:
        meta["laps"] = stage.laps
    if stage.joker_lap is not None:
        meta["joker_lap"] = stage.joker_lap
    if stage.copies != 1:
        meta["copies"] = stage.copies
    for k, v in stage.options.model_dump().items():
        if v != getattr(Options(), k):
            meta[f"opt.{k}"] = str(v).lower()
    for i, p in enumerate(stage.tiles):       # tokens of tile i: tok.<i> = their JSON
        if p.tokens:
            meta[f"tok.{i}"] = json.dumps([t.model_dump(exclude_none=True, exclude_defaults=True) | {"kind": t.kind}
                                           for t in p.tokens], separators=(",", ":"))
    query = urllib.parse.urlencode(meta, quote_via=urllib.parse.quote)
    return f"{SHARE_PREFIX}/{stage.tileset}/{'.'.join(parts)}/{query}"


def from_share_code(code: str) -> Stage:
    text = code.strip()
    if len(text) > MAX_SHARE_CODE:
        raise DesignerError(f"this share code is {len(text):,} characters long, more than any stage needs "
                            f"({MAX_SHARE_CODE:,})", where="share code", hint="copy the code again, whole and only it")
    bits = text.split("/", 3)
    if len(bits) < 3 or bits[0] != SHARE_PREFIX:
        raise DesignerError("this is not a stage share code", where="share code",
                            hint=f"a share code starts with {SHARE_PREFIX}/ and looks like RD1/dirt-core/202aA.210bC/name=My%20stage")
    tileset, tiles_part = bits[1], bits[2]
    meta = dict(urllib.parse.parse_qsl(bits[3])) if len(bits) > 3 else {}
    tiles = []
    for i, tok in enumerate(t for t in tiles_part.split(".") if t):
        m = re.fullmatch(r"(\d{3}[a-z](?:-\d+)?)([A-F])([A-F])?", tok)
        mp = re.fullmatch(r"(\d{3}[a-z](?:-\d+)?)@(-?\d+),(-?\d+)r([0-5])([A-F])?", tok)
        if m:
            d = {"tile": m.group(1), "entry": m.group(2)}
            if m.group(3):
                d["exit"] = m.group(3)
        elif mp:
            d = {"tile": mp.group(1), "at": (int(mp.group(2)), int(mp.group(3))), "rotation": int(mp.group(4))}
            if mp.group(5):
                d["entry"] = mp.group(5)
        else:
            raise DesignerError(f"tile {i + 1} ({tok!r}) of the share code is not a face and an edge",
                                where="share code", hint="each tile is written like 210bC; was the code cut short?")
        tiles.append(d)
    data: dict = {"name": meta.pop("name", "Shared stage"), "tileset": tileset, "tiles": tiles}
    rally = {k.split(".", 1)[1]: v for k, v in meta.items() if k.startswith("rally.")}
    if rally:
        if "assistance_after" in rally:
            rally["assistance_after"] = rally["assistance_after"] == "true"
        data["rally"] = rally
    opts = {k.split(".", 1)[1]: v == "true" for k, v in meta.items() if k.startswith("opt.")}
    if opts:
        data["options"] = opts
    for k in ("surface", "players", "notes", "start_rotation", "laps", "joker_lap", "copies"):
        if k in meta:
            data[k] = meta[k]
    for k, v in meta.items():
        m = re.fullmatch(r"tok\.(\d+)", k)
        if m and int(m.group(1)) < len(tiles):
            try:
                tiles[int(m.group(1))]["tokens"] = json.loads(v)
            except (ValueError, RecursionError):
                raise DesignerError(f"the tokens of tile {int(m.group(1)) + 1} in the share code cannot be read",
                                    where="share code", hint="was the code cut short?") from None
    try:
        return Stage(**data)
    except ValidationError as exc:
        msgs = "; ".join(f"{yamlio.format_path(p)}: {m}" for p, m in yamlio.pydantic_problems(exc))
        raise DesignerError(f"the share code holds a bad value ({msgs})", where="share code") from None


# -- rallies ------------------------------------------------------------------------------

class Rally(_Model):
    name: str
    stages: list[Stage]
    source: str | None = None


def load_rally(path: str | Path) -> Rally:
    """A rally file lists stage files in order: ``rally: Rally 1`` and ``stages: [ss1.yaml, ...]``."""
    p = Path(path)
    data, lines = yamlio.load(p)
    return rally_from_data(data, lines, p)


def rally_from_data(data, lines, p: Path) -> Rally:
    if not isinstance(data, dict) or "stages" not in data:
        raise DesignerError("a rally file needs `stages:`, a list of stage files in order", where=f"{p}:1")
    if not isinstance(data["stages"], list):
        raise DesignerError("`stages:` must be a list of stage files in order",
                            where=f"{p}:{yamlio.line_of(lines, ('stages',))}", hint="e.g. stages: [ss1.yaml, ss2.yaml]")
    if len(data["stages"]) > MAX_RALLY_STAGES:
        raise DesignerError(f"this rally lists {len(data['stages'])} stages; a rally has at most {MAX_RALLY_STAGES}",
                            where=f"{p}:{yamlio.line_of(lines, ('stages',))}",
                            hint="split it into several rallies (a championship of rallies)")
    stages = []
    for i, ref in enumerate(data["stages"]):
        if isinstance(ref, str):
            target = p.parent / ref
            if is_rally_file(target):
                raise DesignerError(f"stage {i + 1} names {ref!r}, which is a rally (a list of stages), not a stage",
                                    where=f"{p}:{yamlio.line_of(lines, ('stages', i))}",
                                    hint="list the stage files themselves; a rally cannot hold another rally")
            stages.append(load_stage(target))
        elif isinstance(ref, dict):
            stages.append(stage_from_data(ref, lines, f"{p} stage {i + 1}"))
        else:
            raise DesignerError(f"stage {i + 1} must be a file name or a stage", where=f"{p}:{yamlio.line_of(lines, ('stages', i))}")
    return Rally(name=str(data.get("rally") or data.get("name") or p.stem), stages=stages, source=str(p))


def is_rally_file(path: str | Path) -> bool:
    try:
        data, _ = yamlio.load(path)
    except DesignerError:
        return False
    return isinstance(data, dict) and "stages" in data and "tiles" not in data
