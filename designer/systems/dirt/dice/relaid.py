"""The values of failed Big Attacks laid again (``big_attack_failure: achievable``) for the expected-time solver:
where each plan's failures can be laid (:func:`designer.systems.dirt.dice.relay.failure_classes`, kept per boundary
and dice as the model's point numbers), what they cost under the model's tables of point values, and where the
policy's replay and the Monte Carlo player lay them. ``model`` is a :class:`~.turn_model.DirtModel`.
"""
from __future__ import annotations

import weakref

import numpy as np

from designer.systems.dirt.dice.plan_search import cut_cells
from designer.systems.dirt.dice.plans import BIG, PlanSteps
from designer.systems.dirt.dice.relay import _Which, _by_dice, _entries, failure_classes, layings, outcomes, \
    plan_dice
from designer.systems.dirt.dice.set_minima import fill_mins, minima, set_mins
from designer.systems.dirt.driving.dice_used import _BRAKE, _CANON, _GAS, _LEADER, _M, _RZ

try:
    from designer.systems.dirt.dice import _relay as COMPILED
except ImportError:                                   # not built (no C++ compiler at install): the reference
    COMPILED = None
if COMPILED is not None and COMPILED.LAYOUT != (_GAS, _BRAKE, _LEADER, _CANON):
    COMPILED = None                                   # built for another packing of the dice used: not usable
_LAYERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # TurnEngine -> its compiled tables


def plan_classes(model, cell: int, gear: int, plan_steps=None, dice: tuple | None = None) -> tuple:
    """:func:`failure_classes` of one plan from a boundary of ``model`` (a DirtModel) as arrays: the chance of
    each class, the model's point numbers of all classes one after the other, where each class starts, the
    number of the class of each failing outcome (:func:`outcomes`) and each class's set of points as a number;
    kept per (boundary, dice rolled, long-jump dice). The plan is given by its steps or by ``dice``
    (:func:`plan_dice`). The compiled laying search (``_relay``) gives the same classes as the reference
    (:func:`layings` then :func:`failure_classes`), which runs where it is not built or ``COMPILED`` is None."""
    rolled, jumps = plan_dice(plan_steps) if dice is None else dice
    key = (cell, gear, rolled, jumps)
    hit = model._classes.get(key)
    if hit is not None:
        return hit
    at = model._relay_cache.get(("engine", cell))
    if at is None:          # the engine of the cell's full pool, the cuts of its road, whether it is small
        engine = model.engine(model.pool(cell, (0, 0, 0, 0, 0)))
        at = model._relay_cache[("engine", cell)] = (engine, cut_cells(engine), len(engine.road.nodes))
    engine = at[0]
    if COMPILED is not None and at[2] < COMPILED.MAX_CELLS:
        got = _laid(model, engine, cell, gear, rolled, jumps, at[1])
        sets = model._relay_cache.get("point sets")
        if sets is None:
            sets = model._relay_cache["point sets"] = COMPILED.PointSets()
        lut = getattr(model.numbers, "lut", None)            # point code + 1 -> its number (0: none yet)
        fast = None if got is None or lut is None else sets.number_known(got[0], got[2], got[3], lut)
        if fast is not None:    # every point numbered already: their numbers and the sets' in one call
            hit = model._classes[key] = (got[1], fast[0], got[3], got[4], fast[1])
            return hit
        codes, numbers, probs, members, starts, which = _numbered(model, got)
    else:
        codes = None
        lkey = (cell, gear, rolled & ~_CANON)
        steps = model._layings.get(lkey)
        if steps is None:
            steps = model._layings[lkey] = layings(engine, at[1], cell, gear, rolled & ~_CANON)
        points, classes, which = failure_classes(model.rules, steps, rolled, jumps, as_index=True,
                                                 cache=model._relay_cache)
        numbers = np.array([model.numbers.of(pt) for pt in points], dtype=np.int64)
        probs = np.array([p for p, _i in classes])
        sizes = [len(idx) for _p, idx in classes]
        members = np.concatenate([idx for _p, idx in classes]) if classes else np.zeros(0, dtype=np.int64)
        starts = np.cumsum([0] + sizes[:-1]).astype(np.int64)[:len(sizes)]
    nums = numbers[members]
    if codes is not None:       # compiled: the sets known by their points' codes, their members kept there
        sets = model._relay_cache.get("point sets")
        if sets is None:
            sets = model._relay_cache["point sets"] = COMPILED.PointSets()
        ids, _fresh = sets.number(codes, members, starts, numbers)
    else:
        known = model._relay_cache.setdefault("members", [])    # number of a set of points -> their numbers
        ends = starts.tolist()[1:] + [len(nums)]
        sets = model._relay_cache.setdefault("point sets", {})     # a set of point numbers -> its number
        ids = []
        for a, b in zip(starts.tolist(), ends):
            pts = tuple(sorted(nums[a:b].tolist()))
            n = sets.get(pts)
            if n is None:
                n = sets[pts] = len(known)
                known.append(np.array(pts, dtype=np.int64))
            ids.append(n)
    hit = model._classes[key] = (probs, nums, starts, which, np.array(ids, dtype=np.int64))
    return hit


