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

cdef enum:
    XMAX = 6            # hazard counts of one step (plans.X; rollout checks they agree)
    HMAX = 8            # largest hazard limit handled here
    KMAX = 9            # largest max_secured + 1
    TMAX = 64           # largest max_tokens + 1
    LMAX = 64           # longest plan
cdef double BIG = 1e9   # plans.BIG (rollout checks they agree)
LAYOUT = (XMAX, BIG)


cdef inline double _min(double a, double b) noexcept nogil:
    return b if b < a else a


cdef inline double _after_gain(const double* vals, int t, long g, int T1) noexcept nogil:
    """``vals`` (per tokens held) seen by a Big Attack earning ``g`` tokens, at ``t`` tokens before it
    (DirtModel._shift): the value with t + g tokens, those beyond the last kept as seconds off; BIG stays BIG."""
    cdef long tot = t + g
    cdef long ix = tot if tot < T1 - 1 else T1 - 1
    return BIG if vals[t] >= BIG else vals[ix] - <double>(tot - ix)


cdef inline void _tail(const double* q, int H, double* tail) noexcept nogil:
    """tail[h]: the chance that a step's hazards (chances ``q`` of 0..XMAX-1) take h hazards shown to the
    limit, P(x >= H - h)."""
    cdef double cum[XMAX + 1]
    cdef int x, h
    cum[XMAX] = 0.0
    cum[XMAX - 1] = q[XMAX - 1]
    for x in range(XMAX - 2, -1, -1):
        cum[x] = cum[x + 1] + q[x]
    for h in range(H):
        tail[h] = cum[H - h] if H - h < XMAX else 0.0


cdef inline double _fail_step(double* alive, double pj, const double* q, int H) noexcept nogil:
    """One step of rollout.first_loss: the chance that this step is where the dice first show a loss of
    control (``alive[h]``: the chance of h hazards shown so far and none yet), and ``alive`` after it."""
    cdef double tail[HMAX]
    cdef double fresh[HMAX]
    cdef double sa, sb
    cdef int h, x, xs = H if H < XMAX else XMAX
    _tail(q, H, tail)
    sa = alive[0]
    for h in range(1, H):
        sa = sa + alive[h]
    sb = alive[0] * (1 - pj) * tail[0]
    for h in range(1, H):
        sb = sb + alive[h] * (1 - pj) * tail[h]
    for h in range(H):
        alive[h] = alive[h] * (1 - pj)
        fresh[h] = 0.0
    for x in range(xs):
        if q[x] != 0.0:
            for h in range(x, H):
                fresh[h] = fresh[h] + alive[h - x] * q[x]
    for h in range(H):
        alive[h] = fresh[h]
    return sa * pj + sb


cdef inline double _alive_sum(const double* alive, int H) noexcept nogil:
    cdef double ok = alive[0]
    cdef int h
    for h in range(1, H):
        ok = ok + alive[h]
    return ok


def fits(int H, int K, int T1, int L, int first=1) -> bool:
    """Whether the compiled roll-outs handle these sizes (hazard limit, dice secured, tokens, plan length,
    plans rolled out first per state)."""
    return 1 <= H <= HMAX and 0 <= K < KMAX and 1 <= T1 <= TMAX and L < LMAX and 1 <= first <= 64


