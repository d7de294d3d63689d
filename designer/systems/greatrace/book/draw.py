"""SVG drawing of a Great Race board and a race on it: spaces, risk zones, cities, transport lines, bands,
laid tiles, and a route. Readable in grayscale: risk zones are dark, cities are circles with their names,
laid tiles carry their terrain's initial and symbols (! DANGER, ■ STOP), a route is a thick line."""
from __future__ import annotations

from designer.core import hexgrid
from designer.core.svgkit import text as esc
from designer.systems.greatrace.files.board import Board, label
from designer.systems.greatrace.driving.costs import CostMap

SIZE = 22.0
PAD = 30.0
ROUTE_STYLES = {"fastest": ("#c0392b", ""), "cheapest": ("#1f6f3f", "8 5"), "shortest": ("#1f4e9a", "2 4")}
TERRAIN_FILL = ["#f3e6c4", "#d9ead3", "#f1d3b5", "#e4d8ef", "#d4e4f1", "#f6d6d6", "#e8e8c8", "#dcdcdc"]


def _xy(h, ox, oy):
    x, y = hexgrid.to_pixel(h, SIZE)
    return x + ox, y + oy


def board_svg(board: Board, cm: CostMap | None = None, routes: dict | None = None, title: str = "",
              show_labels: bool = True) -> str:
    """The board; with ``cm`` the race's cities and laid tiles; ``routes`` maps a name to a list of hexes."""
    spaces = board.spaces()
    all_hexes = [h for h in spaces] or [(0, 0)]
    x0, y0, x1, y1 = hexgrid.bounding_box(all_hexes, SIZE)
    top = 26.0 if title else 8.0
    ox, oy = PAD - x0, PAD + top - y0 + 10
    items = _legend_items(routes or {})
    # wide enough for the board, the title and the widest legend item; the legend flows in rows below
    width = max(x1 - x0, text_width(title, 15, bold=True) if title else 0.0, max(w for w, _ in items)) + 2 * PAD
    legend_rows = _flow(items, width - 2 * PAD)
    legend_top = y1 - y0 + 2 * PAD + top
    height = legend_top + len(legend_rows) * LEGEND_ROW + 12
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, sans-serif">',
           '<rect width="100%" height="100%" fill="white"/>']
    if title:
        out.append(f'<text x="{PAD}" y="22" font-size="15" font-weight="bold">{esc(title)}</text>')
    # Progression bands: a label over each band, alternate shading behind the hexes.
    for i, band in enumerate(board.bands):
        hexes = [h for h in spaces if board.band_of(h) == band.name]
        if not hexes:
            continue
        bx0, by0, bx1, by1 = hexgrid.bounding_box(hexes, SIZE)
        if i % 2 == 0:
            out.append(f'<rect x="{bx0 + ox:.1f}" y="{by0 + oy:.1f}" width="{bx1 - bx0:.1f}" height="{by1 - by0:.1f}" '
                       f'fill="#eeeeee"/>')
        out.append(f'<text x="{(bx0 + bx1) / 2 + ox:.1f}" y="{by0 + oy - 4:.1f}" font-size="9" text-anchor="middle" '
                   f'fill="#555">band {esc(band.name)}</text>')
    cities = cm.cities if cm is not None else {c.at: c for c in board.cities.values() if not c.median}
    terrains = {k.terrain: i for i, k in enumerate(board.bag)}
    tile_text: list[tuple] = []           # boxes of laid tiles' text: a city name must not cover them
    hex_text: list[tuple] = []            # boxes of hex labels: covered only when nothing better is found
    for h in spaces:
        cx, cy = _xy(h, ox, oy)
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in hexgrid.corners(SIZE - 0.8, (cx, cy)))
        risk = h in board.risk
        sp = cm.spaces.get(h) if cm is not None else None
        fill = "#5a5a5a" if risk else "#fbf8f0"
        if sp is not None and sp.kind == "tile":
            fill = "#7a6a50" if risk else TERRAIN_FILL[terrains.get(sp.terrain, 0) % len(TERRAIN_FILL)]
        out.append(f'<polygon points="{pts}" fill="{fill}" stroke="#888" stroke-width="0.8"/>')
        if sp is not None and sp.kind == "tile":
            kind = board.tile(sp.terrain)
            mark = (kind.terrain[:2].title() if kind else "?") + ("!" if kind and kind.danger else "") + \
                   ("■" if kind and kind.stop else "")
            colour = "white" if risk else "black"
            out.append(f'<text x="{cx:.1f}" y="{cy + 3:.1f}" font-size="9" text-anchor="middle" fill="{colour}" '
                       f'font-weight="bold">{esc(mark)}</text>')
            out.append(f'<text x="{cx:.1f}" y="{cy + 13:.1f}" font-size="7" text-anchor="middle" fill="{colour}">'
                       f'{kind.fuel if kind else "?"}f {kind.mech if kind else "?"}m</text>')
            tile_text.append((cx - 14, cy - 6, cx + 14, cy + 15))
        elif show_labels and h not in cities and not any(c.at == h for c in board.cities.values()):
            out.append(f'<text x="{cx:.1f}" y="{cy + 3:.1f}" font-size="7" text-anchor="middle" '
                       f'fill="{"#ddd" if risk else "#aaa"}">{label(h)}</text>')
            hex_text.append((cx - 6, cy - 3, cx + 6, cy + 4))
    # Transport lines under the cities.
    for t in board.transports:
        if t.a not in board.cities or t.b not in board.cities:
            continue
        (ax, ay), (bx, by) = _xy(board.cities[t.a].at, ox, oy), _xy(board.cities[t.b].at, ox, oy)
        dash = "6 4" if t.mode == "sea" else "1 4"
        mx, my = (ax + bx) / 2, (ay + by) / 2
        nx_, ny_ = -(by - ay), bx - ax
        norm = max(1.0, (nx_ ** 2 + ny_ ** 2) ** 0.5)
        qx, qy = mx + nx_ / norm * 30, my + ny_ / norm * 30
        out.append(f'<path d="M{ax:.1f},{ay:.1f} Q{qx:.1f},{qy:.1f} {bx:.1f},{by:.1f}" fill="none" stroke="#1a4f8b" '
                   f'stroke-width="2.2" stroke-dasharray="{dash}" stroke-linecap="round"/>')
        lx, ly = (ax + 2 * qx + bx) / 4, (ay + 2 * qy + by) / 4
        tile_text.append((lx - 24, ly - 8, lx + 24, ly + 5))
        out.append(f'<rect x="{lx - 24:.1f}" y="{ly - 8:.1f}" width="48" height="13" rx="3" fill="white" '
                   f'stroke="#1a4f8b" stroke-width="0.8"/>')
        out.append(f'<text x="{lx:.1f}" y="{ly + 2:.1f}" font-size="8.5" text-anchor="middle" fill="#1a4f8b">'
                   f'{t.mode} {t.fare} F</text>')
    for name, hexes in (routes or {}).items():
        colour, dash = ROUTE_STYLES.get(name, ("#333", ""))
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (_xy(h, ox, oy) for h in hexes))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="4.5" stroke-opacity="0.85" '
                   f'stroke-linejoin="round" stroke-linecap="round"' + (f' stroke-dasharray="{dash}"' if dash else "")
                   + '/>')
    circles = [(x - 14, y - 14, x + 14, y + 14) for x, y in (_xy(c.at, ox, oy) for c in board.cities.values())]
    names: list[tuple] = []
    labels: list[str] = []
    for c in board.cities.values():
        cx, cy = _xy(c.at, ox, oy)
        present = c.at in cities
        if c.median and not present:
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{SIZE * 0.6:.1f}" fill="none" stroke="#6b3fa0" '
                       f'stroke-width="1.5" stroke-dasharray="3 2"/>')
        else:
            fill = "#6b3fa0" if c.purple or c.median else "white"
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{SIZE * 0.62:.1f}" fill="{fill}" stroke="black" '
                       f'stroke-width="1.5"/>')
            out.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" font-size="11" font-weight="bold" text-anchor="middle" '
                       f'fill="{"white" if c.purple or c.median else "black"}">{c.cards}</text>')
        lines = [(c.name, 9.0, "bold")]
        if c.median and not present:
            lines.append(("median slot, not used in this race" if cm is not None else "median slot", 7.0, "normal"))
        x, y, box = _place_name(cx, cy, lines, tile_text, circles, names, hex_text, width)
        names.append(box)
        for i, (text, size, weight) in enumerate(lines):
            ty = y + sum(ln[1] + 1 for ln in lines[:i])
            style = "" if weight == "bold" else ' font-style="italic"'
            for extra in ('stroke="white" stroke-width="3" stroke-linejoin="round" fill="white"', 'fill="black"'):
                labels.append(f'<text x="{x:.1f}" y="{ty:.1f}" font-size="{size}" font-weight="{weight}"{style} '
                              f'text-anchor="middle" {extra}>{esc(text)}</text>')
    out.extend(labels)
    out.append(_legend(PAD, legend_top, legend_rows))
    out.append("</svg>")
    return "\n".join(out)