def _laid(model, engine, cell: int, gear: int, rolled: int, jumps: tuple, cuts: list | None) -> tuple | None:
    """The compiled laying search's classes: (point codes, chances, members, starts, class of each outcome), or
    None when there is no laying or no failing outcome."""
    known = model._relay_cache.setdefault((rolled, jumps), {})
    outs = known.get(None)
    if outs is None:
        outs = known[None] = outcomes(model.rules, rolled, jumps)
    table = known.get("table")
    if table is None and outs:
        table = known["table"] = COMPILED.Outcomes(
            np.array([o for _p, o in outs], dtype=np.int64).reshape(len(outs), 4),
            np.array([p for p, _o in outs], dtype=np.float64), rolled, model.rules.hazard_limit)
    layer = _LAYERS.get(engine)
    if layer is None:
        layer = _LAYERS[engine] = COMPILED.Layer()
    if cuts is None:
        cuts = cut_cells(engine)
    got = layer.classes(engine, cuts, cell, gear, rolled & ~_CANON, table) if outs else None
    if got is None:
        return None
    codes, probs, members, starts, which = got
    return codes, probs, members, starts, _Which(outs, which)


def _numbered(model, got: tuple | None) -> tuple:
    """:func:`_laid`'s classes with the model's number of each point (numbering new points):
    (point codes, point numbers, chances, members, starts, class of each outcome)."""
    if got is None:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0), empty, empty, {}
    codes, probs, members, starts, which = got
    lut = getattr(model.numbers, "lut", None)            # point code + 1 -> its number (0: none yet)
    numbers = None if lut is None or codes.max() + 1 >= len(lut) else lut[codes + 1]
    if numbers is None or not numbers.all():
        numbers = model.numbers.number(codes // 256, (codes // 32) % 8, (codes // 16) % 2, codes % 16,
                                       np.ones(len(codes), dtype=bool))
    return codes, numbers, probs, members, starts, which


def _classes_of(model, cell: int, gear: int, ps, p: int) -> tuple:
    """:func:`plan_classes` of plan ``p`` of a plan set; a set taken from a search reads the plan's dice from
    the search (kept on it per candidate), without building its steps."""
    steps = ps.steps
    if not isinstance(steps, PlanSteps):
        return plan_classes(model, cell, gear, steps[p])
    search = steps.search
    memo = search.cache.setdefault("relay", {})
    c = int(steps.cand[p])
    hit = memo.get(c)
    if hit is None:
        used = int(search.used[c]) & ~(_M << _RZ)
        jumps = tuple(j for j in search.key(c)[3])
        hit = memo[c] = plan_classes(model, cell, gear, dice=(used, jumps))
    return hit


