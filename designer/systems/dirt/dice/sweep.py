"""The DIRT expected-time optimum by a backward sweep: many turn boundaries decided per numpy call.

:func:`designer.racing.mdp.solve` decides one boundary at a time by memoised recursion; every boundary
then costs a few hundred small numpy calls, and their overhead is most of the time. The sweep gives the same
values (the same plans and the same 1e-9 tolerance of its branch and bound; where two plans tie it may pick the
other one) in bigger steps:

1. :func:`closure`: every state the recursion would meet, forward from the starts: from each boundary, every
   point of every plan, where ending the turn there or a loss of control there leads (and the spare wheel,
   and with the SISU token where cancelling a loss of control leads);
2. the states grouped by cell and the groups decided from the last cell back (the spare wheel, from gear 1 to
   gear 0 on the same cell, is weighed once the cell is decided): a turn always ends further along the road
   (the road's cells are ordered so that every link goes forward; when one does not, :func:`sweep` declines
   and the recursion runs);
3. :func:`decide_many`: the plan sets of a group stacked into one, its branch and bound run for every state
   of the group at once (each state keeps its own best value per token count and its own candidates).

States holding the SISU token (optional rule) are decided one by one with :meth:`DirtModel.decide`; a state
whose spent spare wheel can never count again takes the values of the same state with the wheel (:func:`_twins`).
"""
from __future__ import annotations

import numpy as np

from designer.systems.dirt.dice import rollout
from designer.systems.dirt.dice.plans import BIG, X, PlanSet
from designer.systems.dirt.dice.closure import closure
from designer.systems.dirt.dice.mishaps import wheel_change
from designer.systems.dirt.dice.relaid import Relaid
from designer.systems.dirt.dice.rollout import attack_values, roll_values
from designer.systems.dirt.dice.turn_model import Decision, DirtModel

FIRST = 8          # plans rolled out first per state (the most promising by their lower bound)
RELAID_COMPILED = True     # False: the branch and bound of the reading achievable in numpy (the reference)
try:
    from designer.systems.dirt.dice import _relaid as RELAID_KERNELS
except ImportError:        # not built (no compiler at install): the numpy branch and bound
    RELAID_KERNELS = None
if RELAID_KERNELS is not None and RELAID_KERNELS.LAYOUT != (X, BIG):
    RELAID_KERNELS = None  # built for other hazard counts per step or another BIG: not usable
MODES = (None, "roll", "attack")
# how far above the plans a change of wheel's lower bound must be to rule it out: well over the sweep's errors
# (1e-9 per decision) and far below any time card
SPARE_MARGIN = 1e-6
WHEEL_ON_DEMAND = True     # False: every state after a change of wheel decided, needed or not (the reference)


def sweep(model: DirtModel, starts) -> tuple[dict, dict] | None:
    """Values and decisions of every state met from ``starts`` (None when the road has a backward link).
    Without the SISU token, the states after a change of wheel are decided only where a change could pay
    (:func:`_after_change`): the same values and decisions as deciding them all, and about half the states where
    a change never pays."""
    if model.road.margin:
        return None
    values: dict = {}
    decisions: dict = {}

    def value(st):
        v = values.get(st)
        if v is None:                      # not met by the closure (never expected): decide it on its own
            v = model.terminal(st)
            if v is None:
                v, decisions[st] = model.decide(st, value)
            values[st] = v
        return v

    def switch(afters: list, cell: int, groups: dict) -> list:
        """A change of wheel could pay on ``cell``: the states after it (``afters``) and every state after them
        decided now, and the states still to decide (``groups``: on earlier cells) followed again with the changes
        of wheel, as if none were left out. Returns what that adds to them."""
        rest = [st for sts in groups.values() for st in sts]
        there = set(rest)
        now, later = [], []
        for st in closure(model, afters + rest, known=values):
            if st not in values and st not in there:
                (later if model.terminal(st) is None and st[0] < cell else now).append(st)
        _decide(model, now, values, decisions, value)
        return later

    lazy = switch if WHEEL_ON_DEMAND and not model.sisu else None
    _decide(model, closure(model, starts, wheel=lazy is None), values, decisions, value, lazy)
    return values, decisions