cdef void _roll_one(long p, const int64_t[:, :] sid, const int64_t[:] length, const int64_t[:, :] index,
                    const double[:, :, ::1] table, const int64_t[:, :] ints, const double[:, :] floats, int H, int K,
                    double* U, double* V, double* out) noexcept nogil:
    """One plan rolled one by one (rollout.roll_values): ``out[t]``, its value from the start per tokens held.
    ``U`` and ``V``: room for H * (K + 1) * T1 values each. At each point only the hazards shown and dice
    secured that the steps before it can reach are worked out (the others are never read)."""
    cdef int T1 = table.shape[2]
    cdef int KT = (K + 1) * T1
    cdef long L = length[p]
    cdef long i, j, s
    cdef int h, k, t, x, m, c, base, xs = H if H < XMAX else XMAX
    cdef double pc, pj, lv, val, sec
    cdef double tail[HMAX]
    cdef double q[XMAX]
    cdef int hreach[LMAX]
    cdef int kreach[LMAX]
    cdef double* W
    cdef const double* stop_i
    cdef const double* stop_j
    cdef const double* loss_j
    cdef const double* stop_end = &table[index[p, L], 0, 0]
    hreach[0] = 0
    kreach[0] = 0
    for j in range(1, L + 1):                  # the most hazards shown and dice secured at each point
        s = sid[p, j]
        x = XMAX - 1
        while x > 0 and floats[s, 2 + x] == 0.0:
            x -= 1
        hreach[j] = hreach[j - 1] + x if hreach[j - 1] + x < H - 1 else H - 1
        kreach[j] = kreach[j - 1] + <int>ints[s, 3] if kreach[j - 1] + ints[s, 3] < K else K
    for h in range(H):
        for k in range(K + 1):
            for t in range(T1):
                U[h * KT + k * T1 + t] = stop_end[t]
    for i in range(L - 1, -1, -1):
        j = i + 1
        s = sid[p, j]
        stop_i = &table[index[p, i], 0, 0]
        stop_j = &table[index[p, j], 0, 0]
        loss_j = &table[index[p, j], 1, 0]
        pc = floats[s, 0]
        pj = floats[s, 1]
        for x in range(XMAX):
            q[x] = floats[s, 2 + x]
        m = <int>ints[s, 3]
        _tail(q, H, tail)
        for h in range(hreach[i] + 1):
            for k in range(kreach[i] + 1):
                c = m * k + m * (m + 1) // 2           # plans.secure_cost(k, m)
                base = h * KT + k * T1
                for t in range(T1):
                    lv = loss_j[t]
                    val = tail[h] * lv
                    for x in range(xs):
                        if h + x < H and q[x] != 0.0:
                            val = val + q[x] * U[base + x * KT + t]
                    if pj != 0.0:
                        val = pj * lv + (1 - pj) * val
                    if pc != 0.0:
                        val = pc * stop_j[t] + (1 - pc) * val
                    if 1 <= m < XMAX and k + m <= K and t >= c:
                        sec = U[base + m * T1 - c + t]
                    else:
                        sec = BIG
                    V[base + t] = _min(stop_i[t], _min(val, sec))
        W = U
        U = V
        V = W
    for t in range(T1):
        out[t] = U[t]


cdef void _attack_one(long p, const int64_t[:, :] sid, const int64_t[:] length, const int64_t[:] gain,
                      const int64_t[:, :] index, const double[:, :, ::1] table, const double[:, :] floats, int H,
                      int latest, double* out) noexcept nogil:
    """One plan as a Big Attack (rollout.attack_values of its point values shifted by its gain): ``out[t]``;
    ``latest``: the loss laid at the cheapest point at or after the first failing step, else on that step."""
    cdef int T1 = table.shape[2]
    cdef long L = length[p], g = gain[p], i, j, s, row
    cdef int h, t, x
    cdef double pc, ok, acc, value
    cdef double q[XMAX]
    cdef double S[LMAX * TMAX]
    cdef double Lo[LMAX * TMAX]
    cdef double fail[LMAX]
    cdef double after[LMAX]
    cdef double alive[HMAX]
    for i in range(1, L + 1):                  # the point values after the attack's gain
        row = index[p, i]
        for t in range(T1):
            S[i * T1 + t] = _after_gain(&table[row, 0, 0], t, g, T1)
            Lo[i * T1 + t] = _after_gain(&table[row, 1, 0], t, g, T1)
    for h in range(H):                          # rollout.first_loss: where the dice first show a loss
        alive[h] = 0.0
    alive[0] = 1.0
    for j in range(1, L + 1):
        s = sid[p, j]
        for x in range(XMAX):
            q[x] = floats[s, 2 + x]
        fail[j] = _fail_step(alive, floats[s, 1], q, H)
    ok = _alive_sum(alive, H)
    pc = floats[sid[p, 1], 0]
    for t in range(T1):
        # the loss of control laid at the cheapest point at or after the first failing step
        after[L] = Lo[L * T1 + t]
        for j in range(L - 1, 0, -1):
            after[j] = _min(Lo[j * T1 + t], after[j + 1]) if latest else Lo[j * T1 + t]
        acc = 0.0
        for j in range(1, L + 1):
            acc = acc + fail[j] * after[j]
        value = ok * S[L * T1 + t] + acc
        out[t] = pc * S[T1 + t] + (1 - pc) * value


