"""The plans of dice a DIRT driver can lay from one turn boundary, as arrays, and the best way to roll each.

A *plan* is a legal turn laid on the track before rolling (rulebook p. 8, "Avant de lancer les dés, le joueur
doit d'abord les poser sur la Piste").

Which plans are searched (:func:`search_plans`, :func:`pareto_plans`, in :mod:`.plan_search`, compiled where
the extension is built). A rulebook boundary has about ten
thousand legal turns that differ in what their value depends on, too many to roll out at every boundary. For
each distinct end (cell, gear, finished) the search keeps the Pareto set over the two numbers that decide a
Big Attack ending there: the chance that the dice show a loss of control when all are rolled (risk) and the
seconds tokens they earn (gain). For every gain reachable at that end it finds the least risky dice (fewest
dice on a tie, then the first found in order of dice used) and keeps them unless a plan to the same end earns
as many tokens or more for no more risk. In what sense this is complete:

- every end a legal turn can reach is kept, with its least risky plan and with its greatest gain: without
  hazard faces the optimum is exact (a test checks it against every legal turn of the engine), and the
  optimum under hazards can never fall below it;
- under hazards no trade of more risk for more tokens is lost at any end.

What it leaves out: among plans to one end, those off the frontier, and other orders or routes with the same
risk and gain. They can only matter through where the driver may stop one by one, what securing costs, or
where a failed Big Attack lands. Under the reading ``big_attack_failure: as_laid`` where a failed Big Attack
lands is kept: plans are also told apart by their failure profile (the order of their dice where it changes the
chance of a loss, with the gear, finish and cuts of each such step) and every end, gain and profile keeps its
least risky plan, with no frontier (:func:`.plan_search.search_plans`): every order of the dice is offered
to a Big Attack, while two routes with the same dice in the same order (one lane or the other) stay one plan,
as under every reading. Keeping only the least risky plan per end (the earlier rule) was not enough:
without hazard faces every plan has risk 0, the one with the fewest dice was kept, and the tokens of longer
plans to the same end were never counted. The optimum is exact over the plans searched, and a time a driver
can really achieve (an upper bound of the optimum over every legal plan).

From a boundary the driver then either

- rolls the dice **one by one** (p. 16): before each die (or brake move) he may stop (after the first),
  roll it, or secure it with seconds tokens (p. 17: the k-th die secured in a turn costs k seconds; a brake
  move is secured whole); reaching the hazard limit is a loss of control on that die's cell;
- or makes a **Big Attack** (p. 16-17): every die rolled at once, one seconds token per gear, gas or leader
  die (brake dice earn none), kept whatever happens; on a failure the loss of control lies on the step whose
  dice, laid again on any legal route, first reach the limit at least cost (the stage option
  ``big_attack_failure: achievable``, the rulebook's reading and the default: :mod:`.relay`), on the step whose
  dice first reach the hazard limit (``as_laid``), or at any point of the same plan at or after it (``latest``).

:func:`designer.systems.dirt.dice.rollout.roll_values` finds the best stopping and securing rule of every plan at once
(numpy over plans, hazards so far ``h``, dice secured so far ``k`` and tokens held ``t``), by backward induction
along the plan; :func:`~designer.systems.dirt.dice.rollout.attack_values` values a Big Attack.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from designer.systems.dirt.dice import plan_search
from designer.systems.dirt.dice.plan_search import (PlanSteps, Search, chosen, pareto_index, pareto_plans,  # noqa: F401
                                                    search_plans)

BIG = 1e9          # a value no policy takes (finite, so that 0 * BIG stays 0)
X = 6              # hazard counts of one step: 0..5 (a gear die and up to four brake dice: six gears at most)


@dataclass
class PlanSet:
    """Every plan from one turn boundary. Arrays are indexed [plan, point]; point 0 is the start."""
    length: np.ndarray        # (P,) steps of each plan
    cell: np.ndarray          # (P, L+1) cell index after each step
    gear: np.ndarray          # (P, L+1) gear after each step
    fin: np.ndarray           # (P, L+1) the step crossed the finish line
    q: np.ndarray             # (P, L+1, X) chance of x hazards among the counted dice of the step
    pj: np.ndarray            # (P, L+1) chance of a loss of control by a long-jump die's hazard
    pc: np.ndarray            # (P, L+1) chance a canon-start gear 2 shows a hazard (the turn ends, p. 23)
    m: np.ndarray             # (P, L+1) dice of the step (what securing it costs in dice)
    cuts: np.ndarray          # (P, L+1) cuts entered up to and including the step
    gain: np.ndarray          # (P,) seconds tokens a Big Attack of the plan earns
    steps: list               # per plan: tuple of (dice, cell indexes, gear, events)
    rescue: tuple | None = None   # with the SISU token held: what cancelling a loss of control leads to
    points: list | None = None    # the numbers of its distinct points (PointNumbers.distinct)
    need: np.ndarray | None = None    # (P, 4) gear (red-zone brakes too), gas, brake, leader dice of each plan
    sid: np.ndarray | None = None     # (P, L+1) row of each step in the StepTable (0: no step), when known
    gidx: np.ndarray | None = None    # (P, L+1) number of each point (PointNumbers.index)
    first: tuple | None = None        # first_loss of the plans, once asked for (a replayed decision)

    @property
    def n(self) -> int:
        return len(self.length)

    @property
    def width(self) -> int:
        return self.cell.shape[1] - 1


class StepTable:
    """What each distinct step of a plan means under the dice, as rows of arrays (one table per ruleset and
    road: steps are shared by many plans). Row 0 stands for "no step": no hazard, one die, no cut, no gain."""

    def __init__(self, rules, cut_cells):
        self.hz = {d: n / rules.die_faces for d, n in rules.hazard_faces.items()}
        self.cut_cells = cut_cells
        self.ids: dict = {}
        self.by_object: dict = {}        # id() of a step object seen -> its row (the objects are kept alive)
        self._kept: list = []
        self.n = 1
        # ints: cell, gear, finished, dice, cut entered, gain; floats: canon hazard, long-jump hazard, q[0..X-1]
        self.ints = np.zeros((256, 6), dtype=np.int64)
        self.floats = np.zeros((256, 2 + X))
        self.ints[0, 3] = 1
        self.floats[0, 2] = 1.0

    def id(self, step) -> int:
        i = self.by_object.get(id(step))          # the turn engine hands out the same step objects again
        if i is not None:
            return i
        i = self.ids.get(step)
        self.by_object[id(step)] = i if i is not None else self.n
        self._kept.append(step)
        if i is None:
            i = self.ids[step] = self.n
            if i >= len(self.ints):
                self.ints = np.concatenate([self.ints, np.zeros_like(self.ints)])
                self.floats = np.concatenate([self.floats, np.zeros_like(self.floats)])
            cell, gear, fin, pc, pj, q, m, cut, gain = _features(step, self.hz, self.cut_cells)
            self.ints[i] = (cell, gear, fin, m, cut, gain)
            self.floats[i, :2] = (pc, pj)
            self.floats[i, 2:] = q
            self.n += 1
        return i


def plan_set(engine, cell: int, gear: int, table: StepTable, pool=None, search=None) -> PlanSet:
    """The plans of a turn boundary (cell index, gear) under ``engine`` (a TurnEngine: one dashboard column);
    ``table`` is shared by the calls on one road and ruleset. The plans are those of :func:`pareto_plans`;
    ``search`` (a :func:`search_plans` of the same boundary under a larger pool) and ``pool`` reuse one search
    for a pool with fewer dice: the rows of step numbers of its candidates are worked out once and shared by
    every plan set taken from it."""
    if search is None:
        search = search_plans(engine, cell, gear)
    cand, ids, length, gains, _ = chosen(search, table, pool, need=False)
    return LazyPlanSet(table, cell, gear, ids, length, gains, PlanSteps(search, cand), None)


class LazyPlanSet(PlanSet):
    """A plan set whose arrays of what each step does are read from the StepTable when first asked for (the
    sweep needs only the step numbers, lengths and gains); the dice its plans need too, when taken from a search
    (only the full pool's are asked for)."""

    _LAZY = ("cell", "gear", "fin", "q", "pj", "pc", "m", "cuts")

    def __init__(self, table: StepTable, cell: int, gear: int, ids: np.ndarray, length: np.ndarray,
                 gain: np.ndarray, steps, need: np.ndarray | None):
        self.length, self.gain, self.steps, self._need, self.sid = length, gain, steps, need, ids
        self.rescue = self.points = self.gidx = self.first = None
        self._source = (table, cell, gear)

    @property
    def need(self) -> np.ndarray | None:
        if self._need is None and isinstance(self.steps, PlanSteps):
            self._need = plan_search.arrays(self.steps.search)[0][self.steps.cand]
        return self._need

    @need.setter
    def need(self, value) -> None:
        self._need = value

    def __getattr__(self, name):
        if name not in LazyPlanSet._LAZY:
            raise AttributeError(name)
        table, cell, gear = self._source
        ids = self.sid
        ints = table.ints[ids]
        floats = table.floats[ids]
        cells = ints[:, :, 0].copy()
        gears = ints[:, :, 1].copy()
        cells[:, 0], gears[:, 0] = cell, gear
        self.cell, self.gear, self.fin = cells, gears, ints[:, :, 2].astype(bool)
        self.q, self.pj, self.pc, self.m = floats[:, :, 2:], floats[:, :, 1], floats[:, :, 0], ints[:, :, 3]
        self.cuts = np.cumsum(ints[:, :, 4], axis=1)
        return getattr(self, name)


class PointNumbers:
    """The points where the steps of plans end, (cell, gear, finished, cuts so far), numbered once per road
    (number 0: "no point"): what ending a turn or losing control there leads to depends on nothing else."""

    def __init__(self, n_cells: int):
        self.ids: dict = {None: 0}
        self.list: list = [None]
        self.lut = np.zeros(256 * n_cells + 1, dtype=np.int64)      # point code -> its number (0: none yet)

    def number(self, cell, gear, fin, cuts, valid) -> np.ndarray:
        """The number of each point of some [plan, point] arrays (numbering new ones), 0 where not ``valid``."""
        code = ((cell * 8 + gear) * 2 + fin) * 16 + np.minimum(cuts, 15)
        code = np.where(valid, code + 1, 0)
        nums = self.lut[code]
        fresh = code[nums == 0]
        if fresh.any():
            for c in np.unique(fresh[fresh > 0]).tolist():
                self._fresh(c)
            nums = self.lut[code]
        return nums

    def of(self, point: tuple) -> int:
        """The number of one point (cell, gear, finished, cuts), numbering it when new."""
        cell, gear, fin, cuts = point
        c = 1 + ((cell * 8 + gear) * 2 + int(fin)) * 16 + min(cuts, 15)
        if not self.lut[c]:
            self._fresh(c)
        return int(self.lut[c])

    def _fresh(self, c: int) -> None:
        """Number the point of code ``c`` (1 + ((cell * 8 + gear) * 2 + finished) * 16 + cuts)."""
        pt = ((c - 1) // 256, ((c - 1) // 32) % 8, bool(((c - 1) // 16) % 2), (c - 1) % 16)
        n = self.ids.get(pt)
        if n is None:
            n = self.ids[pt] = len(self.list)
            self.list.append(pt)
        self.lut[c] = n

    def _every(self, search: Search, table: StepTable) -> np.ndarray:
        """The numbers of the points of all the candidates of a search, [candidate, point], worked out once."""
        every = search.cache.get("points")
        if every is None:
            store, depth = plan_search.step_rows(search, table)     # kept, or worked out again once released
            if search.compiled is not None:
                every = plan_search.COMPILED.number_points(store, depth, table.ints, self.lut, self._fresh)
            else:
                ints = table.ints[store]
                cols = np.arange(store.shape[1])[None, :]
                every = self.number(ints[:, :, 0], ints[:, :, 1], ints[:, :, 2], np.cumsum(ints[:, :, 4], axis=1),
                                    (cols >= 1) & (cols <= depth[:, None]))
            search.cache["points"] = every
        return every

    def index(self, ps: PlanSet, table: StepTable) -> np.ndarray:
        """The number of every [plan, point] of a plan set (kept on it). A plan set taken from a search reads
        it from the numbers of all the search's candidates, worked out once."""
        if ps.gidx is None:
            if isinstance(ps.steps, PlanSteps):
                every = self._every(ps.steps.search, table)
                if ps.steps.search.compiled is not None:
                    ps.gidx = plan_search.COMPILED.take(every, ps.steps.cand, ps.sid.shape[1])
                else:
                    ps.gidx = every[ps.steps.cand, :ps.sid.shape[1]]
            else:
                valid = np.arange(ps.cell.shape[1])[None, :] <= ps.length[:, None]
                valid[:, 0] = False
                ps.gidx = self.number(ps.cell, ps.gear, ps.fin, ps.cuts, valid)
        return ps.gidx

    def distinct(self, ps: PlanSet, table: StepTable) -> list:
        """The numbers of the distinct points of a plan set (kept on it), in increasing order."""
        if ps.points is None:
            steps = ps.steps
            if isinstance(steps, PlanSteps) and steps.search.compiled is not None:
                ps.points = plan_search.COMPILED.distinct(self._every(steps.search, table), steps.cand,
                                                          ps.sid.shape[1], len(self.list))
            else:
                nums = np.unique(self.index(ps, table))
                ps.points = nums[nums > 0].tolist()
        return ps.points


def fits_all(ps: PlanSet, pool) -> bool:
    """Whether every plan of a set fits in a smaller pool of dice. Then the set is also the plan set of that
    pool: its candidates are a subset of the larger pool's, and the chosen ones are among them."""
    return ps.need is not None and len(ps.need) > 0 and bool(
        (ps.need <= np.array([pool.gear, pool.gas, pool.brake, pool.leader])).all())


def _features(step, hz: dict, cut_cells) -> tuple:
    """What one step of a plan means under the dice: (cell, gear, finished, canon hazard, long-jump hazard,
    hazard-count chances of the other dice, dice to secure, cut entered, seconds tokens of a Big Attack)."""
    dice, path, g, events = step
    counted = list(dice)
    pc = pj = 0.0
    if "canon" in events:
        pc = hz[counted.pop(0)]
    elif "long-jump" in events:
        pj = hz[counted.pop(0)]
    dist = [1.0]
    for d in counted:
        h = hz[d]
        dist = [(dist[x] if x < len(dist) else 0.0) * (1 - h) + (dist[x - 1] * h if x >= 1 else 0.0)
                for x in range(len(dist) + 1)]
    if len(dist) > X:
        raise ValueError(f"a step of {len(counted)} dice: more hazards than the solver counts ({X - 1})")
    q = np.zeros(X)
    q[:len(dist)] = dist
    cut = int(bool(cut_cells[path[0]] or cut_cells[path[-1]]))
    gain = 0 if "red-zone" in events else sum(1 for d in dice if d != "brake")   # p. 23: red-zone brakes earn none
    return path[-1], g, "finish" in events, pc, pj, q, len(dice), cut, gain


def subset_many(ps: PlanSet, rows) -> PlanSet:
    """Some plans of a set (rows: plan numbers), as a set."""
    rows = np.asarray(rows)
    need = ps._need if isinstance(ps, LazyPlanSet) else ps.need      # as known: not worked out for a subset
    return PlanSet(length=ps.length[rows], cell=ps.cell[rows], gear=ps.gear[rows], fin=ps.fin[rows], q=ps.q[rows],
                   pj=ps.pj[rows], pc=ps.pc[rows], m=ps.m[rows], cuts=ps.cuts[rows], gain=ps.gain[rows],
                   steps=[ps.steps[r] for r in rows.tolist()], need=None if need is None else need[rows])


def subset(ps: PlanSet, p: int) -> PlanSet:
    """One plan of a set, as a set of one (for replaying a decision). A lazy set whose arrays were not asked
    for yet gives its plan from its own rows, without building the arrays of every plan (the same numbers)."""
    sl = slice(p, p + 1)
    L = int(ps.length[p])
    if isinstance(ps, LazyPlanSet) and "cell" not in ps.__dict__:
        ps = LazyPlanSet(*ps._source, ps.sid[sl, :L + 1], ps.length[sl], ps.gain[sl], [ps.steps[p]], None)
        sl, p = slice(0, 1), 0
    return PlanSet(length=ps.length[sl], cell=ps.cell[sl, :L + 1], gear=ps.gear[sl, :L + 1], fin=ps.fin[sl, :L + 1],
                   q=ps.q[sl, :L + 1], pj=ps.pj[sl, :L + 1], pc=ps.pc[sl, :L + 1], m=ps.m[sl, :L + 1],
                   cuts=ps.cuts[sl, :L + 1], gain=ps.gain[sl], steps=[ps.steps[p]])


# -- securing costs -------------------------------------------------------------------------------

def secure_cost(k: int, m: int) -> int:
    """Tokens to secure ``m`` more dice when ``k`` are already secured this turn: (k+1) + ... + (k+m).

    >>> secure_cost(0, 3)        # Jonathan's example, p. 17: three dice cost 1 + 2 + 3 = 6 seconds
    6
    """
    return m * k + m * (m + 1) // 2