def _decide(model: DirtModel, states, values: dict, decisions: dict, value, lazy=None) -> None:
    """Decide ``states`` into ``values`` and ``decisions``, grouped by cell from the last (the states each of them
    leads to are decided already or among them). ``lazy``: the states after a change of wheel were left out of
    ``states``; while no change could pay (:func:`_after_change`) they stay undecided, and on the first cell where
    one could, ``lazy(afters, cell, groups)`` decides what that needs and returns the states it adds to the cells
    still to decide (from there on every change is weighed, as when none were left out)."""
    groups: dict = {}
    for st in states:
        term = model.terminal(st)
        if term is not None:
            values[st] = term
        else:
            groups.setdefault(st[0], []).append(st)
    while groups:
        cell = max(groups)
        plain = []
        for st in sorted(groups.pop(cell), key=lambda s: (s[1], repr(s))):
            if st[2][4]:                                   # the SISU token held: one by one, gear 0 first
                values[st], decisions[st] = model.decide(st, value)
            else:
                plain.append(st)
        if plain:
            twins = _twins(model, plain, values)
            own = [st for st in plain if st not in twins]
            for st, (v, d) in zip(own, decide_many(model, own, value)):
                values[st], decisions[st] = v, d
            known = None
            if lazy is not None:       # the states after a change of wheel that could pay
                known = values         # (a change whose state is left undecided cannot pay)
                afters = [a for a in (_after_change(model, st, values[st], values) for st in own) if a is not None]
                if afters:
                    for st in lazy(afters, cell, groups):
                        groups.setdefault(st[0], []).append(st)
                    lazy = None
            for st in own:                                 # gear 0 is known now: the spare wheel from gear 1
                values[st], decisions[st] = _spare(model, st, values[st], decisions[st], value, known)
            for st, twin in twins.items():
                values[st], decisions[st] = values[twin], decisions[twin]
        model.release(cell)            # every state of the cell is decided: what only deciding them needed goes


def _twins(model: DirtModel, states: list, known: dict | None = None) -> dict:
    """States whose spare wheel is spent but could never be used again (no gas damage, and no more damage is
    tracked: ``max_damage`` reached), mapped to the same state with the spare wheel still there when it is
    among ``states`` or ``known`` (decided). Every turn from either leads to the same states but for that flag,
    which then never counts again: the two have the same values and decisions (the same numbers, worked out
    once)."""
    room = model.mishaps.max_damage
    there = set(states)
    out = {}
    for cell, gear, (g, s, b, spare, su) in states:
        if spare and s == 0 and g + s + b >= room:
            twin = (cell, gear, (g, s, b, 0, su))
            if twin in there or (known is not None and twin in known):
                out[(cell, gear, (g, s, b, spare, su))] = twin
    return out


def _after_change(model: DirtModel, state, best: np.ndarray, values: dict):
    """The state after a change of wheel from ``state`` (worth ``best`` without it) when the change could pay,
    else None. A state with the wheel spent is worth no less than the same state with the wheel still there
    (it has every choice of the other but one): when that state (decided: gear 0 on the same cell) plus the
    change's seconds cannot beat ``best`` by ``SPARE_MARGIN``, neither can the change, and the states after it
    need not be decided (:func:`_spare` then takes the same decision)."""
    after = wheel_change(state)
    if after is None or after in values:
        return None
    cell, gear, (g, s, b, _spent, su) = after
    kept = values.get((cell, gear, (g, s, b, 0, su)))
    if kept is not None and (model.mishaps.spare_wheel_seconds + kept >= best - 1e-9 + SPARE_MARGIN).all():
        return None
    return after


def _spare(model: DirtModel, state, best: np.ndarray, choice: list, value, known: dict | None = None):
    """Changing a flat tyre (p. 20 'La roue de secours') when it beats the plans, as in DirtModel.decide.
    ``known``: the values decided, when the states after a change are decided only where it could pay
    (:func:`_after_change`): a change whose state is not among them is not weighed (it cannot pay)."""
    after = wheel_change(state)
    if after is not None:
        if known is not None and after not in known:
            return best, choice
        v = model.mishaps.spare_wheel_seconds + value(after)
        better = v < best - 1e-9
        if better.any():
            best = np.where(better, v, best)
            choice = [Decision("spare") if better[t] else c for t, c in enumerate(choice)]
    return best, choice


