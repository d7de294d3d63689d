"""Rallyman: DIRT rules: the legal moves of one turn (the ruleset data is in :mod:`.ruleset`).

A turn (rulebook p. 8-14) is a sequence of dice, each moving the car one cell forward along the
cell graph built by :mod:`designer.systems.dirt.board.track`:

- a black gear die ``gearK`` moves to gear K, which must be the previous gear, one above or one below;
- a white gas die (or the orange leader die) keeps the gear, never from gear 0;
- one to three red brake dice played together with a gear die drop 2 to 4 gears in one cell,
  one brake die per skipped gear, never below gear 1;
- each die once per turn; the gear entering a cell must not exceed the cell's limit (a cut's own
  limit), jumps, fords and the finish line change the move as the rulebook says.

The planner never plans a loss of control: a move that would cause one is not a legal move here.
Hazard faces are not rolled (a shakedown run); a turn carries the chance that rolling it as planned
ends in a loss of control. Decisions on what the rulebook leaves open: ``docs/rules-notes.md``.

>>> from designer.systems.dirt.board.stage import load_stage
>>> from designer.systems.dirt.board.track import load_track
>>> graph = load_track(load_stage("stages/dirt/rally-1/ss1.yaml")).graph
>>> start = next(n for n, d in graph.nodes(data=True) if d.get("start"))
>>> all(t.cells for t in legal_turns(graph, start, 0))
True
"""
from __future__ import annotations

from typing import Iterator

import networkx as nx

from designer.core.errors import DesignerError
from designer.systems.dirt.driving.road import Road, Step, Turn, road_of  # noqa: F401  (part of this interface)
from designer.systems.dirt.driving.dice_used import (  # noqa: F401  (the packing, read by the referee and the search)
    _GAS, _BRAKE, _LEADER, _RZ, _CANON, _M, _MAX_DICE, _count, _ndice, _POP, _canon_above, _CANON_ABOVE, _POINT,
    _USED, _COUNTS, _playable, _REDUCTIONS, _reduction, _dominated, _sub, _reduction_key, _reduced_mask)
from designer.systems.dirt.driving.ruleset import (DIE_KINDS, RULES_FILE, STATUSES, Options, Pool,  # noqa: F401
                                                   Ruleset, load_ruleset, rules_path)


# A die option: (new gear, new used, dice labels, kind)
#   kind: "gear" | "brake" | "gas" | "leader" | "red-zone" | "canon"


