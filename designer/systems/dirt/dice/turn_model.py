"""Expected stage time of Rallyman: DIRT under the dice: the best policy, exactly, by backward induction.

A turn boundary is ``(cell, gear, damage)`` with the seconds tokens held as the solver's bank (0..max_tokens);
``damage`` is ``(gear, gas, brake, spare used, SISU left)``: damage tokens of each kind (``max_damage`` in all),
whether the spare wheel is spent and whether the SISU token (optional rule, p. 24) is still held. From a
boundary the driver picks a plan (:mod:`.plans`: the Pareto set over risk and Big Attack gain per turn end)
and rolls it one by one (stopping, securing) or makes a Big Attack. :meth:`DirtModel.decide` decides one
boundary; :mod:`.sweep` decides many at once with the same plans and bounds (what the stage solve uses). One
plan search per (cell, gear) serves every damaged dashboard. What follows is the rulebook (seed 002, pages of
its own index):

- hazards: reaching ``hazard_limit`` in a turn, or a hazard on a long-jump die, is a loss of control on that
  die's cell (p. 16, p. 12); a loss of control on the die that crosses the finish line still finishes (p. 20);
- a loss of control takes the 0 side of the card (``loss_of_control_seconds``); its back is a spin (the car
  stays, gear 0), a crash (gear 0 and damage tokens by the tile's danger colour and the gear) or SISU (a few
  seconds, the next turn in the card's gear) (p. 19) -- all chances and marks are parameters (``card_backs``,
  ``crash_damage_marks``, ``sisu_card``);
- a damage token is green (nothing), gear, brake or gas/leader: one die fewer of that kind from the next turn
  (p. 20); a cut draws the other side of a token: OK, flat tyre (one gas/leader die fewer) or -1 for those
  behind (p. 11); the spare wheel, at the end of a turn in gear 1, mends one flat for the card's 0 side (p. 20);
  no gear die left is an abandon (p. 20);
- seconds tokens left at the finish come off the time (p. 20); tokens beyond ``max_tokens`` are kept only
  for that.

The stage-level entry point is :func:`designer.systems.dirt.dice.expected_time.expected_time`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from designer.racing.mdp import Outcome
from designer.systems.dirt.dice.mishaps import Mishaps, wheel_change
from designer.systems.dirt.dice.plans import (BIG, PlanSet, PointNumbers, StepTable, fits_all, plan_set, search_plans,
                                              subset, subset_many)
from designer.systems.dirt.dice.point_values import FIN, fill as fill_points
from designer.systems.dirt.dice.relaid import reach_low, relay_values
from designer.systems.dirt.dice.replay import Replay, _merge, cheapest_from, turn_outcomes  # noqa: F401  (read by tests)
from designer.systems.dirt.dice.replay import failure_point, rescued
from designer.systems.dirt.dice.rollout import attack_values, roll_values
from designer.systems.dirt.dice.set_minima import is_minima as _minima
from designer.systems.dirt.driving.ruleset import Pool, Ruleset

# what a plan search keeps for choosing and numbering plans (plan_search, plans, relaid), released once its cell
# is decided
RELEASED = ("points", "rows", "gains", "arrays", "choice", "key columns", "all_points", "by_dice")
NO_DAMAGE = (0, 0, 0, 0, 0)
# what the damage bound leaves alone (plans, failure classes, numbered points): shared by a model under another bound
SHARED = ("_engines", "_pools", "_plans", "_searches", "_dice_of", "_most", "_state_plans", "_of_cell", "numbers",
          "_point_list", "_point_info", "steps", "_layings", "_classes")


@dataclass(frozen=True)
class Decision:
    """What the driver does at a turn boundary: ``mode`` "roll" (one by one) or "attack" (Big Attack) with
    plan number ``plan`` of that boundary's plan set, or ``mode`` "spare" (change a flat tyre)."""
    mode: str
    plan: int = -1

    @property
    def turn(self) -> bool:
        return self.mode != "spare"


