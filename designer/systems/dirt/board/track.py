"""Assembly: from a stage (tiles in driving order) to tile positions on the hex grid and one
directed graph of cells in driving order.

Each tile's exit edge is matched to the next tile's entry edge. Cells are oriented so that
lane 0 is always the driver's left and positions grow in the driving direction; the graph's node
``"i:cell"`` is cell ``cell`` of the ``i``-th tile (0-based) of the stage.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import networkx as nx

from designer.core import hexgrid
from designer.systems.dirt.board.stage import Stage
from designer.systems.dirt.board.tileset import EPS, Face, Tileset
from designer.systems.dirt.board.circuit import NOT_ROAD, find_lap, race_order  # noqa: F401  NOT_ROAD re-exported
from designer.systems.dirt.board import walk




@dataclass(frozen=True)
class PlacedTile:
    index: int
    face: Face
    hex: tuple[int, int]
    rotation: int
    entry: str | None            # local edge the road enters by (None: unknown)
    exit: str | None             # local edge it leaves by (None: dead end / unknown)
    road: Face | None = None     # the face of the road driven (several-road faces); None: the face itself
    tokens: tuple = ()           # tokens laid on this tile (designer.systems.dirt.board.tokens.Token)
    node_index: int | None = None  # index used in cell names when it differs from ``index`` (a lap's last tile)

    @property
    def tile(self) -> str:
        return self.face.id

    @property
    def driven(self) -> Face:
        """The face of the road this placement drives (the face itself for a one-road face)."""
        if self.road is not None:
            return self.road
        if self.face.roads:
            found = self.face.road_between(self.entry, self.exit)
            if found is not None:
                return found
        return self.face

    @property
    def world_entry(self) -> str | None:
        return hexgrid.rotate_edge(self.entry, self.rotation) if self.entry else None

    @property
    def world_exit(self) -> str | None:
        return hexgrid.rotate_edge(self.exit, self.rotation) if self.exit else None

    @property
    def reversed(self) -> bool:
        """True when the tile is driven from ``ends[1]`` to ``ends[0]``."""
        ends = self.driven.ends
        return bool(ends) and len(ends) == 2 and self.entry == ends[1]


@dataclass
class Track:
    stage: Stage
    tileset: Tileset
    tiles: list[PlacedTile]
    graph: nx.DiGraph = field(default_factory=nx.DiGraph)
    unknown: list[tuple[int, str]] = field(default_factory=list)   # (index, tile id) not in tileset
    errors: list[tuple[int, str]] = field(default_factory=list)    # assembly problems (index, message)
    circuit: bool = False        # the road closes on itself: the graph is the race's laps
    lap: object = None           # the lap of a circuit (designer.systems.dirt.board.circuit.Lap)

    @property
    def road_tiles(self) -> list[PlacedTile]:
        return [t for t in self.tiles if t.face.role not in NOT_ROAD]

    @property
    def lap_tiles(self) -> list[PlacedTile]:
        """The road tiles of one lap of a circuit (every road tile for a stage)."""
        road = self.road_tiles
        if not self.circuit:
            return road
        return [t for t in road if t.index <= self.lap.last.index]

    def joker_tiles(self) -> list[PlacedTile]:
        """The tiles of a circuit's joker route (oriented as the joker drives them)."""
        return list(self.lap.joker.tiles) if self.circuit and self.lap.joker else []

    def off_lap(self) -> list[PlacedTile]:
        """Road tiles of a circuit that no lap drives (listed after the lap, not on the joker route)."""
        keep = {t.index for t in self.lap_tiles} | {t.index for t in self.joker_tiles()}
        return [t for t in self.road_tiles if t.index not in keep]

    @property
    def has_assistance(self) -> bool:
        return any(t.face.role == "assistance" for t in self.tiles)

    @property
    def has_cells(self) -> bool:
        return self.graph.number_of_nodes() > 0

    def missing_cells(self) -> list[PlacedTile]:
        return [t for t in self.road_tiles if not t.face.has_cells or t.driven.cells is None]

    def start_cells(self) -> list[str]:
        return [n for n, d in self.graph.nodes(data=True) if d.get("start")]

    def finish_cells(self) -> list[str]:
        return [n for n, d in self.graph.nodes(data=True) if d.get("finish")]

    def hexes(self) -> list[tuple[int, int]]:
        return [t.hex for t in self.tiles]

    @property
    def laid_tiles(self) -> list[PlacedTile]:
        """The tiles on the table in driving order: the first placement at each place (a tile the stage
        drives twice is one tile on the table)."""
        first: dict[tuple[int, int], PlacedTile] = {}
        for t in self.tiles:
            first.setdefault(t.hex, t)
        return list(first.values())

    @property
    def laid_road_tiles(self) -> list[PlacedTile]:
        """The road tiles on the table (what a stage counts as its road tiles: built once, however often driven)."""
        return [t for t in self.laid_tiles if t.face.role not in NOT_ROAD]

    def passes(self, hex_: tuple[int, int]) -> list[PlacedTile]:
        """Every placement at a place, in driving order: one, or more when the stage drives the tile again."""
        return [t for t in self.tiles if t.hex == hex_]


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
            if prev is not None and prev.world_exit and hexgrid.neighbour(prev.hex, prev.world_exit) == hex_:
                back = hexgrid.unrotate_edge(hexgrid.opposite(prev.world_exit), rot)
                if entry is None:
                    entry = back
                elif entry != back and back in face.edges:
                    errors.append((i, f"{face.id} is given entry edge {entry}, but the road of tile {prev.index + 1} "
                                      f"({prev.tile}) arrives on its edge {back}: the tile would be driven the "
                                      "wrong way"))
                    entry = back
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
        road = face.road_between(entry, exit_) if face.roads and entry in face.edges else None
        tile = PlacedTile(index=i, face=face, hex=hex_, rotation=rot, entry=entry, exit=exit_, road=road,
                          tokens=tuple(getattr(p, "tokens", None) or ()))
        placed.append(tile)
        prev = tile
    return placed, unknown, errors


