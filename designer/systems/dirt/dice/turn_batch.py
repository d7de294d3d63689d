"""The outcomes of one turn from a boundary for several token counts at once: the same lists, in the same order and
with the same chances, as :func:`.replay.turn_outcomes` gives for each count alone (its reference), with less work.

Following the policy (:meth:`designer.racing.mdp.Solution.stats`) asks for the turn of every (boundary, tokens)
the policy reaches; a boundary is often reached with several token counts that share a decision.

- One by one, the chances are carried over (hazards shown, dice secured, tokens held) from every starting count
  at once: the tokens held with k dice secured are the starting count less 1 + ... + k, so the starting counts
  never meet, and each one's chances are added in the same order as alone. What to do before each die is read
  from the replay's table of choices (:meth:`.replay.Replay.codes`), worked out once.
- A Big Attack's failures laid again (``achievable``) are worked out for every count after the attack at once
  (:func:`relay_outcomes_many`, the same as :func:`.relaid.relay_outcomes` for each); two counts whose terms are
  the same lists with the same chances share one merging (only the tokens differ).
- The plan is read from the boundary's plan set (no set of one); a Big Attack does not value its points.

Where the compiled replay (``_turns``) is built, the table of choices, the chances carried die by die, the
cheapest laying of each class of failures and the merging of the outcome lists run in C, with the same
arithmetic in the same order (outcome lists are handed over as rows of numbers, kept per model); the numpy and
Python code (``compiled=False``) is their reference, and tests/test_turn_batch.py compares both with it.
"""
from __future__ import annotations

import weakref
from array import array
from types import SimpleNamespace

import numpy as np

from designer.racing.mdp import Outcome
from designer.systems.dirt.dice.plan_search import PlanSteps
from designer.systems.dirt.dice.plans import BIG, X, LazyPlanSet, secure_cost
from designer.systems.dirt.dice.relaid import _classes_of, plan_classes
from designer.systems.dirt.dice.replay import add_outcomes as _add
from designer.systems.dirt.dice.replay import cheapest_from, codes_of, turn_outcomes
from designer.systems.dirt.dice.rollout import first_loss, roll_values

try:                       # the compiled replay, built when the package is installed (setup.py)
    from designer.systems.dirt.dice import _turns as COMPILED
except ImportError:        # pragma: no cover - no compiler where it was installed: numpy, slower
    COMPILED = None
if COMPILED is not None and COMPILED.LAYOUT != (X, BIG):
    COMPILED = None        # built for other hazard counts per step or another BIG: not usable


def turn_outcomes_many(model, state, decisions: dict, value, compiled: bool = True) -> dict:
    """``{tokens: decision}`` -> ``{tokens: outcomes}`` of one turn of a :class:`~.turn_model.DirtModel` from
    ``state``: for each, what ``turn_outcomes(model, state, tokens, decision, value)`` gives. With the SISU token
    held (its rescue is read from the model's replay) each count is worked out alone, by the reference.
    ``compiled``: use the compiled replay where built (False: numpy and Python only, its reference)."""
    groups: dict = {}
    for t, d in decisions.items():
        groups.setdefault(d, []).append(t)
    out: dict = {}
    for d, banks in groups.items():
        if d.mode in ("roll", "attack") and not state[2][4]:
            plan = _Plan(model, state, d, value)
            out.update(_roll_many(model, state[2], plan, banks, compiled) if d.mode == "roll" else
                       _attack_many(model, state, plan, banks, value, compiled))
        else:
            for t in banks:
                out[t] = turn_outcomes(model, state, t, d, value)
    return out