def gather(model: DirtModel, damages: list, sets: list[PlanSet], width: int, value):
    """The plan sets of many states stacked as one (their step numbers padded to ``width`` with "no step": no
    hazard, one die; with their lengths and gains), with the values of their points: ``table[u]`` (u: a point
    under one damage, [stop/loss, tokens]) and ``index[row, point]``, where each point of each plan is in
    ``table``. Only the points the group meets are copied, one gather per damage from the model's tables of point
    values."""
    ns = np.array([ps.n for ps in sets], dtype=np.int64)
    sid = _padded([ps.sid for ps in sets], ns, width)
    gidx = _padded([model.point_index(ps) for ps in sets], ns, width)
    kinds: dict = {}
    for d in damages:
        kinds.setdefault(d, len(kinds))
    # every (damage, point) met, numbered in the order of the damages' first sets and of the points: one dense
    # remap over kind * points + point for all the damages at once
    P = len(model._point_list)
    key = gidx
    if len(kinds) > 1:
        key = gidx + (np.repeat(np.array([kinds[d] for d in damages], dtype=np.int64), ns) * P)[:, None]
    seen = np.zeros(len(kinds) * P, dtype=bool)
    seen[key] = True
    uniq = np.nonzero(seen)[0]
    remap = np.zeros(len(seen), dtype=np.int64)
    remap[uniq] = np.arange(len(uniq))
    index = remap[key]
    cuts = np.searchsorted(uniq, np.arange(len(kinds) + 1) * P)
    parts = []
    for d, k in kinds.items():
        u = uniq[cuts[k]:cuts[k + 1]] - k * P
        parts.append(model.fill(d, u, value)[u])
    big = PlanSet(length=np.concatenate([ps.length for ps in sets]), cell=None, gear=None, fin=None, q=None,
                  pj=None, pc=None, m=None, cuts=None, gain=np.concatenate([ps.gain for ps in sets]), steps=[],
                  sid=sid)
    return big, np.concatenate(parts), index


def _padded(arrs: list, ns: np.ndarray, width: int) -> np.ndarray:
    """Arrays of ``ns`` rows each stacked into one of ``width`` columns, each row padded with 0 on the right."""
    out = np.zeros((int(ns.sum()), width), dtype=np.int64)
    r = 0
    for a, k in zip(arrs, ns.tolist()):
        out[r:r + k, :a.shape[1]] = a
        r += k
    return out


def _rows(model: DirtModel, ps: PlanSet, rows: np.ndarray) -> tuple[PlanSet, int]:
    """Some plans of a stacked set, cut to the longest of them, with what their steps do under the dice read
    from the step table (the cells, gears and cuts stay behind: their values are worked out already)."""
    w = int(ps.length[rows].max()) + 1
    ids = ps.sid[rows, :w]
    ints, floats = model.steps.ints[ids], model.steps.floats[ids]
    return PlanSet(length=ps.length[rows], cell=None, gear=None, fin=None, q=floats[:, :, 2:], pj=floats[:, :, 1],
                   pc=floats[:, :, 0], m=ints[:, :, 3], cuts=None, gain=ps.gain[rows], steps=[]), w


