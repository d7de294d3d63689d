"""Racing lines: graph searches over cells and over turns (networkx).

- :func:`fastest_line`: the least total time-card seconds from the start grid past the finish line,
  hazards not rolled (a shakedown run). A shortest path (Dijkstra) whose nodes are turn boundaries
  (cell, gear) and whose edges are the legal turns between them, weighted by the time card of the gear
  the turn ends in. Every state's turns are enumerated once (:meth:`TurnEngine.reach`).
- the same under a risk budget: ``fastest_line(track, max_risk=0.1)`` uses no turn whose chance of
  reaching the hazard limit (or of a hazard on a long jump) exceeds 10 %.
- :func:`shortest_line`: the fewest cells from the start to the finish (``nx.shortest_path``).
- :func:`speed_limits`: for every cell, the highest gear a car can be in there and still drive the
  rest of the stage legally.
- all of it as one JSON-ready dict, with the expected time under the dice: :func:`designer.systems.dirt.analysis.analyze`.

>>> from designer.systems.dirt.board.stage import load_stage
>>> from designer.systems.dirt.board.track import load_track
>>> line = fastest_line(load_track(load_stage("stages/dirt/rally-1/ss1.yaml")))
>>> line.seconds > 0 and line.turns[-1].finished
True
"""
from __future__ import annotations

import contextlib
import gc
import heapq
from dataclasses import dataclass
from typing import Any

import networkx as nx

from designer.core.errors import DesignerError
from designer.core.scratch import scratch
from designer.racing import course as _course
from designer.racing.course import CellLine, format_time, graph_to_dict  # noqa: F401  (part of this module's API)
from designer.racing.search import dijkstra, path_to
from designer.systems.dirt.driving.rules import Ruleset, Step, Turn, TurnEngine, load_ruleset, road_of
from designer.systems.dirt.driving.windows import Windows, moves_in_a_turn

__all__ = ["Line", "CellLine", "fastest_line", "shortest_line", "speed_limits", "turn_graph",
           "check_track", "graph_to_dict"]


# -- results -----------------------------------------------------------------------------------

@dataclass
class Line:
    """A racing line: the turns from the start grid past the finish line."""
    turns: list[Turn]
    max_risk: float | None = None
    leader: bool = False

    @property
    def seconds(self) -> int:
        return sum(t.seconds for t in self.turns)

    @property
    def cells(self) -> list[str]:
        """Every cell the car passes through after the start cell (jumps included), in order."""
        return [c for t in self.turns for c in t.cells]

    @property
    def length(self) -> int:
        return len(self.cells)

    def cell_gears(self) -> list[tuple[str, int]]:
        """(cell, gear) for the start cell and every cell passed, for drawing the line with its gears."""
        out = [(self.start, self.turns[0].start_gear)] if self.turns else []
        for t in self.turns:
            for s in t.steps:
                out += [(c, s.gear) for c in s.cells]
        return out

    @property
    def start(self) -> str:
        return self.turns[0].start

    @property
    def loss_of_control_chance(self) -> float:
        """Chance of at least one loss of control if every turn is rolled as planned."""
        p = 1.0
        for t in self.turns:
            p *= 1.0 - t.risk
        return 1.0 - p

    @property
    def max_turn_risk(self) -> float:
        return max((t.risk for t in self.turns), default=0.0)

    def to_dict(self) -> dict:
        return {
            "start": self.start, "start_gear": self.turns[0].start_gear,
            "seconds": self.seconds, "time": format_time(self.seconds), "turns": len(self.turns),
            "cells": self.length, "dice": sum(len(t.dice) for t in self.turns),
            "loss_of_control_chance": round(self.loss_of_control_chance, 6),
            "max_turn_loss_of_control_chance": round(self.max_turn_risk, 6),
            "max_risk": self.max_risk, "leader": self.leader,
            "turn_list": [dict(turn=i, **t.to_dict()) for i, t in enumerate(self.turns, start=1)],
        }


# -- inputs ------------------------------------------------------------------------------------

