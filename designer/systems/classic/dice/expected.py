"""Expected stage time under the dice, with the best policy, by exact backward induction.

The driver rolls dice one by one (ART.4) and may stop after any die. A state inside a turn is
(cell, gear, dice used, gas used per road, hazard marks, marks on snow cells); at a turn boundary it is
(cell, gear). The car only moves forward, so the values are computed once each, from the finish back:

- stop: the time card of the gear, then the value of the turn boundary;
- roll a die towards a cell: with the die's hazard chance the mark is counted; reaching the turn's limit
  (ART.7.1: 3, 2 on snow with asphalt tyres, the soft-tyre sectors) is a loss of control: 1'00" and a restart
  in gear 1 from the cell's restart cell (ART.7.3-7.4); a mark on a double downshift (ART.19) or on a bump
  taken one gear over (ART.11) is a loss; a mark
  on a ford taken while changing gear ends the turn there (ART.23); a loss crossing the finish line still
  finishes (ART.13).

With ``big_attack`` (ART.5), each turn boundary may instead roll a whole safe plan of two dice or more at
once: one second won per die; too many marks lose control on the cell of the die that brings the limit.

A loss of control beside forest or rocks costs black dice for the rest of the stage (ART.8): the car after it
is solved as its own car with fewer dice (one die at least is kept: decided; no repair within a stage, ART.14).

Left out of the value (said in the result): cut cards (ART.9.3), dropping seconds (ART.6), the SISU card (ART.7.5).
:mod:`designer.systems.classic.dice.policy` hands this policy to the shared solver (:mod:`designer.racing.mdp`)
for its exact statistics and plays it with random dice to check the value by Monte Carlo.
"""
from __future__ import annotations

import sys
from dataclasses import replace

import networkx as nx

from designer.systems.classic.dice import moves as M
from designer.systems.classic.files.rules import Rules


# The expected time grows with the cells of the course: about 13 ms a cell for the whole analysis, 60 ms with
# Big Attack (its plans of several dice), a little more per cell on longer roads (benchmarks/bench_classic.py
# --long: 402 cells took 5.3 CPU s and 165 MB, 24.8 s with Big Attack). A file may ask for a course far longer
# (four 20 x 20 boards crossed eight times): refused above these caps, so that an analysis stays near 30 s.
MAX_CELLS = 1500
MAX_CELLS_ATTACK = 420


def check_size(g: nx.DiGraph, big_attack: bool, where: str | None = None) -> None:
    """A DesignerError when the course is too long for the expected time to be computed in about 30 s."""
    from designer.core.errors import DesignerError

    cap = MAX_CELLS_ATTACK if big_attack else MAX_CELLS
    n = g.number_of_nodes()
    if n > cap:
        raise DesignerError(f"the course has {n} cells; the expected time is computed up to {cap} cells"
                            + (" with Big Attack" if big_attack else ""), where=where,
                            hint="analyse it without Big Attack (big_attack: false)" if big_attack and n <= MAX_CELLS
                            else "shorten the route, or split it into two stages")


