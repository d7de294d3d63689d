# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""Compiled parts of the sweep under the reading ``big_attack_failure: achievable`` (a failed Big Attack's dice laid
again anywhere they allow): :func:`decide_relaid` is the branch and bound of
:func:`designer.systems.dirt.dice.sweep.decide_many` for that reading, in the same rounds and order, with the
roll-outs of ``_rollout_core``; :func:`relay_spread` values the failures of Big Attacks from each plan's classes
(:func:`designer.systems.dirt.dice.relaid._spread`); :func:`relay_low` and :func:`relay_bound` are the bounds
(:meth:`designer.systems.dirt.dice.relaid.Relaid.low`, :func:`designer.systems.dirt.dice.sweep._relay_bound`). The
same numbers as that numpy code, to the last bit (no fused multiply-add; sums in numpy's order). Built with the
package (setup.py); where it is not, the numpy code runs.
"""
import numpy as np

from libc.stdint cimport int64_t
from libcpp.algorithm cimport sort, unique
from libcpp.pair cimport pair
from libcpp.vector cimport vector

from designer.systems.dirt.dice._rollout_core cimport (
    HMAX, KMAX, ROLLOUT_BIG, TMAX, XMAX, _after_gain, _attack_spread_one, _check, _fits, _min, _roll_one,
    _clear_round, _fold_round, _fold_row, _select)

ctypedef const char* _cbytes

cdef double BIG = ROLLOUT_BIG   # plans.BIG (sweep checks they agree)
LAYOUT = (XMAX, BIG)


def fits(int H, int K, int T1, int L, int first=1) -> bool:
    """Whether the compiled branch and bound handles these sizes (hazard limit, dice secured, tokens, plan
    length, plans rolled out first per state)."""
    return _fits(H, K, T1, L, first)


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
                 const int64_t[:] count, const double[:] prob, const int64_t[:] ids, list mins, list slots, int T1):
    """relaid._spread for many rows at once: row r's failure classes are entry ``entry[r]`` of a store (its
    classes ``start[e]`` to ``start[e] + count[e]`` of ``prob`` and ``ids``, the number of each class's set of
    points), its damage ``kind[r]`` (each set's least loss value is ``mins[kind][slots[kind][set], tokens]``,
    worked out where ``slots[kind][set]`` is 0 or more). Returns ``(spread[row, tokens], None)``: each class at
    its set's least value after the gain ``gain[r]``, times its chance, added class after class (0 without
    classes); or, when some set's least value is not known yet, ``(None, (kinds, sets))`` of those (each pair
    once, in rising order of kind, then set) and nothing computed. The classes
    of a row are added as numpy's ``add.reduceat`` adds them (the first, plus the rest summed pairwise)."""
    cdef Py_ssize_t n = entry.shape[0], r, c, a, b, nk = len(mins), k
    cdef int t
    cdef int64_t e, s, kd, row
    cdef double pr
    cdef double[:, ::1] mv
    cdef const int64_t[::1] sv
    cdef vector[pair[int64_t, int64_t]] miss
    cdef Py_ssize_t nm, w
    cdef int64_t[::1] mk, ms
    # each damage's minima and slots read once (the arrays stay alive in the lists given)
    cdef vector[double*] mrow
    cdef vector[const int64_t*] srow
    cdef vector[Py_ssize_t] scount
    cdef vector[Py_ssize_t] mcount
    if len(slots) != nk:
        raise ValueError("relay_spread: one array of slots per damage")
    for k in range(nk):
        sv = slots[k]
        mv = mins[k]
        if mv.shape[1] != T1:
            raise ValueError("relay_spread: set minima of another shape")
        mrow.push_back(&mv[0, 0] if mv.shape[0] > 0 else NULL)
        srow.push_back(&sv[0] if sv.shape[0] > 0 else NULL)
        scount.push_back(sv.shape[0])
        mcount.push_back(mv.shape[0])
    for r in range(n):
        kd = kind[r]
        e = entry[r]
        if not 0 <= kd < nk or not 0 <= e < start.shape[0]:
            raise ValueError("relay_spread: a row's damage or classes out of range")
        a = start[e]
        b = a + count[e]
        if not 0 <= a <= b <= ids.shape[0] or b > prob.shape[0]:
            raise ValueError("relay_spread: classes beyond the store")
        for c in range(a, b):
            s = ids[c]
            if not 0 <= s < scount[kd] or srow[kd][s] < 0:
                miss.push_back(pair[int64_t, int64_t](kd, s))
            elif srow[kd][s] >= mcount[kd]:
                raise ValueError("relay_spread: a slot beyond the minima")
    if miss.size():
        sort(miss.begin(), miss.end())
        nm = unique(miss.begin(), miss.end()) - miss.begin()
        kinds_a = np.empty(nm, dtype=np.int64)
        sets_a = np.empty(nm, dtype=np.int64)
        mk = kinds_a
        ms = sets_a
        for w in range(nm):
            mk[w] = miss[w].first
            ms[w] = miss[w].second
        return None, (kinds_a, sets_a)
    out_a = np.zeros((n, T1))
    cdef double[:, ::1] out = out_a
    cdef Py_ssize_t most = 1
    for r in range(n):
        most = count[entry[r]] if count[entry[r]] > most else most
    terms_a = np.empty((most, T1))
    cdef double[:, ::1] terms = terms_a
    cdef const double* base
    for r in range(n):
        base = mrow[kind[r]]
        a = start[entry[r]]
        b = a + count[entry[r]]
        if b == a:
            continue
        for c in range(a, b):
            row = srow[kind[r]][ids[c]]
            pr = prob[c]
            for t in range(T1):
                terms[c - a, t] = pr * _after_gain(base + row * T1, t, gain[r], T1)
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
        _select(low, owner, best, done, pre, sel, stage < 2, take[stage], T1)
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
            _clear_round(bmin, bpick, n, T1)
            for r in range(m):
                done[rows[r]] = 1
                if kind == 1:
                    _roll_one(rows[r], sid, length, index, table, ints, floats, H, K, U, V, vals)
                else:
                    _attack_spread_one(rows[r], sid, length, gain, index, table, floats, H, &sp[r, 0], vals)
                _fold_row(vals, owner[rows[r]], local[rows[r]], bmin, bpick, T1)
            _fold_round(bmin, bpick, best, pick, mode, kind, n, T1)
        if stage < 6 or not ran:
            stage += 1
    return best_a, mode_a, pick_a


