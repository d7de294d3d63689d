"""The types and ranges of The Great Race's files (ruleset, board with its bag, race), checked before use.

Every file is validated against these pydantic models first; a wrong type or a value out of range is a
:class:`~designer.core.errors.SchemaError` with ``file:line`` for each problem (see
:func:`designer.core.yamlio.schema_error`), never an error deeper in the analysis. The ranges are also the
caps on the work a file can ask for: board size, bag counts, gauge maxima (the route search walks every
state of fuel, engine and chassis).

>>> check(Race, {"race": "r", "board": "demo-frontier", "start": "A", "finish": "B", "players": True},
...       {}, "race.yaml", "race")  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
SchemaError: race.yaml: 1 problem in this race
"""
from __future__ import annotations

from typing import Any, Generic, Literal, Optional, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr, ValidationError
from pydantic import field_validator, model_validator

from designer.core import yamlio

STATUSES = ("rulebook", "reference", "assumed", "decided")

# Caps: what one file may ask of the analysis.
MAX_COLUMNS = 26
MAX_ROWS = 40
MAX_CITIES = 120
MAX_TRANSPORTS = 200
MAX_BANDS = 40
MAX_TERRAINS = 40
MAX_TILES_PER_TERRAIN = 500
MAX_BAG = 2000
MAX_FUEL_GAUGE = 30
MAX_MECH_GAUGE = 12
MAX_PRICE = 10_000
MAX_MONEY = 100_000
MAX_CARDS = 20
MAX_NAME = 120

Name = Union[StrictStr, StrictInt]
T = TypeVar("T")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# -- ruleset ---------------------------------------------------------------------------------

class Param(_Model, Generic[T]):
    """One parameter of the ruleset: its value, where it comes from and how sure it is."""
    value: T
    status: Literal["rulebook", "reference", "assumed", "decided"]
    source: StrictStr = ""


class Prices(_Model):
    city: StrictInt = Field(ge=0, le=MAX_PRICE)
    elsewhere: StrictInt = Field(ge=0, le=MAX_PRICE)

    @model_validator(mode="after")
    def _city_not_dearer(self):
        if self.city > self.elsewhere:
            raise ValueError("the city price must not be above the price elsewhere (cities are where a car "
                             "buys cheaply)")
        return self


class StartMoney(_Model):
    others: StrictInt = Field(ge=0, le=MAX_MONEY)
    last_player: StrictInt = Field(ge=0, le=MAX_MONEY)


class Bonus(_Model):
    first: StrictInt = Field(ge=0, le=MAX_PRICE)
    second: StrictInt = Field(ge=0, le=MAX_PRICE)
    two_players_first_only: StrictBool = True


class Prestige(_Model):
    arrival: list[StrictInt] = Field(max_length=5)
    per_gauge_level: StrictInt = Field(ge=0, le=100)
    francs_per_point: StrictInt = Field(ge=1, le=MAX_MONEY)


class Gauges(_Model):
    fuel: StrictInt = Field(ge=1, le=MAX_FUEL_GAUGE)
    engine: StrictInt = Field(ge=1, le=MAX_MECH_GAUGE)
    chassis: StrictInt = Field(ge=1, le=MAX_MECH_GAUGE)


class MedianCity(_Model):
    cards: StrictInt = Field(ge=0, le=9)


