"""Schematic SVG drawings built with the standard library only.

* :func:`face_svg`: one face, cells outlined, limits written in their cells, symbols for cut, jump,
  ford, slide (dashed split), start and finish lines.
* :func:`sheet_svg`: a contact sheet of many faces.
* :func:`stage_svg`: a whole stage at cell level with tile numbers and ids, start and finish, and
  optionally a racing line with the gear in each cell and highlighted tiles.
"""
from __future__ import annotations

import math
from xml.sax.saxutils import escape

from designer.core import hexgrid
from designer.core.svgkit import svg_to_png  # noqa: F401  (re-exported: PNG of a drawing)
from designer.systems.dirt.board import geometry

TERRAIN_FILL = {"gravel": "#e9e1cf", "asphalt": "#e3e5e8", "snow": "#eef4fb", None: "#efefef"}
DANGER_COLOUR = {"yellow": "#e8c21a", "orange": "#ee8a1a", "red": "#d8342c", None: "#999999"}
ROAD = "#b79a6e"
ROAD_ASPHALT = "#8d9096"
CORNER = "#a8865a"
# Road and corner colours by terrain (gravel: the two above).
ROAD_COLOURS = {"asphalt": ("#8d9096", "#6f7278"), "snow": ("#c9d3de", "#a9b6c4")}
CUT_FILL = "#7fa36a"
#: How far each line is shifted (both x and y, in tile radii) so that two lines through one cell stay apart.
LINE_OFFSETS = {"fastest": -0.03, "shortest": 0.03}
#: The tile circumradius of a drawing unless asked otherwise.
TILE_SIZE = 100.0


LINE_COLOURS = {"fastest": "#1456c8", "shortest": "#0b8a3c"}
GEAR_COLOURS = {0: "#777777", 1: "#3b4cc0", 2: "#2c7bb6", 3: "#1a9850", 4: "#d9a400", 5: "#f46d43", 6: "#b2182b"}


def _pts(points) -> str:
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in points)


def _poly_points(poly):
    return list(poly.exterior.coords)


class _Canvas:
    def __init__(self):
        self.parts: list[str] = []
        self.boxes: list[tuple[float, float, float, float]] = []     # where text lies, for labels placed later
        self.said: list[tuple[tuple, str]] = []                          # each text's box and words

    def add(self, s: str) -> None:
        self.parts.append(s)

    def keep_clear(self, x, y, w, h) -> None:
        self.boxes.append((x - w / 2, y - h / 2, x + w / 2, y + h / 2))

    def is_clear(self, x, y, w, h) -> bool:
        x1, y1, x2, y2 = x - w / 2, y - h / 2, x + w / 2, y + h / 2
        return all(x2 <= a or x1 >= c or y2 <= b or y1 >= d for a, b, c, d in self.boxes)

    def same_nearby(self, x, y, w, h, s) -> bool:
        """True when a text ``s`` already lies where this one would (the same limit in the next lane on a small
        map: drawn once)."""
        x1, y1, x2, y2 = x - w / 2, y - h / 2, x + w / 2, y + h / 2
        return any(t == str(s) and not (x2 <= a or x1 >= c or y2 <= b or y1 >= d) for (a, b, c, d), t in self.said)

    def text(self, x, y, s, size, fill="#222", weight="normal", anchor="middle", extra=""):
        w = size * 0.62 * len(str(s))
        self.keep_clear(x + {"start": w / 2, "end": -w / 2}.get(anchor, 0.0), y, w, size)
        self.said.append((self.boxes[-1], str(s)))
        self.add(f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size:.2f}" fill="{fill}" font-weight="{weight}" '
                 f'text-anchor="{anchor}" dominant-baseline="central" font-family="DejaVu Sans, Arial, sans-serif"{extra}>'
                 f'{escape(str(s))}</text>')

    def svg(self, minx, miny, w, h, width_px=None, title=None) -> str:
        size = f' width="{width_px:.0f}" height="{width_px * h / w:.0f}"' if width_px else ""
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{minx:.2f} {miny:.2f} {w:.2f} {h:.2f}"{size}>')
        t = f"<title>{escape(title)}</title>" if title else ""
        return head + t + f'<rect x="{minx:.2f}" y="{miny:.2f}" width="{w:.2f}" height="{h:.2f}" fill="white"/>' \
            + "".join(self.parts) + "</svg>"


