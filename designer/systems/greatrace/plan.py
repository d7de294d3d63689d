"""A route priced and planned: legs between cities, fuel bought and repairs made where they are cheapest,
fares, pilot actions, rounds.

The plan works on expected costs (an open space at the bag's expectation), rounded up to whole gauge
levels. Its policy, stated so a reader can check it:

- fuel is bought in each city for the leg ahead (10 F a level), as far as the gauge holds; what a leg needs
  beyond a full gauge is bought on the way (20 F a level);
- damage is taken on the chassis first (down to the ruleset's ``chassis_floor``), then on the engine; in each
  city the engine and chassis are repaired back to where they started (20 F a level); where a leg would
  drop the engine below its limit, a repair on the way (40 F a level) keeps it up;
- escorts cancel the laid DANGER tiles first, in route order;
- ``francs`` is what is spent plus the mechanic levels still owed at the finish, priced at a city repair;
  what the purse cannot pay is the ``shortfall``, covered by funding actions that cost assistants (rounds).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from designer.core import hexgrid
from designer.systems.greatrace.board import label
from designer.systems.greatrace.costs import CostMap
from designer.systems.greatrace.routes import Route, count_actions, expected_actions


def _up(x: float) -> int:
    return int(math.ceil(x - 1e-9))


@dataclass
class Leg:
    start: str
    end: str
    via: str
    hexes: list[str]
    spaces: int
    risk_spaces: int
    open_spaces: int
    laid_tiles: int
    stops: int                      # laid STOP tiles
    stop_chance: float              # expected STOPs drawn on open spaces
    fuel: float
    mech: float
    worst_fuel: int
    worst_mech: int
    fare: int = 0
    fuel_bought_city: int = 0
    fuel_bought_on_way: int = 0
    repair_city: int = 0            # levels repaired in the leg's start city
    repair_on_way: int = 0          # levels repaired on the way to keep the engine limit
    francs: int = 0
    bands: list[str] = field(default_factory=list)
    alternatives: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        d = dict(self.__dict__)
        d["fuel"] = round(self.fuel, 2)
        d["mech"] = round(self.mech, 2)
        d["stop_chance"] = round(self.stop_chance, 3)
        return d


@dataclass
class Plan:
    route: Route
    legs: list[Leg]
    spaces: int
    risk_spaces: int
    open_spaces: int
    actions: int
    expected_actions: float
    actions_without_repairs: int | None
    engine_limit: int
    fuel: float
    mech: float
    worst_fuel: int
    worst_mech: int
    spent: int
    owed_mech: int
    francs: int
    fares: int
    shortfall: int
    funding_actions: int            # funding actions (of ``funding_assistants`` each) to cover the shortfall
    repairs: int                    # mechanic actions (one per repair stop)
    scouting_actions: int
    bands: list[str]
    path: list[str]

    def to_dict(self) -> dict:
        d = {k: v for k, v in self.__dict__.items() if k not in ("route", "legs")}
        d["fuel"] = round(self.fuel, 2)
        d["mech"] = round(self.mech, 2)
        d["expected_actions"] = round(self.expected_actions, 2)
        d["legs"] = [leg.to_dict() for leg in self.legs]
        return d


def engine_limit(cm: CostMap) -> int:
    """The spaces per pilot action the plan keeps: the engine at the start (repaired to the maximum if 0)."""
    e = cm.race.engine if cm.race.engine is not None else cm.rules.gauge_max("engine")
    return e if e > 0 else cm.rules.gauge_max("engine")


def _name(cm: CostMap, h) -> str:
    c = cm.cities.get(h)
    return c.name if c else label(h)


def split_legs(cm: CostMap, route: Route) -> list[list[int]]:
    """Indexes of the route's steps, cut after every city entered."""
    legs, cur = [], []
    for i, step in enumerate(route.steps):
        cur.append(i)
        if step.to in cm.cities:
            legs.append(cur)
            cur = []
    if cur:
        legs.append(cur)
    return legs


