"""Schematic geometry of a face's road and cells, in tile coordinates (hexagon of circumradius 1).

The road's centre line runs from the middle of ``ends[0]`` to the middle of ``ends[1]`` as a cubic
curve leaving and entering each edge square-on; S-bends push the control points sideways. Lanes are
bands beside the centre line. This is a drawing aid, not a measurement of the printed tile.
"""
from __future__ import annotations

import functools
import math

from shapely.geometry import Polygon

from designer.core import hexgrid

LANE_WIDTH = 0.24
Point = tuple[float, float]


def _add(a, b, k=1.0):
    return (a[0] + k * b[0], a[1] + k * b[1])


TIGHT = "~tight"     # suffix of a turn: the road keeps close to the corner between its ends
LOOP = "~loop"       # suffix of a hairpin's turn, with its degrees: the road goes round the far side


@functools.lru_cache(maxsize=64)
def _loop(ends: tuple[str, ...], degrees: int):
    """Centre, radius, start angle and sweep of a hairpin turning more than 180 degrees: a circle through
    the two edge midpoints whose long arc is the road."""
    pa, pb = hexgrid.edge_midpoint(ends[0]), hexgrid.edge_midpoint(ends[1])
    mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
    half = math.hypot(pb[0] - pa[0], pb[1] - pa[1]) / 2
    r = half / math.sin(math.radians(360 - degrees) / 2)
    d = math.sqrt(max(r * r - half * half, 0.0))
    n = math.hypot(*mid) or 1.0
    c = (mid[0] - mid[0] / n * d, mid[1] - mid[1] / n * d)      # towards the tile's centre
    t0 = math.atan2(pa[1] - c[1], pa[0] - c[0])
    t1 = math.atan2(pb[1] - c[1], pb[0] - c[0])
    short = (t1 - t0 + math.pi) % (2 * math.pi) - math.pi
    sweep = short - math.copysign(2 * math.pi, short)
    return c, r, t0, sweep


def path_of(face) -> tuple[tuple[str, ...], str]:
    """The (ends, turn) a face's road is drawn with. The roads of a face with two separate roads (412-414)
    keep close to their own corner of the tile so that the drawing does not lay one over the other."""
    turn = face.turn
    if getattr(face, "arc", None) and face.arc > 180:
        turn += f"{LOOP}{face.arc}"
    if getattr(face, "beside", 0) and len(face.ends) == 2:
        gap = (hexgrid.edge_index(face.ends[1]) - hexgrid.edge_index(face.ends[0])) % 6
        if min(gap, 6 - gap) == 2:
            turn += TIGHT
    return tuple(face.ends), turn


@functools.lru_cache(maxsize=512)
def control_points(ends: tuple[str, ...], turn: str) -> tuple[Point, Point, Point, Point]:
    tight = turn.endswith(TIGHT)
    turn = turn.removesuffix(TIGHT)
    if len(ends) == 1:
        e = ends[0]
        p0 = hexgrid.edge_midpoint(e)
        n = hexgrid.edge_normal(e)
        p3 = _add(p0, n, -1.2)
        return p0, _add(p0, n, -0.4), _add(p0, n, -0.8), p3
    a, b = ends
    p0, p3 = hexgrid.edge_midpoint(a), hexgrid.edge_midpoint(b)
    n0, n1 = hexgrid.edge_normal(a), hexgrid.edge_normal(b)
    gap = (hexgrid.edge_index(b) - hexgrid.edge_index(a)) % 6
    gap = min(gap, 6 - gap)
    k = {3: 0.6, 2: 0.6, 1: 1.25}[gap] * (0.12 if tight else 1.0)
    p1 = _add(p0, n0, -k)
    p2 = _add(p3, n1, -k)
    if gap == 3 and turn in ("left", "right"):
        # A kink on opposite edges: the road bows to one side and comes back.
        d = (p3[0] - p0[0], p3[1] - p0[1])
        length = math.hypot(*d)
        left = (d[1] / length, -d[0] / length)
        s = -0.22 if turn == "left" else 0.22
        p1 = _add(p1, left, s)
        p2 = _add(p2, left, s)
    if turn in ("s-left", "s-right"):
        d = (p3[0] - p0[0], p3[1] - p0[1])
        length = math.hypot(*d)
        left = (d[1] / length, -d[0] / length)
        s = 0.28 if turn == "s-left" else -0.28
        p1 = _add(p1, left, s)
        p2 = _add(p2, left, -s)
    return p0, p1, p2, p3


@functools.lru_cache(maxsize=64)
def _hairpin(ends: tuple[str, ...]):
    """Centre, radius, start angle and sweep of a hairpin's arc around the corner the two edges share."""
    a, b = (hexgrid.edge_index(e) for e in ends)
    shared = 5 + a if (b - a) % 6 == 1 else 5 + b
    v = hexgrid.corner(shared)
    pa, pb = hexgrid.edge_midpoint(ends[0]), hexgrid.edge_midpoint(ends[1])
    t0 = math.atan2(pa[1] - v[1], pa[0] - v[0])
    t1 = math.atan2(pb[1] - v[1], pb[0] - v[0])
    sweep = (t1 - t0 + math.pi) % (2 * math.pi) - math.pi
    return v, math.hypot(pa[0] - v[0], pa[1] - v[1]), t0, sweep