def _draw_face(c: _Canvas, face, hex_=(0, 0), rotation=0, size=100.0, label=None, highlight=False,
               show_limits=True, sublabel=None, text_scale: float = 1.0):
    centre = hexgrid.to_pixel(hex_, size)
    corners = hexgrid.corners(size * 0.985, centre)
    fill = TERRAIN_FILL.get(face.terrain, "#efefef")
    stroke = "#d62728" if highlight else "#9a9a9a"
    c.add(f'<polygon points="{_pts(corners)}" fill="{fill}" stroke="{stroke}" stroke-width="{size * (0.05 if highlight else 0.015):.2f}"/>')
    world = lambda p: geometry.to_world(p, hex_, rotation, size)  # noqa: E731
    road_colour = ROAD_COLOURS.get(face.terrain, (ROAD, CORNER))[0]
    # Danger markers at road ends.
    for e in face.edges:
        w = hexgrid.rotate_edge(e, rotation)
        a, b = hexgrid.edge_endpoints(w, size, centre)
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        c.add(f'<circle cx="{mx:.2f}" cy="{my:.2f}" r="{size * 0.045:.2f}" fill="{DANGER_COLOUR.get(face.danger)}" '
              f'stroke="#333" stroke-width="{size * 0.006:.2f}"/>')
    if face.roads:
        for road in face.road_faces():
            _draw_road(c, road, world, size, road_colour, show_limits, text_scale)
    elif not geometry.face_cell_polygons(face):
        for band in geometry.road_outline(face):
            c.add(f'<polygon points="{_pts(world(p) for p in band)}" fill="{road_colour}" stroke="#6b5a3e" '
                  f'stroke-width="{size * 0.008:.2f}"/>')
    else:
        _draw_road(c, face, world, size, road_colour, show_limits, text_scale)
    if label is not None:
        lx, ly = centre[0] - size * 0.52, centre[1] - size * 0.74
        c.text(lx, ly, label, size * 0.12, fill="#111", weight="bold", anchor="start")
    if sublabel:
        c.text(centre[0] + size * 0.55, centre[1] - size * 0.74, sublabel, size * 0.11, fill="#555", anchor="end")


