"""A plan rolled one by one, replayed die by die: its stopping and securing rule read from the roll-out's table.

:func:`designer.systems.dirt.dice.rollout.roll_values` keeps, for every point of a plan, the value of going on with
h hazards shown, k dice secured and t tokens held. Following the policy (its statistics, the simulator, the
rules printed for the driver) asks what to do at each of those many times; a :class:`Replay` holds the plan's
numbers as Python lists so that each answer is a few list reads rather than many numpy scalar reads.
"""
from __future__ import annotations

from array import array

import numpy as np

from designer.racing.mdp import Outcome
from designer.systems.dirt.dice.plans import BIG, PlanSet, secure_cost


class Replay:
    """One plan (a set of one) rolled one by one: ``stop``/``loss`` ``[point][tokens]`` as the model values
    them, ``table`` the roll-out's kept table, ``limit`` the hazard limit and ``K`` the dice secured at most.
    The table is kept flat, as doubles (``U[((point * limit + h) * (K + 1) + k) * tokens + t]``): the same
    numbers as the roll-out's, without a Python list and float per entry for the memory and the collector."""

    __slots__ = ("length", "limit", "K", "q", "pj", "pc", "m", "stop", "loss", "U", "points", "T1", "KT", "HKT")

    def __init__(self, ps1: PlanSet, stop, loss, table, limit: int, K: int):
        self.length = int(ps1.length[0])
        self.limit, self.K = limit, K
        self.q, self.pj, self.pc = ps1.q[0].tolist(), ps1.pj[0].tolist(), ps1.pc[0].tolist()
        self.m = ps1.m[0].tolist()
        self.stop, self.loss = stop[0].tolist(), loss[0].tolist()
        H, K1, T1 = table[-1].shape[1:]
        self.T1, self.KT, self.HKT = T1, K1 * T1, H * K1 * T1
        self.U = array("d")
        for u in table:                                  # [point][h][k][t], flat
            self.U.frombytes(np.ascontiguousarray(u[0], dtype=np.float64).tobytes())
        self.points = list(zip(ps1.cell[0].tolist(), ps1.gear[0].tolist(), ps1.fin[0].tolist(),
                               ps1.cuts[0].tolist()))

    def choice(self, i: int, h: int, k: int, t: int) -> str:
        """'stop', 'roll' or 'secure' at point i (h hazards shown, k dice secured, t tokens held)."""
        cont_roll, cont_sec = self.continue_values(i, h, k, t)
        cont = min(cont_roll, cont_sec)
        if i >= 1 and (i >= self.length or self.stop[i][t] <= cont + 1e-9):
            return "stop"
        return "roll" if cont_roll <= cont_sec + 1e-9 else "secure"

    def continue_values(self, i: int, h: int, k: int, t: int) -> tuple[float, float]:
        """The value of rolling the next die and of securing it first (BIG where it cannot be done)."""
        j = i + 1
        if j > self.length:
            return BIG, BIG
        U, KT = self.U, self.KT
        base = j * self.HKT + k * self.T1 + t           # U[j][0][k][t]
        lv = self.loss[j][t]
        roll = 0.0
        for x, qx in enumerate(self.q[j]):
            if qx:
                roll += qx * (U[base + (h + x) * KT] if h + x < self.limit else lv)
        pj, pc = self.pj[j], self.pc[j]
        roll = pj * lv + (1 - pj) * roll
        roll = pc * self.stop[j][t] + (1 - pc) * roll
        m = self.m[j]
        c = secure_cost(k, m)
        sec = U[base + h * KT + m * self.T1 - c] if (k + m <= self.K and t >= c) else BIG
        return roll, sec


def cheapest_from(values: list) -> list:
    """For every point j, the point at or after j with the least value (the first of equal ones)."""
    out = list(range(len(values)))
    for j in range(len(values) - 2, -1, -1):
        if values[out[j + 1]] < values[j]:
            out[j] = out[j + 1]
    return out


def _merge(outs: list[Outcome]) -> list[Outcome]:
    """Outcomes with the same seconds, state, tokens and loss as one (their chances added in order)."""
    first: dict = {}
    total: dict = {}
    for o in outs:
        key = (o.seconds, o.state, o.bank, o.loss)
        if key in total:
            total[key] += o.p
        else:
            first[key], total[key] = o, o.p
    return [o if p == o.p else Outcome(p, o.seconds, o.state, o.bank, o.loss, o.info)
            for o, p in zip(first.values(), total.values()) if p > 0]
