"""Drawings of a DIRT stage made for print: type sized for the paper, marks a player finds on the table.

* :func:`tile_svg`: one tile as it lies in the stage, the road's way in and out (arrows) and the corner
  where its printed face number goes (a black corner mark and the number).
* :func:`map_svg`: the stage map; with a line, the line with the gear of every cell in a white disc ringed
  by the gear's colour (readable in grey) and each turn's end marked T1, T2, ...

Every label is placed with a collision check against the words already drawn, the discs and the turn rings: a
tile's face id goes to the free spot of its tile nearest its number corner, a gear disc that would cover another
moves beside its cell on a short leader, a turn label takes the free spot round its ring inside the drawing.

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


LEGIBLE_SCALE = LABEL_PT * _MM / (0.0837 * SIZE * 2.6)   # mm a unit: the smallest scale whose limits print


def map_height(track: Track, w: float, scale: float) -> float:
    """The height (mm) of the map of ``track`` drawn at ``scale`` (or smaller, to fit ``w`` mm across)."""
    _, _, vw, vh = _bbox(track.hexes())
    return vh * min(scale, w / vw)


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
    # Then anywhere on the tile, nearest the corner first (the label stays inside the hexagon).
    inner = SIZE * hexgrid.SQRT3 / 2 * 0.92
    grid = [(centre[0] + i * SIZE * 0.08, centre[1] + j * SIZE * 0.08) for i in range(-11, 12) for j in range(-11, 12)]
    grid = [(x, y) for x, y in grid
            if all(math.hypot(x + dx - centre[0], y + dy - centre[1]) < inner
                   for dx in (-w / 2, w / 2) for dy in (-h / 2, h / 2))]
    spots += sorted(grid, key=lambda q: math.hypot(q[0] - p[0], q[1] - p[1]))

    def clear(x, y) -> bool:
        return not any(x + w / 2 > a and x - w / 2 < cc and y + h / 2 > b and y - h / 2 < d for a, b, cc, d in avoid)

    lx, ly = next(((x, y) for x, y in spots if clear(x, y)), spots[0])
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
        parts += number_mark(tile.rotation, tile.tile, units_for(LABEL_PT, scale),
                             avoid=_text_boxes(svg, units_for(6.0, scale)))
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
    legible = scale >= LEGIBLE_SCALE - 1e-9
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
        words = _text_boxes(svg + "".join(parts), units_for(6.0, scale))       # the assistance label's too
        view = _VIEW.search(svg)
        bounds = tuple(map(float, view.groups())) if view else None
        parts += _line_parts(track, line, turn_ends or [], scale, words, bounds)
    return _inject(svg, parts), show_limits


_TEXT = re.compile(r'<text x="([-\d.]+)" y="([-\d.]+)" font-size="([\d.]+)"([^>]*)>([^<]*)</text>')
_VIEW = re.compile(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"')
_ANCHOR = re.compile(r'text-anchor="(start|middle|end)"')


def _text_boxes(svg: str, min_size: float = 0.0) -> list[tuple[float, float, float, float]]:
    """Where the drawing's words lie (x1, y1, x2, y2), so that the labels placed later keep clear of them.

    ``min_size``: the smallest type (in drawing units) the page prints, as words set smaller are raised to it."""
    out = []
    for m in _TEXT.finditer(svg):
        x, y, size = float(m.group(1)), float(m.group(2)), max(float(m.group(3)), min_size)
        w = size * 0.72 * len(m.group(5)) + size * 0.1
        anchor = _ANCHOR.search(m.group(4))
        left = {"start": x, "end": x - w}.get(anchor.group(1) if anchor else "middle", x - w / 2)
        out.append((left, y - size * 0.6, left + w, y + size * 0.6))
    return out


def _line_parts(track: Track, line, turn_ends: list[str], scale: float, words=(), bounds=None) -> list[str]:
    """The line, its gear discs and the turn ends; ``bounds`` (x, y, w, h): the drawing's view, labels stay in it."""
    pts = [node_point(track, n, SIZE) for n, _ in line if n in track.graph]
    gears = [g for n, g in line if n in track.graph]
    nodes = [n for n, _ in line if n in track.graph]
    if len(pts) < 2:
        return []
    font = units_for(LABEL_PT, scale)
    r = max(font * 0.78, SIZE * 0.045)
    out = [f'<polyline points="{" ".join(f"{x:.2f},{y:.2f}" for x, y in pts)}" fill="none" stroke="{LINE_INK}" '
           f'stroke-width="{max(SIZE * 0.03, r * 0.3):.2f}" stroke-linejoin="round" stroke-linecap="round"/>']
    where = {n: k for k, n in enumerate(nodes)}
    rings = [pts[where[e]] for e in turn_ends if e in where]
    discs, placed_discs = _gear_discs(pts, gears, r, font, words, rings, bounds)
    out += discs
    words = list(words) + [(x - r, y - r, x + r, y + r) for x, y, _g in placed_discs]
    # Turn ends: a black ring round the cell and a T label beside it, away from the line.
    placed: list[tuple[float, float]] = []
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
        best, best_score = (x + d, y), -math.inf
        for reach in (1.0, 1.45, 1.9):
            for j in range(12):
                ang = j * math.pi / 6
                cx, cy = x + reach * d * math.cos(ang), y + reach * d * math.sin(ang)
                score = min(math.hypot(cx - px, cy - py) for px, py in pts) - (reach - 1.0) * d
                if placed:
                    score = min(score, min(math.hypot(cx - px, cy - py) for px, py in placed) * 0.8)
                if bounds and not (bounds[0] <= cx - lw / 2 and cx + lw / 2 <= bounds[0] + bounds[2]
                                   and bounds[1] <= cy - lh / 2 and cy + lh / 2 <= bounds[1] + bounds[3]):
                    score -= 20 * SIZE          # out of the drawing, over the words around it
                if any(cx + lw / 2 > x1 and cx - lw / 2 < x2 and cy + lh / 2 > y1 and cy - lh / 2 < y2
                       for x1, y1, x2, y2 in words):
                    score -= 10 * SIZE          # over a word of the drawing or a disc: only when every spot is
                if score > best_score:
                    best, best_score = (cx, cy), score
        cx, cy = best
        words.append((cx - lw / 2, cy - lh / 2, cx + lw / 2, cy + lh / 2))
        placed.append(best)
        out.append(f'<line x1="{x:.2f}" y1="{y:.2f}" x2="{cx:.2f}" y2="{cy:.2f}" stroke="#111" '
                   f'stroke-width="{r * 0.2:.2f}"/>')
        out.append(f'<rect x="{cx - lw / 2:.2f}" y="{cy - lh / 2:.2f}" width="{lw:.2f}" height="{lh:.2f}" '
                   f'fill="#111"/>')
        out.append(_text(cx, cy, label, label_font, fill="white"))
    return out