def _spread(model, entries: list, value, rescue=None) -> np.ndarray:
    """``spread[row, tokens]`` for rows ``(damage, Big Attack gain, plan_classes)``: each class of failures at
    its cheapest point after the gain, weighed by its chance and added class after class. ``rescue[row,
    tokens]``: a failure cancelled by the SISU token (already shifted), when held."""
    T1 = model.T1
    spread = np.zeros((len(entries), T1))
    by_damage: dict = {}
    for r, (damage, _gain, cl) in enumerate(entries):
        if len(cl[0]):
            by_damage.setdefault(damage, []).append(r)
    for damage, rows_of in by_damage.items():
        cls = [entries[r][2] for r in rows_of]
        ids = np.concatenate([c[4] for c in cls])
        ncls = np.array([len(c[0]) for c in cls], dtype=np.int64)
        gains = np.repeat(np.array([entries[r][1] for r in rows_of], dtype=np.int64), ncls)
        raw = set_mins(model, damage, ids, value)
        total = model._tokens[None, :] + gains[:, None]
        idx = np.minimum(total, T1 - 1)
        best = np.where(raw >= BIG, BIG, np.take_along_axis(raw, idx, axis=1) - (total - idx))
        if rescue is not None:
            best = np.minimum(best, rescue[np.repeat(np.array(rows_of, dtype=np.int64), ncls)])
        terms = np.concatenate([c[0] for c in cls])[:, None] * best
        first = np.cumsum(ncls) - ncls                  # each row's classes, one after the other
        spread[rows_of] = np.add.reduceat(terms, first, axis=0)      # added class after class, in order
    return spread


def relay_values(model, cell: int, gear: int, ps, plans, damage: tuple, value, rescue=None):
    """For plans (numbers in ``ps``) of a boundary: the failures of their Big Attacks, each class of outcomes
    laid at its cheapest point, added (``spread[plan, tokens]``, tokens held before the attack).
    ``rescue[plan, tokens]``: a failure cancelled by the SISU token (already shifted), when held."""
    entries = [(damage, int(ps.gain[p]), _classes_of(model, cell, gear, ps, int(p))) for p in plans]
    return _spread(model, entries, value, rescue)


def relay_outcomes(model, cell: int, gear: int, plan_steps, damage: tuple, bank: int, value) -> list[tuple]:
    """Where the failures of a plan's Big Attack are laid with ``bank`` tokens after the attack: ``(chance,
    point, its loss value)``, each class of failures at its cheapest point (the first of equal ones), the
    chances of the classes laid at the same point added (one entry per point, in the order of the points'
    numbers)."""
    probs, nums, starts, _which, _ids = plan_classes(model, cell, gear, plan_steps)
    if not len(nums):
        return []
    vals = model.fill(damage, nums, value)[nums, 1, bank]
    sizes = np.diff(np.append(starts, len(nums)))
    seg = np.repeat(np.arange(len(starts)), sizes)
    low = np.full(len(starts), np.inf)
    np.minimum.at(low, seg, vals)
    at = np.flatnonzero(vals == low[seg])
    _u, first = np.unique(seg[at], return_index=True)
    pick = at[first]                                   # each class's cheapest point, the first of equal ones
    where, slot = np.unique(nums[pick], return_inverse=True)
    chance = np.bincount(slot, weights=probs[sizes > 0], minlength=len(where))
    cost = np.empty(len(where))
    cost[slot] = vals[pick]
    return [(p, model._point_list[n], v) for p, n, v in zip(chance.tolist(), where.tolist(), cost.tolist())]


def laid_point(model, cell: int, gear: int, plan_steps, outcome: tuple, damage: tuple, bank: int, value) -> tuple:
    """Where the driver lays the loss of control of a failed Big Attack whose dice fell as ``outcome`` (gear
    dice showing a hazard as bits, hazards of each kind; see :func:`outcomes`): (point, its loss value)."""
    probs, nums, starts, which, _ids = plan_classes(model, cell, gear, plan_steps)
    return _cheapest_of(model, nums, starts, which[outcome], damage, bank, value)


def _cheapest_of(model, nums, starts, c: int, damage: tuple, bank: int, value) -> tuple:
    a = int(starts[c])
    b = int(starts[c + 1]) if c + 1 < len(starts) else len(nums)
    vals = model.fill(damage, nums[a:b], value)[nums[a:b], 1, bank]
    i = int(np.argmin(vals))
    return model._point_list[int(nums[a + i])], float(vals[i])