def driving_order(placements, tileset: Tileset):
    """:func:`.walk.driving_order` scoring its walks at junctions with :func:`place_tiles` (laps, jokers)."""
    return walk.driving_order(placements, tileset, place=place_tiles)


# -- the cell graph -------------------------------------------------------------------------

def _oriented(tile: PlacedTile):
    """Yield (cell, (first lane, last lane), a, b, is_slide) with lanes and span in driving direction."""
    face = tile.driven
    lanes = max(face.lanes, 1)
    slides = face.slide_ids()
    flip = tile.reversed
    for c in face.all_cells():
        a, b = c.span
        lo, hi = c.lane_range
        if flip:
            a, b = 1.0 - b, 1.0 - a
            lo, hi = (lanes - 1) - hi, (lanes - 1) - lo
        yield c, (lo, hi), a, b, c.id in slides


def _edge_lanes(cells: list, edge_lanes: int | None) -> list:
    """The cells at a tile edge with their lanes counted at that edge.

    Where a road narrows on its tile (three lanes inside, two at the edge), the cells that reach the
    edge are numbered across the edge's own lanes, left to right, so that they meet the next tile's lanes.
    """
    plain = [c for c in cells if not c[2]]
    covered = sorted({lane for _, rng, _ in plain for lane in range(rng[0], rng[1] + 1)})
    if not edge_lanes or not plain or len(covered) == edge_lanes:
        shift = {lane: k for k, lane in enumerate(covered)}
        return [(n, (shift.get(r[0], r[0]), shift.get(r[1], r[1])), s) for n, r, s in cells]
    ranges = sorted({r for _, r, _ in plain})
    if len(ranges) == edge_lanes:
        rank = {r: k for k, r in enumerate(ranges)}
        return [(n, (rank[r], rank[r]) if not s else r, s) for n, r, s in cells]
    return cells


