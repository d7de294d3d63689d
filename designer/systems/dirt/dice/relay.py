"""Where a failed Big Attack can lose control when its rolled dice are laid again (``big_attack_failure:
achievable``, the reading of rulebook p. 16-17 "Grosse Attaque" and the default; see docs/rules-notes.md item 29).
This Python and numpy code is the reference; the solver runs the compiled form of :func:`layings` and
:func:`failure_classes` (``_relay.pyx``, :func:`designer.systems.dirt.dice.relaid.plan_classes`) where it is built.

After a failed Big Attack the driver takes every rolled die, its result unchanged, and lays them again as if
planning a move: on any legal route of the turn, not necessarily all of them, but enough to trigger the loss of
control, which happens on the cell of the hazard that caused it. So where it can happen depends on which dice
showed a hazard. For one plan this module lists every legal laying of (a part of) its dice from the boundary
(:func:`layings`: each step with the dice used before it and after it) and, for every way the dice can fall
that fails the attack, the points of the turn (cell, gear, finished, cuts entered) where some laying reaches
the loss of control (:func:`failure_classes`): the outcomes with the same points are one class, with their
chance added.

What a laying may do, die by die (the turn engine's legal moves, restricted to the rolled dice):

- a gear die keeps its number and its result; the white gas, red brake and orange leader dice of one kind
  showing a hazard and those showing none can be laid in any order the driver likes;
- the loss of control lies on the step where the hazards laid so far first reach the hazard limit, or on a
  long jump whose die shows a hazard (p. 12); the laying stops there. Steps before it must not lose control
  (no hazard on an earlier long-jump die), and a canon start's gear 2 showing a hazard ends a turn without a
  loss (p. 23), so a laying cannot start that way;
- a loss on the step that crosses the finish line still finishes (p. 20), only when the dice can be laid so.

*Decided*: a loss caused on purpose by entering a cell above its limit (the rulebook allows it: "à cause d'un
élément du circuit") is not offered: a laying here never breaks a limit. Leaving it out can only raise the
figure, which stays a time a driver achieves.
"""
from __future__ import annotations

import itertools
import math
import weakref

import numpy as np

from designer.systems.dirt.driving.dice_used import _BRAKE, _CANON, _GAS, _LEADER, _M, _POP

KINDS = (("gas", _GAS), ("brake", _BRAKE), ("leader", _LEADER))


def _counts(used: int) -> tuple:
    return tuple((used >> shift) & _M for _k, shift in KINDS)


_OPTIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()    # turn engine -> options of rolled dice


def layings(engine, cut, cell: int, gear: int, rolled: int) -> list[tuple]:
    """Every step of every legal laying of some of the dice ``rolled`` (packed as the turn engine packs them)
    from a boundary: ``(used before, jump dice before, used after, jump die of the step, point)``, the point
    ``(cell, gear, finished, cuts entered)`` after the step; each distinct step once, in the order found."""
    start = (cell, gear, 0, (), 0)
    seen = {start}
    todo = [start]
    out: dict = {}
    off = 63 & ~rolled
    gl, bl, ll = ((rolled >> s) & _M for _k, s in KINDS)
    per = _OPTIONS.get(engine)
    if per is None:
        per = _OPTIONS[engine] = {}
    kept = per.setdefault(rolled, {})               # the die options among the rolled dice per (gear, used)
    moves = engine.cell_moves
    while todo:
        c, g, used, jumps, cuts = todo.pop()
        opts = kept.get((g, used))
        if opts is None:
            opts = kept[(g, used)] = [
                opt for opt in engine.die_options(g, used)
                if not (opt[1] & off or ((opt[1] >> _GAS) & _M) > gl or ((opt[1] >> _BRAKE) & _M) > bl
                        or ((opt[1] >> _LEADER) & _M) > ll)]
        for opt in opts:
            nused = opt[1]
            for v, ng, term, step, jd in moves(c, g, opt):
                path = step[1]
                ncuts = min(15, cuts + (cut[path[0]] or cut[path[-1]]))
                point = (v, ng, term == 2, ncuts)
                out.setdefault((used, jumps, nused, jd, point), None)
                if term:
                    continue
                njumps = jumps if jd is None else tuple(sorted(jumps + (jd,)))
                key = (v, ng, nused, njumps, ncuts)
                if key not in seen:
                    seen.add(key)
                    todo.append(key)
    return list(out)


