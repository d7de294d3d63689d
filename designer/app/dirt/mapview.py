"""The clickable stage map: the stage's SVG drawing under a layer of hexagons, one per tile, that
Vega-Lite can select (``st.altair_chart(..., on_select="rerun")``), and the plain functions that turn
a chart selection into a tile index.

The drawing and the hexagons share one coordinate system: the SVG's own user units (tile circumradius
``SIZE``), read back from its ``viewBox``. The image is laid exactly over that box.
"""
from __future__ import annotations

import base64
import re
from typing import Any, Iterable, Mapping

from designer.app.selection import picked_field
from designer.core import hexgrid

SIZE = 100.0                 # tile circumradius used by stage_svg (its default)
PARAM = "tile_pick"          # name of the selection parameter in the chart
OPEN_END = -1                # index of the dashed "next tile goes here" hexagon
HEX_PATH = "M1,0L0.5,0.866L-0.5,0.866L-1,0L-0.5,-0.866L0.5,-0.866Z"   # flat-topped, unit circumradius
SELECTED_STROKE, SELECTED_WIDTH = "#1456c8", 5.0          # the selected tile's outline


def viewbox(svg: str) -> tuple[float, float, float, float]:
    """``(x, y, width, height)`` of an SVG's viewBox."""
    m = re.search(r'viewBox="([-\d.eE+]+)[ ,]+([-\d.eE+]+)[ ,]+([-\d.eE+]+)[ ,]+([-\d.eE+]+)"', svg)
    if not m:
        raise ValueError("the drawing has no viewBox")
    return tuple(float(v) for v in m.groups())  # type: ignore[return-value]


def open_end_hex(track) -> tuple[int, int] | None:
    """Where the next tile added at the open end will sit (the stage's first place when empty); None when the
    road ends there or that place is taken (a loop that closes on its start, a finish beside an earlier tile:
    the dashed hexagon would hide the tile there)."""
    if not track.tiles:
        return (0, 0)
    last = track.tiles[-1]
    if last.world_exit is None:
        return None
    h = hexgrid.neighbour(last.hex, last.world_exit)
    return None if any(t.hex == h for t in track.tiles) else h


def map_points(track, selected: int | None = None, problems: Mapping[int, list] | None = None,
               open_end: bool = True) -> list[dict[str, Any]]:
    """One row per tile for the selectable layer: index, number, tile id, centre, state, tooltip."""
    problems = problems or {}
    rows = []
    for t in track.tiles:
        x, y = hexgrid.to_pixel(t.hex, SIZE)
        probs = problems.get(t.index, [])
        worst = _worst(p.severity for p in probs)
        tip = f"Tile {t.index + 1}: {t.tile} ({t.face.kind})"
        if probs:
            tip += " - " + "; ".join(p.message for p in probs[:3])
        rows.append({"index": t.index, "number": t.index + 1, "tile": t.tile, "x": x, "y": y,
                     "selected": t.index == selected, "problem": worst or "", "tip": tip, "kind": "tile"})
    if open_end:
        h = open_end_hex(track)
        if h is not None:
            x, y = hexgrid.to_pixel(h, SIZE)
            rows.append({"index": OPEN_END, "number": 0, "tile": "+", "x": x, "y": y,
                         "selected": selected == OPEN_END, "problem": "",
                         "tip": "The open end: the next tile added goes here", "kind": "open"})
    return rows


def _worst(severities: Iterable[str]) -> str | None:
    order = {"error": 0, "warning": 1, "info": 2}
    s = sorted(severities, key=lambda v: order.get(v, 9))
    return s[0] if s else None


MAX_PPU = 0.9               # pixels per SVG unit at most: a tile is never drawn wider than ~180 px


def blank_svg() -> str:
    """An empty drawing the size of one tile at the origin (the map of an empty stage)."""
    r = SIZE * 1.02
    h = r * hexgrid.SQRT3 / 2
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-r:.2f} {-h:.2f} {2 * r:.2f} {2 * h:.2f}">'
            f'<rect x="{-r:.2f}" y="{-h:.2f}" width="{2 * r:.2f}" height="{2 * h:.2f}" fill="white"/></svg>')


