"""Import and export of stages in the formats of other track editors.

Formats
-------
``yaml``
    Our own stage file (:mod:`designer.systems.dirt.board.stage`).
``rgt``
    The file of the official Windows "Rallyman Track Editor" (Holy Grail Games): JSON
    ``{Path, Name, Author, Orientation, Tuiles: [{X, Y, Orientation, TuileId, Tokens}], lowResWidth, lowResHeight}``
    in offset coordinates. See :mod:`designer.systems.dirt.io.rgt`.
``rekee``
    The native JSON of rekee (github.com/t-rapp/rekee, a web track editor for Rallyman GT and DIRT):
    ``{title, author, orientation, tiles: [{q, r, id, dir, tokens}]}`` in axial coordinates. See
    :mod:`designer.systems.dirt.io.rekee`.

Coordinates, in short (details and sources in the two format modules)
---------------------------------------------------------------------
All three grids are flat-topped hexagons whose tile edges A..F run clockwise from the top edge, and all
three rotate a tile clockwise: a tile turned ``k`` steps has its local edge ``i`` on world edge ``i + k``.
So a rotation (our ``rotation``, rekee's ``dir``, the ``.rgt`` ``Orientation``) is copied unchanged, and
only the position is converted:

============  ==========================================================================
from          to our axial ``(q, r)`` (q: columns to the right, r: down a column)
============  ==========================================================================
rekee (q, r)  ``(r, -q - r)``
.rgt (X, Y)   ``(Y - 52, X - floor(Y / 2) - 29)``  (Y is the column, X the row)
============  ==========================================================================

These are pure relabellings of the same hexagons (no rotation, no mirror), so every road edge that meets
a road edge in the other editor meets it here too.

An imported layout becomes a :class:`~designer.systems.dirt.board.stage.Stage` in driving order
(:func:`designer.systems.dirt.board.track.driving_order`). When the layout is one road from tile to tile, the stage
is written in the short form (``202a A``, ``210b C``...) with ``start_rotation`` keeping the layout's orientation;
tiles that do not follow from the previous tile (a stray tile, a second tile on one place, an unknown tile) keep
their position and rotation so that nothing is lost and validation can point at them.

Tokens (chicanes, water, jumps, Climb markers, RX arches, mud spray) are kept on their tile's placement and written
back on export (:mod:`designer.systems.dirt.io.tokens`); a token id we do not know is listed in the stage's
``notes`` and reported by the import. The author goes into the notes; graphic variants of a tile
(``106b-2``) are read as their face (``106b``) and listed in the notes (``layout.VARIANTS_NOTE``).

This package reads and writes the board only (:mod:`designer.systems.dirt.board`: stages, tilesets, assembly,
validation) and :mod:`designer.core`; it never reaches the rules, the dice or the road book.
"""
from __future__ import annotations

from pathlib import PurePath
from typing import Any

from designer.core.errors import DesignerError
from designer.systems.dirt.board.stage import Stage, dumps_stage, loads_stage
from designer.systems.dirt.board.tileset import Tileset
from designer.systems.dirt.io.layout import (FORMAT_ALIASES, FORMAT_INFO, default_tileset, file_stem, parse_json,
                                             read_text)
from designer.systems.dirt.io.rekee import export_rekee, import_rekee  # noqa: F401  (part of the package's API)
from designer.systems.dirt.io.rgt import export_rgt, import_rgt  # noqa: F401


def _json_format(data: Any) -> str | None:
    if isinstance(data, dict):
        if "Tuiles" in data:
            return "rgt"
        if "tiles" in data:
            return "rekee"
    return None


_FORMATS_HINT = "import a .rgt file of the Rallyman Track Editor, a rekee .json file or a stage .yaml file"


def import_file(path_or_name: str | PurePath, data: bytes | str, tileset: Tileset | None = None) -> Stage:
    """A stage from an uploaded file: ``.rgt`` (Rallyman Track Editor), ``.json`` (rekee) or ``.yaml`` (ours).

    The extension picks the format; JSON content is recognised by its keys (``Tuiles`` for ``.rgt``, ``tiles``
    for rekee) whatever the extension. Every problem is a :class:`~designer.core.errors.DesignerError`.
    """
    source = PurePath(str(path_or_name)).name or "upload"
    ext = PurePath(source).suffix.lower()
    text = read_text(data, source)
    if ext in (".yaml", ".yml"):
        return loads_stage(text, source)
    stripped = text.lstrip()
    if ext not in (".rgt", ".json") and not stripped.startswith(("{", "[")):
        if not stripped:
            raise DesignerError("the file is empty", where=source, hint=_FORMATS_HINT)
        try:
            return loads_stage(text, source)
        except DesignerError as exc:
            raise DesignerError(f"this is not a track file that can be imported ({exc.message})", where=exc.where,
                                hint=_FORMATS_HINT, details=exc.details) from None
    parsed = parse_json(text, source, "track")
    fmt = _json_format(parsed)
    if fmt is None:
        expected = "\"Tuiles\" (Rallyman Track Editor .rgt)" if ext == ".rgt" else "\"tiles\" (rekee .json)"
        raise DesignerError(f"this JSON is not a track: it has no {expected}", where=source,
                            hint="export the track again from the Rallyman Track Editor (.rgt) or from rekee (.json)")
    tileset = tileset or default_tileset()
    if fmt == "rgt":
        from designer.systems.dirt.io import rgt
        return rgt.stage_from_rgt(parsed, tileset, source)
    from designer.systems.dirt.io import rekee
    return rekee.stage_from_rekee(parsed, tileset, source)


def export_stage(stage: Stage, fmt: str, tileset: Tileset | None = None) -> tuple[bytes, str, str]:
    """``(content, file name, MIME type)`` of a stage in ``yaml``, ``rgt`` or ``rekee`` (``json``)."""
    key = FORMAT_ALIASES.get(str(fmt).lower(), str(fmt).lower())
    if key not in FORMAT_INFO:
        raise DesignerError(f"unknown export format {fmt!r}", hint="use one of: yaml, rgt, rekee")
    ext, mime = FORMAT_INFO[key]
    if key == "yaml":
        text = dumps_stage(stage)
    elif key == "rgt":
        text = export_rgt(stage, tileset)
    else:
        text = export_rekee(stage, tileset)
    return text.encode("utf-8"), file_stem(stage) + ext, mime


# The format modules use the helpers above; they are imported last on purpose.
