"""Every state the expected-time optimum needs, forward from the starts (:func:`closure`): the first step of the
backward sweep (:mod:`designer.systems.dirt.dice.sweep`).

:func:`closure` follows each (damage, point) once with numpy masks over the model's point numbers and the
states each leads to worked out once per kind of point (:class:`_Ends`); the points of a plan set are only
listed when its search reaches a point not followed yet under the state's damage (its plans' points are
among the search's). :func:`closure_reference` is the same search one point at a time through
:meth:`DirtModel.stop_outcomes` and :meth:`DirtModel.loss_outcomes`, kept as the reference the tests compare
it with."""
from __future__ import annotations

import heapq

import numpy as np

from designer.systems.dirt.dice.mishaps import wheel_change
from designer.systems.dirt.dice.plans import PlanSteps
from designer.systems.dirt.dice.relaid import closure_points
from designer.systems.dirt.dice.turn_model import FIN


def _search_points(model, search, known: dict) -> np.ndarray:
    """The numbers of every point a search reaches (:func:`.relaid.closure_points`: where a failed Big Attack
    of its plans may be laid again), read off a mask over the point numbers (no sort); kept in ``known`` by
    the search (kept alive with it)."""
    hit = known.get(id(search))
    if hit is not None and hit[0] is search:
        return hit[1]
    every = model.numbers._every(search, model.steps)
    mask = np.zeros(len(model._point_list), dtype=bool)
    mask[every] = True
    mask[0] = False                               # number 0: no point
    arr = np.flatnonzero(mask)
    known[id(search)] = (search, arr)
    return arr


def _plan_points(model, ps, known: dict) -> np.ndarray:
    """The numbers of the points of a plan set's plans (:meth:`DirtModel.points`) as an array, kept in
    ``known`` by the list they come from (kept alive with it)."""
    nums = model.points(ps)
    hit = known.get(id(nums))
    if hit is not None and hit[0] is nums:
        return hit[1]
    arr = np.array(nums, dtype=np.intp)
    known[id(nums)] = (nums, arr)
    return arr


def _followed(followed: dict, damage: tuple, size: int) -> np.ndarray:
    """Whether each point number's outcomes under ``damage`` are followed already, for ``size`` numbers at
    least."""
    done = followed.get(damage)
    if done is None or len(done) < size:
        grown = np.zeros(2 * size, dtype=bool)
        if done is not None:
            grown[:len(done)] = done
        done = followed[damage] = grown
    return done


class _Ends:
    """The states that ending a turn or losing control at a point (by its number) lead to under a damage: the
    next states of :meth:`DirtModel.stop_outcomes` and :meth:`DirtModel.loss_outcomes`, in a list, repeats
    allowed. What a point shares with others (its cuts, a crash's damage tokens and the damage) is worked out
    once (the damages after the flats, and after each back of the card)."""

    def __init__(self, model):
        self.model = model
        self.info: list = []           # point number -> (cell, gear, finished, cuts, crash marks, SISU card's gear)
        self.kinds: dict = {}          # (cuts, crash marks, damage) -> damages after a stop, (SISU, damage) after a loss
        same = model.mishaps.sisu_gear == "same"
        self.sisu_gear = None if same else int(model.mishaps.sisu_gear)

    def of(self, num: int, damage: tuple) -> list:
        info = self.info
        if num >= len(info):
            model, sisu = self.model, self.sisu_gear
            for pt in model._point_list[len(info):]:
                if pt is None:           # number 0: no point
                    info.append(None)
                    continue
                cell, gear, fin, cuts = pt
                info.append((cell, gear, fin, cuts, model.crash_marks(cell, gear), gear if sisu is None else sisu))
        cell, gear, fin, cuts, marks, sisu_gear = info[num]
        if fin:                          # past the finish line: finished, whether stopped or lost
            return [FIN]
        key = (cuts, marks, damage)
        kinds = self.kinds.get(key)
        if kinds is None:
            model = self.model
            stops = tuple(dict.fromkeys(d for _p, d in model._flats(cuts, damage)))
            losses = tuple(dict.fromkeys((sisu, d) for _p, _s, sisu, d in model.loss_ends(cuts, marks, damage)))
            kinds = self.kinds[key] = (stops, losses)
        stops, losses = kinds
        out = [(cell, gear, d) for d in stops]
        out += [(cell, sisu_gear if sisu else 0, d) for sisu, d in losses]
        return out


