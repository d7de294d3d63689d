"""Lines over a classic course: the shortest line (fewest cells), the ideal line (a shakedown, ART.17: the
fewest seconds of time cards with no hazard rolled) and the gear-limit profile.

The ideal line is the shared turn search (:mod:`designer.racing.search`) over turn boundaries
``(cell, gear, finished)``, with the turns of :func:`designer.systems.classic.dice.moves.turn_ends`.
"""
from __future__ import annotations

import functools

import networkx as nx

from designer.racing.course import format_time, shortest_line
from designer.racing.search import fastest_states, path_to
from designer.systems.classic.dice import moves as M
from designer.systems.classic.files.rules import Rules


def ends_function(g: nx.DiGraph, rules: Rules, car: M.Car):
    @functools.lru_cache(maxsize=None)
    def ends(cell, gear):
        return M.turn_ends(g, rules, car, cell, gear)
    return ends


def turn_plan(g, rules: Rules, car: M.Car, node: str, gear: int, target: str, tgear: int,
              most: bool = False) -> list[M.Step] | None:
    """One die sequence that takes a turn from (node, gear) to (target, tgear), fewest dice first (``most``:
    the most dice, as a Big Attack wants)."""
    best = None
    seen = set()

    def better(steps) -> bool:
        return best is None or (len(steps) > len(best) if most else len(steps) < len(best))

    def walk(state: M.TurnState):
        nonlocal best
        key = (state.node, state.gear, state.used, tuple(sorted(state.gas_used.items())))
        if key in seen or (not most and best is not None and len(state.steps) >= len(best)):
            return
        seen.add(key)
        for die, to, s in M.legal_steps(g, rules, car, state):
            nxt = M.apply(g, rules, car, state, die, to)
            if nxt.node == target and nxt.gear == tgear:
                if better(nxt.steps):
                    best = nxt.steps
                if not most or s.event == "finish":
                    continue
            if s.event != "finish":
                walk(nxt)

    walk(M.TurnState(node, gear))
    return best


def attack_bonus(dice: int, big_attack: bool) -> int:
    """Seconds a turn of ``dice`` dice can win: one per die rolled together, from two dice (ART.5)."""
    return dice if big_attack and dice >= 2 else 0


def _fastest_with_attack(g: nx.DiGraph, rules: Rules, car: M.Car):
    """The cheapest chain of turns when each turn costs its card less the Big Attack seconds of its dice.
    A turn always moves on, so the states are solved in the order of the cells (no sign needed on a cost)."""
    order = {n: i for i, n in enumerate(nx.topological_sort(g))}
    best = {("start", 0, False): (0, None)}
    todo = [("start", 0, False)]
    goal = None
    while todo:
        todo.sort(key=lambda s: (order[s[0]], s[1]))
        state = todo.pop(0)
        cost = best[state][0]
        if state[2]:
            if goal is None or cost < best[goal][0]:
                goal = state
            continue
        for end, dice in M.turn_ends_dice(g, rules, car, state[0], state[1]).items():
            c = cost + rules.card(end[1]) - attack_bonus(dice, True)
            if end not in best:
                todo.append(end)
            if end not in best or c < best[end][0]:
                best[end] = (c, state)
    if goal is None:
        return None, {}
    prev = {s: p for s, (_, p) in best.items() if p is not None}
    return goal, prev


def ideal_line(g: nx.DiGraph, rules: Rules, car: M.Car | None = None, big_attack: bool = False) -> dict | None:
    """The fastest line with no hazard rolled: turns, their dice, cells and cards; None when the finish
    cannot be reached. With ``big_attack`` every turn of two dice or more wins a second per die (ART.5), so
    that no policy under the dice can beat this time: it is a floor."""
    car = car or M.Car()
    if big_attack:
        goal, prev = _fastest_with_attack(g, rules, car)
    else:
        goal, prev = fastest_states(ends_function(g, rules, car), ["start"], rules.time_card)
    if goal is None:
        return None
    states = path_to(goal, prev)
    turns, cells, seconds, won = [], [], 0, 0
    for (c, gear, _), (c2, g2, fin) in zip(states, states[1:]):
        target = "finish" if fin else c2
        plan = turn_plan(g, rules, car, c, gear, target, g2, most=big_attack) or []
        bonus = attack_bonus(len(plan), big_attack)
        passed = [n for s in plan for n in (*s.passed, s.to)]
        cells += [(n, s.gear) for s in plan for n in (*s.passed, s.to)]
        seconds += rules.card(g2)
        won += bonus
        events = [s.event for s in plan if s.event]
        if any(s.event == "finish" and s.damage for s in plan):
            events.append("loss of control crossing the finish: a black die lost (ART.13)")
        turns.append({"from": c, "to": target, "gear": g2, "card": rules.card(g2), "attack_seconds": bonus,
                      "dice": [s.die for s in plan], "cells": passed, "events": events})
    total = seconds - won
    return {"time_seconds": total, "time": format_time(total), "cards_seconds": seconds, "attack_seconds": won,
            "big_attack": big_attack, "turns": turns, "turn_count": len(turns),
            "finish_damage": sum(1 for t in turns for e in t["events"] if e.startswith("loss of control crossing")),
            "cells": [c for c, _ in cells if c != "finish"], "gears": [gr for c, gr in cells if c != "finish"]}


def shortest(g: nx.DiGraph) -> list[str] | None:
    line = shortest_line(g)
    if line is None:
        return None
    return [c for c in line.cells if c != "finish"]


def main_line(g: nx.DiGraph) -> list[str]:
    """The cells of the road itself (inside lines through corners), start to finish."""
    out, cur = [], "start"
    seen = set()
    while cur != "finish" and cur not in seen:
        seen.add(cur)
        succ = [v for v in g.successors(cur) if g.nodes[v].get("lane") in ("road", "inside", "finish")
                and g.edges[cur, v].get("kind") == "road"]
        if not succ:
            break
        cur = sorted(succ)[0]
        if cur != "finish":
            out.append(cur)
    return out


def limit_profile(g: nx.DiGraph, cells: list[str], gears: list[int] | None = None) -> list[dict]:
    """Per cell of a line: where it is, its limit (drift: imposed gear) and the gear the line uses."""
    out = []
    for i, n in enumerate(cells):
        d = g.nodes[n]
        out.append({"cell": n, "zone": d.get("zone"), "lane": d.get("lane"), "limit": d.get("limit"),
                    "exact": d.get("exact"), "bump": d.get("bump"), "ford": bool(d.get("ford")),
                    "gear": gears[i] if gears else None})
    return out
