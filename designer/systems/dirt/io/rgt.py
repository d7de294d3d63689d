"""The ``.rgt`` track file of the official Windows "Rallyman Track Editor", to and from a stage.

The format is not documented by its publisher. What this module relies on comes from rekee
(github.com/t-rapp/rekee, MPL-2.0), which reads and writes it: ``src/import.rs``, ``mod rgt``, at commit
5af124353909b1800688fe21d4dd988c06863649, and its test files ``src/tests/short-track2.rgt``,
``src/tests/chicane-example2.rgt`` and ``src/tests/rx-finland.rgt`` (files saved by the official editor).

File layout::

    {"Path": "C:\\\\...\\\\My Tracks", "Name": "Chicane Example 02", "Author": "Holy Grail Games",
     "Orientation": "flat",
     "Tuiles": [{"X": 55, "Y": 52, "Orientation": 5, "TuileId": "202A"},
                {"X": 55, "Y": 53, "Orientation": 5, "TuileId": "205A",
                 "Tokens": [{"X": 0.0, "Y": 0.0, "Orientation": 180.0, "TokenId": "dirt1"}]}],
     "lowResWidth": 2480, "lowResHeight": 1748}

* ``Author`` and the top-level ``Orientation`` (``flat`` or ``pointy``, how the map is drawn) appear in newer
  files only; ``Path``, ``lowResWidth`` and ``lowResHeight`` are not about the track.
* ``TuileId``: GT tiles in lower case with an optional graphic variant (``102b``, ``106b-2``), DIRT tiles in
  upper case (``202A``, ``403B``), the podium and the fillers by name (``PODIUM``; rekee also reads
  ``FILLER1A`` .. ``FILLER3B`` for 902a .. 904b) [``src/tile.rs``, ``TileId::from_str``]. rekee writes 101 as
  ``101a``.
* ``Tokens`` (optional): pieces laid on a tile, at X/Y pixels from its centre with a rotation in degrees. rekee
  maps the ids: ``asphalt|dirt|ice`` 1 chicane with a speed limit, 2 chicane, 3 water, 4 jump; ``climbm1``
  ascent, ``climbp1`` descent, ``climbw`` cloud, ``climbr1..3`` oxygen; ``greendoor`` joker entrance,
  ``reddoor`` joker exit, ``whitedoor`` finish arch. They are read into the stage's tokens and written back
  (:mod:`designer.systems.dirt.io.tokens`); an id we do not know is listed in the notes.

Coordinates. rekee converts a tile's offset position to its axial one with
``q = -X - ((Y & 1) + Y) / 2``, ``r = Y``, minus ``IMPORT_OFFSET = (-81, 52)``, and takes ``Orientation`` as its
rotation ``dir`` unchanged (and the reverse on export). With rekee's axes in ours
(:func:`designer.systems.dirt.io.rekee.from_rekee`) this is::

    q = Y - 52
    r = X - floor(Y / 2) - 29

So ``Y`` counts columns to the right, ``X`` rows downwards, and odd columns sit half a hexagon lower ("odd-q"
offset layout of flat-topped hexagons); the editor's (X=55, Y=52) is our (0, 0). ``Orientation`` is our
``rotation``: the tile turned that many 60-degree steps clockwise. Checked on rekee's own test: 202A at (55, 52)
and 205A at (55, 53), both at Orientation 5, join 202A's edge D to 205A's edge A.
"""
from __future__ import annotations

import json
from typing import Any

from designer.core.errors import DesignerError
from designer.systems.dirt.board.stage import Stage
from designer.systems.dirt.board.tileset import Tileset, normalise_tile_id
from designer.systems.dirt.io import tokens as T
from designer.systems.dirt.io.layout import (RGT_ALIASES, LayoutTile, as_int, author_of, default_tileset, field_of,
                                             foreign_tile, imported_stage, layout_rows, parse_json, read_text,
                                             tileset_for)
from designer.systems.dirt.io.rekee import from_rekee, to_rekee

IMPORT_OFFSET = (-81, 52)    # rekee src/import.rs: the editor's (X=55, Y=52) is rekee's (0, 0)
DEFAULT_PATH = "C:\\Applications\\RallymanGT Track Editor\\My Tracks"   # as rekee writes it
LOW_RES = (2480, 1748)

HINT = ('an .rgt file looks like {"Name": "My stage", "Tuiles": [{"X": 55, "Y": 52, "Orientation": 0, '
        '"TuileId": "202A"}, ...]}; save the track again from the Rallyman Track Editor')

TOKENS = {
    "1": "chicane with speed limit", "2": "chicane", "3": "water", "4": "jump",
}
TERRAINS = {"asphalt": "asphalt", "dirt": "gravel", "ice": "snow"}
OTHER_TOKENS = {"climbm1": "ascent", "climbp1": "descent", "climbw": "cloud", "climbr1": "oxygen 1",
                "climbr2": "oxygen 2", "climbr3": "oxygen 3", "greendoor": "joker entrance",
                "reddoor": "joker exit", "whitedoor": "finish arch"}


def from_offset(x: int, y: int) -> tuple[int, int]:
    """Our axial coordinates of the editor's ``(X, Y)``, through rekee's conversion.

    >>> from_offset(55, 52), from_offset(55, 53), from_offset(54, 52)
    ((0, 0), (1, 0), (0, -1))
    """
    q = -x - ((y & 1) + y) // 2 - IMPORT_OFFSET[0]
    r = y - IMPORT_OFFSET[1]
    return from_rekee(q, r)