def actions_without_repairs(cm: CostMap, route: Route) -> int | None:
    """Pilot actions when no repair is made: the engine, read at each action's start, falls with the expected
    damage (chassis first). None when the car would break down on the way."""
    rules = cm.rules
    floor = int(rules["chassis_floor"])
    engine = cm.race.engine if cm.race.engine is not None else rules.gauge_max("engine")
    chassis = cm.race.chassis if cm.race.chassis is not None else rules.gauge_max("chassis")
    if engine <= 0:
        return None
    damage, taken = 0.0, 0
    actions, used, limit = 0, 0, engine
    for step in route.steps:
        if used == 0:
            actions += 1
            limit = engine
            if limit <= 0:
                return None
        sp = cm.spaces[step.to]
        damage += sp.mech
        new = _up(damage) - taken
        taken += new
        on_chassis = min(new, max(0, chassis - floor))
        chassis -= on_chassis
        engine -= new - on_chassis
        if engine <= 0:
            return None
        used += 1
        if step.via != "land" or sp.stops or used >= limit:
            used = 0
    return actions


def plan_route(cm: CostMap, route: Route) -> Plan:
    rules, race = cm.rules, cm.race
    cap = rules.gauge_max("fuel")
    floor = int(rules["chassis_floor"])
    danger = int(rules["danger_mechanic"])
    limit = engine_limit(cm)
    fuel = race.fuel if race.fuel is not None else cap
    engine0 = race.engine if race.engine is not None else rules.gauge_max("engine")
    chassis0 = race.chassis if race.chassis is not None else rules.gauge_max("chassis")
    engine, chassis = engine0, chassis0
    escorts = race.cards.get("escort", 0)
    cards = race.cards.get("transport", 0)
    legs: list[Leg] = []
    spent = fares = repairs = 0
    here = route.start
    for idx in split_legs(cm, route):
        steps = [route.steps[i] for i in idx]
        spaces = [cm.spaces[s.to] for s in steps]
        land = [sp for s, sp in zip(steps, spaces) if s.via == "land" and sp.kind != "city"]
        leg = Leg(start=_name(cm, here), end=_name(cm, steps[-1].to), via=steps[-1].via,
                  hexes=[label(s.to) for s in steps], spaces=len(steps),
                  risk_spaces=sum(1 for sp in land if sp.risk),
                  open_spaces=sum(1 for sp in land if sp.kind == "open"),
                  laid_tiles=sum(1 for sp in land if sp.kind == "tile"),
                  stops=sum(1 for sp in land if sp.kind == "tile" and sp.p_stop >= 1),
                  stop_chance=sum(sp.p_stop for sp in land if sp.kind == "open"),
                  fuel=sum(sp.fuel for sp in spaces), mech=sum(sp.mech for sp in spaces),
                  worst_fuel=sum(sp.worst_fuel for sp in spaces), worst_mech=sum(sp.worst_mech for sp in spaces))
        in_city = here in cm.cities
        # Repairs in the city the leg starts from: back to the engine limit and the starting chassis.
        if in_city:
            levels = max(0, limit - engine) + max(0, chassis0 - chassis)
            if levels:
                leg.repair_city = levels
                engine, chassis = max(engine, limit), max(chassis, chassis0)
                leg.francs += levels * rules.repair_price(True)
                repairs += 1
        elif engine < limit:
            leg.repair_on_way += limit - engine
            leg.francs += (limit - engine) * rules.repair_price(False)
            engine = limit
            repairs += 1
        if steps[-1].via != "land":
            use = min(cards, _up(steps[-1].fare / max(1, int(rules["transport_card_discount"]))))
            cards -= use
            leg.fare = rules.fare(steps[-1].fare, use)
            leg.francs += leg.fare
            fares += leg.fare
        need = _up(leg.fuel)
        buy = max(0, min(cap, need) - fuel)
        if in_city:
            leg.fuel_bought_city = buy
            leg.francs += buy * rules.fuel_price(True)
        else:
            leg.fuel_bought_on_way += buy
        extra = max(0, need - max(fuel + buy, cap))
        leg.fuel_bought_on_way += extra
        leg.francs += (leg.fuel_bought_on_way) * rules.fuel_price(False)
        fuel = max(0, fuel + buy + extra - need)
        saved = 0
        for sp in land:
            if escorts and sp.kind == "tile" and sp.p_danger >= 1:
                escorts -= 1
                saved += danger
        damage = max(0, _up(leg.mech - saved))
        on_chassis = min(damage, max(0, chassis - floor))
        chassis -= on_chassis
        drop = damage - on_chassis
        if drop and steps[-1].to != route.hexes()[-1]:
            leg.repair_on_way += drop          # keep the engine limit for the next leg
            leg.francs += drop * rules.repair_price(False)
            repairs += 1
        else:
            engine -= drop
        leg.bands = _bands(cm, [here] + [s.to for s in steps])
        leg.alternatives = _alternatives(cm, here, steps[-1].to, route.hexes()[-1])
        spent += leg.francs
        legs.append(leg)
        here = steps[-1].to
    owed = max(0, limit - engine) + max(0, chassis0 - chassis)
    all_spaces = [cm.spaces[s.to] for s in route.steps]
    land_spaces = [cm.spaces[s.to] for s in route.steps if s.via == "land" and cm.spaces[s.to].kind != "city"]
    open_n = sum(1 for sp in land_spaces if sp.kind == "open")
    actions = count_actions(cm, route, limit)
    return Plan(route=route, legs=legs, spaces=route.spaces, risk_spaces=sum(1 for sp in land_spaces if sp.risk),
                open_spaces=open_n, actions=actions, expected_actions=expected_actions(cm, route, limit),
                actions_without_repairs=actions_without_repairs(cm, route), engine_limit=limit,
                fuel=sum(sp.fuel for sp in all_spaces), mech=sum(sp.mech for sp in all_spaces),
                worst_fuel=sum(sp.worst_fuel for sp in all_spaces), worst_mech=sum(sp.worst_mech for sp in all_spaces),
                spent=spent, owed_mech=owed, francs=spent + owed * rules.repair_price(True), fares=fares,
                shortfall=max(0, spent - race.money),
                funding_actions=_up(max(0, spent - race.money) / max(1, rules.funding(int(rules["funding_assistants"])))),
                repairs=repairs,
                scouting_actions=_up(open_n / max(1, int(rules["scout_tiles"]))),
                bands=_bands(cm, route.hexes()), path=[_name(cm, h) if h in cm.cities else label(h)
                                                       for h in route.hexes()])