cdef void _check(int H, int K, int T1, int first, const double[:, :] floats, const int64_t[:] length,
                 Py_ssize_t sid_width, Py_ssize_t index_width) except *:
    """Refuse sizes the fixed buffers do not hold (the callers ask :func:`fits` first; this keeps a wrong call
    an exception instead of a write past a buffer)."""
    cdef Py_ssize_t r
    if not fits(H, K, T1, 0, first) or floats.shape[1] < 2 + XMAX:
        raise ValueError("sizes beyond the compiled roll-outs' buffers (check fits() first)")
    for r in range(length.shape[0]):
        if not 0 <= length[r] < LMAX or length[r] >= sid_width or length[r] >= index_width:
            raise ValueError(f"plan {r} has {length[r]} steps: beyond its arrays or the compiled buffers")


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


cdef int _first_of(const double[:, ::1] low, const int64_t[:] owner, const unsigned char[:] cand, int first,
                   unsigned char[:] out) noexcept nogil:
    """sweep.first_of: among the candidate rows of each owner (rows of one owner are next to each other), the
    ``first`` with the lowest bound at 0 tokens (ties: the earlier row). Marks them in ``out``; returns how many."""
    cdef Py_ssize_t R = owner.shape[0], a = 0, b, r, z, y
    cdef int count = 0, kept
    cdef long top_r[64]
    cdef double top_k[64]
    cdef double key
    while a < R:
        b = a
        while b < R and owner[b] == owner[a]:
            b += 1
        kept = 0
        for r in range(a, b):
            out[r] = 0
            if not cand[r]:
                continue
            key = low[r, 0]
            if kept == first and not key < top_k[kept - 1]:
                continue
            z = kept if kept < first else first - 1       # insert in order, the later row after an equal key
            while z > 0 and key < top_k[z - 1]:
                top_k[z] = top_k[z - 1]
                top_r[z] = top_r[z - 1]
                z -= 1
            top_k[z] = key
            top_r[z] = r
            if kept < first:
                kept += 1
        for y in range(kept):
            out[top_r[y]] = 1
        count += kept
        a = b
    return count


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
            if stage < 2:
                for r in range(R):
                    pre[r] = 1
                _first_of(low, owner, pre, first, sel)
            else:
                for r in range(R):
                    sel[r] = 0
                    if done[r]:
                        continue
                    o = owner[r]
                    for t in range(T1):
                        if low[r, t] < best[o, t] - 1e-9:
                            sel[r] = 1
                            break
                    if not sel[r]:
                        done[r] = 1                 # the best only falls: this bound can never beat it
                if kind == 1 and stage < 6:
                    for r in range(R):
                        pre[r] = sel[r]
                    _first_of(low, owner, pre, first, sel)
                    for r in range(R):
                        sel[r] = sel[r] and pre[r]
            ran = 0
            for r in range(R):
                if sel[r]:
                    if not ran:
                        for o in range(n):
                            for t in range(T1):
                                bmin[o, t] = BIG
                                bpick[o, t] = -1
                        ran = 1
                    done[r] = 1
                    if kind == 1:
                        _roll_one(r, sid, length, index, table, ints, floats, H, K, U, V, vals)
                    else:
                        _attack_one(r, sid, length, gain, index, table, floats, H, latest, vals)
                    o = owner[r]
                    for t in range(T1):
                        if bpick[o, t] < 0 or vals[t] < bmin[o, t]:      # the first of the least
                            bmin[o, t] = vals[t]
                            bpick[o, t] = local[r]
            if ran:
                for o in range(n):
                    for t in range(T1):
                        if bpick[o, t] >= 0 and bmin[o, t] < best[o, t] - 1e-9:
                            best[o, t] = bmin[o, t]
                            pick[o, t] = bpick[o, t]
                            mode[o, t] = kind
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


