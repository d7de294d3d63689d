"""The Design tab's map drawn tile by tile: each placed tile's picture (:func:`~designer.systems.dirt.board.render.
tile_svg`: its face turned as laid, tokens, id, the error outline, the overlap hatch) is made once and kept by what it
shows, and the map lays the pictures at their places. An edit therefore draws only the tiles it changed (a tile
added, turned or marked), and the browser gets the same picture, byte for byte, for every tile that did not change.
The tile numbers, which an insertion changes for every later tile, are drawn by the chart itself.

>>> from designer.systems.dirt.board.stage import Stage
>>> from designer.systems.dirt.board.tileset import get_tileset
>>> from designer.systems.dirt.board.track import assemble
>>> drawing = tiled_drawing(assemble(Stage(tiles=["202a A", "205a D", "203a A"]), get_tileset("dirt-core")))
>>> [row["number"] for row in drawing.rows], drawing.rows[0]["url"].startswith("data:image/svg+xml;base64,")
([1, 2, 3], True)
"""
from __future__ import annotations

import base64
from dataclasses import dataclass

from designer.app.recent import Recent
from designer.core import hexgrid
from designer.systems.dirt.board.render import TILE_BOX, TILE_SIZE, tile_svg

#: The pictures made last, by what they show (a stage of 144 tiles and its edits fit many times over).
_PICTURES = Recent(4096)
#: Padding around the tiles' bounding box, in tile sizes (as :func:`~designer.systems.dirt.board.render.stage_svg`).
PAD = 0.15


@dataclass(frozen=True)
class TiledDrawing:
    """A stage's map as pictures: ``viewbox`` (x, y, width, height) in the drawing's units (tile size
    :data:`~designer.systems.dirt.board.render.TILE_SIZE`), ``box`` the width and height of every picture, and one
    row per tile: its centre (``x``, ``y``), the picture (``url``), ``opacity`` (a tile laid over another is
    see-through) and its number disc (``number``, ``nx``, ``ny``, ``nr``)."""
    viewbox: tuple[float, float, float, float]
    box: tuple[float, float]
    rows: list[dict]


def picture(tile, tileset_name: str, highlight: bool, hatched: bool, stacked: bool) -> tuple[str, tuple]:
    """A tile's picture as a data URI and its number spot, made once for what it shows (face, road driven, the way
    it is turned and driven, tokens, marks)."""
    road = tile.road.id if tile.road is not None else None
    key = (tileset_name, tile.face.id, road, tile.rotation, tile.entry, tile.exit, tile.tokens, highlight, hatched,
           stacked)

    def make():
        svg, spot = tile_svg(tile, TILE_SIZE, highlight=highlight, hatched=hatched, stacked=stacked)
        return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii"), spot

    return _PICTURES.get(key, make)


def viewbox(track) -> tuple[float, float, float, float]:
    """The box of the stage's drawing (the tiles' bounding box and a margin), the one :func:`stage_svg` draws."""
    minx, miny, maxx, maxy = hexgrid.bounding_box(track.hexes(), TILE_SIZE)
    pad = TILE_SIZE * PAD
    return (round(minx - pad, 2), round(miny - pad, 2), round(maxx - minx + 2 * pad, 2),
            round(maxy - miny + 2 * pad, 2))


def tiled_drawing(track, errors=(), overlaps=()) -> TiledDrawing:
    """The map of ``track`` as tile pictures; ``errors`` are the tiles outlined in red, ``overlaps`` those hatched
    for sharing their place (every one but the first laid there drawn see-through)."""
    errors, overlaps = set(errors), set(overlaps)
    first_on: dict = {}
    for t in track.tiles:
        first_on.setdefault(t.hex, t.index)
    rows = []
    for t in track.tiles:
        stacked = first_on[t.hex] != t.index
        url, (nx, ny, nr) = picture(t, track.tileset.name, t.index in errors, t.index in overlaps, stacked)
        x, y = hexgrid.to_pixel(t.hex, TILE_SIZE)
        rows.append({"x": x, "y": y, "url": url, "opacity": 0.55 if stacked and t.index in overlaps else 1.0,
                     "number": t.index + 1, "nx": x + nx, "ny": y + ny, "nr": nr})
    return TiledDrawing(viewbox(track), (2 * TILE_BOX[0] * TILE_SIZE, 2 * TILE_BOX[1] * TILE_SIZE), rows)