def _gear_discs(pts, gears, r: float, font: float, words=(), rings=(),
                bounds=None) -> tuple[list[str], list[tuple[float, float, str]]]:
    """A gear disc on each cell of the line, with a collision check: a disc that would cover a disc already
    placed or a word of the drawing moves beside its cell (on a short leader), at the nearest free spot around
    it; a gear that has no free spot and repeats the gear of the disc it would cover is left to that disc.
    Returns the SVG parts and the discs placed (x, y, gear).

    Discs on their own cell come first, so that a moved disc never takes the place of one that fits."""
    gap = 2.05 * r                                  # centres closer than this would touch
    placed: list[tuple[float, float, str]] = []
    boxes = [tuple(w) for w in words]

    ringed = {(round(x, 1), round(y, 1)) for x, y in rings}

    def free(x, y) -> bool:
        if bounds and not (bounds[0] + r <= x <= bounds[0] + bounds[2] - r
                           and bounds[1] + r <= y <= bounds[1] + bounds[3] - r):
            return False
        if any(math.hypot(x - px, y - py) < gap for px, py, _ in placed):
            return False
        if any(math.hypot(x - cx, y - cy) < r * 2.55 and math.hypot(x - cx, y - cy) > 1e-6 for cx, cy in rings):
            return False
        return not any(x + r * 0.8 > a and x - r * 0.8 < c and y + r * 0.8 > b and y - r * 0.8 < d
                       for a, b, c, d in boxes)

    seen: set[tuple[int, int]] = set()
    wanted = []
    for (x, y), g in zip(pts, gears):
        spot = (round(x), round(y))
        if spot in seen:
            continue            # a later lap over the same space: its disc once (the turn table gives each lap)
        seen.add(spot)
        wanted.append((x, y, g))
    wanted.sort(key=lambda w: (round(w[0], 1), round(w[1], 1)) not in ringed)     # turn ends first
    out, later = [], []
    for x, y, g in wanted:
        if g is None:
            out.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r * 0.45:.2f}" fill="{LINE_INK}"/>')
        elif free(x, y):
            placed.append((x, y, g))
        else:
            later.append((x, y, g))
    moved = []
    for x, y, g in later:
        near = min(placed, key=lambda p: math.hypot(x - p[0], y - p[1]), default=None)
        if near is not None and near[2] == g and math.hypot(x - near[0], y - near[1]) < gap:
            continue            # the same gear already reads on the disc that covers this cell
        spot = None
        for ring in (1.0, 1.5, 2.0, 2.6):
            for j in range(12):
                a = j * math.pi / 6 + (ring - 1.0) * 0.5
                cx, cy = x + ring * gap * math.cos(a), y + ring * gap * math.sin(a)
                if free(cx, cy):
                    spot = (cx, cy)
                    break
            if spot:
                break
        if spot is None:
            continue            # nowhere to write it legibly: the turn table gives it
        placed.append((*spot, g))
        moved.append((x, y, *spot))
    for x, y, cx, cy in moved:
        out.append(f'<line x1="{x:.2f}" y1="{y:.2f}" x2="{cx:.2f}" y2="{cy:.2f}" stroke="{LINE_INK}" '
                   f'stroke-width="{r * 0.18:.2f}"/>')
        out.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r * 0.3:.2f}" fill="{LINE_INK}"/>')
    for x, y, g in placed:
        out.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}" fill="white" '
                   f'stroke="{GEAR_COLOURS.get(g, LINE_INK)}" stroke-width="{r * 0.32:.2f}"/>')
        out.append(_text(x, y, g, font * 1.02))
    return out, placed


__all__ = ["tile_svg", "map_svg", "number_corner", "corner_words", "CORNER_WORDS", "scale_for", "units_for",
           "LABEL_PT"]
