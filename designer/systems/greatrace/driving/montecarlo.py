"""Drive a planned route many times, drawing the open spaces' tiles from the bag, with the rulebook's mechanics
(:func:`designer.systems.greatrace.files.rules.entry_cost`): the spread of actions, fuel, mechanic and francs,
and the chance of being stranded.

The driver follows the plan the route search made (:func:`designer.systems.greatrace.driving.plan.drive`): the
same route, the same actions in the same order, the fuel bought at the start of the same actions, the repairs
the plan makes, the damage split as the plan splits it, the TRANSPORT, ESCORTE and GUIDE cards and the ESCORTE
assistants where the plan plays them, and the plan's funding for what the purse lacks. On a route whose tiles
are all laid it drives exactly the plan: the same actions, francs, fuel and mechanic. Where a drawn tile is not
what the plan counted (the bag's expectation rounded up), the driver keeps to the plan and adds only what the
tile forces:

- at an action's start, fuel beyond the plan's purchase when the tank cannot pay the spaces still to cover up
  to where the action aims (known tiles exactly, open spaces at their planning cost), at the price
  where the car stands;
- a repair of the fewest levels (an extra action, at the price where the car stands) when the engine is at 0
  or the next known space asks more mechanic than the car has;
- a drawn DANGER: a spare ESCORTE card (one the plan does not play later), else its 2 mechanic, else an
  ESCORTE assistant; a drawn STOP ends the action unless a spare GUIDE card is held;
- a blind move that cannot be paid sends the car back and ends the action (the tile stays: FAQ);
- an action that ends early is followed by others that go on as far as the engine allows, through the pilot
  actions planned next (not past a planned repair or crossing), as a player goes on after a STOP;
- the purse: the first time it is short, the funding the plan takes for its whole shortfall; later, the
  fewest assistants for the gap.

The car is *stranded* when it must buy fuel or parts away from a city without the francs to pay: it waits
for funding where it stands.
"""
from __future__ import annotations

import math
import random
from statistics import mean

from designer.systems.greatrace.driving.costs import CostMap
from designer.systems.greatrace.driving.plan import Plan, funding_plan, plan_route
from designer.systems.greatrace.driving.routes import Route
from designer.systems.greatrace.driving.search import tiles_of
from designer.systems.greatrace.files.rules import Entry, entry_cost


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(math.ceil(q * len(s))) - 1))]


class _Stuck(Exception):
    """The car cannot go on (the reason is the message)."""