def _bands(cm: CostMap, hexes) -> list[str]:
    out: list[str] = []
    for h in hexes:
        b = cm.board.band_of(h)
        if b is not None and (not out or out[-1] != b):
            out.append(b)
    return out


def _alternatives(cm: CostMap, a, b, finish) -> list[dict]:
    """Transport lines leaving the leg's start city towards the finish (they land nearer to it than the city
    they leave): where they go, their printed fare and the fare after cards."""
    out = []
    if a not in cm.cities:
        return out
    cards = cm.race.cards.get("transport", 0)
    for x, y, mode, fare in cm.transports():
        if x == a and (y == b or hexgrid.distance(y, finish) < hexgrid.distance(a, finish)):
            out.append({"to": cm.cities[y].name, "mode": mode, "fare": fare,
                        "fare_with_cards": cm.rules.fare(fare, cards), "same_end": y == b})
    return out


def rounds(plan: Plan, rules, players: int, scouted: bool = False) -> dict:
    """Rounds of play for the route: every pilot, repair (and scout) is one assistant of the five a round, a
    funding action ``funding_assistants`` of them."""
    per = int(rules["assistants_per_round"])
    assistants = (plan.actions + plan.repairs + plan.funding_actions * int(rules["funding_assistants"])
                  + (plan.scouting_actions if scouted else 0))
    n = max(1, _up(assistants / per))
    return {"assistants": assistants, "rounds": n,
            "table_minutes": round(n * players * float(rules["table_minutes_per_player_round"]))}