class Solver:
    def __init__(self, g: nx.DiGraph, rules: Rules, car: M.Car | None = None, big_attack: bool = False,
                 family: dict | None = None):
        self.g, self.rules, self.car = g, rules, car or M.Car()
        self.family = family if family is not None else {}      # black dice lost -> the solver of that car
        self.family[self.car.damage] = self
        self.big_attack = big_attack
        self.attack: dict = {}      # (cell, gear) -> the Big Attack plan chosen there, or None
        self.V: dict = {}
        self._steps: dict = {}
        self._hazard: dict = {}
        self.W: dict = {}
        self.loss_chance: dict = {}

    # -- limits -----------------------------------------------------------------------------
    def damaged(self, lost: int) -> "Solver":
        """The solver of this car after ``lost`` more black dice (ART.8); at least one die is kept (decided)."""
        dmg = min(self.car.damage + lost, self.rules.top - 1)
        hit = self.family.get(dmg)
        if hit is None:
            hit = Solver(self.g, self.rules, replace(self.car, damage=dmg), self.big_attack, self.family)
        return hit

    def after_loss(self, node: str) -> tuple["Solver", str]:
        """Where the car restarts after a loss of control on ``node`` and the solver of the damaged car."""
        d = self.g.nodes[node]
        return self.damaged(d.get("damage", 0)), d.get("restart", node)

    def _lost(self, node: str, hz: int, hz_snow: int) -> bool:
        d = self.g.nodes[node]
        car, rules = self.car, self.rules
        limit = rules.hazard_limit_for(car.tyres, "asphalt", d.get("sector"))
        if hz >= limit:
            return True
        on_snow = rules.snow_limit(car.tyres)
        return on_snow is not None and hz_snow >= on_snow

    def _p(self, die: str, to: str) -> float:
        key = (die, to)
        hit = self._hazard.get(key)
        if hit is None:
            hit = self._hazard[key] = float(self.rules.hazard_chance(M.hazard_die(self.rules, self.g, self.car, die, to)))
        return hit

    # -- values -----------------------------------------------------------------------------
    def value(self, node: str, gear: int) -> float:
        """Expected seconds from a turn boundary to the end of the stage."""
        key = (node, gear)
        if key not in self.V:
            best = self._within(M.TurnState(node, gear), 0, 0)[0]
            plan = None
            if self.big_attack:
                for steps in self._plans(node, gear):
                    cost = self._attack_cost(steps)
                    if cost < best - 1e-12:
                        best, plan = cost, steps
            self.attack[key] = plan
            self.V[key] = best
        return self.V[key]

    # -- Big Attack (ART.5) --------------------------------------------------------------------
    def _plans(self, node: str, gear: int) -> list[list[M.Step]]:
        """Every safe die sequence of two dice or more from a turn boundary (no ford, bump or double risk)."""
        out = []

        def walk(state: M.TurnState):
            for die, to, s in M.legal_steps(self.g, self.rules, self.car, state):
                if s.risk:
                    continue
                nxt = M.apply(self.g, self.rules, self.car, state, die, to)
                if len(nxt.steps) >= 2:
                    out.append(nxt.steps)
                if s.event != "finish":
                    walk(nxt)

        walk(M.TurnState(node, gear))
        return out

    def attack_outcomes(self, steps: list[M.Step]) -> list[tuple[float, bool, M.Step]]:
        """(chance, control lost, the step where the car stops) for the dice of a plan rolled together.

        ART.5 lets the rolled dice be combined freely, but in the usual chaining of the gears, up to the die
        that brings the turn's limit of marks. Decided: the dice are used in the planned order (always a legal
        chaining), so control is lost on the cell of the die that brings the limit in that order; a reordering
        that stops a cell further is not counted (the value is one the player can surely reach). A mark on the
        die that crosses the finish line still finishes (ART.13).
        """
        live = {(0, 0): 1.0}
        out = []
        for s in steps:
            p = self._p(s.die, s.to)
            node = s.to if s.to != "finish" else None
            snow = node is not None and self.g.nodes[node].get("surface") == "snow"
            new: dict = {}
            for (m, ms), q in live.items():
                new[(m, ms)] = new.get((m, ms), 0.0) + q * (1 - p)
                k = (m + 1, ms + snow)
                if p and node is not None and self._lost(node, *k):
                    out.append((q * p, True, s))
                elif p:
                    new[k] = new.get(k, 0.0) + q * p
            live = new
        out.append((sum(live.values()), False, steps[-1]))
        return out

    def _attack_cost(self, steps: list[M.Step]) -> float:
        k, rules = len(steps), self.rules
        total = 0.0
        for q, lost, stop in self.attack_outcomes(steps):
            if stop.event == "finish":
                total += q * (rules.card(stop.gear) - k)
            elif lost:
                hurt, restart = self.after_loss(stop.to)
                total += q * (rules.loss_seconds - k + hurt.value(restart, 0))
            else:
                total += q * (rules.card(stop.gear) - k + self.value(stop.to, stop.gear))
        return total

    def _within(self, state: M.TurnState, hz: int, hz_snow: int):
        key = (state.node, state.gear, state.used, tuple(sorted(state.gas_used.items())), hz, hz_snow,
               bool(state.steps))
        if key in self.W:
            return self.W[key]
        best = (float("inf"), None)
        if state.steps:
            best = (self.rules.card(state.gear) + self.value(state.node, state.gear), "stop")
        for die, to, s, nxt, p in self._moves(state):
            calm = self._after(nxt, s, hz, hz_snow, False)
            marked = self._after(nxt, s, hz + 1, hz_snow + (self.g.nodes[s.to].get("surface") == "snow"
                                                            if s.to != "finish" else 0), True)
            cost = (1 - p) * calm + p * marked
            if cost < best[0] - 1e-12:
                best = (cost, (die, to))
        self.W[key] = best
        return best

    def _moves(self, state: M.TurnState) -> list:
        """The legal safe steps from a turn state, with the state after each and its hazard chance (cached:
        the marks so far do not change which dice may be rolled)."""
        key = (state.node, state.gear, state.used, tuple(sorted(state.gas_used.items())))
        hit = self._steps.get(key)
        if hit is None:
            hit = []
            for die, to, s in M.legal_steps(self.g, self.rules, self.car, state):
                nxt = M.apply(self.g, self.rules, self.car, state, die, to)
                nxt.steps = [s]          # only "has moved" matters for the key
                hit.append((die, to, s, nxt, self._p(die, to)))
            self._steps[key] = hit
        return hit

    def _after(self, nxt: M.TurnState, s: M.Step, hz: int, hz_snow: int, marked: bool) -> float:
        rules = self.rules
        if s.event == "finish":
            return rules.card(nxt.gear)
        if marked and (self._lost(s.to, hz, hz_snow) or s.risk in ("double", "bump")):
            hurt, restart = self.after_loss(s.to)
            return rules.loss_seconds + hurt.value(restart, 0)
        if marked and s.risk == "ford":
            return rules.card(nxt.gear) + self.value(s.to, nxt.gear)
        return self._within(nxt, hz, hz_snow)[0]

    def solve(self) -> float:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20000))
        try:
            return self.value("start", 0)
        finally:
            sys.setrecursionlimit(limit)


def expected_time(g: nx.DiGraph, rules: Rules, car: M.Car | None = None, big_attack: bool = False) -> dict:
    solver = Solver(g, rules, car, big_attack)
    seconds = solver.solve()
    attacks = sum(1 for p in solver.attack.values() if p)
    states = sum(len(x.W) for x in solver.family.values())
    return {"seconds": round(seconds, 1), "states": states, "solver": solver, "attack_states": attacks}