class TurnEngine:
    """Generates the legal moves of turns on one road under one ruleset and one dashboard column.

    ``max_risk`` drops every partial turn whose chance of a loss of control already exceeds it (the
    chance only grows with more dice, so the pruning is exact).
    """

    def __init__(self, road: Road, rules: Ruleset, pool: Pool, max_risk: float | None = None):
        self.road = road
        self.rules = rules
        self.pool = pool
        self.max_risk = max_risk
        # the dice options depend on the rules and the pool only: shared by every engine (stages, candidates)
        self._opts: dict[tuple[int, int], list] = _OPTIONS.setdefault((rules.key, pool), {})
        self._risk: dict[tuple[int, tuple], float] = {}
        self._cell_cache: dict[tuple, list] = {}
        self._memo: dict[tuple, int] = {}
        self._reach_moves: dict[tuple, list] = {}
        self._free_opts: dict[int, list] = {}         # gear << 18 | dice used -> the options as the reach reads them
        self._cell_free: dict[int, tuple] = {}        # cell << 9 | option -> (end bits, the moves that go on)
        # the reduced dice used, computed as met: (brakes used << 9 | gear << 6 | gear dice used) -> gear dice
        self._reduced: dict[int, int] = _REDUCED.setdefault(_reduction_key(rules, pool), {})
        self._decoded: dict[int, list] = {}
        self.plan_options: dict[tuple, list] = {}      # kept by the expected-time plan search (plans.py)
        self.top = rules.top_gear

    # -- dice ------------------------------------------------------------------------------
    def die_options(self, gear: int, used: int) -> list:
        key = (gear, used)
        hit = self._opts.get(key)
        if hit is not None:
            return hit
        rules, pool = self.rules, self.pool
        out = []
        gear_used = bin(used & 63).count("1") + _count(used, _RZ)
        gear_left = gear_used < pool.gear
        if gear == 0:
            if gear_left and not used & 1:
                out.append((1, used | 1, ("gear1",), "gear"))
            if rules.options.canon_start and gear_left and not used & 2 and len(rules.gears) >= 2:
                out.append((2, used | 2 | _CANON, ("gear2",), "canon"))
        else:
            if gear_left:
                for k in (gear + 1, gear, gear - 1):
                    if 1 <= k <= self.top and not used & (1 << (k - 1)):
                        out.append((k, used | (1 << (k - 1)), (f"gear{k}",), "gear"))
                brakes = _count(used, _BRAKE)
                for b in range(1, min(rules.max_brake_skip, pool.brake - brakes) + 1):
                    k = gear - 1 - b
                    if k < 1:
                        break
                    if not used & (1 << (k - 1)):
                        out.append((k, (used | (1 << (k - 1))) + (b << _BRAKE),
                                    (f"gear{k}",) + ("brake",) * b, "brake"))
                if rules.options.red_zone and gear == self.top and _count(used, _BRAKE) < pool.brake:
                    out.append((gear, used + (1 << _BRAKE) + (1 << _RZ), ("brake",), "red-zone"))
            if _count(used, _GAS) < pool.gas:
                out.append((gear, used + (1 << _GAS), ("gas",), "gas"))
            if _count(used, _LEADER) < pool.leader:
                out.append((gear, used + (1 << _LEADER), ("leader",), "leader"))
        self._opts[key] = out
        return out

    def dice_of(self, used: int) -> list[str]:
        dice = [f"gear{k}" for k in range(1, 7) if used & (1 << (k - 1))]
        dice += ["gas"] * _count(used, _GAS) + ["brake"] * _count(used, _BRAKE)
        dice += ["leader"] * _count(used, _LEADER)
        return dice

    def risk(self, used: int, jumps: tuple) -> float:
        key = (used, jumps)
        r = self._risk.get(key)
        if r is None:
            dice = self.dice_of(used)
            for j in jumps:
                dice.remove(j)
            canon = bool(used & _CANON)
            if canon:
                dice.remove("gear2")
            r = self.rules.loss_chance(dice, jumps, canon)
            self._risk[key] = r
        return r

    # -- cells -----------------------------------------------------------------------------
    def cell_moves(self, cell: int, gear: int, opt) -> list:
        """Where one die option takes the car from ``cell`` in ``gear``.

        A list of ``(cell, gear, terminal, step, jump die)``: terminal 0 the turn may go on, 1 stopped
        in a ford, 2 finished; ``step`` is ``(dice, cells, gear, events)``; the jump die is the die whose
        hazard is a loss of control (a jump one gear above its value), else None.
        """
        key = (cell, gear, opt[0], opt[3])
        hit = self._cell_cache.get(key)
        if hit is not None:
            return hit
        ng, dice, kind = opt[0], opt[2], opt[3]
        road, rules = self.road, self.rules
        gas_like = kind in ("gas", "leader", "red-zone")
        ford_ok = gas_like or (kind == "gear" and ng == 1)
        pre = (kind,) if kind in ("canon", "red-zone") else ()
        raw = []
        for v in road.succ[cell]:
            if ng > road.limit[v]:
                continue                                   # entering above the limit: loss of control
            if road.finish[v]:
                raw.append((v, ng, 2, (v,), ("finish",), None))
                continue
            jv = road.jump[v]
            value = ng if (not gas_like or rules.jump_gas_counts_gear) else 0
            if jv and value >= jv:
                if value >= jv + 2:
                    continue                               # two or more above: loss of control on landing
                long = value == jv + 1
                paths = [(v, x) for x in road.fly[v]]
                if long:
                    paths = [(v, x, y) for (_, x) in paths for y in road.fly[x]]
                # a canon die's hazard ends the turn without a loss of control, even on a long jump
                jump_die = dice[0] if long and kind != "canon" else None
                events = ("long-jump",) if long else ("jump",)
                for path in paths:
                    land = path[-1]
                    if any(road.finish[c] for c in path[1:-1]):
                        # flew over the first cells past the line: finished, the landing is past the stage
                        raw.append((land, ng, 2, path, events + ("finish",), jump_die))
                    elif ng > road.limit[land]:
                        continue
                    elif road.finish[land]:
                        raw.append((land, ng, 2, path, events + ("finish",), jump_die))
                    elif road.ford[land] and not ford_ok:
                        if kind not in ("brake", "canon") and gear <= road.limit[land]:
                            raw.append((land, gear, 1, path, events + ("ford-stop",), jump_die))
                    else:
                        raw.append((land, ng, 0, path, events, jump_die))
                continue
            if road.ford[v] and not ford_ok:
                # No brake onto a ford; a canon start cannot stop in gear 0; the gear kept must respect the limit.
                if kind not in ("brake", "canon") and gear <= road.limit[v]:
                    raw.append((v, gear, 1, (v,), ("ford-stop",), None))
                continue
            raw.append((v, ng, 0, (v,), (), None))
        out = [(v, g2, term, (dice, path, g2, pre + events), jd) for v, g2, term, path, events, jd in raw]
        self._cell_cache[key] = out
        return out

    def moves(self, cell: int, gear: int, used: int, jumps: tuple) -> Iterator[tuple]:
        """Every next move from a point of a turn: (cell, gear, used, jumps, terminal, step)."""
        for opt in self.die_options(gear, used):
            nused = opt[1]
            for v, ng, term, step, jump_die in self.cell_moves(cell, gear, opt):
                njumps = jumps if jump_die is None else tuple(sorted(jumps + (jump_die,)))
                yield v, ng, nused, njumps, term, step

    # -- whole turns -----------------------------------------------------------------------
    def outcomes(self, cell: int, gear: int, with_parents: bool = False, with_risk: bool | None = None):
        """Every distinct end of a legal turn from a turn boundary (cell index, gear).

        Returns ``{(end cell, gear, finished): (risk, key)}``. With ``with_risk`` (default: when a
        ``max_risk`` is set or parents are wanted) the risk is the least chance of a loss of control over
        the turns reaching that end, else 0.0 and any witness. With ``with_parents``, also the map
        from each reached point of the turn to ``(previous point, step)`` to rebuild the dice.

        Points of the turn are expanded in order of dice used; a point whose dice used include those
        of an expanded point at the same cell and gear is not expanded again (it can reach nothing
        new and no less risky), which keeps the search exact.
        """
        if with_risk is None:
            with_risk = with_parents or self.max_risk is not None
        max_risk = self.max_risk
        risk_of = self.risk
        opts = self.die_options
        cmoves = self.cell_moves
        start = (cell, gear, 0, (), 0)
        seen: dict = {start: None}
        buckets: list[list] = [[start]] + [[] for _ in range(_MAX_DICE)]
        expanded: dict = {}
        best: dict = {}
        for level in range(len(buckets)):
            for key in buckets[level]:
                c, g, used, jumps, term = key
                if term:
                    continue
                if level:
                    group = expanded.setdefault((c, g, used & _CANON), [])
                    if group and _dominated(used, jumps, group):
                        continue
                    group.append((used, jumps))
                for opt in opts(g, used):
                    nused = opt[1]
                    nlevel = _ndice(nused)
                    for v, ng, t, step, jd in cmoves(c, g, opt):
                        njumps = jumps if jd is None else tuple(sorted(jumps + (jd,)))
                        nkey = (v, ng, nused, njumps, t)
                        if nkey in seen:
                            continue
                        if with_risk:
                            r = risk_of(nused, njumps)
                            if max_risk is not None and r > max_risk + 1e-12:
                                continue
                        else:
                            r = 0.0
                        seen[nkey] = (key, step) if with_parents else True
                        o = (v, ng, t == 2)
                        b = best.get(o)
                        if b is None or (with_risk and (r < b[0] - 1e-15 or (
                                r <= b[0] + 1e-15 and nlevel < _ndice(b[1][2])))):
                            best[o] = (r, nkey)
                        buckets[nlevel].append(nkey)
        if with_parents:
            return best, seen
        return best

    def reach(self, cell: int, gear: int) -> int:
        """The ends of every legal turn from a turn boundary, as a bit set (read it with :meth:`ends`).

        Memoised across turn boundaries on the points of a turn (cell, gear, dice used, jump dice): what
        a point can still reach does not depend on how the car got there. Without a risk budget the dice
        used are first reduced to what matters for the rest of the turn (gear dice above the current
        gear, past the first one used, can never be played; the jump dice and the canon mark only price
        a risk), and a point is one int. A point's set is stored relative to its own cell, so sets stay
        short however long the stage.
        """
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
        """Every distinct (end cell, gear, finished) of a legal turn from a turn boundary."""
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

    def best_turn(self, cell: int, gear: int, end: int, end_gear: int, finished: bool) -> Turn | None:
        """The least risky legal turn from (cell, gear) to (end, end_gear) (fewest dice on a tie)."""
        best, seen = self.outcomes(cell, gear, with_parents=True)
        hit = best.get((end, end_gear, finished))
        if hit is None:
            return None
        return self.turn_from(cell, gear, hit[0], hit[1], seen)

    def turn_from(self, cell: int, gear: int, risk: float, key: tuple, seen: dict) -> Turn:
        """Rebuild the turn that reached point ``key`` from the parents map of :meth:`outcomes`."""
        start = (cell, gear, 0, (), 0)
        steps = []
        k = key
        while k != start:
            prev, (dice, path, g, events) = seen[k]
            steps.append(Step(dice=dice, cells=tuple(self.road.nodes[c] for c in path), gear=g, events=events))
            k = prev
        steps.reverse()
        return Turn(start=self.road.nodes[cell], start_gear=gear, steps=tuple(steps),
                    seconds=self.rules.seconds(steps[-1].gear), risk=risk)

    def all_turns(self, cell: int, gear: int, limit: int | None = None) -> Iterator[Turn]:
        """Every legal turn (every distinct sequence of dice and cells) from a turn boundary. Exponential:
        for small examples and tests."""
        count = 0

        def rec(c, g, used, jumps, steps):
            nonlocal count
            for v, ng, nused, njumps, term, (dice, path, sg, events) in self.moves(c, g, used, jumps):
                r = self.risk(nused, njumps)
                if self.max_risk is not None and r > self.max_risk + 1e-12:
                    continue
                st = steps + (Step(dice=dice, cells=tuple(self.road.nodes[x] for x in path), gear=sg,
                                   events=events),)
                yield Turn(start=self.road.nodes[cell], start_gear=gear, steps=st,
                           seconds=self.rules.seconds(sg), risk=r)
                count += 1
                if limit is not None and count >= limit:
                    return
                if not term:
                    yield from rec(v, ng, nused, njumps, st)
                    if limit is not None and count >= limit:
                        return

        yield from rec(cell, gear, 0, (), ())


