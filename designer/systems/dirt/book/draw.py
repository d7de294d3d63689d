"""Drawings of a DIRT stage made for print: type sized for the paper, marks a player finds on the table.

* :func:`tile_svg`: one tile as it lies in the stage, the road's way in and out (arrows) and the corner
  where its printed face number goes (a black corner mark and the number).
* :func:`map_svg`: the stage map; with a line, the line with the gear of every cell in a white disc ringed
  by the gear's colour (readable in grey) and each turn's end marked T1, T2, ...

Each drawing is made for the box it will fill (mm), so that its labels print at :data:`LABEL_PT` or more:
the scale is known before the SVG is written (:func:`scale_for`).

The printed face number: on every DIRT tile the number is printed at the corner between edges F and A
(the top-left corner with edge A at the top; reference facts, section 1, and the tile pictures). A tile
turned ``k`` steps clockwise carries it to corner ``(4 + k) % 6`` of :func:`designer.core.hexgrid.corner`.
"""
from __future__ import annotations

import math
import re
from dataclasses import replace

from designer.core import hexgrid
from designer.core.svgkit import text as esc
from designer.systems.dirt.board.render import GEAR_COLOURS, node_point, stage_svg
from designer.systems.dirt.board.track import Track

SIZE = 100.0
LABEL_PT = 6.4
_MM = 25.4 / 72
# The face number's corner on the printed tile, in the tile's own frame (hexgrid corner index).
NUMBER_CORNER = 4
CORNER_WORDS = {0: "right", 1: "lower right", 2: "lower left", 3: "left", 4: "upper left", 5: "upper right"}
LINE_INK = "#0b3a8c"
FONT = "DejaVu Sans"


def number_corner(rotation: int) -> int:
    """The corner (hexgrid index, as on the map) where a tile turned ``rotation`` steps shows its number."""
    return (NUMBER_CORNER + rotation) % 6


def corner_words(rotation: int) -> str:
    return CORNER_WORDS[number_corner(rotation)]


def units_for(points: float, scale: float) -> float:
    """SVG units that print at ``points`` when one unit is ``scale`` mm."""
    return points * _MM / scale


def text_scale_for(scale: float, low: float = 1.0, high: float = 2.6) -> float:
    """The render text scale that prints limit marks at LABEL_PT (their type is 0.0837 of a tile's size)."""
    return min(max(units_for(LABEL_PT, scale) / (0.0837 * SIZE), low), high)


def _bbox(hexes, pad: float = 0.15):
    minx, miny, maxx, maxy = hexgrid.bounding_box(hexes, SIZE)
    p = SIZE * pad
    return minx - p, miny - p, maxx - minx + 2 * p, maxy - miny + 2 * p


def scale_for(hexes, w: float, h: float, max_scale: float | None = None) -> float:
    _, _, vw, vh = _bbox(hexes)
    s = min(w / vw, h / vh)
    return min(s, max_scale) if max_scale else s


def _inject(svg: str, parts: list[str]) -> str:
    i = svg.rfind("</svg>")
    return svg[:i] + "".join(parts) + svg[i:]


def _text(x, y, s, size, fill="#111", weight="bold", anchor="middle") -> str:
    return (f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size:.2f}" fill="{fill}" font-weight="{weight}" '
            f'text-anchor="{anchor}" dominant-baseline="central" font-family="{FONT}">{esc(s)}</text>')


def _arrow(edge: str, inward: bool, colour: str = LINE_INK) -> str:
    """A small arrow across a tile edge, outside the road's limit marks: pointing in or out of the tile."""
    mx, my = hexgrid.edge_midpoint(edge, SIZE)
    nx_, ny_ = hexgrid.edge_normal(edge)
    px, py = -ny_, nx_
    outside, inside = SIZE * 0.15, -SIZE * 0.05
    tip_d, base_d = (inside, outside) if inward else (outside, inside)
    tip = (mx + nx_ * tip_d, my + ny_ * tip_d)
    base = (mx + nx_ * base_d, my + ny_ * base_d)
    w = SIZE * 0.09
    pts = [tip, (base[0] + px * w, base[1] + py * w), (base[0] - px * w, base[1] - py * w)]
    s = " ".join(f"{x:.2f},{y:.2f}" for x, y in pts)
    return f'<polygon points="{s}" fill="{colour}" stroke="white" stroke-width="{SIZE * 0.012:.2f}"/>'


