"""Stage validation: a list of problems, never an exception for a bad stage.

>>> from designer.systems.dirt.board.stage import Stage
>>> from designer.systems.dirt.board.tileset import get_tileset
>>> s = Stage(tiles=["202a A", "205a D", "203a A"])
>>> is_valid(s, get_tileset("dirt-core"))
True
>>> explain(Stage(tiles=["202a A", "999z D"]), get_tileset("dirt-core"))
'tile 2 (999z): unknown tile 999z ...'
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Literal

import networkx as nx

from designer.core import hexgrid
from designer.systems.dirt.board.stage import Stage
from designer.systems.dirt.board.tileset import Tileset
from designer.systems.dirt.board.track import NOT_ROAD, PlacedTile, Track, assemble

Severity = Literal["error", "warning", "info"]

# Rulebook p. 3 ("Quelques conseils", 4 players): short 10 tiles / 25 min, medium 14 / 35, long 18 / 45.
RULEBOOK_SIZES = ((10, "short", 25), (14, "medium", 35), (18, "long", 45))
# Tile size: the distance between two opposite flat sides of a DIRT tile. Not stated by the rulebook or
# the reference facts: an assumed value; measure your own tiles and pass tile_cm to footprint().
TILE_FLAT_TO_FLAT_CM = 20.0
# Below / above these counts a warning is given; the rulebook's own example stages have 9 to 14 road tiles.
SHORTEST_ADVISED = 8
LONGEST_ADVISED = 20


@dataclass(frozen=True)
class Problem:
    code: str
    severity: Severity
    message: str
    hint: str = ""
    tile: int | None = None       # 0-based index in the stage's tile list
    tile_id: str | None = None

    @property
    def where(self) -> str:
        if self.tile is None:
            return "stage"
        return f"tile {self.tile + 1} ({self.tile_id})"

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}"
        return text + (f" (hint: {self.hint})" if self.hint else "")

    def to_dict(self) -> dict:
        d = asdict(self)
        d["where"] = self.where
        return d


def validate(stage: Stage, tileset: Tileset, track: Track | None = None) -> list[Problem]:
    """Every problem of a stage, errors first. ``track`` may be passed when already assembled."""
    track = track or assemble(stage, tileset)
    out: list[Problem] = []
    add = out.append
    n = len(stage.tiles)
    if n == 0:
        add(Problem("empty", "error", "the stage has no tiles",
                    "start with a start tile such as 202a and add tiles at the open end"))
        return out
    for i, tid in track.unknown:
        add(Problem("unknown-tile", "error", f"unknown tile {tid} in tileset {tileset.name}",
                    _unknown_hint(tid, tileset), i, tid))
    for i, msg in track.errors:
        add(Problem("bad-edge", "error", msg, "write the edge the road enters by, e.g. `210b C`",
                    i, stage.tiles[i].tile))
    # Tile numbers: the box holds one of each number, both faces cannot be used together. A face with
    # several roads may be driven twice (two roads of one tile on the table): same place, same turn.
    twice = _driven_twice(track)
    numbers: dict[str, list[int]] = {}
    for i, p in enumerate(stage.tiles):
        numbers.setdefault(p.tile[:3], []).append(i)
    copies = getattr(stage, "copies", 1) or 1          # sets of tiles the builder owns (two boxes: 2)
    for num, idx in numbers.items():
        laid = [i for i in idx if i not in twice]          # tiles on the table (a second road of one tile is not)
        if len(laid) > copies:
            faces = {stage.tiles[i].tile for i in laid}
            if copies > 1:
                msg = f"tile {num} is used {len(laid)} times; the stage is built with {copies} copies of each tile"
            elif len(faces) > 1:
                msg = (f"both faces of tile {num} are used ({', '.join(sorted(faces))}): a tile has one face up, "
                       f"so the layout needs {len(laid)} copies of tile {num}")
            else:
                msg = f"tile {stage.tiles[idx[0]].tile} is used {len(laid)} times; the box holds one tile {num}"
            box = next((name for name, test in EDITIONS if num.isdigit() and test(int(num))), "box")
            for i in laid[copies:]:
                hint = (f"replace it with another tile of the same shape, or set `copies: {len(laid)}` in the stage "
                        f"when {len(laid)} sets of the {box} tiles are on the table")
                if len(faces) == 1 and tileset.face(stage.tiles[i].tile).roads if stage.tiles[i].tile in tileset else False:
                    hint = ("to drive another road of the same tile, put it on the same place with the same turn "
                            "and enter it by an edge of that other road")
                add(Problem("tile-reused", "error", msg, hint, i, stage.tiles[i].tile))
    # Two tiles on one hex.
    seen: dict[tuple[int, int], int] = {}
    for t in track.tiles:
        if t.hex in seen and t.index not in twice:
            j = seen[t.hex]
            add(Problem("overlap", "error", f"sits on the same place as tile {j + 1} ({stage.tiles[j].tile})",
                        "drive a tile the other way or choose a curve turning the other way",
                        t.index, t.tile))
        else:
            seen.setdefault(t.hex, t.index)
    by_hex: dict[tuple[int, int], PlacedTile] = {}
    driven_on: dict[tuple[int, int], set[str]] = {}
    indices: dict[tuple[int, int], list[int]] = {}
    exits_on: dict[tuple[int, int], set[str]] = {}
    for t in track.tiles:
        if t.index not in twice:
            by_hex[t.hex] = t
        driven_on.setdefault(t.hex, set()).update(e for e in (t.entry, t.exit) if e)
        if t.exit:
            exits_on.setdefault(t.hex, set()).add(t.exit)
        if t.index in twice:
            indices.setdefault(t.hex, []).append(t.index)
    closing = _closing_pairs(track)
    off_lap = {t.index for t in track.off_lap()}
    for t in track.joker_tiles():
        driven_on.setdefault(t.hex, set()).update((t.entry, t.exit))
    if track.circuit and track.lap.joker is not None:
        j = track.lap.joker
        driven_on[track.lap.loop[j.start].hex].add(j.leave_edge)
        driven_on[track.lap.loop[j.end].hex].add(j.join_edge)
    open_start = not track.circuit or track.lap.through_junction
    # Road edges that meet nothing, a tile's side, or a road of another width.
    for t in track.tiles:
        if t.index in twice:
            continue            # the second drive of a tile: its edges are checked with the first
        for local, lanes in t.face.edges.items():
            w = hexgrid.rotate_edge(local, t.rotation)
            nb = by_hex.get(hexgrid.neighbour(t.hex, w))
            on_route = local in driven_on.get(t.hex, set()) and t.index not in off_lap
            is_stage_start = t.index == track.tiles[0].index and local == t.entry and open_start
            if nb is None:
                if is_stage_start or t.face.role in ("finish", "start-finish") and local == t.exit:
                    continue
                if t.face.role in NOT_ROAD:
                    continue
                if not on_route and len(t.face.links) > 1:
                    add(Problem("unused-road-end", "info",
                                f"{t.tile} has a road end on edge {local} that this stage does not drive",
                                "leave it open, or close it with another tile", t.index, t.tile))
                    continue
                add(Problem("open-road", "error" if on_route else "warning",
                            f"the road on edge {local} leads off the stage",
                            "add a tile there, or end the stage with a finish tile (203)" if not track.circuit
                            else "add a tile there to keep the circuit closed", t.index, t.tile))
                continue
            back = hexgrid.opposite(w)
            nb_local = hexgrid.unrotate_edge(back, nb.rotation)
            if nb.face.role in NOT_ROAD or t.face.role in NOT_ROAD:
                continue
            open_end = is_stage_start or (t.face.role in ("finish", "start-finish") and local == t.exit
                                          and not track.circuit)
            if nb_local not in nb.face.edges:
                if open_end or not on_route:
                    continue  # the stage's own open end may touch a tile's side (seen in official layouts)
                add(Problem("road-into-side", "error",
                            f"the road on edge {local} runs into the side of tile {nb.index + 1} ({nb.tile})",
                            "turn or replace one of the two tiles so that roads meet roads", t.index, t.tile))
            elif nb.face.edges[nb_local] != lanes and t.index < nb.index:
                add(Problem("lanes-mismatch", "error",
                            f"{lanes} lanes meet {nb.face.edges[nb_local]} lanes of tile {nb.index + 1} ({nb.tile})",
                            "join roads of the same width", t.index, t.tile))
            elif (on_route and not _next_to([t.index] + indices.get(t.hex, []), [nb.index] + indices.get(nb.hex, []))
                  and frozenset((t.index, nb.index)) not in closing
                  and ((nb_local in driven_on.get(nb.hex, set()) and t.index < nb.index)
                       or (local in exits_on.get(t.hex, set()) and nb_local not in driven_on.get(nb.hex, set())))
                  and not (t.face.role == "assistance" or nb.face.role == "assistance")):
                add(Problem("road-crossing", "error",
                            f"the road meets tile {nb.index + 1} ({nb.tile}), which is not the next tile",
                            "the road must be one path from start to finish", t.index, t.tile))
    # Start and finish.
    road = track.lap_tiles
    for t in track.off_lap():
        add(Problem("off-lap", "info", f"{t.tile} is placed after the lap closes: it is not driven (a joker "
                                       "route? the RX joker-lap rules are not in our rulebooks)",
                    "leave it for the table, or remove it", t.index, t.tile))
    if road:
        first, last = road[0], road[-1]
        if first.face.role not in ("start", "start-finish"):
            add(Problem("no-start", "error", f"the stage starts with {first.tile}, not a start tile",
                        "put a start tile (202a or 202b) first" if not track.circuit else
                        "a circuit starts and ends on a start-finish tile (401a or 401b): put it first",
                        first.index, first.tile))
        if track.circuit:
            laps = f"the analysis drives {stage.laps} lap{'s' if stage.laps != 1 else ''} (`laps:` in the stage)"
            lap = track.lap
            if lap.through_junction:
                add(Problem("circuit", "info", f"a circuit: {len(lap.spur)} tile(s) from the grid onto a lap of "
                                               f"{len(lap.loop)} tiles that closes through the junction "
                                               f"{lap.closing.tile} (entered on {lap.closing.entry}); a lap ends "
                                               "as the car comes back onto it", laps))
            elif first.face.role in ("start-finish", "start"):
                add(Problem("circuit", "info", f"a circuit of {len(road)} tiles: the road closes on "
                                               f"{first.tile}, whose line is the start and the finish"
                                               + (" of each lap" if first.face.role == "start" else ""), laps))
            if lap.joker is not None:
                from designer.systems.dirt.board.tokens import joker_rule
                from designer.systems.dirt.board.track import joker_lap
                k = joker_lap(stage, lap)
                add(Problem("joker", "info", f"a joker route of {len(lap.joker.tiles)} tile(s) from "
                                             f"{lap.loop[lap.joker.start].tile} to {lap.loop[lap.joker.end].tile}: "
                                             f"{'lap ' + str(k) if k else 'no lap'} is driven through it "
                                             f"(parameter rx_joker: {joker_rule()['laps']} joker lap per car, "
                                             f"{joker_rule()['status']})",
                            "`joker_lap: N` in the stage picks the lap (0: none); the rule is in "
                            "tilesets/dirt-token-rules.yaml"))
                if stage.joker_lap and stage.joker_lap > stage.laps:
                    add(Problem("joker-lap", "warning", f"joker_lap: {stage.joker_lap} but the race has "
                                f"{stage.laps} lap(s): lap {k} is driven through the joker",
                                f"write `joker_lap:` between 0 and {stage.laps}, or more `laps:`"))
        elif last.face.role not in ("finish", "start-finish"):
            hint = "end the stage with a finish tile (203a or 203b)"
            if first.face.role == "start-finish":
                hint = ("a circuit's road comes back into its start-finish tile: lay the last tile so that it "
                        "meets the edge the road leaves the start by, or end with a finish tile")
            add(Problem("no-finish", "error", f"the stage ends with {last.tile}, not a finish tile",
                        hint, last.index, last.tile))
        for t in road[1:-1]:
            if t.face.role in ("start", "finish"):
                add(Problem("start-finish-inside", "error", f"{t.tile} is a {t.face.role} tile in the middle of the stage",
                            "start and finish tiles belong at the two ends", t.index, t.tile))
    for i, p in enumerate(stage.tiles):
        tid = p.tile
        if tid in tileset and tileset.face(tid).role == "assistance":
            # Fillers, the podium and the pit tile may lie anywhere; a road tile after 201 may not.
            later = [q.tile for q in stage.tiles[i + 1:] if q.tile not in tileset
                     or tileset.face(q.tile).role not in NOT_ROAD]
            if later:
                add(Problem("assistance-inside", "error", "the assistance tile can only follow the finish",
                            "move 201 after the finish tile", i, tid))
    # The road must be one path (cell level, when the cells are known).
    if track.has_cells:
        starts, finishes = track.start_cells(), track.finish_cells()
        if starts and finishes:
            reach = set()
            for s in starts:
                reach |= nx.descendants(track.graph, s) | {s}
            if not reach.intersection(finishes):
                add(Problem("no-path", "error", "no legal line leads from the start to the finish",
                            "look for a tile driven the wrong way"))
    # Rulebook guidance on size.
    count = len(road)
    if road and not any(p.severity == "error" for p in out):
        if count < SHORTEST_ADVISED:
            add(Problem("short-stage", "warning",
                        f"{count} tiles: much shorter than the rulebook's short stage (10 tiles, about 25 min for 4 players)",
                        "fine for a test drive; add tiles for a full stage"))
        elif count > LONGEST_ADVISED:
            add(Problem("long-stage", "warning",
                        f"{count} tiles: longer than the rulebook's long stage (18 tiles, about 45 min for 4 players)",
                        "consider splitting it into two stages"))
        else:
            label = min(RULEBOOK_SIZES, key=lambda s: abs(s[0] - count))
            add(Problem("stage-size", "info",
                        f"{count} tiles: close to the rulebook's {label[1]} stage ({label[0]} tiles, about {label[2]} min for 4 players)"))
    missing = track.missing_cells()
    if missing and not track.unknown:
        from designer.systems.dirt.board.cellless import missing_text, supply_hint

        faces = list({t.tile: t.face for t in missing}.values())
        ids = ", ".join(sorted(f.id for f in faces))
        add(Problem("no-cells", "info", f"faces without a cell graph: {ids}; lines and timing are not available: "
                    + missing_text(sorted(faces, key=lambda f: f.id)), supply_hint(stage.tileset)))
    out += _token_problems(track)
    unread = [line for line in (stage.notes or "").splitlines() if line.startswith("- tile ")]
    if UNREAD_TOKENS in (stage.notes or "") and unread:
        add(Problem("tokens-unread", "warning", f"the imported file carried tokens this designer does not know: "
                    f"{'; '.join(x[2:] for x in unread)}", "they are kept in the stage notes only"))
    if track.unknown or track.errors:
        # a tile that cannot be laid leaves a gap: the road problems around it follow from it, so they say so
        # and the cause comes first
        first = min(i for i, _ in list(track.unknown) + list(track.errors))
        out = [replace(p, hint=(p.hint + "; " if p.hint else "") + f"it may only follow from tile {first + 1}: "
                                                                   "fix that tile first")
               if _may_follow(p, first) else p for p in out]
    order = {"error": 0, "warning": 1, "info": 2}
    out.sort(key=lambda p: (order[p.severity], p.code not in _CAUSES, p.tile if p.tile is not None else -1))
    return out


_CAUSES = ("empty", "unknown-tile", "bad-edge")     # problems of the input itself, listed before what follows


def _may_follow(p: Problem, first: int) -> bool:
    """Whether a road error can come from the gap a tile that cannot be laid leaves at ``first``: one about the
    stage as a whole or about a tile from just before the gap on (a missing start cannot)."""
    return (p.severity == "error" and p.code not in _CAUSES and p.code != "no-start"
            and (p.tile is None or p.tile >= first - 1))


UNREAD_TOKENS = "Tokens in the file with ids this designer does not know"


def _driven_twice(track: Track) -> set[int]:
    """Indices of placements that drive another road of a tile already placed (same place, face and turn)."""
    first: dict[tuple[int, int], PlacedTile] = {}
    out = set()
    for t in track.tiles:
        f = first.get(t.hex)
        if f is None:
            first[t.hex] = t
            continue
        if (f.face.id == t.face.id and f.rotation == t.rotation and len(t.face.links) > 1
                and {f.entry, f.exit} != {t.entry, t.exit} and t.exit is not None):
            out.add(t.index)
    return out


def _next_to(a: list[int], b: list[int]) -> bool:
    """True when some placement of one place comes right before or after some placement of the other."""
    return any(abs(i - j) == 1 for i in a for j in b)


def _closing_pairs(track: Track) -> set[frozenset]:
    """Tiles that meet without following each other in the stage's list: where a lap closes, and the joker
    route with the two junctions it leaves and joins."""
    if not track.circuit:
        return set()
    lap = track.lap
    out = {frozenset((lap.closing.index, lap.last.index))}
    if lap.joker is not None:
        chain = [lap.loop[lap.joker.start], *lap.joker.tiles, lap.loop[lap.joker.end]]
        out |= {frozenset((a.index, b.index)) for a, b in zip(chain, chain[1:])}
    return out


def _token_problems(track: Track) -> list[Problem]:
    """Tokens that lie on no space of the road driven, and tokens that do not act in the analysis."""
    out = []
    log = track.graph.graph.get("tokens", []) if track.has_cells else []
    placed = {e["token"] for e in log if e["cell"] is not None}
    seen = set()
    for e in log:
        if e["token"] in seen:
            continue                  # a tile driven twice: one report per token
        seen.add(e["token"])
        if e["cell"] is None and e["effect"] != "none" and e["token"] not in placed:
            out.append(Problem("token-off-road", "warning", f"the {e['label']} token lies on no space of the road driven",
                               "move it onto the road (name its cell) or remove it", e["tile"], e["tile_id"]))
        elif e["effect"] == "none":
            out.append(Problem("token-not-modelled", "info",
                               f"the {e['label']} token is kept and drawn but does not act in the analysis "
                               "(its rule is not in our sources)", "see tilesets/dirt-token-rules.yaml",
                               e["tile"], e["tile_id"]))
    if not track.has_cells:
        for t in track.tiles:
            for tok in t.tokens:
                out.append(Problem("token-kept", "info", f"the {tok.label()} token is kept; it acts once every "
                                   "tile has cells", "", t.index, t.tile))
    return out


def _unknown_hint(tid: str, tileset: Tileset) -> str:
    num = tid[:3]
    near = sorted(t for t in tileset.tiles if t.startswith(num))
    if near:
        return f"tile {num} exists as {', '.join(near)}"
    return "run `rally-designer tiles` for the list of faces"


def errors(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if p.severity == "error"]


def is_valid(stage: Stage, tileset: Tileset) -> bool:
    """True when the stage has no error (warnings and notes allowed)."""
    return not errors(validate(stage, tileset))


def explain(stage: Stage, tileset: Tileset) -> str:
    """The reason a stage is not valid, in one line per error; ``'Valid stage'`` otherwise."""
    errs = errors(validate(stage, tileset))
    if not errs:
        return "Valid stage"
    return "; ".join(f"{p.where}: {p.message} ..." if i == 0 and len(errs) == 1 else f"{p.where}: {p.message}"
                     for i, p in enumerate(errs))


# -- footprint ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Footprint:
    tiles: int
    area_tiles: float
    width_cm: float
    height_cm: float
    tile_cm: float

    def to_dict(self) -> dict:
        return asdict(self)


def footprint(track: Track, tile_cm: float = TILE_FLAT_TO_FLAT_CM) -> Footprint:
    """Table space the stage needs: the union of the tile hexagons (shapely) and its bounding box.

    ``tile_cm`` is the distance between opposite flat sides of one tile.
    """
    size = 1.0  # circumradius; flat-to-flat = sqrt(3) * size
    from shapely.geometry import Polygon          # imported here: validation alone does not need it
    from shapely.ops import unary_union

    polys = [Polygon(hexgrid.corners(size, hexgrid.to_pixel(h, size))) for h in {t.hex for t in track.tiles}]
    if not polys:
        return Footprint(0, 0.0, 0.0, 0.0, tile_cm)
    union = unary_union(polys)
    one = polys[0].area
    minx, miny, maxx, maxy = union.bounds
    scale = tile_cm / (hexgrid.SQRT3 * size)
    return Footprint(tiles=len(polys), area_tiles=round(union.area / one, 3),
                     width_cm=round((maxx - minx) * scale, 1), height_cm=round((maxy - miny) * scale, 1),
                     tile_cm=tile_cm)


EDITIONS = (
    ("GT Core Box", lambda n: 101 <= n <= 120),
    ("GT Championship", lambda n: 121 <= n <= 130),
    ("GT World Tour", lambda n: 131 <= n <= 138),
    ("GT Team Challenge", lambda n: 139 <= n <= 150),
    ("GT Adrenaline Pack", lambda n: 151 <= n <= 154 or n == 901),
    ("DIRT Core Box", lambda n: 201 <= n <= 232),
    ("DIRT Monte Carlo (or 110%)", lambda n: 301 <= n <= 324 or n in (416, 417)),
    ("DIRT RX", lambda n: 401 <= n <= 415),
    ("DIRT Climb", lambda n: n in (325, 326, 418, 419)),
    ("DIRT Copilot Pack", lambda n: 902 <= n <= 905),
)


def boxes_needed(stage: Stage) -> list[str]:
    """Which boxes hold the tiles of a stage (editions table of the reference facts, section 2)."""
    out = []
    for p in stage.tiles:
        try:
            n = int(p.tile[:3])
        except ValueError:
            continue
        for name, test in EDITIONS:
            if test(n) and name not in out:
                out.append(name)
    for p in stage.tiles:                   # the boxes the tokens come in [rekee src/token.rs, editions()]
        for tok in getattr(p, "tokens", None) or ():
            name = TOKEN_BOXES.get(tok.kind)
            if name and name not in out:
                out.append(name)
    return out


TOKEN_BOXES = {**{k: "DIRT Copilot Pack (or Monte Carlo) tokens" for k in ("chicane", "chicane-limit", "water",
                                                                            "jump")},
               **{k: "DIRT Climb" for k in ("climb-ascent", "climb-descent", "cloud", "oxygen")},
               **{k: "DIRT RX" for k in ("joker-entrance", "joker-exit", "finish")}, "mud-spray": "DIRT Core Box"}