def _climbs(tile: PlacedTile) -> dict[str, str]:
    """Climb marks in driving direction: cell id -> up/down for the cells entered across a marked line.

    A face marks the cell entered across the line when driving from ``ends[0]``; driven the other way the
    same line is crossed into the cell before it, and an ascent becomes a descent.
    """
    face = tile.driven
    marked = [c for c in face.cells or [] if c.climb]
    if not marked:
        return {}
    if not tile.reversed:
        return {c.id: c.climb for c in marked}
    out = {}
    flip = {"up": "down", "down": "up"}
    for m in marked:
        for c in face.cells:
            if c.is_cut or c is m:
                continue
            if abs(c.span[1] - m.span[0]) < EPS and _gap(c.lane_range, m.lane_range) <= 0:
                out[c.id] = flip[m.climb]
    return out


def _gap(la, lb) -> int:
    """Lanes between two lane ranges: 0 when they share a lane, 1 when side by side."""
    return max(la[0], lb[0]) - min(la[1], lb[1])


def _touch(la, lb, sa, sb) -> bool:
    if sa or sb:
        return True
    return _gap(la, lb) <= 1


def _kind(la, lb, sa, sb) -> str:
    if sa or sb:
        return "slide"
    return "straight" if _gap(la, lb) <= 0 else "diagonal"


def _lines(tile: PlacedTile, first: bool, last: bool, lap_end: bool) -> tuple[float | None, float | None]:
    """Where the start and finish lines of a tile are, in driving direction, for its place in the stage."""
    face = tile.driven
    start_line, finish_line = face.start_line, face.finish_line
    if face.role == "start-finish":
        line = start_line if start_line is not None else finish_line
        start_line = line if first and not lap_end else None
        finish_line = line if last or lap_end else None
    elif lap_end and start_line is None:
        return None, 0.0                     # a lap closing on a junction ends as the car comes back onto it
    elif lap_end:
        # A loop that starts on a start tile: the lap ends where it began, on its start line.
        start_line, finish_line = None, start_line
    elif tile.node_index is not None and tile.node_index != tile.index:
        start_line = finish_line = None      # the tiles of a later lap: no line but the lap's own end
    if tile.reversed:
        start_line = None if start_line is None else 1.0 - start_line
        finish_line = None if finish_line is None else 1.0 - finish_line
    return start_line, finish_line