class Rules(_Model):
    """The parameters of ``tilesets/greatrace/greatrace-rules.yaml``."""
    ruleset: Optional[Name] = None
    title: Optional[StrictStr] = None
    system: Optional[StrictStr] = None
    fuel_price: Param[Prices]
    fuel_bought_only_at_action_start: Param[StrictBool] = Param[StrictBool](value=True, status="rulebook")
    repair_price: Param[Prices]
    city_entry_fuel: Param[StrictInt]
    risk_zone_extra_fuel: Param[StrictInt]
    danger_mechanic: Param[StrictInt]
    transport_card_discount: Param[StrictInt]
    funding_scale: Param[dict[StrictStr, StrictInt]]
    funding_assistants: Optional[Param[StrictInt]] = None     # older rulesets: nothing reads it now
    assistants_per_round: Param[StrictInt]
    scout_tiles: Param[StrictInt]
    start_money: Param[StartMoney]
    progression_bonus: Optional[Param[Bonus]] = None
    prestige: Optional[Param[Prestige]] = None
    gauge_max: Param[Gauges]
    median_city: Param[MedianCity]
    chassis_floor: Param[StrictInt]
    table_minutes_per_player_round: Param[Union[StrictInt, StrictFloat]]
    trade_off_slack: Optional[Param[Union[Literal["complete"], StrictInt]]] = None
    open_space_cost: Optional[Param[Literal["expected_rounded_up"]]] = None

    @field_validator("trade_off_slack")
    @classmethod
    def _slack(cls, p):
        if p is not None and p.value != "complete" and not 0 <= p.value <= 3:
            raise ValueError(f"value {p.value} is out of range: write 'complete' or 0 to 3 actions")
        return p

    @field_validator("city_entry_fuel", "risk_zone_extra_fuel", "danger_mechanic")
    @classmethod
    def _small(cls, p):
        if not 0 <= p.value <= 20:
            raise ValueError(f"value {p.value} is out of range: write a whole number from 0 to 20")
        return p

    @field_validator("transport_card_discount")
    @classmethod
    def _discount(cls, p):
        if not 1 <= p.value <= MAX_PRICE:
            raise ValueError(f"value {p.value} is out of range: a TRANSPORT card takes 1 to {MAX_PRICE} F off a fare "
                             "(the rulebook: 50)")
        return p

    @field_validator("assistants_per_round")
    @classmethod
    def _assistants(cls, p):
        if not 1 <= p.value <= 10:
            raise ValueError(f"value {p.value} is out of range: a player has 1 to 10 assistants a round "
                             "(the rulebook: 5)")
        return p

    @field_validator("scout_tiles")
    @classmethod
    def _scout(cls, p):
        if not 1 <= p.value <= 10:
            raise ValueError(f"value {p.value} is out of range: a scout draws 1 to 10 tiles (the rulebook: 2)")
        return p

    @field_validator("chassis_floor")
    @classmethod
    def _floor(cls, p):
        if not 0 <= p.value <= MAX_MECH_GAUGE:
            raise ValueError(f"value {p.value} is out of range: write a whole number from 0 to {MAX_MECH_GAUGE}")
        return p

    @field_validator("table_minutes_per_player_round")
    @classmethod
    def _minutes(cls, p):
        if not 0 <= p.value <= 120:
            raise ValueError(f"value {p.value} is out of range: write minutes from 0 to 120")
        return p

    @field_validator("funding_scale")
    @classmethod
    def _scale(cls, p):
        keys = sorted(p.value)
        if not keys or any(not k.isdigit() for k in keys) or sorted(int(k) for k in keys) != list(
                range(1, len(keys) + 1)) or len(keys) > 10:
            raise ValueError("write the francs for 1, 2, 3 ... assistants (at most 10), e.g. {1: 10, 2: 20, 3: 40}")
        amounts = [p.value[str(k)] for k in range(1, len(keys) + 1)]
        if any(not 0 <= a <= MAX_PRICE for a in amounts) or amounts != sorted(amounts):
            raise ValueError(f"the francs must grow with the assistants and stay within 0..{MAX_PRICE}")
        return p

    @model_validator(mode="after")
    def _consistent(self):
        n = self.funding_assistants.value if self.funding_assistants is not None else 1
        if not 1 <= n <= len(self.funding_scale.value):
            raise ValueError(f"funding_assistants is {n}: write 1 to {len(self.funding_scale.value)} "
                             "(a number of the funding scale)")
        if n > self.assistants_per_round.value:
            raise ValueError(f"funding_assistants is {n} but a player has {self.assistants_per_round.value} "
                             "assistants a round")
        return self


# -- board -------------------------------------------------------------------------------------

class City(_Model):
    name: Name
    at: StrictStr
    cards: StrictInt = Field(1, ge=0, le=9)
    purple: StrictBool = False
    median: StrictBool = False


class Transport(_Model):
    from_: Name = Field(alias="from")
    to: Name
    mode: Literal["sea", "air"] = "sea"
    fare: StrictInt = Field(ge=0, le=MAX_PRICE)


class Band(_Model):
    name: Optional[Name] = None
    columns: Optional[list[StrictStr]] = Field(None, min_length=2, max_length=2)
    rows: Optional[list[StrictInt]] = Field(None, min_length=2, max_length=2)


class TileKind(_Model):
    terrain: Name
    count: StrictInt = Field(0, ge=0, le=MAX_TILES_PER_TERRAIN)
    fuel: StrictInt = Field(0, ge=0, le=9)
    mech: StrictInt = Field(0, ge=0, le=9)
    danger: StrictBool = False
    stop: StrictBool = False


