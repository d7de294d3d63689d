# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled roll-outs of DIRT plans for the backward sweep: the same arithmetic as
:func:`designer.systems.dirt.rollout.roll_values` and :func:`~designer.systems.dirt.rollout.attack_values`, in
the same order (so the same numbers, to the last bit), one plan at a time instead of numpy over many.

A plan is row ``p`` of a stacked plan set: ``sid[p, j]`` is the row of its step j in the step table (``ints``:
cell, gear, finished, dice, cut, gain; ``floats``: canon hazard, long-jump hazard, chances of 0..X-1 hazards),
``index[p, j]`` the row of its point j in ``table`` (``[row, stop/loss, tokens]``), ``length[p]`` its steps and
``gain[p]`` the tokens a Big Attack of it earns. Built when the package is installed; the numpy functions are
used where it is not (:mod:`designer.systems.dirt.kernels`).
"""
import numpy as np

DEF XMAX = 5            # hazard counts of one step (plans.X)
DEF HMAX = 8            # largest hazard limit handled here
DEF KMAX = 9            # largest max_secured + 1
DEF TMAX = 64           # largest max_tokens + 1
DEF LMAX = 64           # longest plan
cdef double BIG = 1e9


cdef inline double _min(double a, double b) noexcept nogil:
    return b if b < a else a


cdef inline void _tail(const double[:, :] floats, long s, int H, double* tail) noexcept nogil:
    """tail[h]: the chance that a step's hazards take h hazards shown to the limit, P(x >= H - h)."""
    cdef double cum[XMAX + 1]
    cdef int x, h
    cum[XMAX] = 0.0
    cum[XMAX - 1] = floats[s, 2 + XMAX - 1]
    for x in range(XMAX - 2, -1, -1):
        cum[x] = cum[x + 1] + floats[s, 2 + x]
    for h in range(H):
        tail[h] = cum[H - h] if H - h < XMAX else 0.0


def fits(int H, int K, int T1, int L) -> bool:
    """Whether the compiled roll-outs handle these sizes (hazard limit, dice secured, tokens, plan length)."""
    return 1 <= H <= HMAX and 0 <= K < KMAX and 1 <= T1 <= TMAX and L < LMAX


def roll_rows(const long[:] rows, const long[:, :] sid, const long[:] length, const long[:, :] index,
              const double[:, :, :] table, const long[:, :] ints, const double[:, :] floats, int H, int K):
    """The value of rolling each plan of ``rows`` one by one with the best stopping and securing rule, from
    no hazard and nothing secured, per tokens held: ``[row, tokens]`` (rollout.roll_values' ``U0``)."""
    cdef Py_ssize_t n = rows.shape[0]
    cdef int T1 = table.shape[2]
    out = np.empty((n, T1))
    cdef double[:, :] o = out
    cdef double bufa[HMAX * KMAX * TMAX]
    cdef double bufb[HMAX * KMAX * TMAX]
    cdef double tail[HMAX]
    cdef double* U = bufa
    cdef double* V = bufb
    cdef double* W
    cdef double q[XMAX]
    cdef int KT = (K + 1) * T1
    cdef Py_ssize_t r
    cdef long p, L, i, j, s, g_end, g_i, g_j
    cdef int h, k, t, x, m, c, xs
    cdef double pc, pj, lv, val, sec
    with nogil:
        for r in range(n):
            p = rows[r]
            L = length[p]
            g_end = index[p, L]
            for h in range(H):
                for k in range(K + 1):
                    for t in range(T1):
                        U[h * KT + k * T1 + t] = table[g_end, 0, t]
            for i in range(L - 1, -1, -1):
                j = i + 1
                s = sid[p, j]
                g_j = index[p, j]
                g_i = index[p, i]
                pc = floats[s, 0]
                pj = floats[s, 1]
                for x in range(XMAX):
                    q[x] = floats[s, 2 + x]
                m = <int>ints[s, 3]
                xs = H if H < XMAX else XMAX
                _tail(floats, s, H, tail)
                for h in range(H):
                    for k in range(K + 1):
                        c = m * k + m * (m + 1) // 2
                        for t in range(T1):
                            lv = table[g_j, 1, t]
                            val = tail[h] * lv
                            for x in range(xs):
                                if h + x < H and q[x] != 0.0:
                                    val = val + q[x] * U[(h + x) * KT + k * T1 + t]
                            if pj != 0.0:
                                val = pj * lv + (1 - pj) * val
                            if pc != 0.0:
                                val = pc * table[g_j, 0, t] + (1 - pc) * val
                            if 1 <= m < XMAX and k + m <= K and t >= c:
                                sec = U[h * KT + (k + m) * T1 + (t - c)]
                            else:
                                sec = BIG
                            V[h * KT + k * T1 + t] = _min(table[g_i, 0, t], _min(val, sec))
                W = U
                U = V
                V = W
            for t in range(T1):
                o[r, t] = U[t]
    return out


