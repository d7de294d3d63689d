"""Expected stage time under the dice, with the best policy, by exact backward induction.

The driver rolls dice one by one (ART.4) and may stop after any die. A state inside a turn is
(cell, gear, dice used, gas used per road, hazard marks, marks on snow cells); at a turn boundary it is
(cell, gear). The car only moves forward, so the values are computed once each, from the finish back:

- stop: the time card of the gear, then the value of the turn boundary;
- roll a die towards a cell: with the die's hazard chance the mark is counted; reaching the turn's limit
  (ART.7.1: 3, 2 on snow with asphalt tyres, the soft-tyre sectors) is a loss of control: 1'00" and a restart
  in gear 1 from the cell's restart cell (ART.7.3-7.4); a mark on a double downshift (ART.19) or on a bump
  taken one gear over (ART.11) is a loss; a mark
  on a ford taken while changing gear ends the turn there without a loss, even when it is the turn's limiting
  mark (ART.23: "sans perte de contrôle", decided over ART.7.1); a loss crossing the finish line still
  finishes (ART.13).

With ``big_attack`` (ART.5), each turn boundary may instead roll a whole safe plan of two dice or more at
once: one second won per die; when the dice show the turn's limit of marks, the player lays some of them
again as a legal chain "en les combinant librement" and control is lost on the cell of the die that brings the
limit, the cheapest such cell (:mod:`.relay`).

The loss-of-control card is turned (ART.7.2): a spin (the ruleset's ``spin_chance``) does no damage; off the road
beside forest or rocks costs black dice for the rest of the stage (ART.8): the car after it is solved as its own
car with fewer dice (one die at least is kept: decided; no repair within a stage, ART.14).

A cut card is drawn on entering a cut (ART.9.3), with the ruleset's card chances: a good or dirty card costs
this car nothing (a dirty cut slows the cars behind: the table of several cars prices it), a puncture takes a gas
die for the rest of the stage and a third one with none repaired retires the car (``retirement_seconds``). At a
turn boundary in gear 0 or 1 a punctured car may play its spare wheel (ART.10): the card's seconds are the turn,
one puncture is repaired and the car restarts in gear 1 (gear 0 here); once a stage.

With ``big_attack`` the seconds won are held (up to ``drop_seconds_bank_cap``) and may be dropped in a later
turn rolled die by die (ART.6): once ``drop_seconds_after_marks`` marks show, a die may be placed instead of
rolled, for 1 s, then 2 s, ... in that turn; a placed die shows no mark (no loss, no stop in a ford).

A car holding its SISU card (ART.7.5) may cancel a loss of control that the dice made (marks, a bump taken one
gear over, a double downshift): the move is made, the card is gone, and the turn stops there (``sisu_after``:
stop) or goes on with the marks forgotten (continue). The policy plays it where it pays.
:mod:`designer.systems.classic.dice.policy` hands this policy to the shared solver (:mod:`designer.racing.mdp`)
for its exact statistics and plays it with random dice to check the value by Monte Carlo.
"""
from __future__ import annotations

import sys
from dataclasses import replace
from typing import NamedTuple

import networkx as nx

from designer.systems.classic.dice import moves as M
from designer.systems.classic.dice import relay
from designer.systems.classic.files.rules import Rules


# The expected time grows with the cells of the course: about 14 ms a cell for the whole analysis, 110-120 ms
# with Big Attack (its plans of several dice, and where a failed one may be laid again), on a straight road, the
# worst case (benchmarks/bench_classic.py --long: 402 cells took 5.6 CPU s, 47.6 s with Big Attack; 202 cells
# 23.2 s). A file may ask for a course far longer (four 20 x 20 boards crossed eight times): refused above these
# caps, so that an analysis stays near 30 s.
MAX_CELLS = 1500
MAX_CELLS_ATTACK = 250


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


FINISH_AT = ("finish", 0)
ON_PURPOSE = "on purpose"      # a Branch's ``loss`` (true) when the move itself loses control (ART.7.1, ART.11, ART.19)


class Branch(NamedTuple):
    """One way a die (or a Big Attack) can go: its chance, the seconds it adds, the car after it (its solver)
    and either the turn going on (``ts``) or the place it ended at (``at``: (cell, gear), or FINISH_AT)."""
    p: float
    seconds: float
    solver: "Solver"
    ts: M.TurnState | None = None
    hz: int = 0
    hz_snow: int = 0
    bank: int = 0
    placed: int = 0
    at: tuple | None = None
    loss: bool | str = False       # a loss of control (ON_PURPOSE where the move itself makes it)
    card: str | None = None        # the cut card drawn on this die: good, dirty, puncture
    info: int = 0                  # black dice lost (a loss of control; crossing the finish after a loss)
    spin: bool = False             # a loss of control whose card shows the spin (ART.7.2: no damage)


