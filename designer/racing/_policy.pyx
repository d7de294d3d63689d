# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""Compiled carry of the stage time's distribution over whole seconds (:meth:`designer.racing.mdp.Solution.
distribution`): the chances of each (state, bank) pair of the policy as an array over whole seconds from a first
second, carried to the pairs each turn leads to, with the same products and additions in the same order as the
numpy reference (``Solution._distribution_whole_numpy``), so the same numbers to the last bit. Built when the package
is installed (setup.py); where it is not, ``mdp.POLICY`` is None and the numpy code runs.
"""
import heapq

import numpy as np

from libc.math cimport pow
from libc.stdint cimport int64_t
from libcpp.vector cimport vector


cdef void _add(vector[double]& a, int64_t* a_lo, int* has, int64_t lo, const double* arr, Py_ssize_t n,
               double scale, bint scaled) noexcept:
    """Add ``arr * scale`` (or ``arr`` itself) from second ``lo`` into the array ``a`` from second ``a_lo``: the
    first add copies it, a later one grows ``a`` with zeros where it must and adds element by element (mdp._add)."""
    cdef Py_ssize_t i, off, old
    cdef int64_t new_lo, new_hi, hi
    cdef vector[double] grown
    if not has[0]:
        a.resize(n)
        for i in range(n):
            a[i] = arr[i] * scale if scaled else arr[i]
        a_lo[0] = lo
        has[0] = 1
        return
    old = <Py_ssize_t>a.size()
    new_lo = a_lo[0] if a_lo[0] < lo else lo
    hi = lo + n
    new_hi = a_lo[0] + old if a_lo[0] + old > hi else hi
    if new_lo != a_lo[0] or new_hi != a_lo[0] + old:
        grown.assign(new_hi - new_lo, 0.0)
        off = a_lo[0] - new_lo
        for i in range(old):
            grown[off + i] = a[i]
        a.swap(grown)
        a_lo[0] = new_lo
    off = lo - a_lo[0]
    if scaled:
        for i in range(n):
            a[off + i] = a[off + i] + arr[i] * scale
    else:
        for i in range(n):
            a[off + i] = a[off + i] + arr[i]


def carry_whole(int npairs, const int64_t[::1] popped, const int64_t[::1] ending, const int64_t[::1] end,
                const int64_t[::1] first, const int64_t[::1] target, const int64_t[::1] shift,
                const double[::1] chance):
    """The pairs numbered 0..npairs-1 (0 the start, holding chance 1 at second 0) met in the order ``popped``:
    the k-th met ends the stage ``end[k]`` seconds later (``ending[k]`` not 0) or else adds its chances times
    ``chance[e]``, ``shift[e]`` seconds later, into pair ``target[e]`` for e in ``first[k]:first[k + 1]`` in that
    order. Returns (first second, chances) of the stage time (an empty array where nothing ends)."""
    cdef vector[vector[double]] mass
    cdef vector[int64_t] lo
    cdef vector[int] has
    cdef vector[double] out, here
    cdef int64_t out_lo = 0, h_lo
    cdef int out_has = 0
    cdef Py_ssize_t k, e, p, t
    mass.resize(npairs)
    lo.resize(npairs, 0)
    has.resize(npairs, 0)
    mass[0].push_back(1.0)
    has[0] = 1
    for k in range(popped.shape[0]):
        p = popped[k]
        here.swap(mass[p])                     # popped: its chances leave the store
        mass[p].clear()
        mass[p].shrink_to_fit()
        h_lo = lo[p]
        if ending[k]:
            _add(out, &out_lo, &out_has, h_lo + end[k], here.data(), <Py_ssize_t>here.size(), 1.0, False)
            continue
        for e in range(first[k], first[k + 1]):
            t = target[e]
            _add(mass[t], &lo[t], &has[t], h_lo + shift[e], here.data(), <Py_ssize_t>here.size(),
                 chance[e], True)
    arr = np.empty(out.size(), dtype=np.float64)
    cdef double[::1] view = arr
    for e in range(<Py_ssize_t>out.size()):
        view[e] = out[e]
    return out_lo, arr


cdef inline double _square(double x) noexcept:
    """``x ** 2`` as Python works it out for a float (float_pow: pow() of its size, the sign of an even power)."""
    return pow(-x, 2.0) if x < 0 else pow(x, 2.0)


def follow(sol, model, start, int bank):
    """:meth:`designer.racing.mdp.Solution.stats`'s walk of the policy from (``start``, ``bank``) and its second
    moment (``Solution._stats_numbered`` is its reference): the same pairs met in the same order, the same sums in
    the same order, kept in C arrays by the number of the pair. Returns (expected seconds, turns, expected losses,
    chance of no loss of control, second moment, the pairs by number, their occupancy by number, turn_seconds,
    turn_loss)."""
    cdef dict number = {(start, bank): 0}
    cdef list pairs = [(start, bank)]
    cdef vector[double] occ, clean, ahead_of, memo, value
    cdef vector[int64_t] order, target
    cdef vector[char] known
    cdef dict banks_of = {start: [bank]}, progress = {}, turn_seconds = {}, turn_loss = {}, ends = {}, rows = {}
    cdef dict cached = sol._outcomes, decisions = sol.decisions
    cdef double turns = 0.0, losses = 0.0, clean_end = 0.0, first = 0.0, p, pc, q, sec, ts, tl, here, ahead, total
    cdef Py_ssize_t n, i, e, j, count
    cdef tuple o
    heappush, heappop = heapq.heappush, heapq.heappop
    start_progress = model.progress(start)
    occ.push_back(1.0)
    clean.push_back(1.0)
    ahead_of.push_back(start_progress)
    heap = [(start_progress, 0, start, bank)]
    while heap:
        _, n_obj, s, b = heappop(heap)
        n = n_obj
        order.push_back(n)
        p = occ[n]
        pc = clean[n]
        term = ends[s] if s in ends else ends.setdefault(s, model.terminal(s))
        if term is not None:
            clean_end += pc
            first += p * <double>float(term[b])
            continue
        row = decisions.get(s)
        turns += p if getattr(row[b] if row is not None else sol.decision(s, b), "turn", True) else 0.0
        here_key = pairs[n]
        outs = cached.get(here_key)
        if outs is None:                     # every bank of s is known: all that leads to s is done
            sol._prefetch(s, banks_of[s])
            outs = sol.outcomes(s, b)
        here = ahead_of[n]
        ts = tl = 0.0
        count = 0
        for item in outs:
            o = <tuple>item
            if len(o) != 6:
                raise ValueError(f"an outcome of six fields expected, got {o!r}")
            q = o[0]
            sec = o[1]
            nxt = o[2]
            nb = o[3]
            ts += q * sec
            key = (nxt, nb)
            i_obj = number.get(key)
            if i_obj is None:
                ahead_obj = progress.get(nxt)
                if ahead_obj is None:
                    ahead_obj = progress[nxt] = model.progress(nxt)
                i = len(pairs)
                number[key] = i
                pairs.append(key)
                occ.push_back(0.0)
                clean.push_back(0.0)
                ahead_of.push_back(ahead_obj)
                banks_of.setdefault(nxt, []).append(nb)
                heappush(heap, (ahead_obj, i, nxt, nb))
            else:
                i = i_obj
            ahead = ahead_of[i]
            if ahead <= here and model.terminal(nxt) is None:
                raise ValueError(f"the turn model went backwards: {s} -> {nxt}")
            target.push_back(i)
            occ[i] += p * q
            if o[4]:
                tl += q
            else:
                clean[i] += pc * q
            count += 1
        if count:
            turn_seconds[here_key] = ts
            turn_loss[here_key] = tl
        else:                                # the sums of nothing: 0 (as sum() gives it)
            turn_seconds[here_key] = turn_loss[here_key] = 0
        losses += p * tl
        first += p * ts
    # the second moment, backwards along the order met (Solution._moment2_along)
    memo.resize(len(pairs), 0.0)
    value.resize(len(pairs), 0.0)
    known.resize(len(pairs), 0)
    vector_of = sol._vector
    e = <Py_ssize_t>target.size()
    for j in range(<Py_ssize_t>order.size() - 1, -1, -1):
        n = order[j]
        key = pairs[n]
        s = key[0]
        term = ends[s]
        if term is not None:
            memo[n] = _square(<double>float(term[key[1]]))
            continue
        outs = cached[key]
        e -= len(outs)
        total = 0.0
        i = e
        for item in outs:
            o = <tuple>item
            n2 = target[i]
            if not known[n2]:
                nxt = o[2]
                row = rows.get(nxt)
                if row is None:
                    row = rows[nxt] = vector_of(nxt).tolist()
                value[n2] = row[o[3]]
                known[n2] = 1
            q = o[0]
            sec = o[1]
            total += q * (_square(sec) + 2.0 * sec * value[n2] + memo[n2])
            i += 1
        memo[n] = total
    return first, turns, losses, 1.0 - clean_end, memo[0], pairs, list(occ), turn_seconds, turn_loss


cdef int64_t _whole(object seconds, bint* ok) except? -1:
    """mdp._whole: the whole seconds ``round(seconds)`` where within 1e-9 of ``seconds`` (``ok`` left as it is),
    else ``ok`` set to 0."""
    n = round(seconds)
    if abs(seconds - n) > 1e-9:
        ok[0] = 0
        return 0
    return n


cdef object _ints(vector[int64_t]& v):
    arr = np.empty(v.size(), dtype=np.int64)
    cdef int64_t[::1] view = arr
    cdef size_t i
    for i in range(v.size()):
        view[i] = v[i]
    return arr


def distribution_whole(sol, model, start, int bank):
    """:meth:`designer.racing.mdp.Solution._distribution_whole`: the pairs of the policy walked from (``start``,
    ``bank``) in order of progress (as ``Solution._walk`` meets them) and their chances carried by
    :func:`carry_whole`. Returns (first second, chances) of the stage time, or None where a turn's seconds or a
    finish are not whole seconds."""
    cdef dict index = {(start, bank): 0}
    cdef vector[int64_t] popped, ending, end, first, target, shift
    cdef vector[double] chance
    cdef bint ok = 1
    cdef Py_ssize_t i
    cdef tuple o
    heappush, heappop = heapq.heappush, heapq.heappop
    whole = {}                                   # seconds -> their whole seconds
    heap = [(model.progress(start), 0, start, bank)]
    first.push_back(0)
    while heap:
        _, n_obj, s, b = heappop(heap)
        popped.push_back(n_obj)
        term = model.terminal(s)
        if term is not None:
            ending.push_back(1)
            end.push_back(_whole(float(term[b]), &ok))
            first.push_back(target.size())
            continue
        ending.push_back(0)
        end.push_back(0)
        for item in sol.outcomes(s, b):
            o = <tuple>item
            if len(o) != 6:
                raise ValueError(f"an outcome of six fields expected, got {o!r}")
            nxt = o[2]
            nb = o[3]
            key = (nxt, nb)
            i_obj = index.get(key)
            if i_obj is None:
                i = len(index)
                index[key] = i
                heappush(heap, (model.progress(nxt), i, nxt, nb))
            else:
                i = i_obj
            sec = o[1]
            w = whole.get(sec)
            if w is None:
                w = whole[sec] = _whole(sec, &ok)
            target.push_back(i)
            shift.push_back(w)
            chance.push_back(o[0])
        first.push_back(target.size())
        if not ok:
            return None
    if not ok:
        return None
    chances = np.empty(chance.size(), dtype=np.float64)
    cdef double[::1] view = chances
    for i in range(<Py_ssize_t>chance.size()):
        view[i] = chance[i]
    return carry_whole(len(index), _ints(popped), _ints(ending), _ints(end), _ints(first), _ints(target),
                       _ints(shift), chances)
