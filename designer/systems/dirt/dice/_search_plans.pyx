# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""The work on the candidates of a plan search, compiled (C++; part of the compiled plan search of
:mod:`._search`): their order, the Pareto choice of a pool's plans, their step rows and gains, the numbers of
their points. The same choices and numbers as the numpy code of :mod:`designer.systems.dirt.dice.plan_search` and
:class:`designer.systems.dirt.dice.plans.PointNumbers`, which stays the reference. Beside them, the sums of the
values of the points of those plans under a damage (:func:`point_sums`, for
:func:`designer.systems.dirt.dice.point_values.fill`; its numpy sums are the reference).
"""
import numpy as np

from libc.math cimport INFINITY, rint
from libc.stdint cimport int64_t
from libcpp.vector cimport vector

from designer.systems.dirt.dice._dice cimport BRAKE, GAS, LEADER, RZ, _pop6

_EMPTY, _INT64 = np.empty, np.dtype(np.int64)


cdef extern from *:
    """
    #include <algorithm>
    #include <cstdint>
    #include <vector>
    struct SortKey { int64_t group; double rr; int64_t dice; int64_t idx; };
    struct SortKeyLess {
        bool operator()(const SortKey& a, const SortKey& b) const {
            if (a.group != b.group) return a.group < b.group;
            if (a.rr != b.rr) return a.rr < b.rr;
            if (a.dice != b.dice) return a.dice < b.dice;
            return a.idx < b.idx;
        }
    };
    static void sort_keys(std::vector<SortKey>& v) { std::sort(v.begin(), v.end(), SortKeyLess()); }
    static void sort_unique(std::vector<int64_t>& v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
    }
    """
    cdef struct SortKey:
        int64_t group
        double rr
        int64_t dice
        int64_t idx
    void sort_keys(vector[SortKey]& v)
    void sort_unique(vector[int64_t]& v)




def order(const int64_t[:] end, const double[:] risk, const int64_t[:] dice, const int64_t[:] used):
    """(dice needed [candidate, gear/gas/brake/leader], end codes sorted, the sorting order): by end code,
    risk rounded to 13 decimals as numpy rounds (times 1e13, to the nearest even, divided back), dice, then
    number (plan_search.arrays)."""
    cdef Py_ssize_t n = end.shape[0], i
    cdef vector[SortKey] keys
    keys.resize(n)
    for i in range(n):
        keys[i].group, keys[i].rr, keys[i].dice, keys[i].idx = end[i], rint(risk[i] * 1e13) / 1e13, dice[i], i
    sort_keys(keys)
    need = np.empty((n, 4), dtype=np.int64)
    srt = np.empty(n, dtype=np.int64)
    grp = np.empty(n, dtype=np.int64)
    cdef int64_t[:, :] nd = need
    cdef int64_t[:] so = srt, sg = grp
    cdef int64_t u
    for i in range(n):
        so[i], sg[i] = keys[i].idx, keys[i].group
        u = used[i]
        nd[i, 0] = _pop6(u) + ((u >> RZ) & 7)
        nd[i, 1], nd[i, 2], nd[i, 3] = (u >> GAS) & 7, (u >> BRAKE) & 7, (u >> LEADER) & 7
    return need, grp, srt


cdef vector[int64_t] _pareto(const int64_t[:] order, const int64_t[:] group, const double[:] risk,
                             const int64_t[:, :] need, pool, int shift, bint frontier) except *:
    cdef Py_ssize_t n = order.shape[0], i
    cdef int64_t lim[4]
    cdef bint fit = pool is not None
    if fit:
        for i in range(4):
            lim[i] = pool[i]
    cdef vector[int64_t] win, ends, out
    cdef vector[double] wr
    cdef int64_t o, prev = 0
    cdef bint any_ = False
    for i in range(n):
        o = order[i]
        if fit and (need[o, 0] > lim[0] or need[o, 1] > lim[1] or need[o, 2] > lim[2] or need[o, 3] > lim[3]):
            continue
        if not any_ or group[i] != prev:
            win.push_back(o)
            wr.push_back(risk[o])
            ends.push_back(group[i] >> shift)
        prev, any_ = group[i], True
    _keep(win, ends, wr, frontier, out)
    return out


cdef void _keep(vector[int64_t]& win, vector[int64_t]& ends, vector[double]& risk, bint frontier,
                vector[int64_t]& out) noexcept:
    """At each end (a run of equal ``ends``), from the top group down, the first plans of the groups (``win``, of
    risks ``risk``) appended to ``out``: with ``frontier`` one only when less risky than every one above it by
    more than 1e-15, else every one."""
    cdef Py_ssize_t a = 0, b, k, n = win.size()
    cdef double low, r
    while a < n:
        b = a
        while b + 1 < n and ends[b + 1] == ends[a]:
            b += 1
        low = INFINITY
        for k in range(b, a - 1, -1):
            r = risk[k]
            if not frontier or r < low - 1e-15:
                out.push_back(win[k])
            if r < low:
                low = r
        a = b + 1


def pareto(const int64_t[:] order, const int64_t[:] group, const double[:] risk, const int64_t[:, :] need, pool,
           int shift=6, bint frontier=True):
    """The candidates kept (plan_search.pareto_index): the first of each group in ``order`` (of those fitting
    ``pool``, a (gear, gas, brake, leader) tuple or None; a group code is its end's << ``shift``); at each end,
    from the top group down, with ``frontier`` one only when less risky than every one above it by more than
    1e-15, else every one; by end, then group from the top."""
    cdef vector[int64_t] out = _pareto(order, group, risk, need, pool, shift, frontier)
    res = np.empty(out.size(), dtype=np.int64)
    cdef int64_t[:] rv = res
    cdef Py_ssize_t i
    for i in range(<Py_ssize_t>out.size()):
        rv[i] = out[i]
    return res


cdef class Choice:
    """What the Pareto choice of a search's plans reads, for any pool of dice (plan_search.chosen): the candidates
    in the sorting order of :func:`order` with their group codes, risks and dice needed side by side (one pass in
    memory order per pool), and each candidate's step rows, length, Big Attack gain and dice needed. The same
    choice as :func:`pareto` and the same arrays as the numpy code of ``plan_search.chosen``."""
    cdef vector[int64_t] cand, group, need4
    cdef vector[double] risk
    cdef const int64_t[:, :] store
    cdef const int64_t[:, :] need
    cdef const int64_t[:] depth
    cdef const int64_t[:] gains
    cdef int shift
    cdef bint frontier

    def __init__(self, const int64_t[:] order, const int64_t[:] group, const double[:] risk,
                 const int64_t[:, :] need, const int64_t[:, :] store, const int64_t[:] depth,
                 const int64_t[:] gains, int shift=6, bint frontier=True):
        cdef Py_ssize_t n = order.shape[0], i, k
        cdef int64_t o
        self.cand.resize(n)
        self.group.resize(n)
        self.risk.resize(n)
        self.need4.resize(4 * n)
        for i in range(n):
            o = order[i]
            self.cand[i], self.group[i], self.risk[i] = o, group[i], risk[o]
            for k in range(4):
                self.need4[4 * i + k] = need[o, k]
        self.need, self.store, self.depth, self.gains = need, store, depth, gains
        self.shift, self.frontier = shift, frontier

    def plans(self, pool, bint with_need=True):
        """The plans of ``pool`` (a (gear, gas, brake, leader) tuple of dice, or None: no limit): the candidates
        kept (as :func:`pareto` keeps them), their step rows [plan, 1 + step] up to the longest of them (2
        columns at most when there is none), lengths, gains and dice needed (None unless ``with_need``)."""
        cdef Py_ssize_t n = self.cand.size(), i, col, w
        cdef int64_t l0 = 0, l1 = 0, l2 = 0, l3 = 0, prev = 0
        cdef bint fit = pool is not None, any_ = False
        if fit:
            l0, l1, l2, l3 = pool
        cdef vector[int64_t] win, ends, out
        cdef vector[double] wr
        cdef const int64_t* nd = self.need4.data()
        for i in range(n):
            if fit and (nd[4 * i] > l0 or nd[4 * i + 1] > l1 or nd[4 * i + 2] > l2 or nd[4 * i + 3] > l3):
                continue
            if not any_ or self.group[i] != prev:
                win.push_back(self.cand[i])
                wr.push_back(self.risk[i])
                ends.push_back(self.group[i] >> self.shift)
            prev, any_ = self.group[i], True
        _keep(win, ends, wr, self.frontier, out)
        cdef Py_ssize_t m = out.size()
        cdef int64_t top = 1
        if m:
            top = 0
            for i in range(m):
                if self.depth[out[i]] > top:
                    top = self.depth[out[i]]
        w = min(top + 1, self.store.shape[1])
        # one block for the five arrays (one allocation; each array a contiguous view of its part)
        cdef Py_ssize_t at = (7 if with_need else 3) * m      # where the step rows start
        block = _EMPTY(at + m * w, _INT64)
        cdef int64_t[:] bv = block
        cdef int64_t c
        for i in range(m):
            c = out[i]
            bv[i], bv[m + i], bv[2 * m + i] = c, self.depth[c], self.gains[c]
            if with_need:
                for col in range(4):
                    bv[3 * m + 4 * i + col] = self.need[c, col]
            for col in range(w):
                bv[at + w * i + col] = self.store[c, col]
        return (block[:m], block[at:].reshape(m, w), block[m:2 * m], block[2 * m:3 * m],
                block[3 * m:7 * m].reshape(m, 4) if with_need else None)


def take(const int64_t[:, :] a, const int64_t[:] rows, Py_ssize_t width):
    """``a[rows, :width]``."""
    cdef Py_ssize_t n = rows.shape[0], i, col
    out = np.empty((n, width), dtype=np.int64)
    cdef int64_t[:, :] o = out
    for i in range(n):
        for col in range(width):
            o[i, col] = a[rows[i], col]
    return out


def step_store(const int64_t[:] parent, const int64_t[:] depth, const int64_t[:] sid, const int64_t[:, :] ints):
    """The StepTable rows of every candidate's steps [candidate, 1 + step] (each its parent's and its own
    step) and the Big Attack gain of each (the sum of its steps' gains, column 5 of ``ints``)."""
    cdef Py_ssize_t n = parent.shape[0], i, col
    cdef int64_t top = 0, p, g
    for i in range(n):
        if depth[i] > top:
            top = depth[i]
    store = np.zeros((n, top + 1), dtype=np.int64)
    gains = np.empty(n, dtype=np.int64)
    cdef int64_t[:, :] st = store
    cdef int64_t[:] gv = gains
    for i in range(n):
        p = parent[i]
        g = 0
        if p >= 0:
            for col in range(depth[p] + 1):
                st[i, col] = st[p, col]
            g = gv[p]
        st[i, depth[i]] = sid[i]
        gv[i] = g + ints[sid[i], 5]
    return store, gains


def number_points(const int64_t[:, :] store, const int64_t[:] depth, const int64_t[:, :] ints, int64_t[:] lut,
                  fresh):
    """The number of the point where each step of every candidate ends (PointNumbers: cell, gear, finished,
    cuts so far up to 15; 0 off the plan), [candidate, 1 + step]. Codes not numbered yet are handed to
    ``fresh(code)`` in increasing order (it numbers them and writes ``lut``)."""
    cdef Py_ssize_t n = store.shape[0], w = store.shape[1], i, col
    every = np.empty((n, w), dtype=np.int64)
    cdef int64_t[:, :] ev = every
    cdef int64_t row, cuts, code
    cdef vector[int64_t] new
    for i in range(n):
        cuts = 0
        for col in range(w):
            row = store[i, col]
            cuts += ints[row, 4]
            code = 0
            if 1 <= col <= depth[i]:
                code = ((ints[row, 0] * 8 + ints[row, 1]) * 2 + ints[row, 2]) * 16 + (cuts if cuts < 15 else 15) + 1
                if lut[code] == 0:
                    new.push_back(code)
            ev[i, col] = code
    if new.size():
        sort_unique(new)
        for i in range(<Py_ssize_t>new.size()):
            fresh(new[i])
    for i in range(n):
        for col in range(w):
            ev[i, col] = lut[ev[i, col]]
    return every


def distinct(const int64_t[:, :] every, const int64_t[:] cand, Py_ssize_t width, Py_ssize_t count):
    """The distinct nonzero numbers of ``every[cand, :width]`` (all below ``count``), in increasing order, as a
    list."""
    cdef vector[char] mark
    mark.resize(count)
    cdef vector[int64_t] found
    cdef Py_ssize_t i, col
    cdef int64_t x
    for i in range(cand.shape[0]):
        for col in range(width):
            x = every[cand[i], col]
            if x > 0 and not mark[x]:
                mark[x] = 1
                found.push_back(x)
    sort_unique(found)
    return found


def point_sums(double[:, :, :] arr, const int64_t[:] todo, const double[:] chances, const double[:] secs,
               const int64_t[:] rows, const int64_t[:] where, const double[:, :] values, int64_t places):
    """The values of the points numbered ``todo`` written into ``arr[todo, stop/loss]`` (point_values.fill): the
    expected value of each list of outcomes (list ``2 i`` the stop of point ``todo[i]``, ``2 i + 1`` its loss of
    control), its terms chance * (seconds + value of the next state, row ``rows[k]`` of ``values``) added in
    order from 0, as the padded numpy sums of point_values._sums add them (``where[k]``: list * ``places`` + 1 +
    place; the outcomes list by list, each list's in order)."""
    cdef Py_ssize_t n = chances.shape[0], T1 = values.shape[1], k, t, i
    cdef int64_t lst, cur = -1
    cdef double c, s
    for i in range(todo.shape[0]):
        for t in range(T1):
            arr[todo[i], 0, t] = 0.0
            arr[todo[i], 1, t] = 0.0
    for k in range(n):
        lst = where[k] // places
        if lst < cur or lst >= 2 * todo.shape[0]:
            raise ValueError("outcomes out of the order of their lists")
        cur = lst
        c, s = chances[k], secs[k]
        for t in range(T1):
            arr[todo[lst >> 1], lst & 1, t] = arr[todo[lst >> 1], lst & 1, t] + c * (s + values[rows[k], t])