class Solver:
    def __init__(self, g: nx.DiGraph, rules: Rules, car: M.Car | None = None, big_attack: bool = False,
                 family: dict | None = None, bank_cap: int | None = None):
        self.g, self.rules, self.car = g, rules, car or M.Car()
        self.family = family if family is not None else {}      # the car (damage, punctures, cards...) -> solver
        self.family[self.car] = self
        self.big_attack = big_attack
        # seconds held for dropping (ART.6) come only from a Big Attack; a test may hand a car some to begin with
        self.cap = bank_cap if bank_cap is not None else (rules.drop_bank_cap if big_attack else 0)
        self.attack: dict = {}      # (cell, gear, bank) -> the Big Attack plan chosen there, or None
        self.decision: dict = {}    # (cell, gear, bank) -> "roll", "spare" or a Big Attack plan
        self.V: dict = {}
        self._steps: dict = {}
        self._hazard: dict = {}
        self.W: dict = {}
        self._plan_cache: dict = {}
        self._plan_outcomes: dict = {}
        self._relay_cache: dict = {}
        self._relay_ends: dict = {}
        self._relay_values: dict = {}
        self._cut_cells = {n for n, d in g.nodes(data=True) if d.get("lane") == "cut"}

    # -- the car after an event ---------------------------------------------------------------
    def variant(self, **changes) -> "Solver":
        """The solver of this car with ``changes`` (damage, punctures, spare, sisu, dirt, leader)."""
        car = replace(self.car, **changes)
        hit = self.family.get(car)
        if hit is None:
            hit = Solver(self.g, self.rules, car, self.big_attack, self.family, self.cap)
        return hit

    def damaged(self, lost: int) -> "Solver":
        """The solver of this car after ``lost`` more black dice (ART.8); at least one die is kept (decided)."""
        dmg = min(self.car.damage + lost, self.rules.top - 1)
        return self if dmg == self.car.damage else self.variant(damage=dmg)

    def punctured(self, n: int = 1) -> "Solver | None":
        """The car after ``n`` more punctures; None when it retires (a third one with none repaired, ART.9.3)."""
        if self.car.punctures + n >= 3:
            return None
        return self.variant(punctures=self.car.punctures + n) if n else self

    def after_loss(self, node: str) -> list[tuple["Solver", str, float, bool]]:
        """The backs of the loss-of-control card on ``node`` (ART.7.2): (the car's solver after it, where it
        restarts, chance, spin). A spin does no damage; off the road the environment takes its black dice (ART.8).
        *Decided*: a spun car restarts where one off the road does (ART.7.4's inside line after a drift)."""
        d = self.g.nodes[node]
        restart, spin = d.get("restart", node), self.rules.spin_chance
        off = self.damaged(d.get("damage", 0))
        return [(c, restart, p, s) for c, p, s in ((self, spin, True), (off, 1 - spin, False)) if p > 0]

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
            die_key = M.hazard_die(self.rules, self.g, self.car, die, to)
            hit = self._hazard[key] = float(self.rules.hazard_chance(die_key))
        return hit

    def draws_card(self, frm: str, to: str) -> bool:
        """A cut card is drawn on entering a cut (ART.9.3)."""
        return (to in self._cut_cells and frm not in self._cut_cells
                and not (self.car.clean and self.g.nodes[to].get("corner") in self.car.clean))

    def _snow(self, node: str) -> bool:
        return node != "finish" and self.g.nodes[node].get("surface") == "snow"

    # -- values -----------------------------------------------------------------------------
    def value(self, node: str, gear: int, bank: int = 0) -> float:
        """Expected seconds from a turn boundary to the end of the stage, holding ``bank`` seconds (ART.6)."""
        key = (node, gear, bank)
        if key not in self.V:
            best, how = self._within(M.TurnState(node, gear), 0, 0, bank, 0)[0], "roll"
            plan = None
            if self.big_attack:
                for steps in self._plans(node, gear):
                    cost = self._attack_cost(node, gear, steps, bank)
                    if cost < best - 1e-12:
                        best, plan, how = cost, steps, steps
            car = self.car
            if car.punctures and car.spare and gear <= 1 and node != "finish":
                # ART.10: the spare wheel at the start of a turn in gear 0 or 1, the car restarts in gear 1
                cost = self.rules.spare_wheel_seconds + self.repaired().value(node, 0, bank)
                if cost < best - 1e-12:
                    best, plan, how = cost, None, "spare"
            self.attack[key] = plan
            self.decision[key] = how
            self.V[key] = best
        return self.V[key]

    def repaired(self) -> "Solver":
        return self.variant(punctures=self.car.punctures - 1, spare=False)

    def worth(self, branches) -> float:
        return sum(b.p * self.branch_value(b) for b in branches)

    @staticmethod
    def branch_value(b: Branch) -> float:
        if b.ts is not None:
            return b.seconds + b.solver._within(b.ts, b.hz, b.hz_snow, b.bank, b.placed)[0]
        if b.at == FINISH_AT:
            return b.seconds
        return b.seconds + b.solver.value(b.at[0], b.at[1], b.bank)

    # -- Big Attack (ART.5) --------------------------------------------------------------------
    def _plans(self, node: str, gear: int) -> list[list[M.Step]]:
        """Every safe die sequence of two dice or more from a turn boundary (no ford, bump or double risk)."""
        hit = self._plan_cache.get((node, gear))
        if hit is not None:
            return hit
        out = self._plan_cache[(node, gear)] = []

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

    def attack_branches(self, node: str, gear: int, steps: list[M.Step], bank: int) -> list[Branch]:
        """The ways a Big Attack plan from a turn boundary ends, seconds won (one a die) counted off and held.

        Decided: the cut cards of the cells the car passes are drawn, a puncture taking effect once the move is
        made (the plan's gas dice are not lost: ART.5 remark 2 is not modelled); the SISU card, held, may cancel
        a loss and make the whole move (ART.7.5), chosen when it pays on average."""
        k, rules = len(steps), self.rules
        held = min(self.cap, bank + k)
        last = steps[-1]
        out: list[Branch] = []
        for q, lost, stop, n_stop, points, n_last in self._plan_table(node, gear, steps):
            if not lost:
                for cars, pc in self._after_cards(n_stop):
                    if cars is None:
                        out.append(Branch(q * pc, rules.retirement_seconds - k, self, at=FINISH_AT, card="puncture"))
                    elif stop.event == "finish":
                        out.append(Branch(q * pc, rules.card(stop.gear) - k, cars, at=FINISH_AT))
                    else:
                        out.append(Branch(q * pc, rules.card(stop.gear) - k, cars, at=(stop.to, stop.gear), bank=held))
                continue
            loss = []
            kind, at, n = self._relay_best(points, held)[1]
            for cars, pc in self._after_cards(n):
                if cars is None:
                    loss.append(Branch(q * pc, rules.retirement_seconds - k, self, at=FINISH_AT, card="puncture"))
                elif kind == "finish":        # ART.13: control lost crossing the line, a black die for later
                    loss.append(Branch(q * pc, rules.card(at) - k, cars, at=FINISH_AT, info=1))
                else:
                    for hurt, restart, ps, spin in cars.after_loss(at):
                        loss.append(Branch(q * pc * ps, rules.loss_seconds - k, hurt, at=(restart, 0), bank=held,
                                           loss=True, info=hurt.car.damage - self.car.damage, spin=spin))
            if self.car.sisu:
                saved = []
                for cars, pc in self._after_cards(n_last):
                    if cars is None:
                        saved.append(Branch(q * pc, rules.retirement_seconds - k, self, at=FINISH_AT, card="puncture"))
                        continue
                    cars = cars.variant(sisu=False)
                    at = FINISH_AT if last.event == "finish" else (last.to, last.gear)
                    saved.append(Branch(q * pc, rules.card(last.gear) - k, cars, at=at, bank=held))
                if self.worth(saved) < self.worth(loss):
                    loss = saved
            out += loss
        return out

    def _plan_table(self, node: str, gear: int, steps) -> list:
        """A plan's outcomes (:func:`designer.systems.classic.dice.relay.plan_table`, cached)."""
        hit = self._plan_outcomes.get(id(steps))
        if hit is None:
            hit = self._plan_outcomes[id(steps)] = (steps, relay.plan_table(self, node, gear, steps))
        return hit[1]

    def _relay_cost(self, point, held: int) -> float:
        """The value of a failed attack ending at ``point`` (:mod:`.relay`), before the seconds it won: its card,
        the cut cards drawn on the way, the loss's minute and restart."""
        kind, at, n = point
        rules, total = self.rules, 0.0
        for cars, pc in self._after_cards(n):
            if cars is None:
                total += pc * rules.retirement_seconds
            elif kind == "finish":
                total += pc * rules.card(at)
            else:
                total += pc * sum(ps * (rules.loss_seconds + hurt.value(restart, 0, held))
                                  for hurt, restart, ps, _ in cars.after_loss(at))
        return total

    def _relay_best(self, points, held: int) -> tuple:
        """(value before the seconds won, the place) where a failed attack is laid to end: the cheapest, the first
        of equals (cached per set of places: the values it reads are final once read)."""
        key = (id(points), held)
        hit = self._relay_values.get(key)
        if hit is None:
            hit = self._relay_values[key] = min(((self._relay_cost(pt, held), pt) for pt in points),
                                                key=lambda c: c[0])
        return hit

    def _attack_cost(self, node: str, gear: int, steps, bank: int) -> float:
        """The value of :meth:`attack_branches` without building its branches (the solver's inner loop)."""
        k, rules = len(steps), self.rules
        held = min(self.cap, bank + k)
        last = steps[-1]
        total = 0.0
        for q, lost, stop, n_stop, points, n_last in self._plan_table(node, gear, steps):
            if not lost:
                for cars, pc in self._after_cards(n_stop):
                    if cars is None:
                        v = rules.retirement_seconds - k
                    elif stop.event == "finish":
                        v = rules.card(stop.gear) - k
                    else:
                        v = rules.card(stop.gear) - k + cars.value(stop.to, stop.gear, held)
                    total += q * pc * v
                continue
            loss = self._relay_best(points, held)[0] - k
            if self.car.sisu:
                saved = 0.0
                for cars, pc in self._after_cards(n_last):
                    if cars is None:
                        saved += pc * (rules.retirement_seconds - k)
                    else:
                        cars = cars.variant(sisu=False)
                        saved += pc * (rules.card(last.gear) - k + (0.0 if last.event == "finish" else
                                                                    cars.value(last.to, last.gear, held)))
                loss = min(loss, saved)
            total += q * loss
        return total

    def _after_cards(self, n: int):
        """(the car after ``n`` cut cards, chance) for each number of punctures among them (None: retired)."""
        punct = self.rules.cut_card.get("puncture", 0.0)
        if not n or not punct:
            return [(self, 1.0)]
        from math import comb
        return [(self.punctured(j), comb(n, j) * punct ** j * (1 - punct) ** (n - j)) for j in range(n + 1)]

    # -- one turn, die by die ----------------------------------------------------------------------
    def _within(self, state: M.TurnState, hz: int, hz_snow: int, bank: int = 0, placed: int = 0):
        key = (state.node, state.gear, state.used, tuple(sorted(state.gas_used.items())), hz, hz_snow,
               bool(state.steps), bank, placed)
        if key in self.W:
            return self.W[key]
        best = self.W[key] = self.best_action(state, hz, hz_snow, bank, placed)
        return best

    def best_action(self, state: M.TurnState, hz: int, hz_snow: int, bank: int = 0, placed: int = 0,
                    barred=()) -> tuple:
        """(expected seconds, action) of the best way on from a turn state: ``"stop"`` (after a move), a die
        ``(how, die, cell)`` rolled or placed, or None when nothing is possible; ``barred``: cells no die may
        enter (taken by other cars at the table)."""
        best = (float("inf"), None)
        if state.steps:
            best = (self.rules.card(state.gear) + self.value(state.node, state.gear, bank), "stop")
        place = self.can_place(hz, bank, placed)
        for die, to, s, nxt, p in self._moves(state) + self._loss_moves(state):
            if to in barred:
                continue
            for how in (("roll", "place") if place and s.event != "loss" else ("roll",)):
                cost = self.worth(self.branches(state, hz, hz_snow, bank, placed, how, s, nxt, p))
                if cost < best[0] - 1e-12:
                    best = (cost, (how, die, to))
        return best

    def can_place(self, hz: int, bank: int, placed: int) -> bool:
        """ART.6: a die may be placed for seconds once enough marks show and the seconds are held."""
        drop = self.rules.drop_seconds
        return bool(bank) and hz >= self.rules.drop_after_marks and placed < len(drop) and drop[placed] <= bank

    def branches(self, state, hz, hz_snow, bank, placed, how, s, nxt, p) -> list[Branch]:
        """Every way one die from ``state`` can go: rolled (a mark or not) or placed (ART.6), then the cut card
        of a cut entered (ART.9.3) and, on a loss of control the dice made, the SISU card where it pays."""
        rules = self.rules
        seconds = 0
        if how == "place":
            seconds = rules.drop_seconds[placed]
            bank, placed, marks = bank - seconds, placed + 1, ((False, 1.0),)
        else:
            marks = ((False, 1 - p), (True, p)) if p else ((False, 1.0),)
        if s.event == "loss":           # lost whatever the dice show (a move made on purpose): no SISU (ART.7.5)
            return [Branch(ps, seconds + rules.loss_seconds, hurt, at=(restart, 0), bank=bank, loss=ON_PURPOSE,
                           info=hurt.car.damage - self.car.damage, spin=spin)
                    for hurt, restart, ps, spin in self.after_loss(s.to)]
        out: list[Branch] = []
        for marked, pm in marks:
            h, hs = hz + marked, hz_snow + (marked and self._snow(s.to))
            if s.event == "finish":
                hurt = s.damage or (marked and (self._lost("finish", h, hs) or s.risk == "bump"))
                out.append(Branch(pm, seconds + rules.card(nxt.gear), self, at=FINISH_AT, info=int(bool(hurt))))
                continue
            if marked and s.risk == "ford":
                # ART.23: "la fin du tour sur le gué sans perte de contrôle", even on the turn's limiting mark
                out.append(Branch(pm, seconds + rules.card(nxt.gear), self, at=(s.to, nxt.gear), bank=bank))
                continue
            if marked and (self._lost(s.to, h, hs) or s.risk in ("double", "bump")):
                out += self._loss(pm, seconds, s, nxt, h, hs, bank, placed)
                continue
            if self.draws_card(state.node, s.to):
                for card, pc in rules.cut_card.items():
                    if not pc:
                        continue
                    car = self.punctured() if card == "puncture" else self
                    if car is None:
                        out.append(Branch(pm * pc, seconds + rules.retirement_seconds, self, at=FINISH_AT,
                                          card=card))
                    else:
                        out.append(Branch(pm * pc, seconds, car, nxt, h, hs, bank, placed, card=card))
                continue
            out.append(Branch(pm, seconds, self, nxt, h, hs, bank, placed))
        return out

    def _loss(self, p, seconds, s, nxt, hz, hz_snow, bank, placed) -> list[Branch]:
        """A loss of control the dice made on ``s``: the minute and the restart after each back of the card, or
        the SISU card played before it is turned (ART.7.5) where that pays on average."""
        rules = self.rules
        loss = [Branch(p * ps, seconds + rules.loss_seconds, hurt, at=(restart, 0), bank=bank, loss=True,
                       info=hurt.car.damage - self.car.damage, spin=spin)
                for hurt, restart, ps, spin in self.after_loss(s.to)]
        if not self.car.sisu:
            return loss
        saved = self.variant(sisu=False)
        if rules.sisu_after == "continue":
            sisu = Branch(p, seconds, saved, nxt, 0, 0, bank, placed)
        else:
            sisu = Branch(p, seconds + rules.card(nxt.gear), saved, at=(s.to, nxt.gear), bank=bank)
        return loss if self.worth(loss) <= self.worth([sisu]) else [sisu]

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

    def _loss_moves(self, state: M.TurnState) -> list:
        """The legal moves that lose control whatever the dice show (ART.7.1: a corner entered 1 or 2 gears over
        its highest note; ART.11: a bump 2 gears over; ART.19: a double downshift the dashboard does not allow),
        as :meth:`_moves` gives the safe ones; none when the ruleset's ``deliberate_loss`` is false."""
        if not self.rules.deliberate_loss:
            return []
        key = ("loss", state.node, state.gear, state.used, tuple(sorted(state.gas_used.items())))
        hit = self._steps.get(key)
        if hit is None:
            hit = []
            for die, to, s in M.legal_steps(self.g, self.rules, self.car, state, safe=False):
                if s.event == "loss" and s.to != "finish":       # over the line it finishes: a safe move
                    nxt = M.apply(self.g, self.rules, self.car, state, die, to)
                    nxt.steps = [s]
                    hit.append((die, to, s, nxt, self._p(die, to)))
            self._steps[key] = hit
        return hit

    def solve(self, bank: int = 0) -> float:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20000))
        try:
            return self.value("start", 0, bank)
        finally:
            sys.setrecursionlimit(limit)


def expected_time(g: nx.DiGraph, rules: Rules, car: M.Car | None = None, big_attack: bool = False) -> dict:
    solver = Solver(g, rules, car, big_attack)
    seconds = solver.solve()
    attacks = sum(1 for p in solver.attack.values() if p)
    states = sum(len(x.W) for x in solver.family.values())
    return {"seconds": round(seconds, 1), "states": states, "solver": solver, "attack_states": attacks}
