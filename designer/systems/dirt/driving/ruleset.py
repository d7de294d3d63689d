"""Rallyman: DIRT ruleset data: gears and time cards, dice pools per surface, hazard faces, the hazard
limit and the optional rules, read from ``tilesets/dirt-rules.yaml`` where every value has a status and a source.

>>> rules = load_ruleset()
>>> rules.seconds(4), rules.hazard_limit
(20, 3)
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from designer.core import yamlio
from designer.core.errors import DesignerError

RULES_FILE = "dirt-rules.yaml"
# Parameters of the same file read by another module (the costs of mishaps under the dice: .mishaps).
READ_ELSEWHERE = frozenset({"card_backs", "sisu_card", "crash_damage_marks", "damage_tokens", "cut_tokens",
                            "spare_wheel_seconds", "abandon_seconds", "expected_bounds"})
DIE_KINDS = ("gear", "gas", "brake", "leader")
STATUSES = ("rulebook", "reference", "assumed", "decided")


# -- the ruleset data ----------------------------------------------------------------------

class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Pool(_Model):
    """Dice a car may use in one turn (one dashboard column). ``gear`` counts gear dice of any value."""
    gear: int = Field(ge=0, le=6)
    gas: int = Field(ge=0, le=7)
    brake: int = Field(ge=0, le=7)
    leader: int = Field(ge=0, le=7)


class Options(_Model):
    """Optional rules: leader dice (p. 8, p. 24), canon start and red zone (p. 23 'Règles avancées')."""
    leader_dice: bool = True
    canon_start: bool = False
    red_zone: bool = False
    big_attack_failure: Literal["achievable", "latest", "as_laid"] = "achievable"   # a failed Big Attack's loss


class _Values(_Model):
    gears: list[int]
    time_card: dict[int, int]
    loss_of_control_seconds: int = Field(ge=0)
    box_dice: Pool
    dashboards: dict[str, Pool]
    die_faces: int = Field(ge=1)
    hazard_faces: dict[str, int]
    hazard_limit: int = Field(ge=1)
    max_brake_skip: int = Field(ge=0, le=5)
    options: Options
    jump_gas_counts_gear: bool

    @field_validator("gears")
    @classmethod
    def _gears(cls, v):
        if v != list(range(1, len(v) + 1)) or not 1 <= len(v) <= 6:
            raise ValueError("gears must be 1, 2, ... up to at most 6, in order (one black die per gear)")
        return v

    @model_validator(mode="after")
    def _consistent(self):
        missing = [g for g in self.gears if g not in self.time_card]
        if missing:
            raise ValueError(f"time_card has no seconds for gear {', '.join(map(str, missing))}")
        need = {f"gear{g}" for g in self.gears} | {"gas", "brake", "leader"}
        if set(self.hazard_faces) != need:
            extra = sorted(set(self.hazard_faces) - need)
            lack = sorted(need - set(self.hazard_faces))
            raise ValueError("hazard_faces needs exactly " + ", ".join(sorted(need))
                             + (f"; missing {', '.join(lack)}" if lack else "")
                             + (f"; unknown {', '.join(extra)}" if extra else ""))
        for die, n in self.hazard_faces.items():
            if not 0 <= n <= self.die_faces:
                raise ValueError(f"hazard_faces.{die} = {n}: a die has {self.die_faces} faces")
        if "gravel" not in self.dashboards:
            raise ValueError("dashboards needs a `gravel` column (the core box's surface)")
        for name, pool in self.dashboards.items():
            for kind in DIE_KINDS:
                if getattr(pool, kind) > getattr(self.box_dice, kind):
                    raise ValueError(f"dashboards.{name}.{kind} = {getattr(pool, kind)} but the box holds only "
                                     f"{getattr(self.box_dice, kind)} {kind} dice")
        if self.box_dice.gear != len(self.gears):
            raise ValueError(f"box_dice.gear is {self.box_dice.gear} but there are {len(self.gears)} gears")
        return self


@dataclass(frozen=True)
class Ruleset:
    """The parameters of the DIRT rules (see ``tilesets/dirt-rules.yaml``) plus its optional rules.

    Change a value with :meth:`replace`, e.g. ``rules.replace(hazard_faces={**rules.hazard_faces, "gear3": 1})``.
    """
    name: str
    title: str
    gears: tuple[int, ...]
    time_card: dict[int, int]
    loss_of_control_seconds: int
    box_dice: Pool
    dashboards: dict[str, Pool]
    die_faces: int
    hazard_faces: dict[str, int]
    hazard_limit: int
    max_brake_skip: int
    options: Options
    jump_gas_counts_gear: bool
    sources: dict[str, dict[str, str]] = field(default_factory=dict, compare=False)
    path: str | None = field(default=None, compare=False)

    @functools.cached_property
    def key(self) -> tuple:
        """A hashable summary of every value that changes the moves and their cost (for caches)."""
        return (self.gears, tuple(sorted(self.time_card.items())), self.box_dice,
                tuple(sorted(self.dashboards.items())), self.die_faces, tuple(sorted(self.hazard_faces.items())),
                self.hazard_limit, self.max_brake_skip, self.options, self.jump_gas_counts_gear)

    @property
    def top_gear(self) -> int:
        return self.gears[-1]

    def seconds(self, gear: int) -> int:
        """Seconds of the time card for a turn ending in ``gear``."""
        try:
            return self.time_card[gear]
        except KeyError:
            raise DesignerError(f"no time card for gear {gear}", hint="gears are "
                                + ", ".join(map(str, self.gears))) from None

    def hazard_chance(self, die: str) -> float:
        """Chance that one die shows a hazard face, e.g. ``hazard_chance("gear3")``."""
        return self.hazard_faces[die] / self.die_faces

    def pool(self, surface: str | None = None, leader: bool = False) -> Pool:
        """The dashboard column for a surface; the leader column on gravel when leader dice are in play."""
        surface = surface or "gravel"
        if leader and self.options.leader_dice and f"{surface}-leader" in self.dashboards:
            return self.dashboards[f"{surface}-leader"]
        if surface not in self.dashboards:
            raise DesignerError(f"the ruleset has no dashboard column for surface {surface!r}",
                                hint=f"columns: {', '.join(sorted(self.dashboards))}")
        return self.dashboards[surface]

    def loss_chance(self, dice: Iterable[str], jump_dice: Iterable[str] = (), canon: bool = False) -> float:
        """Chance that rolling ``dice`` ends in a loss of control.

        ``dice`` are counted towards the hazard limit; a hazard on one of ``jump_dice`` (a jump taken
        one gear above its value) is a loss of control by itself; ``canon``: the first die is a
        canon-start gear 2 whose hazard ends the turn without a loss of control (p. 23).

        >>> round(load_ruleset().loss_chance(["gas", "gas", "gear1"]), 4)  # (1/6)**3
        0.0046
        """
        return _loss_chance(tuple(sorted(self.hazard_faces[d] for d in dice)),
                            tuple(sorted(self.hazard_faces[d] for d in jump_dice)),
                            self.hazard_faces.get("gear2", 0) if canon else None,
                            self.die_faces, self.hazard_limit)

    def replace(self, **changes) -> "Ruleset":
        """A copy with some values changed, validated like the file."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name not in ("name", "title", "sources", "path")}
        data.update(changes)
        data["gears"] = list(data["gears"])
        try:
            values = _Values(**data)
        except ValidationError as exc:
            msgs = "; ".join(f"{yamlio.format_path(p)}: {m}" for p, m in yamlio.pydantic_problems(exc))
            raise DesignerError(f"bad ruleset value ({msgs})") from None
        return _from_values(values, self.name, self.title, self.sources, self.path)

    def with_options(self, options: Any = None, **flags) -> "Ruleset":
        """A copy with optional rules switched: an Options-like object (e.g. a stage's ``options``) or flags."""
        current = self.options.model_dump()
        if options is not None:
            src = options if isinstance(options, dict) else {k: getattr(options, k) for k in current
                                                             if hasattr(options, k)}
            current.update({k: v if isinstance(current[k], str) else bool(v) for k, v in src.items() if k in current})
        for k, v in flags.items():
            if k not in current:
                raise DesignerError(f"unknown optional rule {k!r}", hint=f"known: {', '.join(current)}")
            current[k] = v if isinstance(current[k], str) else bool(v)
        return dataclasses.replace(self, options=Options(**current))

    def to_dict(self) -> dict:
        return {
            "ruleset": self.name, "title": self.title, "gears": list(self.gears),
            "time_card": {str(k): v for k, v in self.time_card.items()},
            "loss_of_control_seconds": self.loss_of_control_seconds,
            "box_dice": self.box_dice.model_dump(),
            "dashboards": {k: v.model_dump() for k, v in self.dashboards.items()},
            "die_faces": self.die_faces, "hazard_faces": dict(self.hazard_faces),
            "hazard_limit": self.hazard_limit, "max_brake_skip": self.max_brake_skip,
            "options": self.options.model_dump(), "jump_gas_counts_gear": self.jump_gas_counts_gear,
            "sources": self.sources,
        }


