# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""The reach of a turn without a risk budget, compiled (C++): the same walk as
:meth:`designer.systems.dirt.driving.reach.Reach._reach_free` (that Python code stays the reference, used where
this module is not built, on roads whose links go backwards and under a risk budget), with the same answers.

What changes is the representation. The points of a turn (``(cell << 3 | gear) << 18 | dice used``) and what each
reaches are kept in flat C++ tables instead of Python dicts and ints: a point's set of turn ends is a run of 64-bit
words in one arena, relative to the point's own cell (bit ``((cell - c) * 8 + gear) * 2 + finished``), so a child's
set is or-ed in at a shift of 16 bits per cell. The die options are made by the Python engine
(:meth:`~designer.systems.dirt.driving.reach.Reach._free_options`), once per entry, and copied here; the cell moves
are read from the road's tables here (``Reach._free_moves``, through ``TurnEngine.cell_moves``, is their reference).
Only for roads whose links all go forward (``Road.margin == 0``): every shift is then forward.
"""
from libc.stdint cimport int64_t, uint64_t
from libcpp.vector cimport vector


cdef extern from *:
    """
    #include <cstdint>
    #include <vector>
    // A hash map from 64-bit keys to 64-bit values: open addressing, linear probing; a key is stored plus one, so
    // that 0 marks an empty slot (a point of cell 0 in gear 0 with no die used is the key 0).
    struct ReachMap {
        std::vector<uint64_t> keys;
        std::vector<int64_t> vals;
        size_t mask = 1023, count = 0;
        ReachMap() : keys(1024, 0), vals(1024, 0) {}
        static inline size_t mix(uint64_t k) {
            k ^= k >> 31; k *= 0x7fb5d329728ea185ULL; k ^= k >> 27; k *= 0x81dadef4bc2dd44dULL; k ^= k >> 33;
            return (size_t)k;
        }
        bool get(uint64_t k, int64_t* v) const {
            uint64_t s = k + 1;
            size_t i = mix(s) & mask;
            while (keys[i]) {
                if (keys[i] == s) { *v = vals[i]; return true; }
                i = (i + 1) & mask;
            }
            return false;
        }
        void put(uint64_t k, int64_t v) {
            if ((count + 1) * 2 > mask + 1) grow();
            uint64_t s = k + 1;
            size_t i = mix(s) & mask;
            while (keys[i] && keys[i] != s) i = (i + 1) & mask;
            if (!keys[i]) count++;
            keys[i] = s; vals[i] = v;
        }
        void grow() {
            std::vector<uint64_t> ok = keys; std::vector<int64_t> ov = vals;
            size_t n = (mask + 1) * 2;
            keys.assign(n, 0); vals.assign(n, 0); mask = n - 1; count = 0;
            for (size_t i = 0; i < ok.size(); i++) if (ok[i]) put(ok[i] - 1, ov[i]);
        }
    };
    // or the words src[0..n) shifted left by `shift` bits into acc (grown as needed)
    static inline void or_shifted(std::vector<uint64_t>& acc, const uint64_t* src, size_t n, uint64_t shift) {
        if (n == 0) return;
        size_t q = shift >> 6; unsigned r = shift & 63;
        size_t need = q + n + (r ? 1 : 0);
        if (acc.size() < need) acc.resize(need, 0);
        if (r == 0) {
            for (size_t i = 0; i < n; i++) acc[q + i] |= src[i];
        } else {
            for (size_t i = 0; i < n; i++) {
                acc[q + i] |= src[i] << r;
                acc[q + i + 1] |= src[i] >> (64 - r);
            }
        }
    }
    """
    cdef cppclass ReachMap:
        ReachMap()
        bint get(uint64_t k, int64_t* v)
        void put(uint64_t k, int64_t v)
    void or_shifted(vector[uint64_t]& acc, const uint64_t* src, size_t n, uint64_t shift)


cdef extern from *:
    int __builtin_ctzll(unsigned long long)


cdef int POINT = 18
# the kinds of die option as numbered in an option key (rules._KINDS)
cdef int GEAR = 0, BRAKE = 1, GAS = 2, LEADER = 3, RED_ZONE = 4, CANON = 5
cdef uint64_t GU_MASK = (8 << 18) - 1
cdef int64_t LOW32 = ((<int64_t>1) << 32) - 1      # the count in a run: offset << 32 | count


cdef class FreeReach:
    """The reach of one turn engine (its road, rules and dashboard column), kept for every point met."""
    cdef object engine
    cdef ReachMap memo           # point -> its set: arena offset << 32 | words
    cdef ReachMap opts           # gear << 18 | dice used -> first option << 32 | options
    cdef ReachMap moves          # cell << 9 | option key -> move record
    cdef vector[uint64_t] arena  # the sets (points' and the moves' ends), word runs
    cdef vector[uint64_t] opt_key, opt_add
    cdef list opt_obj            # the Python option of each entry (to make its cell moves)
    cdef vector[int64_t] mv_bits, mv_on      # per move record: its ends in the arena, its moves that go on
    cdef vector[uint64_t] on_shift, on_base
    # the road (see designer.systems.dirt.driving.road.Road): per cell its limit, flags, and its successors and the
    # cells a jump from it flies to as runs of one list
    cdef vector[int] limit, jump, succ_at, succ, fly_at, fly
    cdef vector[char] ford, finish
    cdef bint gas_jumps             # the rules' jump_gas_counts_gear

    def __cinit__(self, engine):
        road = engine.road
        if road.margin != 0:
            raise ValueError("the compiled reach reads only roads whose links all go forward")
        self.engine = engine
        self.opt_obj = []
        self.gas_jumps = bool(engine.rules.jump_gas_counts_gear)
        for i in range(len(road.nodes)):
            self.limit.push_back(road.limit[i])
            self.jump.push_back(road.jump[i])
            self.ford.push_back(road.ford[i])
            self.finish.push_back(road.finish[i])
            self.succ_at.push_back(self.succ.size())
            for v in road.succ[i]:
                self.succ.push_back(v)
            self.fly_at.push_back(self.fly.size())
            for v in road.fly[i]:
                self.fly.push_back(v)
        self.succ_at.push_back(self.succ.size())
        self.fly_at.push_back(self.fly.size())

    cdef int64_t _store(self, vector[uint64_t]& words):
        cdef size_t n = words.size()
        while n and words[n - 1] == 0:
            n -= 1
        cdef int64_t off = self.arena.size()
        cdef size_t i
        for i in range(n):
            self.arena.push_back(words[i])
        return off << 32 | <int64_t>n

    cdef int64_t _options(self, uint64_t gu) except -1:
        cdef int64_t hit
        if self.opts.get(gu, &hit):
            return hit
        cdef int64_t first = self.opt_key.size()
        cdef int64_t count = 0
        for okey, add, opt in self.engine._free_options(gu):
            self.opt_key.push_back(okey)
            self.opt_add.push_back(add)
            self.opt_obj.append(opt)
            count += 1
        hit = first << 32 | count
        self.opts.put(gu, hit)
        return hit

    cdef void _end(self, vector[uint64_t]& bits, int c, int v, int gear, int term):
        """One end of a die option from ``c``: its bit, and where the turn goes on (``term`` 0) its move."""
        cdef int bit = ((v - c) * 8 + gear) * 2 + (1 if term == 2 else 0)
        if bits.size() <= <size_t>(bit >> 6):
            bits.resize((bit >> 6) + 1, 0)
        bits[bit >> 6] |= (<uint64_t>1) << (bit & 63)
        if term == 0:
            self.on_shift.push_back((v - c) * 16)
            self.on_base.push_back((<uint64_t>v << 3 | <uint64_t>gear) << POINT)

    cdef void _land(self, vector[uint64_t]& bits, int c, int g, int ng, int kind, bint ford_ok, int land,
                    bint over_finish):
        """Where a jump lands (the rules of :meth:`TurnEngine.cell_moves` for a landing cell)."""
        if over_finish:
            self._end(bits, c, land, ng, 2)
        elif ng > self.limit[land]:
            return
        elif self.finish[land]:
            self._end(bits, c, land, ng, 2)
        elif self.ford[land] and not ford_ok:
            if kind != BRAKE and kind != CANON and g <= self.limit[land]:
                self._end(bits, c, land, g, 1)
        else:
            self._end(bits, c, land, ng, 0)

    cdef int64_t _moves(self, uint64_t c, int64_t k) except -1:
        """The ends and the moves that go on of option ``k`` from cell ``c``: :meth:`TurnEngine._free_moves` read
        from the road's tables here (that method, through :meth:`TurnEngine.cell_moves`, is the reference)."""
        cdef uint64_t okey = self.opt_key[k]
        cdef uint64_t mkey = c << 9 | okey
        cdef int64_t hit
        if self.moves.get(mkey, &hit):
            return hit
        cdef int g = okey >> 6, ng = (okey >> 3) & 7, kind = okey & 7
        cdef bint gas_like = kind == GAS or kind == LEADER or kind == RED_ZONE
        cdef bint ford_ok = gas_like or (kind == GEAR and ng == 1)
        cdef int value = ng if (not gas_like or self.gas_jumps) else 0
        cdef int first = self.on_shift.size()
        cdef int i, v, jv, a, b, x, y
        cdef vector[uint64_t] bits
        for i in range(self.succ_at[c], self.succ_at[c + 1]):
            v = self.succ[i]
            if ng > self.limit[v]:
                continue                                   # entering above the limit: loss of control
            if self.finish[v]:
                self._end(bits, c, v, ng, 2)
                continue
            jv = self.jump[v]
            if jv and value >= jv:
                if value >= jv + 2:
                    continue                               # two or more above: loss of control on landing
                for a in range(self.fly_at[v], self.fly_at[v + 1]):
                    x = self.fly[a]
                    if value == jv + 1:                    # a long jump: one cell further
                        for b in range(self.fly_at[x], self.fly_at[x + 1]):
                            y = self.fly[b]
                            self._land(bits, c, g, ng, kind, ford_ok, y, self.finish[x])
                    else:
                        self._land(bits, c, g, ng, kind, ford_ok, x, False)
                continue
            if self.ford[v] and not ford_ok:
                if kind != BRAKE and kind != CANON and g <= self.limit[v]:
                    self._end(bits, c, v, g, 1)
                continue
            self._end(bits, c, v, ng, 0)
        hit = self.mv_bits.size()
        self.mv_bits.push_back(self._store(bits))
        self.mv_on.push_back(<int64_t>first << 32 | <int64_t>(self.on_shift.size() - first))
        self.moves.put(mkey, hit)
        return hit

    cdef int64_t _reach(self, uint64_t key) except -1:
        cdef int64_t hit
        if self.memo.get(key, &hit):
            return hit
        cdef uint64_t c = key >> (POINT + 3)
        cdef int64_t span = self._options(key & GU_MASK)
        cdef int64_t k, first = span >> 32, last = (span >> 32) + (span & LOW32)
        cdef int64_t m, bits, on, j, jlast, child
        cdef uint64_t add
        cdef vector[uint64_t] acc
        for k in range(first, last):
            m = self._moves(c, k)
            add = self.opt_add[k]
            bits = self.mv_bits[m]
            or_shifted(acc, self.arena.data() + (bits >> 32), bits & LOW32, 0)
            on = self.mv_on[m]
            jlast = (on >> 32) + (on & LOW32)
            for j in range(on >> 32, jlast):
                child = self._reach(self.on_base[j] | add)
                # the arena may have grown (and moved) in the call: read it afresh
                or_shifted(acc, self.arena.data() + (child >> 32), child & LOW32, self.on_shift[j])
        hit = self._store(acc)
        self.memo.put(key, hit)
        return hit

    cdef int64_t _top(self, int cell, int gear) except -1:
        return self._reach((<uint64_t>cell << 3 | <uint64_t>gear) << POINT)

    def leads(self, uint64_t point, int bit):
        """Whether the reach of ``point`` (a point of a turn, dice used reduced) holds ``bit``."""
        cdef int64_t span = self._reach(point)
        if <int64_t>(bit >> 6) >= (span & LOW32):
            return False
        return bool(self.arena[(span >> 32) + (bit >> 6)] >> (bit & 63) & 1)

    def reach(self, int cell, int gear):
        """The ends of every legal turn from (cell, gear) as :meth:`TurnEngine.reach` gives them (an int)."""
        cdef int64_t span = self._top(cell, gear)
        cdef int64_t i, off = span >> 32, n = span & LOW32
        out = 0
        for i in range(n - 1, -1, -1):
            out = (out << 64) | self.arena[off + i]
        return out

    def ends(self, int cell, int gear):
        """Every distinct (end cell, gear, finished) of a legal turn from (cell, gear), in the order of
        :meth:`TurnEngine.ends` (cell, then gear, then not finished before finished)."""
        cdef int64_t span = self._top(cell, gear)
        cdef int64_t i, off = span >> 32, n = span & LOW32
        cdef uint64_t w
        cdef int b, bit
        out = []
        for i in range(n):
            w = self.arena[off + i]
            while w:
                b = __builtin_ctzll(w)
                w &= w - 1
                bit = <int>(i * 64 + b)
                out.append((cell + (bit >> 4), (bit >> 1) & 7, (bit & 1) == 1))
        return out

