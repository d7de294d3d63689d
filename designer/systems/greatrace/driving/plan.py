"""A route priced and planned: legs between cities, fuel bought and repairs made where the rules price them
cheapest, fares, actions, funding, rounds.

The route is driven by :mod:`designer.systems.greatrace.driving.search` restricted to its hexes: the cheapest of the
fewest actions under the fuel gauge (fuel bought only at an action's start, 10 F a level in a city and 20 F
elsewhere), the engine read at each action's start, repairs (20 F a level in a city, 40 F elsewhere), the
TRANSPORT, ESCORTE and GUIDE cards, ESCORTE assistants. An open space counts at its planning cost (the bag's
expectation rounded up to whole levels). The plan then says, leg by leg, where fuel is bought and repairs
are made.

- ``francs`` is what is paid during the race (fuel, fares, parts); no repair is made after the arrival, so
  mechanic levels lost and not repaired are not priced: they are ``owed_mech``, prestige points lost;
- what the purse cannot pay is the ``shortfall``, raised on the funding space the way that takes the fewest
  assistants (:func:`funding_plan`: 5 assistants pay 110 F in one action, 3 only 40 F).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from designer.core import hexgrid
from designer.systems.greatrace.files.board import label
from designer.systems.greatrace.driving.costs import CostMap
from designer.systems.greatrace.driving.routes import Route, count_actions, expected_actions


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
    funding_actions: int            # funding actions (:func:`funding_plan`) to cover the shortfall
    repairs: int                    # mechanic actions (one per repair stop)
    scouting_actions: int
    bands: list[str]
    path: list[str]
    pilot_actions: int = 0
    escort_assistants: int = 0
    funding_assistants: int = 0
    fuel_burnt: int = 0
    mech_lost: int = 0
    end: dict = field(default_factory=dict)
    start_cards: dict = field(default_factory=dict)   # the cards kept at the start (all of them when they fit)
    driven: Any = None              # the search's way (its schedule is what the Monte Carlo's driver follows)

    def to_dict(self) -> dict:
        d = {k: v for k, v in self.__dict__.items() if k not in ("route", "legs", "driven")}
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


def funding_plan(shortfall: int, rules) -> tuple[int, int, int]:
    """How a player raises ``shortfall`` francs on the funding space with the fewest assistants (then the
    fewest funding actions): (funding actions, assistants, francs raised). Each funding action puts 1 to
    ``assistants_per_round`` assistants on the space, all played at once (FINANCEMENT)."""
    if shortfall <= 0:
        return 0, 0, 0
    scale = {int(k): int(v) for k, v in rules["funding_scale"].items()}
    per_round = int(rules["assistants_per_round"])
    options = [(k, v) for k, v in scale.items() if k <= per_round and v > 0]
    if not options:
        return 0, 0, 0
    # best[x] = (assistants, actions, raised) for raising at least x francs
    best = {0: (0, 0, 0)}
    for x in range(1, shortfall + 1):
        best[x] = min((best[max(0, x - v)][0] + k, best[max(0, x - v)][1] + 1, best[max(0, x - v)][2] + v)
                      for k, v in options)
    assistants, actions, raised = best[shortfall]
    return actions, assistants, raised


DRIVE_LABELS = 30_000
"""Labels the search may create to drive one given route (a route too long to drive within it is left out)."""


def drive(cm: CostMap, route: Route):
    """The cheapest of the fastest ways to drive ``route`` as the rules price it (fuel gauge, prices,
    repairs, cards): a :class:`designer.systems.greatrace.driving.search.Found`, or None when the car cannot."""
    from designer.systems.greatrace.driving import search

    try:
        found = search.search(cm, route.start, route.hexes()[-1], only=route.hexes(), pareto=False,
                              limit=DRIVE_LABELS)
    except search.SearchTooLarge:
        return None
    return found[0] if found else None


def fuel_burnt(cm: CostMap, route: Route) -> list[int]:
    """The fuel each step of the route burns, as the route search counts it (an open space at its planning cost,
    a crossing the fuel of the city it lands in)."""
    from designer.systems.greatrace.driving.search import tiles_of

    tiles = tiles_of(cm)
    return [tiles[s.to].fuel if s.to in tiles else 0 for s in route.steps]


def engines_along(route: Route, driven, engine0: int) -> list[int]:
    """The engine an action starting at each position of the route reads, as the plan drives it: its
    repairs made where it makes them, the mechanic lost on each space as it splits it."""
    out = [engine0] * (route.spaces + 1)
    pos, e = 0, engine0
    for act in driven.schedule:
        if act["action"] == "repair":
            e += act["engine"]
        elif act["action"] == "pilot":
            for step in act["steps"]:
                e -= step["engine"]
                pos += 1
                out[min(pos, route.spaces)] = e
            continue
        else:
            pos += 1
        out[min(pos, route.spaces)] = e
    for i in range(1, len(out)):           # positions no action of the plan passes keep the engine before them
        if i > pos:
            out[i] = out[i - 1]
    return out


def plan_route(cm: CostMap, route: Route, driven=None) -> Plan | None:
    """A route priced leg by leg as the search drives it (None when the car cannot drive it)."""
    rules, race = cm.rules, cm.race
    driven = driven or drive(cm, route)
    if driven is None:
        return None
    limit = engine_limit(cm)
    engine0 = race.engine if race.engine is not None else rules.gauge_max("engine")
    chassis0 = race.chassis if race.chassis is not None else rules.gauge_max("chassis")
    hexes = route.hexes()
    position = {h: i for i, h in enumerate(hexes)}
    legs: list[Leg] = []
    here, first = route.start, 0
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
        last = idx[-1] + 1                     # positions first .. last-1 belong to this leg
        for h, (levels, francs) in driven.fuel_bought.items():
            if first <= position.get(h, -1) < last:
                if h == here and here in cm.cities:
                    leg.fuel_bought_city += levels
                else:
                    leg.fuel_bought_on_way += levels
                leg.francs += francs
        for item in driven.schedule:
            at = item.get("at", item.get("from"))
            if not first <= position.get(at, -1) < last:
                continue
            if item["action"] == "repair":
                if at == here and here in cm.cities:
                    leg.repair_city += item["engine"] + item["chassis"]
                else:
                    leg.repair_on_way += item["engine"] + item["chassis"]
                leg.francs += item["francs"]
            elif item["action"] in ("sea", "air"):
                leg.fare += item["fare"]
                leg.francs += item["fare"]
        leg.bands = _bands(cm, [here] + [s.to for s in steps])
        leg.alternatives = _alternatives(cm, here, steps[-1].to, hexes[-1])
        legs.append(leg)
        here, first = steps[-1].to, last
    spent = driven.francs
    fares = sum(item.get("fare", 0) for item in driven.schedule)
    owed = max(0, engine0 + chassis0 - driven.end[1] - driven.end[2])
    all_spaces = [cm.spaces[s.to] for s in route.steps]
    land_spaces = [cm.spaces[s.to] for s in route.steps if s.via == "land" and cm.spaces[s.to].kind != "city"]
    open_n = sum(1 for sp in land_spaces if sp.kind == "open")
    shortfall = max(0, spent - race.money)
    funding_actions, funding_assistants, _raised = funding_plan(shortfall, rules)
    engines = engines_along(route, driven, engine0)
    tank = (rules.gauge_max("fuel"), fuel_burnt(cm, route))
    stop_extra = expected_actions(cm, route, engines, guides=driven.end[5] if len(driven.end) > 5 else 0,
                                  tank=tank) - count_actions(cm, route, engines, tank)
    plan = Plan(route=route, legs=legs, spaces=route.spaces, risk_spaces=sum(1 for sp in land_spaces if sp.risk),
                open_spaces=open_n, actions=driven.actions, expected_actions=driven.actions + max(0.0, stop_extra),
                actions_without_repairs=actions_without_repairs(cm, route), engine_limit=limit,
                fuel=sum(sp.fuel for sp in all_spaces), mech=sum(sp.mech for sp in all_spaces),
                worst_fuel=sum(sp.worst_fuel for sp in all_spaces), worst_mech=sum(sp.worst_mech for sp in all_spaces),
                spent=spent, owed_mech=owed, francs=spent, fares=fares, shortfall=shortfall,
                funding_actions=funding_actions, repairs=driven.repairs,
                scouting_actions=_up(open_n / max(1, int(rules["scout_tiles"]))),
                bands=_bands(cm, hexes), path=[_name(cm, h) if h in cm.cities else label(h) for h in hexes])
    plan.driven = driven
    plan.pilot_actions = driven.pilots
    plan.escort_assistants = driven.escort_assistants
    plan.funding_assistants = funding_assistants
    plan.fuel_burnt = driven.fuel
    plan.mech_lost = driven.mech
    plan.end = {"fuel": driven.end[0], "engine": driven.end[1], "chassis": driven.end[2],
                "cards": {"transport": driven.end[3], "escort": driven.end[4], "guide": driven.end[5]}}
    plan.start_cards = dict(zip(("transport", "escort", "guide"), driven.hand))
    return plan


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
    """Rounds of play for the route: every pilot, repair, ESCORTE (and scout) is one assistant of the five a
    round; the funding actions take the assistants :func:`funding_plan` chose."""
    per = int(rules["assistants_per_round"])
    assistants = plan.actions + plan.funding_assistants + (plan.scouting_actions if scouted else 0)
    n = max(1, _up(assistants / per))
    return {"assistants": assistants, "rounds": n,
            "table_minutes": round(n * players * float(rules["table_minutes_per_player_round"]))}
