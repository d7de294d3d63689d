"""The search over turn boundaries shared by dice-racing systems.

A state is ``(cell, gear, finished)`` at the end of a turn; ``ends(cell, gear)`` lists the states one legal
turn can end in, and a turn ending in gear ``g`` costs ``seconds[g]`` on the time card. The fastest line is the
cheapest path (fewest turns on a tie) from a start state to a finished one: Dijkstra with a binary heap.
"""
from __future__ import annotations

import heapq
from typing import Callable, Mapping

Ends = Callable[[int, int], list]


def fastest_states(ends: Ends, starts: list[int], seconds: Mapping[int, int]):
    """The finished goal state and the predecessor map of the cheapest path, or ``(None, prev)``."""
    best: dict = {}
    heap = []
    for s in starts:
        best[(s, 0, False)] = (0, 0)
        heap.append((0, 0, s, 0, False))
    heapq.heapify(heap)
    return dijkstra(ends, heap, best, seconds)


def path_to(goal, prev: dict) -> list:
    path = [goal]
    while path[-1] in prev:
        path.append(prev[path[-1]])
    path.reverse()
    return path


def dijkstra(ends: Ends, heap: list, best: dict, seconds: Mapping[int, int]):
    prev: dict = {}
    done = set()
    goal = None
    while heap:
        d, n, c, g, fin = heapq.heappop(heap)
        state = (c, g, fin)
        if state in done:
            continue
        done.add(state)
        if fin:
            goal = state
            break
        for v, ng, f in ends(c, g):
            nxt = (v, ng, f)
            if nxt in done:
                continue
            cost = (d + seconds[ng], n + 1)
            old = best.get(nxt)
            if old is None or cost < old:
                best[nxt] = cost
                prev[nxt] = state
                heapq.heappush(heap, (cost[0], cost[1], v, ng, f))
    return goal, prev


