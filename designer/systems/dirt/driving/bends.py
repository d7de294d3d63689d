"""Where the road of an assembled DIRT track bends, and which way: the ground the pace notes stand on.

:func:`distances` (fewest moves from the start to every cell) and :func:`stage_length`; :func:`road_turn` and
:func:`bend_side` (the way the schematic centre line of the road driven turns on a placed tile);
:func:`sided_bends` (each bend of the road driven, with its side and its inside and outside cells) and
:func:`line_sides` (that side for every cell of a bend, as the road book marks it). A bend is a corner of the
road driven, with the cells of its tile pass that print a speed limit outside any corner (see
:mod:`.pacenotes` for how the notes read them).

>>> from designer.systems.dirt.board.stage import Stage
>>> from designer.systems.dirt.board.tileset import get_tileset
>>> from designer.systems.dirt.board.track import assemble
>>> stage_length(assemble(Stage(tiles=["202a A", "210b C", "203a D"]), get_tileset("dirt-core"))) > 0
True
"""
from __future__ import annotations

import math
from collections import deque

from designer.core import hexgrid
from designer.systems.dirt.board import geometry
from designer.systems.dirt.board.face_checks import EPS


# -- distances ---------------------------------------------------------------------------

def distances(track) -> dict[str, int]:
    """Fewest moves from a start cell to every reachable cell (start cells are 0)."""
    g = track.graph
    dist: dict[str, int] = {}
    queue: deque[str] = deque()
    for s in track.start_cells():
        dist[s] = 0
        queue.append(s)
    while queue:
        u = queue.popleft()
        du = dist[u] + 1
        for v in g.successors(u):
            if v not in dist:
                dist[v] = du
                queue.append(v)
    return dist


def stage_length(track) -> int | None:
    """Length of the stage in cells: the fewest moves from a start cell to a finish cell."""
    if not track.has_cells:
        return None
    dist = distances(track)
    ends = [dist[f] for f in track.finish_cells() if f in dist]
    return min(ends) if ends else None


# -- bends --------------------------------------------------------------------------------

def _direction_by_marks(cells: list[dict]) -> str:
    """The side of a corner from the tile's inside/outside marks: lane 0 is the driver's left."""
    inside = [d["lane"] for d in cells if d.get("path") == "inside"]
    outside = [d["lane"] for d in cells if d.get("path") == "outside"]
    if inside and outside:
        return "left" if min(inside) < min(outside) else "right"
    if inside:
        return "left" if min(inside) == 0 else "right"
    return "right" if outside and min(outside) == 0 else "left"


def road_turn(face, a: float, b: float) -> float:
    """Degrees the schematic centre line of a face's road turns from fraction ``a`` to ``b`` of its length
    from ``ends[0]``: positive to the right of a driver coming from ``ends[0]`` (screen y points down)."""
    ends, turn = geometry.path_of(face)
    total, prev = 0.0, None
    for k in range(_TURN_STEPS + 1):
        _, left = geometry.centre(ends, turn, a + (b - a) * k / _TURN_STEPS)
        h = (-left[1], left[0])                    # the heading: left is (dy, -dx) of it
        if prev is not None:
            total += math.degrees(math.atan2(prev[0] * h[1] - prev[1] * h[0], prev[0] * h[0] + prev[1] * h[1]))
        prev = h
    return total


_TURN_STEPS = 12


def bend_side(tile, a: float, b: float) -> str | None:
    """"left" or "right": the way the road driven on a placed tile turns from fraction ``a`` to ``b`` of it in
    driving direction. None on a road straight across its tile (a kink, an S-bend): its corners turn either
    way round the line between its ends, which the schematic centre line does not follow."""
    face = tile.driven
    if not face.ends or len(face.ends) != 2:
        return None
    if (hexgrid.edge_index(face.ends[1]) - hexgrid.edge_index(face.ends[0])) % 6 in (0, 3):
        return None
    degrees = -road_turn(face, 1.0 - b, 1.0 - a) if tile.reversed else road_turn(face, a, b)
    return None if abs(degrees) < 1e-6 else ("right" if degrees > 0 else "left")


