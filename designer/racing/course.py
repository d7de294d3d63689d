"""What every dice-racing system shares about a course: its cell graph as plain data, the shortest line
over cells, and game times written as minutes and seconds.

A course is a ``networkx.DiGraph`` of cells in driving order: a cell's ``start`` / ``finish`` flags mark the
cells just behind the start line and just past the finish line, ``limit`` its speed limit (0: not drivable).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import networkx as nx

@dataclass
class CellLine:
    """A line through the cell graph, without gears: the cells after the start cell up to past the finish."""
    start: str
    cells: list[str] = field(default_factory=list)

    @property
    def length(self) -> int:
        return len(self.cells)

    def to_dict(self) -> dict:
        return {"start": self.start, "cells": self.length, "cell_list": list(self.cells)}


def format_time(seconds: float) -> str:
    """``185`` -> ``'3:05'``."""
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}"




def shortest_line(graph: nx.DiGraph) -> CellLine | None:
    """The fewest cells from a start cell to a cell past the finish line, ignoring gears (every cell
    except those limited to 0 can be driven in gear 1)."""
    open_cells = [n for n, d in graph.nodes(data=True) if d.get("limit") != 0]
    g = graph.subgraph(open_cells)
    starts = sorted(n for n, d in g.nodes(data=True) if d.get("start"))
    finishes = sorted(n for n, d in g.nodes(data=True) if d.get("finish"))
    best = None
    for s in starts:
        for f in finishes:
            try:
                path = nx.shortest_path(g, s, f)
            except nx.NetworkXNoPath:
                continue
            # Stop at the first finish cell on the way.
            cut = next(i for i, c in enumerate(path) if graph.nodes[c].get("finish"))
            path = path[:cut + 1]
            if best is None or len(path) < len(best):
                best = path
    if best is None:
        return None
    return CellLine(start=best[0], cells=best[1:])


CELL_KEYS = ("index", "tile", "cell", "lane", "a", "b", "pos", "limit", "corner", "path", "cut", "jump", "ford",
              "slide", "start", "finish", "danger", "terrain")


def graph_to_dict(graph: nx.DiGraph, keys: tuple[str, ...] = None) -> dict:
    """The cell graph as plain data: cells with their attributes and the legal one-cell moves."""
    cells = []
    for n, d in graph.nodes(data=True):
        item: dict[str, Any] = {"id": n}
        for k in keys or CELL_KEYS:
            v = d.get(k)
            if isinstance(v, float):
                v = round(v, 4)
            item[k] = v
        cells.append(item)
    links = [{"from": u, "to": v, "kind": d.get("kind")} for u, v, d in graph.edges(data=True)]
    return {"cells": cells, "links": links}


