"""The Analysis tab's map with the lines, drawn inline in the page so that hovering a cell of a line shows a
tooltip: the line, the tile, the gear there and the turn that reaches it (SVG ``<title>`` elements, which the
browser shows by itself: no script, no round trip to the server).

:func:`with_cell_titles` adds one invisible disc with a title over every cell of every line drawn;
:func:`inline_svg` sizes the drawing for the page.
"""
from __future__ import annotations

import re
from xml.sax.saxutils import escape

from designer.systems.dirt.board.render import LINE_OFFSETS, TILE_SIZE, node_point


def cell_title(name: str, graph, node: str, gear, turn, flown: bool) -> str:
    """What hovering one cell of a line says."""
    data = graph.nodes[node] if node in graph else {}
    where = f"tile {data.get('index', -1) + 1} ({data.get('tile', '?')}), cell {data.get('cell', node)}"
    parts = [f"{name.capitalize()} line, {where}"]
    if gear is not None:
        parts.append(f"gear {gear}")
    if turn is not None:
        parts.append("start" if turn == 0 else f"turn {turn}")
    if flown:
        parts.append("flown over by a jump")
    return parts[0] + (": " + ", ".join(parts[1:]) if len(parts) > 1 else "")


def with_cell_titles(svg: str, track, lines: dict, size: float = TILE_SIZE) -> str:
    """The drawing with a hover target over every cell of the ``lines`` (name -> LineView) it shows."""
    out = ['<g class="line-cells">']
    r = size * 0.06
    for name, line in lines.items():
        dx = LINE_OFFSETS.get(name, 0.0) * size
        for k, (node, gear) in enumerate(line.cells):
            if node not in track.graph:
                continue
            x, y = node_point(track, node, size)
            title = cell_title(name, track.graph, node, gear, line.turn_of[k], line.flown[k])
            out.append(f'<circle class="line-cell" data-line="{name}" cx="{x + dx:.2f}" cy="{y + dx:.2f}" '
                       f'r="{r:.2f}" fill="#ffffff" fill-opacity="0.004"><title>{escape(title)}</title></circle>')
    out.append("</g>")
    end = svg.rindex("</svg>")
    return svg[:end] + "".join(out) + svg[end:]


def inline_svg(svg: str, width_px: int) -> str:
    """The drawing at ``width_px`` wide (never wider than its column), its height following."""
    sized = re.sub(r"^<svg ", f'<svg width="{width_px}" style="max-width:100%;height:auto;display:block" ', svg,
                   count=1)
    return f'<div class="line-map">{sized}</div>'