def _draw_road(c: _Canvas, face, world, size, road_colour, show_limits=True, text_scale=1.0):
    """The cells of one road of a face (the face itself when it has one road)."""
    polys = geometry.face_cell_polygons(face)
    if polys:
        slide_ids = face.slide_ids()
        cells = {cell.id: cell for cell in face.all_cells()}
        sw = size * 0.008
        # Draw ordinary cells first, cuts next; slide half-cells are drawn as a dashed split only.
        for cid, poly in polys.items():
            cell = cells[cid]
            if cid in slide_ids:
                continue
            pts = [world(p) for p in _poly_points(poly)]
            corner = ROAD_COLOURS.get(face.terrain, (ROAD, CORNER))[1]
            col = CUT_FILL if cell.is_cut else (corner if cell.corner else road_colour)
            op = ' fill-opacity="0.75"' if cell.is_cut else ""
            c.add(f'<polygon points="{_pts(pts)}" fill="{col}"{op} stroke="#fdfaf2" stroke-width="{sw:.2f}"/>')
        for k, sl in enumerate(face.slides, start=1):
            lanes = max(face.lanes, 1)
            lo, _ = geometry.lane_band(lanes - 1, lanes)
            _, hi = geometry.lane_band(0, lanes)
            p, left = geometry.centre(*geometry.path_of(face), sl.split)
            a = world((p[0] + left[0] * hi, p[1] + left[1] * hi))
            b = world((p[0] + left[0] * lo, p[1] + left[1] * lo))
            c.add(f'<line x1="{a[0]:.2f}" y1="{a[1]:.2f}" x2="{b[0]:.2f}" y2="{b[1]:.2f}" stroke="#fdfaf2" '
                  f'stroke-width="{sw * 1.6:.2f}" stroke-dasharray="{size * 0.03:.2f},{size * 0.025:.2f}"/>')
        lines_drawn = ((face.start_line, "START"), (face.finish_line, "FINISH"))
        if face.start_line is not None and face.start_line == face.finish_line:
            lines_drawn = ((face.start_line, "START/FINISH"),)
        for line, word in lines_drawn:
            if line is None:
                continue
            lanes = max(face.lanes, 1)
            lo, _ = geometry.lane_band(lanes - 1, lanes)
            _, hi = geometry.lane_band(0, lanes)
            p, left = geometry.centre(*geometry.path_of(face), line)
            a = world((p[0] + left[0] * hi * 1.25, p[1] + left[1] * hi * 1.25))
            b = world((p[0] + left[0] * lo * 1.25, p[1] + left[1] * lo * 1.25))
            c.add(f'<line x1="{a[0]:.2f}" y1="{a[1]:.2f}" x2="{b[0]:.2f}" y2="{b[1]:.2f}" stroke="#111" '
                  f'stroke-width="{size * 0.03:.2f}" stroke-dasharray="{size * 0.03:.2f},{size * 0.03:.2f}"/>')
            lx, ly = world((p[0] + left[0] * hi * 1.9, p[1] + left[1] * hi * 1.9))
            c.text(lx, ly, word, size * 0.075, fill="#111", weight="bold")
        if show_limits:
            for cid, cell in cells.items():
                if cid in slide_ids:
                    continue
                x, y = world(geometry.cell_anchor(face, cell))
                r = size * 0.062 * text_scale
                if cell.is_cut:
                    c.add(f'<rect x="{x - r:.2f}" y="{y - r:.2f}" width="{2 * r:.2f}" height="{2 * r:.2f}" rx="{r * 0.3:.2f}" '
                          f'fill="#2f5e1e" stroke="white" stroke-width="{sw:.2f}"/>')
                    c.text(x, y, f"C{cell.cut}", r * 1.05, fill="white", weight="bold")
                    continue
                if cell.limit is not None and not c.same_nearby(x, y, 2 * r, 2 * r, cell.limit):
                    c.add(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}" fill="white" stroke="#222" stroke-width="{sw:.2f}"/>')
                    c.text(x, y, cell.limit, r * 1.35, weight="bold")
                    c.keep_clear(x, y, 2 * r, 2 * r)
                if cell.jump is not None:
                    jy = y + (r * 1.8 if cell.limit is not None else 0)
                    c.add(f'<path d="M{x - r:.2f},{jy + r * 0.6:.2f} L{x:.2f},{jy - r * 0.8:.2f} L{x + r:.2f},{jy + r * 0.6:.2f}" '
                          f'fill="none" stroke="#111" stroke-width="{sw * 2:.2f}"/>')
                    c.text(x + r * 1.5, jy, cell.jump, r * 1.2, weight="bold")
                if cell.ford:
                    fy = y - (r * 1.8 if cell.limit is not None else 0)
                    for dy in (-r * 0.35, r * 0.35):
                        c.add(f'<path d="M{x - r:.2f},{fy + dy:.2f} q{r / 2:.2f},{-r / 2:.2f} {r:.2f},0 t{r:.2f},0" '
                              f'fill="none" stroke="#1f5fbf" stroke-width="{sw * 2:.2f}"/>')
                if cell.climb:
                    # An arrow along the road from ends[0]: the mark is met going that way (up: ascent).
                    _climb_mark(c, face, cell, world, size, sw)


def _climb_mark(c: _Canvas, face, cell, world, size, sw):
    lo, hi = geometry.cell_lateral(face, cell)
    t = cell.span[0]
    p, left = geometry.centre(*geometry.path_of(face), t)
    a = world((p[0] + left[0] * hi, p[1] + left[1] * hi))
    b = world((p[0] + left[0] * lo, p[1] + left[1] * lo))
    colour = "#b0306a" if cell.climb == "up" else "#2a7f62"
    c.add(f'<line x1="{a[0]:.2f}" y1="{a[1]:.2f}" x2="{b[0]:.2f}" y2="{b[1]:.2f}" stroke="{colour}" '
          f'stroke-width="{sw * 3:.2f}"/>')
    x, y = world(geometry.cell_anchor(face, cell))
    c.text(x, y + size * 0.09, "-1" if cell.climb == "up" else "+1", size * 0.07, fill=colour, weight="bold")


