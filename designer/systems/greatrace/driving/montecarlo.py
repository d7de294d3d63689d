"""Drive a route many times, drawing the open spaces' tiles from the bag, with the rulebook's mechanics
(:func:`designer.systems.greatrace.files.rules.enter`): the spread of fuel, mechanic, pilot actions and francs, and
the chance of being stranded.

The driver's policy: at each action start, buy the fuel the coming action is expected to burn (at least the
next space's worst cost); in a city, the fuel of the whole leg ahead plus one level, and repair the engine to
its limit and the chassis to its start; out of a city, parts (40 F) only when the next space cannot be paid
otherwise. A blind move that cannot be paid sends the car back and ends the action; the tile stays. When the
purse is short, the driver takes funding actions (``funding_assistants`` of the ruleset on the funding space
each time), which cost assistants and so rounds. The car is *stranded* when it runs dry away from a city
without the francs to refuel or repair there: it must then wait for funding where it stands.
"""
from __future__ import annotations

import math
import random
from dataclasses import replace
from statistics import mean

from designer.systems.greatrace.driving.costs import CostMap
from designer.systems.greatrace.driving.plan import engine_limit, split_legs
from designer.systems.greatrace.driving.routes import Route
from designer.systems.greatrace.files.rules import Car, Entry, buy_fuel, enter, entry_cost, repair


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


MAX_FUNDING_IN_A_ROW = 20


def run_once(cm: CostMap, route: Route, rng: random.Random) -> dict:
    rules = cm.rules
    limit = engine_limit(cm)
    per_funding = int(rules["funding_assistants"])
    income = rules.funding(per_funding)
    car = _start_car(cm)
    chassis0 = car.chassis
    bag = [kind for kind, n in cm.bag.values() for _ in range(n)]
    drawn: dict = {}
    # Fuel the plan expects from each step to the end of its leg (what to buy in a city).
    leg_need: dict[int, float] = {}
    for idx in split_legs(cm, route):
        leg_need[idx[0]] = sum(cm.spaces[route.steps[i].to].fuel for i in idx)
    pos = actions = fuel_used = mech_taken = spent = blind_fail = repairs = funding = fails_here = 0
    hexes = route.hexes()
    stranded = False
    failed = None

    def fund(need: int) -> None:
        nonlocal car, funding
        n = 0
        while car.money < need and n < MAX_FUNDING_IN_A_ROW:
            car = replace(car, money=car.money + income)
            funding += 1
            n += 1

    turns = 0
    while pos < len(route.steps):
        turns += 1
        if turns > 4 * len(route.steps) + 20:
            failed = "the car makes no headway on this route"
            break
        here = hexes[pos]
        in_city = here in cm.cities
        step = route.steps[pos]
        # -- the start of an action: fuel, parts, and funding when the purse is short ----------------
        nxt = _entry(cm, step, drawn)
        fuel_need, mech_need = entry_cost(nxt, rules) if nxt else (cm.spaces[step.to].worst_fuel,
                                                                  math.ceil(cm.spaces[step.to].mech))
        want = max(fuel_need, _action_need(cm, route, pos, car.engine, drawn))
        if in_city:
            want = max(want, int(math.ceil(leg_need.get(pos, 0.0))) + 1)
        want = min(want, rules.gauge_max("fuel"))
        fare = 0
        if step.via != "land":
            use = min(car.transport_cards, int(math.ceil(step.fare / int(rules["transport_card_discount"]))))
            fare = rules.fare(step.fare, use)
        short_fuel = max(0, fuel_need - car.fuel)
        price = rules.fuel_price(in_city)
        if in_city:
            mend = max(0, limit - car.engine) + max(0, chassis0 - car.chassis)
            fund(fare + max(0, want - car.fuel) * price + mend * rules.repair_price(True))
        elif short_fuel and car.money < short_fuel * price:
            stranded = True                          # dry away from a city, without the francs to refuel
            fund(max(0, want - car.fuel) * price)
        car, f = buy_fuel(car, max(0, want - car.fuel), in_city, rules)
        spent += f
        broken = car.engine <= 0 or car.engine + car.chassis < mech_need
        if in_city and (car.engine < limit or car.chassis < chassis0) or broken:
            levels = max(1 - car.engine, mech_need - car.engine - car.chassis, 0) if broken else 0
            if broken:
                if not in_city and car.money < levels * rules.repair_price(False):
                    stranded = True
                fund(levels * rules.repair_price(in_city))
            top_engine = max(levels, limit - car.engine) if in_city else levels
            car, r = repair(car, top_engine, max(0, chassis0 - car.chassis) if in_city else 0, in_city, rules)
            spent += r
            repairs += 1 if r else 0
        if car.engine <= 0 or car.fuel < fuel_need or car.money < fare:
            failed = "cannot pay the next space even after funding"
            break
        actions += 1
        moves = car.engine
        used = 0
        # -- the pilot action ---------------------------------------------------------------------
        while pos < len(route.steps) and used < moves:
            step = route.steps[pos]
            if step.via != "land":
                if used:
                    break
                use = min(car.transport_cards, int(math.ceil(step.fare / int(rules["transport_card_discount"]))))
                fare = rules.fare(step.fare, use)
                car = replace(car, money=car.money - fare, transport_cards=car.transport_cards - use)
                spent += fare
            entry = _entry(cm, step, drawn)
            if entry is None:
                if not bag:
                    failed = "the bag is empty"
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
        if failed or fails_here >= 3:
            failed = failed or "cannot pay the next space even after funding"
            break
    assistants = actions + repairs + funding * per_funding
    return {"stranded": stranded, "failed": failed, "actions": actions, "fuel": fuel_used, "mech": mech_taken,
            "francs": spent, "blind_failures": blind_fail, "repairs": repairs, "funding_actions": funding,
            "rounds": int(math.ceil(assistants / int(rules["assistants_per_round"]))), "money_left": car.money,
            "tiles_drawn": len(drawn)}


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
    done = [r for r in results if not r["failed"]]
    out = {"runs": len(results), "seed": seed,
           "stranded_chance": round(mean(1 if r["stranded"] else 0 for r in results), 4),
           "failed_chance": round(1 - len(done) / len(results), 4), "failed_reasons": {},
           "blind_failure_chance": round(mean(1 if r["blind_failures"] else 0 for r in results), 4),
           "funding_chance": round(mean(1 if r["funding_actions"] else 0 for r in results), 4)}
    for r in results:
        if r["failed"]:
            out["failed_reasons"][r["failed"]] = out["failed_reasons"].get(r["failed"], 0) + 1
    for key in ("fuel", "mech", "actions", "francs", "funding_actions", "rounds"):
        vals = [r[key] for r in done]
        out[key] = ({"mean": round(mean(vals), 2), "p10": _percentile(vals, 0.1), "p50": _percentile(vals, 0.5),
                     "p90": _percentile(vals, 0.9), "max": max(vals)} if vals else None)
    return out
