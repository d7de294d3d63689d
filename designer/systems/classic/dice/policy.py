"""Classic Rallyman as a turn model of the shared expected-time solver (:mod:`designer.racing.mdp`).

States are turn boundaries ``(cell, gear, black dice lost, the car)`` (gear 0: standing, after the start, a loss
of control or the spare wheel; the car: its punctures, spare wheel and SISU card), with the seconds held for
dropping (ART.6) as the shared solver's bank; ``FINISH`` ends the stage. The values and the policy inside a turn
come from
:class:`designer.systems.classic.dice.expected.Solver`; this module gives the shared solver what it asks of a game:
the exact outcomes of one turn played with that policy (for the policy's statistics: spread, turns, chance of a
loss of control) and a player that rolls real dice (for the Monte Carlo check in :mod:`designer.racing.simulate`).
"""
from __future__ import annotations

import networkx as nx
import numpy as np

from designer.racing.mdp import Outcome, solve
from designer.racing.simulate import simulate as mc
from designer.systems.classic.dice import moves as M
from designer.systems.classic.dice.expected import FINISH_AT, Branch, Solver

FINISH = ("finish", 0, 0, None)
RETIRED = ("finish", 0, 0, "retired")          # a third puncture with none repaired (ART.9.3)


class Roll:
    """The decision "roll the dice one by one, stopping as the policy says"."""
    turn = True

    def __repr__(self) -> str:
        return "Roll()"


class Spare:
    """The decision "play the spare wheel card this turn" (ART.10)."""
    turn = True

    def __repr__(self) -> str:
        return "Spare()"


def state_of(b: Branch):
    """The turn-boundary state a branch ends in: (cell, gear, black dice lost, the car)."""
    if b.at == FINISH_AT:
        return RETIRED if b.card == "puncture" else FINISH
    return (b.at[0], b.at[1], b.solver.car.damage, b.solver.car)


