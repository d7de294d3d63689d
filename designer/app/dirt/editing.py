"""Editing a stage: pure functions over :class:`~designer.systems.dirt.board.stage.Stage` objects.

Every operation returns a new stage and leaves its argument untouched, so the app can keep the
old one on an undo stack. Placements are written in the relative form (``tile`` + ``entry``): the
assembler attaches each tile to the exit of the one before, so adding, inserting or removing a tile
never needs a position. Imported layouts that carry positions are turned into that form first when
their road is one clean chain (:func:`relative_form`).

>>> from designer.systems.dirt.board.tileset import get_tileset
>>> ts = get_tileset("dirt-core")
>>> s = new_stage("Demo")
>>> s = add_tile(s, ts, "202a")
>>> s = add_tile(s, ts, "208a", turn="right")
>>> [p.short() for p in s.tiles]
['202a A', '208a D']
>>> [p.short() for p in reverse_tile(s, ts, 1).tiles]
['202a A', '208a B']
"""
from __future__ import annotations

from dataclasses import dataclass, field

from designer.core import hexgrid
from designer.systems.dirt.board.stage import Placement, RallyInfo, Stage
from designer.systems.dirt.board.tileset import Face, Tileset

# -- turns --------------------------------------------------------------------------------

TURN_NAMES = {0: "dead end", 1: "hairpin left", 2: "left", 3: "straight", 4: "right", 5: "hairpin right"}
TURN_ARROWS = {"straight": "↑", "left": "↰", "right": "↱", "hairpin left": "⤺", "hairpin right": "⤻",
               "dead end": "■"}


def turn_of(entry: str, exit_: str | None) -> str:
    """Which way the road turns for a car entering by ``entry`` and leaving by ``exit_``.

    Edges run clockwise A..F; a car entering by edge ``e`` heads for the opposite edge.

    >>> turn_of("D", "A"), turn_of("D", "B"), turn_of("B", "D"), turn_of("D", "C"), turn_of("C", "D")
    ('straight', 'right', 'left', 'hairpin right', 'hairpin left')
    """
    if exit_ is None:
        return "dead end"
    gap = (hexgrid.edge_index(exit_) - hexgrid.edge_index(entry)) % 6
    return TURN_NAMES[gap]


def turn_family(turn: str) -> str:
    """``'hairpin left'`` -> ``'left'``: the side a turn goes to (or straight / dead end)."""
    return turn.split()[-1] if turn.startswith("hairpin") else turn


@dataclass(frozen=True)
class EntryOption:
    """One way to drive a face: the edge the road enters by and the one it leaves by."""
    entry: str
    exit: str | None
    turn: str

    @property
    def arrow(self) -> str:
        return TURN_ARROWS.get(self.turn, "?")

    def placement(self, tile: str, junction: bool) -> Placement:
        return Placement(tile=tile, entry=self.entry, exit=self.exit if junction else None)


def entry_options(face: Face) -> list[EntryOption]:
    """Every (entry, exit) pair a face can be driven through, the face's own reference direction first.

    A two-edge tile has two options (one per road edge; "drive the other way" swaps them); a junction
    has one per linked pair of edges and direction; a one-edge tile (the assistance tile) has one.
    """
    out: list[EntryOption] = []
    ends = list(face.ends or [])
    for a, b in face.links:
        for entry, exit_ in ((a, b), (b, a)):
            out.append(EntryOption(entry, exit_, turn_of(entry, exit_)))
    if not face.links:
        for e in sorted(face.edges):
            out.append(EntryOption(e, None, "dead end"))
    if ends:
        out.sort(key=lambda o: (o.entry != ends[0], o.entry))
    # Unique by (entry, exit), keeping the first.
    seen, uniq = set(), []
    for o in out:
        if (o.entry, o.exit) not in seen:
            seen.add((o.entry, o.exit))
            uniq.append(o)
    return uniq


def is_junction(face: Face) -> bool:
    return len(face.links) > 1


def choose_option(face: Face, entry: str | None = None, turn: str | None = None,
                  exit_: str | None = None) -> EntryOption:
    """The option with this entry (and exit), or the first one that turns to ``turn``, or the default."""
    options = entry_options(face)
    if not options:
        raise ValueError(f"tile {face.id} has no road edge to drive through")
    if entry is not None:
        entry = entry.upper()
        for o in options:
            if o.entry == entry and (exit_ is None or o.exit == exit_.upper()):
                return o
        raise ValueError(f"tile {face.id} has no road on edge {entry}; its road edges are "
                         f"{', '.join(sorted(face.edges))}")
    if turn is not None:
        for o in options:
            if o.turn == turn:
                return o
        for o in options:
            if turn_family(o.turn) == turn_family(turn):
                return o
    return options[0]


