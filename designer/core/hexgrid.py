"""Hexagon grid: axial coordinates, the six tile edges A..F, rotation, neighbours, pixels.

Flat-topped hexagons. Edge A is the top edge, then clockwise: B upper-right, C lower-right,
D bottom, E lower-left, F upper-left. Axial coordinates (q, r): q grows to the right (columns),
r grows downwards within a column. A tile rotated by ``k`` (0..5) has its local edge ``i`` on the
world edge ``(i + k) % 6``: rotation is clockwise in 60 degree steps.

Pure functions only; nothing else from the package is imported here.

>>> neighbour((0, 0), "A")
(0, -1)
>>> rotate_edge("A", 2)
'C'
"""
from __future__ import annotations

import math
from typing import Iterable

EDGES = "ABCDEF"
# Axial step across each edge, in edge order A..F.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
SQRT3 = math.sqrt(3.0)

Hex = tuple[int, int]


def edge_index(edge: str | int) -> int:
    """Index 0..5 of an edge given as a letter (case-insensitive) or an index."""
    if isinstance(edge, int):
        if not 0 <= edge < 6:
            raise ValueError(f"edge index {edge} is not in 0..5")
        return edge
    letter = str(edge).strip().upper()
    if len(letter) != 1 or letter not in EDGES:
        raise ValueError(f"edge {edge!r} is not one of A, B, C, D, E, F")
    return EDGES.index(letter)


def edge_letter(index: int) -> str:
    return EDGES[index % 6]


def opposite(edge: str) -> str:
    """The edge across the hexagon: A<->D, B<->E, C<->F."""
    return edge_letter(edge_index(edge) + 3)


def rotate_edge(edge: str, rotation: int) -> str:
    """World edge of a local edge on a tile rotated ``rotation`` steps clockwise."""
    return edge_letter(edge_index(edge) + rotation)


def unrotate_edge(edge: str, rotation: int) -> str:
    """Local edge of a tile rotated ``rotation`` steps that lies on world edge ``edge``."""
    return edge_letter(edge_index(edge) - rotation)


def neighbour(h: Hex, edge: str | int) -> Hex:
    dq, dr = DIRECTIONS[edge_index(edge)]
    return (h[0] + dq, h[1] + dr)


def neighbours(h: Hex) -> list[Hex]:
    return [neighbour(h, i) for i in range(6)]


def edge_between(a: Hex, b: Hex) -> str | None:
    """The edge of ``a`` that ``b`` lies across, or None when they are not neighbours."""
    d = (b[0] - a[0], b[1] - a[1])
    if d in DIRECTIONS:
        return EDGES[DIRECTIONS.index(d)]
    return None


def rotate_hex(h: Hex, steps: int) -> Hex:
    """Rotate an axial vector clockwise about the origin by ``steps`` * 60 degrees."""
    q, r = h
    x, z = q, r
    y = -x - z
    for _ in range(steps % 6):
        # Clockwise rotation on cube coordinates (x, y, z) -> (-z, -x, -y).
        x, y, z = -z, -x, -y
    return (x, z)


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def to_pixel(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Centre of a hexagon of circumradius ``size``; x to the right, y downwards."""
    q, r = h
    return (size * 1.5 * q, size * SQRT3 * (r + q / 2.0))


def corner(i: int, size: float = 1.0, centre: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
    """Corner ``i`` (0 = right, then clockwise on screen) of a flat-topped hexagon."""
    a = math.radians(60 * i)
    return (centre[0] + size * math.cos(a), centre[1] + size * math.sin(a))


def corners(size: float = 1.0, centre: tuple[float, float] = (0.0, 0.0)) -> list[tuple[float, float]]:
    return [corner(i, size, centre) for i in range(6)]


def edge_endpoints(edge: str | int, size: float = 1.0,
                   centre: tuple[float, float] = (0.0, 0.0)) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners of an edge, clockwise order. Edge A lies between corners 4 and 5."""
    i = edge_index(edge)
    return corner(4 + i, size, centre), corner(5 + i, size, centre)


def edge_midpoint(edge: str | int, size: float = 1.0,
                  centre: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
    a, b = edge_endpoints(edge, size, centre)
    return ((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0)


def edge_normal(edge: str | int) -> tuple[float, float]:
    """Unit vector from the centre towards the middle of an edge (y downwards)."""
    a = math.radians(270 + 60 * edge_index(edge))
    return (math.cos(a), math.sin(a))


def bounding_box(hexes: Iterable[Hex], size: float = 1.0) -> tuple[float, float, float, float]:
    xs, ys = [], []
    for h in hexes:
        for x, y in corners(size, to_pixel(h, size)):
            xs.append(x)
            ys.append(y)
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))
