"""rekee's own track file (JSON), to and from a stage.

rekee is the web track editor for Rallyman GT and DIRT at github.com/t-rapp/rekee (MPL-2.0). What this module
relies on, and where it is written in that repository:

File layout [``src/import.rs``, ``mod native``, at commit 5af124353909b1800688fe21d4dd988c06863649]::

    {"title": "My Track", "author": "...", "orientation": "flat",
     "tiles": [{"q": 1, "r": -1, "id": "202a", "dir": 5},
               {"q": 0, "r": 0, "id": "205a", "dir": 5,
                "tokens": [{"id": "chicane-limit-gravel", "q": 0.0, "r": 0.0, "dir": 3.0}]}]}

``author`` is left out when empty, ``tokens`` when there are none; ``orientation`` (``pointy`` or ``flat``) only
chooses how rekee draws the map and does not change the coordinates. rekee drops tokens it does not know and
skips tiles whose id it cannot parse. rekee's deserialiser also accepts a tile written as a list
``[id, q, r, dir, tokens]`` [``src/map.rs``, ``PlacedTile::deserialize``]; so does this module.

Tile ids [``src/tile.rs``, ``TileId``]: ``{number}{a|b}`` and ``-{variant}`` when a tile has several prints,
e.g. ``103a-2``; the pit tile 101 (same print on both sides) is ``101``. A variant changes only the art; we read
it as its face and write faces without a variant (rekee then picks a variant itself, ``Map::insert``).

Axial coordinates [``src/hexagon.rs``, ``Coordinate::neighbor`` and ``Direction``]: direction A is the positive
q axis, B the positive r axis, then C = (-1, +1), D = (-1, 0), E = (0, -1), F = (+1, -1). In rekee's flat layout
(``LAYOUT_FLAT``: x = 3/2 r, y = -sqrt(3) q - sqrt(3)/2 r, y downwards) A points up and B..F follow clockwise:
the same screen directions as our edges A..F (:mod:`designer.core.hexgrid`). Tile rotation [``src/map.rs``,
``PlacedTile::edge``: ``info.edge(dir - self.dir)``]: the local edge ``e`` of a tile turned ``dir`` lies on
world direction ``e + dir``, clockwise as ours; the local edges of ``src/tile.rs`` are the edges of the upright
tile image (A at the top), the table our tilesets were made from. Hence:

* our ``(q, r)`` = ``(r_rekee, -q_rekee - r_rekee)``, and back ``(q_rekee, r_rekee)`` = ``(-q - r, q)``;
* our ``rotation`` = rekee's ``dir``.

Both put every hexagon on the same spot of the screen (rekee flat: x = 3/2 r', y = -sqrt(3) (q' + r'/2);
ours: x = 3/2 q, y = sqrt(3) (r + q/2)), so adjacency and road joins are kept exactly.
"""
from __future__ import annotations

import json
from typing import Any

from designer.core.errors import DesignerError
from designer.systems.dirt.board.stage import Stage
from designer.systems.dirt.board.tileset import Tileset
from designer.systems.dirt.io import tokens as T
from designer.systems.dirt.io.layout import (LayoutTile, as_int, author_of, default_tileset, field_of, foreign_tile,
                                             layout_rows, parse_json, read_text, imported_stage, tileset_for)

HINT = ('a rekee file looks like {"title": "My Track", "tiles": [{"q": 0, "r": 0, "id": "202a", "dir": 0}, ...]}; '
        "save the track again from rekee (Export)")


def from_rekee(q: int, r: int) -> tuple[int, int]:
    """Our axial coordinates of rekee's ``(q, r)``.

    >>> from_rekee(1, 0), from_rekee(0, 1)     # rekee's directions A and B: our edges A (up) and B
    ((0, -1), (1, -1))
    """
    return (r, -q - r)


def to_rekee(q: int, r: int) -> tuple[int, int]:
    """rekee's ``(q, r)`` of our axial coordinates (the inverse of :func:`from_rekee`).

    >>> to_rekee(*from_rekee(3, -5))
    (3, -5)
    """
    return (-q - r, q)