def decide_many(model: DirtModel, states: list, value) -> list[tuple[np.ndarray, list]]:
    """:meth:`DirtModel.decide` for many states (none holding the SISU token) at once, without the spare
    wheel (:func:`_spare`, once the states in gear 0 are known)."""
    T1, n = model.T1, len(states)
    best = np.full((n, T1), BIG)
    mode = np.zeros((n, T1), dtype=np.int64)
    pick = np.full((n, T1), -1, dtype=np.int64)
    sets, owners = [], []
    for i, (cell, gear, damage) in enumerate(states):
        ps = model.plans(cell, gear, damage)
        if ps.n:
            sets.append(ps)
            owners.append(i)
    if sets:
        width = max(ps.sid.shape[1] for ps in sets)
        big, table, index = gather(model, [states[i][2] for i in owners], sets, width, value)
        ns = np.array([ps.n for ps in sets], dtype=np.int64)
        owner = np.repeat(np.array(owners, dtype=np.int64), ns)
        owner_set = np.repeat(np.arange(len(sets)), ns)
        R = len(owner)
        local = np.arange(R) - np.repeat(np.cumsum(ns) - ns, ns)
        shape = (n, int(ns.max()))
        steps = model.steps
        kernels = rollout.KERNELS
        if kernels is not None and not model.achievable and kernels.fits(model.limit, model.K, T1,
                                                                         int(big.length.max()), FIRST):
            # the same branch and bound, in the same order, compiled (the same numbers and choices)
            best, mode, pick = kernels.decide_group(big.sid, big.length, big.gain, index, table, steps.ints,
                                                    steps.floats, owner, local, n, model.limit, model.K, FIRST,
                                                    model.latest)
            return _decisions(best, mode, pick)
        # Branch and bound over (plan, mode), exact to the same 1e-9 as DirtModel.decide. Every outcome of a
        # plan ends at one of its points, ended or lost. A Big Attack earns its gain first, so it is worth at
        # least its cheapest point with the tokens after the gain; one by one spends tokens and never earns
        # any, so it is worth at least its cheapest point with the tokens held (values never grow with tokens).
        cheapest = _cheapest(table.min(axis=1), index)
        relay = None
        if model.achievable:             # a failure may be laid anywhere the boundary's turns reach
            relay = Relaid(model, [states[i] for i in owners], sets, value)
            fast = RELAID_COMPILED and RELAID_KERNELS is not None and RELAID_KERNELS.fits(
                model.limit, model.K, T1, int(big.length.max()), FIRST)
            risk = relay.risk(owner_set, local)
            if fast and risk is not None:       # the same bound, compiled
                bound = RELAID_KERNELS.relay_bound(big.sid, big.length, big.gain, index, table, steps.floats, risk,
                                                   relay.low_compiled(owner_set, local, RELAID_KERNELS))
            else:
                bound = _relay_bound(model, big, table, index, relay.low(owner_set, local), risk)
            low = {"roll": cheapest, "attack": bound}
            if fast:
                # the same rounds in the same order, compiled; the failures valued from the classes kept
                best, mode, pick = RELAID_KERNELS.decide_relaid(
                    big.sid, big.length, big.gain, index, table, steps.ints, steps.floats, owner, local, n,
                    model.limit, model.K, FIRST, np.ascontiguousarray(cheapest), np.ascontiguousarray(bound),
                    relay.spread_of(owner_set, local, big.gain, RELAID_KERNELS))
                return _decisions(best, mode, pick)
        else:
            low = {"roll": cheapest, "attack": model._shift(big, cheapest[:, None, :])[:, 0]}
        done = {"roll": np.zeros(R, dtype=bool), "attack": np.zeros(R, dtype=bool)}

        def run(kind, sel):
            nonlocal best, pick, mode
            done[kind] |= sel
            rows = np.nonzero(sel)[0]
            vals = _roll_out(model, kind, big, rows, table, index,
                             None if relay is None or kind == "roll" else relay.spread(owner_set[rows], local[rows]))
            best, pick, better = _best_of(vals, owner[rows], local[rows], shape, best, pick)
            mode = np.where(better, 1 if kind == "roll" else 2, mode)

        if relay is None:
            run("attack", first_of(low["attack"], owner))     # the most promising plans of each state first
            run("roll", first_of(low["roll"], owner))
        else:                   # a Big Attack laid again costs more to value: one by one first, then its best
            run("roll", first_of(low["roll"], owner))
            run("attack", first_of(low["attack"], owner, first=1))
        for kind in ("attack", "roll", "roll", "roll"):
            sel = ~done[kind] & (low[kind] < best[owner] - 1e-9).any(axis=1)
            if kind == "roll" or relay is not None:
                sel &= first_of(low[kind], owner, sel, first=FIRST if kind == "roll" else 2)
            if sel.any():
                run(kind, sel)
        for kind in ("attack", "roll"):              # whatever is left, until no bound can beat the best
            while True:
                sel = ~done[kind] & (low[kind] < best[owner] - 1e-9).any(axis=1)
                if not sel.any():
                    break
                if relay is not None and kind == "attack":
                    sel &= first_of(low[kind], owner, sel, first=4)
                run(kind, sel)
    return _decisions(best, mode, pick)