def check_track(track) -> nx.DiGraph:
    """The cell graph of a Track (or a graph), or a DesignerError saying why no line can be searched."""
    if isinstance(track, nx.DiGraph):
        graph = track
    else:
        if getattr(track, "unknown", None):
            names = ", ".join(f"{tile} (tile {i + 1})" for i, tile in track.unknown)
            raise DesignerError(f"the stage uses tiles its tileset does not know: {names}",
                                hint="check the face ids, e.g. 210a; `rally-designer tiles` lists them")
        if getattr(track, "errors", None):
            raise DesignerError("the stage does not assemble: " + "; ".join(f"tile {i + 1}: {m}" for i, m in track.errors),
                                hint="fix the entry edges so each tile's road meets the next one")
        missing = track.missing_cells()
        if missing:
            faces = sorted({t.tile for t in missing})
            raise DesignerError(f"no cell graph yet for {len(faces)} face{'s' if len(faces) != 1 else ''}: "
                                f"{', '.join(faces)}",
                                hint="lines and timing need the cells of every road tile; add `cells:` to these "
                                     "faces in the tileset (see tilesets/README.md)")
        graph = track.graph
    if graph.number_of_nodes() == 0:
        raise DesignerError("the stage has no cells", hint="a stage needs road tiles with cell graphs")
    if not any(d.get("start") for _, d in graph.nodes(data=True)):
        raise DesignerError("the stage has no start cells (the cells just behind the start line)",
                            hint="begin the stage with a start tile (202a or 202b)")
    if not any(d.get("finish") for _, d in graph.nodes(data=True)):
        raise DesignerError("the stage has no finish cells (the cells just past the finish line)",
                            hint="end the stage with a finish tile (203a or 203b)")
    return graph


def _stage_surface(track) -> str | None:
    stage = getattr(track, "stage", None)
    return getattr(stage, "surface", None) if stage is not None else None


def _rules_for(track, rules: Ruleset | None) -> Ruleset:
    rules = rules or load_ruleset()
    stage = getattr(track, "stage", None)
    if stage is not None and getattr(stage, "options", None) is not None:
        rules = rules.with_options(stage.options)
    return rules