def centre(ends: tuple[str, ...], turn: str, t: float) -> tuple[Point, Point]:
    """Point on the centre line at fraction ``t`` and the unit vector to the driver's left."""
    if len(ends) == 2 and turn not in ("s-left", "s-right") and not turn.endswith(TIGHT):
        gap = (hexgrid.edge_index(ends[1]) - hexgrid.edge_index(ends[0])) % 6
        if gap in (1, 5):
            if LOOP in turn:
                v, r, t0, sweep = _loop(tuple(ends), int(turn.split(LOOP)[1]))
            else:
                v, r, t0, sweep = _hairpin(tuple(ends))
            th = t0 + sweep * t
            x, y = v[0] + r * math.cos(th), v[1] + r * math.sin(th)
            sign = 1.0 if sweep > 0 else -1.0
            dx, dy = -math.sin(th) * sign, math.cos(th) * sign
            return (x, y), (dy, -dx)
    p0, p1, p2, p3 = control_points(ends, turn)
    u = 1 - t
    x = u ** 3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t ** 3 * p3[0]
    y = u ** 3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t ** 3 * p3[1]
    dx = 3 * u * u * (p1[0] - p0[0]) + 6 * u * t * (p2[0] - p1[0]) + 3 * t * t * (p3[0] - p2[0])
    dy = 3 * u * u * (p1[1] - p0[1]) + 6 * u * t * (p2[1] - p1[1]) + 3 * t * t * (p3[1] - p2[1])
    n = math.hypot(dx, dy) or 1.0
    # Screen y points down: the driver's left of heading (dx, dy) is (dy, -dx).
    return (x, y), (dy / n, -dx / n)


def lane_band(lane: int, lanes: int, width: float = LANE_WIDTH) -> tuple[float, float]:
    """Lateral extent (positive = driver's left) of a lane; lane 0 is the leftmost."""
    top = lanes * width / 2.0
    return (top - (lane + 1) * width, top - lane * width)


def band_polygon(ends, turn, span, lateral, steps: int = 10) -> list[Point]:
    a, b = span
    lo, hi = lateral
    left_side, right_side = [], []
    n = max(2, int(steps * (b - a)) + 2)
    for i in range(n + 1):
        t = a + (b - a) * i / n
        p, left = centre(ends, turn, t)
        left_side.append(_add(p, left, hi))
        right_side.append(_add(p, left, lo))
    return left_side + right_side[::-1]


def cell_lateral(face, cell) -> tuple[float, float]:
    lanes = max(face.lanes, 1)
    if cell.id in face.slide_ids():
        lo, _ = lane_band(lanes - 1, lanes)
        _, hi = lane_band(0, lanes)
        return (lo, hi)
    if face.role == "assistance":
        return lane_band(cell.lane, lanes, width=LANE_WIDTH)
    if getattr(cell, "width", 1) > 1:
        lo, _ = lane_band(cell.lane + cell.width - 1, lanes)
        _, hi = lane_band(cell.lane, lanes)
        return (lo, hi)
    return lane_band(cell.lane, lanes)


_GEOMETRY_CACHE: dict[int, tuple[object, dict]] = {}


def _face_geometry(face) -> dict[str, Polygon]:
    hit = _GEOMETRY_CACHE.get(id(face))
    if hit is not None and hit[0] is face:
        return hit[1]
    ends, turn = path_of(face)
    out = {}
    for cell in face.all_cells():
        lateral = cell_lateral(face, cell)
        pts = band_polygon(ends, turn, cell.span, lateral)
        out[cell.id] = Polygon(pts)
    _GEOMETRY_CACHE[id(face)] = (face, out)
    return out


def face_cell_polygons(face) -> dict[str, Polygon]:
    """Polygon of every cell (slide half-cells included) in tile coordinates."""
    if not face.cells or not face.ends:
        return {}
    return _face_geometry(face)


def cell_anchor(face, cell) -> Point:
    """A point well inside the cell, on its lane's centre line, for labels and racing lines."""
    lo, hi = cell_lateral(face, cell)
    a, b = cell.span
    p, left = centre(*path_of(face), (a + b) / 2.0)
    return _add(p, left, (lo + hi) / 2.0)


def road_outline(face) -> list[list[Point]]:
    """Polygons of the road bands between each pair of linked edges (tile-level drawing)."""
    out = []
    lanes = max(face.lanes, 1)
    half = lanes * LANE_WIDTH / 2.0
    if face.ends and len(face.ends) == 2:
        out.append(band_polygon(*path_of(face), (0.0, 1.0), (-half, half), steps=24))
        return out
    for a, b in face.links:
        out.append(band_polygon((a, b), "straight", (0.0, 1.0), (-half, half), steps=24))
    if not face.links:
        for e in face.edges:
            out.append(band_polygon((e,), "straight", (0.0, 1.0), (-half, half), steps=8))
    return out


def to_world(pt: Point, hex_: tuple[int, int], rotation: int, size: float) -> Point:
    """Tile coordinates -> world pixels for a tile at ``hex_`` rotated ``rotation`` steps clockwise."""
    th = math.radians(60 * rotation)
    x, y = pt
    xr, yr = x * math.cos(th) - y * math.sin(th), x * math.sin(th) + y * math.cos(th)
    cx, cy = hexgrid.to_pixel(hex_, size)
    return (cx + size * xr, cy + size * yr)