def outcomes(rules, rolled: int, jumps: tuple) -> list[tuple[float, tuple]]:
    """The ways the dice of a plan (``rolled``, its long-jump dice ``jumps``) fall that fail a Big Attack:
    ``(chance, (gear dice showing a hazard as bits, hazards among its gas, brake and leader dice))``, the chances
    of the same outcome added. A canon start's gear 2 shows no hazard here (its hazard ends the turn, p. 23)."""
    faces = rules.die_faces
    hz = {d: n / faces for d, n in rules.hazard_faces.items()}
    limit = rules.hazard_limit
    canon = bool(rolled & _CANON)
    gear_jumps = {int(j[4:]) for j in jumps if j.startswith("gear")}
    kind_jumps = [sum(1 for j in jumps if j == k) for k, _s in KINDS]
    gears = [k for k in range(1, 7) if rolled & (1 << (k - 1)) and not (canon and k == 2)]
    counts = _counts(rolled)
    out: dict = {}
    # every gear die on its own; of each kind, the plain dice by their number of hazards and each jump die alone
    for bits in itertools.product((0, 1), repeat=len(gears)):
        p_gear, mask, counted, jump_hit = 1.0, 0, 0, False
        for k, b in zip(gears, bits):
            h = hz[f"gear{k}"]
            p_gear *= h if b else 1 - h
            if b:
                mask |= 1 << (k - 1)
                if k in gear_jumps:
                    jump_hit = True
                else:
                    counted += 1
        per_kind = []
        for (kind, _s), n, nj in zip(KINDS, counts, kind_jumps):
            h = hz[kind]
            plain = n - nj
            rows = []
            for x in range(plain + 1):
                px = math.comb(plain, x) * h ** x * (1 - h) ** (plain - x)
                for y in range(nj + 1):
                    py = math.comb(nj, y) * h ** y * (1 - h) ** (nj - y)
                    rows.append((px * py, x, y))
            per_kind.append(rows)
        for combo in itertools.product(*per_kind):
            p = p_gear
            shown = counted
            hit = jump_hit
            for px, x, y in combo:
                p *= px
                shown += x
                hit = hit or y > 0
            if p <= 0 or not (hit or shown >= limit):
                continue
            key = (mask,) + tuple(x + y for _p, x, y in combo)
            out[key] = out.get(key, 0.0) + p
    return [(p, key) for key, p in out.items()]


def _loses(step: tuple, rolled: int, outcome: tuple, limit: int) -> bool:
    """Whether a laying can lose control on this step, given how the rolled dice fell."""
    used, jumps, nused, jd, _point = step
    mask, shown = outcome[0], outcome[1:]
    canon_now = bool(nused & _CANON) and not used & _CANON
    if used & _CANON and mask & 2:          # the laying started with a canon gear 2 showing a hazard: no loss
        return False
    if canon_now:                           # that step's gear 2 is not counted (p. 23)
        return False
    for j in jumps:                         # an earlier long-jump gear die showing a hazard lost control there
        if j.startswith("gear") and mask & (1 << (int(j[4:]) - 1)):
            return False
    pre = _POP[used & mask & 63]
    post = _POP[nused & mask & 63]
    room = 0
    jump_ok = jd is not None and jd.startswith("gear") and bool(mask & (1 << (int(jd[4:]) - 1)))
    for (kind, s), n, h in zip(KINDS, _counts(rolled), shown):
        a, d = (used >> s) & _M, ((nused >> s) & _M) - ((used >> s) & _M)
        clean = n - h
        nj = sum(1 for j in jumps if j == kind)
        if clean < nj:                      # an earlier long jump of this kind needs a die showing no hazard
            return False
        x0 = max(0, a - clean)              # the fewest hazards of this kind laid before the step
        x1 = min(a - nj, h)                 # the most (the long-jump dice before show none)
        if x0 > x1:
            return False
        pre += x0
        post += min(x0 + d, h)
        room += max(0, min(x1, h - d) - x0)      # each more hazard laid before raises what the step can reach
        if jd == kind and h - x0 >= 1:
            jump_ok = True
    if pre >= limit:
        return False
    return jump_ok or post + min(limit - 1 - pre, room) >= limit