@contextlib.contextmanager
def _gc_paused():
    """Pause the cyclic garbage collector during a search: the turn memo allocates many small tuples that hold
    no cycles, and collections triggered by them cost more than the search when other large data is alive."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


#: Ends of turns and whole turns found on earlier roads, by the window of road they saw (see
#: :mod:`designer.systems.dirt.driving.windows`), the rules, the dashboard column and the risk budget: an edited stage,
#: another stage of the same rally or a generated candidate asks the turn engine only where its road is new.
_SHARED: dict = {}
#: Entries kept before the store starts afresh: the bundled rulebook and demonstration stages make about 10,000
#: (about 54 MB); this bound keeps the store under about 90 MB in a long-running app or batch.
_SHARED_MAX = 16_000
_SETTINGS: dict[tuple, int] = {}            # rules, leader, risk budget and dashboard column, numbered


_SHARING = [True]


def _stop_sharing() -> None:
    _SHARING[0] = False
    _SHARED.clear()


def _share(key, value):
    if len(_SHARED) >= _SHARED_MAX:
        _SHARED.clear()
    _SHARED[key] = value
    return value


class _Turns:
    """The turn graph of one stage, built lazily: one engine per dashboard column."""

    def __init__(self, graph: nx.DiGraph, rules: Ruleset, leader: bool, max_risk: float | None,
                 surface: str | None = None):
        self.road = road_of(graph)
        self.rules = rules
        self.leader = leader
        self.max_risk = max_risk
        self.surface = surface
        self._engines: dict = {}
        self._engine_of: dict[int, TurnEngine] = {}     # per cell (a dashboard column is hashed once per cell)
        self._pools: dict[int, Any] = {}
        self._ends: dict[tuple[int, int], list] = {}
        self._windows: dict = {}                 # per dashboard column: the road's windows and the settings' number
        self._win_of: dict = {}
        self._windows_of: dict = {}              # per cell: the road's windows for its dashboard column
        self._adj: dict | None = None

    def pool(self, cell: int):
        pool = self._pools.get(cell)
        if pool is None:
            surface = self.road.graph.nodes[self.road.nodes[cell]].get("terrain") or self.surface or "gravel"
            pool = self._pools[cell] = self.rules.pool(surface, self.leader)
        return pool

    def engine(self, cell: int) -> TurnEngine:
        eng = self._engine_of.get(cell)
        if eng is None:
            pool = self.pool(cell)
            eng = self._engines.get(pool)
            if eng is None:
                eng = self._engines[pool] = TurnEngine(self.road, self.rules, pool, self.max_risk)
            self._engine_of[cell] = eng
        return eng

    def window(self, cell: int):
        """The key of what a turn from ``cell`` sees (None where turns are not shared: a circuit's laps)."""
        if not _SHARING[0]:
            return None
        hit = self._win_of.get(cell, False)
        if hit is not False:
            return hit
        pool = self.pool(cell)
        windows = self._windows.get(pool)
        if windows is None:
            settings = (self.rules.key, self.leader, self.max_risk, pool)
            token = _SETTINGS.get(settings)
            if token is None:
                token = _SETTINGS[settings] = len(_SETTINGS)
            windows = self._windows[pool] = (Windows(self.road, moves_in_a_turn(pool, self.rules)), token)
        win = windows[0].window(cell) if _SHARING[0] else None
        self._windows_of[cell] = windows[0]
        hit = self._win_of[cell] = None if win is None else (windows[1], win)
        return hit

    def ends(self, cell: int, gear: int) -> list[tuple[int, int, bool]]:
        key = (cell, gear)
        hit = self._ends.get(key)
        if hit is None:
            win = self.window(cell)
            kept = None if win is None else _SHARED.get((win, gear))
            if kept is None:
                hit = self.engine(cell).ends(cell, gear)
                if win is not None:
                    if self._windows_of[cell].check(cell, hit):
                        _share((win, gear), (cell, hit))    # the ends as found from `cell` (never changed)
                    else:                       # the rules moved a car past the window: share nothing any more
                        _stop_sharing()
            else:
                at, hit = kept
                if at != cell:
                    shift = cell - at
                    hit = [(v + shift, g, f) for v, g, f in hit]
            self._ends[key] = hit
        return hit

    def best_turn(self, cell: int, gear: int, end: int, end_gear: int, finished: bool) -> Turn:
        win = self.window(cell)
        if win is None:
            return self.engine(cell).best_turn(cell, gear, end, end_gear, finished)
        key = (win, gear, end - cell, end_gear, finished, "turn")
        kept = _SHARED.get(key)
        names, index = self.road.nodes, self.road.index
        if kept is None:
            turn = self.engine(cell).best_turn(cell, gear, end, end_gear, finished)
            if turn is not None:
                steps = tuple((s.dice, tuple(index[c] - cell for c in s.cells), s.gear, s.events) for s in turn.steps)
                _share(key, (steps, turn.seconds, turn.risk))
            return turn
        steps, seconds, risk = kept
        return Turn(start=names[cell], start_gear=gear, seconds=seconds, risk=risk,
                    steps=tuple(Step(dice=d, cells=tuple(names[cell + c] for c in cells), gear=g, events=e)
                                for d, cells, g, e in steps))

    def explore(self) -> dict[tuple[int, int, bool], list[tuple[int, int, bool]]]:
        """Every state reachable from the start grid and its successors (the whole turn graph; made once)."""
        if self._adj is not None:
            return self._adj
        adj: dict = {}
        todo = [(s, 0, False) for s in self.road.starts()]
        seen = set(todo)
        with _gc_paused():
            while todo:
                state = todo.pop()
                nxt = [] if state[2] else self.ends(state[0], state[1])
                adj[state] = nxt
                for n in nxt:
                    if n not in seen:
                        seen.add(n)
                        todo.append(n)
        self._adj = adj
        return adj


_TURNS_PER_GRAPH = 6


def _turns_for(graph: nx.DiGraph, rules: Ruleset, leader: bool, max_risk: float | None,
               surface: str | None) -> _Turns:
    """A cached :class:`_Turns` per graph and settings, so a line, a profile and an analysis share their work."""
    sig = (graph.number_of_nodes(), graph.number_of_edges())
    per_graph = scratch(graph, "turns")                # kept on the graph, gone with it
    if per_graph.get("sig") != sig:
        per_graph.clear()
        per_graph["sig"] = sig
    key = (rules.key, leader, max_risk, surface)
    turns = per_graph.get(key)
    if turns is None:
        if len(per_graph) > _TURNS_PER_GRAPH:      # keep the few latest settings (e.g. a risk slider)
            del per_graph[next(k for k in per_graph if k != "sig")]
        turns = per_graph[key] = _Turns(graph, rules, leader, max_risk, surface)
    return turns


# -- the fastest line ----------------------------------------------------------------------------

def fastest_line(track, rules: Ruleset | None = None, *, max_risk: float | None = None, leader: bool = False,
                 start: str | None = None) -> Line | None:
    """The line with the least total time-card seconds (fewest turns on a tie), or None if no legal line.

    Parameters
    ----------
    track : Track or networkx.DiGraph
        An assembled stage (its options switch the optional rules) or a cell graph.
    rules : Ruleset, optional
        Default: ``tilesets/dirt-rules.yaml``.
    max_risk : float, optional
        Use no turn whose chance of a loss of control exceeds this (0..1).
    leader : bool
        Plan for the first car of every round (leader dice on gravel) instead of a following car.
    start : str, optional
        Start from this cell in gear 0 instead of any start cell.
    """
    graph = check_track(track)
    rules = _rules_for(track, rules)
    turns = _turns_for(graph, rules, leader, max_risk, _stage_surface(track))
    road = turns.road
    if start is not None and start not in road.index:
        raise DesignerError(f"no cell {start!r} in this track")
    starts = [road.index[start]] if start is not None else road.starts()
    seconds = rules.time_card
    best: dict = {}
    heap = []
    for s in starts:
        state = (s, 0, False)
        best[state] = (0, 0)
        heap.append((0, 0, s, 0, False))
    heapq.heapify(heap)
    with _gc_paused():
        goal, prev = dijkstra(turns.ends, heap, best, seconds)
    if goal is None:
        return None
    path = path_to(goal, prev)
    with _gc_paused():
        out = [turns.best_turn(a[0], a[1], b[0], b[1], b[2]) for a, b in zip(path, path[1:])]
    return Line(turns=out, max_risk=max_risk, leader=leader)


def turn_graph(track, rules: Ruleset | None = None, *, max_risk: float | None = None,
               leader: bool = False) -> nx.DiGraph:
    """The explicit turn graph of a stage: nodes ``(cell, gear, finished)`` reachable from the start grid,
    an edge per pair of states joined by a legal turn with ``weight`` = seconds of its time card.

    For inspection and tests; :func:`fastest_line` searches the same graph lazily.
    """
    graph = check_track(track)
    rules = _rules_for(track, rules)
    turns = _turns_for(graph, rules, leader, max_risk, _stage_surface(track))
    names = turns.road.nodes
    tg = nx.DiGraph()
    for (c, g, f), nxt in turns.explore().items():
        tg.add_node((names[c], g, f), start=g == 0 and turns.road.start[c] and not f)
        for v, ng, nf in nxt:
            tg.add_edge((names[c], g, f), (names[v], ng, nf), weight=rules.seconds(ng))
    return tg


# -- speed limits --------------------------------------------------------------------------------

def speed_limits(track, rules: Ruleset | None = None, *, max_risk: float | None = None,
                 leader: bool = False) -> dict[str, int | None]:
    """For every cell, the highest gear a car can be in there and still finish the stage legally;
    None where no legal line passes (0 on the start cells, where cars wait in gear 0).

    A car "is in" a cell in a gear when a turn can end there in that gear (it can stop after any die),
    the state is reachable from the start grid and the finish is reachable from it. Cells beyond the
    first cells past the finish line (reached only by a jump over the line) are left out.
    """
    graph = check_track(track)
    rules = _rules_for(track, rules)
    turns = _turns_for(graph, rules, leader, max_risk, _stage_surface(track))
    alive = _alive(turns.explore(), forward=turns.road.margin == 0)
    names = turns.road.nodes
    out: dict[str, int | None] = {n: None for n in graph.nodes}
    for c, gear, fin in alive:
        if fin and not turns.road.finish[c]:
            continue                            # landed beyond the finish cells by a jump: not part of the stage
        cell = names[c]
        if out[cell] is None or gear > out[cell]:
            out[cell] = gear
    return out


def _alive(adj: dict, forward: bool) -> set:
    """The states of a turn graph from which a finished state can be reached. ``forward``: every turn ends at a
    higher cell index (every link of the road goes forward), so the graph has no cycle and each state is decided
    from its successors, all further along; otherwise the finished states are followed backwards."""
    if forward:
        alive: set = set()
        for state in sorted(adj, key=lambda s: -s[0]):
            if state[2] or any(n in alive for n in adj[state]):
                alive.add(state)
        return alive
    back: dict = {}
    for state, nxt in adj.items():
        for n in nxt:
            back.setdefault(n, []).append(state)
    alive = {s for s in adj if s[2]}
    todo = list(alive)
    while todo:
        for p in back.get(todo.pop(), ()):
            if p not in alive:
                alive.add(p)
                todo.append(p)
    return alive


# -- the shortest line ---------------------------------------------------------------------------

def shortest_line(track) -> CellLine | None:
    """The fewest cells from a start cell to a cell past the finish line, ignoring gears."""
    return _course.shortest_line(check_track(track))