class _Plan:
    """The plan of a decision with what replaying it reads, as :meth:`~.turn_model.DirtModel.single` gives it
    (the same numbers), read from the boundary's plan set without making a set of one: ``points`` (cell, gear,
    finished, cuts), ``q``, ``pj``, ``pc``, ``m`` per point, ``stop``/``loss[point, tokens]``."""

    def __init__(self, model, state, decision, value):
        cell, gear, damage = state
        ps = model.plans(cell, gear, damage)
        p = decision.plan
        L = self.length = int(ps.length[p])
        self.gain = int(ps.gain[p])
        self._set, self._p = ps, p
        self._len = ps.length[p:p + 1]
        if isinstance(ps, LazyPlanSet) and "cell" not in ps.__dict__:      # its step rows, as subset reads them
            table, cell0, gear0 = ps._source
            ids = ps.sid[p, :L + 1]
            ints, floats = table.ints[ids], table.floats[ids]
            self.q, self.pj, self.pc, self.m = floats[:, 2:], floats[:, 1], floats[:, 0], ints[:, 3]
            points, cuts = [], 0                 # (cell, gear, finished, cuts entered so far) of each step
            for c, g, f, _m, cut, _g in ints.tolist():
                cuts += cut
                points.append((c, g, f != 0, cuts))
            points[0] = (cell0, gear0) + points[0][2:]
            self.points = points
        else:
            cells, gears, fin = ps.cell[p, :L + 1].tolist(), ps.gear[p, :L + 1].tolist(), ps.fin[p, :L + 1].tolist()
            self.q, self.pj, self.pc, self.m = ps.q[p, :L + 1], ps.pj[p, :L + 1], ps.pc[p, :L + 1], ps.m[p, :L + 1]
            cuts = ps.cuts[p, :L + 1].tolist()
            self.points = list(zip(cells, gears, fin, cuts))
        self._values = (model, damage, value)

    def __getattr__(self, name):
        """``stop`` and ``loss``, worked out when first read (a Big Attack reads neither, unless latest)."""
        if name not in ("stop", "loss"):
            raise AttributeError(name)
        model, damage, value = self._values
        of = model.numbers.of
        nums = [0] + [of(pt) for pt in self.points[1:]]            # 0: the start is no point
        both = model.fill(damage, np.array(nums, dtype=np.int64), value)[nums]
        self.stop, self.loss = both[:, 0], both[:, 1]
        return getattr(self, name)

    def classes(self, model, cell: int, gear: int) -> tuple:
        """:func:`.relaid.plan_classes` of the plan (read from its search where its set keeps one)."""
        ps, p = self._set, self._p
        if isinstance(ps.steps, PlanSteps):
            return _classes_of(model, cell, gear, ps, p)
        return plan_classes(model, cell, gear, ps.steps[p])

    def one(self) -> SimpleNamespace:
        """The plan as a set of one (what the roll-outs read)."""
        return SimpleNamespace(q=self.q[None], pj=self.pj[None], pc=self.pc[None], m=self.m[None], length=self._len)

    def first(self, limit: int) -> tuple:
        return first_loss(self.one(), limit)

    def codes(self, limit: int, K: int, compiled: bool = True):
        """:meth:`.replay.Replay.codes` of the plan rolled one by one (compiled where built, else numpy)."""
        if compiled and COMPILED is not None:
            return COMPILED.roll_codes(self.q, self.pj, self.pc, self.m.astype(np.int64, copy=False), self.stop,
                                       self.loss, limit, K)
        _, table = roll_values(self.one(), self.stop[None], self.loss[None], limit, K, keep=True)
        U = np.stack([u[0] for u in table])
        return codes_of(U, self.q, self.pj.tolist(), self.pc.tolist(), self.m.tolist(), self.stop, self.loss,
                        self.length, K)