def make_placement(tileset: Tileset, tile_id: str, entry: str | None = None, turn: str | None = None,
                   exit_: str | None = None) -> Placement:
    face = tileset.face(tile_id)
    option = choose_option(face, entry, turn, exit_)
    return option.placement(face.id, is_junction(face))


def placement_turn(tileset: Tileset, p: Placement) -> str | None:
    """The turn a placement drives its tile through (None when unknown)."""
    if p.tile not in tileset or p.entry is None:
        return None
    face = tileset.face(p.tile)
    exits = [p.exit] if p.exit else face.exit_for(p.entry)
    return turn_of(p.entry, exits[0] if exits else None)


# -- operations ---------------------------------------------------------------------------

def new_stage(name: str = "New stage", tileset: str = "dirt-core") -> Stage:
    return Stage(name=name or "New stage", tileset=tileset)


def _check_index(stage: Stage, index: int, allow_end: bool = False) -> int:
    n = len(stage.tiles)
    hi = n if allow_end else n - 1
    if not 0 <= index <= hi:
        raise IndexError(f"tile {index + 1} is not in the stage (it has {n} tile{'s' if n != 1 else ''})")
    return index


def add_tile(stage: Stage, tileset: Tileset, tile_id: str, entry: str | None = None,
             turn: str | None = None, exit_: str | None = None) -> Stage:
    """Add a tile at the open end of the stage (after the last tile).

    The new tile attaches by its ``entry`` edge; without one, the edge is chosen so the road turns to
    ``turn`` ('left', 'right', 'straight', 'hairpin left'...), or the face's reference direction.
    A junction also takes the edge it is left by (``exit_``).
    """
    return insert_tile(stage, tileset, len(stage.tiles), tile_id, entry=entry, turn=turn, exit_=exit_)


def insert_tile(stage: Stage, tileset: Tileset, index: int, tile_id: str, entry: str | None = None,
                turn: str | None = None, exit_: str | None = None) -> Stage:
    """Insert a tile so that it becomes tile ``index`` (0-based); the following tiles move up by one."""
    _check_index(stage, index, allow_end=True)
    tiles = list(stage.tiles)
    tiles.insert(index, make_placement(tileset, tile_id, entry, turn, exit_))
    return stage.with_tiles(tiles)


def finish_index(stage: Stage, tileset: Tileset) -> int | None:
    """The index of the stage's first finish tile, or None."""
    for i, p in enumerate(stage.tiles):
        if p.tile in tileset and tileset.face(p.tile).role == "finish":
            return i
    return None


def refused_after_finish(stage: Stage, tileset: Tileset, index: int, tile_id: str) -> str | None:
    """Why a tile put at ``index`` (its place once put) would sit past the finish, or None when it may go there.

    Nothing is driven past the finish tile, so the only tile that may follow it is the assistance tile."""
    f = finish_index(stage, tileset)
    if f is None or index <= f:
        return None
    if tile_id in tileset and tileset.face(tile_id).role == "assistance":
        return None
    return (f"Tile {f + 1} ({stage.tiles[f].tile}) is the finish: nothing is driven after it, so {tile_id} was not "
            "added. To make the stage longer, select the finish tile and insert before it (palette: 'Before'), "
            "or put a road tile in its place (palette: 'Replace').")


def replace_tile(stage: Stage, tileset: Tileset, index: int, tile_id: str, entry: str | None = None,
                 turn: str | None = None, exit_: str | None = None) -> Stage:
    """Put another face in place of tile ``index``; without ``entry`` or ``turn`` it keeps turning the
    same way as the tile it replaces when it can."""
    _check_index(stage, index)
    old = stage.tiles[index]
    if entry is None and turn is None:
        turn = placement_turn(tileset, old)
    tiles = list(stage.tiles)
    tiles[index] = make_placement(tileset, tile_id, entry, turn, exit_)
    return stage.with_tiles(tiles)


def remove_tile(stage: Stage, index: int) -> Stage:
    """Take tile ``index`` out; the tiles after it close up behind the one before."""
    _check_index(stage, index)
    tiles = list(stage.tiles)
    del tiles[index]
    return stage.with_tiles(tiles)


def reverse_tile(stage: Stage, tileset: Tileset, index: int) -> Stage:
    """Drive tile ``index`` the other way: enter by its other road edge (a left curve turns right).

    A junction cycles through its (entry, exit) options; a one-edge tile is left as it is.
    """
    _check_index(stage, index)
    p = stage.tiles[index]
    if p.tile not in tileset:
        return stage
    face = tileset.face(p.tile)
    options = entry_options(face)
    if len(options) < 2:
        return stage
    current = p.entry
    exit_now = p.exit or (face.exit_for(current)[0] if current and face.exit_for(current) else None)
    k = next((i for i, o in enumerate(options) if o.entry == current and o.exit == exit_now), -1)
    if is_junction(face):
        nxt = options[(k + 1) % len(options)]
    else:
        # The swap: enter where the road used to leave.
        nxt = next((o for o in options if o.entry == exit_now and o.exit == current), None) \
            or options[(k + 1) % len(options)]
    tiles = list(stage.tiles)
    tiles[index] = Placement(tile=p.tile, entry=nxt.entry, exit=nxt.exit if is_junction(face) else None)
    return stage.with_tiles(tiles)


