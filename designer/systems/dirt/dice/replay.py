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
from designer.systems.dirt.dice.mishaps import wheel_change
from designer.systems.dirt.dice.plans import BIG, PlanSet, secure_cost
from designer.systems.dirt.dice.relaid import relay_outcomes
from designer.systems.dirt.dice.rollout import first_loss


class Replay:
    """One plan (a set of one) rolled one by one: ``stop``/``loss`` ``[point][tokens]`` as the model values
    them, ``table`` the roll-out's kept table, ``limit`` the hazard limit and ``K`` the dice secured at most.
    The table is kept flat, as doubles (``U[((point * limit + h) * (K + 1) + k) * tokens + t]``): the same
    numbers as the roll-out's, without a Python list and float per entry for the memory and the collector."""

    __slots__ = ("length", "limit", "K", "q", "pj", "pc", "m", "stop", "loss", "U", "points", "T1", "KT", "HKT",
                 "_codes")

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
        self._codes = None

    def choice(self, i: int, h: int, k: int, t: int) -> str:
        """'stop', 'roll' or 'secure' at point i (h hazards shown, k dice secured, t tokens held)."""
        cont_roll, cont_sec = self.continue_values(i, h, k, t)
        cont = min(cont_roll, cont_sec)
        if i >= 1 and (i >= self.length or self.stop[i][t] <= cont + 1e-9):
            return "stop"
        return "roll" if cont_roll <= cont_sec + 1e-9 else "secure"

    def codes(self) -> list:
        """:meth:`choice` at every point before the last, all at once: ``codes[((i * limit + h) * (K + 1) + k) *
        tokens + t]`` is 0 (stop), 1 (roll) or 2 (secure). Worked out with numpy over the points, hazards, dice
        secured and tokens, by the same sums in the same order as :meth:`continue_values` (so the same answers);
        kept."""
        if self._codes is None:
            self._codes = choice_codes(self)
        return self._codes

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


def choice_codes(r: Replay) -> list:
    """:meth:`Replay.codes` worked out (a flat list over point i < length, h, k, t)."""
    U = np.frombuffer(r.U, dtype=np.float64).reshape(-1, r.limit, r.K + 1, r.T1)
    return codes_of(U, np.array(r.q, dtype=np.float64), r.pj, r.pc, r.m, np.array(r.stop, dtype=np.float64),
                    np.array(r.loss, dtype=np.float64), r.length, r.K)


def codes_of(U: np.ndarray, q: np.ndarray, pj: list, pc: list, m: list, stop: np.ndarray, loss: np.ndarray,
             L: int, K: int) -> list:
    """What :meth:`Replay.choice` answers at every point i < L (0 stop, 1 roll, 2 secure), as a flat list over
    (i, h, k, t), from a plan's roll-out table ``U[point, h, k, t]`` and its numbers per point (``q[point, x]``,
    ``stop``/``loss[point, t]``): :meth:`Replay.continue_values`' sums, in the same order, with numpy."""
    if L < 1:
        return []
    _, H, K1, T1 = U.shape
    X = q.shape[1]
    U = U[1:L + 1]                                       # U[j], j = 1..L
    q, lv = q[1:L + 1], loss[1:L + 1]
    # what h + x hazards lead to: U[j][h + x] below the limit, the loss of control at step j from it on
    ahead = np.concatenate([U, np.broadcast_to(lv[:, None, None, :], (L, X, K1, T1))], axis=1)
    roll = np.zeros((L, H, K1, T1))
    for x in range(X):                      # the terms of the nonzero chances, in order (a zero chance adds 0)
        if q[:, x].any():
            roll += q[:, x, None, None, None] * ahead[:, x:x + H]
    pjs = np.array(pj[1:L + 1], dtype=np.float64)[:, None, None, None]
    pcs = np.array(pc[1:L + 1], dtype=np.float64)[:, None, None, None]
    roll = pjs * lv[:, None, None, :] + (1 - pjs) * roll
    roll = pcs * stop[1:L + 1, None, None, :] + (1 - pcs) * roll
    sec = np.full((L, H, K1, T1), BIG)
    for j, mj in enumerate(m[1:L + 1]):
        for k in range(K1):
            c = secure_cost(k, mj)
            if k + mj <= K and c < T1:
                sec[j, :, k, c:] = U[j, :, k + mj, :T1 - c]
    cont = np.minimum(roll, sec)
    codes = np.where(roll <= sec + 1e-9, 1, 2)
    stops = stop[:L, None, None, :] <= cont + 1e-9
    stops[0] = False                                    # no stop before the first die
    return np.where(stops, 0, codes).reshape(-1).tolist()


def rescued(ps1, j: int, tok: int) -> bool:
    """Whether the SISU token cancels a loss of control by hazards on step j of a plan rolled one by one, holding
    ``tok`` tokens (:meth:`.turn_model.DirtModel.loss_or_rescue`)."""
    return ps1.rescue is not None and ps1.rescue[1][0, j, tok] < ps1.rescue[2][0, j, tok] - 1e-9


