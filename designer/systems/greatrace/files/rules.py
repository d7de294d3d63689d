"""The Great Race rules that cost a route: prices, gauges, entering a space, funding.

Numbers come from a ruleset YAML (``tilesets/greatrace/greatrace-rules.yaml``), each written as
``{value, status, source}``. The functions here are the rulebook's mechanics, small and pure, so the route
planner, the Monte Carlo and the tests all use the same prices and costs.

>>> rules = load_ruleset()
>>> rules.funding(3)
40
>>> car = Car(fuel=6, engine=4, chassis=3, money=80)
>>> enter(car, Entry(fuel=1, mech=0, risk=True), rules).fuel_paid
2
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from designer.core import paths, yamlio
from designer.core.errors import DesignerError

STATUSES = ("rulebook", "reference", "assumed", "decided")
DEFAULT_RULES = paths.TILESETS / "greatrace" / "greatrace-rules.yaml"
REQUIRED = ("fuel_price", "repair_price", "city_entry_fuel", "risk_zone_extra_fuel", "danger_mechanic",
            "transport_card_discount", "funding_scale", "assistants_per_round", "scout_tiles", "start_money",
            "gauge_max", "median_city", "chassis_floor", "table_minutes_per_player_round")


@dataclass(frozen=True)
class Parameter:
    name: str
    value: Any
    status: str
    source: str


@dataclass
class Ruleset:
    name: str
    title: str
    params: dict[str, Parameter] = field(default_factory=dict)
    path: str = ""

    def __getitem__(self, key: str) -> Any:
        return self.params[key].value

    # -- prices -------------------------------------------------------------------------
    def fuel_price(self, in_city: bool) -> int:
        return int(self["fuel_price"]["city" if in_city else "elsewhere"])

    def repair_price(self, in_city: bool) -> int:
        return int(self["repair_price"]["city" if in_city else "elsewhere"])

    def funding(self, assistants: int) -> int:
        """Francs paid by the funding space for this many assistants (0 for none)."""
        if assistants <= 0:
            return 0
        scale = {int(k): int(v) for k, v in self["funding_scale"].items()}
        return scale[min(assistants, max(scale))]

    def fare(self, printed: int, transport_cards: int) -> int:
        """A transport fare after TRANSPORT cards (50 F each, never below 0)."""
        return max(0, int(printed) - int(self["transport_card_discount"]) * max(0, transport_cards))

    def gauge_max(self, gauge: str) -> int:
        return int(self["gauge_max"][gauge])

    def not_rulebook(self) -> list[Parameter]:
        """Parameters that are not printed in the rulebook (shown as a warning on drawings and road books)."""
        return [p for p in self.params.values() if p.status not in ("rulebook", "reference")]


def load_ruleset(path: str | Path | None = None) -> Ruleset:
    p = Path(path) if path else DEFAULT_RULES
    data, lines = yamlio.load_plain(p)
    return ruleset_from_data(data, lines, str(p))


def ruleset_from_data(data: Any, lines: dict, source: str) -> Ruleset:
    """A ruleset from parsed YAML, typed and ranged by :class:`designer.systems.greatrace.files.schema.Rules`."""
    from designer.systems.greatrace.files import schema

    if not isinstance(data, dict):
        raise DesignerError("a ruleset is a mapping of parameters", where=source,
                            hint="start from tilesets/greatrace/greatrace-rules.yaml")
    model = schema.check(schema.Rules, data, lines, source, "ruleset",
                         hint="compare with tilesets/greatrace/greatrace-rules.yaml; each parameter is "
                              "{value: ..., status: ..., source: ...}")
    params = {}
    for key in type(model).model_fields:
        entry = getattr(model, key)
        if isinstance(entry, schema.Param):
            value = entry.value.model_dump() if hasattr(entry.value, "model_dump") else entry.value
            params[key] = Parameter(key, value, entry.status, entry.source)
    return Ruleset(str(data.get("ruleset", "greatrace")), str(data.get("title", "")), params, source)


# -- the car and one space entered ---------------------------------------------------------

@dataclass(frozen=True)
class Car:
    """A dashboard and a purse: the three gauges, money and the cards that change a route's cost."""
    fuel: int
    engine: int
    chassis: int
    money: int = 0
    escorts: int = 0           # ESCORTE cards or assistants kept for dangers
    transport_cards: int = 0
    guides: int = 0            # GUIDE cards: ignore one STOP symbol each

    @property
    def broken_down(self) -> bool:
        return self.engine <= 0


