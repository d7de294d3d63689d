"""Where a failed Big Attack loses control (ART.5): the rolled dice laid again as the player likes.

The rulebook: when the dice rolled together show the turn's limit of marks, "les dés tirés sont employés pour le
déplacement, en respectant la procédure habituelle d'enchaînement des vitesses et en les combinant librement,
jusqu'à l'utilisation obligatoire du 3ème dé au symbole Δ. Il est alors autorisé que certains dés lancés ne soient
pas pris en compte pour le déplacement. C'est sur la case ainsi atteinte que se produit la perte de contrôle."

So once the dice have fallen, the player lays some of them again, each keeping the face it showed, as any legal
chain from the turn's boundary (the chaining of ART.4, the moves a Big Attack plan may make: no corner above its
note, no bump, ford or double downshift), up to the die that brings the limit: control is lost on the cell that
die reaches. Which cells that can be depends on which dice showed the marks. The player takes the cheapest
(:meth:`designer.systems.classic.dice.expected.Solver._relay_cost`): further along, on a meadow rather than
beside the forest, before or after a cut.

*Decided*: whether the attack fails is read in the planned order (its first dice up to the one that brings the
limit; on snow with asphalt tyres the marks of the dice planned on snow cells); a chain may cross the finish line
only with the die that brings the limit, and then the car finishes (ART.13), as a planned attack does; it may not
cross it before that die, which must be used.
"""
from __future__ import annotations

from itertools import product

from designer.systems.classic.dice import moves as M

ENDS_KEPT = 50_000      # chain tails remembered at most (about 40 MB); the memo starts afresh beyond
Point = tuple[str, object, int]     # ("loss", cell, cut cards drawn) or ("finish", gear, cut cards drawn)
BIT = {f"gear{k}": 1 << k for k in range(1, 10)}    # a gear die as a bit of the set of dice a chain uses


def loss_points(solver, node: str, gear: int, dice: tuple) -> tuple[Point, ...]:
    """Every place a failed attack from (``node``, ``gear``) may end, the rolled ``dice`` ((die, marked), ...)
    laid again: a loss of control on a cell, or the finish crossed by the die that brings the limit (cached)."""
    key = (node, gear, dice)
    hit = solver._relay_cache.get(key)
    if hit is None:
        hit = solver._relay_cache[key] = tuple(sorted(_ends(solver, M.TurnState(node, gear), dice, 0, 0),
                                                      key=lambda p: (p[0], str(p[1]), p[2])))
    return hit


def _ends(solver, state: M.TurnState, left: tuple, hz: int, hs: int) -> frozenset:
    """The places a chain of some of the dice ``left`` may end from ``state`` with ``hz`` marks so far (``hs`` on
    snow cells), the cut cards counted from here (cached: the chains of many rolls share their tails)."""
    key = (state.node, state.gear, state.used, tuple(sorted(state.gas_used.items())), left, hz, hs)
    memo = solver._relay_ends
    hit = memo.get(key)
    if hit is not None:
        return hit
    found: set = set()
    kinds = set(left)
    for die, _, s, nxt, _ in solver._moves(state):
        if s.risk:
            continue
        for marked in (False, True):
            if (die, marked) not in kinds:
                continue
            cut = solver.draws_card(state.node, s.to)            # the cell the die reaches (a jump lands beyond)
            h, h_snow = hz + marked, hs + (marked and solver._snow(s.to))
            lost = marked and solver._lost(s.to, h, h_snow)
            if s.event == "finish":
                if lost:
                    found.add(("finish", s.gear, cut))
            elif lost:
                found.add(("loss", s.to, cut))
            elif len(left) > 1:
                rest = list(left)
                rest.remove((die, marked))
                found.update((kind, at, n + cut) for kind, at, n in _ends(solver, nxt, tuple(rest), h, h_snow))
    if len(memo) > ENDS_KEPT:
        memo.clear()            # the chains of a boundary share their tails with those of the cells just after
    out = memo[key] = frozenset(found)
    return out


