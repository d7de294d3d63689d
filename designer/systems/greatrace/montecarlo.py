"""Drive a route many times, drawing the open spaces' tiles from the bag, with the rulebook's mechanics
(:func:`designer.systems.greatrace.rules.enter`): the spread of fuel, mechanic, pilot actions and francs, and
the chance of being stranded.

The driver's policy: at each action start in a city, buy the fuel the leg ahead is expected to need plus
one level, and repair the engine to its limit and the chassis to its start; out of a city, buy fuel (20 F)
or parts (40 F) only when the next space cannot be paid otherwise (for a space not yet drawn: its expected
cost). A blind move that cannot be paid sends the car back and ends the action; the tile stays. The car is
*stranded* when it cannot pay the next space and has not the francs to buy what it needs (the game's
funding actions would then cost it extra rounds), or when the bag is empty.
"""
from __future__ import annotations

import math
import random
from dataclasses import replace
from statistics import mean

from designer.systems.greatrace.costs import CostMap
from designer.systems.greatrace.plan import engine_limit, split_legs
from designer.systems.greatrace.routes import Route
from designer.systems.greatrace.rules import Car, Entry, buy_fuel, enter, entry_cost, repair


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(math.ceil(q * len(s))) - 1))]


def _start_car(cm: CostMap) -> Car:
    r, race = cm.rules, cm.race
    return Car(fuel=race.fuel if race.fuel is not None else r.gauge_max("fuel"),
               engine=race.engine if race.engine is not None else r.gauge_max("engine"),
               chassis=race.chassis if race.chassis is not None else r.gauge_max("chassis"),
               money=race.money, escorts=race.cards.get("escort", 0),
               transport_cards=race.cards.get("transport", 0), guides=race.cards.get("guide", 0))


def run_once(cm: CostMap, route: Route, rng: random.Random) -> dict:
    rules = cm.rules
    limit = engine_limit(cm)
    car = _start_car(cm)
    chassis0 = car.chassis
    bag = [kind for kind, n in cm.bag.values() for _ in range(n)]
    drawn: dict = {}
    # Fuel the plan expects from each step to the end of its leg (what to buy in a city).
    leg_need: dict[int, float] = {}
    for idx in split_legs(cm, route):
        leg_need[idx[0]] = sum(cm.spaces[route.steps[i].to].fuel for i in idx)
    pos, actions, fuel_used, mech_taken, spent, blind_fail = 0, 0, 0, 0, 0, 0
    fails_here = 0
    hexes = route.hexes()
    stranded = None
    while pos < len(route.steps):
        here = hexes[pos]
        in_city = here in cm.cities
        step = route.steps[pos]
        # -- the start of an action: buy fuel, repair -------------------------------------------
        if in_city:
            want = int(math.ceil(leg_need.get(pos, 0.0))) + 1
            car, f = buy_fuel(car, max(0, want - car.fuel), True, rules)
            car, r = repair(car, max(0, limit - car.engine), max(0, chassis0 - car.chassis), True, rules)
            spent += f + r
        nxt = _entry(cm, step, drawn)
        fuel_need, mech_need = entry_cost(nxt, rules) if nxt else (cm.spaces[step.to].worst_fuel,
                                                                  math.ceil(cm.spaces[step.to].mech))
        want = max(fuel_need, _action_need(cm, route, pos, car.engine, drawn))
        if car.fuel < want:
            car, f = buy_fuel(car, want - car.fuel, in_city, rules)
            spent += f
        if car.engine <= 0 or car.engine + car.chassis < mech_need:
            car, r = repair(car, max(1 - car.engine, mech_need - car.engine - car.chassis), 0, in_city, rules)
            spent += r
        if car.engine <= 0 or (nxt is not None and (car.fuel < fuel_need or car.engine + car.chassis < mech_need)):
            stranded = "cannot pay the next space" if car.engine > 0 else "broken down"
            break
        actions += 1
        moves = car.engine
        used = 0
        # -- the pilot action -------------------------------------------------------------------
        while pos < len(route.steps) and used < moves:
            step = route.steps[pos]
            if step.via != "land":
                if used:
                    break
                use = min(car.transport_cards, int(math.ceil(step.fare / 50)))
                fare = rules.fare(step.fare, use)
                if car.money < fare:
                    stranded = "cannot pay the fare"
                    break
                car = replace(car, money=car.money - fare, transport_cards=car.transport_cards - use)
                spent += fare
            entry = _entry(cm, step, drawn)
            if entry is None:
                if not bag:
                    stranded = "the bag is empty"
                    break
                kind = bag.pop(rng.randrange(len(bag)))
                drawn[step.to] = kind
                entry = _entry(cm, step, drawn)
            out = enter(car, entry, rules)
            if not out.entered:
                blind_fail += 1
                fails_here += 1
                break
            fails_here = 0
            car = out.car
            fuel_used += out.fuel_paid
            mech_taken += out.mech_paid
            pos += 1
            used += 1
            if out.ends_action:
                break
        if stranded or fails_here >= 2:
            stranded = stranded or "cannot pay the next space"
            break
    return {"stranded": stranded, "actions": actions, "fuel": fuel_used, "mech": mech_taken, "francs": spent,
            "blind_failures": blind_fail, "money_left": car.money}


def _action_need(cm: CostMap, route: Route, pos: int, moves: int, drawn) -> int:
    """Fuel the next pilot action is expected to burn: up to ``moves`` spaces, to the first sure stop."""
    total = 0.0
    for step in route.steps[pos:pos + max(0, moves)]:
        e = _entry(cm, step, drawn)
        sp = cm.spaces[step.to]
        total += sp.fuel if e is None or sp.entry is not None else e.fuel + (1 if e.risk else 0)
        if step.via != "land" or sp.stops or (e is not None and e.stop):
            break
    return int(math.ceil(total - 1e-9))


def _entry(cm: CostMap, step, drawn) -> Entry | None:
    sp = cm.spaces[step.to]
    if sp.entry is not None:
        return sp.entry
    kind = drawn.get(step.to)
    if kind is None:
        return None
    return Entry(fuel=kind.fuel, mech=kind.mech, danger=kind.danger, stop=kind.stop, risk=sp.risk)


def simulate(cm: CostMap, route: Route, runs: int = 1000, seed: int = 1) -> dict:
    """Summary of ``runs`` drives of the route (reproducible with ``seed``)."""
    rng = random.Random(seed)
    results = [run_once(cm, route, rng) for _ in range(max(1, runs))]
    done = [r for r in results if not r["stranded"]]
    out = {"runs": len(results), "seed": seed,
           "stranded_chance": round(1 - len(done) / len(results), 4),
           "stranded_reasons": {}, "blind_failure_chance": round(mean(1 if r["blind_failures"] else 0
                                                                     for r in results), 4)}
    for r in results:
        if r["stranded"]:
            out["stranded_reasons"][r["stranded"]] = out["stranded_reasons"].get(r["stranded"], 0) + 1
    for key in ("fuel", "mech", "actions", "francs"):
        vals = [r[key] for r in done]
        out[key] = ({"mean": round(mean(vals), 2), "p10": _percentile(vals, 0.1), "p50": _percentile(vals, 0.5),
                     "p90": _percentile(vals, 0.9), "max": max(vals)} if vals else None)
    return out