def _overlap(a: tuple, b: tuple) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _place_name(cx: float, cy: float, lines: list[tuple], hard: list, circles: list, names: list,
                soft: list, page_width: float = 1e9) -> tuple[float, float, tuple]:
    """Where a city's name goes: of the places around its circle (below first), the one that covers no laid
    tile's text, fare, city or other name, and the fewest hex labels. Returns the first baseline and the box."""
    width = max(len(t) * size * (0.62 if w == "bold" else 0.55) for t, size, w in lines)
    height = sum(size + 1 for _t, size, _w in lines)
    r = SIZE * 0.62
    spots = [(cx, cy + r + 2), (cx, cy - r - height - 1), (cx + r + width / 2 + 2, cy - height / 2),
             (cx - r - width / 2 - 2, cy - height / 2), (cx + width / 2, cy + r + 2), (cx - width / 2, cy + r + 2),
             (cx + width / 2, cy - r - height - 1), (cx - width / 2, cy - r - height - 1)]
    best = None
    for order, (x, top) in enumerate(spots):
        box = (x - width / 2, top, x + width / 2, top + height)
        own = (cx - 14, cy - 14, cx + 14, cy + 14)
        cost = (sum(_overlap(box, b) for b in hard) * 100 + sum(_overlap(box, b) for b in names) * 100
                + sum(_overlap(box, b) for b in circles if b != own) * 50
                + sum(1 for b in soft if _overlap(box, b) > 0) * 20 + order
                + (1e7 if box[0] < 2 or box[2] > page_width - 2 else 0))
        if best is None or cost < best[0]:
            best = (cost, x, top + lines[0][1] - 1, box)
    return best[1], best[2], best[3]