def _roll_many(model, damage: tuple, plan: _Plan, banks: list, compiled: bool = True) -> dict:
    H, K1, T1, L, limit = model.limit, model.K + 1, model.T1, plan.length, model.limit
    codes = plan.codes(limit, model.K, compiled)
    points = plan.points
    if compiled and COMPILED is not None and T1 <= 256:
        return _roll_compiled(model, damage, plan, banks, codes)
    qs, pjs, pcs, ms = plan.q.tolist(), plan.pj.tolist(), plan.pc.tolist(), plan.m.tolist()
    spent = [k * (k + 1) // 2 for k in range(K1)]       # tokens paid to secure k dice (1 + ... + k)
    chances = {t: {} for t in banks}
    labels = {t: {} for t in banks}
    stops: dict = {}
    losses: dict = {}

    def stop_at(i):
        hit = stops.get(i)
        if hit is None:
            hit = stops[i] = model.stop_outcomes(*points[i], damage)
        return hit

    def loss_at(j):
        hit = losses.get(j)
        if hit is None:
            hit = losses[j] = model.loss_outcomes(*points[j], damage)
        return hit

    mass = {(0, 0, t): 1.0 for t in banks}
    for i in range(L + 1):
        nxt: dict = {}
        for (h, k, tok), p in mass.items():
            act = codes[((i * H + h) * K1 + k) * T1 + tok] if i < L else 0
            start = tok + spent[k]
            if act == 0:
                _add(chances[start], labels[start], p, stop_at(i), tok, 0.0, "stop")
                continue
            j = i + 1
            if act == 2:
                m = ms[j]
                key = (h, k + m, tok - secure_cost(k, m))
                nxt[key] = nxt.get(key, 0.0) + p
                continue
            pj, pc = pjs[j], pcs[j]
            chance, label = chances[start], labels[start]
            if pc:
                _add(chance, label, p * pc, stop_at(j), tok, 0.0, "canon")
            if pj:
                _add(chance, label, p * (1 - pc) * pj, loss_at(j), tok, 0.0, "loss")
            rest = p * (1 - pc) * (1 - pj)
            for x, qx in enumerate(qs[j]):
                if not qx:
                    continue
                if h + x >= limit:
                    _add(chance, label, rest * qx, loss_at(j), tok, 0.0, "loss")
                else:
                    key = (h + x, k, tok)
                    nxt[key] = nxt.get(key, 0.0) + rest * qx
        mass = nxt
    return {t: [Outcome(pr, *key, labels[t][key]) for key, pr in chances[t].items() if pr > 0] for t in banks}


LABELS = ("stop", "canon", "loss")


class _Rows:
    """Outcome lists (chance, seconds, next state, loss) as rows of numbers for the compiled merging, kept per
    model: each entry's chance and the number of its (seconds, next state, loss). A list is known by its id()
    while the row keeps the list itself (so the id is never another list's)."""

    def __init__(self):
        self.keys: dict = {}
        self.named: list = []                 # number -> (seconds, next state, loss)
        self.chance = array("d")
        self.key_of = array("q")
        self.starts = array("q", [0])
        self.known: dict = {}                 # (id() of a list, credit) -> (its row, the list), credit not 0
        self.plain: dict = {}                 # id() of a list -> (its row, the list), no credit
        self.laid: dict = {}                  # (damage, credit) -> {point number: the row of its loss of control}
        self.ends: dict = {}                  # damage -> {point: the rows of its stop and of its loss of control}

    def point_rows(self, model, points: list, damage: tuple) -> tuple:
        """The rows of the stop and of the loss of control at each of ``points`` after the first (the first: the
        empty list), as two lists."""
        at = self.ends.get(damage)
        if at is None:
            at = self.ends[damage] = {}
        empty = self.row(())
        stops, losses = [empty], [empty]
        for pt in points[1:]:
            both = at.get(pt)
            if both is None:
                both = at[pt] = (self.row(model.stop_outcomes(*pt, damage)), self.row(model.loss_outcomes(*pt, damage)))
            stops.append(both[0])
            losses.append(both[1])
        return stops, losses

    def row(self, outs, credit=0.0) -> int:
        """The row of ``outs``, its seconds less ``credit`` (the tokens of a Big Attack beyond the bound); a list
        not met yet is added by ``_turns.add_row`` where built, else by :meth:`row_python`, its reference."""
        hit = self.plain.get(id(outs)) if not credit else self.known.get((id(outs), credit))
        if hit is not None and hit[1] is outs:
            return hit[0]
        row = COMPILED.add_row(self, outs, credit) if COMPILED is not None else self.row_python(outs, credit)
        if credit:
            self.known[(id(outs), credit)] = (row, outs)
        else:
            self.plain[id(outs)] = (row, outs)
        return row

    def row_python(self, outs, credit=0.0) -> int:
        """Append the row of ``outs`` (numbering the entries' keys not met yet) and return it."""
        keys, named = self.keys, self.named
        numbers = []
        for _q, sec, nxt, lost in outs:
            key = (sec - credit, nxt, lost)
            k = keys.get(key)
            if k is None:
                k = keys[key] = len(named)
                named.append(key)
            numbers.append(k)
        self.chance.extend([o[0] for o in outs])
        self.key_of.extend(numbers)
        self.starts.append(len(self.chance))
        return len(self.starts) - 2

    def arrays(self) -> tuple:
        return self.chance, self.key_of, self.starts, max(1, len(self.named))

    def made(self, labels: tuple) -> tuple:
        """What the compiled merging makes its outcomes with: the numbered (seconds, next state, loss), the names
        of the labels and the Outcome class (each one made from its six fields, as ``_make`` does)."""
        return self.named, labels, Outcome


_ROWS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()       # model -> its _Rows


def _rows(model) -> _Rows:
    hit = _ROWS.get(model)
    if hit is None:
        hit = _ROWS[model] = _Rows()
    return hit


def _roll_compiled(model, damage: tuple, plan: _Plan, banks: list, codes: bytes) -> dict:
    """:func:`_roll_many` with the chances carried and merged in C (``_turns.roll_turns``): each outcome list
    of the plan's points given as rows of numbers, its entries' (seconds, next state, loss) numbered."""
    rows = _rows(model)
    stop_list, loss_list = rows.point_rows(model, plan.points, damage)
    merged = COMPILED.roll_turns(codes, plan.q, plan.pj, plan.pc, plan.m.astype(np.int64, copy=False), model.limit,
                                 model.K, model.T1, banks, np.array(stop_list, dtype=np.int64),
                                 np.array(loss_list, dtype=np.int64), *rows.arrays(), *rows.made(LABELS))
    return dict(zip(banks, merged))


ATTACK_LABELS = ("canon", "attack", "attack-failed")


def _attack_many(model, state, plan: _Plan, banks: list, value, compiled: bool = True) -> dict:
    cell, gear, damage = state
    fail, ok = plan.first(model.limit)
    n = plan.length
    gain, top = plan.gain, model.T1 - 1
    pc = plan.pc[1]
    canon = model.stop_outcomes(*plan.points[1], damage) if pc else None
    end = model.stop_outcomes(*plan.points[n], damage)
    after = {t: (min(t + gain, top), max(0, t + gain - top)) for t in banks}
    if compiled and COMPILED is not None:
        parts = (fail, ok, pc, canon, end, after)
        if model.achievable:
            return _attack_relaid(model, banks, value, damage, parts, plan.classes(model, cell, gear))
        return _attack_compiled(model, plan, banks, value, damage, parts)
    laid = sorted({b for b, _c in after.values()})
    relays = _relay_many(model, plan.classes(model, cell, gear), damage, laid, value, False) \
        if model.achievable else None
    merged: dict = {}            # the terms of a count -> its outcomes, merged without credit
    kept = []                    # every term's list stays alive while its id() is a key
    out = {}
    for t in banks:
        bank, credit = after[t]
        terms = []
        if pc:
            terms.append((pc, canon, "canon"))
        terms.append(((1 - pc) * ok[0], end, "attack"))
        if relays is not None:             # each class of failures laid at its cheapest point
            for prob, pt, _v in relays[bank]:
                terms.append(((1 - pc) * prob, model.loss_outcomes(*pt, damage), "attack-failed"))
        else:                              # on the failing step (as_laid) or the cheapest point from it (latest)
            cheapest = cheapest_from(plan.loss[:n + 1, bank].tolist()) if model.latest else None
            for j in range(1, n + 1):
                if fail[0, j] > 0:
                    jj = cheapest[j] if cheapest is not None else j
                    terms.append(((1 - pc) * fail[0, j], model.loss_outcomes(*plan.points[jj], damage),
                                  "attack-failed"))
        kept.append(terms)
        sig = tuple((f, id(outs), info) for f, outs, info in terms) if credit == 0 else None
        same = merged.get(sig) if sig is not None else None
        if same is not None:                  # the same terms: the same merging, only the tokens differ
            out[t] = [Outcome(o.p, o.seconds, o.state, bank, o.loss, o.info) for o in same]
            continue
        chance: dict = {}
        label: dict = {}
        for f, outs, info in terms:
            _add(chance, label, f, outs, bank, credit, info)
        out[t] = [Outcome(pr, *key, label[key]) for key, pr in chance.items() if pr > 0]
        if sig is not None:
            merged[sig] = out[t]
    return out


def _attack_compiled(model, plan: _Plan, banks: list, value, damage: tuple, parts: tuple) -> dict:
    """:func:`_attack_many`'s terms (the same chances, in the same order) merged in C for every count at once, the
    failures laid on the failing step (as_laid) or the cheapest point from it (latest)."""
    fail, ok, pc, canon, end, after = parts
    n = plan.length
    rows = _rows(model)
    row, loss_outcomes, points = rows.row, model.loss_outcomes, plan.points
    rest = 1 - pc
    failing = [(j, rest * fail[0, j]) for j in range(1, n + 1) if fail[0, j] > 0]
    lost: dict = {}                          # (point of the plan, credit) -> the row of its loss of control
    ev_slot, ev_p, ev_list, ev_tok, ev_label = [], [], [], [], []
    ends: dict = {}                          # credit -> the rows of the canon's stop and of the attack's end
    success = rest * ok[0]
    for slot, t in enumerate(banks):
        bank, credit = after[t]
        both = ends.get(credit)
        if both is None:
            both = ends[credit] = (row(canon, credit) if pc else -1, row(end, credit))
        if pc:
            ev_slot.append(slot), ev_p.append(pc), ev_list.append(both[0]), ev_tok.append(bank)
            ev_label.append(0)
        ev_slot.append(slot), ev_p.append(success), ev_list.append(both[1]), ev_tok.append(bank)
        ev_label.append(1)
        cheapest = cheapest_from(plan.loss[:n + 1, bank].tolist()) if model.latest else None
        for j, f in failing:
            jj = cheapest[j] if cheapest is not None else j
            r = lost.get((jj, credit))
            if r is None:
                r = lost[(jj, credit)] = row(loss_outcomes(*points[jj], damage), credit)
            ev_slot.append(slot), ev_p.append(f), ev_list.append(r), ev_tok.append(bank), ev_label.append(2)
    merged = COMPILED.merge(np.array(ev_slot, dtype=np.int64), np.array(ev_p, dtype=np.float64),
                            np.array(ev_list, dtype=np.int64), np.array(ev_tok, dtype=np.int64),
                            np.array(ev_label, dtype=np.int64), *rows.arrays(), model.T1, len(banks),
                            *rows.made(ATTACK_LABELS))
    return dict(zip(banks, merged))


_NO_CLASSES = (np.zeros((1, 2, 1)), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0))