def move_tile(stage: Stage, index: int, to: int) -> Stage:
    """Move tile ``index`` so that it becomes tile ``to``."""
    _check_index(stage, index)
    _check_index(stage, to)
    tiles = list(stage.tiles)
    tiles.insert(to, tiles.pop(index))
    return stage.with_tiles(tiles)


def rename(stage: Stage, name: str) -> Stage:
    return stage.model_copy(update={"name": name.strip() or stage.name})


def has_assistance(stage: Stage, tileset: Tileset) -> bool:
    """True when the stage ends with the assistance tile or says assistance follows it."""
    if stage.tiles and stage.tiles[-1].tile in tileset and tileset.face(stage.tiles[-1].tile).role == "assistance":
        return True
    return bool(stage.rally and stage.rally.assistance_after)


def assistance_faces(tileset: Tileset) -> list[str]:
    return sorted(f.id for f in tileset.tiles.values() if f.role == "assistance")


def set_assistance(stage: Stage, tileset: Tileset, on: bool) -> Stage:
    """Assistance after this stage: add (or take away) the assistance tile after the finish and set
    ``rally.assistance_after``."""
    tiles = list(stage.tiles)
    last_is_assist = bool(tiles) and tiles[-1].tile in tileset and tileset.face(tiles[-1].tile).role == "assistance"
    if on and not last_is_assist and tiles:
        faces = assistance_faces(tileset)
        if faces:
            tiles.append(make_placement(tileset, faces[0]))
    if not on and last_is_assist:
        tiles.pop()
    rally = (stage.rally or RallyInfo()).model_copy(update={"assistance_after": on})
    return stage.model_copy(update={"tiles": tiles, "rally": rally})


def relative_form(stage: Stage, tileset: Tileset) -> Stage:
    """The stage with positions dropped where the road chains tile to tile (entry edges only).

    Imported layouts (.rgt, rekee) give each tile a position and a rotation. When every tile is known
    and sits where the previous tile's exit leads, the entry edges say it all and editing can move
    tiles freely; ``start_rotation`` keeps the first tile's orientation. Otherwise the stage is
    returned unchanged.
    """
    if not stage.tiles or all(p.at is None for p in stage.tiles):
        return stage
    from designer.systems.dirt.board.track import place_tiles

    placed, unknown, errors = place_tiles(stage, tileset)
    if unknown or errors or len(placed) != len(stage.tiles):
        return stage
    if any(t.entry is None for t in placed):
        return stage
    for prev, t in zip(placed, placed[1:]):
        if prev.world_exit is None or hexgrid.neighbour(prev.hex, prev.world_exit) != t.hex:
            return stage
        if hexgrid.opposite(prev.world_exit) != t.world_entry:
            return stage
    first = placed[0]
    start_rotation = (first.rotation + hexgrid.edge_index(first.entry) - 3) % 6
    tiles = []
    for p, t in zip(stage.tiles, placed):
        junction = is_junction(t.face)
        tiles.append(Placement(tile=p.tile, entry=t.entry, exit=t.exit if junction else None))
    return stage.model_copy(update={"tiles": tiles, "start_rotation": start_rotation})


# -- the box ------------------------------------------------------------------------------

def used_numbers(stage: Stage) -> dict[str, list[int]]:
    """Tile number (``'210'``) -> the 0-based indexes of the stage's tiles cut from it."""
    out: dict[str, list[int]] = {}
    for i, p in enumerate(stage.tiles):
        out.setdefault(p.tile[:3], []).append(i)
    return out


def in_box(face_id: str, stage: Stage) -> bool:
    """True when the physical tile of this face is still in the box (neither face is in the stage)."""
    return face_id[:3] not in used_numbers(stage)


def tiles_in_box(stage: Stage, tileset: Tileset) -> list[str]:
    """Faces whose tile is still in the box."""
    used = used_numbers(stage)
    return [fid for fid in tileset.tiles if fid[:3] not in used]


# -- palette ------------------------------------------------------------------------------

SHAPES = ("start", "finish", "straight", "kink", "curve", "hairpin", "junction", "assistance", "other")