LEGEND_ROW = 18.0


def text_width(text: str, size: float, bold: bool = False) -> float:
    """About how wide ``text`` is drawn in DejaVu Sans at ``size`` (a little over, never under)."""
    return len(text) * size * (0.66 if bold else 0.6)


def _legend_items(routes: dict) -> list[tuple[float, object]]:
    """The legend's items: (width, a function of (x, y) giving its SVG)."""
    def swatch(label, mark):
        return (22 + text_width(label, 9), lambda x, y: mark(x, y) + f'<text x="{x + 18:.1f}" y="{y + 9:.1f}">'
                                                               f'{esc(label)}</text>')

    items = [swatch("risk zone +1 fuel",
                    lambda x, y: f'<rect x="{x:.1f}" y="{y:.1f}" width="12" height="10" fill="#5a5a5a"/>'),
             swatch("purple city (cards drawn)",
                    lambda x, y: f'<circle cx="{x + 6:.1f}" cy="{y + 5:.1f}" r="6" fill="#6b3fa0" stroke="black"/>')]
    for mode, dash in (("sea", "6 4"), ("air", "1 4")):
        items.append((40 + text_width(mode, 9), lambda x, y, mode=mode, dash=dash:
                      f'<line x1="{x:.1f}" y1="{y + 5:.1f}" x2="{x + 30:.1f}" y2="{y + 5:.1f}" stroke="#1a4f8b" '
                      f'stroke-width="2" stroke-dasharray="{dash}"/>'
                      f'<text x="{x + 34:.1f}" y="{y + 9:.1f}">{mode}</text>'))
    words = "tiles: ! danger  ■ stop  f fuel  m mechanic"
    items.append((text_width(words, 9) + 4, lambda x, y: f'<text x="{x:.1f}" y="{y + 9:.1f}">{words}</text>'))
    for name in routes:
        colour, dash = ROUTE_STYLES.get(name, ("#333", ""))
        label = f"{name} route"
        items.append((40 + text_width(label, 9), lambda x, y, colour=colour, dash=dash, label=label:
                      f'<line x1="{x:.1f}" y1="{y + 5:.1f}" x2="{x + 30:.1f}" y2="{y + 5:.1f}" stroke="{colour}" '
                      f'stroke-width="4"' + (f' stroke-dasharray="{dash}"' if dash else "") + '/>'
                      f'<text x="{x + 34:.1f}" y="{y + 9:.1f}">{esc(label)}</text>'))
    return items


def _flow(items: list, width: float, gap: float = 14.0) -> list[list]:
    """The items in rows no wider than ``width`` (an item wider than a row gets a row of its own)."""
    rows: list[list] = [[]]
    used = 0.0
    for w, draw in items:
        if rows[-1] and used + gap + w > width:
            rows.append([])
            used = 0.0
        used += (gap if rows[-1] else 0.0) + w
        rows[-1].append((w, draw))
    return rows


def _legend(x0: float, y0: float, rows: list[list]) -> str:
    parts = ['<g font-size="9">']
    for r, row in enumerate(rows):
        x = x0
        for w, draw in row:
            parts.append(draw(x, y0 + r * LEGEND_ROW))
            x += w + 14.0
    parts.append("</g>")
    return "".join(parts)
