"""The driving order of tiles laid at positions (an imported layout): the reverse of placing a stage.

:func:`driving_order` walks the road from tile to tile; :mod:`designer.systems.dirt.board.track` gives it with
the tile placing it scores its walks with.
"""
from __future__ import annotations

from designer.core import hexgrid
from designer.systems.dirt.board.stage import Placement
from designer.systems.dirt.board.tileset import Tileset


def driving_order(placements: list[tuple[str, tuple[int, int], int]], tileset: Tileset,
                  place=None) -> list[Placement]:
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
    first = (starts or ends or known or [None])[0]
    h = first
    entry = None
    if h is not None:
        opens = open_edges(h)
        face = tileset.face(by_hex[h][0])
        entry = opens[0] if opens else (sorted(face.edges)[0] if face.edges else None)
    def road_key(h, edge):
        face = tileset.face(by_hex[h][0])
        if not face.roads or face.kind != "two roads":
            return None             # only roads that share no edge can both be driven
        road = next((r for r in face.road_faces() if edge in (r.ends or [])), None)
        return frozenset(road.ends) if road is not None else None

    start, start_entry = h, entry
    best: tuple | None = None
    tried, queue = set(), [()]
    while queue and len(tried) < MAX_WALKS:       # junctions: try each way on, keep the walk that goes furthest
        choices = queue.pop(0)
        if choices in tried:
            continue
        tried.add(choices)
        order_k, seen_k, forks = _walk(start, start_entry, dict(choices), by_hex, tileset, free_key=road_key)
        order_k = _with_rest(order_k, seen_k, by_hex, tileset)
        score = _score(order_k, tileset, place)
        if best is None or score > best[0]:
            best = (score, order_k)
        if len(forks) and len(tried) == 1 and score[0] and score[1] and not score[2]:
            break                           # the first walk is a whole circuit with its joker: keep it
        queue += [choices + ((fork, e),) for fork, alternatives in forks for e in alternatives
                  if fork not in dict(choices)]
    return best[1] if best else []


def _with_rest(order: list[Placement], seen: set, by_hex: dict, tileset: Tileset) -> list[Placement]:
    """The walk, then the tiles it never reached with their places (nothing is lost)."""
    order = list(order)
    for h2, (tile, rot) in by_hex.items():
        if h2 not in seen:
            face = tileset.face(tile) if tile in tileset else None
            entry2 = None
            if face is not None and face.role == "assistance" and face.edges:
                entry2 = sorted(face.edges)[0]
            order.append(Placement(tile=tile, at=h2, rotation=rot, entry=entry2))
    return order


def _score(order: list[Placement], tileset: Tileset, place) -> tuple:
    """How good a walk is: it closes a lap, the tiles after it make a joker route, few tiles are left over,
    and a long road (the first walk wins a tie). ``place``: :func:`.track.place_tiles` (passed in, as the
    assembly imports this module); without it, only the length of the road counts."""
    from designer.systems.dirt.board.circuit import NOT_ROAD, find_lap
    from designer.systems.dirt.board.stage import Stage

    if place is None:
        return (False, False, 0, sum(1 for p in order if p.at is None or p.entry is not None))
    placed, _unknown, _errors = place(Stage(tiles=order), tileset)
    lap = find_lap(placed)
    road = [t for t in placed if t.face.role not in NOT_ROAD]
    if lap is None:
        driven = sum(1 for p in order if p.at is None or p.entry is not None)
        return (False, False, -len(road), driven)
    left = len(road) - len(lap.spur) - len(lap.loop) - (len(lap.joker.tiles) if lap.joker else 0)
    return (True, lap.joker is not None, -left, len(lap.loop))


MAX_WALKS = 64          # walks tried at most (each junction met doubles them; RX layouts have a few)


def _walk(h, entry, choices: dict, by_hex: dict, tileset: Tileset, free_key) -> tuple[list, set, list]:
    """One walk of the road from ``h`` entered by ``entry``; at a junction the exit ``choices`` names for
    ``(hex, entry)``, else the first that leads on. Returns the placements, the places seen and the forks met
    (``((hex, entry), other exits)``)."""
    order: list[Placement] = []
    seen: set = set()
    driven: set = set()     # (hex, road): a tile with several roads may be driven once on each
    forks: list = []

    def free(h, edge):
        if h not in seen:
            return True
        key = free_key(h, edge)
        return key is not None and (h, key) not in driven

    while h is not None and entry is not None and free(h, entry):
        seen.add(h)
        tile, rot = by_hex[h]
        face = tileset.face(tile)
        exits = face.exit_for(entry)
        if (h, entry) in choices and choices[(h, entry)] in exits:
            exits = [choices[(h, entry)]] + [e for e in exits if e != choices[(h, entry)]]
        exit_ = None
        nxt = None
        for e in exits:
            w = hexgrid.rotate_edge(e, rot)
            nb = hexgrid.neighbour(h, w)
            if nb in by_hex and by_hex[nb][0] in tileset:
                nentry = hexgrid.unrotate_edge(hexgrid.opposite(w), by_hex[nb][1])
                if free(nb, nentry) and (nb, free_key(nb, nentry)) not in driven and nb != h:
                    exit_, nxt = e, nb
                    break
        if len(exits) > 1 and (h, entry) not in choices:
            forks.append(((h, entry), [e for e in exits if e != exit_]))
        if exit_ is None and exits:
            exit_ = exits[0]
        if face.roads and exit_ is not None:
            driven.add((h, frozenset((entry, exit_))))
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
    return order, seen, forks