def failure_point(model, ps1, j: int, bank: int, loss, cheapest: list | None = None, laid: tuple | None = None):
    """(the point where a failed Big Attack (first failing step j) loses control, whether the SISU token cancels
    it instead), as :meth:`.turn_model.DirtModel.attack_failure` plays it: step j (as_laid), the cheapest at or
    after it (latest), or ``laid`` (point, loss value) where the dice are laid again (achievable)."""
    n = int(ps1.length[0])
    if laid is None:
        jj = (cheapest_from(loss[0, :n + 1, bank].tolist()) if cheapest is None else cheapest)[j] \
            if model.latest else j
        laid = (model._point(ps1, jj), loss[0, jj, bank])
    return laid[0], bool(ps1.rescue is not None and ps1.rescue[0][0, n, bank] < laid[1] - 1e-9)


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


def add_outcomes(chance: dict, label: dict, p, outs, bank, credit, info) -> None:
    """Add the outcomes ``outs`` (chance, seconds, next state, loss) met with chance ``p``: one entry per
    (seconds - credit, next state, tokens, loss), the chances added in the order met, the first label kept."""
    for q, sec, nxt, lost in outs:
        key = (sec - credit, nxt, bank, lost)
        if key in chance:
            chance[key] += p * q
        else:
            chance[key], label[key] = p * q, info


def turn_outcomes(model, state, t, decision, value) -> list[Outcome]:
    """The exact distribution of one turn of a :class:`~.turn_model.DirtModel` played with ``decision`` (a
    Decision) from ``state`` holding ``t`` tokens: its outcomes, those with the same seconds, state, tokens and
    loss as one."""
    cell, gear, damage = state
    if decision.mode == "spare":
        return [Outcome(1.0, float(model.mishaps.spare_wheel_seconds), wheel_change(state), t)]
    ps1, stop, loss, replay = model.single(state, decision, value)
    # outcomes with the same seconds, state, tokens and loss are one (their chances added in the order met,
    # the label of the first kept): what replay._merge does, without an Outcome for each term
    chance: dict = {}
    label: dict = {}

    def emit(p, outs, bank, credit=0.0, info=None):
        add_outcomes(chance, label, p, outs, bank, credit, info)

    def merged() -> list[Outcome]:
        return [Outcome(pr, *key, label[key]) for key, pr in chance.items() if pr > 0]

    if decision.mode == "attack":
        total = t + int(ps1.gain[0])
        bank, credit = min(total, model.T1 - 1), max(0, total - (model.T1 - 1))
        if ps1.first is None:
            ps1.first = first_loss(ps1, model.limit)
        fail, ok = ps1.first
        n = int(ps1.length[0])
        cheapest = cheapest_from(loss[0, :n + 1, bank].tolist()) if model.latest else None
        pc = ps1.pc[0, 1]
        if pc:
            emit(pc, model.stop_outcomes(*model._point(ps1, 1), damage), bank, credit, "canon")
        emit((1 - pc) * ok[0], model.stop_outcomes(*model._point(ps1, n), damage), bank, credit, "attack")
        if model.achievable:
            for prob, pt, v in relay_outcomes(model, cell, gear, ps1.steps[0], damage, bank, value):
                emit((1 - pc) * prob, model.attack_failure(ps1, 0, bank, loss, damage, laid=(pt, v)), bank, credit,
                     "attack-failed")
        for j in range(1, n + 1) if not model.achievable else ():
            if fail[0, j] > 0:
                emit((1 - pc) * fail[0, j], model.attack_failure(ps1, j, bank, loss, damage, cheapest), bank, credit,
                     "attack-failed")
        return merged()
    mass = {(0, 0, t): 1.0}
    points = replay.points
    for i in range(0, replay.length + 1):
        nxt: dict = {}
        for (h, k, tok), p in mass.items():
            act = replay.choice(i, h, k, tok)
            if act == "stop":
                emit(p, model.stop_outcomes(*points[i], damage), tok, 0.0, "stop")
                continue
            j = i + 1
            if act == "secure":
                m = replay.m[j]
                key = (h, k + m, tok - secure_cost(k, m))
                nxt[key] = nxt.get(key, 0.0) + p
                continue
            pj, pc = replay.pj[j], replay.pc[j]
            if pc:
                emit(p * pc, model.stop_outcomes(*points[j], damage), tok, 0.0, "canon")
            if pj:
                emit(p * (1 - pc) * pj, model.loss_or_rescue(ps1, j, tok, damage), tok, 0.0, "loss")
            rest = p * (1 - pc) * (1 - pj)
            for x, qx in enumerate(replay.q[j]):
                if not qx:
                    continue
                if h + x >= model.limit:
                    emit(rest * qx, model.loss_or_rescue(ps1, j, tok, damage), tok, 0.0, "loss")
                else:
                    key = (h + x, k, tok)
                    nxt[key] = nxt.get(key, 0.0) + rest * qx
        mass = nxt
    return merged()