def reach_low(model, ps, damage: tuple, value) -> np.ndarray:
    """The cheapest loss of control over every point a turn from a plan set's boundary reaches, per tokens
    (a lower bound of where its failed Big Attacks can be laid; -BIG when the set keeps no search)."""
    if not isinstance(ps.steps, PlanSteps):
        return np.full(model.T1, -BIG)
    nums = np.array(closure_points(model, ps) or [0], dtype=np.int64)
    return model.fill(damage, nums, value)[nums, 1].min(axis=0)


def closure_points(model, ps) -> list:
    """The numbers of every point a turn from a plan set's boundary reaches (its search's candidates): where
    a failed Big Attack of its plans may be laid (a superset of their :func:`plan_classes`)."""
    steps = ps.steps
    if not isinstance(steps, PlanSteps):
        return model.points(ps)
    search = steps.search
    hit = search.cache.get("all_points")
    if hit is None:
        every = np.unique(model.numbers._every(search, model.steps))
        hit = search.cache["all_points"] = every[every > 0].tolist()
    return hit


class Relaid:
    """The failed Big Attacks of the plan sets of many states (a group of the sweep): ``low[state]`` the
    cheapest loss of control any of their turns can reach, :meth:`spread` the failures of some plans."""

    def __init__(self, model, states: list, sets: list, value):
        self.model, self.states, self.sets, self.value = model, states, sets, value
        self._index = None

    def index(self) -> tuple:
        """The searches of the sets, each once (``(search, cell, gear)`` of the first set keeping it), the
        number of each set's search (-1: the set keeps none), the candidate of every plan of the sets one set
        after the other (0 where none) and where each set's plans start there."""
        if self._index is None:
            at: dict = {}                   # id(search) -> its number
            searches, cands = [], []
            of_set = np.full(len(self.sets), -1, dtype=np.int64)
            for k, ps in enumerate(self.sets):
                steps = ps.steps
                if isinstance(steps, PlanSteps):
                    j = at.get(id(steps.search))
                    if j is None:
                        j = at[id(steps.search)] = len(searches)
                        searches.append((steps.search, self.states[k][0], self.states[k][1]))
                    of_set[k] = j
                    cands.append(steps.cand)
                else:
                    cands.append(np.zeros(ps.n, dtype=np.int64))
            first = np.cumsum([0] + [len(c) for c in cands[:-1]]).astype(np.int64)
            self._index = (searches, of_set, np.concatenate(cands).astype(np.int64), first)
        return self._index

    def low(self, which: np.ndarray, plans: np.ndarray) -> np.ndarray:
        """``low[row, tokens]``: the cheapest loss of control a laying of plan ``plans[row]`` of set
        ``which[row]`` can reach, or less. A laying of n dice reaches its points with some turn of the search
        of n dice or fewer (a point the search did not expand is dominated by one it did, with fewer dice,
        whose same moves reach the same points), so the least loss over the search's points of n dice or
        fewer bounds it."""
        model = self.model
        out = np.empty((len(which), model.T1))
        for k in np.unique(which).tolist():
            rows = np.nonzero(which == k)[0]
            (_cell, _gear, damage), ps = self.states[k], self.sets[k]
            steps = ps.steps
            if not isinstance(steps, PlanSteps):        # a set of its own (no search kept): no bound
                out[rows] = -BIG
                continue
            search = steps.search
            nums, dice = _by_dice(model, search)
            table = model.fill(damage, np.concatenate([nums, np.zeros(1, dtype=np.int64)]), self.value)
            lows = np.minimum.accumulate(table[nums, 1], axis=0)       # the least over the first i candidates
            need = search.dice[steps.cand[plans[rows]]]
            out[rows] = lows[np.searchsorted(dice, need, side="right") - 1]
        return out

    def low_compiled(self, which: np.ndarray, plans: np.ndarray, kernels) -> np.ndarray:
        """:meth:`low` by ``kernels.relay_low`` (the same numbers): the points of each search worked out once
        per damage for the whole group, then the least losses in C."""
        model = self.model
        searches, of_set, cand, first = self.index()
        kinds = np.full(len(self.sets), -1, dtype=np.int64)
        damages: dict = {}                          # damage -> (its number, the searches of its sets)
        for k, (_cell, _gear, damage) in enumerate(self.states):
            if of_set[k] >= 0:
                hit = damages.get(damage)
                if hit is None:
                    hit = damages[damage] = (len(damages), {})
                kinds[k] = hit[0]
                hit[1][int(of_set[k])] = None
        by = [_by_dice(model, search) for search, _c, _g in searches]
        for d, (_kd, got) in damages.items():
            model.fill(d, np.concatenate([by[j][0] for j in got] + [np.zeros(1, dtype=np.int64)]), self.value)
        tables = [model._table(d)[0] for d in damages]
        sizes = [search.n for search, _c, _g in searches]
        begin = np.cumsum([0] + sizes).astype(np.int64)
        none = np.zeros(0, dtype=np.int64)
        dice = np.concatenate([search.dice for search, _c, _g in searches] + [none]).astype(np.int64)
        set_of = of_set[which]
        need = np.where(set_of >= 0, dice[begin[np.maximum(set_of, 0)] + cand[first[which] + plans]], 0) \
            if len(dice) else np.zeros(len(which), dtype=np.int64)
        return kernels.relay_low(np.concatenate([b[0] for b in by] + [none]).astype(np.int64),
                                 np.concatenate([b[1] for b in by] + [none]).astype(np.int64), begin, of_set, kinds,
                                 tables, which.astype(np.int64), need.astype(np.int64), model.T1)

    def risk(self, which: np.ndarray, plans: np.ndarray) -> np.ndarray | None:
        """The chance each plan's dice show a loss of control (from the plan search), or None if one is
        not known."""
        searches, of_set, cand, first = self.index()
        if (of_set < 0).any():
            return None
        begin = np.cumsum([0] + [search.n for search, _c, _g in searches[:-1]]).astype(np.int64)
        return np.concatenate([search.risk for search, _c, _g in searches])[begin[of_set[which]]
                                                                            + cand[first[which] + plans]]

    def spread_of(self, which: np.ndarray, plans: np.ndarray, gains: np.ndarray, kernels):
        """:meth:`spread` of stacked rows (plan ``plans[row]`` of set ``which[row]``, its Big Attack's gain
        ``gains[row]``) as a function of some rows, computed by ``kernels.relay_spread`` from the classes of
        each plan kept as flat arrays (:class:`_Entries`): the same numbers as :meth:`spread`. The entries of the
        candidates of the group's searches are read from one flat map (each search's own, kept on it, one after
        the other), so only candidates met for the first time are looked at one by one."""
        model, value = self.model, self.value
        store = _entries(model)
        searches, of_set, cand, first = self.index()
        maps = []
        for search, _c, _g in searches:
            cmap = search.cache.get("relay entries")
            if cmap is None:
                cmap = search.cache["relay entries"] = np.full(search.n, -1, dtype=np.int64)
            maps.append(cmap)
        begin = np.cumsum([0] + [len(m) for m in maps]).astype(np.int64)
        flat = np.concatenate(maps) if maps else np.zeros(0, dtype=np.int64)
        owned = np.repeat(np.arange(len(maps), dtype=np.int64), np.diff(begin))  # the search of each place
        dkey = -1 - np.arange(len(flat), dtype=np.int64)    # equal for places with the same gear and dice
        mask = ~(_M << _RZ)
        by_key: dict = {}                   # such a number -> the entry of its classes
        jump_ids: dict = {}                 # jump dice -> their number in the group
        tables: dict = {}                   # id(compiled tables of a search) -> the numbers of their jump dice
        one_cell = len({c for _s, c, _g in searches}) == 1
        for j, (search, _c, gear) in enumerate(searches):
            extra = search.extra if search.compiled is not None else None
            if extra is not None and search.n and 0 <= gear < 8 and one_cell:   # gear, dice and jump dice as one
                jd = tables.get(id(search.compiled))
                if jd is None:
                    jd = tables[id(search.compiled)] = np.array(
                        [jump_ids.setdefault(tuple(t), len(jump_ids)) for t in search.compiled.jumps], dtype=np.int64)
                jd = jd[extra[3]]
                used = search.used.astype(np.int64) & mask
                if 0 <= used.min() and used.max() < 1 << 30 and jd.max() < 1 << 20:
                    dkey[begin[j]:begin[j + 1]] = (gear << 50) | (used << 20) | jd
        set_of = of_set[which]
        place = np.where(set_of >= 0, begin[np.maximum(set_of, 0)] + cand[first[which] + plans], -1) \
            if len(flat) else np.full(len(which), -1, dtype=np.int64)
        own = np.full(len(which), -1, dtype=np.int64)     # entries of the rows whose set keeps no search
        damages: dict = {}
        kind_of_set = np.array([damages.setdefault(st[2], len(damages)) for st in self.states], dtype=np.int64)
        kind = kind_of_set[which]
        damages = list(damages)
        stores = [minima(model, d) for d in damages]     # kept by the model, grown as sets are worked out

        def spread(rows: np.ndarray) -> np.ndarray:
            pl = place[rows]
            ent = np.where(pl >= 0, flat[pl], own[rows])
            if (ent < 0).any():
                lone = rows[(ent < 0) & (pl < 0)]
                for k, r, p in zip(which[lone].tolist(), lone.tolist(), plans[lone].tolist()):
                    cell, gear, _damage = self.states[k]
                    own[r] = store.add(_classes_of(model, cell, gear, self.sets[k], p))
                new = pl[(ent < 0) & (pl >= 0)]
                if len(new):
                    u, seen = np.unique(new, return_index=True)
                    u = u[np.argsort(seen)]             # in the order the rows first meet them
                    keys, at_key, key_of = np.unique(dkey[u], return_index=True, return_inverse=True)
                    got = np.empty(len(keys), dtype=np.int64)
                    for i in np.argsort(at_key).tolist():   # each gear and dice once, in the same order
                        e = by_key.get(int(keys[i]))
                        if e is not None:
                            got[i] = e
                            continue
                        q = int(u[at_key[i]])
                        search, cell, gear = searches[int(owned[q])]
                        c = q - int(begin[owned[q]])          # the plan's dice as _classes_of reads them, its classes kept by them
                        dice = (int(search.used[c]) & mask, tuple(search.key(c)[3]))
                        e = store.by_dice.get((cell, gear, dice))
                        if e is None:
                            e = store.by_dice[(cell, gear, dice)] = store.add(plan_classes(model, cell, gear,
                                                                                           dice=dice))
                        got[i] = by_key[int(keys[i])] = e
                    flat[u] = got[key_of]
                    for j in np.unique(owned[u]).tolist():      # kept on each search for later groups
                        maps[j][:] = flat[begin[j]:begin[j + 1]]
                ent = np.where(pl >= 0, flat[pl], own[rows])
            while True:
                out, missing = kernels.relay_spread(ent, gains[rows], kind[rows], store.start, store.count,
                                                    store.prob, store.ids, [st.rows for st in stores],
                                                    [st.slot for st in stores], model.T1)
                if missing is None:
                    return out
                kinds, sets = missing               # each (damage, set) once, by damage then set, none known
                cuts = np.flatnonzero(np.diff(kinds)) + 1
                for a, b in zip([0] + cuts.tolist(), cuts.tolist() + [len(kinds)]):
                    k = int(kinds[a])
                    fill_mins(model, damages[k], sets[a:b], value, stores[k])

        return spread

    def spread(self, which: np.ndarray, plans: np.ndarray) -> np.ndarray:
        """``spread[row, tokens]`` of plan ``plans[row]`` of set ``which[row]``."""
        entries = []
        for k, p in zip(which.tolist(), plans.tolist()):
            cell, gear, damage = self.states[k]
            ps = self.sets[k]
            entries.append((damage, int(ps.gain[p]), _classes_of(self.model, cell, gear, ps, p)))
        return _spread(self.model, entries, self.value)