@dataclass(frozen=True)
class Entry:
    """What entering one space asks: a terrain tile's costs and symbols, or a city."""
    fuel: int = 0
    mech: int = 0
    danger: bool = False
    stop: bool = False
    risk: bool = False         # a dark space: +1 fuel for a tile (not for a city)
    city: bool = False
    cards: int = 0             # resource cards a city gives


@dataclass(frozen=True)
class Outcome:
    car: Car
    entered: bool              # False: the car could not pay and stays (a blind move goes back)
    ends_action: bool
    fuel_paid: int = 0
    mech_paid: int = 0
    escorted: bool = False
    broke_down: bool = False
    cards_drawn: int = 0
    reason: str = ""


def entry_cost(entry: Entry, rules: Ruleset) -> tuple[int, int]:
    """(fuel, mechanic) that entering asks before any escort: +1 fuel in a risk zone, +2 mechanic for DANGER."""
    if entry.city:
        return int(rules["city_entry_fuel"]), 0
    fuel = entry.fuel + (int(rules["risk_zone_extra_fuel"]) if entry.risk else 0)
    mech = entry.mech + (int(rules["danger_mechanic"]) if entry.danger else 0)
    return fuel, mech


def take_damage(car: Car, mech: int, rules: Ruleset) -> Car:
    """Mechanic levels lost, on the chassis first (down to the chassis floor), then the engine, then the rest
    of the chassis: the engine is what moves the car."""
    floor = int(rules["chassis_floor"])
    chassis, engine = car.chassis, car.engine
    take = min(mech, max(0, chassis - floor))
    chassis -= take
    mech -= take
    take = min(mech, max(0, engine - 1))
    engine -= take
    mech -= take
    take = min(mech, chassis)
    chassis -= take
    mech -= take
    engine -= mech
    return replace(car, chassis=chassis, engine=engine)


def enter(car: Car, entry: Entry, rules: Ruleset) -> Outcome:
    """Enter one space during a pilot action.

    The car pays the tile's fuel and mechanic (a city: 1 fuel); it cannot enter what it cannot pay. A
    DANGER costs 2 mechanic unless an escort is spent; a STOP tile or a city ends the action; an engine
    falling to 0 is a breakdown that ends the move at once.
    """
    fuel, mech = entry_cost(entry, rules)
    escorted = False
    if entry.danger and not entry.city and car.escorts > 0:
        mech -= int(rules["danger_mechanic"])
        escorted = True
    if fuel > car.fuel or mech > car.engine + car.chassis:
        return Outcome(car, entered=False, ends_action=True,
                       reason="not enough fuel" if fuel > car.fuel else "not enough mechanic levels")
    new = replace(car, fuel=car.fuel - fuel, escorts=car.escorts - (1 if escorted else 0))
    new = take_damage(new, mech, rules)
    broke = new.engine <= 0
    stop = entry.stop and not entry.city
    if stop and new.guides > 0:
        new = replace(new, guides=new.guides - 1)
        stop = False
    ends = entry.city or stop or broke
    reason = "city" if entry.city else "STOP" if stop else "engine at 0: breakdown" if broke else ""
    return Outcome(new, entered=True, ends_action=ends, fuel_paid=fuel, mech_paid=mech, escorted=escorted,
                   broke_down=broke, cards_drawn=entry.cards if entry.city else 0, reason=reason)


def buy_fuel(car: Car, levels: int, in_city: bool, rules: Ruleset) -> tuple[Car, int]:
    """Buy up to ``levels`` of fuel (gauge and money permitting); the car and the francs spent."""
    price = rules.fuel_price(in_city)
    room = rules.gauge_max("fuel") - car.fuel
    n = max(0, min(levels, room, car.money // price if price else room))
    return replace(car, fuel=car.fuel + n, money=car.money - n * price), n * price


def repair(car: Car, engine: int, chassis: int, in_city: bool, rules: Ruleset) -> tuple[Car, int]:
    """Buy mechanic parts: raise the engine by up to ``engine`` levels, then the chassis by up to ``chassis``."""
    price = rules.repair_price(in_city)
    spent = 0
    e = max(0, min(engine, rules.gauge_max("engine") - car.engine, (car.money - spent) // price))
    spent += e * price
    c = max(0, min(chassis, rules.gauge_max("chassis") - car.chassis, (car.money - spent) // price))
    spent += c * price
    return replace(car, engine=car.engine + e, chassis=car.chassis + c, money=car.money - spent), spent
