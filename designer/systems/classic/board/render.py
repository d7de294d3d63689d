"""SVG drawings of classic zones and stages (standard library only; readable in grayscale).

:func:`face_svg` draws one zone face (for the zone editor); :func:`stage_svg` the boards of a stage where they
lie on the table, the route driven, and optionally the ideal line with the gear of each turn.
Marks: a corner's inside note in a circle, drift gears on the drift cells, ``K4`` on a cut, ``^3`` a bump,
``~`` a ford, a dashed line across a half-cell, ``+`` a crossroads, ``=`` a cell two cars wide; road ends are numbered outside the edge.
"""
from __future__ import annotations

import textwrap

from designer.core.svgkit import text as esc
from designer.systems.classic.board.assembly import Course, turn_cell, turn_side
from designer.systems.classic.files.zones import Face, parse_cell

PX = 40
FILL = {"asphalt": "#ececec", "snow": "#f7fbff", "gravel": "#f1e6d2"}
ROAD = {"asphalt": "#8c8c8c", "snow": "#b9c6d3", "gravel": "#b79a6b"}
ENV = {"meadow": ("#7fbf5f", ""), "earth": ("#9b6b3c", ""), "forest": ("#2e6b2e", "F"), "rocks": ("#555555", "R")}
OUT = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def _face_parts(face: Face, ox: float, oy: float, rot: int, highlight: set | None = None) -> list[str]:
    n = face.size
    out = [f'<rect x="{ox}" y="{oy}" width="{n * PX}" height="{n * PX}" fill="{FILL.get(face.surface, "#eee")}" '
           f'stroke="#222" stroke-width="2"/>',
           f'<text x="{ox + n * PX / 2}" y="{oy + n * PX / 2 + 28}" font-size="84" text-anchor="middle" '
           f'fill="#000" fill-opacity="0.07" font-family="DejaVu Sans, sans-serif">{esc(face.zone)}</text>']

    def xy(name):
        c, r = parse_cell(name)
        c, r = turn_cell(c, r, rot, n)
        return ox + c * PX, oy + r * PX

    lanes: dict[str, str] = {}
    marks: dict[str, list[str]] = {}
    for road in face.roads:
        for cell in road.path:
            lanes.setdefault(cell, "road")
        for c in road.corners:
            for cell in c.drift:
                lanes[cell] = "drift"
                marks.setdefault(cell, []).append(str(c.gear))
            for cell in c.cut:
                lanes[cell] = "cut"
                marks.setdefault(cell, []).append(f"K{c.k}")
            if c.note is not None:
                marks.setdefault(c.inside[len(c.inside) // 2], []).append(f"({c.note})")
    for cell, lane in sorted(lanes.items()):
        x, y = xy(cell)
        info = face.cell(cell)
        on_route = highlight is None or cell in highlight
        fill = {"road": ROAD.get(face.surface, "#999"), "drift": "#d9d9d9", "cut": "#a07850"}[lane]
        dash = ' stroke-dasharray="4 3"' if lane == "drift" else ""
        out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{PX - 2}" height="{PX - 2}" fill="{fill}" '
                   f'fill-opacity="{1 if on_route else 0.3}" stroke="#333" stroke-width="1"{dash}/>')
        colour, letter = ENV[info.env]
        out.append(f'<rect x="{x + 2}" y="{y + 2}" width="7" height="7" fill="{colour}" stroke="#fff" stroke-width="0.5"/>')
        if letter:
            out.append(f'<text x="{x + PX - 4}" y="{y + 10}" font-size="8" text-anchor="end" fill="#000" '
                       f'font-family="DejaVu Sans, sans-serif">{letter}</text>')
        label = list(marks.get(cell, []))
        if info.bump:
            label.append(f"^{info.bump}")
        if info.ford and face.surface != "snow":          # frozen on the snow side (ART.23)
            label.append("~")
        if info.crossroads:
            label.append("+")
        if info.lanes > 1:
            label.append("=" * (info.lanes - 1))
        if label:
            out.append(f'<text x="{x + PX / 2}" y="{y + PX / 2 + 5}" font-size="13" font-weight="bold" '
                       f'text-anchor="middle" fill="#000" font-family="DejaVu Sans, sans-serif">'
                       f'{esc(" ".join(label))}</text>')
        if info.half:
            out.append(f'<line x1="{x + 4}" y1="{y + 4}" x2="{x + PX - 4}" y2="{y + PX - 4}" stroke="#000" '
                       f'stroke-dasharray="3 3"/>')
    for num, end in sorted(face.ends.items()):
        x, y = xy(end.cell)
        side = turn_side(end.side, rot)
        dx, dy = OUT[side]
        cx, cy = x + PX / 2 + dx * (PX / 2 + 9), y + PX / 2 + dy * (PX / 2 + 9)
        out.append(f'<circle cx="{cx}" cy="{cy}" r="8" fill="#fff" stroke="#000"/>'
                   f'<text x="{cx}" y="{cy + 4}" font-size="11" text-anchor="middle" font-weight="bold" '
                   f'font-family="DejaVu Sans, sans-serif">{num}</text>')
    return out


def face_svg(face: Face, title: str = "") -> str:
    n, m = face.size, 36
    w = h = n * PX + 2 * m
    body = _face_parts(face, m, m + 14, 0)
    for i in range(n):
        body.append(f'<text x="{m + i * PX + PX / 2}" y="{m - 12}" font-size="9" text-anchor="middle" '
                    f'font-family="DejaVu Sans, sans-serif">{chr(65 + i)}</text>')
        body.append(f'<text x="8" y="{m + 14 + i * PX + PX / 2 + 3}" font-size="9" text-anchor="middle" '
                    f'font-family="DejaVu Sans, sans-serif">{i + 1}</text>')
    head = f'<text x="{m}" y="12" font-size="12" font-family="DejaVu Sans, sans-serif">{esc(title or face.key)}</text>'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h + 14}" viewBox="0 0 {w} {h + 14}">'
            f'<rect width="100%" height="100%" fill="#fff"/>{head}{"".join(body)}</svg>')