cdef void _attack_spread_one(long p, const int64_t[:, :] sid, const int64_t[:] length, const int64_t[:] gain,
                             const int64_t[:, :] index, const double[:, :, ::1] table, const double[:, :] floats,
                             int H, const double* sp, double* out) noexcept nogil:
    """One plan as a Big Attack whose failures are already valued where the dice can be laid again (``sp``, per
    tokens): ``pc * first point + (1 - pc) * (ok * end + spread)``, points after the gain."""
    cdef int T1 = table.shape[2], t, h, x
    cdef long L = length[p], g = gain[p], i
    cdef double pc, ok
    cdef double q[XMAX]
    cdef double alive[HMAX]
    for h in range(H):                          # rollout.first_loss: the chance the dice show no loss
        alive[h] = 0.0
    alive[0] = 1.0
    for i in range(1, L + 1):
        for x in range(XMAX):
            q[x] = floats[sid[p, i], 2 + x]
        _fail_step(alive, floats[sid[p, i], 1], q, H)
    ok = _alive_sum(alive, H)
    pc = floats[sid[p, 1], 0]
    for t in range(T1):
        out[t] = pc * _after_gain(&table[index[p, 1], 0, 0], t, g, T1) + (1 - pc) * (
            ok * _after_gain(&table[index[p, L], 0, 0], t, g, T1) + sp[t])


cdef double _pairwise(const double* a, Py_ssize_t n, Py_ssize_t stride) noexcept nogil:
    """numpy's pairwise summation of ``n`` doubles ``stride`` apart (its add reduction along an axis: below 8
    in order from 0, up to 128 in eight running sums, beyond that halves), for the same bits as numpy."""
    cdef Py_ssize_t i, j, n2
    cdef double res
    cdef double r[8]
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[i * stride]
        return res
    if n <= 128:
        for j in range(8):
            r[j] = a[j * stride]
        i = 8
        while i < n - (n % 8):
            for j in range(8):
                r[j] += a[(i + j) * stride]
            i += 8
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            res += a[i * stride]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise(a, n2, stride) + _pairwise(a + n2 * stride, n - n2, stride)


