# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""Where a failed Big Attack's dice can be laid again, compiled (C++): the same answer as
:func:`designer.systems.dirt.dice.relay.layings` followed by :func:`~designer.systems.dirt.dice.relay.failure_classes`
(that Python and numpy code stays the reference, used where this is not built), worked out in one pass.

The walk over the legal layings of the rolled dice keeps its points (cell, gear, dice used, jump dice, cuts
entered) as 64-bit integers in a hash set; the jump dice are a multiset packed in 15 bits (the gear dice as bits,
then 3-bit counts of gas, brake and leader dice). What the turn engine says (die options per gear and dice used,
cell moves per cell, gear and option) is asked of the Python engine once per engine and kept in C++ tables. Each
distinct step (dice before, jump dice before, dice after, jump die) is tested once against every way the dice
fell (:func:`~designer.systems.dirt.dice.relay._loses`), and each outcome's set of points where the loss can be
laid is a bit row; equal rows are one class, their chances added in the order of the outcomes.
"""
import numpy as np

from libc.stdint cimport int64_t, uint64_t
from libcpp cimport bool as cbool
from libcpp.pair cimport pair
from libcpp.vector cimport vector
from libcpp.algorithm cimport sort as cpp_sort

from designer.systems.dirt.dice._dice cimport BRAKE, GAS, LEADER, _pop6
from designer.systems.dirt.dice._flat_map cimport FlatMap, memcmp, row_hash

cdef int64_t CANON = 1 << 18
LAYOUT = (GAS, BRAKE, LEADER, 1 << 18)
MAX_CELLS = 1 << 20
# a jump die: the gear dice 1-6 as 0-5, then gas, brake and leader
cdef dict JUMP_CODE = {**{f"gear{k}": k - 1 for k in range(1, 7)}, "gas": 6, "brake": 7, "leader": 8}
cdef int SHIFTS[3]
SHIFTS[0], SHIFTS[1], SHIFTS[2] = GAS, BRAKE, LEADER


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil



cdef struct Opt:         # one die option from (gear, dice used)
    int64_t nused
    int ng, kind, obj

cdef struct Move:        # where an option takes the car from a cell
    int64_t v
    int ng, t, cut, jd


cdef inline int _jcount(int jumps, int i) noexcept nogil:
    """Jump dice of kind ``i`` (0 gas, 1 brake, 2 leader) in a packed multiset."""
    return (jumps >> (6 + 3 * i)) & 7


cdef inline int _with_jump(int jumps, int jd) noexcept nogil:
    if jd < 6:
        return jumps | (1 << jd)
    return jumps + (1 << (6 + 3 * (jd - 6)))


cdef inline bint _loses_at(int64_t used, int jumps, int64_t nused, int jd, const int* n, int64_t mask,
                           const int64_t* h, int limit, const int* a, const int* d, const int* nj) noexcept nogil:
    """relay._loses: whether a laying can lose control on this step, given how the rolled dice fell (``mask``:
    the gear dice showing a hazard, ``h``: hazards among the gas, brake and leader dice), with what does not
    depend on them worked out once per step: the dice of each kind used before the step (``a``), laid on it
    (``d``) and among the jump dice (``nj``); the step is not a canon start's gear 2 (no loss there)."""
    cdef int i, pre, post, room = 0, clean, x0, x1, hi
    cdef bint jump_ok
    if (used & CANON) and (mask & 2):
        return False
    if jumps & 63 & mask:
        return False
    pre = _pop6(used & mask & 63)
    post = _pop6(nused & mask & 63)
    jump_ok = 0 <= jd < 6 and (mask & (1 << jd)) != 0
    for i in range(3):
        hi = <int>h[i]
        clean = n[i] - hi
        if clean < nj[i]:
            return False
        x0 = a[i] - clean if a[i] - clean > 0 else 0
        x1 = a[i] - nj[i] if a[i] - nj[i] < hi else hi
        if x0 > x1:
            return False
        pre += x0
        post += x0 + d[i] if x0 + d[i] < hi else hi
        x1 = x1 if x1 < hi - d[i] else hi - d[i]
        room += x1 - x0 if x1 - x0 > 0 else 0
        if jd == 6 + i and hi - x0 >= 1:
            jump_ok = True
    if pre >= limit:
        return False
    if jump_ok:
        return True
    return post + (limit - 1 - pre if limit - 1 - pre < room else room) >= limit



