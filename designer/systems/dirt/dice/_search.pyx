# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""The plan search of a DIRT turn boundary, compiled (C++): the same walk as
:func:`designer.systems.dirt.dice.plan_search._search_py`, over the same points in the same order (that Python code
stays the reference, used where this is not built).

What changes is the representation. A point of a turn (cell, gear, dice used, jump dice, terminal) is one
64-bit integer; the jump dice (a sorted tuple of die labels) are numbered once per engine. The seen points and
the groups of expanded points of the dominance test live in flat C++ hash maps. What the turn engine says (die
options per gear and dice used, cell moves per cell, gear and option, the risk per dice used and jump dice) is
asked of the Python engine once per engine and kept here in C++ tables keyed by small integers; each step the
engine hands out gets a number, mapped once to its StepTable row. The candidates come out as numpy arrays.
The work on those arrays (sorting, the Pareto choice, step rows, point numbers) is in :mod:`._search_plans`,
imported here so that this module is the whole compiled plan search.

Under the reading ``as_laid`` a point also carries its failure profile (see ``search_plans``), numbered as the
reference numbers it: a step where the risk grows is a (point code, risk) pair numbered once per search (the
point's cell left out of the code unless the cells are asked for), a
profile one more such step after a profile; the point itself then gets a number, and what the search has seen
is that number beside the profile's.
"""
import numpy as np

from cython.operator cimport dereference as deref
from libc.stdint cimport int64_t, uint64_t
from libc.string cimport memcpy
from libcpp.pair cimport pair
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector

from designer.systems.dirt.dice._dice cimport BRAKE, GAS, LEADER, RZ, _pop6

from designer.systems.dirt.dice._search_plans import (Choice, distinct, number_points, order, pareto,  # noqa: F401
                                                 point_sums, step_store, take)
from designer.systems.dirt.driving.rules import _sub


cdef extern from *:
    """
    #include <algorithm>
    #include <cstdint>
    #include <vector>
    // A hash map from 64-bit keys to 64-bit values, open addressing with linear probing. A slot holds a key
    // only when its generation is the map's: clear() starts a new generation and touches no memory.
    struct FlatMap {
        std::vector<uint64_t> keys;
        std::vector<int64_t> vals;
        std::vector<uint32_t> gens;
        uint32_t gen = 1;
        size_t mask = 1023, count = 0;
        FlatMap() : keys(1024), vals(1024), gens(1024, 0) {}
        static inline size_t mix(uint64_t k) {
            k ^= k >> 31; k *= 0x7fb5d329728ea185ULL; k ^= k >> 27; k *= 0x81dadef4bc2dd44dULL; k ^= k >> 33;
            return (size_t)k;
        }
        void clear() {
            count = 0;
            if (++gen == 0) { std::fill(gens.begin(), gens.end(), 0u); gen = 1; }
        }
        bool get(uint64_t k, int64_t* v) const {
            size_t i = mix(k) & mask;
            while (gens[i] == gen) {
                if (keys[i] == k) { *v = vals[i]; return true; }
                i = (i + 1) & mask;
            }
            return false;
        }
        // adds k -> v unless k is there; true when added, else *v is set to the value there
        bool add(uint64_t k, int64_t* v) {
            if ((count + 1) * 2 > mask + 1) grow();
            size_t i = mix(k) & mask;
            while (gens[i] == gen) {
                if (keys[i] == k) { *v = vals[i]; return false; }
                i = (i + 1) & mask;
            }
            gens[i] = gen; keys[i] = k; vals[i] = *v; ++count;
            return true;
        }
        void grow() {
            std::vector<uint64_t> ok(keys.size() * 2);
            std::vector<int64_t> ov(keys.size() * 2);
            std::vector<uint32_t> og(keys.size() * 2, 0);
            size_t m = ok.size() - 1;
            for (size_t j = 0; j < keys.size(); ++j) {
                if (gens[j] != gen) continue;
                size_t i = mix(keys[j]) & m;
                while (og[i] == gen) i = (i + 1) & m;
                og[i] = gen; ok[i] = keys[j]; ov[i] = vals[j];
            }
            keys.swap(ok); vals.swap(ov); gens.swap(og); mask = m;
        }
    };
    """
    cdef cppclass FlatMap:
        size_t count
        FlatMap()
        void clear()
        bint get(uint64_t k, int64_t* v)
        bint add(uint64_t k, int64_t* v)


# the packing of the dice used (rules.py): gear dice in bits 0-5, then 3-bit counts, then the canon-start flag
cdef enum:
    USED_BITS = 19
    LEVELS = 28          # dice in a turn: 0..27 (the buckets of the search; rules._MAX_DICE + 1)
    PROFILE_SHIFT = 28   # PROFILE_BITS as a C constant (shifts in C, not on Python integers)
cdef int64_t LOW32 = 0xffffffff     # the low 32 bits of a run (its length)
cdef int64_t CANON = 1 << 18
LAYOUT = (GAS, BRAKE, LEADER, RZ, 1 << 18, LEVELS - 1)
MAX_CELLS = 1 << 20      # a point packs its cell in 20 bits
PROFILE_BITS = PROFILE_SHIFT    # as_laid: the failure profiles of one search are numbered below 1 << 28


cdef struct Opt:         # one die option from (gear, dice used)
    int64_t nused
    int ng, kind, nlevel, ngain, obj

cdef struct Move:        # where an option takes the car from a cell
    int64_t v
    int ng, t, code, jd, cut

cdef struct Cand:        # a point of the turn reached (a candidate)
    int64_t cell, used, parent, end, prof
    double risk
    int gear, jid, t, gain, depth, level, code, cuts


cdef inline int _ndice(int64_t used) noexcept nogil:
    return _pop6(used) + <int>((used >> GAS) & 7) + <int>((used >> BRAKE) & 7) + <int>((used >> LEADER) & 7)


cdef inline int _gain(int64_t used) noexcept nogil:
    return _pop6(used) + <int>((used >> GAS) & 7) + <int>((used >> LEADER) & 7)


cdef inline uint64_t _point(int64_t cell, int gear, int64_t used, int jid, int t, int cuts) noexcept nogil:
    """One point of a turn as 64 bits: cell 20, gear 3, dice used 19, jump dice 16, terminal 2, cuts entered 4."""
    return ((((((<uint64_t>cell << 3) | <uint64_t>gear) << USED_BITS | <uint64_t>used) << 16
              | <uint64_t>jid) << 2 | <uint64_t>t) << 4) | <uint64_t>cuts


cdef inline int _run(int64_t hit, int* start) noexcept:
    """A run of a table kept in one integer (its first entry << 32 | its length): the length, the first at
    ``start``."""
    start[0] = <int>(hit >> 32)
    return <int>(hit & LOW32)


cdef inline int64_t _as_run(int first, int count) noexcept:
    return (<int64_t>first << 32) | count


cdef class Tables:
    """What one TurnEngine says, kept in C++ tables, and the scratch space of its searches. The engine itself is
    passed to :meth:`search` (these tables hold no reference to it)."""
    cdef FlatMap opt_at                                      # (dice used, gear) -> first option << 32 | count
    cdef vector[Opt] opts
    cdef list opt_objs
    cdef FlatMap move_at                                     # (cell, gear, new gear, kind) -> first << 32 | count
    cdef vector[Move] moves
    cdef public list step_objs                               # step number -> the engine's step object
    cdef dict kinds, labels, jump_ids, row_maps
    cdef list label_names
    cdef public list jumps                                   # jump-dice number -> the sorted tuple of labels
    cdef unordered_map[uint64_t, int] jump_next              # (jump dice, label) -> jump dice with it added
    cdef FlatMap risk_at                                     # (dice used, jump dice) -> index in risk_list
    cdef vector[double] risk_list
    cdef unordered_map[uint64_t, char] subs                  # (jump dice a, b) -> a is a sub-multiset of b
    cdef FlatMap seen                                        # the points of the turn met in this search
    cdef FlatMap group_at                                    # (cell, gear, canon, gain, cuts) -> group number
    cdef list cut_flags                                      # per cell: a step entering it enters a cut
    cdef vector[vector[pair[int64_t, int]]] groups
    cdef vector[Cand] cands
    cdef vector[vector[int64_t]] buckets
    # as_laid only, per search: risk (its bits) -> number; (point code, risk number) -> step number;
    # (profile, step number) -> profile; point -> number
    cdef FlatMap risk_no, event_no, prof_no, point_no

    def __cinit__(self):
        self.opt_objs, self.step_objs, self.label_names = [], [], []
        self.kinds, self.labels, self.row_maps = {}, {}, {}
        self.jump_ids, self.jumps = {(): 0}, [()]
        self.buckets.resize(LEVELS)

    cdef int _options(self, engine, int g, int64_t used, int* start) except -1:
        """The die options from gear ``g`` with ``used`` dice: their count (the first at ``start``)."""
        cdef uint64_t key = (<uint64_t>used << 3) | <uint64_t>g
        cdef int64_t hit
        if self.opt_at.get(key, &hit):
            return _run(hit, start)
        cdef Opt o
        cdef int first = self.opts.size()
        options = engine.die_options(g, used)
        for opt in options:
            o.ng, o.nused = opt[0], opt[1]
            if o.nused >> USED_BITS or not 0 <= o.ng < 8:
                raise ValueError(f"die option {opt!r} does not fit the compiled plan search")
            kind = self.kinds.get(opt[3])
            if kind is None:
                kind = self.kinds[opt[3]] = len(self.kinds)
                if kind >= 8:
                    raise ValueError("more than 8 kinds of die option")
            o.kind = kind
            o.nlevel, o.ngain, o.obj = _ndice(o.nused), _gain(o.nused), len(self.opt_objs)
            self.opt_objs.append(opt)
            self.opts.push_back(o)
        hit = _as_run(first, len(options))
        self.opt_at.add(key, &hit)
        start[0] = first
        return len(options)

    cdef int _moves(self, engine, int64_t c, int g, int k, int* start) except -1:
        """Where option number ``k`` takes the car from cell ``c`` in gear ``g``: the count of moves."""
        cdef Opt o = self.opts[k]
        cdef uint64_t key = ((<uint64_t>c * 8 + <uint64_t>g) * 8 + <uint64_t>o.ng) * 8 + <uint64_t>o.kind
        cdef int64_t hit
        if self.move_at.get(key, &hit):
            return _run(hit, start)
        cdef Move m
        cdef int first = self.moves.size()
        found = engine.cell_moves(c, g, self.opt_objs[o.obj])
        for v, ng, t, step, jd in found:
            m.v, m.ng, m.t = v, ng, t
            if not 0 <= m.v < MAX_CELLS or not 0 <= m.ng < 8 or not 0 <= m.t < 4:
                raise ValueError(f"cell move {(v, ng, t)!r} does not fit the compiled plan search")
            m.code = len(self.step_objs)
            self.step_objs.append(step)
            path = step[1]
            m.cut = 1 if (self.cut_flags[path[0]] or self.cut_flags[path[len(path) - 1]]) else 0   # no wraparound here
            if jd is None:
                m.jd = -1
            else:
                label = self.labels.get(jd)
                if label is None:
                    label = self.labels[jd] = len(self.label_names)
                    self.label_names.append(jd)
                m.jd = label
            self.moves.push_back(m)
        hit = _as_run(first, len(found))
        self.move_at.add(key, &hit)
        start[0] = first
        return len(found)

    cdef int _jump(self, int jid, int label) except -1:
        """The jump dice ``jid`` with one more die ``label`` (sorted, as a number)."""
        cdef uint64_t key = (<uint64_t>jid << 16) | <uint64_t>label
        cdef unordered_map[uint64_t, int].iterator it = self.jump_next.find(key)
        if it != self.jump_next.end():
            return deref(it).second
        both = tuple(sorted(self.jumps[jid] + (self.label_names[label],)))
        j = self.jump_ids.get(both)
        if j is None:
            j = self.jump_ids[both] = len(self.jumps)
            if j >= 1 << 16:
                raise ValueError("too many distinct jump dice for the compiled plan search")
            self.jumps.append(both)
        self.jump_next[key] = j
        return j

    cdef double _risk(self, engine, int64_t used, int jid) except? -1.0:
        cdef uint64_t key = (<uint64_t>used << 16) | <uint64_t>jid
        cdef int64_t at
        if self.risk_at.get(key, &at):
            return self.risk_list[at]
        cdef double r = engine.risk(used, self.jumps[jid])
        at = self.risk_list.size()
        self.risk_list.push_back(r)
        self.risk_at.add(key, &at)
        return r

    cdef bint _sub(self, int small, int big) except -1:
        cdef uint64_t key = (<uint64_t>small << 32) | <uint64_t>big
        cdef unordered_map[uint64_t, char].iterator it = self.subs.find(key)
        if it != self.subs.end():
            return deref(it).second
        cdef char r = 1 if _sub(self.jumps[small], self.jumps[big]) else 0
        self.subs[key] = r
        return r

    cdef bint _dominated(self, int64_t used, int jid, int group) except -1:
        """rules._dominated: whether an expanded point of the group used no die that ``used`` did not (and
        no more jump dice)."""
        cdef size_t k
        cdef int64_t u1
        cdef int j1
        for k in range(self.groups[group].size()):
            u1 = self.groups[group][k].first
            j1 = self.groups[group][k].second
            if u1 & 63 & ~used:
                continue
            if ((u1 >> GAS) & 7) > ((used >> GAS) & 7) or ((u1 >> BRAKE) & 7) > ((used >> BRAKE) & 7):
                continue
            if ((u1 >> LEADER) & 7) > ((used >> LEADER) & 7) or ((u1 >> RZ) & 7) > ((used >> RZ) & 7):
                continue
            if j1 != 0 and not self._sub(j1, jid):
                continue
            return True
        return False

    cdef int64_t _profile(self, int64_t prof, int64_t point, double r) except -1:
        """The failure profile ``prof`` with one more step (a point code and its risk), numbered when new."""
        cdef uint64_t bits
        memcpy(&bits, &r, 8)
        cdef int64_t val = self.risk_no.count
        self.risk_no.add(bits, &val)
        cdef int64_t rid = val
        if rid >= (1 << 28) or point >= (1 << 36):
            raise ValueError("a failure profile step that does not fit the compiled plan search")
        val = self.event_no.count
        self.event_no.add((<uint64_t>point << 28) | <uint64_t>rid, &val)
        cdef int64_t ev = val
        val = self.prof_no.count + 1
        self.prof_no.add((<uint64_t>prof << 32) | <uint64_t>ev, &val)
        if val >= (<int64_t>1 << PROFILE_SHIFT):
            raise ValueError("more failure profiles than the compiled plan search numbers")
        return val

    def search(self, engine, int64_t cell, int gear, int laid=0):
        """The candidates of the plan search from (cell, gear): ``(ints, risk)``, ``ints`` rows: end-and-gain
        code, dice, parent, depth, dice used, step number, cell, gear, jump dice, terminal, failure profile
        (``laid``: 0, not the reading ``as_laid``, all profiles 0; 1, as laid; 2, as laid with the cells in the
        profiles)."""
        cdef int level, g, t, jid, gain, depth, k, j, nopt, nmov, ostart, mstart, njid, ngroups = 0, grp, cuts, ncuts
        cdef int64_t idx, c, used, prof, nprof
        cdef double rk, rp
        cdef uint64_t pkey
        cdef size_t i
        cdef uint64_t gkey
        cdef Opt o
        cdef Move mv
        cdef Cand nc
        cdef int64_t val
        if not 0 <= cell < MAX_CELLS or not 0 <= gear < 8:
            raise ValueError(f"boundary {(cell, gear)!r} does not fit the compiled plan search")
        if self.cut_flags is None:
            road = engine.road
            self.cut_flags = [road.graph.nodes[name].get("cut") is not None for name in road.nodes]
        self.seen.clear()
        self.group_at.clear()
        self.cands.clear()
        for level in range(LEVELS):
            self.buckets[level].clear()
        val = 0
        if laid:
            self.risk_no.clear()
            self.event_no.clear()
            self.prof_no.clear()
            self.point_no.clear()
            self.point_no.add(_point(cell, gear, 0, 0, 0, 0), &val)
        self.seen.add(0 if laid else _point(cell, gear, 0, 0, 0, 0), &val)   # as_laid: point 0, profile 0
        self.buckets[0].push_back(-1)
        for level in range(LEVELS):
            i = 0
            while i < self.buckets[level].size():
                idx = self.buckets[level][i]
                i += 1
                if idx < 0:
                    c, g, used, jid, t, gain, depth, cuts, prof, rp = cell, gear, 0, 0, 0, 0, 0, 0, 0, 0.0
                else:
                    c, g, used = self.cands[idx].cell, self.cands[idx].gear, self.cands[idx].used
                    jid, t, gain, depth = self.cands[idx].jid, self.cands[idx].t, self.cands[idx].gain, \
                        self.cands[idx].depth
                    cuts, prof, rp = self.cands[idx].cuts, self.cands[idx].prof, self.cands[idx].risk
                if t:
                    continue
                if level:
                    gkey = (((<uint64_t>c * 8 + <uint64_t>g) * 2 + (1 if used & CANON else 0)) * 64
                            + <uint64_t>gain) * 16 + <uint64_t>cuts
                    if laid:                                 # 34 bits, then the profile's 28
                        gkey = (gkey << PROFILE_SHIFT) | <uint64_t>prof
                    val = ngroups
                    if self.group_at.add(gkey, &val):
                        grp = ngroups
                        ngroups += 1
                        if <size_t>grp < self.groups.size():
                            self.groups[grp].clear()
                        else:
                            self.groups.push_back(vector[pair[int64_t, int]]())
                    else:
                        grp = <int>val
                        if self.groups[grp].size() and self._dominated(used, jid, grp):
                            continue
                    self.groups[grp].push_back(pair[int64_t, int](used, jid))
                nopt = self._options(engine, g, used, &ostart)
                for k in range(nopt):
                    o = self.opts[ostart + k]
                    if o.nlevel >= LEVELS:
                        raise IndexError(f"a turn of {o.nlevel} dice: more than the plan search handles")
                    nmov = self._moves(engine, c, g, ostart + k, &mstart)
                    for j in range(nmov):
                        mv = self.moves[mstart + j]
                        njid = jid if mv.jd < 0 else self._jump(jid, mv.jd)
                        ncuts = cuts + mv.cut if cuts + mv.cut < 15 else 15
                        val = 0
                        nprof = 0
                        if laid:                             # the profile, with this step when the risk grows
                            rk = self._risk(engine, o.nused, njid)
                            nprof = prof
                            if rk != rp:
                                nprof = self._profile(prof, ((((mv.v << 3) if laid == 2 else 0) + mv.ng) * 2
                                                             + (1 if mv.t == 2 else 0)) * 16 + ncuts, rk)
                            pkey = _point(mv.v, mv.ng, o.nused, njid, mv.t, ncuts)
                            val = self.point_no.count
                            self.point_no.add(pkey, &val)
                            pkey = (<uint64_t>val << 32) | <uint64_t>nprof
                            val = 0
                            if not self.seen.add(pkey, &val):
                                continue
                        elif not self.seen.add(_point(mv.v, mv.ng, o.nused, njid, mv.t, ncuts), &val):
                            continue
                        nc.cell, nc.gear, nc.used, nc.jid, nc.t, nc.cuts = mv.v, mv.ng, o.nused, njid, mv.t, ncuts
                        nc.prof = nprof
                        nc.end = (((((mv.v << 3) + mv.ng) * 2 + (1 if mv.t == 2 else 0)) * 16 + ncuts) * 64
                                  + o.ngain)
                        nc.risk = self._risk(engine, o.nused, njid)
                        nc.parent, nc.depth, nc.level, nc.gain, nc.code = idx, depth + 1, o.nlevel, o.ngain, mv.code
                        self.buckets[o.nlevel].push_back(self.cands.size())
                        self.cands.push_back(nc)
        cdef Py_ssize_t n = self.cands.size(), r
        ints = np.empty((11, n), dtype=np.int64)
        risk = np.empty(n)
        cdef int64_t[:, :] iv = ints
        cdef double[:] rv = risk
        for r in range(n):
            nc = self.cands[r]
            iv[0, r], iv[1, r], iv[2, r], iv[3, r], iv[4, r] = nc.end, nc.level, nc.parent, nc.depth, nc.used
            iv[5, r], iv[6, r], iv[7, r], iv[8, r], iv[9, r] = nc.code, nc.cell, nc.gear, nc.jid, nc.t
            iv[10, r] = nc.prof
            rv[r] = nc.risk
        return ints, risk

    def rows(self, table, const int64_t[:] code):
        """The StepTable row of each step number of ``code``; each step is given to ``table.id`` the first time
        its number appears (so the table numbers new rows in the order of the candidates)."""
        hit = self.row_maps.get(id(table))
        if hit is None or hit[0] is not table:
            hit = self.row_maps[id(table)] = [table, np.full(64, -1, dtype=np.int64)]
        if len(hit[1]) < len(self.step_objs):
            hit[1] = np.concatenate([hit[1], np.full(len(self.step_objs) + 64 - len(hit[1]), -1, dtype=np.int64)])
        cdef int64_t[:] known = hit[1]
        cdef Py_ssize_t n = code.shape[0], i
        out = np.empty(n, dtype=np.int64)
        cdef int64_t[:] o = out
        cdef int64_t row
        for i in range(n):
            row = known[code[i]]
            if row < 0:
                row = table.id(self.step_objs[code[i]])
                known[code[i]] = row
            o[i] = row
        return out