def import_rekee(text: str | bytes, tileset: Tileset | None = None, source: str = "track.json") -> Stage:
    """A stage, in driving order, from rekee's JSON."""
    data = parse_json(read_text(text, source), source, "rekee")
    return stage_from_rekee(data, tileset or default_tileset(), source)


def read_tokens(raw: Any) -> tuple[list, list[str]]:
    """(our tokens, ids of those we cannot read) of a tile's ``tokens``."""
    if not isinstance(raw, list):
        return [], ([] if raw in (None, "") else ["(unreadable tokens)"])
    out, unread = [], []
    for tok in raw:
        ours = T.from_rekee(tok)
        if ours is not None:
            out.append(ours)
        elif isinstance(tok, dict) and isinstance(tok.get("id"), str):
            unread.append(tok["id"][:40])
        elif isinstance(tok, list) and tok and isinstance(tok[0], str):
            unread.append(tok[0][:40])
        else:
            unread.append("(unreadable token)")
    return out, unread


def stage_from_rekee(data: Any, tileset: Tileset, source: str) -> Stage:
    if not isinstance(data, dict):
        raise _bad("the file is JSON but not a rekee track (expected an object with \"tiles\")", source)
    if "tiles" not in data:
        hint = ("this looks like a Rallyman Track Editor file: give it the extension .rgt"
                if "Tuiles" in data else HINT)
        raise _bad("there is no \"tiles\" list", source, hint)
    raw_tiles = data["tiles"]
    if not isinstance(raw_tiles, list):
        raise _bad("\"tiles\" must be a list of tiles", source)
    tiles: list[LayoutTile] = []
    for i, t in enumerate(raw_tiles):
        where = f"tiles[{i}] (tile {i + 1})"
        if isinstance(t, list) and len(t) >= 4:
            t = {"id": t[0], "q": t[1], "r": t[2], "dir": t[3], "tokens": t[4] if len(t) > 4 else []}
        if not isinstance(t, dict):
            raise _bad("a tile must be an object such as {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0}",
                       f"{source}: {where}")
        tile_hint = "each tile needs q and r (whole numbers), id (e.g. \"210a\") and dir (0-5)"
        q = as_int(field_of(t, "q", source, where, tile_hint), source, where, "q", tile_hint)
        r = as_int(field_of(t, "r", source, where, tile_hint), source, where, "r", tile_hint)
        rot = as_int(field_of(t, "dir", source, where, tile_hint), source, where, "dir", tile_hint) % 6
        tid, variant = foreign_tile(field_of(t, "id", source, where, tile_hint), source, where)
        toks, unread = read_tokens(t.get("tokens"))
        tiles.append(LayoutTile(tile=tid, hex=from_rekee(q, r), rotation=rot, tokens=toks, unread=unread,
                                variant=variant))
    return imported_stage(tiles, tileset, title=data.get("title"), author=data.get("author"), editor="rekee",
                          source=source)


def export_rekee(stage: Stage, tileset: Tileset | None = None) -> str:
    """rekee's JSON of a stage, tiles in driving order (compact, as rekee writes it)."""
    tileset = tileset or tileset_for(stage)
    data: dict[str, Any] = {"title": stage.name}
    author = author_of(stage)
    if author:
        data["author"] = author
    data["orientation"] = "flat"
    tiles = []
    for tid, (q, r), rot, toks in layout_rows(stage, tileset):
        rq, rr = to_rekee(q, r)
        row = {"q": rq, "r": rr, "id": tid, "dir": rot}
        if toks:
            row["tokens"] = [T.to_rekee(tok, at) for tok, at, _terrain in toks]
        tiles.append(row)
    data["tiles"] = tiles
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _bad(message: str, source: str, hint: str = HINT) -> DesignerError:
    return DesignerError(message, where=source, hint=hint)