class _Drive:
    """One drive of a plan: the car, the purse, the bag and what was counted."""

    def __init__(self, cm: CostMap, plan: Plan, rng: random.Random, planned: dict | None = None,
                 funding: dict | None = None):
        rules, race = cm.rules, cm.race
        self.cm, self.plan, self.rules, self.rng = cm, plan, rules, rng
        self.gmax = {g: rules.gauge_max(g) for g in ("fuel", "engine", "chassis")}
        self.fuel = race.fuel if race.fuel is not None else self.gmax["fuel"]
        self.engine = race.engine if race.engine is not None else self.gmax["engine"]
        self.chassis = race.chassis if race.chassis is not None else self.gmax["chassis"]
        self.money = race.money
        # the hand: TRANSPORT, ESCORTE, GUIDE, as the plan keeps it at the start (discarded down to the chassis)
        self.hand = list(plan.driven.hand)
        self.planned = planned if planned is not None else tiles_of(cm)
        self.funding = funding if funding is not None else {}       # francs to raise -> funding_plan
        self.bag = [kind for kind, n in cm.bag.values() for _ in range(n)]
        self.drawn: dict = {}
        self.hexes = plan.route.hexes()
        self.pos = 0
        self.left = [0, 0, 0]                   # cards the plan still plays
        for a in plan.driven.schedule:
            self.left[0] += a.get("transport_cards", 0)
            self.left[1] += a.get("escort_cards", 0)
            self.left[2] += a.get("guides", 0)
        self.n = dict(pilots=0, repairs=0, escort_assistants=0, funding_actions=0, funding_assistants=0,
                      fuel=0, mech=0, francs=0, blind_failures=0)
        self.funded = False
        self.stranded = False

    # -- the purse ---------------------------------------------------------------------------------
    def pay(self, amount: int, away: bool) -> None:
        if amount <= self.money:
            self.money -= amount
            return
        if away:
            self.stranded = True
        gap = amount - self.money
        raise_for = max(gap, self.plan.shortfall) if not self.funded else gap
        self.funded = True
        if raise_for not in self.funding:
            self.funding[raise_for] = funding_plan(raise_for, self.rules)
        actions, assistants, raised = self.funding[raise_for]
        if raised < gap:
            raise _Stuck("the funding space cannot raise what the route costs")
        self.n["funding_actions"] += actions
        self.n["funding_assistants"] += assistants
        self.money += raised - amount

    def buy_fuel(self, levels: int) -> None:
        levels = max(0, min(levels, self.gmax["fuel"] - self.fuel))
        if levels:
            in_city = self.hexes[self.pos] in self.cm.cities
            francs = levels * self.rules.fuel_price(in_city)
            self.pay(francs, away=not in_city)
            self.fuel += levels
            self.n["francs"] += francs

    def repair(self, engine: int, chassis: int) -> None:
        engine = max(0, min(engine, self.gmax["engine"] - self.engine))
        chassis = max(0, min(chassis, self.gmax["chassis"] - self.chassis))
        if engine + chassis == 0:
            return
        in_city = self.hexes[self.pos] in self.cm.cities
        francs = (engine + chassis) * self.rules.repair_price(in_city)
        self.pay(francs, away=not in_city)
        self.engine += engine
        self.chassis += chassis
        self.n["francs"] += francs
        self.n["repairs"] += 1

    # -- the spaces ----------------------------------------------------------------------------------
    def entry(self, h) -> Entry | None:
        sp = self.cm.spaces[h]
        if sp.entry is not None:
            return sp.entry
        kind = self.drawn.get(h)
        if kind is None:
            return None
        return Entry(fuel=kind.fuel, mech=kind.mech, danger=kind.danger, stop=kind.stop, risk=sp.risk)

    def cost(self, h) -> tuple[int, int]:
        """Fuel and mechanic of entering h as far as the driver knows (an open space at its planning cost)."""
        e = self.entry(h)
        if e is None:
            t = self.planned[h]
            return t.fuel, t.mech
        fuel, mech = entry_cost(e, self.rules)
        return fuel, mech

    def fuel_ahead(self, target: int, steps: list[dict], first: int) -> int:
        """Fuel the spaces up to ``target`` (or the engine's reach) ask, to the first sure stop."""
        total = 0
        for i in range(self.pos + 1, min(target, self.pos + max(1, self.engine)) + 1):
            total += self.cost(self.hexes[i])[0]
            e = self.entry(self.hexes[i])
            step = _step(steps, i - 1 - first)
            if e is not None and (e.city or (e.stop and not step.get("guide"))):
                break
        return total

    def discard(self, step: dict) -> None:
        """Down to the chassis: cards above the plan's hand go first, then cards the plan does not play later."""
        planned = step.get("hand")
        for k in (0, 1, 2):
            while sum(self.hand) > self.chassis and planned is not None and self.hand[k] > planned[k]:
                self.hand[k] -= 1
        for spare in (True, False):
            for k in (0, 1, 2):
                while sum(self.hand) > self.chassis and self.hand[k] > (self.left[k] if spare else 0):
                    self.hand[k] -= 1

    # -- one action ----------------------------------------------------------------------------------
    def pilot(self, target: int, steps: list[dict], first: int, buy: int) -> None:
        """One pilot action from the car's place towards ``target`` (a position on the route); ``first``: where
        the planned action started, ``buy``: the fuel the plan buys at its start."""
        nxt = self.cost(self.hexes[self.pos + 1])
        e = self.entry(self.hexes[self.pos + 1])
        step = _step(steps, self.pos - first)
        if e is not None and e.danger and (step.get("escort_assistant") or step.get("escort_card") and self.hand[1]):
            nxt = nxt[0], nxt[1] - int(self.rules["danger_mechanic"])
        if self.engine <= 0 or nxt[1] > self.engine + self.chassis:
            levels = max(1 - self.engine, nxt[1] - self.engine - self.chassis, 0)
            up = min(levels, self.gmax["engine"] - self.engine)
            self.repair(up, levels - up)
            if self.engine <= 0 or nxt[1] > self.engine + self.chassis:
                raise _Stuck("the car cannot be mended to go on")
        need = self.fuel_ahead(target, steps, first)
        self.buy_fuel(buy + max(0, need - self.fuel - buy))
        self.n["pilots"] += 1
        moves, used = self.engine, 0
        while self.pos < target and used < moves:
            h = self.hexes[self.pos + 1]
            step = _step(steps, self.pos - first)
            e = self.entry(h)
            blind = e is None
            if blind:
                if not self.bag:
                    raise _Stuck("the bag is empty")
                self.drawn[h] = self.bag.pop(self.rng.randrange(len(self.bag)))
                e = self.entry(h)
            fuel, mech = entry_cost(e, self.rules)
            escort_card = assistant = False
            if e.danger and not e.city:
                if not blind:                             # a laid tile: as the plan plays it
                    escort_card, assistant = step.get("escort_card", False), step.get("escort_assistant", False)
                elif self.hand[1] > self.left[1]:
                    escort_card = True
                elif mech > self.engine + self.chassis:
                    assistant = True
                escort_card = escort_card and self.hand[1] > 0
                if escort_card or assistant:
                    mech -= int(self.rules["danger_mechanic"])
            if fuel > self.fuel or mech > self.engine + self.chassis:
                self.n["blind_failures"] += 1 if blind else 0
                return                                   # the car stays (or goes back); the action ends
            self.left[1] -= 1 if step.get("escort_card") else 0
            self.hand[1] -= 1 if escort_card else 0
            self.n["escort_assistants"] += 1 if assistant else 0
            x = min(max(step.get("engine", 0), mech - self.chassis, 0), mech, self.engine)
            self.engine -= x
            self.chassis -= mech - x
            self.fuel -= fuel
            self.n["fuel"] += fuel
            self.n["mech"] += mech
            self.pos += 1
            used += 1
            stop = e.stop and not e.city
            if step.get("guide"):
                self.left[2] -= 1
            if stop and self.hand[2] and (step.get("guide") if not blind else self.hand[2] > self.left[2]):
                self.hand[2] -= 1
                stop = False
            self.discard(step)
            if e.city or stop or self.engine <= 0:
                return

    def crossing(self, act: dict) -> None:
        land = int(self.rules["city_entry_fuel"])
        self.buy_fuel(act["buy"] + max(0, land - self.fuel - act["buy"]))
        cards = min(act["transport_cards"], self.hand[0])
        fare = self.rules.fare(act["printed_fare"], cards)
        self.pay(fare, away=False)
        if self.fuel < land:
            raise _Stuck("no fuel to land in the city the line goes to")
        self.hand[0] -= cards
        self.left[0] -= act["transport_cards"]
        self.n["francs"] += fare
        self.n["pilots"] += 1
        self.fuel -= land
        self.n["fuel"] += land
        self.pos += 1

    def run(self) -> dict:
        failed = None
        end = len(self.hexes) - 1
        schedule = self.plan.driven.schedule
        starts, steps, at = [], [], 0          # where each planned action starts; the plan's step into each space
        for act in schedule:
            starts.append(at)
            if act["action"] == "pilot":
                steps += act["steps"]
            elif act["action"] != "repair":
                steps.append({})
            at += len(act.get("hexes", ())) if act["action"] != "repair" else 0
        try:
            for k, act in enumerate(schedule):
                if self.pos >= end:
                    break
                if act["action"] == "repair":
                    self.buy_fuel(act["buy"])
                    self.repair(act["engine"], act["chassis"])
                elif act["action"] in ("sea", "air"):
                    self.crossing(act)
                else:
                    target = starts[k] + len(act["hexes"])
                    if self.pos >= target:
                        continue                 # driven already by an action that went on after a STOP
                    # the planned action from its start; after an early end, actions that go on as far as the
                    # engine allows, through the pilot actions planned next (not past a repair or a crossing)
                    on = k
                    while on + 1 < len(schedule) and schedule[on + 1]["action"] == "pilot":
                        on += 1
                    further = starts[on] + len(schedule[on]["hexes"])
                    buy, tries = (act["buy"], 0) if self.pos == starts[k] else (0, 0)
                    aim = target if self.pos == starts[k] else further
                    while self.pos < target:
                        tries += 1
                        if tries > 3 * (further - starts[k]) + 6:
                            raise _Stuck("the car makes no headway on this route")
                        self.pilot(aim, steps, 0, buy)
                        buy, aim = 0, further
            if self.pos < end:
                raise _Stuck("the plan ends before the finish")
        except _Stuck as why:
            failed = str(why)
        n = self.n
        actions = n["pilots"] + n["repairs"] + n["escort_assistants"]
        return {"stranded": self.stranded, "failed": failed, "actions": actions, "pilot_actions": n["pilots"],
                "repairs": n["repairs"], "escort_assistants": n["escort_assistants"], "fuel": n["fuel"],
                "mech": n["mech"], "francs": n["francs"], "blind_failures": n["blind_failures"],
                "funding_actions": n["funding_actions"], "funding_assistants": n["funding_assistants"],
                "rounds": int(math.ceil((actions + n["funding_assistants"]) / int(self.rules["assistants_per_round"]))),
                "money_left": self.money, "tiles_drawn": len(self.drawn)}