def face_svg(face, size: float = 100.0, width_px: float | None = 400) -> str:
    c = _Canvas()
    _draw_face(c, face, size=size, label=face.id)
    for e in "ABCDEF":
        x, y = hexgrid.edge_midpoint(e, size * 1.09)
        c.text(x, y, e, size * 0.08, fill="#888")
    return c.svg(-size * 1.12, -size * 1.02, size * 2.24, size * 2.04, width_px, title=f"Tile {face.id}")


def sheet_svg(faces, columns: int = 8, size: float = 100.0, width_px: float | None = None,
              title: str = "Tiles") -> str:
    c = _Canvas()
    faces = list(faces)
    cw, ch = size * 2.1, size * 2.0
    for k, face in enumerate(faces):
        col, row = k % columns, k // columns
        ox, oy = col * cw, row * ch
        inner = _Canvas()
        _draw_face(inner, face, size=size * 0.95, label=face.id)
        c.add(f'<g transform="translate({ox + cw / 2:.2f},{oy + ch / 2:.2f})">' + "".join(inner.parts) + "</g>")
    rows = max(1, math.ceil(len(faces) / columns))
    return c.svg(0, 0, columns * cw, rows * ch, width_px or columns * 120, title=title)


def stage_svg(track, size: float = TILE_SIZE, width_px: float | None = 900, lines: dict | None = None,
              highlight: set[int] | None = None, numbers: bool = True, title: str | None = None,
              show_limits: bool = True, text_scale: float = 1.0, ids: bool = True,
              overlaps: set[int] | None = None, avoid: list | None = None) -> str:
    """A whole stage. ``lines`` maps a name ('fastest', 'shortest') to a list of (cell node, gear or None).

    Tile numbers and ids are placed where they cover no other text (limit marks, tokens, the other labels)
    nor the discs in ``avoid`` ((x, y, radius): a line drawn over the map afterwards), trying the spots of the
    tile in turn.

    ``overlaps``: tiles that share their place with another; each gets a hatched outline in a warning colour,
    and every one but the first laid there is drawn see-through, so both stay visible.
    For print: ``text_scale`` enlarges the limit, cut and jump marks and the tile labels; ``show_limits``
    and ``ids`` leave out the limit marks and the face ids."""
    highlight = highlight or set()
    overlaps = overlaps or set()
    c = _Canvas()
    if not track.tiles:
        c.text(0, 0, "Empty stage: add a start tile", size * 0.15, fill="#666")
        return c.svg(-size * 1.5, -size, size * 3, size * 2, width_px, title=title)
    first_on: dict = {}                       # each place -> the first tile laid there
    for t in track.tiles:
        first_on.setdefault(t.hex, t.index)
    for t in track.tiles:
        see_through = t.index in overlaps and first_on[t.hex] != t.index
        if see_through:
            c.add('<g opacity="0.55">')
        _draw_face(c, t.face, t.hex, t.rotation, size, label=None, highlight=t.index in highlight,
                   show_limits=show_limits, text_scale=text_scale)
        if see_through:
            c.add("</g>")
    if overlaps:
        _draw_overlaps(c, track, overlaps, size)
    for t in track.tiles:
        _draw_tokens(c, t, size)
    # Tile numbers (driving order) and ids, each at the first spot of its tile that covers no other text.
    for x, y, r in avoid or []:
        c.keep_clear(x, y, 2 * r, 2 * r)
    for t in track.tiles:
        cx, cy = hexgrid.to_pixel(t.hex, size)
        if first_on.get(t.hex, t.index) != t.index:
            cy += size * 0.3                  # a tile laid on another: its number and id below the first's
        if numbers:
            r = size * 0.13 * max(text_scale, 1.0) ** 0.5
            x, y = _clear_spot(c, cx, cy, size, 2 * r, 2 * r, NUMBER_SPOTS)
            c.add(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}" fill="#222"/>')
            c.text(x, y, t.index + 1, r, fill="white", weight="bold")
            c.keep_clear(x, y, 2 * r, 2 * r)
        if ids:
            fs = size * 0.12 * max(text_scale, 1.0) ** 0.5
            x, y = _clear_spot(c, cx, cy, size, fs * 0.7 * len(t.tile), fs * 1.1, ID_SPOTS)
            c.text(x, y, t.tile, fs, fill="#333", weight="bold")
    if lines:
        _draw_lines(c, track, lines, size)
    # Start and finish flags beside their tiles when cells are not drawn.
    minx, miny, maxx, maxy = hexgrid.bounding_box(track.hexes(), size)
    pad = size * 0.15
    return c.svg(minx - pad, miny - pad, maxx - minx + 2 * pad, maxy - miny + 2 * pad, width_px, title=title)


