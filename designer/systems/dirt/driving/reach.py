"""The reach of a turn: the ends of every legal turn from a turn boundary as one bit set, memoised on the points of
a turn, the part of :class:`~designer.systems.dirt.driving.rules.TurnEngine` the line search reads most.

A set is relative to the cell it is found from: bit ``((end cell - cell + margin) * 8 + gear) * 2 + finished``. Without
a risk budget a point of a turn is one int (:mod:`.dice_used`), and on a road whose links all go forward the walk runs
compiled where the extension is built (``_reach.pyx``: the same walk, the same sets); the Python walk here stays the
reference. :class:`Reach` reads the engine's tables (``die_options``, ``cell_moves``, ``risk``) and memos.
"""
from __future__ import annotations

from designer.systems.dirt.driving.dice_used import _BRAKE, _COUNTS, _M, _POINT, _USED, _reduced_mask

try:                       # the reach without a risk budget compiled (C++), built when the package is installed
    from designer.systems.dirt.driving._reach import FreeReach as COMPILED_REACH
except ImportError:        # pragma: no cover - no C++ compiler where it was installed: the Python walk below
    COMPILED_REACH = None

# the ends one byte of a reach set holds, low bit first: (gear within the byte's four, finished)
_BYTE_ENDS = [[(k >> 1, bool(k & 1)) for k in range(8) if b >> k & 1] for b in range(256)]
_KINDS = ("gear", "brake", "gas", "leader", "red-zone", "canon")      # the kinds of die option, as numbered in a key