def unlaid_svg(course: Course, title: str = "", width_chars: int = 64) -> str:
    """A stage whose boards cannot be laid: its name and why, wrapped so that nothing is cut off."""
    reasons = [p.message for p in course.problems if p.severity == "error"]
    lines = textwrap.wrap(f"{title}: the boards cannot be laid" if title else "The boards cannot be laid",
                          width_chars)
    for r in reasons:
        lines += textwrap.wrap(r, width_chars, initial_indent="- ", subsequent_indent="  ")
    size, step, m = 14, 20, 12
    w = int(max(len(x) for x in lines) * size * 0.62) + 2 * m
    h = len(lines) * step + 2 * m
    body = "".join(f'<text x="{m}" y="{m + (i + 1) * step - 5}" font-size="{size}" xml:space="preserve" '
                   f'font-family="DejaVu Sans, sans-serif">{esc(x)}</text>' for i, x in enumerate(lines))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
            f'<rect width="{w}" height="{h}" fill="white"/>{body}</svg>')


def stage_svg(course: Course, title: str = "", line: dict | None = None) -> str:
    size = course.box.size
    places = list(course.placements.values())
    if not places:
        return unlaid_svg(course, title)
    minx, miny = min(p.x for p in places), min(p.y for p in places)
    maxx, maxy = max(p.x for p in places), max(p.y for p in places)
    m, top = 30, 26
    w = (maxx - minx + 1) * size * PX + 2 * m
    h = (maxy - miny + 1) * size * PX + 2 * m + top
    body = []
    driven: dict[str, set] = {}
    if course.graph is not None:
        for n, d in course.graph.nodes(data=True):
            if d.get("zone"):
                driven.setdefault(d["zone"], set()).add(d["cell"])
    for p in places:
        face = course.faces[next(i for i, t in enumerate(course.route) if t.zone == p.zone)]
        ox, oy = m + (p.x - minx) * size * PX, m + top + (p.y - miny) * size * PX
        body += _face_parts(face, ox, oy, p.rot, driven.get(p.zone, set()))

    def pos(node):
        d = course.graph.nodes[node]
        return m + (d["x"] - minx * size) * PX, m + top + (d["y"] - miny * size) * PX

    g = course.graph
    if g is not None:
        first = [v for v in g.successors("start")]
        last = [u for u in g.predecessors("finish")]
        for label, nodes in (("START", first), ("FINISH", last)):
            if nodes:
                x, y = pos(nodes[0])
                wd = 9 + 7.5 * len(label)
                body.append(f'<rect x="{x - wd / 2}" y="{y - PX / 2 - 2}" width="{wd}" height="14" rx="3" '
                            f'fill="#fff" stroke="#000" stroke-width="1"/>'
                            f'<text x="{x}" y="{y - PX / 2 + 9}" font-size="10" font-weight="bold" '
                            f'text-anchor="middle" font-family="DejaVu Sans, sans-serif">{label}</text>')
    if line and g is not None:
        pts = [pos(n) for n in line.get("cells", []) if n in g]
        if pts:
            first = pos(next(iter(g.successors("start"))))
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
            body.append(f'<polyline points="{path}" fill="none" stroke="#000" stroke-width="3" '
                        f'stroke-linejoin="round" stroke-opacity="0.65"/>')
            body.append(f'<circle cx="{first[0]}" cy="{first[1]}" r="4" fill="#000"/>')
        for k, turn in enumerate(line.get("turns", []), start=1):
            cells = [c for c in turn.get("cells", []) if c in g and c != "finish"]
            if not cells:
                continue
            x, y = pos(cells[-1])
            body.append(f'<circle cx="{x}" cy="{y}" r="9" fill="#fff" stroke="#000" stroke-width="2"/>'
                        f'<text x="{x}" y="{y + 4}" font-size="11" font-weight="bold" text-anchor="middle" '
                        f'font-family="DejaVu Sans, sans-serif">{turn["gear"]}</text>')
    head = (f'<text x="{m}" y="20" font-size="15" font-weight="bold" font-family="DejaVu Sans, sans-serif">'
            f'{esc(title)}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
            f'<rect width="100%" height="100%" fill="#fff"/>{head}{"".join(body)}</svg>')