def to_offset(q: int, r: int) -> tuple[int, int]:
    """The editor's ``(X, Y)`` of our axial coordinates (the inverse of :func:`from_offset`).

    >>> to_offset(*from_offset(57, 51))
    (57, 51)
    """
    rq, rr = to_rekee(q, r)
    rq, rr = rq + IMPORT_OFFSET[0], rr + IMPORT_OFFSET[1]
    return (-rq - ((rr & 1) + rr) // 2, rr)


def rgt_tile_id(tile: str) -> str:
    """How the editor writes a face: ``210a`` -> ``210A`` (DIRT), ``106b`` stays (GT), ``905a`` -> ``PODIUM``.

    >>> rgt_tile_id("210a"), rgt_tile_id("106b-2"), rgt_tile_id("905a")
    ('210A', '106b-2', 'PODIUM')
    """
    base = normalise_tile_id(tile)
    if base in RGT_ALIASES:
        return RGT_ALIASES[base]
    num = tile[:3]
    if num.isdigit() and (200 <= int(num) < 500 or 902 <= int(num) <= 905):
        return tile.upper()
    return tile


def token_name(token_id: str) -> str:
    t = token_id.strip().lower()
    for prefix, terrain in TERRAINS.items():
        if t.startswith(prefix) and t[len(prefix):] in TOKENS:
            return f"{token_id} ({TOKENS[t[len(prefix):]]}, {terrain})"
    if t in OTHER_TOKENS:
        return f"{token_id} ({OTHER_TOKENS[t]})"
    return token_id


def read_tokens(raw: Any) -> tuple[list, list[str]]:
    """(our tokens, names of those we cannot read) of a tile's ``Tokens``."""
    if not isinstance(raw, list):
        return [], ([] if raw in (None, "") else ["(unreadable tokens)"])
    out, unread = [], []
    for tok in raw:
        ours = T.from_rgt(tok)
        if ours is not None:
            out.append(ours)
        elif isinstance(tok, dict) and isinstance(tok.get("TokenId"), str):
            unread.append(token_name(tok["TokenId"]))
        else:
            unread.append("(unreadable token)")
    return out, unread


def import_rgt(text_or_bytes: str | bytes, tileset: Tileset | None = None, source: str = "track.rgt") -> Stage:
    """A stage, in driving order, from an ``.rgt`` file of the Rallyman Track Editor."""
    data = parse_json(read_text(text_or_bytes, source), source, "Rallyman Track Editor (.rgt)")
    return stage_from_rgt(data, tileset or default_tileset(), source)


def stage_from_rgt(data: Any, tileset: Tileset, source: str) -> Stage:
    if not isinstance(data, dict):
        raise DesignerError("the file is JSON but not a Rallyman Track Editor track (expected an object with "
                            "\"Tuiles\")", where=source, hint=HINT)
    if "Tuiles" not in data:
        hint = "this looks like a rekee file: give it the extension .json" if "tiles" in data else HINT
        raise DesignerError("there is no \"Tuiles\" list (the tiles of the track)", where=source, hint=hint)
    raw_tiles = data["Tuiles"]
    if not isinstance(raw_tiles, list):
        raise DesignerError("\"Tuiles\" must be a list of tiles", where=source, hint=HINT)
    tile_hint = ("each tile needs X and Y (whole numbers), Orientation (0-5) and TuileId (e.g. \"210A\"), "
                 "e.g. {\"X\": 55, \"Y\": 52, \"Orientation\": 0, \"TuileId\": \"202A\"}")
    tiles: list[LayoutTile] = []
    for i, t in enumerate(raw_tiles):
        where = f"Tuiles[{i}] (tile {i + 1})"
        if not isinstance(t, dict):
            raise DesignerError("a tile must be an object", where=f"{source}: {where}", hint=tile_hint)
        x = as_int(field_of(t, "X", source, where, tile_hint), source, where, "X", tile_hint)
        y = as_int(field_of(t, "Y", source, where, tile_hint), source, where, "Y", tile_hint)
        rot = as_int(field_of(t, "Orientation", source, where, tile_hint), source, where, "Orientation",
                     tile_hint) % 6
        tid, variant = foreign_tile(field_of(t, "TuileId", source, where, tile_hint), source, where)
        toks, unread = read_tokens(t.get("Tokens"))
        tiles.append(LayoutTile(tile=tid, hex=from_offset(x, y), rotation=rot, tokens=toks, unread=unread,
                                variant=variant))
    return imported_stage(tiles, tileset, title=data.get("Name"), author=data.get("Author"),
                          editor="Rallyman Track Editor", source=source)


def export_rgt(stage: Stage, tileset: Tileset | None = None) -> str:
    """The ``.rgt`` text of a stage, tiles in driving order, centred on the editor's board."""
    tileset = tileset or tileset_for(stage)
    data: dict[str, Any] = {"Path": DEFAULT_PATH, "Name": stage.name}
    author = author_of(stage)
    if author:
        data["Author"] = author
    data["Orientation"] = "flat"
    tuiles, left_out = [], []
    for tid, (q, r), rot, toks in layout_rows(stage, tileset):
        x, y = to_offset(q, r)
        row = {"X": x, "Y": y, "Orientation": rot, "TuileId": rgt_tile_id(tid)}
        left_out += [tok.kind for tok, _, _ in toks if tok.kind in T.RGT_UNSUPPORTED]
        toks = [x for x in toks if x[0].kind not in T.RGT_UNSUPPORTED]
        if toks:
            row["Tokens"] = [T.to_rgt(tok, at, terrain) for tok, at, terrain in toks]
        tuiles.append(row)
    data["Tuiles"] = tuiles
    if left_out:
        data["Notes"] = (f"{len(left_out)} token(s) the Rallyman Track Editor has no piece for were left out: "
                         f"{', '.join(sorted(set(left_out)))} (kept in the rekee and YAML exports)")
    data["lowResWidth"], data["lowResHeight"] = LOW_RES
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
