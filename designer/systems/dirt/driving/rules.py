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

from designer.systems.dirt.driving.reach import COMPILED_REACH, Reach, _BYTE_ENDS, _KINDS  # noqa: F401


# A die option: (new gear, new used, dice labels, kind)
#   kind: "gear" | "brake" | "gas" | "leader" | "red-zone" | "canon"


class TurnEngine(Reach):
    """Generates the legal moves of turns on one road under one ruleset and one dashboard column.

    ``max_risk`` drops every partial turn whose chance of a loss of control already exceeds it (the
    chance only grows with more dice, so the pruning is exact).
    """

    def __init__(self, road: Road, rules: Ruleset, pool: Pool, max_risk: float | None = None,
                 compiled: bool | None = None):
        """``compiled``: walk the reach without a risk budget with the compiled module (default: where it is built
        and the road's links all go forward); False keeps the Python walk, the reference."""
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
        if compiled is None:
            compiled = COMPILED_REACH is not None
        self._compiled = (COMPILED_REACH(self) if compiled and max_risk is None and road.margin == 0 else None)

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
    def outcomes(self, cell: int, gear: int, with_parents: bool = False, with_risk: bool | None = None,
                 target: tuple[int, int, bool] | None = None):
        """Every distinct end of a legal turn from a turn boundary (cell index, gear).

        Returns ``{(end cell, gear, finished): (risk, key)}``. With ``with_risk`` (default: when a
        ``max_risk`` is set or parents are wanted) the risk is the least chance of a loss of control over
        the turns reaching that end, else 0.0 and any witness. With ``with_parents``, also the map
        from each reached point of the turn to ``(previous point, step)`` to rebuild the dice.

        Points of the turn are expanded in order of dice used; a point whose dice used include those
        of an expanded point at the same cell and gear is not expanded again (it can reach nothing
        new and no less risky), which keeps the search exact.

        ``target`` (an end ``(cell, gear, finished)``, on a road whose links all go forward): only the points that
        can still lead to that end are kept: none past its cell, none at its cell but the end itself, none that
        ends the turn before it and, without a risk budget, none whose reach (:meth:`reach`, kept for every point)
        leaves it out. A point left out never leads to the target, nor does any point it would have dominated (those
        reach less), so the points kept, their order and the witness of the target are those of the whole search.
        """
        if with_risk is None:
            with_risk = with_parents or self.max_risk is not None
        max_risk = self.max_risk
        risk_of = self.risk
        opts = self.die_options
        cmoves = self.cell_moves
        if target is not None and self.road.margin:
            target = None                       # a link goes backwards: a later cell may lead back to the target
        last, last_gear, last_finished = target if target is not None else (None, None, None)
        leads = self._leads_to if target is not None and max_risk is None else None
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
                        if last is not None:
                            if v >= last:
                                if v > last or ng != last_gear or (t == 2) != last_finished:
                                    continue
                            elif t or (leads is not None and not leads(v, ng, nused, target)):
                                continue
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

    def best_turn(self, cell: int, gear: int, end: int, end_gear: int, finished: bool) -> Turn | None:
        """The least risky legal turn from (cell, gear) to (end, end_gear) (fewest dice on a tie)."""
        best, seen = self.outcomes(cell, gear, with_parents=True, target=(end, end_gear, finished))
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
