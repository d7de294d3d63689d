"""What the foreign layout formats share: reading their text safely, tile ids, layout tiles, and turning a
layout into a stage in driving order (and back). :mod:`.rgt` and :mod:`.rekee` build on it."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from designer.core import hexgrid
from designer.core.errors import DesignerError
from designer.core.words import plural
from designer.systems.dirt.board.stage import Placement, Stage
from designer.systems.dirt.board.tileset import ALIASES, Tileset, get_tileset
from designer.systems.dirt.board.track import driving_order, place_tiles
from designer.systems.dirt.board.validate import EDITIONS, UNREAD_TOKENS

MAX_BYTES = 5 * 1024 * 1024          # the largest file accepted
MAX_TILES = 1000                     # the largest layout accepted (all Rallyman boxes hold ~300 tiles)
MAX_COORD = 10_000                   # coordinates further out than this are not a table layout
MAX_NAME = 200

# Files of the official editor name the copilot-pack fillers and the podium by name [rekee src/tile.rs, TileId::from_str].
RGT_ALIASES = {"902a": "FILLER1A", "902b": "FILLER1B", "903a": "FILLER2A", "903b": "FILLER2B",
               "904a": "FILLER3A", "904b": "FILLER3B", "905a": "PODIUM"}

_FULL_ID = re.compile(r"(\d{3})([ab])?(?:-?(\d+))?")
_PLACEMENT_ID = re.compile(r"[0-9a-z][0-9a-z\-]*")

#: The line of an imported stage's notes that lists the tiles the file names by a graphic variant (read as their
#: face); ``{source}``: the file's name, ``{items}``: ``106b-2 as 106b (2 tiles), ...``.
VARIANTS_NOTE = ("Graphic variants in {source} (another print of the same face; the road is the same, this app "
                 "draws the face): {items}.")
_VARIANTS_HEAD = VARIANTS_NOTE.split("{", 1)[0]

FORMAT_INFO = {
    # fmt: (extension, mime type)
    "yaml": (".yaml", "application/x-yaml"),
    "rgt": (".rgt", "application/json"),
    "rekee": (".json", "application/json"),
}
FORMAT_ALIASES = {"yml": "yaml", "json": "rekee", "rallyman": "rgt"}


# -- reading --------------------------------------------------------------------------------

def default_tileset() -> Tileset:
    """The tileset imports use: every official face (GT and DIRT), with the DIRT core cell graphs."""
    return get_tileset("official")


def check_size(data: bytes | str, source: str) -> None:
    size = len(data) if isinstance(data, (bytes, bytearray)) else len(data.encode("utf-8", errors="replace"))
    if size > MAX_BYTES:
        raise DesignerError(f"the file is {size / (1024 * 1024):.1f} MiB, larger than the "
                            f"{MAX_BYTES // (1024 * 1024)} MiB accepted", where=source,
                            hint="a track file is a few kilobytes; check that this is the right file")


def read_text(data: bytes | str, source: str) -> str:
    """Text of an uploaded file: UTF-8 (with or without BOM), UTF-16 with BOM, else Windows-1252."""
    check_size(data, source)
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    data = bytes(data)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    if b"\x00" in data:
        raise DesignerError("this is a binary file, not a track", where=source,
                            hint="import a .rgt file of the Rallyman Track Editor, a rekee .json file or a stage .yaml")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Files written by Windows programs may use the ANSI code page for accented names.
        return data.decode("cp1252", errors="replace")


def parse_json(text: str, source: str, what: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DesignerError(f"this is not valid JSON ({exc.msg})", where=f"{source}:{exc.lineno}:{exc.colno}",
                            hint=f"a {what} file is JSON; was it cut short or edited by hand?") from None
    except RecursionError:
        raise DesignerError("this JSON is nested too deeply to be a track", where=source,
                            hint=f"check that this is a {what} file") from None
    except ValueError as exc:
        raise DesignerError(f"this JSON cannot be read ({exc})", where=source,
                            hint=f"check that this is a {what} file") from None


def as_int(value: Any, source: str, where: str, name: str, hint: str) -> int:
    """An integer field; integral floats (``3.0``) are accepted, booleans and the rest are not."""
    if isinstance(value, bool) or value is None:
        ok = False
    elif isinstance(value, int):
        ok = True
    elif isinstance(value, float) and value.is_integer():
        value, ok = int(value), True
    elif isinstance(value, str) and re.fullmatch(r"\s*-?\d+\s*", value):
        value, ok = int(value), True
    else:
        ok = False
    if not ok:
        raise DesignerError(f"{name} is {json.dumps(value)[:40]}, not a whole number", where=f"{source}: {where}",
                            hint=hint)
    if abs(value) > MAX_COORD:
        raise DesignerError(f"{name} is {value}, far outside any table", where=f"{source}: {where}", hint=hint)
    return value


def field_of(obj: dict, key: str, source: str, where: str, hint: str) -> Any:
    if key not in obj:
        raise DesignerError(f"the field {key!r} is missing", where=f"{source}: {where}", hint=hint)
    return obj[key]


def foreign_tile(raw: Any, source: str, where: str) -> tuple[str, str | None]:
    """Our face id for a tile id of another editor, and the id as written when it names a graphic variant.

    ``210A`` -> ``210a``; graphic variants (``106b-2``, and ``103a1`` as some tools write them) -> the face, the
    variant kept for the stage's notes (:func:`variants_line`); ``PODIUM`` / ``FILLER1A`` -> ``905a`` / ``902a``;
    rekee's side-less pit tile ``101`` -> ``101a``. Ids we do not know are kept (lower case) so that validation
    reports them.

    >>> foreign_tile("210A", "f", "t"), foreign_tile("PODIUM", "f", "t")
    (('210a', None), ('905a', None))
    >>> foreign_tile("106B-2", "f", "t"), foreign_tile("103a1", "f", "t")
    (('106b', '106b-2'), ('103a', '103a1'))
    """
    if isinstance(raw, bool) or not isinstance(raw, (str, int)):
        raise DesignerError(f"the tile id is {json.dumps(raw)[:40]}, not a text such as \"210A\"",
                            where=f"{source}: {where}", hint="each tile needs its id, e.g. \"210A\" or \"210a\"")
    t = str(raw).strip().lower()
    t = ALIASES.get(t, t)
    m = _FULL_ID.fullmatch(t)
    if m:
        num, side, variant = m.groups()
        if side:
            face = num + side
        elif num == "101":
            face = "101a"   # the pit tile has the same print on both sides; rekee writes it without a side
        else:
            face = num
        return face, (t if variant else None)
    if not t or not _PLACEMENT_ID.fullmatch(t):
        raise DesignerError(f"{str(raw)[:40]!r} is not a tile id", where=f"{source}: {where}",
                            hint="tile ids are a number and a side, e.g. \"210A\" or \"210a\"")
    return t, None


@dataclass
class LayoutTile:
    """One tile of an imported layout, already in our coordinates."""
    tile: str
    hex: tuple[int, int]
    rotation: int
    tokens: list = field(default_factory=list)          # our Token objects
    unread: list[str] = field(default_factory=list)     # token ids we do not know (kept in the notes)
    variant: str | None = None                          # the file's id when it names a graphic variant (106b-2)


def default_name(source: str) -> str:
    stem = PurePath(source).stem if source and not source.startswith("<") else ""
    return stem or "Imported stage"


BOX_TILESETS = ("dirt-core", "dirt-monte-carlo", "dirt-rx", "dirt-climb")


def _stage_tileset_name(ids: list[str], tileset: Tileset) -> str:
    """The smallest bundled tileset that knows every tile: the core box, one expansion (with the core), else all."""
    if tileset.name == "official" and ids:
        for name in BOX_TILESETS:
            try:
                box = get_tileset(name)
            except DesignerError:
                continue
            if all(i in box for i in ids):
                return name
    return tileset.name


def imported_stage(tiles: list[LayoutTile], tileset: Tileset, *, title, author, editor: str,
                   source: str) -> Stage:
    """The stage of an imported layout: its title (or the file's name), a note on where it came from and who made it."""
    notes = [f"Imported from the {editor} file {source}."]
    if isinstance(author, str) and author.strip():
        notes.append(f"Author: {author.strip()}")
    name = title.strip() if isinstance(title, str) and title.strip() else default_name(source)
    return stage_from_layout(tiles, tileset, name=name, notes=notes, source=source)


def stage_from_layout(tiles: list[LayoutTile], tileset: Tileset, *, name: str, notes: list[str],
                      source: str) -> Stage:
    """A stage in driving order from tiles at positions, in any order."""
    if len(tiles) > MAX_TILES:
        raise DesignerError(f"the layout has {len(tiles)} tiles, more than the {MAX_TILES} accepted", where=source,
                            hint="a stage has 10 to 20 tiles; check that this is a track file")
    first_on: dict[tuple[int, int], LayoutTile] = {}
    extra: list[LayoutTile] = []
    for t in tiles:
        if t.hex in first_on:
            extra.append(t)          # a second tile on one place: kept, validation reports the overlap
        else:
            first_on[t.hex] = t
    known = [t for t in first_on.values() if t.tile in tileset]
    extra = [t for t in first_on.values() if t.tile not in tileset] + extra
    walked = driving_order([(t.tile, t.hex, t.rotation) for t in known], tileset) if known else []
    order = list(walked) + [Placement(tile=t.tile, at=t.hex, rotation=t.rotation) for t in extra]
    origins = [first_on[tuple(p.at)] for p in walked] + extra
    # Tokens go on the first placement of their tile (a tile driven twice keeps one set).
    given: set[int] = set()
    for k, (p, src) in enumerate(zip(order, origins)):
        if src.tokens and id(src) not in given:
            order[k] = p.model_copy(update={"tokens": list(src.tokens)})
            given.add(id(src))

    # Move the layout so that its first tile sits at (0, 0), where assembly puts a stage's first tile.
    if order:
        oq, or_ = order[0].at
        order = [p.model_copy(update={"at": (p.at[0] - oq, p.at[1] - or_)}) for p in order]

    token_lines = []
    listed: set[int] = set()
    for i, (p, src) in enumerate(zip(order, origins)):
        if src.unread and id(src) not in listed:
            token_lines.append(f"- tile {i + 1} ({p.tile}): {', '.join(src.unread)}")
            listed.add(id(src))
    if token_lines:
        notes = notes + [f"{UNREAD_TOKENS} (not placed):", *token_lines]
    variants = variants_line(tiles, source)
    if variants:
        notes = notes + [variants]
    copies, copies_note = copies_needed(origins)
    if copies_note:
        notes = notes + [copies_note]
    base = {"name": (name or "Imported stage")[:MAX_NAME],
            "tileset": _stage_tileset_name([p.tile for p in order], tileset),
            "notes": "\n".join(notes) or None, "copies": copies}
    return _compact(order, tileset, base)


def copies_needed(laid: list[LayoutTile]) -> tuple[int, str]:
    """How many copies of a tile the layout lays at most (a tile number on several places, e.g. both faces of
    one tile), and the notes' line that says so (``""`` when one box is enough). A tile driven by two roads is one
    tile on the table.

    >>> n, note = copies_needed([LayoutTile("403a", (0, 0), 0), LayoutTile("403b", (2, 0), 0)])
    >>> n, note.split(": ")[0]
    (2, 'The layout lays tile 403 on 2 places (403a, 403b)')
    """
    places: dict[str, dict[tuple[int, int], str]] = {}
    for t in laid:
        if t.tile[:3].isdigit():
            places.setdefault(t.tile[:3], {}).setdefault(tuple(t.hex), t.tile)
    over = {num: on for num, on in places.items() if len(on) > 1}
    if not over:
        return 1, ""
    n = max(len(on) for on in over.values())
    tiles = "; ".join(f"tile {num} on {len(on)} places ({', '.join(sorted(set(on.values())))})"
                      for num, on in sorted(over.items()))
    boxes = ", ".join(dict.fromkeys(name for num in sorted(over) for name, test in EDITIONS if test(int(num))))
    one = len(over) == 1
    return n, (f"The layout lays {tiles}: it is built with {n} copies of {'it' if one else 'them'} "
               f"({n} sets of the {boxes} tiles); `copies: {n}` says so.")


def variants_line(tiles: list[LayoutTile], source: str) -> str:
    """The notes' line on the tiles given by a graphic variant (file order, with how many tiles use each), or ``""``.

    >>> two = [LayoutTile("106b", (k, 0), 0, variant="106b-2") for k in (0, 1)]
    >>> variants_line(two + [LayoutTile("202a", (2, 0), 0)], "t.rgt").split(": ")[1]
    '106b-2 as 106b (2 tiles).'
    """
    seen: dict[str, tuple[str, int]] = {}
    for t in tiles:
        if t.variant:
            face, n = seen.get(t.variant, (t.tile, 0))
            seen[t.variant] = (face, n + 1)
    if not seen:
        return ""
    items = ", ".join(f"{v} as {face}" + (f" ({plural(n, 'tile')})" if n > 1 else "")
                      for v, (face, n) in seen.items())
    return VARIANTS_NOTE.format(source=source, items=items)


def notes_list_variants(notes: str | None) -> bool:
    """Whether a stage's notes hold the line an import writes on graphic variants."""
    return any(line.startswith(_VARIANTS_HEAD) for line in (notes or "").splitlines())


def _compact(order: list[Placement], tileset: Tileset, base: dict) -> Stage:
    """The stage in short form where the layout follows from the entry edges, with positions elsewhere.

    A placement loses its position when assembling the stage without it puts the tile on the same place with
    the same rotation; ``start_rotation`` turns the first tile as it lay in the file.
    """
    keep = [p.entry is None or p.tile not in tileset for p in order]
    stage = Stage(**base, tiles=order)
    for attempt in range(len(order) + 1):
        tiles = [p if keep[i] else Placement(tile=p.tile, entry=p.entry, exit=p.exit, tokens=p.tokens)
                 for i, p in enumerate(order)]
        start = 0
        if order and not keep[0]:
            start = (order[0].rotation + hexgrid.edge_index(order[0].entry) - 3) % 6
        stage = Stage(**base, tiles=tiles, start_rotation=start)
        placed, _unknown, _errors = place_tiles(stage, tileset)
        wrong = [t.index for t in placed
                 if not keep[t.index] and (tuple(t.hex), t.rotation) != (tuple(order[t.index].at), order[t.index].rotation)]
        if not wrong:
            return stage
        # Fixing one tile usually puts the ones after it right; past a few rounds, fix them all at once.
        for i in (wrong[:1] if attempt < 30 else wrong):
            keep[i] = True
    return Stage(**base, tiles=order)


# -- writing --------------------------------------------------------------------------------

def tileset_for(stage: Stage) -> Tileset:
    """The stage's own tileset when it knows every tile, else the official one."""
    official = default_tileset()
    try:
        own = get_tileset(stage.tileset)
    except DesignerError:
        return official
    if all(p.tile in own for p in stage.tiles) or not all(p.tile in official for p in stage.tiles):
        return own
    return official


def layout_of(stage: Stage, tileset: Tileset) -> list[tuple[str, tuple[int, int], int]]:
    """(tile id, hex, rotation) of every tile in driving order, centred on (0, 0).

    Tiles unknown to the tileset can be written only where the stage gives their position.
    """
    return [row[:3] for row in layout_rows(stage, tileset)]


def layout_rows(stage: Stage, tileset: Tileset) -> list[tuple[str, tuple[int, int], int, list]]:
    """As :func:`layout_of`, with each tile's tokens as ``(token, position on the upright tile, terrain)``.

    A tile driven on two of its roads is one tile on the table: it is written once, with the tokens of both.
    """
    from designer.systems.dirt.board.tokens import token_position

    placed, unknown, _errors = place_tiles(stage, tileset)
    rows: dict[int, tuple[str, tuple[int, int], int, list]] = {}
    first_at: dict[tuple, int] = {}
    for t in placed:
        tid = stage.tiles[t.index].tile
        name = tid if _FULL_ID.fullmatch(tid) else t.face.id
        toks = [(tok, token_position(t, tok), t.face.terrain) for tok in t.tokens]
        key = (name, tuple(t.hex), t.rotation)
        if key in first_at and len(t.face.links) > 1:
            rows[first_at[key]][3].extend(toks)
            continue
        first_at.setdefault(key, t.index)
        rows[t.index] = (name, tuple(t.hex), t.rotation, toks)
    missing = []
    for i, tid in unknown:
        p = stage.tiles[i]
        if p.at is None:
            missing.append(f"tile {i + 1} ({tid})")
        else:
            rows[i] = (tid, tuple(p.at), p.rotation, [(tok, tok.at or (0.0, 0.0), None) for tok in p.tokens])
    if missing:
        raise DesignerError(f"cannot place {', '.join(missing)}: unknown in tileset {tileset.name}",
                            where=stage.name,
                            hint="fix the tile id (see `rally-designer tiles`) or give the tile a position `at: [q, r]`")
    out = [rows[i] for i in sorted(rows)]
    if out:
        qs = [h[0] for _, h, _, _ in out]
        rs = [h[1] for _, h, _, _ in out]
        cq, cr = (min(qs) + max(qs)) // 2, (min(rs) + max(rs)) // 2
        out = [(tid, (h[0] - cq, h[1] - cr), rot, toks) for tid, h, rot, toks in out]
    return out


def author_of(stage: Stage) -> str:
    """The ``Author: ...`` line that an import writes into the notes, if any."""
    for line in (stage.notes or "").splitlines():
        if line.lower().startswith("author:"):
            return line.split(":", 1)[1].strip()
    return ""


def file_stem(stage: Stage) -> str:
    stem = re.sub(r"[^0-9A-Za-z]+", "-", stage.name).strip("-").lower()
    return stem[:80] or "stage"


# -- entry points ---------------------------------------------------------------------------
