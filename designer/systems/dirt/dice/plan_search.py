"""The plan search of one DIRT turn boundary and the Pareto choice among what it finds (see :mod:`.plans`).

:func:`search_plans` walks the points of a turn from a boundary and records every point it reaches as a
*candidate* (:class:`Search`); :func:`pareto_index` picks the candidates kept as plans for a pool of dice;
:func:`step_rows` gives each candidate's steps as StepTable rows; :func:`chosen` takes a pool's plans with their
rows, lengths, gains and dice. Each has two implementations that give the
same numbers to the last bit: the Python and numpy code here, which is the reference and runs everywhere, and
the compiled one of ``_search.pyx`` (C++), used when that extension was built at install. ``COMPILED`` is that
module, or None when it is missing (or set to None to run the reference).
"""
from __future__ import annotations

import weakref

import numpy as np

from designer.systems.dirt.driving.rules import _BRAKE, _CANON, _GAS, _LEADER, _MAX_DICE, _POP, _RZ, _dominated, _ndice

try:
    from designer.systems.dirt.dice import _search as COMPILED
except ImportError:                                   # not built (no C++ compiler at install): the reference
    COMPILED = None
if COMPILED is not None and COMPILED.LAYOUT != (_GAS, _BRAKE, _LEADER, _RZ, _CANON, _MAX_DICE):
    COMPILED = None                                   # built for another packing of the dice used: not usable
_TABLES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # TurnEngine -> its compiled tables


class Search:
    """The candidates of one boundary's plan search, in the order found, as arrays over candidates: ``end``
    (end cell, gear, finished, cuts entered (up to 15) and Big Attack gain as one code: ``(((cell * 8 + gear) *
    2 + finished) * 16 + cuts) * 64 + gain``), ``risk`` (chance of a loss of control when all its dice are rolled), ``dice``, ``parent`` (the
    candidate it extends by one step, -1 for the start), ``depth`` (steps) and ``used`` (the dice used, packed
    as in :mod:`..driving.rules`). :meth:`step` and :meth:`key` give a candidate's last step and its point of the turn
    (cell, gear, dice used, jump dice, terminal). ``failures``: under the reading ``as_laid`` only (else None),
    the number of each candidate's failure profile (:func:`search_plans`), numbered from 0 (no step where the
    dice can fail) in the order first met. ``cache`` keeps what is worked out from them later."""

    def __init__(self, end, risk, dice, parent, depth, used, steps=None, keys=None, compiled=None, extra=None,
                 failures=None):
        self.end, self.risk, self.dice, self.parent, self.depth, self.used = end, risk, dice, parent, depth, used
        self.failures = failures
        self._steps, self._keys = steps, keys
        self.compiled = compiled          # the compiled tables of the engine searched (None: the Python search)
        self.extra = extra                # compiled: rows step number, cell, gear, jump dice number, terminal
        self.cache: dict = {}

    @property
    def n(self) -> int:
        return len(self.end)

    def step(self, i: int) -> tuple:
        """The last step of candidate ``i``: (dice, cell indexes, gear, events)."""
        if self._steps is not None:
            return self._steps[i]
        return self.compiled.step_objs[int(self.extra[0][i])]

    def key(self, i: int) -> tuple:
        """The point of the turn candidate ``i`` stands for: (cell, gear, dice used, jump dice, terminal)."""
        if self._keys is not None:
            return self._keys[i]
        cols = self.cache.get("key columns")
        if cols is None:                  # the columns read as lists once per search (kept until released)
            cols = self.cache["key columns"] = (self.extra[1].tolist(), self.extra[2].tolist(), self.used.tolist(),
                                                self.extra[3].tolist(), self.extra[4].tolist())
        cell, gear, used, jumps, term = cols
        return cell[i], gear[i], used[i], self.compiled.jumps[jumps[i]], term[i]

    def rows(self, table) -> np.ndarray:
        """The StepTable row of each candidate's last step (rows are numbered in the order of candidates)."""
        if self._steps is not None:
            return np.array([table.id(step) for step in self._steps], dtype=np.int64)
        return self.compiled.rows(table, self.extra[0])


