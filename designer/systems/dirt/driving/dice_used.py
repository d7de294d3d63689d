"""How the turn engine packs what a turn has used into integers, and the small tables it reads them with.

The dice used so far in a turn are one int: bits 0-5 the gear dice 1-6, then a 3-bit count each of gas, brake,
leader and red-zone dice; a point of a turn without a risk budget is ``(cell << 3 | gear) << _POINT | used``.
Pure functions and tables, shared by :mod:`designer.systems.dirt.driving.rules` (the turn engine),
:mod:`designer.systems.dirt.driving.referee` and the dice room's plan search. Imports nothing of the project.
"""
from __future__ import annotations

from typing import Any

# The dice used so far in a turn, packed in one int: bits 0-5 the gear dice 1-6, then 3-bit counts.
_GAS, _BRAKE, _LEADER, _RZ = 6, 9, 12, 15
_CANON = 1 << 18
_M = 7
_MAX_DICE = 6 + 3 * _M          # the most dice one turn can use: every gear die, and full counts of the others


def _count(used: int, shift: int) -> int:
    return (used >> shift) & _M


def _ndice(used: int) -> int:
    """Dice used (a red-zone brake die counts once, as a brake)."""
    return (_POP[used & 63] + ((used >> _GAS) & _M) + ((used >> _BRAKE) & _M) + ((used >> _LEADER) & _M))


_POP = [bin(i).count("1") for i in range(64)]


def _canon_above(gear: int, mask: int) -> int:
    """Gear dice used, with every die above the first used one above ``gear`` marked used too."""
    for d in range(gear + 1, 7):
        if mask & (1 << (d - 1)):
            return mask | ((63 >> (d - 1)) << (d - 1))
    return mask


_CANON_ABOVE = [[_canon_above(g, m) for m in range(64)] for g in range(8)]
_POINT = 18                       # a point of a turn without a risk budget: (cell << 3 | gear) << _POINT | dice used
_USED = (1 << _POINT) - 1         # the dice used, the canon mark left out (it only prices a risk)
_COUNTS = _USED & ~63             # the counts of gas, brake, leader and red-zone dice


def _playable(gear: int, mask: int, brakes_left: int, skip: int) -> int:
    """The gear dice not in ``mask`` that some later die of the turn could still play from ``gear``: up one gear
    at a time through unused dice, down one or (with brake dice) up to ``skip`` gears more. A superset (every
    brake die counted for every move), so a die left out can never be played."""
    seen, todo = {gear}, [gear]
    while todo:
        x = todo.pop()
        for k in [x + 1, x - 1] + [x - 1 - b for b in range(1, min(skip, brakes_left) + 1)]:
            if 1 <= k <= 6 and not mask & (1 << (k - 1)) and k not in seen:
                seen.add(k)
                todo.append(k)
    return sum(1 << (k - 1) for k in seen if k >= 1 and not mask & (1 << (k - 1)))


_REDUCTIONS: dict[tuple, list] = {}


def _reduction(rules: Any, pool: Any) -> list:
    """``table[brakes used][gear][gear dice used]``: the gear dice used with every die that can no longer be played
    marked used too, so points of a turn that can do the same are one point. Only where marking a die changes no
    rule: every gear die in the pool (``gear_left`` never bites) and no red-zone brake (it counts as a gear die);
    otherwise the dice above the first used one above the gear (which holds under any pool)."""
    key = _reduction_key(rules, pool)
    table = _REDUCTIONS.get(key)
    if table is None:
        table = [[[_reduced_mask(rules, pool, b, g, mask) for mask in range(64)] for g in range(8)]
                 for b in range(_M + 1)]
        _REDUCTIONS[key] = table
    return table


def _reduction_key(rules: Any, pool: Any) -> tuple:
    """What the entries of :func:`_reduction`'s table depend on."""
    return rules.max_brake_skip, pool.brake, pool.gear, rules.options.red_zone


def _reduced_mask(rules: Any, pool: Any, brakes: int, gear: int, mask: int) -> int:
    """One entry of :func:`_reduction`'s table (for a reader that needs only a few of them)."""
    if gear and pool.gear >= 6 and not rules.options.red_zone:
        return mask | (63 & ~_playable(gear, mask, pool.brake - brakes, rules.max_brake_skip))
    return _CANON_ABOVE[gear][mask]


def _dominated(used: int, jumps: tuple, group: list) -> bool:
    """Whether an expanded point used no die that ``used`` did not (and no more jump dice)."""
    for u1, j1 in group:
        if u1 & 63 & ~used:
            continue
        if ((u1 >> _GAS) & _M) > ((used >> _GAS) & _M) or ((u1 >> _BRAKE) & _M) > ((used >> _BRAKE) & _M):
            continue
        if ((u1 >> _LEADER) & _M) > ((used >> _LEADER) & _M) or ((u1 >> _RZ) & _M) > ((used >> _RZ) & _M):
            continue
        if j1 and not _sub(j1, jumps):
            continue
        return True
    return False


def _sub(small: tuple, big: tuple) -> bool:
    rest = list(big)
    for x in small:
        if x in rest:
            rest.remove(x)
        else:
            return False
    return True
