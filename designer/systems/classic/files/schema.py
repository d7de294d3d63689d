"""The shapes of the classic Rallyman files (stage, rally, zone box, ruleset) as pydantic models with ranges.

A file is checked against its model before anything reads it, so a wrong type or an absurd value anywhere is
a :class:`~designer.core.errors.SchemaError` listing every ``file:line: path: message``, never an internal error.
The models only type and bound the values; what depends on several values at once (a road's path touching its
ends, a split on the route) is checked by the reader of each file.

>>> check(StageFile, {"stage": "ES1", "route": "X0-4", "players": True}, {}, "es1.yaml", "stage")
Traceback (most recent call last):
...
designer.core.errors.SchemaError: es1.yaml: players: Input should be a valid integer
es1.yaml: players: Input should be a valid integer
hint: see tilesets/classic/README.md for the stage format
"""
from __future__ import annotations

import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import (BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StrictFloat, StrictInt,
                      StrictStr, ValidationError)

from designer.core import yamlio

TYRES = ("asphalt", "snow", "snow2", "gravel", "soft")
ROADS = ("asphalt", "snow", "gravel", "gravel-leader")
ENVIRONMENTS = ("meadow", "earth", "forest", "rocks")
SURFACES = ("asphalt", "snow", "gravel")
STATUSES = ("rulebook", "reference", "assumed", "decided")

MAX_STAGES = 6          # a rally: the course sheet holds three stages, a long evening six
MAX_SPLITS = 16
MAX_NOTES = 100
MAX_TEXT = 2000
MAX_NAME = 120
MAX_DRIVERS = 12


def _name(value: Any) -> Any:
    """A name may be written as a number (``stage: 1``); anything but text or a whole number is refused."""
    if isinstance(value, bool):
        raise ValueError("write a name as text")
    if isinstance(value, int):
        return str(value)
    return value