_OPTIONS: dict[tuple, dict] = {}
_REDUCED: dict[tuple, dict] = {}       # per :func:`_reduction_key`: the entries of its table met so far
# the ends one byte of a reach set holds, low bit first: (gear within the byte's four, finished)
_BYTE_ENDS = [[(k >> 1, bool(k & 1)) for k in range(8) if b >> k & 1] for b in range(256)]
_KINDS = ("gear", "brake", "gas", "leader", "red-zone", "canon")      # the kinds of die option, as numbered in a key


# -- public helpers ----------------------------------------------------------------------------

def engine_for(graph: nx.DiGraph, rules: Ruleset | None = None, *, cell: str | None = None, leader: bool = False,
               surface: str | None = None, pool: Pool | None = None, max_risk: float | None = None) -> TurnEngine:
    """A :class:`TurnEngine` for a graph; the dashboard column is that of ``surface`` (default: the terrain of
    ``cell``, else gravel) unless ``pool`` is given."""
    rules = rules or load_ruleset()
    road = road_of(graph)
    if pool is None:
        if surface is None and cell is not None:
            surface = road.surface[_cell_index(road, cell)]
        pool = rules.pool(surface, leader)
    return TurnEngine(road, rules, pool, max_risk)


def _cell_index(road: Road, cell: str) -> int:
    try:
        return road.index[cell]
    except KeyError:
        raise DesignerError(f"no cell {cell!r} in this track",
                            hint="cells are named 'tile index:cell id', e.g. '0:a1'") from None


