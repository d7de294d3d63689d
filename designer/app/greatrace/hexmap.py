"""The clickable hex map of The Great Race pages: one hexagon per space, selectable by a click
(``st.vega_lite_chart(..., on_select=callback)``, the way the DIRT map is clicked), drawn at one scale both ways
so that neighbouring hexes touch whatever the board's size, and the plain function that reads the hex picked
out of the chart's selection.

The specification is a plain dict (Vega-Lite), built from the board's plain data, with no server file read.
"""
from __future__ import annotations

from typing import Any

from designer.app.selection import picked_field
from designer.core import hexgrid
from designer.systems.greatrace.files.board import hex_of, label

PARAM = "hex_pick"
HEX_PATH = "M1,0L0.5,0.866L-0.5,0.866L-1,0L-0.5,-0.866L0.5,-0.866Z"   # flat-topped, unit circumradius
MAX_PPU = 34.0          # pixels per hex radius at most (a small board is not blown up)
MIN_PPU = 9.0           # and at least (a large board scrolls rather than shrinks to dots)
EDITOR_COLOURS = {"open": "#f3ecd9", "risk": "#555555", "off": "#ffffff", "city": "#e0b341",
                  "purple city": "#6b3fa0", "median slot": "#c7b3e0"}
RACE_COLOURS = {"open space": "#fbf8f0", "risk zone": "#8a8a8a", "city": "#e0b341", "purple city": "#6b3fa0"}
TERRAIN_FILL = ["#f3e6c4", "#d9ead3", "#f1d3b5", "#e4d8ef", "#d4e4f1", "#f6d6d6", "#e8e8c8", "#dcdcdc"]
DARK = {"risk", "purple city", "risk zone"}


def layout(points: list[dict], max_width: int = 760, max_height: int = 620) -> dict:
    """Pixel size and data domains of the map: one hex radius is ``ppu`` pixels across and down."""
    xs = [p["x"] for p in points] or [0.0]
    ys = [p["y"] for p in points] or [0.0]
    half = hexgrid.SQRT3 / 2
    x0, x1 = min(xs) - 1.05, max(xs) + 1.05
    y0, y1 = min(ys) - half - 0.05, max(ys) + half + 0.05
    dw, dh = x1 - x0, y1 - y0
    ppu = max(MIN_PPU, min(max_width / dw, max_height / dh, MAX_PPU))
    width, height = round(dw * ppu), round(dh * ppu)
    return {"width": width, "height": height, "ppu": ppu,
            "x_domain": [x0, x0 + width / ppu], "y_domain": [y0, y0 + height / ppu]}


def _point(c: int, r: int) -> tuple[str, float, float]:
    x, y = hexgrid.to_pixel(hex_of(c, r), 1.0)
    return label(hex_of(c, r)), x, y


def _short(name: str) -> str:
    """A city's name as it fits in its hex (the tooltip gives it whole)."""
    return name if len(name) <= 7 else name[:6] + "."


def editor_points(data: dict) -> list[dict]:
    """Every hex of a board's data with what it is (open, risk, off, city, purple city, median slot)."""
    kinds: dict[str, str] = {}
    for h in data.get("risk", []):
        kinds[str(h).upper()] = "risk"
    for h in data.get("off", []):
        kinds[str(h).upper()] = "off"
    names = {}
    for c in data.get("cities", []):
        at = str(c["at"]).upper()
        kinds[at] = "median slot" if c.get("median") else "purple city" if c.get("purple") else "city"
        names[at] = str(c.get("name", ""))
    out = []
    for c in range(int(data["columns"])):
        for r in range(int(data["rows"])):
            name, x, y = _point(c, r)
            kind = kinds.get(name, "open")
            out.append({"hex": name, "x": x, "y": y, "kind": kind, "text": _short(names.get(name, name)),
                        "tip": f"{name}: {kind}" + (f" ({names[name]})" if name in names else ""),
                        "ink": "white" if kind in DARK else "#333333"})
    return out


