"""Classic Rallyman as a turn model of the shared expected-time solver (:mod:`designer.racing.mdp`).

States are turn boundaries ``(cell, gear, black dice lost)`` (gear 0: standing, after the start or a loss of
control); ``("finish", 0, 0)`` ends the stage. The values and the policy inside a turn come from
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
from designer.systems.classic.dice.expected import Solver

FINISH = ("finish", 0, 0)
START = ("start", 0, 0)


class Roll:
    """The decision "roll the dice one by one, stopping as the policy says"."""
    turn = True

    def __repr__(self) -> str:
        return "Roll()"


class ClassicModel:
    bank = 0

    def __init__(self, solver: Solver):
        self.solver = solver
        self.start = ("start", 0, solver.car.damage)          # a car may start with black dice lost (ART.14)
        g = nx.DiGraph(solver.g.edges)
        for n, d in solver.g.nodes(data=True):
            if d.get("restart") and d["restart"] != n:
                g.add_edge(n, d["restart"])        # a restart lies after the cell where control was lost
        self.order = {n: i for i, n in enumerate(nx.topological_sort(g))}

    # -- what the shared solver asks ------------------------------------------------------------
    def terminal(self, state):
        return np.zeros(1) if state[0] == "finish" else None

    def progress(self, state) -> float:
        return self.order[state[0]] * 10 + (0 if state[1] == 0 else 1)

    def _of(self, state) -> Solver:
        return self.solver.damaged(state[2] - self.solver.car.damage)

    def decide(self, state, value):
        solver = self._of(state)
        v = solver.value(state[0], state[1])
        plan = solver.attack.get(state[:2])
        return np.array([v]), [plan if plan else Roll()]

    def outcomes(self, state, bank, decision, value) -> list[Outcome]:
        solver = self._of(state)
        if not isinstance(decision, Roll):
            return self._attack_outcomes(solver, decision)
        out: list[Outcome] = []
        self._walk(solver, M.TurnState(state[0], state[1]), 0, 0, 1.0, out, None)
        return out

    @staticmethod
    def _loss(solver: Solver, p: float, seconds: float, node: str) -> Outcome:
        hurt, restart = solver.after_loss(node)
        return Outcome(p, seconds, (restart, 0, hurt.car.damage), 0, True, hurt.car.damage - solver.car.damage)

    # -- one turn ------------------------------------------------------------------------------
    def _snow(self, node: str) -> bool:
        return node != "finish" and self.solver.g.nodes[node].get("surface") == "snow"

    def _walk(self, S: Solver, ts: M.TurnState, hz: int, hz_snow: int, p: float, out: list | None, rng):
        """Follow the policy through the turn: every branch into ``out``, or one sampled branch with ``rng``."""
        g, rules = S.g, S.rules
        dmg = S.car.damage
        while True:
            _, action = S._within(ts, hz, hz_snow)
            if action in ("stop", None):
                return self._emit(out, Outcome(p, rules.card(ts.gear), (ts.node, ts.gear, dmg), 0))
            die, to = action
            s = M.step(g, rules, S.car, ts, die, to)
            nxt = M.apply(g, rules, S.car, ts, die, to)
            nxt.steps = [s]
            q = S._p(die, to)
            branches = [(False, 1 - q), (True, q)]
            if rng is not None:
                branches = [(rng.random() < q, 1.0)]
            for marked, pr in branches:
                if pr == 0:
                    continue
                h, hs = hz + marked, hz_snow + (marked and self._snow(s.to))
                if s.event == "finish":
                    # ART.13: control lost crossing the line still finishes, with a black die lost (info)
                    hurt = s.damage or (marked and (S._lost("finish", h, hs) or s.risk == "bump"))
                    o = Outcome(p * pr, rules.card(nxt.gear), FINISH, 0, False, int(bool(hurt)))
                elif marked and (S._lost(s.to, h, hs) or s.risk in ("double", "bump")):
                    o = self._loss(S, p * pr, rules.loss_seconds, s.to)
                elif marked and s.risk == "ford":
                    o = Outcome(p * pr, rules.card(nxt.gear), (s.to, nxt.gear, dmg), 0)
                else:
                    if rng is not None:
                        ts, hz, hz_snow = nxt, h, hs
                        break
                    self._walk(S, nxt, h, hs, p * pr, out, None)
                    continue
                if rng is not None:
                    return o
                out.append(o)
            else:
                return None

    @staticmethod
    def _emit(out, o):
        if out is not None:
            out.append(o)
        return o

    def _attack_outcomes(self, S: Solver, plan) -> list[Outcome]:
        rules, k = S.rules, len(plan)
        out = []
        for q, lost, stop in S.attack_outcomes(plan):
            if stop.event == "finish":
                out.append(Outcome(q, rules.card(stop.gear) - k, FINISH, 0))
            elif lost:
                out.append(self._loss(S, q, rules.loss_seconds - k, stop.to))
            else:
                out.append(Outcome(q, rules.card(stop.gear) - k, (stop.to, stop.gear, S.car.damage), 0))
        return out


class Player:
    """Rolls one turn of the policy with real dice (for :func:`designer.racing.simulate.simulate`)."""

    def __init__(self, model: ClassicModel):
        self.model = model

    def play(self, state, bank, decision, rng, value) -> Outcome:
        solver = self.model._of(state)
        if isinstance(decision, Roll):
            return self.model._walk(solver, M.TurnState(state[0], state[1]), 0, 0, 1.0, None, rng)
        outs = self.model._attack_outcomes(solver, decision)
        r, acc = rng.random(), 0.0
        for o in outs:
            acc += o.p
            if r < acc:
                return o
        return outs[-1]


def solve_stage(g, rules, car=None, big_attack: bool = False):
    """(model, solution, exact statistics of the best policy from the start)."""
    solver = Solver(g, rules, car, big_attack)
    solver.solve()
    model = ClassicModel(solver)
    solution = solve(model, [model.start])
    return model, solution, solution.stats([model.start])


def monte_carlo(model: ClassicModel, solution, runs: int = 2000, seed: int = 1):
    return mc(solution, Player(model), [model.start], runs=runs, seed=seed)