def legal_turns(graph: nx.DiGraph, cell: str, gear: int, rules: Ruleset | None = None, *, leader: bool = False,
                pool: Pool | None = None, max_risk: float | None = None, limit: int | None = None) -> Iterator[Turn]:
    """Every legal turn from ``cell`` in ``gear`` (every sequence of dice and cells), shortest first within a
    branch. The number grows fast with the dice: use ``limit`` or :func:`turn_outcomes` on real stages."""
    engine = engine_for(graph, rules, cell=cell, leader=leader, pool=pool, max_risk=max_risk)
    yield from engine.all_turns(_cell_index(engine.road, cell), gear, limit)


def turn_outcomes(graph: nx.DiGraph, cell: str, gear: int, rules: Ruleset | None = None, *, leader: bool = False,
                  pool: Pool | None = None, max_risk: float | None = None) -> list[Turn]:
    """One turn per distinct end (cell, gear, finished): the least risky one (fewest dice on a tie)."""
    engine = engine_for(graph, rules, cell=cell, leader=leader, pool=pool, max_risk=max_risk)
    c = _cell_index(engine.road, cell)
    best, seen = engine.outcomes(c, gear, with_parents=True)
    turns = [engine.turn_from(c, gear, r, key, seen) for (_, _, _), (r, key) in best.items()]
    turns.sort(key=lambda t: (t.seconds, -len(t.cells), t.risk, t.end))
    return turns