def relay_spread(const int64_t[:] entry, const int64_t[:] gain, const int64_t[:] kind, const int64_t[:] start,
                 const int64_t[:] count, const double[:] prob, const int64_t[:] ids, list mins, list known, int T1):
    """relaid._spread for many rows at once: row r's failure classes are entry ``entry[r]`` of a store (its
    classes ``start[e]`` to ``start[e] + count[e]`` of ``prob`` and ``ids``, the number of each class's set of
    points), its damage ``kind[r]`` (``mins[kind][set, tokens]``: each set's least loss value, ``known[kind][set]``
    whether worked out). Returns ``(spread[row, tokens], None)``: each class at its set's least value after the
    gain ``gain[r]``, times its chance, added class after class (0 without classes); or, when some set's least
    value is not known yet, ``(None, (kinds, sets))`` of those (with repeats) and nothing computed. The classes
    of a row are added as numpy's ``add.reduceat`` adds them (the first, plus the rest summed pairwise)."""
    cdef Py_ssize_t n = entry.shape[0], r, c, a, b, nk = len(mins), k
    cdef int t
    cdef int64_t e, s, kd
    cdef double pr
    cdef double[:, ::1] mv
    cdef const unsigned char[::1] kv
    miss_k, miss_s = [], []
    for r in range(n):
        kd = kind[r]
        e = entry[r]
        if not 0 <= kd < nk or not 0 <= e < start.shape[0]:
            raise ValueError("relay_spread: a row's damage or classes out of range")
        kv = known[kd]
        mv = mins[kd]
        if mv.shape[1] != T1 or mv.shape[0] < kv.shape[0]:
            raise ValueError("relay_spread: set minima of another shape")
        a = start[e]
        b = a + count[e]
        if not 0 <= a <= b <= ids.shape[0] or b > prob.shape[0]:
            raise ValueError("relay_spread: classes beyond the store")
        for c in range(a, b):
            s = ids[c]
            if not 0 <= s < kv.shape[0] or not kv[s]:
                miss_k.append(kd)
                miss_s.append(s)
    if miss_k:
        return None, (np.array(miss_k, dtype=np.int64), np.array(miss_s, dtype=np.int64))
    out_a = np.zeros((n, T1))
    cdef double[:, ::1] out = out_a
    cdef Py_ssize_t most = 1
    for r in range(n):
        most = count[entry[r]] if count[entry[r]] > most else most
    terms_a = np.empty((most, T1))
    cdef double[:, ::1] terms = terms_a
    for r in range(n):
        mv = mins[kind[r]]
        a = start[entry[r]]
        b = a + count[entry[r]]
        if b == a:
            continue
        for c in range(a, b):
            s = ids[c]
            pr = prob[c]
            for t in range(T1):
                terms[c - a, t] = pr * _after_gain(&mv[s, 0], t, gain[r], T1)
        for t in range(T1):             # numpy's add.reduceat: the first term, plus the others summed pairwise
            out[r, t] = terms[0, t] if b - a == 1 else terms[0, t] + _pairwise(&terms[1, t], b - a - 1, T1)
    return out_a, None