def _int64(a: np.ndarray) -> np.ndarray:
    return a if a.dtype == np.int64 and a.flags.c_contiguous else np.ascontiguousarray(a, dtype=np.int64)


def _attack_relaid(model, banks: list, value, damage: tuple, parts: tuple, classes: tuple) -> dict:
    """:func:`_attack_many` under the reading achievable in one compiled call (``_turns.attack_turns``): where each
    class of failures is laid (:func:`.relaid.relay_outcomes`, as ``_turns.relay_pick`` picks it) and the terms
    merged for every count at once, the same chances in the same order as the reference."""
    _fail, ok, pc, canon, end, after = parts
    rows = _rows(model)
    row = rows.row
    probs, nums, starts, _which, _ids = classes
    if len(nums):
        picks = (model.fill(damage, nums, value), _int64(nums), _int64(starts), np.ascontiguousarray(probs,
                                                                                                   dtype=np.float64))
    else:
        picks = _NO_CLASSES
    group: dict = {}                         # credit -> its number
    credits, canon_rows, end_rows, at = [], [], [], []
    toks, groups = [], []
    for t in banks:
        bank, credit = after[t]
        g = group.get(credit)
        if g is None:                        # the rows of the canon's stop, of the attack's end and of the
            g = group[credit] = len(credits)     # losses of control laid by point number, with that credit
            credits.append(credit)
            canon_rows.append(row(canon, credit) if pc else -1)
            end_rows.append(row(end, credit))
            laid = rows.laid.get((damage, credit))
            if laid is None:
                laid = rows.laid[(damage, credit)] = {}
            at.append(laid)
        toks.append(bank)
        groups.append(g)
    names, loss_outcomes = model._point_list, model.loss_outcomes

    def make_row(num: int, g: int) -> int:
        r = at[g][num] = row(loss_outcomes(*names[num], damage), credits[g])
        return r

    rest = 1 - pc
    merged = COMPILED.attack_turns(*picks, toks, groups, at, canon_rows, end_rows, pc, rest * ok[0], rest, make_row,
                                   rows, model.T1, ATTACK_LABELS, Outcome)
    return dict(zip(banks, merged))


