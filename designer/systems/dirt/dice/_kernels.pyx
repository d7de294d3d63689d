# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled roll-outs of DIRT plans for the backward sweep: :func:`decide_group` is the branch and bound of
:func:`designer.systems.dirt.dice.sweep.decide_many` with the arithmetic of
:func:`designer.systems.dirt.dice.rollout.roll_values` and :func:`~designer.systems.dirt.dice.rollout.attack_values`, in
the same order (so the same numbers and choices, to the last bit), one plan at a time instead of numpy over
many; :func:`first_loss` is :func:`designer.systems.dirt.dice.rollout.first_loss_numpy`.

A plan is row ``p`` of a stacked plan set: ``sid[p, j]`` is the row of its step j in the step table (``ints``:
cell, gear, finished, dice, cut, gain; ``floats``: canon hazard, long-jump hazard, chances of 0..X-1 hazards),
``index[p, j]`` the row of its point j in ``table`` (``[row, stop/loss, tokens]``), ``length[p]`` its steps and
``gain[p]`` the tokens a Big Attack of it earns. Built when the package is installed (setup.py); where it is
not, ``rollout.KERNELS`` is None and the numpy code runs.
"""
import numpy as np

from libc.stdint cimport int64_t

from designer.systems.dirt.dice._rollout_core cimport (
    HMAX, KMAX, LMAX, ROLLOUT_BIG, TMAX, XMAX, _after_gain, _alive_sum, _attack_one, _attack_spread_one, _check,
    _clear_round, _fail_step, _fits, _fold_round, _fold_row, _min, _roll_one, _select)

cdef double BIG = ROLLOUT_BIG   # plans.BIG (rollout checks they agree)
LAYOUT = (XMAX, BIG)


def fits(int H, int K, int T1, int L, int first=1) -> bool:
    """Whether the compiled roll-outs handle these sizes (hazard limit, dice secured, tokens, plan length,
    plans rolled out first per state)."""
    return _fits(H, K, T1, L, first)


def first_loss(const double[:, :, :] q, const double[:, :] pj, const int64_t[:] length, int H):
    """rollout.first_loss of a plan set's arrays (``q[p, j, x]``, ``pj[p, j]``, ``length[p]``): the chance
    that the dice of a Big Attack first show a loss of control at step j, ``[p, j]``, and of none, ``[p]``."""
    cdef Py_ssize_t P = q.shape[0], L1 = q.shape[1], p, j
    cdef int x, h
    if not 1 <= H <= HMAX or q.shape[2] < XMAX or L1 > LMAX or pj.shape[1] < L1:
        raise ValueError("sizes beyond the compiled first_loss (check fits() first)")
    for p in range(P):
        if not 0 <= length[p] < L1:
            raise ValueError(f"plan {p} has {length[p]} steps for {L1} points")
    fail_a = np.zeros((P, L1))
    ok_a = np.empty(P)
    cdef double[:, ::1] fail = fail_a
    cdef double[::1] ok = ok_a
    cdef double alive[HMAX]
    cdef double qj[XMAX]
    with nogil:
        for p in range(P):
            for h in range(H):
                alive[h] = 0.0
            alive[0] = 1.0
            for j in range(1, length[p] + 1):
                for x in range(XMAX):
                    qj[x] = q[p, j, x]
                fail[p, j] = _fail_step(alive, pj[p, j], qj, H)
            ok[p] = _alive_sum(alive, H)
    return fail_a, ok_a


def decide_group(const int64_t[:, :] sid, const int64_t[:] length, const int64_t[:] gain, const int64_t[:, :] index,
                 const double[:, :, ::1] table, const int64_t[:, :] ints, const double[:, :] floats,
                 const int64_t[:] owner, const int64_t[:] local, int n, int H, int K, int first, int latest=1):
    """sweep.decide_many's branch and bound for the stacked plans of a group of states, in the same order:
    returns ``best[state, tokens]``, ``mode`` (0 none, 1 one by one, 2 Big Attack) and ``pick`` (the plan of
    the state's set)."""
    cdef Py_ssize_t R = owner.shape[0], r, w, u
    cdef int T1 = table.shape[2], t, kind, stage, ran
    cdef long o
    _check(H, K, T1, first, floats, length, sid.shape[1], index.shape[1])
    best_a = np.full((n, T1), BIG)
    mode_a = np.zeros((n, T1), dtype=np.int64)
    pick_a = np.full((n, T1), -1, dtype=np.int64)
    lows = np.empty((2, R, T1))
    cdef double[:, ::1] best = best_a
    cdef int64_t[:, ::1] mode = mode_a
    cdef int64_t[:, ::1] pick = pick_a
    cdef double[:, ::1] low_roll = lows[0]
    cdef double[:, ::1] low_att = lows[1]
    cdef double[:, ::1] low
    flags = np.zeros((4, R), dtype=np.uint8)
    cdef unsigned char[:] done_roll = flags[0]
    cdef unsigned char[:] done_att = flags[1]
    cdef unsigned char[:] sel = flags[2]
    cdef unsigned char[:] pre = flags[3]
    cdef unsigned char[:] done
    bests = np.empty((n, T1))
    picks = np.empty((n, T1), dtype=np.int64)
    cdef double[:, ::1] bmin = bests
    cdef int64_t[:, ::1] bpick = picks
    cdef double vals[TMAX]
    cdef double U[HMAX * KMAX * TMAX]
    cdef double V[HMAX * KMAX * TMAX]
    # kinds run in this order (1: one by one, 2: Big Attack); stage 0, 1: the first plans of each state;
    # stages 2-5: once each, one by one only the first of what is left; then each kind until nothing is left
    cdef int order[8]
    order[:] = [2, 1, 2, 1, 1, 1, 2, 1]
    pmin_a = np.empty((table.shape[0], T1))
    cdef double[:, ::1] pmin = pmin_a
    with nogil:
        for w in range(table.shape[0]):         # each point's least value, ended or lost
            for t in range(T1):
                pmin[w, t] = _min(table[w, 0, t], table[w, 1, t])
        for r in range(R):                      # the bounds (sweep._cheapest, DirtModel._shift): the least
            for t in range(T1):                 # of the plan's points (point 0 and those past its end: BIG)
                low_roll[r, t] = BIG
            for w in range(1, length[r] + 1):
                u = index[r, w]
                for t in range(T1):
                    low_roll[r, t] = _min(low_roll[r, t], pmin[u, t])
            for t in range(T1):
                low_att[r, t] = _after_gain(&low_roll[r, 0], t, gain[r], T1)
        stage = 0
        while stage < 8:
            kind = order[stage]
            low = low_roll if kind == 1 else low_att
            done = done_roll if kind == 1 else done_att
            # the opening stages take the first plans of each state; stages 2-5 one by one only the first of
            # what is left; then every plan whose bound still beats the best
            _select(low, owner, best, done, pre, sel, stage < 2, first if stage < 2 or (kind == 1 and stage < 6)
                    else 0, T1)
            ran = 0
            for r in range(R):
                if sel[r]:
                    if not ran:
                        _clear_round(bmin, bpick, n, T1)
                        ran = 1
                    done[r] = 1
                    if kind == 1:
                        _roll_one(r, sid, length, index, table, ints, floats, H, K, U, V, vals)
                    else:
                        _attack_one(r, sid, length, gain, index, table, floats, H, latest, vals)
                    _fold_row(vals, owner[r], local[r], bmin, bpick, T1)
            if ran:
                _fold_round(bmin, bpick, best, pick, mode, kind, n, T1)
            if stage < 6 or not ran:
                stage += 1                      # stages 6 and 7 repeat while they find plans to roll out
    return best_a, mode_a, pick_a


def roll_rows(const int64_t[:] rows, const int64_t[:, :] sid, const int64_t[:] length, const int64_t[:, :] index,
              const double[:, :, ::1] table, const int64_t[:, :] ints, const double[:, :] floats, int H, int K):
    """Some plans of a stacked set (``rows``) rolled one by one: ``[row, tokens]``, the numbers of
    rollout.roll_values (sweep._roll_out's "roll", for the branch and bound that runs in Python)."""
    cdef Py_ssize_t n = rows.shape[0], r
    cdef int T1 = table.shape[2], t
    _check(H, K, T1, 1, floats, length, sid.shape[1], index.shape[1])
    for r in range(n):
        if not 0 <= rows[r] < length.shape[0]:
            raise ValueError("a row beyond the stacked plans")
    out_a = np.empty((n, T1))
    cdef double[:, ::1] out = out_a
    cdef double U[HMAX * KMAX * TMAX]
    cdef double V[HMAX * KMAX * TMAX]
    with nogil:
        for r in range(n):
            _roll_one(rows[r], sid, length, index, table, ints, floats, H, K, U, V, &out[r, 0])
    return out_a


def attack_rows(const int64_t[:] rows, const int64_t[:, :] sid, const int64_t[:] length, const int64_t[:] gain,
                const int64_t[:, :] index, const double[:, :, ::1] table, const double[:, :] floats, int H,
                int latest, spread=None):
    """Some plans of a stacked set (``rows``) as Big Attacks: ``[row, tokens]``, the numbers of
    rollout.attack_values. ``spread[row, tokens]``: their failures already valued where the dice can be laid
    again (achievable): then the value is ``pc * first point + (1 - pc) * (ok * end + spread)``."""
    cdef Py_ssize_t n = rows.shape[0], r, p, L, i
    cdef int T1 = table.shape[2], t, h, x
    cdef long g, row
    cdef double pc, ok
    cdef double q[XMAX]
    cdef double alive[HMAX]
    cdef double[:, ::1] sp
    _check(H, 0, T1, 1, floats, length, sid.shape[1], index.shape[1])
    for r in range(n):
        if not 0 <= rows[r] < length.shape[0]:
            raise ValueError("a row beyond the stacked plans")
    out_a = np.empty((n, T1))
    cdef double[:, ::1] out = out_a
    if spread is None:
        with nogil:
            for r in range(n):
                _attack_one(rows[r], sid, length, gain, index, table, floats, H, latest, &out[r, 0])
        return out_a
    sp = np.ascontiguousarray(spread, dtype=np.float64)
    if sp.shape[0] != n or sp.shape[1] != T1:
        raise ValueError("spread: one row of tokens per plan rolled out")
    with nogil:
        for r in range(n):
            _attack_spread_one(rows[r], sid, length, gain, index, table, floats, H, &sp[r, 0], &out[r, 0])
    return out_a