def closure(model, starts, wheel: bool = True, known: dict | None = None) -> set:
    """Every state whose value the optimum needs, from ``starts`` (``model``: a DirtModel; ``wheel``: with those
    after a change of the spare wheel, which the sweep may decide later, where needed; ``known``: states decided
    already, with every state after them, not followed). What ending a turn
    or losing control at a point leads to depends only on the point and the damage, so each (damage, point)
    is followed once: the first state whose plans reach it brings its states in. The states are followed a
    cell at a time from the start (a turn never ends on an earlier cell); once a cell is done, what only
    choosing its plans needed is released (:meth:`DirtModel.release`: the numbers of their points stay, for
    the sweep)."""
    seen = set(starts)
    pending: dict = {}                 # cell -> its states not followed yet
    for st in starts:
        pending.setdefault(st[0], []).append(st)
    cells = sorted(pending)
    followed: dict = {}                # damage -> whether each point number's outcomes are in ``seen`` already
    ends = _Ends(model)
    while cells:
        here = heapq.heappop(cells)
        stack = pending.pop(here)
        arrays: dict = {}              # the points of the cell's searches and plan sets
        while stack:                   # the cell's states found so far, then those they lead to on the cell
            new = []
            by_damage: dict = {}       # damage -> the plan sets of its states
            for st in stack:
                if model.terminal(st) is not None or (known is not None and st in known):
                    continue
                cell, gear, damage = st
                by_damage.setdefault(damage, []).append(model.plans(cell, gear, damage))
                after = wheel_change(st) if wheel else None
                if after is not None:                                     # the spare wheel
                    new.append(after)
            for damage, sets in by_damage.items():
                arrs = []
                for ps in sets:
                    if isinstance(ps.steps, PlanSteps):
                        reach = _search_points(model, ps.steps.search, arrays)
                        if model.achievable:    # every point its search reaches
                            arrs.append(reach)
                            continue
                        if _followed(followed, damage, len(model._point_list))[reach].all():
                            continue            # nothing new its search reaches: nothing new its plans reach
                    arrs.append(_plan_points(model, ps, arrays))
                if not arrs:
                    continue
                done = _followed(followed, damage, len(model._point_list))
                nums = arrs[0] if len(arrs) == 1 else np.concatenate(arrs)
                fresh = nums[~done[nums]]
                if not len(fresh):
                    continue
                if len(arrs) > 1:
                    fresh = np.unique(fresh)
                done[fresh] = True
                spent = tuple(damage[:4]) + (0,) if damage[4] else None
                for num in fresh.tolist():
                    new += ends.of(num, damage)
                    if spent is not None:       # the values with the token spent are asked for too
                        new += ends.of(num, spent)
            stack = []
            added = []
            for nxt in new:
                if nxt not in seen:
                    seen.add(nxt)
                    added.append(nxt)
            _queue(added, here, stack, pending, cells)
        if not cells or cells[0] > here:           # a road whose turns all go on: nothing comes back here
            model.release(here, keep_points=True)
    return seen


def closure_reference(model, starts, wheel: bool = True) -> set:
    """:func:`closure` one point at a time, through the model's lists of outcomes (the reference)."""
    seen = set(starts)
    pending: dict = {}
    for st in starts:
        pending.setdefault(st[0], []).append(st)
    cells = sorted(pending)
    followed: dict = {}                # damage -> the points whose outcomes are in ``seen`` already
    while cells:
        here = heapq.heappop(cells)
        stack = pending.pop(here)
        while stack:
            st = stack.pop()
            if model.terminal(st) is not None:
                continue
            cell, gear, damage = st
            done = followed.setdefault(damage, set())
            new = set()
            ps = model.plans(cell, gear, damage)
            for num in closure_points(model, ps) if model.achievable else model.points(ps):
                if num in done:
                    continue
                done.add(num)
                pt = model._point_list[num]
                new.update(o[2] for o in model.stop_outcomes(*pt, damage))
                new.update(o[2] for o in model.loss_outcomes(*pt, damage))
                if damage[4]:
                    spent = tuple(damage[:4]) + (0,)
                    new.update(o[2] for o in model.stop_outcomes(*pt, spent))
                    new.update(o[2] for o in model.loss_outcomes(*pt, spent))
            after = wheel_change(st) if wheel else None
            if after is not None:
                new.add(after)
            new -= seen
            seen |= new
            _queue(new, here, stack, pending, cells)
        if not cells or cells[0] > here:
            model.release(here, keep_points=True)
    return seen


def _queue(states, here: int, stack: list, pending: dict, cells: list) -> None:
    """Send states met for the first time where they are followed: those on the cell ``here`` onto its
    ``stack``, those further on to ``pending`` under their cell (a cell met for the first time onto the heap
    ``cells``); the finish is followed nowhere."""
    for nxt in states:
        if nxt == FIN:
            continue
        if nxt[0] == here:
            stack.append(nxt)
        elif nxt[0] in pending:
            pending[nxt[0]].append(nxt)
        else:
            pending[nxt[0]] = [nxt]
            heapq.heappush(cells, nxt[0])
