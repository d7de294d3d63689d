"""Rolling out DIRT plans under the dice, every plan of a set at once (numpy over plans, points and tokens held):
one by one with the best stopping and securing rule (:func:`roll_values`), or as a Big Attack
(:func:`first_loss`, :func:`attack_values`). The plans themselves come from :mod:`designer.systems.dirt.dice.plans`.
"""
from __future__ import annotations

import numpy as np

from designer.systems.dirt.dice.plans import BIG, X, PlanSet, secure_cost

try:                       # the compiled roll-outs, built when the package is installed (setup.py)
    from designer.systems.dirt.dice import _kernels as KERNELS
except ImportError:        # pragma: no cover - no C compiler where it was installed: numpy, slower
    KERNELS = None
if KERNELS is not None and KERNELS.LAYOUT != (X, BIG):
    KERNELS = None         # built for other hazard counts per step or another BIG: not usable


def _secure_tables(K: int, T: int):
    """For m = 0..X-1 dice: flat index of (k + m, t - cost) in a (K+1, T+1) block, or (K+1) * (T+1) (one
    past the block, where the roll-out keeps BIG) where securing m dice there is not allowed."""
    idx = np.zeros((X, (K + 1) * (T + 1)), dtype=np.int64)
    ok = np.zeros((X, (K + 1) * (T + 1)), dtype=bool)
    for m in range(1, X):
        for k in range(K + 1):
            for t in range(T + 1):
                c = secure_cost(k, m)
                if k + m <= K and t >= c:
                    idx[m, k * (T + 1) + t] = (k + m) * (T + 1) + (t - c)
                    ok[m, k * (T + 1) + t] = True
    return np.where(ok, idx, (K + 1) * (T + 1))


_TABLES: dict = {}


def secure_tables(K: int, T: int):
    key = (K, T)
    if key not in _TABLES:
        _TABLES[key] = _secure_tables(K, T)
    return _TABLES[key]


# -- one by one -----------------------------------------------------------------------------------

def roll_values(ps: PlanSet, stop: np.ndarray, loss: np.ndarray, limit: int, K: int, keep: bool = False):
    """Value of rolling each plan one by one with the best stopping and securing rule.

    ``stop[p, i, t]``: value of ending the turn after step i with t tokens (BIG at i = 0: a turn moves);
    ``loss[p, i, t]``: value of a loss of control on step i. Returns ``U0[p, t]`` (the plan's value from
    the start with no hazard and nothing secured) and, with ``keep``, the table ``U[i]`` of every point
    (shape (P, limit, K+1, T+1)) for replaying the rule.
    """
    P, L1, T1 = stop.shape
    L = L1 - 1
    H = limit
    KT = (K + 1) * T1
    idx = secure_tables(K, T1 - 1)

    def block():
        # U[p, h, k, t] as a view of a (P, H, KT + 1) block whose last entry is BIG: securing reads it by index
        buf = np.empty((P, H, KT + 1))
        buf[:, :, KT] = BIG
        return buf, buf[:, :, :KT].reshape(P, H, K + 1, T1)

    # chance that a step's hazards take h hazards shown to the limit: tail[p, j, h] = P(x >= H - h)
    cum = np.cumsum(ps.q[:, :, ::-1], axis=2)[:, :, ::-1]               # cum[..., x] = P(X >= x)
    tail = np.stack([cum[:, :, H - h] if H - h < X else np.zeros((P, L1)) for h in range(H)], axis=2)
    used_x = [x for x in range(min(H, X)) if ps.q[:, :, x].any()]
    flat, U = block()
    U[...] = stop[:, L, None, None, :]
    table = [None] * (L + 1)
    if keep:
        table[L] = U
    live_all = np.arange(L1)[None, :] <= ps.length[:, None]
    all_live = live_all.all(axis=0).tolist()
    pj_any, pc_any = ps.pj.any(axis=0).tolist(), ps.pc.any(axis=0).tolist()
    for i in range(L - 1, -1, -1):
        j = i + 1
        lv = loss[:, j]
        qj = ps.q[:, j]
        roll = np.empty((P, H, K + 1, T1))
        np.multiply(tail[:, j, :, None, None], lv[:, None, None, :], out=roll)
        for x in used_x:
            roll[:, :H - x] += qj[:, x, None, None, None] * U[:, x:]
        if pj_any[j]:
            pjj = ps.pj[:, j, None, None, None]
            roll = pjj * lv[:, None, None, :] + (1 - pjj) * roll
        if pc_any[j]:
            pcj = ps.pc[:, j, None, None, None]
            roll = pcj * stop[:, j, None, None, :] + (1 - pcj) * roll
        mj = ps.m[:, j]                                                    # securing m dice before step j
        sec = None
        for mval in sorted(set(mj.tolist())):
            g = flat[:, :, idx[mval]]
            sec = g if sec is None else np.where((mj == mval)[:, None, None], g, sec)
        cont = np.minimum(roll, sec.reshape(P, H, K + 1, T1), out=roll)
        if not all_live[j]:
            cont[~live_all[:, j]] = BIG
        flat, U = block()
        np.minimum(stop[:, i, None, None, :], cont, out=U)
        if keep:
            table[i] = U
    return U[:, 0, 0, :], table