def decide_relaid(const int64_t[:, :] sid, const int64_t[:] length, const int64_t[:] gain,
                  const int64_t[:, :] index, const double[:, :, ::1] table, const int64_t[:, :] ints,
                  const double[:, :] floats, const int64_t[:] owner, const int64_t[:] local, int n, int H, int K,
                  int first, const double[:, ::1] low_roll, const double[:, ::1] low_att, spread_of):
    """sweep.decide_many's branch and bound under the reading ``achievable`` (a failed Big Attack's dice laid
    again), in the same order: the bounds are given (``low_roll``, ``low_att``: [row, tokens]), and
    ``spread_of(rows)`` values the failures of the Big Attacks of the rows about to be rolled out
    ([row, tokens], rows in rising order). Rounds: one by one, the ``first`` plans of each state by their bound;
    Big Attack, the first; then while a bound can beat the best, Big Attack (2 per state), one by one three times
    (``first`` per state); then Big Attacks (4 per state at a time) and plans one by one until none can.
    Returns ``best[state, tokens]``, ``mode`` (0 none, 1 one by one, 2 Big Attack) and ``pick``."""
    cdef Py_ssize_t R = owner.shape[0], r, m
    cdef int T1 = table.shape[2], t, kind, stage, ran, cap
    cdef long o
    _check(H, K, T1, first, floats, length, sid.shape[1], index.shape[1])
    if first < 4 or low_roll.shape[0] != R or low_att.shape[0] != R or low_roll.shape[1] != T1 \
            or low_att.shape[1] != T1 or local.shape[0] != R:
        raise ValueError("decide_relaid: bounds of another shape")
    for r in range(R):
        if not 0 <= owner[r] < n or (r and owner[r] < owner[r - 1]):
            raise ValueError("decide_relaid: owners out of range or out of order")
    best_a = np.full((n, T1), BIG)
    mode_a = np.zeros((n, T1), dtype=np.int64)
    pick_a = np.full((n, T1), -1, dtype=np.int64)
    cdef double[:, ::1] best = best_a
    cdef int64_t[:, ::1] mode = mode_a
    cdef int64_t[:, ::1] pick = pick_a
    cdef const double[:, ::1] low
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
    rows_a = np.empty(R, dtype=np.int64)
    cdef int64_t[::1] rows = rows_a
    cdef double[:, ::1] sp
    cdef double vals[TMAX]
    cdef double U[HMAX * KMAX * TMAX]
    cdef double V[HMAX * KMAX * TMAX]
    # the kinds of the stages (1: one by one, 2: Big Attack) and how many plans of each state they take
    # (0: all); stages 0, 1 take the first by the bound alone, stages 6 and 7 repeat while they find plans
    cdef int order[8]
    cdef int take[8]
    order[:] = [1, 2, 2, 1, 1, 1, 2, 1]
    take[:] = [first, 1, 2, first, first, first, 4, 0]
    stage = 0
    while stage < 8:
        kind = order[stage]
        low = low_roll if kind == 1 else low_att
        done = done_roll if kind == 1 else done_att
        cap = take[stage]
        if stage < 2:
            for r in range(R):
                pre[r] = 1
            _first_of(low, owner, pre, cap, sel)
        else:
            for r in range(R):
                sel[r] = 0
                if done[r]:
                    continue
                o = owner[r]
                for t in range(T1):
                    if low[r, t] < best[o, t] - 1e-9:
                        sel[r] = 1
                        break
                if not sel[r]:
                    done[r] = 1                 # the best only falls: this bound can never beat it
            if cap:
                for r in range(R):
                    pre[r] = sel[r]
                _first_of(low, owner, pre, cap, sel)
                for r in range(R):
                    sel[r] = sel[r] and pre[r]
        m = 0
        for r in range(R):
            if sel[r]:
                rows[m] = r
                m += 1
        ran = m > 0
        if ran:
            if kind == 2:
                sp = np.ascontiguousarray(spread_of(rows_a[:m]), dtype=np.float64)
                if sp.shape[0] != m or sp.shape[1] != T1:
                    raise ValueError("spread_of: one row of tokens per plan rolled out")
            for o in range(n):
                for t in range(T1):
                    bmin[o, t] = BIG
                    bpick[o, t] = -1
            for r in range(m):
                done[rows[r]] = 1
                if kind == 1:
                    _roll_one(rows[r], sid, length, index, table, ints, floats, H, K, U, V, vals)
                else:
                    _attack_spread_one(rows[r], sid, length, gain, index, table, floats, H, &sp[r, 0], vals)
                o = owner[rows[r]]
                for t in range(T1):
                    if bpick[o, t] < 0 or vals[t] < bmin[o, t]:      # the first of the least
                        bmin[o, t] = vals[t]
                        bpick[o, t] = local[rows[r]]
            for o in range(n):
                for t in range(T1):
                    if bpick[o, t] >= 0 and bmin[o, t] < best[o, t] - 1e-9:
                        best[o, t] = bmin[o, t]
                        pick[o, t] = bpick[o, t]
                        mode[o, t] = kind
        if stage < 6 or not ran:
            stage += 1
    return best_a, mode_a, pick_a


