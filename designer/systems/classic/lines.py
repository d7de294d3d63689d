"""Lines over a classic course: the shortest line (fewest cells), the ideal line (a shakedown, ART.17: the
fewest seconds of time cards with no hazard rolled) and the gear-limit profile.

The ideal line is the shared turn search (:mod:`designer.racing.search`) over turn boundaries
``(cell, gear, finished)``, with the turns of :func:`designer.systems.classic.moves.turn_ends`.
"""
from __future__ import annotations

import functools

import networkx as nx

from designer.racing.course import format_time, shortest_line
from designer.racing.search import fastest_states, path_to
from designer.systems.classic import moves as M
from designer.systems.classic.rules import Rules


def ends_function(g: nx.DiGraph, rules: Rules, car: M.Car):
    @functools.lru_cache(maxsize=None)
    def ends(cell, gear):
        return M.turn_ends(g, rules, car, cell, gear)
    return ends


def turn_plan(g, rules: Rules, car: M.Car, node: str, gear: int, target: str, tgear: int) -> list[M.Step] | None:
    """One die sequence that takes a turn from (node, gear) to (target, tgear), fewest dice first."""
    best = None
    seen = set()

    def walk(state: M.TurnState):
        nonlocal best
        key = (state.node, state.gear, state.used, tuple(sorted(state.gas_used.items())))
        if key in seen or (best is not None and len(state.steps) >= len(best)):
            return
        seen.add(key)
        for die, to, s in M.legal_steps(g, rules, car, state):
            nxt = M.apply(g, rules, car, state, die, to)
            if nxt.node == target and nxt.gear == tgear:
                if best is None or len(nxt.steps) < len(best):
                    best = nxt.steps
                continue
            if s.event != "finish":
                walk(nxt)

    walk(M.TurnState(node, gear))
    return best


def ideal_line(g: nx.DiGraph, rules: Rules, car: M.Car | None = None) -> dict | None:
    """The fastest line with no hazard rolled: turns, their dice, cells and cards; None when the finish
    cannot be reached."""
    car = car or M.Car()
    ends = ends_function(g, rules, car)
    goal, prev = fastest_states(ends, ["start"], rules.time_card)
    if goal is None:
        return None
    states = path_to(goal, prev)
    turns, cells, seconds = [], [], 0
    for (c, gear, _), (c2, g2, fin) in zip(states, states[1:]):
        target = "finish" if fin else c2
        plan = turn_plan(g, rules, car, c, gear, target, g2) or []
        passed = [n for s in plan for n in (*s.passed, s.to)]
        cells += [(n, s.gear) for s in plan for n in (*s.passed, s.to)]
        seconds += rules.card(g2)
        turns.append({"from": c, "to": target, "gear": g2, "card": rules.card(g2),
                      "dice": [s.die for s in plan], "cells": passed,
                      "events": [s.event for s in plan if s.event]})
    return {"time_seconds": seconds, "time": format_time(seconds), "turns": turns, "turn_count": len(turns),
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