def plan_table(solver, node: str, gear: int, steps: list[M.Step]) -> list[tuple]:
    """A plan's outcomes: (chance, failed, the step it stops on as planned, its cut cards, the places a failure
    may end or None, the cut cards of the whole plan); every way the dice can fall, the ways alike summed."""
    chances = [solver._p(s.die, s.to) for s in steps]
    cut_at = []
    n, prev = 0, node
    for s in steps:
        n += solver.draws_card(prev, s.to)
        cut_at.append(n)
        prev = s.to
    last = len(steps) - 1
    if solver.car.tyres != "soft" and (solver.rules.snow_limit(solver.car.tyres) is None
                                       or not any(solver._snow(s.to) for s in steps)):
        # the limit is one number on every cell: whether the attack fails does not depend on the order of the
        # dice, so plans rolling the same dice share their outcomes
        dice = tuple(sorted((s.die, p, s.to == "finish") for s, p in zip(steps, chances)))
        key = ("plan", node, gear, dice)
        hit = solver._relay_cache.get(key)
        if hit is None:
            hit = solver._relay_cache[key] = _table(solver, node, gear, dice)
        return [(q, lost, steps[last], cut_at[last], points, cut_at[last]) for q, lost, points in hit]
    merged: dict = {}
    for marks in product(*[(False, True) if p else (False,) for p in chances]):
        q = 1.0
        for p, m in zip(chances, marks):
            q *= p if m else 1 - p
        h = h_snow = 0
        failed = False
        for s, m in zip(steps, marks):
            if m and s.to != "finish":
                h, h_snow = h + 1, h_snow + solver._snow(s.to)
                if solver._lost(s.to, h, h_snow):
                    failed = True
                    break
        rolled = tuple(sorted((s.die, m) for s, m in zip(steps, marks)))
        key = loss_points(solver, node, gear, rolled) if failed else None
        merged[key] = merged.get(key, 0.0) + q
    return [(q, points is not None, steps[last], cut_at[last], points, cut_at[last]) for points, q in merged.items()]


def _table(solver, node: str, gear: int, dice: tuple) -> list[tuple]:
    """(chance, failed, places) for ``dice`` ((die, chance of a mark, crosses the finish), ...) rolled together
    where the turn's limit is the same number on every cell."""
    limit = solver.rules.hazard_limit_for(solver.car.tyres, "asphalt", None)
    merged: dict = {}
    for marks in product(*[(False, True) if p else (False,) for _, p, _ in dice]):
        q = 1.0
        for (_, p, _), m in zip(dice, marks):
            q *= p if m else 1 - p
        failed = sum(m and not fin for (_, _, fin), m in zip(dice, marks)) >= limit
        key = _points_alike(solver, node, gear, tuple((d, m) for (d, _, _), m in zip(dice, marks)), limit) \
            if failed else None
        merged[key] = merged.get(key, 0.0) + q
    return [(q, points is not None, points) for points, q in merged.items()]


def _points_alike(solver, node: str, gear: int, rolled: tuple, limit: int) -> tuple[Point, ...]:
    """:func:`loss_points` where the limit is one number on every cell: a chain of the rolled dice ends in a loss
    when it uses exactly ``limit`` marked dice, the last of them marked. The chains are the boundary's plans (every
    safe chain of two dice or more), grouped by the gear dice and gas dice they use and their last die."""
    gears = marked = gas = gas_marked = 0
    for die, m in rolled:
        if die == "gas":
            gas, gas_marked = gas + 1, gas_marked + m
        else:
            gears |= BIT[die]
            marked |= BIT[die] if m else 0
    key = ("alike", node, gear, gears, marked, gas, gas_marked)
    hit = solver._relay_cache.get(key)
    if hit is not None:
        return hit
    found: set = set()
    for used, used_gas, last, points in _chains(solver, node, gear):
        if used & ~gears or used_gas > gas:
            continue
        x = limit - bin(used & marked).count("1")             # the marked gas dice the chain must use
        if not max(0, used_gas - (gas - gas_marked)) <= x <= min(used_gas, gas_marked):
            continue
        if (x < 1) if last == "gas" else not BIT[last] & marked:
            continue
        found |= points
    out = solver._relay_cache[key] = tuple(sorted(found, key=lambda p: (p[0], str(p[1]), p[2])))
    return out


def _chains(solver, node: str, gear: int) -> list[tuple]:
    """(gear dice used as bits, gas dice used, last die, the places such chains end) for the safe chains of two
    dice or more from a boundary (cached)."""
    key = ("chains", node, gear)
    hit = solver._relay_cache.get(key)
    if hit is None:
        groups: dict = {}
        for steps in solver._plans(node, gear):
            used = used_gas = cuts = 0
            prev = node
            for s in steps:
                if s.die == "gas":
                    used_gas += 1
                else:
                    used |= BIT[s.die]
                cuts += solver.draws_card(prev, s.to)
                prev = s.to
            end = steps[-1]
            point = ("finish", end.gear, cuts) if end.event == "finish" else ("loss", end.to, cuts)
            groups.setdefault((used, used_gas, end.die), set()).add(point)
        hit = solver._relay_cache[key] = [(*k, frozenset(v)) for k, v in groups.items()]
    return hit