def failure_classes(rules, steps: list[tuple], rolled: int, jumps: tuple, as_index: bool = False,
                    cache: dict | None = None):
    """For a plan of dice ``rolled`` (its long-jump dice ``jumps``) and its :func:`layings`: ``(chance, points)``
    for every set of points where the loss of control of a failed Big Attack can be laid, the chances of the
    outcomes giving the same set added (in the order of :func:`outcomes`). Every outcome and step at once
    (numpy); :func:`_loses` says the same of one step and one outcome. ``as_index``: (the points, the classes
    with their points as indexes in that list, and the number of the class of each outcome); ``cache``: a dict
    kept between calls on one ruleset."""
    known = {} if cache is None else cache.setdefault((rolled, jumps), {})
    outs = known.get(None)
    if outs is None:
        outs = known[None] = outcomes(rules, rolled, jumps)
    if not outs or not steps:
        return ([], [], {}) if as_index else []
    points = sorted({st[4] for st in steps})
    where = {pt: i for i, pt in enumerate(points)}
    # whether a step can lose depends on the dice before and after it, not on its cell: worked out once per
    # distinct (dice before, jump dice before, dice after, jump die) and plan dice
    sigs: dict = {}
    sig_of = np.array([sigs.setdefault(st[:4], len(sigs)) for st in steps], dtype=np.int64)
    fresh = [sg for sg in sigs if sg not in known]
    if fresh:
        got = _loses_all(_step_arrays(fresh), rolled, np.array([o for _p, o in outs], dtype=np.int64),
                         rules.hazard_limit)
        for i, sg in enumerate(fresh):
            known[sg] = got[:, i]
    ok = np.stack([known[sg] for sg in sigs], axis=1)[:, sig_of]
    hit = np.zeros((len(outs), len(points)), dtype=bool)
    o_idx, s_idx = np.nonzero(ok)
    hit[o_idx, np.array([where[st[4]] for st in steps], dtype=np.int64)[s_idx]] = True
    out: dict = {}
    which: dict = {}                     # outcome -> number of its class
    for (p, o), row in zip(outs, hit):
        key = row.tobytes()
        if key in out:
            out[key][0] += p
        else:
            out[key] = [p, np.nonzero(row)[0], len(out)]
        which[o] = out[key][2]
    return [(p, tuple(points[i] for i in idx.tolist())) for p, idx, _n in out.values()] if not as_index else \
        (points, [(p, idx) for p, idx, _n in out.values()], which)


_BITS = np.array(_POP, dtype=np.int64)


def _step_arrays(steps: list[tuple]) -> dict:
    """The steps of :func:`layings` as arrays over steps (what :func:`_loses_all` reads)."""
    used = np.array([st[0] for st in steps], dtype=np.int64)
    nused = np.array([st[2] for st in steps], dtype=np.int64)
    gear_jumps = np.array([sum(1 << (int(j[4:]) - 1) for j in st[1] if j.startswith("gear")) for st in steps],
                          dtype=np.int64)
    jd = [st[3] for st in steps]
    return {
        "pre_g": used & 63, "post_g": nused & 63, "jumps_g": gear_jumps,
        "canon_before": (used & _CANON) != 0, "canon_now": ((nused & _CANON) != 0) & ((used & _CANON) == 0),
        "a": [(used >> s) & _M for _k, s in KINDS],
        "d": [((nused >> s) & _M) - ((used >> s) & _M) for _k, s in KINDS],
        "nj": [np.array([sum(1 for j in st[1] if j == k) for st in steps], dtype=np.int64) for k, _s in KINDS],
        "jd_g": np.array([1 << (int(j[4:]) - 1) if j and j.startswith("gear") else 0 for j in jd], dtype=np.int64),
        "jd_kind": [np.array([j == k for j in jd]) for k, _s in KINDS],
    }


