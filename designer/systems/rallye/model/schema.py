"""The shapes of the Rallye files (ruleset, deck, stage, rally) as pydantic models with ranges.

Every file is checked against its model before any of its values is used: a wrong type, a number out of its
range, an unknown key or a list longer than the game could need is reported as ``file:line: path: message``
(exit 2 on the command line), never met later as an internal error. The ranges are wide enough for any deck
or house rule, and narrow enough that no file can ask for absurd work (a billion copies of a card, a stage of
100,000 cards, a rally of 2,000 stages).

What the models do not judge (a width that the deck does not list, a speed off the 20 km/h steps) is checked
by the loaders themselves, with the same kind of message.

>>> check(StageFile, {"stage": "SS1", "cards": [1, 2], "players": True}, {}, "ss1.yaml", "stage")
Traceback (most recent call last):
...
designer.core.errors.SchemaError: 1 problem in this stage
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from designer.core import yamlio

# Caps on what a file may ask for (the game: 78 section cards, 80 action cards, 12 cards a stage).
MAX_SECTIONS = 500
MAX_ACTIONS = 200
MAX_COPIES = 100
MAX_TYPES = 200
MAX_STAGE_CARDS = 30            # a ruleset's stage length; a stage file may list up to MAX_STAGE_LIST
MAX_STAGE_LIST = 40
MAX_RALLY_STAGES = 30
MAX_SPEED = 1000
MAX_TABLE_SIDE = 20
MAX_TEXT = 2000

Status = Literal["rulebook", "reference", "assumed", "decided"]
Speed = Annotated[int, Field(ge=0, le=MAX_SPEED)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _name(v: Any, what: str, longest: int = 120) -> Any:
    if isinstance(v, bool) or not isinstance(v, (str, int)):
        raise ValueError(f"{what} is a word or a number, not {type(v).__name__}")
    if isinstance(v, str) and not 0 < len(v.strip()) <= longest:
        raise ValueError(f"{what} is 1 to {longest} characters long")
    if isinstance(v, int) and not 0 <= v < 10 ** 9:
        raise ValueError(f"{what} as a number is from 0 to 999,999,999")
    return v


# -- the ruleset ---------------------------------------------------------------------------------------


def _param(kind: Any) -> type[BaseModel]:
    class Param(_Model):
        value: kind
        status: Status
        source: str = Field(default="", max_length=MAX_TEXT)
    return Param


class _TableCards(_Model):
    columns: int = Field(ge=1, le=MAX_TABLE_SIDE)
    rows: int = Field(ge=1, le=MAX_TABLE_SIDE)


class _TableMinutes(_Model):
    draft_seconds_per_card: float = Field(ge=0, le=3600)
    reconnaissance_minutes: float = Field(ge=0, le=600)
    round_seconds: float = Field(ge=0, le=3600)
    round_seconds_per_player: float = Field(ge=0, le=3600)
    card_seconds: float = Field(0, ge=0, le=3600)
    bought_card_seconds: float = Field(0, ge=0, le=3600)
    reshuffle_seconds: float = Field(0, ge=0, le=3600)
    spin_seconds: float = Field(0, ge=0, le=3600)


class _TurnQuarters(_Model):
    none: int = Field(ge=0, le=1)
    yellow: int = Field(ge=0, le=1)
    orange: int = Field(ge=0, le=1)
    red: int = Field(ge=0, le=1)


class _Resolution(_Model):
    model_config = ConfigDict(extra="allow", strict=True, frozen=True)
    wheel_right: dict[str, Any] = Field(max_length=60)
    wheel_wrong: dict[str, Any] = Field(max_length=60)
    above_top: Literal["spin"] = "spin"


class _HiddenBacks(_Model):
    prior: Literal["ranges", "deck"]
    remember_backs: bool


class _Drivers(_Model):
    buy_below_cards: int = Field(ge=0, le=20)
    keep_for_corners: bool


class RulesetFile(_Model):
    system: Optional[str] = None
    ruleset: Optional[str] = Field(default=None, max_length=120)
    title: Optional[str] = Field(default=None, max_length=MAX_TEXT)
    note: Optional[str] = Field(default=None, max_length=MAX_TEXT)
    speed_step: _param(Annotated[int, Field(ge=1, le=200)])
    speed_max: _param(Annotated[int, Field(ge=1, le=MAX_SPEED)])
    solo_seconds_at_zero: _param(Annotated[int, Field(ge=1, le=1000)])
    spin_penalty_seconds: _param(Annotated[int, Field(ge=0, le=1000)])
    spin_stress_cards: _param(Annotated[int, Field(ge=0, le=24)])
    spin_timed_speed: _param(Speed)
    speed_after_spin: _param(Speed)
    start_speed: _param(Speed)
    speed_carries_over: _param(bool)
    hand_size: _param(Annotated[int, Field(ge=1, le=20)])
    max_cards_per_turn: _param(Annotated[int, Field(ge=1, le=20)])
    starting_set_size: _param(Annotated[int, Field(ge=1, le=MAX_ACTIONS)])
    buy_costs: _param(Annotated[list[Annotated[int, Field(ge=0, le=100)]], Field(max_length=10)])
    solo_leader_stress: _param(bool)
    stage_cards: _param(Annotated[int, Field(ge=1, le=MAX_STAGE_CARDS)])
    draft_piles: _param(Annotated[int, Field(ge=1, le=20)])
    multiplayer_step_seconds: _param(Annotated[int, Field(ge=0, le=100)])
    multiplayer_divisor_every: _param(Annotated[int, Field(ge=1, le=1000)])
    hard_severities: _param(Annotated[list[Literal["yellow", "orange", "red"]], Field(max_length=3)])
    turn_quarters: _param(_TurnQuarters)
    table_cards: _param(_TableCards)
    table_minutes: _param(_TableMinutes)
    resolution: _param(_Resolution)
    # added later; a ruleset without them takes the bundled defaults
    hidden_backs: Optional[_param(_HiddenBacks)] = None
    drivers: Optional[_param(_Drivers)] = None
    draft_reshuffles: Optional[_param(Annotated[int, Field(ge=0, le=100)])] = None


# -- the deck --------------------------------------------------------------------------------------------


class _Type(_Model):
    type: Any
    width: str = Field(max_length=60)
    surface: str = Field(max_length=60)
    severity: str = Field(max_length=20)
    safety: list[Speed] = Field(min_length=2, max_length=2)
    top: list[Speed] = Field(min_length=2, max_length=2)

    @field_validator("type")
    @classmethod
    def _type(cls, v):
        return _name(v, "a type's name", 80)


class _Section(_Model):
    id: Any
    type: Any = None
    width: Optional[str] = Field(default=None, max_length=60)
    surface: Optional[str] = Field(default=None, max_length=60)
    severity: Optional[str] = Field(default=None, max_length=20)
    direction: Optional[str] = Field(default=None, max_length=20)
    safety: Speed
    top: Speed
    exit: Optional[str] = Field(default=None, max_length=20)
    tables: Optional[dict[str, Any]] = None
    note: Optional[str] = Field(default=None, max_length=MAX_TEXT)

    @field_validator("id")
    @classmethod
    def _id(cls, v):
        return _name(v, "a card number", 20)

    @field_validator("type")
    @classmethod
    def _type(cls, v):
        return None if v is None else _name(v, "a type's name", 80)


class _Action(_Model):
    id: Any
    acceleration: int = Field(ge=1, le=MAX_SPEED)
    steering: list[str] = Field(default_factory=list, max_length=12)
    owner: str = "start"
    count: int = Field(default=1, ge=1, le=MAX_COPIES)

    @field_validator("id")
    @classmethod
    def _id(cls, v):
        return _name(v, "an action card's id", 20)


class _Stress(_Model):
    count: int = Field(ge=0, le=500)


class _DeckResolution(_Model):
    value: dict[str, Any]
    status: Status = "assumed"
    source: str = Field(default="", max_length=MAX_TEXT)


class DeckFile(_Model):
    system: Optional[str] = None
    deck: Any
    title: Optional[Any] = None
    demo: bool = False
    ruleset: Optional[str] = Field(default=None, max_length=120)
    note: Optional[str] = Field(default=None, max_length=MAX_TEXT)
    author: Optional[str] = Field(default=None, max_length=200)
    widths: Optional[list[Annotated[str, Field(min_length=1, max_length=60)]]] = Field(default=None, max_length=20)
    surfaces: Optional[list[Annotated[str, Field(min_length=1, max_length=60)]]] = Field(default=None, max_length=20)
    types: Optional[list[_Type]] = Field(default=None, max_length=MAX_TYPES)
    sections: list[_Section] = Field(min_length=1, max_length=MAX_SECTIONS)
    actions: list[_Action] = Field(min_length=1, max_length=MAX_ACTIONS)
    stress: Optional[_Stress] = None
    resolution: Optional[_DeckResolution] = None

    @field_validator("deck")
    @classmethod
    def _deck(cls, v):
        return _name(v, "the deck's name", 80)


CardId = Annotated[Any, AfterValidator(lambda v: _name(v, "a card number", 20))]


# -- stages and rallies ------------------------------------------------------------------------------------


class _Draft(_Model):
    seed: int = Field(default=1, ge=-(2 ** 31), le=2 ** 31)
    players: Optional[int] = Field(default=None, ge=1, le=4)
    policy: Literal["random", "fast", "slow"] = "random"


class StageFile(_Model):
    system: Optional[str] = None
    stage: Any = None
    name: Any = None
    deck: str = Field(default="rallye-demo", min_length=1, max_length=200)
    players: Any = None
    cards: Optional[list[CardId]] = Field(default=None, max_length=MAX_STAGE_LIST)
    draft: Optional[_Draft] = None
    note: Optional[str] = Field(default=None, max_length=MAX_TEXT)

    @field_validator("stage", "name")
    @classmethod
    def _stage(cls, v):
        return None if v is None else _name(v, "the stage's name", 200)

    @field_validator("players")
    @classmethod
    def _players(cls, v):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 4):
            raise ValueError(f"Rallye is for 1 to 4 drivers, not {v!r}")
        return v


class RallyFile(_Model):
    system: Optional[str] = None
    rally: Any
    stages: list[Any] = Field(min_length=1, max_length=MAX_RALLY_STAGES)
    note: Optional[str] = Field(default=None, max_length=MAX_TEXT)

    @field_validator("rally")
    @classmethod
    def _rally(cls, v):
        return _name(v, "the rally's name", 200)


def _problems(exc: ValidationError, prefix: tuple) -> list[tuple[tuple, str]]:
    """(path, message) pairs in the project's words, each saying what was found."""
    out = []
    for err in exc.errors():
        loc = tuple(p for p in err.get("loc", ()) if not (isinstance(p, str) and p.startswith("function-")))
        message = err.get("msg", "invalid value")
        if message.startswith("Value error, "):
            message = message[len("Value error, "):]
        kind = err.get("type", "")
        if kind == "extra_forbidden":
            message = "this key is not part of the format (a typo?)"
        elif kind == "missing":
            message = "missing: this key is needed"
        else:
            message = message.replace("Input should be", "expected")
            found = err.get("input")
            if not isinstance(found, (dict, list)) and kind not in ("value_error", "too_long", "too_short"):
                message += f", not {str(found)[:40]!r}" if isinstance(found, str) else f", not {found!r}"
            elif isinstance(found, (dict, list)) and kind not in ("value_error", "too_long", "too_short"):
                message += f", not a {'mapping' if isinstance(found, dict) else 'list'}"
        out.append((prefix + loc, message))
    return out


def check(model: type[BaseModel], data: Any, lines: dict, source: str, what: str, prefix: tuple = (),
          hint: str | None = None) -> BaseModel:
    """``data`` checked against ``model``: the model, or a SchemaError listing every problem with its line."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        found = sorted(_problems(exc, prefix), key=lambda pm: yamlio.line_of(lines, pm[0]) or 0)
        raise yamlio.schema_error(source, lines, found, what,
                                  hint=hint or "see tilesets/rallye/README.md for the format") from None