def relay_low(const int64_t[:] nums, const int64_t[:] dice, const int64_t[:] begin, const int64_t[:] search_of,
              const int64_t[:] kind_of, list tables, const int64_t[:] row_set, const int64_t[:] need, int T1):
    """relaid.Relaid.low for stacked rows: search j has candidates ``begin[j]`` to ``begin[j + 1]`` of ``nums`` (the
    numbers of their points, in rising order of ``dice``, their dice); set s reads search ``search_of[s]``, its
    damage ``kind_of[s]`` (``tables[kind]``, the model's point values [number, stop/loss, tokens], worked out for
    every point here), -1 when the set keeps no search (then -BIG). Row r: the least loss over the candidates of
    set ``row_set[r]`` with at most ``need[r]`` dice (none: over all of them, as numpy's index -1 reads).
    ``row_set`` in rising order."""
    cdef Py_ssize_t R = row_set.shape[0], S = kind_of.shape[0], J = begin.shape[0] - 1, r = 0, s, i, a, b, g, ng
    cdef Py_ssize_t nk = len(tables)
    cdef int t
    cdef int64_t kd
    cdef const double[:, :, ::1] tab
    cdef const double* src
    cdef double* rp
    cdef vector[_cbytes] tptr = vector[_cbytes](nk, NULL)     # each damage's [0, 1, 0], row strides
    cdef vector[Py_ssize_t] tstride = vector[Py_ssize_t](nk, 0)
    cdef vector[Py_ssize_t] tn = vector[Py_ssize_t](nk, -1)
    out_a = np.empty((R, T1))
    cdef double[:, ::1] out = out_a
    run_a = np.empty((max(1, dice.shape[0]), T1))
    cdef double[:, ::1] run = run_a             # the least over the candidates of each dice count and fewer
    ends_a = np.empty(max(1, dice.shape[0]), dtype=np.int64)
    cdef int64_t[::1] ends = ends_a             # the dice count of each of those
    if begin.shape[0] < 1 or search_of.shape[0] != S or need.shape[0] != R or begin[J] > nums.shape[0] \
            or nums.shape[0] != dice.shape[0]:
        raise ValueError("relay_low: arrays of other shapes")
    for s in range(S):
        if kind_of[s] >= 0 and not 0 <= search_of[s] < J:
            raise ValueError("relay_low: a set's search out of range")
    for s in range(J):
        if not 0 <= begin[s] <= begin[s + 1]:
            raise ValueError("relay_low: searches out of order")
    for r in range(R):
        if not 0 <= row_set[r] < S or (r and row_set[r] < row_set[r - 1]):
            raise ValueError("relay_low: rows' sets out of range or out of order")
    r = 0
    for s in range(S):
        if r >= R or row_set[r] != s:
            continue
        kd = kind_of[s]
        a = b = 0
        if kd >= 0:
            a, b = begin[search_of[s]], begin[search_of[s] + 1]
        if kd < 0 or a == b:
            while r < R and row_set[r] == s:
                for t in range(T1):
                    out[r, t] = -BIG if kd < 0 else BIG
                r += 1
            continue
        if kd >= nk:
            raise ValueError("relay_low: a damage beyond the tables")
        if tn[kd] < 0:                  # each damage's table read once (it stays alive in ``tables``)
            tab = tables[kd]
            if tab.shape[2] != T1 or tab.shape[1] < 2:
                raise ValueError("relay_low: tables of another shape")
            tn[kd] = tab.shape[0]
            tptr[kd] = <_cbytes>&tab[0, 1, 0] if tab.shape[0] > 0 else NULL
            tstride[kd] = tab.strides[0]
        ng = 0
        for i in range(a, b):
            if not 0 <= nums[i] < tn[kd] or (i > a and dice[i] < dice[i - 1]):
                raise ValueError("relay_low: a point beyond the table, or candidates out of dice order")
            src = <const double*>(tptr[kd] + nums[i] * tstride[kd])
            if i == a:
                rp = &run[0, 0]
                for t in range(T1):
                    rp[t] = src[t]
                ng = 1
            else:
                if dice[i] != dice[i - 1]:
                    for t in range(T1):
                        run[ng, t] = run[ng - 1, t]
                    ng += 1
                rp = &run[ng - 1, 0]
                for t in range(T1):
                    rp[t] = _min(rp[t], src[t])
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
    cdef const double* first
    cdef const double* end
    cdef const double* lw
    cdef double rk
    for r in range(R):
        L = length[r]
        g = gain[r]
        pc = floats[sid[r, 1], 0]
        rk = risk[r]
        k = 1 - pc - rk
        first = &table[index[r, 1], 0, 0]
        end = &table[index[r, L], 0, 0]
        lw = &low[r, 0]
        for t in range(T1):
            out[r, t] = pc * _after_gain(first, t, g, T1) + k * _after_gain(end, t, g, T1) + rk * _after_gain(
                lw, t, g, T1)
    return out_a