#: Half the width and half the height of the box of one tile's picture (:func:`tile_svg`), in tile sizes: the hexagon
#: and whatever a label or a stacked tile's number may reach past it.
TILE_BOX = (1.06, 1.1)


def tile_svg(tile, size: float = TILE_SIZE, highlight: bool = False, hatched: bool = False, stacked: bool = False,
             ids: bool = True, show_limits: bool = True) -> tuple[str, tuple[float, float, float]]:
    """One placed tile drawn alone, centred on (0, 0): its face turned as laid, the error outline (``highlight``),
    the overlap hatch (``hatched``), its tokens and its id, on no background; ``stacked``: laid on another tile
    (its labels lower down, as :func:`stage_svg` places them). A map can lay these pictures side by side and draw
    again only the tiles that changed.

    Returns the SVG (its box :data:`TILE_BOX`) and where the tile's number disc goes: ``(x, y, radius)`` from the
    centre, at the first spot that covers no text of the tile (the number itself changes when a tile is inserted
    before it, so it is not part of the picture)."""
    from dataclasses import replace

    c = _Canvas()
    at = replace(tile, hex=(0, 0))
    _draw_face(c, at.face, (0, 0), at.rotation, size, label=None, highlight=highlight, show_limits=show_limits)
    if hatched:
        _draw_overlaps(c, _Alone(at), {at.index}, size, numbered=False)
    _draw_tokens(c, at, size)
    cy = size * 0.3 if stacked else 0.0
    r = size * 0.13
    x, y = _clear_spot(c, 0.0, cy, size, 2 * r, 2 * r, NUMBER_SPOTS)
    c.keep_clear(x, y, 2 * r, 2 * r)
    if ids:
        fs = size * 0.12
        ix, iy = _clear_spot(c, 0.0, cy, size, fs * 0.7 * len(at.tile), fs * 1.1, ID_SPOTS)
        c.text(ix, iy, at.tile, fs, fill="#333", weight="bold")
    w, h = TILE_BOX[0] * size, TILE_BOX[1] * size
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-w:.2f} {-h:.2f} {2 * w:.2f} {2 * h:.2f}" '
           f'width="{2 * w:.0f}" height="{2 * h:.0f}">' + "".join(c.parts) + "</svg>")
    return svg, (x, y, r)


class _Alone:
    """A track of one tile, for the drawing steps that read a track's tiles."""

    def __init__(self, tile):
        self.tiles = [tile]


# Spots for a tile's number disc and its id, in tile sizes from its centre: the usual one first.
NUMBER_SPOTS = ((-0.5, -0.62), (-0.5, 0.62), (-0.86, 0.0), (0.5, 0.62), (0.0, -0.7), (0.0, 0.7), (-0.3, -0.35))
ID_SPOTS = ((0.42, -0.66), (0.42, 0.66), (0.0, -0.72), (0.0, 0.72), (-0.4, 0.66), (0.62, 0.0), (0.0, 0.0))


def _clear_spot(c: _Canvas, cx, cy, size, w, h, spots) -> tuple[float, float]:
    for dx, dy in spots:
        x, y = cx + dx * size, cy + dy * size
        if c.is_clear(x, y, w, h):
            return x, y
    return cx + spots[0][0] * size, cy + spots[0][1] * size


OVERLAP_COLOUR = "#e67e00"