def build_graph(tiles: list[PlacedTile], lap_end: PlacedTile | None = None, laps: int = 1,
                order: list[PlacedTile] | None = None) -> nx.DiGraph:
    """The directed cell graph of tiles in driving order.

    ``lap_end`` closes a circuit: the first tile is driven once more, up to its finish line, as the
    last tile of the last lap. With ``laps`` > 1 the tiles are driven that many times; the cells of
    lap ``k`` (0-based) are named with index ``k * n + i`` for the ``i``-th of ``n`` tiles, and the
    lap end with ``laps * n``. A cell's ``index`` attribute is always the tile's place in the stage.
    ``order`` (with ``lap_end``): the placements of a race as :func:`.circuit.race_order` gives them.
    """
    from designer.systems.dirt.board.tokens import apply_climb_rule, apply_tokens

    g = nx.DiGraph()
    prev_exit: list[tuple[str, tuple[int, int], bool]] = []
    road = [t for t in tiles if t.face.role not in NOT_ROAD and t.face.has_cells]
    n = max((t.index for t in tiles), default=-1) + 1
    sequence = list(tiles) if order is None else list(order)
    for k in range(1, laps if lap_end is not None and order is None else 1):
        sequence += [replace(t, node_index=k * n + t.index) for t in tiles]
    if lap_end is not None:
        sequence.append(lap_end if order is not None else replace(lap_end, node_index=laps * n))
    by_hex: dict[tuple[int, int], list[PlacedTile]] = {}
    for t in tiles:
        by_hex.setdefault(t.hex, []).append(t)
    for tile in sequence:
        face = tile.driven
        if face.role == "assistance" or not face.has_cells or face.cells is None:
            prev_exit = []
            continue
        is_lap_end = lap_end is not None and tile is sequence[-1]
        i = tile.node_index if tile.node_index is not None else tile.index
        cells = list(_oriented(tile))
        climbs = _climbs(tile)
        start_line, finish_line = _lines(tile, bool(road) and tile.index == road[0].index and not tile.node_index,
                                         bool(road) and tile is road[-1] and lap_end is None, is_lap_end)
        for c, lanes, a, b, is_slide in cells:
            node = f"{i}:{c.id}"
            g.add_node(node, index=tile.index, tile=face.id, cell=c.id, lane=lanes[0], width=c.width, a=a, b=b,
                       pos=i + (a + b) / 2.0, limit=c.limit,
                       corner=f"{i}:{c.corner}" if c.corner else None, path=c.path,
                       cut=c.cut, jump=c.jump, ford=c.ford, slide=is_slide, climb=climbs.get(c.id),
                       start=bool(start_line is not None and not c.is_cut and not is_slide
                                  and abs(b - start_line) < EPS),
                       finish=bool(finish_line is not None and not c.is_cut and not is_slide
                                   and abs(a - finish_line) < EPS),
                       danger=face.danger, terrain=face.terrain, road=face.road)
        plain = [(c, lanes, a, b, s) for c, lanes, a, b, s in cells if not c.is_cut]
        apart = {frozenset(pair) for pair in face.apart}     # cells the lanes would join that do not touch
        for cu, lu, au, bu, su in plain:
            for cv, lv, av, bv, sv in plain:
                if cu is cv or not _touch(lu, lv, su, sv) or frozenset((cu.id, cv.id)) in apart:
                    continue
                if cu.corner and cu.corner == cv.corner and cu.path != cv.path:
                    continue
                if av > au + EPS and bv > bu + EPS and av <= bu + EPS:
                    g.add_edge(f"{i}:{cu.id}", f"{i}:{cv.id}", kind=_kind(lu, lv, su, sv))
        # Cuts: linked both ways along the road to the cells they connect (never corner cells).
        by_id = {c.id: (c, lanes, a, b, s) for c, lanes, a, b, s in cells}
        slide_rows = []
        for k, sl in enumerate(face.slides, start=1):
            slide_rows.append((sl.span, f"s{k}a", f"s{k}b"))
        for c, lanes, a, b, _ in cells:
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
        entry_cells = _edge_lanes([(f"{i}:{c.id}", lanes, s) for c, lanes, a, b, s in plain if a < EPS],
                                  tile.face.edges.get(tile.entry) if tile.entry else None)
        for u, lu, su in prev_exit:
            for v, lv, sv in entry_cells:
                if _touch(lu, lv, su, sv):
                    g.add_edge(u, v, kind=_kind(lu, lv, su, sv))
        prev_exit = _edge_lanes([(f"{i}:{c.id}", lanes, s) for c, lanes, a, b, s in plain if b > 1 - EPS],
                                tile.face.edges.get(tile.exit) if tile.exit else None)
        # Tokens of the physical tile (a tile driven twice shares them) change the cells they lie on.
        tokens = [tok for t in by_hex.get(tile.hex, [tile]) if t.face.id == tile.face.id for tok in t.tokens]
        if tokens:
            apply_tokens(g, tile, i, tokens)
    apply_climb_rule(g)
    # A space closed by a token (a chicane) holds no car: the road goes round it.
    g.remove_nodes_from([n for n, closed in g.nodes(data="closed") if closed])
    return g