def search_plans(engine, cell: int, gear: int) -> Search:
    """Every point of a turn from a boundary that the plan search needs, in the order found (:class:`Search`).

    The search runs over the points of a turn (cell, gear, dice used, jump dice, cuts entered) in order of
    dice used: a route through a cut and one around it are different points (the cut draws a token). A
    point is not expanded when an expanded point at the same cell and gear with as many cuts used a subset of
    its dice, no other jump die and earned as many tokens: every turn it can still complete, the other can
    too, with no more risk, the same gain and fewer dice of each kind (so also under any smaller pool of dice).

    Under the reading ``big_attack_failure: as_laid`` a failed Big Attack's loss of control lies on the step of
    its plan where the dice laid so far first reach the hazard limit, so the order of the dice decides what the
    failure costs. There a point is also told apart by its *failure profile*: the steps so far at which the
    chance of a loss (the risk of the dice laid so far) grows, each with that risk and what of its point a loss
    there depends on: the gear, whether the step crossed the finish line, the cuts entered so far (and the cell
    with :data:`FAILURE_CELLS`). Two plans to one point of the turn with the same profile fail with the same
    chances on the same steps, whatever follows (the hazards of the dice so far, short of the limit, depend on
    the dice alone); two with different profiles are both kept, and so are their dominance groups. Without the
    cells, two routes to one point with the same dice in the same order (a lane taken or another) are still one
    plan, as under every reading.
    """
    laid = as_laid(engine)
    if COMPILED is not None and len(engine.road.nodes) < COMPILED.MAX_CELLS:
        tables = _TABLES.get(engine)
        if tables is None:
            tables = _TABLES[engine] = COMPILED.Tables()
        ints, risk = tables.search(engine, cell, gear, (2 if FAILURE_CELLS else 1) if laid else 0)
        end, dice, parent, depth, used = ints[:5]
        return Search(end, risk, dice, parent, depth, used, compiled=tables, extra=ints[5:10],
                      failures=ints[10] if laid else None)
    return _search_py(engine, cell, gear)


def as_laid(engine) -> bool:
    """Whether the engine's rules read a failed Big Attack ``as_laid`` (the loss on the plan's own failing step)."""
    return getattr(engine.rules.options, "big_attack_failure", "achievable") == "as_laid"


PROFILE_BITS = 28        # as_laid: a failure profile's number takes 28 bits beside the end-and-gain code
FAILURE_CELLS = False
"""as_laid: whether a failure profile also holds the cell of each step where the risk grows (every route kept
apart). On the 18 rulebook stages it changes one figure (Rally 4 SS2) by 0.0015 s, for about three times the
CPU and twice the memory of the profile without cells."""


def _search_py(engine, cell: int, gear: int) -> Search:
    """:func:`search_plans` in Python (the reference of the compiled search)."""
    opts = engine.die_options
    cmoves = engine.cell_moves
    moved = engine._cell_cache
    risk_of = engine.risk
    risks = engine._risk
    infos = engine.plan_options               # (gear, dice used) -> (option, dice used after, dice, gain)
    cut = cut_cells(engine)
    laid, cells = as_laid(engine), FAILURE_CELLS
    profiles: dict = {}                       # as_laid: (profile, point, risk) -> the profile with that step added
    start = (cell, gear, 0, (), 0, 0) + ((0,) if laid else ())
    seen: dict = {start: None}
    buckets: list[list] = [[(start, -1, 0, 0)]] + [[] for _ in range(_MAX_DICE)]
    expanded: dict = {}
    # per candidate: end code ((cell * 8 + gear) * 2 + finished) * 64 + gain, risk, dice used, the number of
    # the candidate it extends (-1: the start), its last step, its key, its number of steps, its failure profile
    rec: list = []
    for level in range(len(buckets)):
        for key, number, gain, depth in buckets[level]:
            c, g, used, jumps, term, cuts = key[:6]
            if term:
                continue
            if level:
                group = expanded.setdefault((c, g, used & _CANON, gain, cuts) + key[6:], [])
                if group and _dominated(used, jumps, group):
                    continue
                group.append((used, jumps))
            info = infos.get((g, used))
            if info is None:
                info = infos[(g, used)] = [(opt, opt[1], _ndice(opt[1]), _gain(opt[1])) for opt in opts(g, used)]
            for opt, nused, nlevel, ngain in info:
                bucket = buckets[nlevel]
                moves = moved.get((c, g, opt[0], opt[3]))         # TurnEngine.cell_moves' own cache
                if moves is None:
                    moves = cmoves(c, g, opt)
                for v, ng, t, step, jd in moves:
                    njumps = jumps if jd is None else tuple(sorted(jumps + (jd,)))
                    path = step[1]
                    ncuts = min(15, cuts + (cut[path[0]] or cut[path[-1]]))
                    nkey = (v, ng, nused, njumps, t, ncuts)
                    if laid:                                  # the profile, with this step when the risk grows
                        r = risks.get((nused, njumps))
                        if r is None:
                            r = risk_of(nused, njumps)
                        prof = key[6]
                        if r != (rec[number][1] if number >= 0 else 0.0):
                            point = ((((v << 3) if cells else 0) + ng) * 2 + (t == 2)) * 16 + ncuts
                            prof = profiles.setdefault((prof, point, r), len(profiles) + 1)
                        nkey += (prof,)
                    if nkey in seen:
                        continue
                    seen[nkey] = True
                    r = risks.get((nused, njumps))
                    bucket.append((nkey, len(rec), ngain, depth + 1))
                    rec.append((((((v << 3) + ng) * 2 + (t == 2)) * 16 + ncuts) * 64 + ngain,
                                risk_of(nused, njumps) if r is None else r, nlevel, number, step, nkey[:5],
                                depth + 1, nkey[6] if laid else 0))
    if len(profiles) >= 1 << PROFILE_BITS:
        raise ValueError("more failure profiles than the plan search numbers")
    cols = zip(*rec) if rec else ((),) * 8
    ends, rs, levels, parent, steps, keys, depths, profs = (list(col) for col in cols)

    def ints(values):
        return np.array(values, dtype=np.int64)

    return Search(ints(ends), np.array(rs, dtype=float), ints(levels), ints(parent), ints(depths),
                  ints([k[2] for k in keys]), steps, keys, failures=ints(profs) if laid else None)


_CUTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # TurnEngine -> its road's cut cells


def cut_cells(engine) -> list:
    """Per cell of the engine's road: 1 where a step entering it enters a cut (as the StepTable reads it)."""
    hit = _CUTS.get(engine)
    if hit is None:
        g = engine.road.graph
        hit = _CUTS[engine] = [int(g.nodes[n].get("cut") is not None) for n in engine.road.nodes]
    return hit


def _gain(used: int) -> int:
    """Seconds tokens a Big Attack of these dice earns: one per gear, gas or leader die (brakes earn none)."""
    return _POP[used & 63] + ((used >> _GAS) & 7) + ((used >> _LEADER) & 7)


def pareto_plans(search: Search, pool=None) -> list:
    """The plans searched from a turn boundary: for every end (cell, gear, finished, cuts entered) and every number of
    seconds tokens g a Big Attack could earn on the way there, the least risky set of dice reaching that end
    with gain g (fewest dice on a tie, then the first found), kept only when no plan to the same end earns as
    many tokens or more for no more risk (the Pareto set over risk and gain). ``pool``: only plans whose dice
    fit in it. Risks equal to 13 decimals count as a tie.

    Returns ``[(end, gain, risk, key)]`` by end, then by gain from the highest. Under ``as_laid``, see
    :func:`pareto_index`.
    """
    out = []
    for c in pareto_index(search, pool).tolist():
        code = int(search.end[c])
        end = code >> 10
        out.append(((end >> 4, (end >> 1) & 7, bool(end & 1)), code & 63, float(search.risk[c]), search.key(c)))
    return out


def arrays(search: Search):
    """(dice needed [candidate, gear/gas/brake/leader], group codes sorted, the sorting order): the candidates
    by end and gain (and failure profile under ``as_laid``: :func:`group_codes`), then risk to 13 decimals,
    then dice, then order found."""
    arr = search.cache.get("arrays")
    if arr is None:
        groups = group_codes(search)
        if search.compiled is not None:
            arr = COMPILED.order(groups, search.risk, search.dice, search.used)
        else:
            n, used = search.n, search.used
            need = np.stack([_POP_ARR[used & 63] + ((used >> _RZ) & 7), (used >> _GAS) & 7, (used >> _BRAKE) & 7,
                             (used >> _LEADER) & 7], axis=1).reshape(n, 4)
            order = np.lexsort((np.arange(n), search.dice, np.round(search.risk, 13), groups))
            arr = (need, groups[order], order)
        search.cache["arrays"] = arr
    return arr


def group_codes(search: Search) -> np.ndarray:
    """What the Pareto choice groups candidates by: the end-and-gain code, and under ``as_laid`` the failure
    profile too (``end << PROFILE_BITS | profile``)."""
    if search.failures is None:
        return search.end
    return (search.end << PROFILE_BITS) | search.failures


def _layout(search: Search) -> tuple[int, bool]:
    """(bits of a group code below its end, whether plans to one end are chosen on the risk-gain frontier)."""
    return (6, True) if search.failures is None else (6 + PROFILE_BITS, False)