def _step(steps: list[dict], i: int) -> dict:
    return steps[i] if 0 <= i < len(steps) else {}


def run_once(cm: CostMap, plan: Plan | Route, rng: random.Random) -> dict:
    """One drive of ``plan`` (a Route is planned first) with tiles drawn by ``rng``."""
    if isinstance(plan, Route):
        route = plan
        plan = plan_route(cm, route)
        if plan is None:
            return _cannot()
    return _Drive(cm, plan, rng).run()


def _cannot() -> dict:
    return {"stranded": False, "failed": "the car cannot drive this route under the rules", "actions": 0,
            "pilot_actions": 0, "repairs": 0, "escort_assistants": 0, "fuel": 0, "mech": 0, "francs": 0,
            "blind_failures": 0, "funding_actions": 0, "funding_assistants": 0, "rounds": 0, "money_left": 0,
            "tiles_drawn": 0}


def simulate(cm: CostMap, plan: Plan | Route, runs: int = 1000, seed: int = 1) -> dict:
    """Summary of ``runs`` drives of the plan (reproducible with ``seed``)."""
    rng = random.Random(seed)
    if isinstance(plan, Route):
        plan = plan_route(cm, plan)
    planned, funding = tiles_of(cm), {}
    results = ([_Drive(cm, plan, rng, planned, funding).run() for _ in range(max(1, runs))] if plan is not None
               else [_cannot()] * max(1, runs))
    done = [r for r in results if not r["failed"]]
    out = {"runs": len(results), "seed": seed,
           "stranded_chance": round(mean(1 if r["stranded"] else 0 for r in results), 4),
           "failed_chance": round(1 - len(done) / len(results), 4), "failed_reasons": {},
           "blind_failure_chance": round(mean(1 if r["blind_failures"] else 0 for r in results), 4),
           "funding_chance": round(mean(1 if r["funding_actions"] else 0 for r in results), 4)}
    for r in results:
        if r["failed"]:
            out["failed_reasons"][r["failed"]] = out["failed_reasons"].get(r["failed"], 0) + 1
    for key in ("actions", "pilot_actions", "repairs", "fuel", "mech", "francs", "funding_actions", "rounds"):
        vals = [r[key] for r in done]
        out[key] = ({"mean": round(mean(vals), 2), "p10": _percentile(vals, 0.1), "p50": _percentile(vals, 0.5),
                     "p90": _percentile(vals, 0.9), "max": max(vals)} if vals else None)
    return out