def _draw_overlaps(c: _Canvas, track, overlaps: set[int], size: float, numbered: bool = True):
    """A hatched, dashed outline in the warning colour on every tile that shares its place with another (its title
    names the tile by its number in the stage and its id, or by its id alone)."""
    c.add('<defs><pattern id="overlap-hatch" width="14" height="14" patternUnits="userSpaceOnUse" '
          'patternTransform="rotate(45)"><rect width="5" height="14" fill="' + OVERLAP_COLOUR + '" '
          'fill-opacity="0.35"/></pattern></defs>')
    for t in track.tiles:
        if t.index in overlaps:
            corners = hexgrid.corners(size * 0.93, hexgrid.to_pixel(t.hex, size))
            c.add(f'<polygon class="overlap" points="{_pts(corners)}" fill="url(#overlap-hatch)" '
                  f'stroke="{OVERLAP_COLOUR}" stroke-width="{size * 0.06:.2f}" '
                  f'stroke-dasharray="{size * 0.12:.2f},{size * 0.07:.2f}"><title>'
                  + (f"Tile {t.index + 1} ({escape(t.tile)})" if numbered else f"Tile {escape(t.tile)}")
                  + ' shares its place with another tile</title></polygon>')


TOKEN_MARKS = {"chicane": ("X", "#c0392b"), "chicane-limit": ("X", "#c0392b"), "water": ("~", "#1f5fbf"),
               "jump": ("^", "#111111"), "climb-ascent": ("-1", "#b0306a"), "climb-descent": ("+1", "#2a7f62"),
               "cloud": ("c", "#777777"), "oxygen": ("O2", "#2a7f9e"), "joker-entrance": ("J", "#1e8c3a"),
               "joker-exit": ("J", "#b0302a"), "finish": ("F", "#111111"), "mud-spray": ("-1", "#6b4a2b")}


def _draw_tokens(c: _Canvas, tile, size: float):
    """Tokens laid on a placed tile: a round marker with a letter (the chicane's limit, the jump's value)."""
    from designer.systems.dirt.board.tokens import token_position

    for tok in tile.tokens:
        x, y = geometry.to_world(token_position(tile, tok), tile.hex, tile.rotation, size)
        mark, colour = TOKEN_MARKS[tok.kind]
        if tok.kind == "chicane-limit" and tok.value is not None:
            mark = f"X{tok.value}"
        r = size * 0.07
        c.add(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}" fill="white" stroke="{colour}" '
              f'stroke-width="{size * 0.018:.2f}"><title>{escape(tok.label())}</title></circle>')
        c.text(x, y, mark, r * 1.1, fill=colour, weight="bold")


def node_point(track, node: str, size: float):
    d = track.graph.nodes[node]
    tile = track.tiles[[t.index for t in track.tiles].index(d["index"])]
    # A junction driven by another road (a lap closing on it, a joker) has the cell on that road's face.
    faces = [tile.driven] + [f for f in tile.face.road_faces() if f.road == d.get("road")] + tile.face.road_faces()
    face, cell = next((f, cc) for f in faces for cc in f.all_cells() if cc.id == d["cell"])
    return geometry.to_world(geometry.cell_anchor(face, cell), tile.hex, tile.rotation, size)


def _draw_lines(c: _Canvas, track, lines: dict, size: float):
    offset = LINE_OFFSETS
    for name, steps in lines.items():
        if not steps:
            continue
        colour = LINE_COLOURS.get(name, "#444")
        pts = [node_point(track, n, size) for n, _ in steps]
        dx = offset.get(name, 0) * size
        pts = [(x + dx, y + dx) for x, y in pts]
        c.add(f'<polyline points="{_pts(pts)}" fill="none" stroke="{colour}" stroke-width="{size * 0.028:.2f}" '
              f'stroke-linejoin="round" stroke-opacity="0.85"/>')
        for (x, y), (_, gear) in zip(pts, steps):
            if gear is None:
                c.add(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{size * 0.025:.2f}" fill="{colour}"/>')
                continue
            r = size * 0.05
            c.add(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}" fill="{GEAR_COLOURS.get(gear, colour)}" '
                  f'stroke="white" stroke-width="{size * 0.008:.2f}"/>')
            c.text(x, y, gear, r * 1.3, fill="white", weight="bold")