def _decisions(best: np.ndarray, mode: np.ndarray, pick: np.ndarray) -> list[tuple[np.ndarray, list]]:
    """Each state's best values and its decision per tokens held (one Decision object per distinct choice)."""
    n, T1 = mode.shape
    if not mode.size:
        return [(b, []) for b in best]
    span = int(pick.max()) + 2                 # picks run from -1 ("none") up: (mode, pick) as one number
    uniq, inv = np.unique((mode * span + pick + 1).reshape(-1), return_inverse=True)
    made = [Decision("none") if k < span else Decision(MODES[k // span], k % span - 1) for k in uniq.tolist()]
    get = made.__getitem__
    return list(zip(best, [list(map(get, row)) for row in inv.reshape(n, T1).tolist()]))


def _roll_out(model: DirtModel, kind: str, big: PlanSet, rows: np.ndarray, table: np.ndarray,
              index: np.ndarray, spread: np.ndarray | None = None) -> np.ndarray:
    """The values of some plans of a stacked set, one by one or as a Big Attack, per tokens held (numpy);
    ``spread``: their Big Attacks' failures valued where the dice can be laid again (achievable). Compiled where
    built (the same numbers, plan by plan)."""
    kernels = rollout.KERNELS
    if getattr(kernels, "attack_rows", None) is not None and kernels.fits(model.limit, model.K, model.T1,
                                                                       int(big.length[rows].max())):
        steps = model.steps
        if kind == "roll":
            return kernels.roll_rows(rows, big.sid, big.length, index, table, steps.ints, steps.floats, model.limit,
                                     model.K)
        return kernels.attack_rows(rows, big.sid, big.length, big.gain, index, table, steps.floats, model.limit,
                                   int(model.latest), spread)
    sub, w = _rows(model, big, rows)
    both = table[index[rows, :w]]
    st, lo = both[:, :, 0], both[:, :, 1]
    if kind == "roll":
        return roll_values(sub, st, lo, model.limit, model.K)[0]
    where = model.shift_index(sub, st.shape)
    return attack_values(sub, model._shift(sub, st, where), model._shift(sub, lo, where), model.limit,
                         latest=model.latest, spread=spread)


def _relay_bound(model: DirtModel, big: PlanSet, table: np.ndarray, index: np.ndarray, low: np.ndarray,
                 risk: np.ndarray | None) -> np.ndarray:
    """A lower bound of every plan's Big Attack when its failures may be laid anywhere (achievable): its end
    when the dice show no loss, and when they do, the cheapest loss of control of any turn from its boundary
    (``low[row, tokens]``, before the gain). ``risk[row]``: the chance its dice show a loss of control (the
    plan search's), when known: then ``canon * first point + (1 - canon - risk) * end + risk * low``."""
    if risk is None:
        rows = np.arange(len(big.length))
        sub, w = _rows(model, big, rows)
        both = table[index[:, :w]]
        where = model.shift_index(sub, both[:, :, 0].shape)
        st = model._shift(sub, both[:, :, 0], where)
        fail, ok = rollout.first_loss(sub, model.limit)
        spread = (1 - ok)[:, None] * model._shift(sub, low[:, None, :])[:, 0]
        return attack_values(sub, st, st, model.limit, fl=(fail, ok), spread=spread)
    R = len(big.length)
    ends = np.stack([index[:, 1], index[np.arange(R), big.length]], axis=1)
    stops = table[ends, 0]                                      # [row, first point / end, tokens]
    shifted = model._shift(big, np.concatenate([stops, low[:, None, :]], axis=1))
    pc = model.steps.floats[big.sid[:, 1], 0][:, None]
    return pc * shifted[:, 0] + (1 - pc - risk[:, None]) * shifted[:, 1] + risk[:, None] * shifted[:, 2]


def _cheapest(point_min: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``point_min[index].min(axis=1)`` a column of points at a time: the same numbers without the
    (plans, points, tokens) array in between."""
    cols = np.ascontiguousarray(index.T)
    out = point_min.take(cols[0], axis=0)
    for col in cols[1:]:
        np.minimum(out, point_min.take(col, axis=0), out=out)
    return out


def _best_of(vals, owner, local, shape, best, pick):
    """Fold values of some plans (rows of ``vals``, owned by states ``owner``, plan ``local`` of each) into the
    best value and plan of every state and token count; a plan replaces the best only when better by 1e-9."""
    n, width = shape
    dense = np.full((n, width, vals.shape[1]), BIG)
    dense[owner, local] = vals
    p = dense.argmin(axis=1)
    v = np.take_along_axis(dense, p[:, None, :], axis=1)[:, 0]
    better = v < best - 1e-9
    return np.where(better, v, best), np.where(better, p, pick), better


def first_of(low: np.ndarray, owner: np.ndarray, sel: np.ndarray | None = None, first: int = FIRST) -> np.ndarray:
    """Among the rows (the selected ones when ``sel`` is given), the FIRST of each owner with the lowest bound."""
    key = low[:, 0] if sel is None else np.where(sel, low[:, 0], np.inf)
    order = np.lexsort((key, owner))
    so = owner[order]
    rank = np.empty(len(owner), dtype=np.int64)
    rank[order] = np.arange(len(owner)) - np.searchsorted(so, so)
    return rank < first