def shape_of(face: Face) -> str:
    """The palette group of a face: start, finish, straight, kink, curve, hairpin, junction, assistance."""
    if face.role in ("start", "finish", "assistance"):
        return face.role
    if face.role == "start-finish":
        return "start"
    k = face.kind
    return k if k in SHAPES else "other"


@dataclass(frozen=True)
class PaletteFilter:
    """What the palette shows; an empty collection means 'any'."""
    shapes: tuple[str, ...] = ()
    terrains: tuple[str, ...] = ()
    dangers: tuple[str, ...] = ()
    limits: tuple[int, ...] = ()          # faces with at least one of these speed limits
    cut: bool = False
    jump: bool = False
    ford: bool = False
    in_box_only: bool = False
    with_cells_only: bool = False
    text: str = ""


def face_matches(face: Face, flt: PaletteFilter, stage: Stage | None = None) -> bool:
    f = face.features
    if flt.shapes and shape_of(face) not in flt.shapes:
        return False
    if flt.terrains and face.terrain not in flt.terrains:
        return False
    if flt.dangers and face.danger not in flt.dangers:
        return False
    if flt.limits and not set(flt.limits) & (set(f.limits) | face.corner_limits()):
        return False
    if flt.cut and f.cut is None:
        return False
    if flt.jump and not f.jumps:
        return False
    if flt.ford and not f.ford:
        return False
    if flt.with_cells_only and not face.has_cells:
        return False
    if flt.in_box_only and stage is not None and not in_box(face.id, stage):
        return False
    if flt.text and not text_matches(face, flt.text):
        return False
    return True


def face_words(face: Face) -> set[str]:
    """The words a player may search a face by: its shape, features, danger colour and surface."""
    f = face.features
    words = {shape_of(face), face.kind or "", face.role or "", face.danger or "", face.terrain or ""}
    words |= {w for w, on in (("cut", f.cut is not None), ("jump", bool(f.jumps)), ("ford", bool(f.ford))) if on}
    return {w.lower() for w in words if w}


def text_matches(face: Face, text: str) -> bool:
    """Does a face match a search: every word is part of its number (``229``, ``229b``, ``22``) or the start of
    one of :func:`face_words` (``hair``, ``hairpin``, ``jumps``: a plural's ``s`` is dropped)?"""
    words = face_words(face)
    for token in text.lower().replace(",", " ").split():
        if token in face.id:
            continue
        stem = token[:-1] if len(token) > 3 and token.endswith("s") else token
        if token.isdigit() or not any(w.startswith(stem) for w in words):
            return False
    return True


def palette(tileset: Tileset, flt: PaletteFilter = PaletteFilter(), stage: Stage | None = None) -> list[Face]:
    """The faces of a tileset that pass a filter, in tile-number order."""
    faces = [f for f in tileset.tiles.values() if face_matches(f, flt, stage)]
    return sorted(faces, key=lambda f: (f.number, f.side))


def describe_face(face: Face) -> str:
    """A short line for a palette card: ``hairpin · limits 1-2 · cut 2``."""
    bits = [shape_of(face)]
    f = face.features
    limits = sorted(set(f.limits) | face.corner_limits())
    if limits:
        bits.append("limit " + "/".join(str(x) for x in limits))
    if f.cut is not None:
        bits.append(f"cut {f.cut}")
    if f.jumps:
        bits.append("jump " + "/".join(str(j) for j in f.jumps))
    if f.ford:
        bits.append("ford")
    if face.terrain and face.terrain != "gravel":
        bits.append(face.terrain)
    return " · ".join(bits)


# -- undo and redo ------------------------------------------------------------------------

@dataclass(frozen=True)
class History:
    """Undo and redo stacks of stages (most recent last); ``limit`` bounds the undo stack."""
    undo: tuple[Stage, ...] = ()
    redo: tuple[Stage, ...] = ()
    limit: int = field(default=200, compare=False)

    @property
    def can_undo(self) -> bool:
        return bool(self.undo)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo)


def record(history: History, before: Stage, after: Stage) -> History:
    """Remember ``before`` for undo after an edit produced ``after``; a new edit clears redo.

    An edit that changes nothing is not recorded.
    """
    if before == after:
        return history
    undo = (history.undo + (before,))[-history.limit:]
    return History(undo=undo, redo=(), limit=history.limit)


def undo(history: History, current: Stage) -> tuple[History, Stage]:
    """Step back: the previous stage, with ``current`` pushed for redo. Nothing to undo: unchanged."""
    if not history.undo:
        return history, current
    prev = history.undo[-1]
    return History(undo=history.undo[:-1], redo=history.redo + (current,), limit=history.limit), prev


def redo(history: History, current: Stage) -> tuple[History, Stage]:
    if not history.redo:
        return history, current
    nxt = history.redo[-1]
    return History(undo=history.undo + (current,), redo=history.redo[:-1], limit=history.limit), nxt