def _from_values(v: _Values, name: str, title: str, sources: dict, path: str | None) -> Ruleset:
    return Ruleset(name=name, title=title, gears=tuple(v.gears), time_card=dict(v.time_card),
                   loss_of_control_seconds=v.loss_of_control_seconds, box_dice=v.box_dice,
                   dashboards=dict(v.dashboards), die_faces=v.die_faces, hazard_faces=dict(v.hazard_faces),
                   hazard_limit=v.hazard_limit, max_brake_skip=v.max_brake_skip, options=v.options,
                   jump_gas_counts_gear=v.jump_gas_counts_gear, sources=sources, path=path)


def rules_path(name: str = RULES_FILE) -> Path:
    """Where a parameter file is (by default the ruleset ``dirt-rules.yaml``): the first in the tileset folders."""
    from designer.systems.dirt.board.tileset import tileset_dirs
    for d in tileset_dirs():
        p = d / name
        if p.is_file():
            return p
    raise DesignerError(f"no {name} found", hint="it ships in the tilesets/ folder; "
                        "set RALLY_TILESETS to a folder holding it")


def load_parameter_file(path: str | Path | None, cache: dict, build) -> Any:
    """``build(data, lines, source)`` of a parameter file (default :func:`rules_path`), kept in ``cache`` by the
    file's resolved path and modification time, so a file is read once until it changes."""
    p = Path(path) if path is not None else rules_path()
    try:
        key = (str(p.resolve()), p.stat().st_mtime)
    except OSError:
        key = None
    if key and key in cache:
        return cache[key]
    data, lines = yamlio.load(p)
    out = build(data, lines, str(p))
    if key:
        cache[key] = out
    return out