def layout(svg, points: list[dict], max_width: int = 760, max_height: int = 640) -> dict:
    """Pixel size of the chart, data domains and where the drawing goes; ``svg`` is the drawing, or its viewBox
    ``(x, y, width, height)``."""
    vx, vy, vw, vh = viewbox(svg) if isinstance(svg, str) else svg
    x0, y0, x1, y1 = vx, vy, vx + vw, vy + vh
    r = SIZE * 1.02
    for p in points:
        x0, y0 = min(x0, p["x"] - r), min(y0, p["y"] - r)
        x1, y1 = max(x1, p["x"] + r), max(y1, p["y"] + r)
    dw, dh = x1 - x0, y1 - y0
    ppu = min(max_width / dw, max_height / dh, MAX_PPU)
    return {"width": round(dw * ppu), "height": round(dh * ppu), "ppu": ppu,
            "x_domain": [x0, x0 + round(dw * ppu) / ppu], "y_domain": [y0, y0 + round(dh * ppu) / ppu],
            "image": {"x": vx + vw / 2, "y": vy + vh / 2, "width": vw * ppu, "height": vh * ppu}}


def fit_width(svg: str, max_width: int = 800, max_height: int = 700) -> int:
    """The pixel width at which a drawing fits in ``max_width`` x ``max_height``."""
    _, _, w, h = viewbox(svg)
    return int(min(max_width, max_height * w / h)) if w > 0 and h > 0 else max_width


def svg_data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def map_chart(svg, points: list[dict], max_width: int = 760, max_height: int = 640) -> dict:
    """The clickable map as a Vega-Lite specification (a plain dict: building it through Altair, whose schema
    check alone takes a quarter of a second, would cost more than the rest of a click).

    ``svg`` is the stage's drawing as one SVG, or as tile pictures (a
    :class:`~designer.app.dirt.map_tiles.TiledDrawing`: each tile's picture at its place and its number drawn by
    the chart, so that an edit sends the browser the same pictures for the tiles it did not change).

    Layers: the drawing, the dashed open end with its "+", then a selectable hexagon over every tile. Their data
    are named datasets (``drawing``, ``open_end``, ``tiles``) apart from the layers: when a click changes only
    them (another tile selected, a tile turned the same size), the browser puts the new data into the chart it
    has instead of building the chart again."""
    tiled = not isinstance(svg, str)
    lay = layout(svg.viewbox if tiled else svg, points, max_width, max_height)
    x = {"field": "x", "type": "quantitative", "axis": None,
         "scale": {"domain": lay["x_domain"], "nice": False, "zero": False}}
    y = {"field": "y", "type": "quantitative", "axis": None,
         "scale": {"domain": lay["y_domain"], "nice": False, "zero": False, "reverse": True}}
    img = lay["image"]
    radius_px = SIZE * lay["ppu"] * 0.97
    size = (2 * radius_px) ** 2
    rows = []
    for p in points:
        rows.append({"index": p["index"], "x": p["x"], "y": p["y"], "tip": p["tip"], "kind": p["kind"],
                     "stroke": SELECTED_STROKE if p["selected"] else "rgba(0,0,0,0)",
                     "stroke_width": SELECTED_WIDTH if p["selected"] else 0.0})
    opens = [r for r in rows if r["kind"] == "open"]
    drawing_data = [{"x": img["x"], "y": img["y"], "url": svg_data_uri(svg)}] if not tiled else svg.rows
    drawing_layers = [_tiled_layers(svg, lay, x, y)] if tiled else [
        {"data": {"name": "drawing"},
         "mark": {"type": "image", "width": img["width"], "height": img["height"], "aspect": False,
                  "align": "center", "baseline": "middle"},
         "encoding": {"x": x, "y": y, "url": {"field": "url", "type": "nominal"}}}]
    return {
        "width": lay["width"], "height": lay["height"], "padding": 0,
        "autosize": {"type": "pad", "contains": "padding"},
        "config": {"view": {"stroke": None}},
        "datasets": {"drawing": drawing_data,
                     "open_end": opens or [{"x": img["x"], "y": img["y"], "kind": "none"}],
                     "tiles": rows},
        "layer": [
            *drawing_layers,
            {"data": {"name": "open_end"}, "transform": [{"filter": "datum.kind === 'open'"}],
             "mark": {"type": "point", "shape": HEX_PATH, "filled": False, "size": size, "stroke": "#888888",
                      "strokeWidth": 1.5, "strokeDash": [6, 4], "fill": "#f4f4f4", "fillOpacity": 0.5},
             "encoding": {"x": x, "y": y}},
            {"data": {"name": "open_end"}, "transform": [{"filter": "datum.kind === 'open'"}],
             "mark": {"type": "text", "text": "+", "fontSize": max(14, radius_px * 0.6), "color": "#777777",
                      "fontWeight": "bold"},
             "encoding": {"x": x, "y": y}},
            {"name": "tiles", "data": {"name": "tiles"},
             "mark": {"type": "point", "shape": HEX_PATH, "filled": False, "size": size, "cursor": "pointer",
                      "fill": "#ffffff", "fillOpacity": 0.01},
             # the tile picked on this chart is outlined by the chart itself (its selection), the tile selected
             # otherwise by its row: a click on the map then sends the browser the same chart again
             "encoding": {"x": x, "y": y,
                          "stroke": {"condition": {"param": PARAM, "empty": False, "value": SELECTED_STROKE},
                                     "field": "stroke", "type": "nominal", "scale": None},
                          "strokeWidth": {"condition": {"param": PARAM, "empty": False, "value": SELECTED_WIDTH},
                                          "field": "stroke_width", "type": "quantitative", "scale": None},
                          "tooltip": {"field": "tip", "type": "nominal", "title": "Tile"}},
             "params": [{"name": PARAM, "select": {"type": "point", "fields": ["index"], "on": "click",
                                                   "clear": "dblclick", "toggle": False}}]},
        ],
    }


