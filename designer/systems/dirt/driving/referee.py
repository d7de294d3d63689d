"""The referee of one DIRT turn: play a planned turn die by die and, when it is not legal, say which rule it
breaks and where the rulebook says so (for tests against the rulebook's examples and for users checking a move).
"""
from __future__ import annotations

from typing import Sequence

import networkx as nx

from designer.core.errors import DesignerError
from designer.systems.dirt.driving.rules import (_BRAKE, _RZ, Pool, Ruleset, Step, Turn, TurnEngine,  # noqa: F401
                                                 _cell_index, _count, engine_for)


class IllegalMove(DesignerError):
    """A die or a cell that the rules do not allow at that point of the turn."""


def _parse_dice(dice) -> tuple[str, ...]:
    if isinstance(dice, (int, str)):
        dice = (dice,)
    out = []
    for d in dice:
        if isinstance(d, int) or (isinstance(d, str) and d.isdigit()):
            out.append(f"gear{int(d)}")
        elif isinstance(d, str) and d.strip().lower() in ("gas", "leader", "brake") or (
                isinstance(d, str) and d.strip().lower().startswith("gear")):
            out.append(d.strip().lower())
        else:
            raise IllegalMove(f"unknown die {d!r}", hint="dice are gear1..gear6 (or 1..6), gas, leader, brake")
    return tuple(out)


def _why_die(engine: TurnEngine, gear: int, used: int, dice: tuple[str, ...]) -> str:
    rules, pool = engine.rules, engine.pool
    gears = [d for d in dice if d.startswith("gear")]
    brakes = dice.count("brake")
    others = [d for d in dice if d not in ("brake",) and not d.startswith("gear")]
    for d in gears:
        if d[4:] not in {str(g) for g in rules.gears}:
            return f"there is no {d} die (gears {rules.gears[0]}-{rules.gears[-1]})"
    if len(gears) > 1 or (others and (gears or brakes)) or len(others) > 1:
        return "one move uses one die (a gear die may take brake dice with it)"
    if others:
        kind = others[0]
        if gear == 0:
            return f"no {kind} die in gear 0: the first die of a stage is gear1 (p. 8 'Les dés Gaz blancs')"
        n = getattr(pool, kind)
        if n == 0:
            if kind == "leader":
                return "no leader die in this dashboard column (only the first player on gravel uses it, p. 8)"
            return f"no {kind} die in this dashboard column"
        return f"all {n} {kind} dice are used this turn (each die once per turn)"
    if not gears:
        if rules.options.red_zone:
            if gear != rules.top_gear:
                return f"a brake die alone counts as gas only in top gear {rules.top_gear} (red zone, p. 23)"
            return "no brake die left for the red zone"
        return "a brake die is played with a gear die (p. 9); alone only with the red-zone option"
    k = int(gears[0][4:])
    if used & (1 << (k - 1)):
        return f"the gear{k} die is already used this turn (each die once per turn)"
    if bin(used & 63).count("1") + _count(used, _RZ) >= pool.gear:
        return f"the dashboard allows {pool.gear} gear dice per turn"
    if gear == 0:
        if k == 2 and not brakes:
            return "from gear 0 the first die is gear1; gear2 only with the canon-start option (p. 23)"
        return "from gear 0 the first die is gear1 (p. 8, Raphaël's example)"
    if k > gear + 1:
        return f"gear {gear} -> {k}: gears go up one at a time (p. 8)"
    if brakes and k >= gear - 1:
        return f"brake dice drop 2 to 4 gears; gear {gear} -> {k} needs none (p. 9)"
    if k < gear - 1:
        skip = gear - 1 - k
        if skip > rules.max_brake_skip:
            return f"gear {gear} -> {k} drops {gear - k} gears: one brake move drops at most {rules.max_brake_skip + 1}"
        if brakes != skip:
            return (f"gear {gear} -> {k} skips {skip} gear{'s' if skip > 1 else ''}: play {skip} brake "
                    f"{'dice' if skip > 1 else 'die'} with the gear{k} die, not {brakes} (p. 9)")
        left = pool.brake - _count(used, _BRAKE)
        return f"only {left} brake {'die' if left == 1 else 'dice'} left this turn"
    return "not a legal die here"