def number_mark(rotation: int, label: str, font_units: float, centre=(0.0, 0.0), avoid=()) -> list[str]:
    """A black corner where the printed number goes, with the number beside it (where it covers no word of
    ``avoid``, boxes (x1, y1, x2, y2), when a spot towards the centre is free)."""
    c = number_corner(rotation)
    p = hexgrid.corner(c, SIZE * 0.985, centre)
    a = hexgrid.corner(c - 1, SIZE * 0.985, centre)
    b = hexgrid.corner(c + 1, SIZE * 0.985, centre)
    k = 0.26
    tri = [p, (p[0] + k * (a[0] - p[0]), p[1] + k * (a[1] - p[1])), (p[0] + k * (b[0] - p[0]), p[1] + k * (b[1] - p[1]))]
    pts = " ".join(f"{x:.2f},{y:.2f}" for x, y in tri)
    out = [f'<polygon points="{pts}" fill="#111"/>']
    # The number inside the tile, towards the centre from the corner, on a white label.
    w = font_units * 0.64 * len(label) + font_units * 0.5
    h = font_units * 1.3
    spots = []
    for t in ((0.56 if c in (0, 3) else 0.6), 0.72, 0.45, 0.3):
        lx, ly = centre[0] + (p[0] - centre[0]) * t, centre[1] + (p[1] - centre[1]) * t
        if c in (0, 3):
            lx += (-1 if c == 0 else 1) * w * 0.1
        spots.append((lx, ly))
    lx, ly = next(((x, y) for x, y in spots if not any(x + w / 2 > a and x - w / 2 < cc and y + h / 2 > b
                                                        and y - h / 2 < d for a, b, cc, d in avoid)), spots[0])
    out.append(f'<rect x="{lx - w / 2:.2f}" y="{ly - h / 2:.2f}" width="{w:.2f}" height="{h:.2f}" fill="white" '
               f'stroke="#111" stroke-width="{SIZE * 0.01:.2f}"/>')
    out.append(_text(lx, ly, label, font_units))
    return out


def tile_svg(track: Track, tile, box_mm: float = 30.0, number: bool = True, arrows: bool = True) -> str:
    """One tile as it lies in the stage, drawn for a square box of ``box_mm``."""
    scale = box_mm / (SIZE * 2.3)
    ts = text_scale_for(scale, high=2.2)
    mini = Track(stage=track.stage, tileset=track.tileset, tiles=[replace(tile, hex=(0, 0))])
    svg = stage_svg(mini, size=SIZE, width_px=None, numbers=False, ids=False, text_scale=ts)
    parts = []
    if arrows and tile.world_entry:
        parts.append(_arrow(tile.world_entry, True))
    if arrows and tile.world_exit:
        parts.append(_arrow(tile.world_exit, False))
    if number:
        parts += number_mark(tile.rotation, tile.tile, units_for(LABEL_PT, scale), avoid=_text_boxes(svg))
    return _inject(svg, parts)


def _assistance_label(track: Track, font_units: float) -> list[str]:
    out = []
    for t in track.tiles:
        if t.face.role == "assistance":
            cx, cy = hexgrid.to_pixel(t.hex, SIZE)
            nx_, ny_ = hexgrid.edge_normal(t.world_entry or "D")
            px, py = -ny_, nx_
            if py < -1e-6 or (abs(py) <= 1e-6 and px < 0):
                px, py = -px, -py
            out.append(_text(cx + px * SIZE * 0.5, cy + py * SIZE * 0.5, "ASSISTANCE", font_units))
    return out


def map_svg(track: Track, w: float, h: float, max_scale: float | None = 0.25, line=None,
            turn_ends: list[str] | None = None, labels: bool = True) -> tuple[str, bool]:
    """The stage map for a ``w`` x ``h`` mm box and whether its speed limits are drawn.

    ``line``: (cell, gear) pairs of a line to draw with its gears (limits are then left to the other
    pages so that nothing covers them); ``turn_ends``: the last cell of each turn, marked T1, T2, ...;
    ``labels=False``: no tile numbers, ids or limits (a thumbnail).
    """
    scale = scale_for(track.hexes(), w, h, max_scale)
    ts = text_scale_for(scale)
    legible = units_for(LABEL_PT, scale) <= 0.0837 * SIZE * 2.6
    show_limits = legible and line is None
    avoid = None
    if line:                        # the line's gear discs and turn rings: tile labels keep clear of them
        r = max(units_for(LABEL_PT, scale) * 0.78, SIZE * 0.045) * 1.5
        avoid = [(*node_point(track, n, SIZE), r) for n, _ in line if n in track.graph]
    svg = stage_svg(track, size=SIZE, width_px=None, show_limits=show_limits and labels, text_scale=ts,
                    numbers=labels, ids=labels, avoid=avoid)
    font = units_for(LABEL_PT + 0.4, scale)
    parts = _assistance_label(track, font) if labels else []
    if line:
        parts += _line_parts(track, line, turn_ends or [], scale, _text_boxes(svg))
    return _inject(svg, parts), show_limits