Name = Annotated[StrictStr, BeforeValidator(_name), Field(min_length=1, max_length=MAX_NAME)]
Text = Annotated[StrictStr, BeforeValidator(_name), Field(max_length=MAX_TEXT)]
Gear = Annotated[StrictInt, Field(ge=1, le=5)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


# -- stages and rallies -------------------------------------------------------------------------------

class SheetRoute(_Model):
    start: Name
    joins: Union[Annotated[list[Name], Field(max_length=16)], Text, None] = None
    finish: Name


Route = Union[Annotated[StrictStr, Field(min_length=1, max_length=MAX_TEXT)], SheetRoute]


class _StageCommon(_Model):
    system: Name | None = None
    zones: Name | None = None
    rules: Name | None = None
    weather: Literal["fixed", "variable"] | None = None
    tyres: Literal[TYRES] | None = None          # type: ignore[valid-type]
    players: Annotated[StrictInt, Field(ge=1, le=6)] | None = None
    assistance: StrictBool | None = None
    leader: StrictBool | None = None
    big_attack: StrictBool | None = None
    sisu: StrictBool | None = None
    demo: StrictBool | None = None
    notes: Annotated[list[Text], Field(max_length=MAX_NOTES)] | None = None
    penalty_seconds: Annotated[StrictInt, Field(ge=0, le=3600)] | None = None


class StageFile(_StageCommon):
    stage: Name | None = None
    name: Name | None = None
    route: Route | None = None
    share: Annotated[StrictStr, Field(min_length=1, max_length=MAX_TEXT)] | None = None
    splits: Annotated[list[Annotated[Union[StrictStr, StrictInt], Field()]], Field(max_length=MAX_SPLITS)] | None = None
    damage_in: Annotated[StrictInt, Field(ge=0, le=4)] | None = None
    soft_sector: Literal["S1", "S2", "S3"] | None = None


def _date(value: Any) -> Any:
    return value.isoformat() if isinstance(value, (datetime.date, datetime.datetime)) else _name(value)


class RallyFile(_StageCommon):
    rally: Name
    date: Annotated[StrictStr, BeforeValidator(_date), Field(max_length=MAX_NAME)] | None = None
    drivers: Annotated[list[Name], Field(max_length=MAX_DRIVERS)] | None = None
    stages: Annotated[list[Union[Name, dict]], Field(min_length=1, max_length=MAX_STAGES)]


# -- zone boxes --------------------------------------------------------------------------------------

CellName = Annotated[StrictStr, Field(min_length=2, max_length=3)]
Cells = Union[Annotated[StrictStr, Field(max_length=MAX_TEXT)], Annotated[list[CellName], Field(max_length=400)]]


class CellFile(_Model):
    env: Literal[ENVIRONMENTS] | None = None      # type: ignore[valid-type]
    bump: Gear | None = None
    ford: StrictBool = False
    half: StrictBool = False
    lanes: Annotated[StrictInt, Field(ge=1, le=3)] = 1
    crossroads: StrictBool = False


class CornerFile(_Model):
    inside: Cells
    note: Gear | None = None
    drift: Cells | None = None
    gear: Gear | None = None
    cut: Cells | None = None
    k: Gear | None = None


class RoadFile(_Model):
    ends: Annotated[list[Annotated[StrictInt, Field(ge=0, le=9)]], Field(min_length=2, max_length=2)]
    path: Cells
    corners: Annotated[list[CornerFile], Field(max_length=100)] | None = None


class FaceFile(_Model):
    env: Literal[ENVIRONMENTS] = "meadow"         # type: ignore[valid-type]
    ends: Annotated[dict[Union[StrictInt, StrictStr], Annotated[StrictStr, Field(max_length=8)]],
                    Field(min_length=1, max_length=10)]
    roads: Annotated[list[RoadFile], Field(min_length=1, max_length=45)]
    cells: Annotated[dict[str, CellFile | None], Field(max_length=400)] | None = None


class ZoneFile(_Model):
    title: Name | None = None
    faces: Annotated[dict[Literal[SURFACES], FaceFile], Field(min_length=1, max_length=2)]   # type: ignore[valid-type]
    damage: dict[Literal[ENVIRONMENTS], Annotated[StrictInt, Field(ge=0, le=5)]] | None = None  # type: ignore


class BoxFile(_Model):
    system: Name | None = None
    box: Name | None = None
    title: Text | None = None
    size: Annotated[StrictInt, Field(ge=3, le=20)] = 8
    demo: StrictBool = False
    notes: Annotated[list[Text], Field(max_length=MAX_NOTES)] | None = None
    zones: Annotated[dict[str, ZoneFile], Field(min_length=1, max_length=26)]


# -- the ruleset ----------------------------------------------------------------------------------

class Param(_Model):
    """One parameter of the ruleset: its value, where it comes from and how sure it is."""
    value: Any
    status: Literal[STATUSES]                     # type: ignore[valid-type]
    source: Annotated[StrictStr, Field(min_length=1, max_length=MAX_TEXT)]


Seconds = Annotated[StrictInt, Field(ge=0, le=600)]
Chance = Annotated[Union[StrictFloat, StrictInt], Field(ge=0, le=1)]
DashCell = tuple[Annotated[StrictInt, Field(ge=0, le=4)], Literal["white", "orange"], StrictBool]


class Bump(_Model):
    at_note: Annotated[StrictInt, Field(ge=1, le=5)]
    one_over: Annotated[StrictInt, Field(ge=1, le=5)]
    two_over: Annotated[StrictInt, Field(ge=1, le=5)]


class CutCard(_Model):
    good: Chance
    dirty: Chance
    puncture: Chance


class Overspeed(_Model):
    loss: Annotated[StrictInt, Field(ge=0, le=4)]


class RuleValues(_Model):
    """The ``value`` of every parameter of ``classic-rules.yaml``, typed and bounded."""
    gears: Annotated[list[StrictInt], Field(min_length=1, max_length=6)]
    gas_dice: Annotated[StrictInt, Field(ge=0, le=4)]
    time_card: Annotated[dict[Annotated[int, Field(ge=1, le=6)], Seconds], Field(min_length=1, max_length=6)]
    loss_of_control_seconds: Seconds
    die_faces: Annotated[StrictInt, Field(ge=1, le=20)]
    hazard_faces: dict[str, Annotated[StrictInt, Field(ge=0, le=20)]]
    hazard_limit: dict[str, Annotated[StrictInt, Field(ge=1, le=10)]]
    dashboards: dict[Literal[TYRES], dict[Literal[ROADS], DashCell]]          # type: ignore[valid-type]
    damage_by_environment: dict[Literal[ENVIRONMENTS], Annotated[StrictInt, Field(ge=0, le=5)]]  # type: ignore
    corner_overspeed: Overspeed
    bump: Bump
    cut_card: CutCard
    drop_seconds: Annotated[list[Annotated[StrictInt, Field(ge=0, le=60)]], Field(min_length=1, max_length=10)]
    time_control_penalty_step: Annotated[StrictInt, Field(ge=1, le=60)]
    seconds_per_turn_at_table: Annotated[StrictInt, Field(ge=1, le=3600)]
    soft_tyres_on_snow: Annotated[StrictInt, Field(ge=1, le=10)]
    gravel_tyres_on_snow: Annotated[StrictInt, Field(ge=1, le=10)]
    spin_chance: Annotated[float, Field(ge=0, le=1)]
    drop_seconds_after_marks: Annotated[StrictInt, Field(ge=0, le=10)]
    drop_seconds_bank_cap: Annotated[StrictInt, Field(ge=0, le=10)]
    sisu_after: Literal["stop", "continue"]
    spare_wheel_seconds: Seconds
    retirement_seconds: Annotated[StrictInt, Field(ge=0, le=36000)]
    deliberate_loss: StrictBool


def check(model: type[_Model], data: Any, lines: dict, source: str, what: str, at: tuple = (),
          hint: str | None = None, rename: dict | None = None) -> Any:
    """``data`` read as ``model``; a SchemaError naming every bad value (``file:line: path: message``).

    ``rename`` maps the first key of a problem's path to the path in the file (a ruleset's ``gears`` is
    written at ``gears.value``).
    """
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = []
        for path, msg in yamlio.pydantic_problems(exc):
            if "[key]" in path:
                path, msg = tuple(x for x in path if x != "[key]"), f"this key is not allowed here: {msg}"
            if rename and path and path[0] in rename:
                path = rename[path[0]] + tuple(path[1:])
            problems.append((at + tuple(path), msg))
        err = yamlio.schema_error(source, lines, problems[:20], what,
                                  hint or f"see tilesets/classic/README.md for the {what} format")
        path, msg = problems[0]
        line = yamlio.line_of(lines, path)
        err.where = f"{source}:{line}" if line else source
        err.message = f"{yamlio.format_path(path)}: {msg}" + (
            f" (and {len(problems) - 1} more problem{'s' if len(problems) > 2 else ''} in this {what})"
            if len(problems) > 1 else "")
        err.args = (err.message,)
        raise err from None