def _bends(track, dist, placed) -> list[list[tuple[str, dict]]]:
    """The cells of each bend: a corner's cells; the cells a tile prints a limit on outside any corner join the
    corner of their pass when it has exactly one, else make a bend of their own. A token's limit is no bend."""
    printed: dict[int, dict] = {}
    corners: dict[str, list[tuple[str, dict]]] = {}
    loose: dict[str, list[tuple[str, dict]]] = {}
    for n, d in track.graph.nodes(data=True):
        if n not in dist:
            continue
        if d.get("corner"):
            corners.setdefault(d["corner"], []).append((n, d))
            continue
        if d["index"] not in printed:
            tile = placed.get(d["index"])
            printed[d["index"]] = {c.id: c for c in (tile.driven.cells or []) if c.limit is not None and not c.is_cut
                                   } if tile else {}
        if d["cell"] in printed[d["index"]]:
            loose.setdefault(n.split(":")[0], []).append((n, d))
    for pass_, members in loose.items():
        mine = [k for k in corners if k.split(":")[0] == pass_]
        corners.setdefault(mine[0] if len(mine) == 1 else f"{pass_}:limits", []).extend(members)
    return list(corners.values())


def _rows(track) -> dict[str, list[dict]]:
    """The road cells (no cut, no slide half-cell) of each pass over a tile, by node prefix."""
    out: dict[str, list[dict]] = {}
    for n, d in track.graph.nodes(data=True):
        if d.get("cut") is None and not d.get("slide"):
            out.setdefault(n.split(":")[0], []).append(d)
    return out


def line_sides(track) -> dict[str, str]:
    """``inside`` or ``outside`` for every cell of a bend, as the driver of the road driven sees it: the sides of
    the bends these notes call. A cell two roads of a junction share keeps one ``path`` mark, but it can be on the
    inside of one road and the outside of the other (409a: ``hi`` is the inside of E-D and the outside of F-E)."""
    if not track.has_cells:
        return {}
    sides: dict[str, str] = {}
    for _members, _side, inside, outside in sided_bends(track, distances(track)):
        sides.update({n: "outside" for n, _ in outside})
        sides.update({n: "inside" for n, _ in inside})
    return sides


def sided_bends(track, dist):
    """Each bend of the road driven with its side and its inside and outside cells: ``(members, side, inside,
    outside)``, the members in driving order."""
    placed = {t.index: t for t in track.tiles}
    rows = _rows(track)
    for members in _bends(track, dist, placed):
        members.sort(key=lambda m: (m[1]["a"], m[1]["lane"]))
        node, first = members[0]
        yield (members, *_split(members, placed.get(first["index"]), rows.get(node.split(":")[0], [])))


def _inside(d: dict, side: str, row: list[dict]) -> bool:
    """True when a cell holds the innermost lane, for a bend turning ``side``, of the road cells beside it."""
    beside = [e for e in row if e["a"] < d["b"] - EPS and e["b"] > d["a"] + EPS] or [d]
    if side == "left":
        return d["lane"] <= min(e["lane"] for e in beside)
    return d["lane"] + d.get("width", 1) - 1 >= max(e["lane"] + e.get("width", 1) - 1 for e in beside)


def _split(members, tile, row) -> tuple[str | None, list, list]:
    """Direction of a bend and its inside and outside cells, as the driver of the road driven sees them:
    from that road's turn and lanes where it turns, else from the tile's inside/outside marks."""
    side = bend_side(tile, min(d["a"] for _, d in members), max(d["b"] for _, d in members)) if tile else None
    if side is not None:
        inside = [m for m in members if _inside(m[1], side, row)]
    else:
        marked = [d for _, d in members if d.get("path")]
        side = _direction_by_marks(marked) if marked else None
        inside = [m for m in members if m[1].get("path") in ("inside", None)]
    return side, inside, [m for m in members if m not in inside]