def read_parameter(key: str, item: Any, problems: list, values: dict, sources: dict) -> bool:
    """Check one parameter written ``{value, status, source}``: its value goes to ``values[key]`` and its status
    and source to ``sources[key]``; what is wrong is added to ``problems`` as ``(path, message)``. False when
    there is no value to take."""
    if not isinstance(item, dict) or "value" not in item:
        problems.append(((key,), "write it as {value: ..., status: ..., source: ...}"))
        return False
    extra = set(item) - {"value", "status", "source"}
    if extra:
        problems.append(((key,), f"unexpected keys {', '.join(sorted(extra))}; only value, status, source"))
    if item.get("status") not in STATUSES:
        problems.append(((key, "status"), "status must be rulebook, reference, assumed or decided"))
    if not item.get("source"):
        problems.append(((key, "source"), "every value needs its source (where it comes from)"))
    values[key] = item["value"]
    sources[key] = {"status": str(item.get("status")), "source": str(item.get("source", ""))}
    return True


_CACHE: dict[tuple[str, float], Ruleset] = {}


def load_ruleset(path: str | Path | None = None) -> Ruleset:
    """Load a DIRT ruleset file (default: ``tilesets/dirt-rules.yaml``), reporting every problem at once.

    Every parameter is written ``{value, status, source}``; see the file's header.
    """
    return load_parameter_file(path, _CACHE, _ruleset_from)


def _ruleset_from(data, lines, source: str):
    if not isinstance(data, dict):
        raise DesignerError("a ruleset file is a YAML mapping of parameters", where=f"{source}:1",
                            hint=f"see tilesets/{RULES_FILE}")
    problems: list[tuple[tuple, str]] = []
    values: dict[str, Any] = {}
    sources: dict[str, dict[str, str]] = {}
    known = set(_Values.model_fields)
    for k, item in data.items():
        if k in ("ruleset", "title") or k in READ_ELSEWHERE:
            continue
        if k not in known:
            problems.append(((k,), f"unknown parameter; known: {', '.join(sorted(known))}"))
            continue
        read_parameter(k, item, problems, values, sources)
    for k in sorted(known - set(values)):
        if not any(path_[0] == k for path_, _ in problems):
            problems.append(((k,), "missing parameter"))
    parsed = None
    if not problems:
        try:
            parsed = _Values(**values)
        except ValidationError as exc:
            problems += [((p_[0], "value") + tuple(p_[1:]) if p_ else p_, m)
                         for p_, m in yamlio.pydantic_problems(exc)]
    if problems or parsed is None:
        raise yamlio.schema_error(source, lines, problems, "ruleset",
                                  hint=f"compare with tilesets/{RULES_FILE}")
    rules = _from_values(parsed, str(data.get("ruleset", "dirt")), str(data.get("title", "")), sources, source)
    return rules


# -- hazards -------------------------------------------------------------------------------

_LOSS_CACHE: dict[tuple, float] = {}


def _loss_chance(counted: tuple[int, ...], jumps: tuple[int, ...], canon: int | None,
                 faces: int, limit: int) -> float:
    key = (counted, jumps, canon, faces, limit)
    hit = _LOSS_CACHE.get(key)
    if hit is not None:
        return hit
    dist = [0.0] * limit          # chance of k hazards so far (k < limit), the turn still going
    dist[0] = 1.0 if canon is None else 1.0 - canon / faces
    lost = 0.0
    for h in jumps:
        p = h / faces
        lost += sum(dist) * p
        dist = [x * (1.0 - p) for x in dist]
    for h in counted:
        p = h / faces
        lost += dist[-1] * p
        dist = [dist[0] * (1.0 - p)] + [dist[k] * (1.0 - p) + dist[k - 1] * p for k in range(1, limit)]
    if len(_LOSS_CACHE) < 200_000:
        _LOSS_CACHE[key] = lost
    return lost