def relay_outcomes_many(model, cell: int, gear: int, plan_steps, damage: tuple, banks: list, value,
                        compiled: bool = True) -> dict:
    """``{bank: relay_outcomes(model, cell, gear, plan_steps, damage, bank, value)}`` for several counts of tokens
    after the attack at once (:func:`.relaid.relay_outcomes`: each class of failures at its cheapest point, the
    first of equal ones; the chances of the classes laid at one point added in the classes' order)."""
    return _relay_many(model, plan_classes(model, cell, gear, plan_steps), damage, banks, value, compiled)


def _relay_many(model, classes: tuple, damage: tuple, banks: list, value, compiled: bool = True) -> dict:
    probs, nums, starts, _which, _ids = classes
    if not len(nums):
        return {b: [] for b in banks}
    table = model.fill(damage, nums, value)
    sizes = np.diff(np.append(starts, len(nums)))
    live = sizes > 0
    first = starts[live]
    weights = probs[live].tolist()
    names = model._point_list
    if compiled and COMPILED is not None:
        where, chance, cost = COMPILED.relay_pick(table, np.ascontiguousarray(nums, dtype=np.int64),
                                                  first.astype(np.int64, copy=False), np.array(weights), banks)
        return {b: [(p, names[num], v) for num, p, v in zip(where[c], chance[c], cost[c])]
                for c, b in enumerate(banks)}
    vals = table[nums[:, None], 1, np.array(banks)[None, :]]                      # [point of a class, bank]
    low = np.minimum.reduceat(vals, first, axis=0)
    seg = np.repeat(np.arange(len(first)), sizes[live])
    rows = np.arange(len(nums))[:, None]
    pick = np.minimum.reduceat(np.where(vals == low[seg], rows, len(nums)), first, axis=0)   # [class, bank]
    where = nums[pick].T.tolist()
    cost = vals[pick, np.arange(len(banks))[None, :]].T.tolist()
    out = {}
    for c, b in enumerate(banks):
        chance: dict = {}
        at: dict = {}
        for w, num, v in zip(weights, where[c], cost[c]):
            chance[num] = chance.get(num, 0.0) + w
            at[num] = v
        out[b] = [(chance[num], names[num], at[num]) for num in sorted(chance)]
    return out