def attack_rows(const long[:] rows, const long[:, :] sid, const long[:] length, const long[:] gain,
                const long[:, :] index, const double[:, :, :] table, const double[:, :] floats, int H):
    """The value of a Big Attack of each plan of ``rows`` per tokens held before it, ``[row, tokens]``
    (rollout.attack_values of the plans' point values shifted by their gain, without the SISU token)."""
    cdef Py_ssize_t n = rows.shape[0]
    cdef int T1 = table.shape[2]
    out = np.empty((n, T1))
    cdef double[:, :] o = out
    cdef double S[LMAX * TMAX]
    cdef double Lo[LMAX * TMAX]
    cdef double fail[LMAX]
    cdef double after[LMAX]
    cdef double alive[HMAX]
    cdef double fresh[HMAX]
    cdef double tail[HMAX]
    cdef Py_ssize_t r
    cdef long p, L, i, j, s, g, tot, ix, row
    cdef int h, t, x, xs
    cdef double pj, pc, sa, sb, ok, acc, value, v
    xs = H if H < XMAX else XMAX
    with nogil:
        for r in range(n):
            p = rows[r]
            L = length[p]
            g = gain[p]
            for i in range(1, L + 1):                  # the point values after the attack's gain
                row = index[p, i]
                for t in range(T1):
                    tot = t + g
                    ix = tot if tot < T1 - 1 else T1 - 1
                    v = table[row, 0, t]
                    S[i * T1 + t] = BIG if v >= BIG else table[row, 0, ix] - <double>(tot - ix)
                    v = table[row, 1, t]
                    Lo[i * T1 + t] = BIG if v >= BIG else table[row, 1, ix] - <double>(tot - ix)
            for h in range(H):                          # first_loss: where the dice first show a loss
                alive[h] = 0.0
            alive[0] = 1.0
            for j in range(1, L + 1):
                s = sid[p, j]
                pj = floats[s, 1]
                _tail(floats, s, H, tail)
                sa = alive[0]
                for h in range(1, H):
                    sa = sa + alive[h]
                sb = alive[0] * (1 - pj) * tail[0]
                for h in range(1, H):
                    sb = sb + alive[h] * (1 - pj) * tail[h]
                fail[j] = sa * pj + sb
                for h in range(H):
                    alive[h] = alive[h] * (1 - pj)
                    fresh[h] = 0.0
                for x in range(xs):
                    if floats[s, 2 + x] != 0.0:
                        for h in range(x, H):
                            fresh[h] = fresh[h] + alive[h - x] * floats[s, 2 + x]
                for h in range(H):
                    alive[h] = fresh[h]
            ok = alive[0]
            for h in range(1, H):
                ok = ok + alive[h]
            pc = floats[sid[p, 1], 0]
            for t in range(T1):
                # the loss of control laid at the cheapest point at or after the first failing step
                after[L] = Lo[L * T1 + t]
                for j in range(L - 1, 0, -1):
                    after[j] = _min(Lo[j * T1 + t], after[j + 1])
                acc = 0.0
                for j in range(1, L + 1):
                    acc = acc + fail[j] * after[j]
                value = ok * S[L * T1 + t] + acc
                o[r, t] = pc * S[T1 + t] + (1 - pc) * value
    return out