class Board(_Model):
    system: Optional[StrictStr] = None
    board: Name
    title: Optional[Name] = None
    rules: Optional[StrictStr] = None
    columns: StrictInt = Field(ge=1, le=MAX_COLUMNS)
    rows: StrictInt = Field(ge=1, le=MAX_ROWS)
    off: Optional[list[StrictStr]] = Field(None, max_length=MAX_COLUMNS * MAX_ROWS)
    risk: Optional[list[StrictStr]] = Field(None, max_length=MAX_COLUMNS * MAX_ROWS)
    cities: list[City] = Field(max_length=MAX_CITIES)
    transport: Optional[list[Transport]] = Field(None, max_length=MAX_TRANSPORTS)
    bands: Optional[list[Band]] = Field(None, max_length=MAX_BANDS)
    bag: list[TileKind] = Field(max_length=MAX_TERRAINS)

    @field_validator("bag")
    @classmethod
    def _bag(cls, bag):
        total = sum(k.count for k in bag)
        if total > MAX_BAG:
            raise ValueError(f"the bag holds {total} tiles; at most {MAX_BAG} are accepted (a box has about 120)")
        return bag


# -- race --------------------------------------------------------------------------------------

class Dashboard(_Model):
    fuel: Optional[StrictInt] = Field(None, ge=0, le=MAX_FUEL_GAUGE)
    engine: Optional[StrictInt] = Field(None, ge=1, le=MAX_MECH_GAUGE)
    chassis: Optional[StrictInt] = Field(None, ge=0, le=MAX_MECH_GAUGE)

    @field_validator("engine", mode="before")
    @classmethod
    def _engine(cls, v):
        if v == 0 and not isinstance(v, bool):
            raise ValueError("an engine at 0 is a broken-down car, which cannot set out: write the engine level "
                             "it has after the repair the player makes first (and lower the money by its price)")
        return v


class Cards(_Model):
    transport: StrictInt = Field(0, ge=0, le=MAX_CARDS)
    escort: StrictInt = Field(0, ge=0, le=MAX_CARDS)
    guide: StrictInt = Field(0, ge=0, le=MAX_CARDS)


class Race(_Model):
    system: Optional[StrictStr] = None
    race: Name
    title: Optional[Name] = None
    board: Name
    start: Name
    finish: Name
    median: Optional[Name] = None
    players: StrictInt = Field(4, ge=1, le=5)
    seat: Optional[StrictInt] = Field(None, ge=1, le=5)
    dashboard: Optional[Dashboard] = None
    money: StrictInt = Field(80, ge=0, le=MAX_MONEY)
    cards: Optional[Cards] = None
    laid: Optional[dict[StrictStr, Name]] = Field(None, max_length=MAX_COLUMNS * MAX_ROWS)
    notes: Optional[StrictStr] = Field(None, max_length=20_000)

    @field_validator("race", "board", "start", "finish", "median", "title")
    @classmethod
    def _short(cls, v):
        if v is not None and len(str(v)) > MAX_NAME:
            raise ValueError(f"a name of at most {MAX_NAME} characters")
        return v


def _friendly(problems: list[tuple[tuple, str]]) -> list[tuple[tuple, str]]:
    out = []
    for path, msg in problems:
        if msg == "Field required" and path:
            msg = f"the key {path[-1]!r} is missing"
            path = path[:-1]
        elif msg == "Extra inputs are not permitted" and path:
            msg = f"unknown key {path[-1]!r}"
        elif msg.startswith("Input should be a valid string"):
            msg = "write a text here (quote it if it looks like a number or yes/no)"
        elif msg.startswith("Input should be a valid integer"):
            msg = "write a whole number here"
        elif msg.startswith("Input should be a valid boolean"):
            msg = "write true or false here"
        elif msg.startswith("Input should be greater than or equal to "):
            msg = f"must be at least {msg.rsplit(' ', 1)[-1]}"
        elif msg.startswith("Input should be less than or equal to "):
            msg = f"must be at most {msg.rsplit(' ', 1)[-1]}"
        elif msg.startswith("Input should be a valid dictionary"):
            msg = "write a block of keys and values here"
        elif msg.startswith("Input should be a valid list"):
            msg = "write a list here, like [A1, B2]"
        out.append((path, msg))
    return out


def check(model: type[BaseModel], data: Any, lines: dict, source: str, what: str, hint: str | None = None):
    """``data`` validated against ``model``; a :class:`SchemaError` listing every problem with its line."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems, seen = [], set()
        for path, msg in _friendly(yamlio.pydantic_problems(exc)):
            # pydantic's union and generic branches add their own names to the location: keep the file's keys
            path = tuple(p for p in path if not (isinstance(p, str) and (p.startswith(("Param[", "str", "int"))
                                                                         or p in ("float", "bool"))))
            if path not in seen:
                seen.add(path)
                problems.append((path, msg))
        raise yamlio.schema_error(source, lines, problems, what,
                                  hint=hint or "the format is described in tilesets/greatrace/README.md") from None