class DirtModel:
    """The DIRT turn model under the dice, for :func:`designer.racing.mdp.solve`."""

    def __init__(self, road, rules: Ruleset, mishaps: Mishaps, *, leader: bool = False, surface: str | None = None,
                 sisu: bool = False, share: DirtModel | None = None):
        self.road = road
        self.sisu = sisu
        self.start_damage = NO_DAMAGE[:4] + (int(sisu),)
        self.rules = rules
        self.mishaps = mishaps
        self.leader = leader
        self.surface = surface
        self.bank = mishaps.max_tokens
        self.T1 = mishaps.max_tokens + 1
        self.K = mishaps.max_secured
        self.limit = rules.hazard_limit
        # a failed Big Attack's loss of control: where its dice can be laid again (achievable), on its first
        # failing step (as_laid) or any later point of its plan (latest)
        self.reading = getattr(rules.options, "big_attack_failure", "achievable")
        self.latest = self.reading == "latest"
        self.achievable = self.reading == "achievable"
        self._layings: dict = {}                  # (cell, gear, dice rolled) -> relay.layings
        self._classes: dict = {}                  # (cell, gear, dice rolled, long-jump dice) -> failure classes
        self._relay_cache: dict = {}              # (dice rolled, long-jump dice) -> outcomes, steps that lose
        self.fin_value = -np.arange(self.T1, dtype=float)
        self._tokens = np.arange(self.T1)
        g = road.graph
        self.cut = [g.nodes[n].get("cut") is not None for n in road.nodes]
        self.danger = [g.nodes[n].get("danger") for n in road.nodes]
        self._engines: dict = {}
        self._pools: dict = {}                    # (cell, gear, gas, brake damage) -> the dice left
        self._plans: dict = {}                    # (cell, gear, dice left) -> plan set
        self._searches: dict = {}                 # (cell, gear) -> the plan search of the full pool
        self._dice_of: dict = {}                  # (cell, gear, gas, brake damage) -> what :meth:`_dice` gives
        self._most: dict = {}                     # (cell, gear) -> the most dice of each kind a plan needs
        self._of_cell: dict = {}                  # cell -> its plan sets and searches (released once decided)
        self._state_plans: dict = {}
        self._single: dict = {}
        self._damage: dict = {}
        self._losses: dict = {}                   # a point and damage -> its loss_outcomes
        self._stops: dict = {}                    # a point and damage -> its stop_outcomes
        self._loss_ends: dict = {}                # cuts, crash marks and damage -> loss_ends
        self._point_info: list = []               # point number -> what point_values.fill reads of it
        self._point_kinds: dict = {}              # cuts, crash marks and damage -> point_values._kind
        self.numbers = PointNumbers(len(road.nodes))
        self._point_list = self.numbers.list      # number -> point (cell, gear, finished, cuts); 0: no point
        self._point_values: dict = {}             # damage -> (values [number, stop/loss, tokens], known [number])
        self.steps = StepTable(rules, self.cut)
        self._flat_cache: dict = {}
        self.flat_chance = mishaps.flat_chance
        backs = mishaps.card_backs
        self.p_spin, self.p_crash, self.p_sisu = backs.get("spin", 0.0), backs.get("crash", 0.0), backs.get("sisu", 0.0)
        if share is not None:             # the same road, rules and car under another damage bound: SHARED
            self.__dict__.update({name: getattr(share, name) for name in SHARED},
                                 _relay_cache={k: v for k, v in share._relay_cache.items() if not _minima(k)})

    # -- the state space ---------------------------------------------------------------------
    def progress(self, state) -> float:
        """Grows along every transition: a turn ends at least one cell on; changing the spare wheel stays on the
        cell, drops to gear 0 and spends the spare for good (so it counts above every gear)."""
        return math.inf if state == FIN else state[0] + 0.5 * state[2][3] + state[1] / 100.0

    def pool(self, cell: int, damage: tuple) -> Pool:
        key = (cell, damage[0], damage[1], damage[2])
        hit = self._pools.get(key)
        if hit is None:
            base = self.rules.pool(self.road.surface[cell] if self.surface is None else self.surface, self.leader)
            g, s, b = damage[:3]
            hit = self._pools[key] = Pool(gear=max(0, base.gear - g), gas=max(0, base.gas - s),
                                          brake=max(0, base.brake - b), leader=max(0, base.leader - s))
        return hit

    def terminal(self, state):
        if state == FIN:
            return self.fin_value
        if self.pool(state[0], state[2]).gear == 0:          # no gear die left: abandon (p. 20)
            return np.full(self.T1, float(self.mishaps.abandon_seconds))
        return None

    def engine(self, pool: Pool):
        from designer.systems.dirt.driving.rules import TurnEngine

        eng = self._engines.get(pool)
        if eng is None:
            eng = self._engines[pool] = TurnEngine(self.road, self.rules, pool, None)
        return eng

    def plans(self, cell: int, gear: int, damage: tuple) -> PlanSet:
        hit = self._state_plans.get((cell, gear, damage))
        if hit is not None:
            return hit
        pool, dice, full_pool = self._dice(cell, damage)
        key = (cell, gear, dice)
        ps = self._plans.get(key)
        if ps is None:
            if self.rules.options.red_zone and not full_pool:
                # a red-zone brake counts as a gear die only when played before one: that pool on its own
                ps = plan_set(self.engine(pool), cell, gear, self.steps)
            else:                                   # one search of the full pool serves every damaged pool
                if not full_pool and self._fits_all(cell, gear, dice):
                    ps = self.plans(cell, gear, NO_DAMAGE)  # no plan of the full pool needs the dice damage took
                else:
                    search = self._searches.get((cell, gear))
                    if search is None:
                        base = self.pool(cell, NO_DAMAGE)
                        search = self._searches[(cell, gear)] = search_plans(self.engine(base), cell, gear)
                        self._of_cell.setdefault(cell, []).append(search)
                    ps = plan_set(None, cell, gear, self.steps, None if full_pool else pool, search)
            self._plans[key] = ps
            self._of_cell.setdefault(cell, []).append(ps)
        self._state_plans[(cell, gear, damage)] = ps
        return ps

    def _dice(self, cell: int, damage: tuple) -> tuple:
        """(the pool of dice left at ``cell`` under ``damage``, its gear, gas, brake and leader dice as a tuple,
        whether it is the full pool): what :meth:`plans` keys its plan sets by, kept."""
        key = (cell, damage[0], damage[1], damage[2])
        hit = self._dice_of.get(key)
        if hit is None:
            pool, base = self.pool(cell, damage), self.pool(cell, NO_DAMAGE)
            dice = (pool.gear, pool.gas, pool.brake, pool.leader)
            hit = self._dice_of[key] = (pool, dice, dice == (base.gear, base.gas, base.brake, base.leader))
        return hit

    def _fits_all(self, cell: int, gear: int, dice: tuple) -> bool:
        """:func:`.plans.fits_all` of the full pool's plan set at (cell, gear) and a smaller pool's ``dice``:
        whether the most dice of each kind any of its plans needs are all left."""
        most = self._most.get((cell, gear), False)
        if most is False:
            need = self.plans(cell, gear, NO_DAMAGE).need
            most = self._most[(cell, gear)] = tuple(need.max(axis=0).tolist()) \
                if need is not None and len(need) > 0 else None
        return most is not None and most[0] <= dice[0] and most[1] <= dice[1] and most[2] <= dice[2] and \
            most[3] <= dice[3]

    def release(self, cell: int, keep_points: bool = False) -> None:
        """Forget, once every state of ``cell`` is decided, the point numbers of its plan sets and what their
        searches worked out to choose and number plans; what replaying a decision reads stays, and anything else is
        worked out again if asked. ``keep_points``: keep the numbers of the points (the sweep reads them)."""
        for item in self._of_cell.get(cell, ()):          # kept: a model sharing them releases them again
            if isinstance(item, PlanSet):
                item.points = None
                if not keep_points:
                    item.gidx = None
            else:
                for key in RELEASED:
                    if not (keep_points and key == "points"):
                        item.cache.pop(key, None)

    def release_all(self) -> None:
        """Forget every table the solve built to decide the states (plan searches and sets, failure classes and
        relay tables, point values, the statistics' rows): anything asked later is worked out again, the same."""
        self.release_values()
        for table in (self._layings, self._classes, self._relay_cache, self._engines, self._pools, self._plans,
                      self._searches, self._dice_of, self._most, self._of_cell, self._state_plans):
            table.clear()

    def release_values(self) -> None:
        """Forget what depends on the damage bound (point values, outcome lists, set minima, statistics' rows)."""
        for table in (self._single, self._losses, self._stops, self._point_values, self._loss_ends,
                      self._point_kinds, self._flat_cache):
            table.clear()
        self._relay_cache = {k: v for k, v in self._relay_cache.items() if not _minima(k)}
        from designer.systems.dirt.dice import turn_batch
        turn_batch._ROWS.pop(self, None)

    # -- what a point of a plan leads to --------------------------------------------------------
    def _add(self, damage: tuple, gear=0, gas=0, brake=0) -> tuple:
        """Damage after new tokens; tokens beyond ``max_damage`` in total are not tracked (the bound)."""
        g, s, b = damage[:3]
        room = self.mishaps.max_damage - (g + s + b)
        for kind in ("gear",) * gear + ("gas",) * gas + ("brake",) * brake:
            if room <= 0:
                break
            room -= 1
            g, s, b = g + (kind == "gear"), s + (kind == "gas"), b + (kind == "brake")
        return (g, s, b) + tuple(damage[3:])

    def damage_draws(self, n: int, room: int) -> list[tuple[float, tuple[int, int, int]]]:
        """Chances of (gear, gas, brake) damage among ``n`` tokens drawn from the bag (with replacement), of
        which the first ``room`` damage tokens are kept (the bound on damage tracked)."""
        key = (n, max(0, room))
        hit = self._damage.get(key)
        if hit is None:
            ch = self.mishaps.damage_chances()
            dist: dict = {(0, 0, 0): 1.0}
            for _ in range(n):
                new: dict = {}
                for (g, s, b), p in dist.items():
                    for kind, pk in ch.items():
                        if pk <= 0:
                            continue
                        if kind == "green" or g + s + b >= room:
                            k2 = (g, s, b)
                        else:
                            k2 = (g + (kind == "gear"), s + (kind == "gas"), b + (kind == "brake"))
                        new[k2] = new.get(k2, 0.0) + p * pk
                dist = new
            hit = self._damage[key] = [(p, k) for k, p in dist.items()]
        return hit

    def _flats(self, n_cuts: int, damage: tuple) -> list[tuple[float, tuple]]:
        q = self.flat_chance
        if n_cuts == 0 or q == 0:
            return [(1.0, damage)]
        key = (n_cuts, damage)
        hit = self._flat_cache.get(key)
        if hit is None:
            hit = self._flat_cache[key] = [(math.comb(n_cuts, f) * q ** f * (1 - q) ** (n_cuts - f),
                                            self._add(damage, gas=f)) for f in range(n_cuts + 1)]
        return hit

    def stop_outcomes(self, cell, gear, fin, n_cuts, damage) -> list[tuple[float, float, object, bool]]:
        """(chance, seconds, next state, loss) of ending the turn at a point (kept, as loss_outcomes)."""
        key = (cell, gear, fin, n_cuts, damage)
        hit = self._stops.get(key)
        if hit is None:
            sec = float(self.rules.seconds(gear))
            hit = self._stops[key] = [(1.0, sec, FIN, False)] if fin else \
                [(p, sec, (cell, gear, d), False) for p, d in self._flats(n_cuts, damage)]
        return hit

    def loss_outcomes(self, cell, gear, fin, n_cuts, damage) -> list[tuple[float, float, object, bool]]:
        """(chance, seconds, next state, loss) of a loss of control on a point of the plan (p. 19-20). Kept:
        the closure, the values of points and the statistics all ask for the same ones."""
        key = (cell, gear, fin, n_cuts, damage)
        hit = self._losses.get(key)
        if hit is None:
            hit = self._losses[key] = self._loss_outcomes(cell, gear, fin, n_cuts, damage)
        return hit

    def _loss_outcomes(self, cell, gear, fin, n_cuts, damage) -> list[tuple[float, float, object, bool]]:
        if fin:                       # past the finish line: finished, only the card's front counts (p. 20)
            return self.stop_outcomes(cell, gear, fin, n_cuts, damage)
        sisu_gear = gear if self.mishaps.sisu_gear == "same" else int(self.mishaps.sisu_gear)
        return [(p, sec, (cell, sisu_gear if sisu else 0, d), True)
                for p, sec, sisu, d in self.loss_ends(n_cuts, self.crash_marks(cell, gear), damage)]

    def crash_marks(self, cell: int, gear: int) -> int:
        """Damage tokens a crash at ``cell`` in ``gear`` draws (0 when the card has no crash)."""
        return self.mishaps.crash_marks(self.danger[cell], gear) if self.p_crash else 0

    def loss_ends(self, n_cuts: int, marks: int, damage: tuple) -> list[tuple[float, float, bool, tuple]]:
        """A loss of control off the finish line whatever its cell and gear: (chance, seconds, SISU card (the
        next turn in the card's gear, else gear 0), damage after) of each back of the card after the flats of
        ``n_cuts`` cuts, a crash drawing ``marks`` damage tokens (:meth:`crash_marks`). Kept."""
        key = (n_cuts, marks, damage)
        hit = self._loss_ends.get(key)
        if hit is None:
            m = self.mishaps
            lose = float(self.rules.loss_of_control_seconds)
            hit = self._loss_ends[key] = []
            for pf, d in self._flats(n_cuts, damage):
                if self.p_spin:
                    hit.append((pf * self.p_spin, lose, False, d))
                if self.p_crash:
                    room = m.max_damage - sum(d[:3])
                    for pd, (g, s, b) in self.damage_draws(marks, room):
                        hit.append((pf * self.p_crash * pd, lose, False, self._add(d, g, s, b)))
                if self.p_sisu:
                    hit.append((pf * self.p_sisu, float(m.sisu_seconds), True, d))
        return hit

    def point_index(self, ps: PlanSet) -> np.ndarray:
        """The number of every [plan, point] of a plan set in the model's table of points (0: no point)."""
        return self.numbers.index(ps, self.steps)

    def points(self, ps: PlanSet) -> list:
        """The numbers of the distinct points of a plan set; ``_point_list[n]`` is the point."""
        return self.numbers.distinct(ps, self.steps)

    def fill(self, damage: tuple, gids: np.ndarray, value) -> np.ndarray:
        """Work out the values of the points numbered ``gids`` under one damage (those not known yet) and
        return that damage's table of point values [number, stop/loss, tokens] (:func:`.point_values.fill`)."""
        return fill_points(self, damage, gids, value)

    def point_values(self, ps: PlanSet, damage: tuple, value) -> tuple[np.ndarray, np.ndarray]:
        """``stop[p, i, t]`` and ``loss[p, i, t]`` for every point of every plan. The values of each point are
        worked out once per damage and kept in a table (row = the point's number)."""
        gidx = self.point_index(ps)
        both = self.fill(damage, gidx.reshape(-1), value)[gidx]
        return both[:, :, 0], both[:, :, 1]

    def _table(self, damage: tuple) -> tuple[np.ndarray, np.ndarray]:
        """The table of point values of one damage, grown to every point numbered so far."""
        table = self._point_values.get(damage)
        n = len(self._point_list)
        if table is None or len(table[1]) < n:
            size = max(64, 2 * n)
            arr, done = np.empty((size, 2, self.T1)), np.zeros(size, dtype=bool)
            if table is None:
                arr[0], done[0] = BIG, True                  # point number 0: "no point"
            else:
                arr[:len(table[1])], done[:len(table[1])] = table
            table = self._point_values[damage] = (arr, done)
        return table

    # -- the decision at a boundary ---------------------------------------------------------------
    def _shift(self, ps: PlanSet, arr: np.ndarray, where: np.ndarray | None = None) -> np.ndarray:
        """``arr`` seen by a Big Attack: tokens t + gain (the excess over max_tokens kept as seconds off).
        ``where``: :meth:`shift_index` of the same plans and shape, when shifting several arrays."""
        flat, credit = self.shift_index(ps, arr.shape) if where is None else where
        return np.where(arr >= BIG, BIG, arr.reshape(-1)[flat].reshape(arr.shape) - credit)

    def shift_index(self, ps: PlanSet, shape: tuple) -> tuple[np.ndarray, np.ndarray]:
        """Where each entry of a (plans, points, tokens) array is read from after a Big Attack, and the credit."""
        P, L1, T1 = shape
        total = self._tokens[None, :] + ps.gain[:, None]
        idx = np.minimum(total, T1 - 1)
        base = (np.arange(P)[:, None, None] * L1 + np.arange(L1)[None, :, None]) * T1
        return (base + idx[:, None, :]).reshape(-1), (total - idx)[:, None, :]

    def decide(self, state, value):
        cell, gear, damage = state
        ps = self.plans(cell, gear, damage)
        best = np.full(self.T1, BIG)
        choice = [Decision("none")] * self.T1
        if ps.n:
            stop, loss = self.point_values(ps, damage, value)
            # Branch and bound, exact: every outcome of a plan ends at one of its points, stopped or lost, with
            # no more tokens than a Big Attack could give, and values never grow with tokens: so a plan is worth
            # at least the least of its points' values after its Big Attack gain. Plans whose bound cannot
            # beat the best plan found are not rolled out.
            low = self._shift(ps, np.minimum(stop, loss)[:, :, None, :].min(axis=1).reshape(ps.n, 1, self.T1))[:, 0]
            if self.achievable:                 # a failure may be laid off the plan: its points bound it too
                off = reach_low(self, ps, damage, value)
                low = np.minimum(low, self._shift(ps, np.broadcast_to(off, (ps.n, 1, self.T1)))[:, 0])
            order = np.argsort(low[:, 0], kind="stable")
            done = np.zeros(ps.n, dtype=bool)
            batch = order[:8]
            while len(batch):
                done[batch] = True
                sub = subset_many(ps, batch)
                st, lo = stop[batch], loss[batch]
                lo_roll, rescue = self.sisu_rescue(sub, lo, damage, value)
                rolled, _ = roll_values(sub, st, lo_roll, self.limit, self.K)
                resc = None if rescue is None else self._shift(sub, rescue[:, None, :])[:, 0]
                spread = relay_values(self, cell, gear, ps, batch, damage, value, resc) if self.achievable else None
                attack = attack_values(sub, self._shift(sub, st), self._shift(sub, lo), self.limit, resc,
                                       latest=self.latest, spread=spread)
                for mode, vals in (("roll", rolled), ("attack", attack)):
                    p = np.argmin(vals, axis=0)
                    v = vals[p, np.arange(self.T1)]
                    better = v < best - 1e-9
                    best = np.where(better, v, best)
                    for t in np.nonzero(better)[0]:
                        choice[t] = Decision(mode, int(batch[p[t]]))
                batch = np.nonzero(~done & (low < best[None, :] - 1e-9).any(axis=1))[0]
        m = self.mishaps
        after = wheel_change(state)
        if after is not None:                               # change the flat tyre (p. 20 'La roue de secours')
            v = m.spare_wheel_seconds + value(after)
            better = v < best - 1e-9
            best = np.where(better, v, best)
            for t in np.nonzero(better)[0]:
                choice[t] = Decision("spare")
        return best, choice

    def sisu_rescue(self, ps: PlanSet, loss: np.ndarray, damage: tuple, value):
        """With the SISU token held (optional rule, p. 24: once per stage, ignore every hazard of a turn, even
        after rolling): a loss of control by hazards may be cancelled. One by one, the driver then drives on
        to the cheapest later point of the plan; in a Big Attack the attack succeeds (``rescue``: its end).
        Returns the loss values one by one and the rescue of a Big Attack (None without the token)."""
        if not damage[4]:
            return loss, None
        spent = tuple(damage[:4]) + (0,)
        stop_su, _ = self.point_values(ps, spent, value)
        P, L1, _ = stop_su.shape
        later = stop_su.copy()
        for j in range(L1 - 2, 0, -1):
            later[:, j] = np.where((j + 1 <= ps.length)[:, None], np.minimum(stop_su[:, j], later[:, j + 1]),
                                   stop_su[:, j])
        ps.rescue = (stop_su, later, loss)
        return np.minimum(loss, later), stop_su[np.arange(P), ps.length]

    # -- replaying a decision --------------------------------------------------------------------
    def single(self, state, decision: Decision, value):
        """The chosen plan alone with its point values and (for one by one) its :class:`.Replay`; with the
        SISU token held, ``ps1.rescue`` keeps what cancelling a loss of control leads to."""
        key = (state, decision)
        hit = self._single.get(key)
        if hit is not None:
            return hit
        cell, gear, damage = state
        ps1 = subset(self.plans(cell, gear, damage), decision.plan)
        stop, loss = self.point_values(ps1, damage, value)
        if decision.mode == "roll":
            loss, _ = self.sisu_rescue(ps1, loss, damage, value)
        else:
            self.sisu_rescue(ps1, loss, damage, value)
        replay = None
        if decision.mode == "roll":
            _, table = roll_values(ps1, stop, loss, self.limit, self.K, keep=True)
            replay = Replay(ps1, stop, loss, table, self.limit, self.K)
        hit = self._single[key] = (ps1, stop, loss, replay)
        return hit

    def loss_or_rescue(self, ps1, j: int, tok: int, damage: tuple) -> list:
        """What a loss of control by hazards on step j of a plan rolled one by one leads to: cancelled by the
        SISU token when that is cheaper (to the cheapest later point), else the loss of control."""
        if rescued(ps1, j, tok):
            stop_su = ps1.rescue[0]
            i = min(range(j, int(ps1.length[0]) + 1), key=lambda x: stop_su[0, x, tok])
            return self.stop_outcomes(*self._point(ps1, i), tuple(damage[:4]) + (0,))
        return self.loss_outcomes(*self._point(ps1, j), damage)

    def attack_failure(self, ps1, j: int, bank: int, loss: np.ndarray, damage: tuple,
                       cheapest: list | None = None, laid: tuple | None = None) -> list:
        """What a failed Big Attack (first failing step j) leads to: a loss of control on step j (as_laid) or
        the cheapest one at or after j (latest), or the SISU token spent and the attack's end reached.
        ``cheapest``: :func:`cheapest_from` of the plan's loss values with these tokens, when already worked out;
        ``laid``: (point, its loss value) where the dice are laid again (achievable, :mod:`.relay`)."""
        point, cancelled = failure_point(self, ps1, j, bank, loss, cheapest, laid)
        if cancelled:
            return self.stop_outcomes(*self._point(ps1, int(ps1.length[0])), tuple(damage[:4]) + (0,))
        return self.loss_outcomes(*point, damage)

    def _point(self, ps1, i):
        return (int(ps1.cell[0, i]), int(ps1.gear[0, i]), bool(ps1.fin[0, i]), int(ps1.cuts[0, i]))

    def outcomes(self, state, t, decision: Decision, value) -> list[Outcome]:
        """The exact distribution of one turn played with ``decision`` holding ``t`` tokens
        (:func:`.replay.turn_outcomes`)."""
        return turn_outcomes(self, state, t, decision, value)

    def outcomes_many(self, state, decisions: dict, value) -> dict:
        """:meth:`outcomes` for several token counts at once: {tokens: decision} -> {tokens: outcomes}."""
        from designer.systems.dirt.dice.turn_batch import turn_outcomes_many

        return turn_outcomes_many(self, state, decisions, value)