_TEXT = re.compile(r'<text x="([-\d.]+)" y="([-\d.]+)" font-size="([\d.]+)"[^>]*>([^<]*)</text>')


def _text_boxes(svg: str) -> list[tuple[float, float, float, float]]:
    """Where the drawing's words lie (x1, y1, x2, y2), so that the turn labels keep clear of them."""
    out = []
    for m in _TEXT.finditer(svg):
        x, y, size = float(m.group(1)), float(m.group(2)), float(m.group(3))
        w = size * 0.7 * len(m.group(4))
        out.append((x - w / 2, y - size / 2, x + w / 2, y + size / 2))
    return out


def _line_parts(track: Track, line, turn_ends: list[str], scale: float, words=()) -> list[str]:
    pts = [node_point(track, n, SIZE) for n, _ in line if n in track.graph]
    gears = [g for n, g in line if n in track.graph]
    nodes = [n for n, _ in line if n in track.graph]
    if len(pts) < 2:
        return []
    font = units_for(LABEL_PT, scale)
    r = max(font * 0.78, SIZE * 0.045)
    out = [f'<polyline points="{" ".join(f"{x:.2f},{y:.2f}" for x, y in pts)}" fill="none" stroke="{LINE_INK}" '
           f'stroke-width="{max(SIZE * 0.03, r * 0.3):.2f}" stroke-linejoin="round" stroke-linecap="round"/>']
    drawn: set[tuple[int, int]] = set()
    for (x, y), g in zip(pts, gears):
        spot = (round(x), round(y))
        if spot in drawn:
            continue            # a later lap over the same space: its disc once (the turn table gives each lap)
        drawn.add(spot)
        if g is None:
            out.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r * 0.45:.2f}" fill="{LINE_INK}"/>')
            continue
        out.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}" fill="white" '
                   f'stroke="{GEAR_COLOURS.get(g, LINE_INK)}" stroke-width="{r * 0.32:.2f}"/>')
        out.append(_text(x, y, g, font * 1.02))
    # Turn ends: a black ring round the cell and a T label beside it, away from the line.
    placed: list[tuple[float, float]] = []
    where = {n: k for k, n in enumerate(nodes)}
    label_font = units_for(LABEL_PT + 1.0, scale)
    for t, end in enumerate(turn_ends, start=1):
        k = where.get(end)
        if k is None:
            continue
        x, y = pts[k]
        out.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r * 1.35:.2f}" fill="none" stroke="#111" '
                   f'stroke-width="{r * 0.3:.2f}"/>')
        label = f"T{t}"
        lw, lh = label_font * (0.7 * len(label) + 0.5), label_font * 1.35
        d = r * 1.5 + max(lw, lh) * 0.6
        best, best_score = None, -1.0
        for j in range(12):
            a = j * math.pi / 6
            cx, cy = x + d * math.cos(a), y + d * math.sin(a)
            score = min(math.hypot(cx - px, cy - py) for px, py in pts)
            if placed:
                score = min(score, min(math.hypot(cx - px, cy - py) for px, py in placed) * 0.8)
            if any(cx + lw / 2 > a and cx - lw / 2 < c and cy + lh / 2 > b and cy - lh / 2 < d
                   for a, b, c, d in words):
                score -= 10 * SIZE          # over a word of the drawing: only when every spot is
            if score > best_score:
                best, best_score = (cx, cy), score
        cx, cy = best
        placed.append(best)
        out.append(f'<line x1="{x:.2f}" y1="{y:.2f}" x2="{cx:.2f}" y2="{cy:.2f}" stroke="#111" '
                   f'stroke-width="{r * 0.2:.2f}"/>')
        out.append(f'<rect x="{cx - lw / 2:.2f}" y="{cy - lh / 2:.2f}" width="{lw:.2f}" height="{lh:.2f}" '
                   f'fill="#111"/>')
        out.append(_text(cx, cy, label, label_font, fill="white"))
    return out


__all__ = ["tile_svg", "map_svg", "number_corner", "corner_words", "CORNER_WORDS", "scale_for", "units_for",
           "LABEL_PT"]