def pareto_index(search: Search, pool=None) -> np.ndarray:
    """:func:`pareto_plans` as the numbers of the candidates kept, in the same order. Under ``as_laid`` every
    group (end, gain, failure profile) keeps its least risky candidate, with no frontier: where a failure
    lies can make a riskier plan, or one with fewer tokens, the better one."""
    if not search.n:
        return np.zeros(0, dtype=np.int64)
    need, group, order = arrays(search)
    shift, frontier = _layout(search)
    if search.compiled is not None:
        return COMPILED.pareto(order, group, search.risk, need,
                               None if pool is None else (pool.gear, pool.gas, pool.brake, pool.leader),
                               shift, frontier)
    risk = search.risk
    if pool is not None:
        ok = (need <= np.array([pool.gear, pool.gas, pool.brake, pool.leader])).all(axis=1)[order]
        group, order = group[ok], order[ok]
    if not len(order):
        return np.zeros(0, dtype=np.int64)
    head = np.ones(len(group), dtype=bool)
    head[1:] = group[1:] != group[:-1]
    winners = order[head][::-1]                   # by end from the last, each end from its top gain down
    end = group[head][::-1] >> shift
    r = risk[winners]
    n = len(winners)
    first = np.ones(n, dtype=bool)
    first[1:] = end[1:] != end[:-1]
    starts = np.nonzero(first)[0]
    seg = np.cumsum(first) - 1
    pos = np.arange(n) - starts[seg]
    if not frontier:
        return winners[np.lexsort((pos, end))]
    lows = np.full((len(starts), int(pos.max()) + 1), np.inf)
    lows[seg, pos] = r
    lows = np.minimum.accumulate(lows, axis=1)    # the least risk seen so far at each end
    before = np.full(n, np.inf)
    before[pos > 0] = lows[seg[pos > 0], pos[pos > 0] - 1]
    keep = r < before - 1e-15                     # fewer tokens only for strictly less risk
    return winners[keep][np.lexsort((pos[keep], end[keep]))]


def chosen(search: Search, table, pool=None, need: bool = True) -> tuple:
    """The plans of a pool taken from a search: the candidates kept (:func:`pareto_index`), their StepTable
    rows [plan, 1 + step] up to the longest of them, their lengths, Big Attack gains and dice needed (None unless
    ``need``: :func:`arrays` gives them for every candidate)."""
    if search.compiled is not None:
        choice = search.cache.get("choice")
        if choice is None:
            store, depth = step_rows(search, table)
            dice, group, order = arrays(search)
            choice = search.cache["choice"] = COMPILED.Choice(order, group, search.risk, dice, store, depth,
                                                              search.cache["gains"], *_layout(search))
        return choice.plans(None if pool is None else (pool.gear, pool.gas, pool.brake, pool.leader), need)
    store, depth = step_rows(search, table)
    need_of = arrays(search)[0]
    cand = pareto_index(search, pool)
    length = depth[cand]
    longest = int(length.max()) if len(cand) else 1
    return cand, store[cand, :longest + 1], length, search.cache["gains"][cand], need_of[cand] if need else None


def step_rows(search: Search, table) -> tuple[np.ndarray, np.ndarray]:
    """The StepTable rows of the steps of every candidate of a search, [candidate, 1 + step] (column 0 and
    the columns after a plan's end: 0, "no step"), and the number of steps of each; worked out once per
    search (each candidate's row is its parent's with one step more). The Big Attack gain of every candidate
    is kept in the cache ("gains")."""
    cache = search.cache
    hit = cache.get("rows")
    if hit is None:
        sid = search.rows(table)
        parent, depth = search.parent, search.depth
        if search.compiled is not None:
            store, cache["gains"] = COMPILED.step_store(parent, depth, sid, table.ints)
        else:
            top = int(depth.max()) if search.n else 0
            store = np.zeros((search.n, top + 1), dtype=np.int64)
            for d in range(1, top + 1):
                rows = np.nonzero(depth == d)[0]
                if d > 1:
                    store[rows] = store[parent[rows]]
                store[rows, d] = sid[rows]
            cache["gains"] = table.ints[:, 5][store].sum(axis=1)
        hit = cache["rows"] = (store, depth)
    return hit


class PlanSteps:
    """The steps of each plan of a set (dice, cell indexes, gear, events), worked out when asked for."""

    def __init__(self, search: Search, cand: np.ndarray):
        self.search, self.cand = search, cand

    def __len__(self) -> int:
        return len(self.cand)

    def __getitem__(self, p: int) -> tuple:
        search = self.search
        memo = search.cache.setdefault("steps", {})      # candidate -> its steps from the start
        chain = []
        k = int(self.cand[p])
        while k not in memo and k >= 0:
            chain.append(k)
            k = int(search.parent[k])
        steps = memo.get(k, ())
        for k in reversed(chain):
            steps = memo[k] = steps + (search.step(k),)
        return steps

    def __iter__(self):
        return (self[p] for p in range(len(self)))

    def __eq__(self, other) -> bool:
        return list(self) == list(other)

    __hash__ = None


_POP_ARR = np.array(_POP, dtype=np.int64)
