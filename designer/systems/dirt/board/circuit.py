"""Circuits: where a lap closes, the joker route, and the order in which a race drives the tiles.

A lap closes where the road comes back onto a tile it has already driven and carries on along the same road:

- into the entry of its first tile (a start-finish tile 401 laid on the loop): the line printed on the tile is
  the start and the finish;
- into another road end of a junction face the road drove earlier (404a, 408a...: two roads merging into one
  exit): the tiles before that junction are the way from the grid onto the loop (driven once, on the first lap),
  and a lap ends where the car comes back onto the junction.

The joker (RX): a branch that leaves the lap at a junction and comes back onto it at a later junction, over tiles
laid after the lap closes. Each car drives it instead of that stretch of the lap on one lap of the race
(:func:`joker_rule`: the number of joker laps, a documented parameter, since our rulebooks have no RX rules).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from designer.core import hexgrid

NOT_ROAD = ("assistance", "pit", "filler")


@dataclass(frozen=True)
class Joker:
    start: int            # place in the loop of the junction the joker leaves by
    end: int              # place in the loop of the junction it comes back onto
    tiles: tuple          # the joker's own tiles (PlacedTile), oriented in driving order
    leave_edge: str       # the local edge of the first junction the joker leaves by
    join_edge: str        # the local edge of the second junction it comes back by


@dataclass(frozen=True)
class Lap:
    spur: tuple           # tiles from the grid onto the loop (empty when the loop closes on the first tile)
    loop: tuple           # one lap, from the tile where the lap closes
    closing: object       # that tile as it is entered when the lap comes round (PlacedTile)
    joker: Joker | None = None

    @property
    def through_junction(self) -> bool:
        return bool(self.spur) or self.closing.entry != self.loop[0].entry

    @property
    def last(self):
        return self.loop[-1]


def _road(face, entry, exit_):
    return face.road_between(entry, exit_) if face.roads else None


def find_lap(tiles: list) -> Lap | None:
    """The lap of a circuit laid in driving order, or None when the road never closes on itself."""
    road = [t for t in tiles if t.face.role not in NOT_ROAD]
    if len(road) < 3 or not road[0].world_entry:
        return None
    for pos in range(2, len(road)):
        t = road[pos]
        if not t.world_exit:
            continue
        nb, back = hexgrid.neighbour(t.hex, t.world_exit), hexgrid.opposite(t.world_exit)
        for j, jt in enumerate(road[:pos - 1]):
            if jt.hex != nb:
                continue
            local = hexgrid.unrotate_edge(back, jt.rotation)
            if local == jt.entry:
                closing = jt
            elif (j > 0 or jt.face.role not in ("start", "start-finish")) and jt.exit and local != jt.exit \
                    and jt.entry and jt.face.road_between(local, jt.exit) is not None:
                closing = replace(jt, entry=local, road=_road(jt.face, local, jt.exit))
            else:
                continue
            lap = Lap(spur=tuple(road[:j]), loop=tuple(road[j:pos + 1]), closing=closing)
            return replace(lap, joker=find_joker(road, lap))
    return None


def find_joker(road: list, lap: Lap) -> Joker | None:
    """A branch off the lap at a junction, over tiles laid after the lap, back onto the lap further on."""
    last = lap.last.index
    spare = {t.hex: t for t in road if t.index > last}
    where = {}
    for k, t in enumerate(lap.loop):
        where.setdefault(t.hex, k)
    for kx, x in enumerate(lap.loop):
        if not x.entry:
            continue
        for edge in x.face.exit_for(x.entry):
            if edge == x.exit:
                continue
            found = _follow(x, edge, spare, where, lap, kx)
            if found is not None:
                return found
    return None


def _follow(x, edge: str, spare: dict, where: dict, lap: Lap, kx: int) -> Joker | None:
    here, out = x.hex, hexgrid.rotate_edge(edge, x.rotation)
    path, used = [], set()
    for _ in range(len(spare) + 1):
        nxt, arrive = hexgrid.neighbour(here, out), hexgrid.opposite(out)
        if nxt in spare and nxt not in used:
            t = spare[nxt]
            entry = hexgrid.unrotate_edge(arrive, t.rotation)
            exits = t.face.exit_for(entry)
            if len(exits) != 1:
                return None
            path.append(replace(t, entry=entry, exit=exits[0], road=_road(t.face, entry, exits[0])))
            used.add(nxt)
            here, out = nxt, hexgrid.rotate_edge(exits[0], t.rotation)
            continue
        if nxt in where and path:
            ky = where[nxt]
            y = lap.loop[ky]
            join = hexgrid.unrotate_edge(arrive, y.rotation)
            if ky > kx and y.exit and join != y.entry and y.face.road_between(join, y.exit) is not None:
                return Joker(start=kx, end=ky, tiles=tuple(path), leave_edge=edge, join_edge=join)
        return None
    return None


def race_order(lap: Lap, tiles: list, laps: int, joker_lap: int | None) -> tuple[list, object]:
    """The placements a race drives, in order, and the lap end (the placement whose entry or printed line is the
    finish). ``joker_lap``: the lap (1-based) driven through the joker, None or 0 for none.

    Each placement's ``node_index`` (the prefix of its cell names) is its place in the race, so that cell
    positions grow along the road; its ``index`` stays its place in the stage."""
    order = list(lap.spur)
    for k in range(laps):
        body = list(lap.loop) if k == 0 else [lap.closing] + list(lap.loop[1:])
        j = lap.joker
        if j is not None and joker_lap == k + 1:
            x, y = body[j.start], body[j.end]
            leave = replace(x, exit=j.leave_edge, road=_road(x.face, x.entry, j.leave_edge))
            join = replace(y, entry=j.join_edge, road=_road(y.face, j.join_edge, y.exit))
            body = body[:j.start] + [leave, *j.tiles, join] + body[j.end + 1:]
        order += body
    order = [replace(t, node_index=k) for k, t in enumerate(order)]
    return order, replace(lap.closing, node_index=len(order))