def _loses_all(arr: dict, rolled: int, outs: np.ndarray, limit: int) -> np.ndarray:
    """:func:`_loses` for every outcome (rows of ``outs``: gear hazard bits, hazards of each kind) and every
    step at once: a boolean [outcome, step]."""
    mask = outs[:, :1]
    bad = (arr["canon_before"][None, :] & ((mask & 2) != 0)) | arr["canon_now"][None, :]
    bad |= (arr["jumps_g"][None, :] & mask) != 0
    pre = _BITS[arr["pre_g"][None, :] & mask]
    post = _BITS[arr["post_g"][None, :] & mask]
    room = np.zeros_like(pre)
    jump_ok = (arr["jd_g"][None, :] & mask) != 0
    for i, n in enumerate(_counts(rolled)):
        h = outs[:, 1 + i:2 + i]
        a, d, nj = arr["a"][i][None, :], arr["d"][i][None, :], arr["nj"][i][None, :]
        clean = n - h
        x0 = np.maximum(0, a - clean)
        x1 = np.minimum(a - nj, h)
        bad |= (clean < nj) | (x0 > x1)
        pre = pre + x0
        post = post + np.minimum(x0 + d, h)
        room = room + np.maximum(0, np.minimum(x1, h - d) - x0)
        jump_ok |= arr["jd_kind"][i][None, :] & (h - x0 >= 1)
    return ~bad & (pre < limit) & (jump_ok | (post + np.minimum(limit - 1 - pre, room) >= limit))


def plan_dice(plan_steps) -> tuple[int, tuple]:
    """The dice of a plan (its steps: dice, cells, gear, events) packed as the turn engine packs them, with the
    canon mark, and its long-jump dice (sorted labels)."""
    used, jumps = 0, []
    for dice, _path, _g, events in plan_steps:
        if "canon" in events:
            used |= _CANON
        if "long-jump" in events:
            jumps.append(dice[0])
        for d in dice:
            if d.startswith("gear"):
                used |= 1 << (int(d[4:]) - 1)
            else:
                used += 1 << dict(KINDS)[d]
    return used, tuple(sorted(jumps))


class _Entries:
    """The failure classes of plans (:func:`plan_classes`) one after the other in flat arrays, for the compiled
    spread: entry e has the classes ``start[e]`` to ``start[e] + count[e]`` of ``prob`` (their chances) and ``ids``
    (the number of each class's set of points). One entry per distinct classes (kept by identity)."""

    def __init__(self):
        self.start = np.zeros(0, dtype=np.int64)
        self.count = np.zeros(0, dtype=np.int64)
        self.prob = np.zeros(0)
        self.ids = np.zeros(0, dtype=np.int64)
        self.n = self.size = 0
        self.known: dict = {}                     # id of the classes -> (the classes, their entry)
        self.by_dice: dict = {}                   # (cell, gear, (dice used, jump dice)) -> entry

    def add(self, cl: tuple) -> int:
        hit = self.known.get(id(cl))
        if hit is not None and hit[0] is cl:
            return hit[1]
        probs, ids = cl[0], cl[4]
        e, k = self.n, len(probs)
        if e == len(self.start):
            self.start = np.concatenate([self.start, np.zeros(max(64, e), dtype=np.int64)])
            self.count = np.concatenate([self.count, np.zeros(max(64, e), dtype=np.int64)])
        if self.size + k > len(self.prob):
            grow = max(1024, self.size + k)
            self.prob = np.concatenate([self.prob, np.zeros(grow)])
            self.ids = np.concatenate([self.ids, np.zeros(grow, dtype=np.int64)])
        self.start[e], self.count[e] = self.size, k
        self.prob[self.size:self.size + k] = probs
        self.ids[self.size:self.size + k] = ids
        self.size += k
        self.n += 1
        self.known[id(cl)] = (cl, e)
        return e


def _entries(model) -> _Entries:
    store = model._relay_cache.get("entries")
    if store is None:
        store = model._relay_cache["entries"] = _Entries()
    return store


class _Which:
    """The number of the class of each failing outcome (by its key, as :func:`outcomes` gives it), made into
    a dict when first asked (only the Monte Carlo player asks)."""

    def __init__(self, outs: list, which: np.ndarray):
        self.outs, self.which, self.known = outs, which, None

    def __getitem__(self, outcome: tuple) -> int:
        if self.known is None:
            self.known = {o: k for (_p, o), k in zip(self.outs, self.which.tolist())}
        return self.known[outcome]


def _by_dice(model, search) -> tuple:
    """The numbers of the points of a search's candidates in rising order of their dice, and their dice."""
    hit = search.cache.get("by_dice")
    if hit is None:
        every = model.numbers._every(search, model.steps)
        nums = every[np.arange(search.n), search.depth]
        order = np.argsort(search.dice, kind="stable")
        hit = search.cache["by_dice"] = (nums[order], search.dice[order])
    return hit