def first_loss(ps: PlanSet, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """For a Big Attack (every die rolled at once): the chance the plan's dice reach the loss of control
    first at step j (hazards counted in plan order, or a long-jump die's hazard), and the chance of none.
    The canon die (p. 23) is left out: the caller weighs its own outcome. Compiled where built (the same
    numbers as :func:`first_loss_numpy`)."""
    if KERNELS is not None and KERNELS.fits(limit, 0, 1, ps.q.shape[1] - 1):      # (hazard limit, -, -, steps)
        return KERNELS.first_loss(ps.q, ps.pj, ps.length, limit)
    return first_loss_numpy(ps, limit)


def first_loss_numpy(ps: PlanSet, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`first_loss` in numpy, over every plan at once."""
    P, L1 = ps.q.shape[:2]
    H = limit
    live_all = np.arange(L1)[None, :] <= ps.length[:, None]
    q_all = np.where(live_all[:, :, None], ps.q, np.eye(1, X, 0)[None])
    cum = np.cumsum(q_all[:, :, ::-1], axis=2)[:, :, ::-1]
    tail = np.stack([cum[:, :, H - h] if H - h < X else np.zeros((P, L1)) for h in range(H)], axis=2)
    used_x = [x for x in range(min(H, X)) if q_all[:, :, x].any()]
    pj_all = np.where(live_all, ps.pj, 0.0)
    alive = np.zeros((P, H))
    alive[:, 0] = 1.0
    fail = np.zeros((P, L1))
    for j in range(1, L1):
        pj = pj_all[:, j]
        fail[:, j] = _row_sum(alive) * pj + _row_sum(alive * (1 - pj)[:, None] * tail[:, j])
        alive = alive * (1 - pj)[:, None]
        new = np.zeros((P, H))
        for x in used_x:
            new[:, x:] += alive[:, :H - x] * q_all[:, j, x, None]
        alive = new
    return fail, _row_sum(alive)


def _row_sum(a: np.ndarray) -> np.ndarray:
    """``a.sum(axis=1)`` added column after column, an order the compiled roll-outs (:mod:`._kernels`) repeat."""
    out = a[:, 0].copy()
    for h in range(1, a.shape[1]):
        out += a[:, h]
    return out


def attack_values(ps: PlanSet, stop: np.ndarray, loss: np.ndarray, limit: int,
                  rescue: np.ndarray | None = None, fl: tuple | None = None, latest: bool = False,
                  spread: np.ndarray | None = None) -> np.ndarray:
    """Value of a Big Attack of each plan with t tokens before it, ``A[p, t]`` (stop/loss as for
    :func:`roll_values`, already shifted to the tokens held after the attack's gain). ``rescue[p, t]``: the
    value of a failure cancelled by the SISU token (the attack's end reached), when the token is held.
    ``latest``: the loss of control may be laid at any point at or after the first failing step (the
    ``big_attack_failure: latest`` reading); otherwise it lies on the first failing step (``as_laid``).
    ``spread[p, t]``: the failures already valued where their dice can be laid (``achievable``, :mod:`.relay`)."""
    P, L1, T1 = stop.shape
    fail, ok = first_loss(ps, limit) if fl is None else fl
    if spread is not None:
        pc = ps.pc[:, 1, None]
        return pc * stop[:, 1] + (1 - pc) * (ok[:, None] * stop[np.arange(P), ps.length] + spread)
    best_after = loss.copy()
    if latest:              # the loss of control laid at the cheapest point at or after the first failing step
        for j in range(L1 - 2, 0, -1):
            best_after[:, j] = np.where((j + 1 <= ps.length)[:, None],
                                        np.minimum(loss[:, j], best_after[:, j + 1]), loss[:, j])
    if rescue is not None:
        best_after = np.minimum(best_after, rescue[:, None, :])
    end = stop[np.arange(P), ps.length]
    spread = np.zeros((P, T1))                    # the failures' values added step after step
    for j in range(1, L1):
        spread += fail[:, j, None] * best_after[:, j]
    value = ok[:, None] * end + spread
    pc = ps.pc[:, 1, None]
    return pc * stop[:, 1] + (1 - pc) * value