def _tiled_layers(drawing, lay: dict, x: dict, y: dict) -> dict:
    """The layers of a tiled drawing: every tile's picture at its centre, then its number disc."""
    ppu = lay["ppu"]
    w, h = drawing.box
    radius = drawing.rows[0]["nr"] * ppu if drawing.rows else 1.0
    nx, ny = dict(x, field="nx"), dict(y, field="ny")
    return {"data": {"name": "drawing"}, "layer": [
        {"mark": {"type": "image", "width": w * ppu, "height": h * ppu, "aspect": False, "align": "center",
                  "baseline": "middle"},
         "encoding": {"x": x, "y": y, "url": {"field": "url", "type": "nominal"},
                      "opacity": {"field": "opacity", "type": "quantitative", "scale": None}}},
        {"mark": {"type": "point", "shape": "circle", "filled": True, "size": (2 * radius) ** 2, "color": "#222222",
                  "opacity": 1},
         "encoding": {"x": nx, "y": ny}},
        {"mark": {"type": "text", "fontSize": radius, "color": "white", "fontWeight": "bold",
                  "font": "DejaVu Sans, Arial, sans-serif", "baseline": "middle", "align": "center"},
         "encoding": {"x": nx, "y": ny, "text": {"field": "number", "type": "nominal"}}},
    ]}


def tile_from_event(event: Any, param: str = PARAM) -> int | None:
    """The tile index picked in a chart selection event (``OPEN_END`` for the open end), or None.

    Accepts what ``st.altair_chart(..., on_select="rerun")`` returns (attribute or mapping access):
    ``{"selection": {"tile_pick": [{"index": 3}]}}``.
    """
    value = picked_field(event, param, "index")
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def tile_at(track, x: float, y: float) -> int | None:
    """The tile under a point of the drawing (SVG user units), or None: for tests and other front ends."""
    best, best_d = None, None
    for t in track.tiles:
        cx, cy = hexgrid.to_pixel(t.hex, SIZE)
        d = (cx - x) ** 2 + (cy - y) ** 2
        if d <= (SIZE * hexgrid.SQRT3 / 2) ** 2 and (best_d is None or d < best_d):
            best, best_d = t.index, d
    return best