def race_points(data: dict, race: dict) -> list[dict]:
    """Every space of a race: open, risk zone, a city of this race, or the terrain laid there."""
    median = race.get("median")
    cities = {}
    for c in data.get("cities", []):
        if c.get("median") and c.get("name") != median:
            continue                       # a median slot without the token is an ordinary space
        cities[str(c["at"]).upper()] = ("purple city" if c.get("purple") or c.get("median") else "city", str(c["name"]))
    off = {str(h).upper() for h in data.get("off", [])}
    risk = {str(h).upper() for h in data.get("risk", [])}
    bag = {str(k.get("terrain")): k for k in data.get("bag", [])}
    laid = {str(h).upper(): str(t) for h, t in (race.get("laid") or {}).items()}
    out = []
    for c in range(int(data["columns"])):
        for r in range(int(data["rows"])):
            name, x, y = _point(c, r)
            if name in off:
                continue
            if name in cities:
                kind, text = cities[name][0], _short(cities[name][1])
                tip = f"{name}: {cities[name][1]} ({kind}); no tile is laid on a city"
            elif name in laid:
                kind = f"laid: {laid[name]}"
                tile = bag.get(laid[name], {})
                text = laid[name][:2].title()
                tip = (f"{name}: {laid[name]} laid ({tile.get('fuel', '?')} fuel, {tile.get('mech', '?')} mechanic"
                       + (", risk zone +1 fuel" if name in risk else "") + ")")
            else:
                kind = "risk zone" if name in risk else "open space"
                text, tip = name, f"{name}: {kind}, no tile laid"
            out.append({"hex": name, "x": x, "y": y, "kind": kind, "text": text, "tip": tip,
                        "ink": "white" if kind in DARK or (kind.startswith("laid") and name in risk) else "#333333"})
    return out


def race_colours(data: dict, points: list[dict]) -> dict[str, str]:
    colours = dict(RACE_COLOURS)
    terrains = [str(k.get("terrain")) for k in data.get("bag", [])]
    for p in points:
        if p["kind"].startswith("laid: "):
            t = p["kind"][6:]
            colours[p["kind"]] = TERRAIN_FILL[(terrains.index(t) if t in terrains else 0) % len(TERRAIN_FILL)]
    return colours


def chart(points: list[dict], colours: dict[str, str], max_width: int = 760, max_height: int = 620,
          picked: str | None = None) -> dict:
    """The map as a Vega-Lite specification: a hexagon per point (filled by its kind, with a legend that wraps
    under the map), its text, and a click selection of the hex (``PARAM``)."""
    lay = layout(points, max_width, max_height)
    x = {"field": "x", "type": "quantitative", "axis": None,
         "scale": {"domain": lay["x_domain"], "nice": False, "zero": False}}
    y = {"field": "y", "type": "quantitative", "axis": None,
         "scale": {"domain": lay["y_domain"], "nice": False, "zero": False, "reverse": True}}
    radius = lay["ppu"] * 0.97
    kinds = [k for k in colours if any(p["kind"] == k for p in points)]
    rows = [dict(p, stroke="#1456c8" if p["hex"] == picked else "rgba(0,0,0,0)",
                 width=3.0 if p["hex"] == picked else 0.0) for p in points]
    legend_columns = max(1, min(len(kinds), int(lay["width"] // 120)))
    return {
        "width": lay["width"], "height": lay["height"], "padding": {"left": 4, "right": 4, "top": 4, "bottom": 4},
        "autosize": {"type": "pad", "contains": "padding"},
        "config": {"view": {"stroke": None}},
        "datasets": {"hexes": rows},
        "data": {"name": "hexes"},
        "encoding": {"x": x, "y": y},
        "layer": [
            {"mark": {"type": "point", "shape": HEX_PATH, "filled": True, "size": (2 * radius) ** 2, "opacity": 1,
                      "stroke": "#777777", "strokeWidth": 0.7},
             "encoding": {"color": {"field": "kind", "type": "nominal", "title": None,
                                    "scale": {"domain": kinds, "range": [colours[k] for k in kinds]},
                                    "legend": {"orient": "bottom", "direction": "horizontal",
                                               "columns": legend_columns, "labelLimit": 0,
                                               "symbolType": HEX_PATH, "symbolStrokeColor": "#777777",
                                               "symbolStrokeWidth": 0.7}}}},
            {"mark": {"type": "text", "fontSize": max(6.0, min(9.0, radius * 0.42)), "baseline": "middle"},
             "encoding": {"text": {"field": "text", "type": "nominal"},
                          "color": {"field": "ink", "type": "nominal", "scale": None}}},
            # on top: a clear hexagon per hex that takes the click and the tooltip, outlined when picked
            {"mark": {"type": "point", "shape": HEX_PATH, "filled": False, "size": (2 * radius) ** 2,
                      "fill": "#ffffff", "fillOpacity": 0.01, "cursor": "pointer"},
             "encoding": {"stroke": {"field": "stroke", "type": "nominal", "scale": None},
                          "strokeWidth": {"field": "width", "type": "quantitative", "scale": None},
                          "tooltip": {"field": "tip", "type": "nominal", "title": "Hex"}},
             "params": [{"name": PARAM, "select": {"type": "point", "fields": ["hex"], "on": "click",
                                                   "toggle": False, "clear": False}}]},
        ],
    }


def hex_from_event(event: Any, param: str = PARAM) -> str | None:
    """The hex name picked in a chart selection (what ``st.vega_lite_chart(..., on_select=...)`` keeps under its
    key: ``{"selection": {"hex_pick": [{"hex": "C4"}]}}``), or None."""
    value = picked_field(event, param, "hex")
    return str(value) if value else None
