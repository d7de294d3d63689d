"""The road of a DIRT stage as the turn engine reads it, and what a turn is made of.

:class:`Road` is a compact view of a cell graph (cells numbered in driving order, their successors, limits,
jumps, fords, cuts and the finish line) built once per graph by :func:`road_of`; :class:`Step` is one die and
the cells it moves the car through, :class:`Turn` a whole legal turn. The legal moves themselves are in
:mod:`designer.systems.dirt.driving.rules`.
"""
from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from designer.core.scratch import scratch

# -- the road: a compact view of a cell graph -----------------------------------------------

class Road:
    """Index arrays of a cell graph for fast move generation (built once per graph)."""

    def __init__(self, graph: nx.DiGraph, surface: str | None = None):
        self.graph = graph
        nodes = list(graph.nodes)
        if nodes and all(graph.nodes[n].get("pos") is not None for n in nodes):
            # Along the road: every move goes to a higher index, which keeps turn-end sets short (see reach).
            order = {n: i for i, n in enumerate(nodes)}
            nodes.sort(key=lambda n: (graph.nodes[n]["pos"], graph.nodes[n].get("lane") or 0, order[n]))
        self.nodes: list[str] = nodes
        self.index = {n: i for i, n in enumerate(self.nodes)}
        n = len(self.nodes)
        self.limit = [99] * n
        self.ford = [False] * n
        self.finish = [False] * n
        self.start = [False] * n
        self.jump = [0] * n
        self.surface: list[str] = [surface or "gravel"] * n
        for i, name in enumerate(self.nodes):
            d = graph.nodes[name]
            lim = d.get("cut") if d.get("cut") is not None else d.get("limit")
            if lim is not None:
                self.limit[i] = int(lim)
            self.ford[i] = bool(d.get("ford"))
            self.finish[i] = bool(d.get("finish"))
            self.start[i] = bool(d.get("start"))
            self.jump[i] = int(d.get("jump") or 0)
            if d.get("terrain"):
                self.surface[i] = d["terrain"]
        self.succ: list[tuple[int, ...]] = [tuple(self.index[v] for v in graph.successors(u)) for u in self.nodes]
        self.fly: list[tuple[int, ...]] = [
            tuple(self.index[v] for v in graph.successors(u)
                  if graph.edges[u, v].get("kind", "straight") in ("straight", "diagonal"))
            for u in self.nodes]
        # How far back (in index) one turn can ever go: 0 when every link goes forward in index order.
        back = max((u - v for u in range(n) for v in self.succ[u]), default=0)
        self.margin = max(0, back) * 40

    def starts(self) -> list[int]:
        return [i for i, s in enumerate(self.start) if s]


def road_of(graph: nx.DiGraph, surface: str | None = None) -> Road:
    """The :class:`Road` of a cell graph (kept on the graph: :func:`designer.core.scratch.scratch`)."""
    sig = (graph.number_of_nodes(), graph.number_of_edges(), surface)
    kept = scratch(graph, "road")
    hit = kept.get("road")
    if hit is not None and hit[0] == sig:
        return hit[1]
    road = Road(graph, surface)
    kept["road"] = (sig, road)
    return road


# -- one turn --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    """One die (or one brake move: a gear die with its brake dice) and the cells it moves the car through.

    ``cells`` is one cell, or for a jump the jump cell, the cell flown over (if any) and the landing
    cell. ``gear`` is the car's gear after the die. ``events``: ``jump``, ``long-jump`` (one gear
    above the jump: a hazard on this die is a loss of control), ``ford-stop`` (a ford entered with
    another die than gas or gear 1: the move stops, the gear stays), ``finish``, ``canon``, ``red-zone``.
    """
    dice: tuple[str, ...]
    cells: tuple[str, ...]
    gear: int
    events: tuple[str, ...] = ()

    @property
    def cell(self) -> str:
        return self.cells[-1]

    def to_dict(self) -> dict:
        out = {"cell": self.cells[-1], "cells": list(self.cells), "dice": list(self.dice), "gear": self.gear}
        if self.events:
            out["events"] = list(self.events)
        return out


@dataclass(frozen=True)
class Turn:
    """A legal turn: the dice in order, where the car ends, the time card and the chance of a loss of control."""
    start: str
    start_gear: int
    steps: tuple[Step, ...]
    seconds: int
    risk: float

    @property
    def end(self) -> str:
        return self.steps[-1].cell if self.steps else self.start

    @property
    def gear(self) -> int:
        """The gear of the time card taken at the end of the turn."""
        return self.steps[-1].gear if self.steps else self.start_gear

    @property
    def finished(self) -> bool:
        return any("finish" in s.events for s in self.steps)

    @property
    def cells(self) -> list[str]:
        return [c for s in self.steps for c in s.cells]

    @property
    def dice(self) -> list[str]:
        return [d for s in self.steps for d in s.dice]

    def to_dict(self) -> dict:
        return {"start": self.start, "start_gear": self.start_gear, "end": self.end, "gear": self.gear,
                "seconds": self.seconds, "loss_of_control_chance": round(self.risk, 6),
                "finished": self.finished, "cells": len(self.cells), "dice": len(self.dice),
                "steps": [s.to_dict() for s in self.steps]}