class ClassicModel:
    def __init__(self, solver: Solver):
        self.solver = solver
        self.bank = solver.cap                                # seconds held for dropping (ART.6), 0..cap
        car = solver.car
        self.start = ("start", 0, car.damage, car)            # a car may start with black dice lost (ART.14)
        g = nx.DiGraph(solver.g.edges)
        for n, d in solver.g.nodes(data=True):
            if d.get("restart") and d["restart"] != n:
                g.add_edge(n, d["restart"])        # a restart lies after the cell where control was lost
        self.order = {n: i for i, n in enumerate(nx.topological_sort(g))}

    # -- what the shared solver asks ------------------------------------------------------------
    def terminal(self, state):
        return np.zeros(self.bank + 1) if state[0] == "finish" else None

    def progress(self, state) -> float:
        # the spare wheel leaves the car on its cell, standing: a car without it counts as further on
        car = state[3]
        return self.order[state[0]] * 10 + (0 if state[1] == 0 else 1) + (2 if isinstance(car, M.Car)
                                                                           and not car.spare else 0)

    def _of(self, state) -> Solver:
        car = state[3]
        hit = self.solver.family.get(car)
        return hit if hit is not None else self.solver.variant(**{k: getattr(car, k) for k in car.__dataclass_fields__})

    def decide(self, state, value):
        solver = self._of(state)
        values, decisions = [], []
        for b in range(self.bank + 1):
            values.append(solver.value(state[0], state[1], b))
            how = solver.decision[(state[0], state[1], b)]
            decisions.append(Roll() if how == "roll" else Spare() if how == "spare" else how)
        return np.array(values), decisions

    def outcomes(self, state, bank, decision, value) -> list[Outcome]:
        solver = self._of(state)
        if isinstance(decision, Spare):
            return [self._spare(solver, state, bank)]
        if not isinstance(decision, Roll):
            return self._attack_outcomes(solver, state, decision, bank)
        out: list[Outcome] = []
        self._walk(solver, M.TurnState(state[0], state[1]), 0, 0, bank, 0, 1.0, 0.0, out, None)
        return out

    @staticmethod
    def _spare(solver: Solver, state, bank) -> Outcome:
        fixed = solver.repaired()
        return Outcome(1.0, solver.rules.spare_wheel_seconds, (state[0], 0, fixed.car.damage, fixed.car), bank)

    @staticmethod
    def outcome(b: Branch, p: float, seconds: float) -> Outcome:
        return Outcome(p, seconds + b.seconds, state_of(b), b.bank, b.loss, b.info)

    # -- one turn ------------------------------------------------------------------------------
    def _walk(self, S: Solver, ts: M.TurnState, hz: int, hz_snow: int, bank: int, placed: int, p: float,
              seconds: float, out: list | None, rng, on_branch=None):
        """Follow the policy through the turn: every branch into ``out``, or one sampled branch with ``rng``
        (``on_branch`` sees each sampled die's branch: the table reads its cut cards)."""
        g, rules = S.g, S.rules
        while True:
            _, action = S._within(ts, hz, hz_snow, bank, placed)
            if action in ("stop", None):
                o = Outcome(p, seconds + rules.card(ts.gear), (ts.node, ts.gear, S.car.damage, S.car), bank)
                if out is not None:
                    out.append(o)
                return o
            how, die, to = action
            s = M.step(g, rules, S.car, ts, die, to)
            nxt = M.apply(g, rules, S.car, ts, die, to)
            nxt.steps = [s]
            branches = S.branches(ts, hz, hz_snow, bank, placed, how, s, nxt, S._p(die, to))
            if rng is not None:
                b = pick(branches, rng)
                if on_branch is not None:
                    on_branch(ts, s, b)
                if b.ts is None:
                    return self.outcome(b, 1.0, seconds)
                S, ts, hz, hz_snow, bank, placed, seconds = (b.solver, b.ts, b.hz, b.hz_snow, b.bank, b.placed,
                                                             seconds + b.seconds)
                continue
            for b in branches:
                if b.p == 0:
                    continue
                if b.ts is None:
                    out.append(self.outcome(b, p * b.p, seconds))
                else:
                    self._walk(b.solver, b.ts, b.hz, b.hz_snow, b.bank, b.placed, p * b.p, seconds + b.seconds,
                               out, None)
            return None

    def _attack_outcomes(self, S: Solver, state, plan, bank) -> list[Outcome]:
        return [self.outcome(b, b.p, 0.0) for b in S.attack_branches(state[0], state[1], plan, bank)]


def pick(branches, rng):
    """One branch drawn by its chance."""
    r, acc = rng.random(), 0.0
    for b in branches:
        acc += b.p
        if r < acc:
            return b
    return branches[-1]


class Player:
    """Rolls one turn of the policy with real dice (for :func:`designer.racing.simulate.simulate`)."""

    def __init__(self, model: ClassicModel):
        self.model = model

    def play(self, state, bank, decision, rng, value) -> Outcome:
        solver = self.model._of(state)
        if isinstance(decision, Spare):
            return self.model._spare(solver, state, bank)
        if isinstance(decision, Roll):
            return self.model._walk(solver, M.TurnState(state[0], state[1]), 0, 0, bank, 0, 1.0, 0.0, None, rng)
        return pick(self.model._attack_outcomes(solver, state, decision, bank), rng)


def solve_stage(g, rules, car=None, big_attack: bool = False, bank_cap: int | None = None):
    """(model, solution, exact statistics of the best policy from the start)."""
    solver = Solver(g, rules, car, big_attack, bank_cap=bank_cap)
    solver.solve()
    model = ClassicModel(solver)
    solution = solve(model, [model.start])
    return model, solution, solution.stats([model.start])


def monte_carlo(model: ClassicModel, solution, runs: int = 2000, seed: int = 1):
    return mc(solution, Player(model), [model.start], runs=runs, seed=seed)
