"""Assembly: from a stage (tiles in driving order) to tile positions on the hex grid and one
directed graph of cells in driving order.

Each tile's exit edge is matched to the next tile's entry edge. Cells are oriented so that
lane 0 is always the driver's left and positions grow in the driving direction; the graph's node
``"i:cell"`` is cell ``cell`` of the ``i``-th tile (0-based) of the stage.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from designer.core import hexgrid
from designer.core.errors import DesignerError
from designer.systems.dirt.stage import Placement, Stage
from designer.systems.dirt.tileset import EPS, Face, Tileset


# Faces that carry no stage road: the assistance tent, the GT pit tile, fillers and the podium.
NOT_ROAD = ("assistance", "pit", "filler")


@dataclass(frozen=True)
class PlacedTile:
    index: int
    face: Face
    hex: tuple[int, int]
    rotation: int
    entry: str | None            # local edge the road enters by (None: unknown)
    exit: str | None             # local edge it leaves by (None: dead end / unknown)

    @property
    def tile(self) -> str:
        return self.face.id

    @property
    def world_entry(self) -> str | None:
        return hexgrid.rotate_edge(self.entry, self.rotation) if self.entry else None

    @property
    def world_exit(self) -> str | None:
        return hexgrid.rotate_edge(self.exit, self.rotation) if self.exit else None

    @property
    def reversed(self) -> bool:
        """True when the tile is driven from ``ends[1]`` to ``ends[0]``."""
        ends = self.face.ends
        return bool(ends) and len(ends) == 2 and self.entry == ends[1]


@dataclass
class Track:
    stage: Stage
    tileset: Tileset
    tiles: list[PlacedTile]
    graph: nx.DiGraph = field(default_factory=nx.DiGraph)
    unknown: list[tuple[int, str]] = field(default_factory=list)   # (index, tile id) not in tileset
    errors: list[tuple[int, str]] = field(default_factory=list)    # assembly problems (index, message)

    @property
    def road_tiles(self) -> list[PlacedTile]:
        return [t for t in self.tiles if t.face.role not in NOT_ROAD]

    @property
    def has_assistance(self) -> bool:
        return any(t.face.role == "assistance" for t in self.tiles)

    @property
    def has_cells(self) -> bool:
        return self.graph.number_of_nodes() > 0

    def missing_cells(self) -> list[PlacedTile]:
        return [t for t in self.road_tiles if not t.face.has_cells]

    def start_cells(self) -> list[str]:
        return [n for n, d in self.graph.nodes(data=True) if d.get("start")]

    def finish_cells(self) -> list[str]:
        return [n for n, d in self.graph.nodes(data=True) if d.get("finish")]

    def hexes(self) -> list[tuple[int, int]]:
        return [t.hex for t in self.tiles]


# -- tile positions -----------------------------------------------------------------------

def _exit_of(face: Face, entry: str, wanted: str | None) -> str | None:
    exits = face.exit_for(entry)
    if wanted:
        return wanted if wanted in exits else None
    return exits[0] if len(exits) == 1 else None


def place_tiles(stage: Stage, tileset: Tileset) -> tuple[list[PlacedTile], list[tuple[int, str]], list[tuple[int, str]]]:
    """Positions and rotations of every tile, following the driving order.

    Returns the placed tiles (unknown faces are skipped), the unknown tiles and assembly errors.
    Placements that carry a position keep it; the others are attached to the previous tile's exit.
    """
    placed: list[PlacedTile] = []
    unknown: list[tuple[int, str]] = []
    errors: list[tuple[int, str]] = []
    prev: PlacedTile | None = None
    for i, p in enumerate(stage.tiles):
        if p.tile not in tileset:
            unknown.append((i, p.tile))
            prev = None
            continue
        face = tileset.face(p.tile)
        entry = p.entry
        if p.at is not None:
            hex_, rot = tuple(p.at), p.rotation
            if entry is None and prev is not None and prev.world_exit:
                back = hexgrid.opposite(prev.world_exit)
                entry = hexgrid.unrotate_edge(back, rot)
        else:
            if entry not in face.edges:
                errors.append((i, f"{face.id} has no road on edge {entry}; its road edges are "
                                  f"{', '.join(sorted(face.edges)) or 'none'}"))
                entry = sorted(face.edges)[0] if face.edges else "A"
            if prev is None:
                if placed:
                    # Re-anchor after an unknown tile: keep going from the last known one.
                    last = placed[-1]
                    base = hexgrid.neighbour(last.hex, last.world_exit or "D")
                    hex_ = base
                    arrive = hexgrid.opposite(last.world_exit or "D")
                    rot = (hexgrid.edge_index(arrive) - hexgrid.edge_index(entry)) % 6
                else:
                    hex_ = (0, 0)
                    # The first tile: its entry edge faces world edge D rotated by start_rotation,
                    # so that stages start at the bottom and run upwards by default.
                    rot = (3 + stage.start_rotation - hexgrid.edge_index(entry)) % 6
            else:
                out = prev.world_exit or "A"
                hex_ = hexgrid.neighbour(prev.hex, out)
                arrive = hexgrid.opposite(out)
                rot = (hexgrid.edge_index(arrive) - hexgrid.edge_index(entry)) % 6
        exit_ = _exit_of(face, entry, p.exit) if entry in face.edges else None
        if exit_ is None and face.role != "assistance" and face.links:
            if p.exit:
                errors.append((i, f"{face.id}: no road joins {entry} to {p.exit}"))
            elif len(face.exit_for(entry)) > 1:
                errors.append((i, f"{face.id} is a junction: name the exit edge too, e.g. `{face.id} {entry} "
                                  f"{face.exit_for(entry)[0]}`"))
        tile = PlacedTile(index=i, face=face, hex=hex_, rotation=rot, entry=entry, exit=exit_)
        placed.append(tile)
        prev = tile
    return placed, unknown, errors


def driving_order(placements: list[tuple[str, tuple[int, int], int]], tileset: Tileset) -> list[Placement]:
    """The reverse of :func:`place_tiles`: from (tile, hex, rotation) in any order, the tiles in driving order.

    The walk starts at a start tile (or, failing that, a tile with one road end open) and follows
    the road from tile to tile. Tiles the road never reaches are appended at the end with their
    position, so nothing is lost; validation then reports them.
    """
    by_hex: dict[tuple[int, int], tuple[str, int]] = {}
    for tile, hex_, rot in placements:
        by_hex[tuple(hex_)] = (tile, rot)

    def world_edges(tile, rot):
        face = tileset.face(tile)
        return face, {hexgrid.rotate_edge(e, rot): e for e in face.edges}

    def open_edges(h):
        tile, rot = by_hex[h]
        face, edges = world_edges(tile, rot)
        out = []
        for w, local in edges.items():
            nb = hexgrid.neighbour(h, w)
            if nb not in by_hex or by_hex[nb][0] not in tileset:
                out.append(local)
                continue
            nface, nedges = world_edges(*by_hex[nb])
            if hexgrid.opposite(w) not in nedges:
                out.append(local)
        return out

    known = [h for h in by_hex if by_hex[h][0] in tileset]
    starts = [h for h in known if tileset.face(by_hex[h][0]).role in ("start", "start-finish")]
    ends = [h for h in known if len(open_edges(h)) >= 1 and tileset.face(by_hex[h][0]).role != "assistance"]
    order: list[Placement] = []
    seen: set = set()
    first = (starts or ends or known or [None])[0]
    h = first
    entry = None
    if h is not None:
        opens = open_edges(h)
        face = tileset.face(by_hex[h][0])
        entry = opens[0] if opens else (sorted(face.edges)[0] if face.edges else None)
    while h is not None and h not in seen and entry is not None:
        seen.add(h)
        tile, rot = by_hex[h]
        face = tileset.face(tile)
        exits = face.exit_for(entry)
        exit_ = None
        nxt = None
        for e in exits:
            w = hexgrid.rotate_edge(e, rot)
            nb = hexgrid.neighbour(h, w)
            if nb in by_hex and nb not in seen and by_hex[nb][0] in tileset:
                exit_, nxt = e, nb
                break
        if exit_ is None and exits:
            exit_ = exits[0]
        order.append(Placement(tile=tile, entry=entry, exit=exit_ if len(exits) > 1 else None,
                               at=h, rotation=rot))
        if nxt is None:
            # An assistance tile may sit after the finish without a road link of its own.
            break
        w = hexgrid.rotate_edge(exit_, rot)
        ntile, nrot = by_hex[nxt]
        entry = hexgrid.unrotate_edge(hexgrid.opposite(w), nrot)
        if entry not in tileset.face(ntile).edges:
            order.append(Placement(tile=ntile, at=nxt, rotation=nrot))
            seen.add(nxt)
            break
        h = nxt
    for h2, (tile, rot) in by_hex.items():
        if h2 not in seen:
            face = tileset.face(tile) if tile in tileset else None
            entry2 = None
            if face is not None and face.role == "assistance" and face.edges:
                entry2 = sorted(face.edges)[0]
            order.append(Placement(tile=tile, at=h2, rotation=rot, entry=entry2))
    return order


# -- the cell graph -------------------------------------------------------------------------

def _oriented(tile: PlacedTile):
    """Yield (cell, lane, a, b, is_slide) with lane and span in driving direction."""
    face = tile.face
    lanes = max(face.lanes, 1)
    slides = face.slide_ids()
    flip = tile.reversed
    for c in face.all_cells():
        a, b = c.span
        lane = c.lane
        if flip:
            a, b = 1.0 - b, 1.0 - a
            lane = (lanes - 1) - lane
        yield c, lane, a, b, c.id in slides


def _touch(la, lb, sa, sb) -> bool:
    if sa or sb:
        return True
    return abs(la - lb) <= 1


def build_graph(tiles: list[PlacedTile]) -> nx.DiGraph:
    g = nx.DiGraph()
    prev_exit: list[tuple[str, int, bool]] = []
    for tile in tiles:
        face = tile.face
        if face.role == "assistance" or not face.has_cells:
            prev_exit = []
            continue
        i = tile.index
        cells = list(_oriented(tile))
        start_line = face.start_line
        finish_line = face.finish_line
        if tile.reversed:
            start_line = None if start_line is None else 1.0 - start_line
            finish_line = None if finish_line is None else 1.0 - finish_line
        for c, lane, a, b, is_slide in cells:
            node = f"{i}:{c.id}"
            g.add_node(node, index=i, tile=face.id, cell=c.id, lane=lane, a=a, b=b,
                       pos=i + (a + b) / 2.0, limit=c.limit,
                       corner=f"{i}:{c.corner}" if c.corner else None, path=c.path,
                       cut=c.cut, jump=c.jump, ford=c.ford, slide=is_slide,
                       start=bool(start_line is not None and not c.is_cut and not is_slide
                                  and abs(b - start_line) < EPS),
                       finish=bool(finish_line is not None and not c.is_cut and not is_slide
                                   and abs(a - finish_line) < EPS),
                       danger=face.danger, terrain=face.terrain)
        plain = [(c, lane, a, b, s) for c, lane, a, b, s in cells if not c.is_cut]
        for cu, lu, au, bu, su in plain:
            for cv, lv, av, bv, sv in plain:
                if cu is cv or not _touch(lu, lv, su, sv):
                    continue
                if cu.corner and cu.corner == cv.corner and cu.path != cv.path:
                    continue
                if av > au + EPS and bv > bu + EPS and av <= bu + EPS:
                    kind = "slide" if (su or sv) else ("straight" if lu == lv else "diagonal")
                    g.add_edge(f"{i}:{cu.id}", f"{i}:{cv.id}", kind=kind)
        # Cuts: linked both ways along the road to the cells they connect (never corner cells).
        by_id = {c.id: (c, lane, a, b, s) for c, lane, a, b, s in cells}
        slide_rows = []
        for k, sl in enumerate(face.slides, start=1):
            slide_rows.append((sl.span, f"s{k}a", f"s{k}b"))
        for c, lane, a, b, _ in cells:
            if not c.is_cut:
                continue
            mid = (a + b) / 2.0
            for other in c.connects:
                oc, ol, oa, ob, _ = by_id[other]
                if oc.corner:
                    continue
                before = (oa + ob) / 2.0 < mid
                u, v = (f"{i}:{other}", f"{i}:{c.id}") if before else (f"{i}:{c.id}", f"{i}:{other}")
                g.add_edge(u, v, kind="cut")
                for span, ha, hb in slide_rows:
                    if abs(oc.span[0] - span[0]) < EPS and abs(oc.span[1] - span[1]) < EPS:
                        if before:
                            g.add_edge(f"{i}:{hb if not tile.reversed else ha}", f"{i}:{c.id}", kind="cut")
                        else:
                            g.add_edge(f"{i}:{c.id}", f"{i}:{ha if not tile.reversed else hb}", kind="cut")
        # Links across the edge from the previous tile.
        entry_cells = [(f"{i}:{c.id}", lane, s) for c, lane, a, b, s in plain if a < EPS]
        for u, lu, su in prev_exit:
            for v, lv, sv in entry_cells:
                if _touch(lu, lv, su, sv):
                    g.add_edge(u, v, kind="straight" if (lu == lv and not su and not sv) else
                               ("slide" if (su or sv) else "diagonal"))
        prev_exit = [(f"{i}:{c.id}", lane, s) for c, lane, a, b, s in plain if b > 1 - EPS]
    return g


def assemble(stage: Stage, tileset: Tileset) -> Track:
    """Place every tile and build the cell graph. Never raises for a bad stage: see ``errors``."""
    tiles, unknown, errors = place_tiles(stage, tileset)
    track = Track(stage=stage, tileset=tileset, tiles=tiles, unknown=unknown, errors=errors)
    contiguous = not unknown and not errors
    if contiguous and all(t.face.has_cells for t in track.road_tiles):
        track.graph = build_graph(tiles)
    return track


def load_track(stage: Stage, near=None) -> Track:
    from designer.systems.dirt.tileset import get_tileset
    try:
        tileset = get_tileset(stage.tileset, near)
    except DesignerError:
        raise
    return assemble(stage, tileset)