cdef int64_t LOW32 = 0xffffffff     # the low 32 bits of a run (its length): a C constant, not a Python int

cdef class Outcomes:
    """The failing outcomes of one plan's dice (rows of ``outs``: gear hazard bits, hazards among the gas, brake
    and leader dice; their chances ``probs``), the dice rolled ``rolled`` and the hazard limit; and, kept as
    they are met, whether each step signature can lose control under each outcome (a bit per outcome)."""
    cdef vector[int64_t] outs
    cdef vector[double] probs
    cdef int64_t nouts, owords
    cdef int n[3]
    cdef int limit
    cdef FlatMap sig_at                                   # step signature -> its number (its words in bits)
    cdef vector[uint64_t] bits

    def __cinit__(self, const int64_t[:, :] outs, const double[:] probs, int64_t rolled, int limit):
        cdef Py_ssize_t r, i
        self.nouts = outs.shape[0]
        self.owords = (self.nouts + 63) // 64
        for r in range(self.nouts):
            for i in range(4):
                self.outs.push_back(outs[r, i])
            self.probs.push_back(probs[r])
        for i in range(3):
            self.n[i] = <int>((rolled >> SHIFTS[i]) & 7)
        self.limit = limit

    cdef int64_t _row(self, uint64_t key, int64_t used, int jumps, int64_t nused, int jd):
        """Where the bits of a step signature start in ``bits`` (worked out on first use)."""
        cdef cbool fresh
        cdef int64_t k = self.sig_at.insert(key, <int>self.sig_at.size(), &fresh), r
        cdef int64_t at = k * self.owords
        if not fresh:
            return at
        self.bits.resize(at + self.owords, 0)
        # what does not depend on how the dice fell, worked out once for the signature
        cdef int a[3]
        cdef int d[3]
        cdef int nj[3]
        cdef int i
        if (nused & CANON) != 0 and (used & CANON) == 0:
            return at                      # a canon start's gear 2 here: no loss under any outcome
        for i in range(3):
            a[i] = <int>((used >> SHIFTS[i]) & 7)
            d[i] = <int>((nused >> SHIFTS[i]) & 7) - a[i]
            nj[i] = _jcount(jumps, i)
        for r in range(self.nouts):
            if _loses_at(used, jumps, nused, jd, self.n, self.outs[4 * r], &self.outs[4 * r + 1], self.limit, a, d,
                         nj):
                self.bits[at + r // 64] |= (<uint64_t>1) << (r % 64)
        return at


cdef class Layer:
    """What one TurnEngine says about die options and cell moves, in C++ tables (the engine is passed to
    :meth:`classes`; these tables hold no reference to it)."""
    cdef FlatMap opt_at                              # (dice used, gear) -> first option << 32 | count
    cdef vector[Opt] opts
    cdef list opt_objs
    cdef FlatMap move_at                             # (cell, gear, option) -> first move << 32 | count
    cdef vector[Move] moves
    cdef list cut_flags
    cdef dict kinds
    # the buffers of :meth:`classes`, kept between calls (emptied at each)
    cdef FlatMap seen, sig_at, point_at, pairs, class_at
    cdef vector[uint64_t] todo, sig_keys, at_point, rows
    cdef vector[int64_t] sig_used, sig_nused, point_codes, sig_row
    cdef vector[int] sig_jumps, sig_jd, pair_sig, pair_point, where
    cdef vector[pair[int64_t, int]] order

    def __cinit__(self):
        self.opt_objs, self.kinds = [], {}

    cdef int _options(self, engine, int g, int64_t used, int* start) except -1:
        cdef uint64_t key = (<uint64_t>used << 3) | <uint64_t>g
        cdef int64_t hit = self.opt_at.find(key)
        cdef cbool fresh
        if hit >= 0:
            start[0] = <int>(hit >> 32)
            return <int>(hit & LOW32)
        cdef Opt o
        cdef int first = self.opts.size()
        options = engine.die_options(g, used)
        for opt in options:
            o.ng, o.nused = opt[0], opt[1]
            if o.nused >> 19 or not 0 <= o.ng < 8:
                raise ValueError(f"die option {opt!r} does not fit the compiled laying search")
            o.kind = self.kinds.setdefault(opt[3], len(self.kinds))
            o.obj = len(self.opt_objs)
            self.opt_objs.append(opt)
            self.opts.push_back(o)
        self.opt_at.insert(key, (<int64_t>first << 32) | len(options), &fresh)
        start[0] = first
        return len(options)

    cdef int _moves(self, engine, int64_t c, int g, int k, int* start) except -1:
        cdef Opt o = self.opts[k]
        cdef uint64_t key = ((<uint64_t>c * 8 + <uint64_t>g) * 8 + <uint64_t>o.ng) * 16 + <uint64_t>o.kind
        cdef int64_t hit = self.move_at.find(key)
        cdef cbool fresh
        if hit >= 0:
            start[0] = <int>(hit >> 32)
            return <int>(hit & LOW32)
        cdef Move m
        cdef int first = self.moves.size()
        found = engine.cell_moves(c, g, self.opt_objs[o.obj])
        for v, ng, t, step, jd in found:
            m.v, m.ng, m.t = v, ng, t
            if not 0 <= m.v < MAX_CELLS or not 0 <= m.ng < 8 or not 0 <= m.t < 4:
                raise ValueError(f"cell move {(v, ng, t)!r} does not fit the compiled laying search")
            path = step[1]
            m.cut = 1 if (self.cut_flags[path[0]] or self.cut_flags[path[len(path) - 1]]) else 0
            m.jd = -1 if jd is None else JUMP_CODE[jd]
            self.moves.push_back(m)
        self.move_at.insert(key, (<int64_t>first << 32) | len(found), &fresh)
        start[0] = first
        return len(found)

    def classes(self, engine, list cut, int64_t cell, int gear, int64_t rolled, Outcomes table):
        """The layings of the dice ``rolled`` (no canon mark) from (cell, gear) and the classes of failing
        outcomes of a plan (``table``): ``(codes, chances, members, starts, class of each
        outcome)``, ``codes`` the points' ``((cell * 8 + gear) * 2 + finished) * 16 + cuts`` in rising order,
        ``members`` the point indexes of every class one after the other. None when there is no laying or
        no failing outcome (the reference's empty answer)."""
        cdef int64_t c, used, key, nused, pcode, v
        cdef int g, jumps, cuts, nopt, ostart, nmov, mstart, k, j, njumps, ncuts, s, i, w
        cdef uint64_t state
        cdef Opt o
        cdef Move mv
        cdef int64_t gl, bl, ll, off
        cdef cbool fresh
        cdef int64_t nouts = table.nouts
        if not 0 <= cell < MAX_CELLS or not 0 <= gear < 8:
            raise ValueError(f"boundary {(cell, gear)!r} does not fit the compiled laying search")
        self.cut_flags = cut
        self.seen.clear()
        self.sig_at.clear()
        self.point_at.clear()
        self.pairs.clear()
        self.todo.clear()
        self.sig_keys.clear()
        self.sig_used.clear()
        self.sig_nused.clear()
        self.sig_jumps.clear()
        self.sig_jd.clear()
        self.point_codes.clear()
        self.pair_sig.clear()
        self.pair_point.clear()
        off = 63 & ~rolled
        gl, bl, ll = (rolled >> GAS) & 7, (rolled >> BRAKE) & 7, (rolled >> LEADER) & 7
        # a state of the walk: cell 20 bits, gear 3, dice used 19, jump dice 15, cuts 4
        state = ((((<uint64_t>cell << 3 | <uint64_t>gear) << 19) << 15) << 4)
        self.seen.insert(state, 0, &fresh)
        self.todo.push_back(state)
        while self.todo.size():
            state = self.todo.back()
            self.todo.pop_back()
            cuts = <int>(state & 15)
            jumps = <int>((state >> 4) & 0x7fff)
            used = <int64_t>((state >> 19) & 0x7ffff)
            g = <int>((state >> 38) & 7)
            c = <int64_t>(state >> 41)
            nopt = self._options(engine, g, used, &ostart)
            for k in range(nopt):
                o = self.opts[ostart + k]
                nused = o.nused
                if nused & off or ((nused >> GAS) & 7) > gl or ((nused >> BRAKE) & 7) > bl \
                        or ((nused >> LEADER) & 7) > ll:
                    continue
                nmov = self._moves(engine, c, g, ostart + k, &mstart)
                for j in range(nmov):
                    mv = self.moves[mstart + j]
                    ncuts = cuts + mv.cut if cuts + mv.cut < 15 else 15
                    # the step: its signature (dice before and after, jump dice before, jump die) and its point
                    key = ((((used << 19) | nused) << 15 | jumps) << 4) | (mv.jd + 1)
                    s = self.sig_at.insert(<uint64_t>key, <int>self.sig_used.size(), &fresh)
                    if fresh:
                        self.sig_keys.push_back(<uint64_t>key)
                        self.sig_used.push_back(used)
                        self.sig_nused.push_back(nused)
                        self.sig_jumps.push_back(jumps)
                        self.sig_jd.push_back(mv.jd)
                    pcode = ((mv.v * 8 + mv.ng) * 2 + (1 if mv.t == 2 else 0)) * 16 + ncuts
                    w = self.point_at.insert(<uint64_t>pcode, <int>self.point_codes.size(), &fresh)
                    if fresh:
                        self.point_codes.push_back(pcode)
                    self.pairs.insert((<uint64_t>s << 32) | <uint64_t>w, 0, &fresh)
                    if fresh:
                        self.pair_sig.push_back(s)
                        self.pair_point.push_back(w)
                    if mv.t:
                        continue
                    njumps = jumps if mv.jd < 0 else _with_jump(jumps, mv.jd)
                    state = (((((<uint64_t>mv.v << 3 | <uint64_t>mv.ng) << 19 | <uint64_t>nused) << 15)
                              | <uint64_t>njumps) << 4) | <uint64_t>ncuts
                    self.seen.insert(state, 0, &fresh)
                    if fresh:
                        self.todo.push_back(state)
        if self.pair_sig.size() == 0 or nouts == 0:
            return None
        # the points in rising order of their code (the reference sorts them as tuples: the same order)
        cdef int npts = self.point_codes.size()
        self.order.clear()
        for i in range(npts):
            self.order.push_back(pair[int64_t, int](self.point_codes[i], i))
        cpp_sort(self.order.begin(), self.order.end())
        self.where.resize(npts)
        for i in range(npts):
            self.where[self.order[i].second] = i
        # each signature against every outcome (a bit per outcome), each point the outcomes some step there
        # loses control in, then each outcome's row of points
        cdef int nsig = self.sig_used.size(), words = (npts + 63) // 64
        cdef int64_t owords = table.owords
        self.sig_row.resize(nsig)
        self.at_point.assign(npts * owords, 0)
        cdef int64_t r, x
        cdef uint64_t bits
        for s in range(nsig):
            self.sig_row[s] = table._row(self.sig_keys[s], self.sig_used[s], self.sig_jumps[s], self.sig_nused[s],
                                         self.sig_jd[s])
        cdef const uint64_t* tbits = table.bits.data()
        cdef uint64_t* ap = self.at_point.data()
        cdef size_t q
        for q in range(self.pair_sig.size()):
            s = self.pair_sig[q]
            w = self.where[self.pair_point[q]]
            for x in range(owords):
                ap[w * owords + x] |= tbits[self.sig_row[s] + x]
        self.rows.assign(nouts * words, 0)
        cdef uint64_t* rw = self.rows.data()
        for w in range(npts):
            for x in range(owords):
                bits = ap[w * owords + x]
                while bits:
                    r = x * 64 + __builtin_ctzll(bits)
                    bits &= bits - 1
                    rw[r * words + w // 64] |= (<uint64_t>1) << (w % 64)
        # equal rows are one class, numbered in the order of first appearance
        cdef vector[double] chance
        cdef vector[int64_t] first_row
        cdef uint64_t h
        which = np.empty(nouts, dtype=np.int64)
        cdef int64_t[:] wv = which
        self.class_at.clear()
        for r in range(nouts):
            h = row_hash(&rw[r * words], words, 0)
            while True:                     # a hash shared by different rows: the next hash of the row
                k = self.class_at.insert(h, <int>chance.size(), &fresh)
                if fresh or memcmp(&rw[r * words], &rw[first_row[k] * words], words * 8) == 0:
                    break
                h = row_hash(&rw[r * words], words, h)
            if fresh:
                chance.push_back(table.probs[r])
                first_row.push_back(r)
            else:
                chance[k] += table.probs[r]
            wv[r] = k
        cdef int ncls = chance.size()
        codes = np.empty(npts, dtype=np.int64)
        cdef int64_t[:] cv = codes
        for i in range(npts):
            cv[i] = self.order[i].first
        p_out = np.empty(ncls, dtype=np.float64)
        cdef double[:] pv = p_out
        starts = np.empty(ncls, dtype=np.int64)
        cdef int64_t[:] sv = starts
        cdef int64_t total = 0
        for k in range(ncls):
            r = first_row[k]
            for x in range(words):
                total += __builtin_popcountll(rw[r * words + x])
        mem = np.empty(total, dtype=np.int64)
        cdef int64_t[:] mv_ = mem
        total = 0
        for k in range(ncls):
            pv[k] = chance[k]
            sv[k] = total
            r = first_row[k]
            for x in range(words):
                bits = rw[r * words + x]
                while bits:
                    mv_[total] = x * 64 + __builtin_ctzll(bits)
                    total += 1
                    bits &= bits - 1
        return codes, p_out, mem, starts, which



cdef class PointSets:
    """Sets of points numbered once per model: a class of failures is known by the set of points where it can
    be laid (the points' codes in rising order, as :meth:`Layer.classes` gives them). The members of each set
    are kept as the model's numbers of their points."""
    cdef FlatMap ids                   # the hash of a set's codes -> its number
    cdef public int64_t count
    cdef vector[int64_t] codes         # the codes of every set's members, one set after the other
    cdef vector[int64_t] flat          # the model's numbers of the same
    cdef vector[int64_t] begin         # where each set's members start in both (and where the last ends)
    cdef vector[uint64_t] key

    def __cinit__(self):
        self.begin.push_back(0)

    def number(self, const int64_t[:] codes, const int64_t[:] members, const int64_t[:] starts,
               const int64_t[:] numbers):
        """The number of each class's set of points (``members`` of class k from ``starts[k]``, indexes in
        ``codes``; ``numbers``: the model's number of each point), and the classes whose set is new (numbered
        in order from ``count`` before the call; their members are kept)."""
        fresh_list = []
        return self._number(codes, members, starts, numbers, fresh_list), fresh_list

    def number_known(self, const int64_t[:] codes, const int64_t[:] members, const int64_t[:] starts,
                     const int64_t[:] lut):
        """:meth:`number` with each point's number read from ``lut`` (point code + 1 -> the model's number of the
        point, 0: none yet): ``(the number of each member's point, the number of each class's set)``; None, and
        nothing numbered, when some point has no number yet."""
        cdef Py_ssize_t n = codes.shape[0], i
        cdef int64_t c
        numbers = np.empty(n, dtype=np.int64)
        cdef int64_t[::1] nv = numbers
        for i in range(n):
            c = codes[i] + 1
            if not 0 < c < lut.shape[0] or lut[c] == 0:
                return None
            nv[i] = lut[c]
        for i in range(members.shape[0]):
            if not 0 <= members[i] < n:
                raise ValueError("PointSets.number_known: a member beyond the points")
        nums = np.empty(members.shape[0], dtype=np.int64)
        cdef int64_t[::1] mv = nums
        for i in range(members.shape[0]):
            mv[i] = nv[members[i]]
        return nums, self._number(codes, members, starts, numbers, None)

    cdef object _number(self, const int64_t[:] codes, const int64_t[:] members, const int64_t[:] starts,
                        const int64_t[:] numbers, list fresh_list):
        cdef Py_ssize_t ncls = starts.shape[0], k, i, a, b
        cdef int64_t s
        cdef uint64_t h
        cdef cbool fresh
        if numbers.shape[0] != codes.shape[0]:
            raise ValueError("PointSets.number: one number per point")
        for i in range(members.shape[0]):
            if not 0 <= members[i] < codes.shape[0]:
                raise ValueError("PointSets.number: a member beyond the points")
        out = np.empty(ncls, dtype=np.int64)
        cdef int64_t[:] ov = out
        for k in range(ncls):
            a = starts[k]
            b = starts[k + 1] if k + 1 < ncls else members.shape[0]
            if not 0 <= a <= b <= members.shape[0]:
                raise ValueError("PointSets.number: classes out of order")
            self.key.clear()
            for i in range(a, b):
                self.key.push_back(<uint64_t>codes[members[i]])
            h = row_hash(self.key.data(), b - a, 0)
            while True:                     # a hash shared by different sets: the next hash of the set
                s = self.ids.insert(h, <int>self.count, &fresh)
                if fresh or (self.begin[s + 1] - self.begin[s] == b - a and (
                        a == b or memcmp(self.key.data(), &self.codes[self.begin[s]], (b - a) * 8) == 0)):
                    break
                h = row_hash(self.key.data(), b - a, h)
            if fresh:
                self.count += 1
                if fresh_list is not None:
                    fresh_list.append(k)
                for i in range(a, b):
                    self.codes.push_back(codes[members[i]])
                    self.flat.push_back(numbers[members[i]])
                self.begin.push_back(self.flat.size())
            ov[k] = s
        return out

    def members_of(self, const int64_t[:] sets):
        """The members of some sets one after the other (the model's numbers of their points), and the number
        of members of each set."""
        cdef Py_ssize_t n = sets.shape[0], k, size = 0, at = 0
        cdef int64_t s, i
        for k in range(n):
            s = sets[k]
            if not 0 <= s < self.count:
                raise ValueError("PointSets.members_of: no such set")
            size += self.begin[s + 1] - self.begin[s]
        out = np.empty(size, dtype=np.int64)
        sizes = np.empty(n, dtype=np.int64)
        cdef int64_t[::1] ov = out
        cdef int64_t[::1] zv = sizes
        for k in range(n):
            s = sets[k]
            zv[k] = self.begin[s + 1] - self.begin[s]
            for i in range(self.begin[s], self.begin[s + 1]):
                ov[at] = self.flat[i]
                at += 1
        return out, sizes

    def set_mins(self, const int64_t[:] sets, const double[:, :, ::1] table, double[:, ::1] out):
        """``out[k] = the least table[member, 1]`` (loss values per tokens) over the members of set ``sets[k]``,
        the table worked out for all of them. A set with no member leaves its row as it is."""
        cdef Py_ssize_t n = sets.shape[0], k
        cdef int64_t s, i, m
        cdef int t, T1 = table.shape[2]
        cdef double v
        if out.shape[1] != T1 or out.shape[0] < n:
            raise ValueError("PointSets.set_mins: tables of other shapes")
        for k in range(n):
            s = sets[k]
            if not 0 <= s < self.count:
                raise ValueError("PointSets.set_mins: no such set")
            for i in range(self.begin[s], self.begin[s + 1]):
                if not 0 <= self.flat[i] < table.shape[0]:
                    raise ValueError("PointSets.set_mins: a point beyond the table")
        cdef const int64_t* fl = self.flat.data()
        cdef double* dst
        cdef const double* src
        cdef int64_t a, b
        for k in range(n):
            s = sets[k]
            a = self.begin[s]
            b = self.begin[s + 1]
            if a == b:
                continue
            dst = &out[k, 0]
            src = &table[fl[a], 1, 0]
            for t in range(T1):             # the first member, then each later one where strictly less
                dst[t] = src[t]
            for i in range(a + 1, b):
                src = &table[fl[i], 1, 0]
                for t in range(T1):
                    v = src[t]
                    if v < dst[t]:
                        dst[t] = v