def _why_cell(engine: TurnEngine, cell: int, gear: int, opt, path: tuple[str, ...]) -> str:
    road = engine.road
    names = road.nodes
    if not path:
        return "a move names the cell it goes to"
    for p in path:
        if p not in road.index:
            return f"no cell {p!r} in this track"
    v = road.index[path[0]]
    if v not in road.succ[cell]:
        return f"{path[0]} is not one cell forward from {names[cell]} (moves go straight or diagonally forward)"
    ng, kind = opt[0], opt[3]
    lim = road.limit[v]
    if ng > lim:
        what = "the cut" if road.graph.nodes[path[0]].get("cut") is not None else "cell"
        return (f"{what} {path[0]} may be entered in gear {lim} at most: gear {ng} there is a loss of control "
                f"(p. 11 'Limitations de vitesse')")
    if road.ford[v] and kind in ("brake", "canon"):
        if kind == "canon":
            return f"{path[0]} is a ford: a canon-start gear 2 cannot stop there in gear 0 (p. 14, p. 23)"
        return f"{path[0]} is a ford: no brake dice onto a ford (p. 14 'Gués')"
    if road.ford[v] and not (kind in ("gas", "leader", "red-zone") or (kind == "gear" and ng == 1)) and gear > lim:
        return (f"{path[0]} is a ford limited to gear {lim}: this die stops the car there in gear {gear}, "
                f"above the limit (p. 11, p. 14)")
    jv = road.jump[v]
    gas_like = kind in ("gas", "leader", "red-zone")
    value = ng if (not gas_like or engine.rules.jump_gas_counts_gear) else 0
    if jv and value >= jv and not road.finish[v]:
        if value >= jv + 2:
            return (f"{path[0]} is a jump of {jv}: gear {value} is two or more above it, a loss of control "
                    f"on landing (p. 12 'Sauts')")
        n = 1 if value == jv else 2
        return (f"{path[0]} is a jump of {jv}: in gear {value} the die moves {n} cell{'s' if n > 1 else ''} further "
                f"(straight or diagonal); give the jump cell, {'the cell flown over, ' if n == 2 else ''}and the "
                f"landing cell, all legal to land on (p. 12 'Sauts')")
    if len(path) > 1:
        return f"one die moves one cell here; {path[0]} is not a jump taken in gear {jv} or more"
    return f"no legal way to {path[0]} with these dice"


def play_turn(graph: nx.DiGraph, cell: str, gear: int, moves: Sequence, rules: Ruleset | None = None, *,
              leader: bool = False, pool: Pool | None = None) -> Turn:
    """Check a planned turn and return it, or raise :class:`IllegalMove` saying which move breaks which rule.

    ``moves`` is a list of ``(dice, cells)``: dice ``3`` / ``"gear3"``, ``"gas"``, ``"leader"``, ``(2, "brake")``
    or ``"brake"`` (red zone); cells one cell id, or for a jump the jump cell, any cell flown over and the
    landing cell. An empty list is legal only when no move exists (the car is blocked).
    """
    engine = engine_for(graph, rules, cell=cell, leader=leader, pool=pool)
    road = engine.road
    c = _cell_index(road, cell)
    g, used, jumps, term = gear, 0, (), 0
    steps: list[Step] = []
    for n, move in enumerate(moves, start=1):
        try:
            dice, cells = move
        except (TypeError, ValueError):
            raise IllegalMove(f"move {n}: write a move as (dice, cell)") from None
        dice_t = _parse_dice(dice)
        path = (cells,) if isinstance(cells, str) else tuple(cells)
        if term:
            why = "the finish line is crossed" if term == 2 else "the car stopped in a ford"
            raise IllegalMove(f"move {n}: the turn has ended at {road.nodes[c]} ({why}; p. 14, p. 20)")
        opt = next((o for o in engine.die_options(g, used) if sorted(o[2]) == sorted(dice_t)), None)
        if opt is None:
            raise IllegalMove(f"move {n} ({'+'.join(dice_t)} in gear {g}): {_why_die(engine, g, used, dice_t)}")
        found = None
        for res in engine.cell_moves(c, g, opt):
            if tuple(road.nodes[x] for x in res[3][1]) == path:
                found = res
                break
        if found is None:
            raise IllegalMove(f"move {n} ({'+'.join(dice_t)} to {'/'.join(path)}): "
                              f"{_why_cell(engine, c, g, opt, path)}")
        v, ng, term, (_, _, step_gear, events), jump_die = found
        used = opt[1]
        if jump_die is not None:
            jumps = tuple(sorted(jumps + (jump_die,)))
        steps.append(Step(dice=opt[2], cells=path, gear=step_gear, events=events))
        c, g = v, step_gear
    if not steps:
        if any(True for _ in engine.moves(c, g, 0, ())):
            raise IllegalMove("a turn moves at least one cell when a move exists (p. 10 'Se déplacer')")
        return Turn(start=cell, start_gear=gear, steps=(), seconds=engine.rules.seconds(gear) if gear else 0,
                    risk=0.0)
    return Turn(start=cell, start_gear=gear, steps=tuple(steps), seconds=engine.rules.seconds(g),
                risk=engine.risk(used, jumps))
