# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The roll-outs of DIRT plans shared by the compiled modules of the sweep (``_kernels``: the reading as_laid;
``_relaid``: a failed Big Attack's dice laid again): one plan rolled one by one (:func:`rollout.roll_values`) or as a
Big Attack (:func:`rollout.attack_values`), the chance the dice first show a loss of control at each step
(:func:`rollout.first_loss`) and the choice of the first plans of each state by their bound (sweep.first_of), with
numpy's arithmetic in numpy's order. A plan is row ``p`` of a stacked plan set (see ``_kernels``)."""
from libc.stdint cimport int64_t

cdef extern from *:
    """
    #define ROLLOUT_BIG 1e9
    """
    const double ROLLOUT_BIG     # plans.BIG (rollout checks they agree)

cdef enum:
    XMAX = 6            # hazard counts of one step (plans.X; rollout checks they agree)
    HMAX = 8            # largest hazard limit handled here
    KMAX = 9            # largest max_secured + 1
    TMAX = 64           # largest max_tokens + 1
    LMAX = 64           # longest plan


cdef inline double _min(double a, double b) noexcept nogil:
    return b if b < a else a


cdef inline double _after_gain(const double* vals, int t, long g, int T1) noexcept nogil:
    """``vals`` (per tokens held) seen by a Big Attack earning ``g`` tokens, at ``t`` tokens before it
    (DirtModel._shift): the value with t + g tokens, those beyond the last kept as seconds off; ROLLOUT_BIG stays ROLLOUT_BIG."""
    cdef long tot = t + g
    cdef long ix = tot if tot < T1 - 1 else T1 - 1
    return ROLLOUT_BIG if vals[t] >= ROLLOUT_BIG else vals[ix] - <double>(tot - ix)


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


cdef inline bint _fits(int H, int K, int T1, int L, int first) noexcept nogil:
    return 1 <= H <= HMAX and 0 <= K < KMAX and 1 <= T1 <= TMAX and L < LMAX and 1 <= first <= 64


cdef inline void _roll_one(long p, const int64_t[:, :] sid, const int64_t[:] length, const int64_t[:, :] index,
                    const double[:, :, ::1] table, const int64_t[:, :] ints, const double[:, :] floats, int H, int K,
                    double* U, double* V, double* out) noexcept nogil:
    """One plan rolled one by one (rollout.roll_values): ``out[t]``, its value from the start per tokens held.
    ``U`` and ``V``: room for H * (K + 1) * T1 values each. At each point only the hazards shown and dice
    secured that the steps before it can reach are worked out (the others are never read)."""
    cdef int T1 = table.shape[2]
    cdef int KT = (K + 1) * T1
    cdef long L = length[p]
    cdef long i, j, s
    cdef int h, k, t, x, m, c, base, xs = H if H < XMAX else XMAX, nnz, nh, z
    cdef double pc, pj, qx, sec
    cdef double tail[HMAX]
    cdef double q[XMAX]
    cdef int nzx[XMAX]
    cdef double acc[KMAX * TMAX]
    cdef double* Ux
    cdef int n, hb, e
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
        nnz = 0                                    # the hazard counts this step can show, rising
        for x in range(xs):
            if q[x] != 0.0:
                nzx[nnz] = x
                nnz += 1
        for h in range(hreach[i] + 1):
            nh = 0                                 # those that keep h + x below the limit: the first nh
            while nh < nnz and h + nzx[nh] < H:
                nh += 1
            # each (dice secured, tokens) value by the same operations in the same order as one at a time: a
            # pass over all of them per term (the rows of one h lie side by side in U, k then t)
            n = (kreach[i] + 1) * T1
            hb = h * KT
            for t in range(T1):
                acc[t] = tail[h] * loss_j[t]
            for e in range(T1, n):
                acc[e] = acc[e - T1]
            for z in range(nh):                   # the hazard counts below the limit, rising
                qx = q[nzx[z]]
                Ux = &U[hb + nzx[z] * KT]
                e = 0
                while e + 4 <= n:                 # four values a turn (each its own sum, as one at a time)
                    acc[e] = acc[e] + qx * Ux[e]
                    acc[e + 1] = acc[e + 1] + qx * Ux[e + 1]
                    acc[e + 2] = acc[e + 2] + qx * Ux[e + 2]
                    acc[e + 3] = acc[e + 3] + qx * Ux[e + 3]
                    e += 4
                while e < n:
                    acc[e] = acc[e] + qx * Ux[e]
                    e += 1
            if pj != 0.0:
                for k in range(kreach[i] + 1):
                    for t in range(T1):
                        acc[k * T1 + t] = pj * loss_j[t] + (1 - pj) * acc[k * T1 + t]
            if pc != 0.0:
                for k in range(kreach[i] + 1):
                    for t in range(T1):
                        acc[k * T1 + t] = pc * stop_j[t] + (1 - pc) * acc[k * T1 + t]
            for k in range(kreach[i] + 1):
                c = m * k + m * (m + 1) // 2           # plans.secure_cost(k, m)
                base = hb + k * T1
                if 1 <= m < XMAX and k + m <= K:
                    for t in range(T1):
                        sec = U[base + m * T1 - c + t] if t >= c else ROLLOUT_BIG
                        V[base + t] = _min(stop_i[t], _min(acc[k * T1 + t], sec))
                else:
                    for t in range(T1):
                        V[base + t] = _min(stop_i[t], _min(acc[k * T1 + t], ROLLOUT_BIG))
        W = U
        U = V
        V = W
    for t in range(T1):
        out[t] = U[t]


cdef inline void _attack_one(long p, const int64_t[:, :] sid, const int64_t[:] length, const int64_t[:] gain,
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


cdef inline void _attack_spread_one(long p, const int64_t[:, :] sid, const int64_t[:] length, const int64_t[:] gain,
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


cdef inline void _check(int H, int K, int T1, int first, const double[:, :] floats, const int64_t[:] length,
                 Py_ssize_t sid_width, Py_ssize_t index_width) except *:
    """Refuse sizes the fixed buffers do not hold (the callers ask :func:`fits` first; this keeps a wrong call
    an exception instead of a write past a buffer)."""
    cdef Py_ssize_t r
    if not _fits(H, K, T1, 0, first) or floats.shape[1] < 2 + XMAX:
        raise ValueError("sizes beyond the compiled roll-outs' buffers (check fits() first)")
    for r in range(length.shape[0]):
        if not 0 <= length[r] < LMAX or length[r] >= sid_width or length[r] >= index_width:
            raise ValueError(f"plan {r} has {length[r]} steps: beyond its arrays or the compiled buffers")


cdef inline int _first_of(const double[:, ::1] low, const int64_t[:] owner, const unsigned char[:] cand, int first,
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


cdef inline void _select(const double[:, ::1] low, const int64_t[:] owner, const double[:, ::1] best,
                         unsigned char[:] done, unsigned char[:] pre, unsigned char[:] sel, bint opening, int cap,
                         int T1) noexcept nogil:
    """The rows a stage of the branch and bound rolls out, marked in ``sel``: at the opening stages the ``cap``
    rows of each owner with the lowest bound; later, the rows not ``done`` whose bound beats their owner's best
    at some token count (a row that cannot is ``done`` for good: the best only falls), the ``cap`` lowest of
    each owner when ``cap`` is not 0."""
    cdef Py_ssize_t R = owner.shape[0], r
    cdef long o
    cdef int t
    if opening:
        for r in range(R):
            pre[r] = 1
        _first_of(low, owner, pre, cap, sel)
        return
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
            done[r] = 1
    if cap:
        for r in range(R):
            pre[r] = sel[r]
        _first_of(low, owner, pre, cap, sel)
        for r in range(R):
            sel[r] = sel[r] and pre[r]


cdef inline void _clear_round(double[:, ::1] bmin, int64_t[:, ::1] bpick, Py_ssize_t n, int T1) noexcept nogil:
    """Start a round of the branch and bound: no plan rolled out yet for any owner."""
    cdef Py_ssize_t o
    cdef int t
    for o in range(n):
        for t in range(T1):
            bmin[o, t] = ROLLOUT_BIG
            bpick[o, t] = -1


cdef inline void _fold_row(const double* vals, long o, int64_t plan, double[:, ::1] bmin, int64_t[:, ::1] bpick,
                           int T1) noexcept nogil:
    """The values of one plan rolled out into its owner's least of the round (the first of the least)."""
    cdef int t
    for t in range(T1):
        if bpick[o, t] < 0 or vals[t] < bmin[o, t]:
            bmin[o, t] = vals[t]
            bpick[o, t] = plan


cdef inline void _fold_round(const double[:, ::1] bmin, const int64_t[:, ::1] bpick, double[:, ::1] best,
                             int64_t[:, ::1] pick, int64_t[:, ::1] mode, int kind, Py_ssize_t n,
                             int T1) noexcept nogil:
    """A round's least per owner and tokens into the best, where better by 1e-9 (its plan and kind kept)."""
    cdef Py_ssize_t o
    cdef int t
    for o in range(n):
        for t in range(T1):
            if bpick[o, t] >= 0 and bmin[o, t] < best[o, t] - 1e-9:
                best[o, t] = bmin[o, t]
                pick[o, t] = bpick[o, t]
                mode[o, t] = kind