class Reach:
    """The reach and the ends of turns, mixed into the turn engine (which sets the tables and memos read here)."""

    def reach(self, cell: int, gear: int) -> int:
        """The ends of every legal turn from a turn boundary, as a bit set (read it with :meth:`ends`).

        Memoised across turn boundaries on the points of a turn (cell, gear, dice used, jump dice): what
        a point can still reach does not depend on how the car got there. Without a risk budget the dice
        used are first reduced to what matters for the rest of the turn (gear dice above the current
        gear, past the first one used, can never be played; the jump dice and the canon mark only price
        a risk), and a point is one int. A point's set is stored relative to its own cell, so sets stay
        short however long the stage.
        """
        if self._compiled is not None:
            return self._compiled.reach(cell, gear)
        if self.max_risk is None:
            return self._reach_free(((cell << 3 | gear) << _POINT), self._memo)
        return self._reach((cell, gear, 0, ()), self._memo)

    def _reach(self, key, memo) -> int:
        """:meth:`reach` under a risk budget: points are (cell, gear, dice used, jump dice)."""
        hit = memo.get(key)
        if hit is not None:
            return hit
        c, g, used, jumps = key
        m = 0
        max_risk = self.max_risk + 1e-12
        for opt in self.die_options(g, used):
            nused = opt[1]
            for bit, dv, _vbase, _row, t, jd, v, ng in self._moves_from(c, g, opt):
                njumps = jumps if jd is None else tuple(sorted(jumps + (jd,)))
                if self.risk(nused, njumps) > max_risk:
                    continue
                m |= bit
                if not t:
                    ckey = (v, ng, nused, njumps)
                    child = memo.get(ckey)                  # most points are met again: no call for those
                    if child is None:
                        child = self._reach(ckey, memo)
                    m |= child << dv if dv >= 0 else child >> -dv
        memo[key] = m
        return m

    def _reach_free(self, key: int, memo) -> int:
        """:meth:`reach` without a risk budget: a point is the int ``(cell << 3 | gear) << 18 | dice used``.

        Read through two tables: per (gear, dice used) the die options, each with what it adds to the point
        of any cell it leads to (the dice used, reduced: a move that goes on is always in the option's gear);
        per (cell, gear, option) the bits of the ends it reaches and the cells where the turn goes on."""
        hit = memo.get(key)
        if hit is not None:
            return hit
        c, gu = key >> (_POINT + 3), key & ((8 << _POINT) - 1)
        free_opts = self._free_opts.get(gu)
        if free_opts is None:
            free_opts = self._free_options(gu)
        cell_free = self._cell_free
        rec = self._reach_free
        m = 0
        for okey, add, opt in free_opts:
            mv = cell_free.get(c << 9 | okey)
            if mv is None:
                mv = self._free_moves(c, okey, opt)
            m |= mv[0]
            for dv, vbase in mv[1]:
                ckey = vbase | add
                child = memo.get(ckey)                  # most points are met again: no call for those
                if child is None:
                    child = rec(ckey, memo)
                m |= child << dv if dv >= 0 else child >> -dv
        memo[key] = m
        return m

    def _leads_to(self, v: int, gear: int, used: int, target: tuple[int, int, bool]) -> bool:
        """Whether a turn that goes on from cell ``v`` in ``gear`` with ``used`` dice (no risk budget, a road whose
        links all go forward) can end at ``target``: the bit of the target in the point's reach."""
        counts, gears = used & _COUNTS, used & 63
        rkey = ((counts >> _BRAKE) & _M) << 9 | gear << 6 | gears
        red = self._reduced.get(rkey)
        if red is None:
            red = self._reduced[rkey] = _reduced_mask(self.rules, self.pool, (counts >> _BRAKE) & _M, gear, gears)
        point = (v << 3 | gear) << _POINT | counts | red
        bit = ((target[0] - v) * 8 + target[1]) * 2 + (1 if target[2] else 0)
        if self._compiled is not None:
            return self._compiled.leads(point, bit)
        m = self._memo.get(point)
        if m is None:
            m = self._reach_free(point, self._memo)
        return bool(m >> bit & 1)

    def _free_options(self, gu: int) -> list:
        """The die options from ``gear << 18 | dice used`` as :meth:`_reach_free` reads them: ``((gear, new gear,
        kind) packed in 9 bits, what the option adds to the point of the cell it leads to, the option)``."""
        g, used = gu >> _POINT, gu & _USED
        reduced = self._reduced
        out = []
        for opt in self.die_options(g, used):
            counts, gears = opt[1] & _COUNTS, opt[1] & 63
            ng, brakes = opt[0], (counts >> _BRAKE) & _M
            rkey = (brakes << 3 | ng) << 6 | gears
            red = reduced.get(rkey)
            if red is None:
                red = reduced[rkey] = _reduced_mask(self.rules, self.pool, brakes, ng, gears)
            okey = (g << 3 | ng) << 3 | _KINDS.index(opt[3])
            out.append((okey, counts | red, opt))
        self._free_opts[gu] = out
        return out

    def _free_moves(self, c: int, okey: int, opt: tuple) -> tuple:
        """One die option from a cell as :meth:`_reach_free` reads it: ``(the bits of every end it reaches, the
        moves that go on as (shift of the end's own set, the end's point without dice))``."""
        g, ng = okey >> 6, opt[0]
        bits = 0
        on = []
        margin = self.road.margin
        for v, mg, t, _step, _jd in self.cell_moves(c, g, opt):
            bits |= 1 << (((v - c + margin) * 8 + mg) * 2 + (t == 2))
            if not t:
                if mg != ng:                            # never: a move that goes on is in the option's gear
                    raise AssertionError("a move that goes on changed the option's gear")
                on.append(((v - c) * 16, (v << 3 | mg) << _POINT))
        hit = self._cell_free[c << 9 | okey] = (bits, tuple(on))
        return hit

    def _moves_from(self, c: int, g: int, opt) -> list:
        """:meth:`cell_moves` as the reach reads them: ``(end bit relative to c, shift of the end's own set, the
        end's point without dice, gear, terminal, jump die, cell, gear)``."""
        key = (c, g, opt[0], opt[3])
        hit = self._reach_moves.get(key)
        if hit is None:
            margin = self.road.margin
            hit = self._reach_moves[key] = [
                (1 << (((v - c + margin) * 8 + ng) * 2 + (t == 2)), (v - c) * 16, (v << 3 | ng) << _POINT,
                 ng, t, jd, v, ng)
                for v, ng, t, _step, jd in self.cell_moves(c, g, opt)]
        return hit

    def ends(self, cell: int, gear: int) -> list[tuple[int, int, bool]]:
        """Every distinct (end cell, gear, finished) of a legal turn from a turn boundary (cell, then gear, then
        not finished before finished)."""
        if self._compiled is not None:
            return self._compiled.ends(cell, gear)
        bitset = self.reach(cell, gear)
        rel = self._decoded.get(bitset)
        if rel is None:
            rel = []
            for j, byte in enumerate(bitset.to_bytes((bitset.bit_length() + 7) >> 3, "little")):
                if byte:                                # one byte: four gears of one cell, finished or not
                    d, g0 = j >> 1, (j & 1) << 2
                    rel.extend([(d, g0 + g, f) for g, f in _BYTE_ENDS[byte]])
            self._decoded[bitset] = rel
        base = cell - self.road.margin
        return [(base + d, g, f) for d, g, f in rel]

