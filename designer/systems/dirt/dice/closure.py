"""Every state the expected-time optimum needs, forward from the starts (:func:`closure`): the first step of the
backward sweep (:mod:`designer.systems.dirt.dice.sweep`)."""
from __future__ import annotations

import heapq

from designer.systems.dirt.dice.relaid import closure_points
from designer.systems.dirt.dice.turn_model import FIN


def closure(model: DirtModel, starts) -> set:
    """Every state whose value the optimum needs, from ``starts``. What ending a turn or losing control at a
    point leads to depends only on the point and the damage, so each (damage, point) is followed once: the
    first state whose plans reach it brings its states in. The states are followed a cell at a time from the
    start (a turn never ends on an earlier cell); once a cell is done, what only choosing its plans needed is
    released (:meth:`DirtModel.release`: the numbers of their points stay, for the sweep)."""
    seen = set(starts)
    pending: dict = {}                 # cell -> its states not followed yet
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
                if damage[4]:                          # the values with the token spent are asked for too
                    spent = tuple(damage[:4]) + (0,)
                    new.update(o[2] for o in model.stop_outcomes(*pt, spent))
                    new.update(o[2] for o in model.loss_outcomes(*pt, spent))
            g, s, b, spare, su = damage
            if gear == 1 and s > 0 and not spare:
                new.add((cell, 0, (g, s - 1, b, 1, su)))
            new -= seen
            seen |= new
            for nxt in new:
                if nxt == FIN:
                    continue
                if nxt[0] == here:
                    stack.append(nxt)
                elif nxt[0] in pending:
                    pending[nxt[0]].append(nxt)
                else:
                    pending[nxt[0]] = [nxt]
                    heapq.heappush(cells, nxt[0])
        if not cells or cells[0] > here:           # a road whose turns all go on: nothing comes back here
            model.release(here, keep_points=True)
    return seen