def analysis_notes(track: Track) -> list[str]:
    """What an analysis of this track leaves out or assumes: laps of a circuit, tokens and climb marks."""
    from designer.systems.dirt.board.tokens import climb_rule

    notes = []
    if track.circuit:
        from designer.systems.dirt.board.tokens import joker_rule
        laps, lap = track.stage.laps, track.lap
        where = (f"onto the loop at {lap.loop[0].tile}, laps counted there" if lap.through_junction
                 else "from the start-finish line")
        notes.append(f"circuit: {laps} lap{'s' if laps != 1 else ''} of one car {where}; several cars on the grid "
                     "are not analysed (RX rules not in our rulebooks)")
        if lap.joker is None:
            notes.append("no joker route is laid (a branch off the lap between two junctions, over tiles listed "
                         "after the lap): every lap drives the same road")
        else:
            k = joker_lap(track.stage, lap)
            rule = joker_rule()
            notes.append(f"joker: {'lap ' + str(k) if k else 'no lap'} driven through the joker route "
                         f"({len(lap.joker.tiles)} tiles); parameter rx_joker: {rule['laps']} joker lap per car "
                         f"({rule['status']}: {rule['source_short']}; `joker_lap:` in the stage picks the lap)")
    log = track.graph.graph.get("tokens", []) if track.has_cells else []
    idle = sorted({e["label"] for e in log if e["effect"] == "none"})
    if idle:
        notes.append(f"tokens kept without effect (rule not in our sources): {', '.join(idle)}")
    acting = [e for e in log if e["effect"] != "none" and e["cell"]]
    if acting:
        notes.append(f"{len(acting)} token(s) act on the cells they lie on (assumed effects, "
                     "tilesets/dirt-token-rules.yaml)")
    if track.has_cells and any(d.get("climb") for _, d in track.graph.nodes(data=True)):
        rule = climb_rule()
        what = ("no effect on the moves" if rule["effect"] == "none"
                else f"cells entered across an ascent mark limited to {rule['up']}, a descent mark to {rule['down']}")
        notes.append(f"climb marks: {what} (assumed: parameter climb_marks in tilesets/dirt-token-rules.yaml)")
    return notes


def lap_end(tiles: list[PlacedTile]) -> PlacedTile | None:
    """The last tile of a lap (:func:`.circuit.find_lap`): its road runs back onto the road already driven,
    into the first tile's entry or into a junction. None when the road never closes: not a circuit."""
    lap = find_lap(tiles)
    return lap.last if lap is not None else None


def closes_lap(tiles: list[PlacedTile]) -> bool:
    """True when the road comes back into the entry of its first tile: a circuit."""
    return lap_end(tiles) is not None


def assemble(stage: Stage, tileset: Tileset) -> Track:
    """Place every tile and build the cell graph. Never raises for a bad stage: see ``errors``."""
    tiles, unknown, errors = place_tiles(stage, tileset)
    track = Track(stage=stage, tileset=tileset, tiles=tiles, unknown=unknown, errors=errors)
    track.lap = find_lap(tiles)
    track.circuit = track.lap is not None
    last = track.lap.last if track.circuit else None
    driven = [t for t in tiles if last is None or t.index <= last.index] + track.joker_tiles()
    contiguous = not unknown and not errors
    if contiguous and all(t.face.has_cells and t.driven.cells is not None for t in driven
                          if t.face.role not in NOT_ROAD):
        if track.circuit:
            track.graph = race_graph(track, driven, joker_lap(stage, track.lap))
        else:
            track.graph = build_graph(driven)
    return track


def joker_lap(stage: Stage, lap) -> int | None:
    """The lap driven through the joker: the stage's ``joker_lap`` (0: none), else the last lap when the
    circuit has a joker route and the rule asks for one (:func:`.tokens.joker_rule`)."""
    if lap is None or lap.joker is None:
        return None
    if stage.joker_lap is not None:
        return min(stage.joker_lap, stage.laps) or None
    from designer.systems.dirt.board.tokens import joker_rule
    return stage.laps if joker_rule()["laps"] else None


def race_graph(track: Track, tiles: list[PlacedTile], joker: int | None, laps: int | None = None) -> nx.DiGraph:
    """The cell graph of a circuit's race: ``laps`` (the stage's by default), the joker on lap ``joker``."""
    laps = laps or track.stage.laps
    order, end = race_order(track.lap, tiles, laps, joker)
    if not track.lap.through_junction and joker is None:
        return build_graph([t for t in tiles if t.index <= track.lap.last.index], end, laps=laps)
    return build_graph(tiles, end, laps=laps, order=order)


def load_track(stage: Stage, near=None) -> Track:
    from designer.systems.dirt.board.tileset import get_tileset
    return assemble(stage, get_tileset(stage.tileset, near))