def relay_low(const int64_t[:] nums, const int64_t[:] dice, const int64_t[:] begin, const int64_t[:] kind_of,
              list tables, const int64_t[:] row_set, const int64_t[:] need, int T1):
    """relaid.Relaid.low for stacked rows: set s has candidates ``begin[s]`` to ``begin[s + 1]`` of ``nums`` (the
    numbers of their points, in rising order of ``dice``, their dice), its damage ``kind_of[s]`` (``tables[kind]``,
    the model's point values [number, stop/loss, tokens], worked out for every point here), -1 when the set
    keeps no search (then -BIG). Row r: the least loss over the candidates of set ``row_set[r]`` with at most
    ``need[r]`` dice (none: over all of them, as numpy's index -1 reads). ``row_set`` in rising order."""
    cdef Py_ssize_t R = row_set.shape[0], S = begin.shape[0] - 1, r = 0, s, i, a, b, g, ng, nk = len(tables)
    cdef int t
    cdef int64_t kd
    cdef const double[:, :, ::1] tab
    out_a = np.empty((R, T1))
    cdef double[:, ::1] out = out_a
    run_a = np.empty((max(1, dice.shape[0]), T1))
    cdef double[:, ::1] run = run_a             # the least over the candidates of each dice count and fewer
    ends_a = np.empty(max(1, dice.shape[0]), dtype=np.int64)
    cdef int64_t[::1] ends = ends_a             # the dice count of each of those
    if begin.shape[0] < 1 or kind_of.shape[0] != S or need.shape[0] != R or begin[S] > nums.shape[0] \
            or nums.shape[0] != dice.shape[0]:
        raise ValueError("relay_low: arrays of other shapes")
    for r in range(R):
        if not 0 <= row_set[r] < S or (r and row_set[r] < row_set[r - 1]):
            raise ValueError("relay_low: rows' sets out of range or out of order")
    r = 0
    for s in range(S):
        if r >= R or row_set[r] != s:
            continue
        kd = kind_of[s]
        a, b = begin[s], begin[s + 1]
        if kd < 0 or a == b:
            while r < R and row_set[r] == s:
                for t in range(T1):
                    out[r, t] = -BIG if kd < 0 else BIG
                r += 1
            continue
        if kd >= nk:
            raise ValueError("relay_low: a damage beyond the tables")
        tab = tables[kd]
        if tab.shape[2] != T1:
            raise ValueError("relay_low: tables of another shape")
        ng = 0
        for i in range(a, b):
            if not 0 <= nums[i] < tab.shape[0] or (i > a and dice[i] < dice[i - 1]):
                raise ValueError("relay_low: a point beyond the table, or candidates out of dice order")
            if i == a:
                for t in range(T1):
                    run[0, t] = tab[nums[i], 1, t]
                ng = 1
            else:
                if dice[i] != dice[i - 1]:
                    for t in range(T1):
                        run[ng, t] = run[ng - 1, t]
                    ng += 1
                for t in range(T1):
                    run[ng - 1, t] = _min(run[ng - 1, t], tab[nums[i], 1, t])
            ends[ng - 1] = dice[i]
        while r < R and row_set[r] == s:
            g = ng - 1                         # the last count at most the need (none: the last of all)
            while g > 0 and ends[g] > need[r]:
                g -= 1
            if ends[g] > need[r]:
                g = ng - 1
            for t in range(T1):
                out[r, t] = run[g, t]
            r += 1
    return out_a


def relay_bound(const int64_t[:, :] sid, const int64_t[:] length, const int64_t[:] gain, const int64_t[:, :] index,
                const double[:, :, ::1] table, const double[:, :] floats, const double[:] risk,
                const double[:, ::1] low):
    """sweep._relay_bound with the dice's risk known: ``pc * first point + (1 - pc - risk) * end + risk * low``,
    each after the Big Attack's gain, per row and tokens."""
    cdef Py_ssize_t R = length.shape[0], r
    cdef int T1 = table.shape[2], t
    cdef long L, g
    cdef double pc, k
    if risk.shape[0] != R or low.shape[0] != R or low.shape[1] != T1 or index.shape[0] != R or sid.shape[0] != R:
        raise ValueError("relay_bound: arrays of other shapes")
    for r in range(R):
        if not 0 <= length[r] < index.shape[1] or length[r] >= sid.shape[1] or index.shape[1] < 2 \
                or sid.shape[1] < 2:
            raise ValueError("relay_bound: a plan longer than its arrays")
    out_a = np.empty((R, T1))
    cdef double[:, ::1] out = out_a
    for r in range(R):
        L = length[r]
        g = gain[r]
        pc = floats[sid[r, 1], 0]
        k = 1 - pc - risk[r]
        for t in range(T1):
            out[r, t] = pc * _after_gain(&table[index[r, 1], 0, 0], t, g, T1) + k * _after_gain(
                &table[index[r, L], 0, 0], t, g, T1) + risk[r] * _after_gain(&low[r, 0], t, g, T1)
    return out_a
