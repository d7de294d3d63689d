"""Laying a tile at a free place: beside any road end that meets no tile, not only at the open end.

An RX circuit is built this way: the lap, then the joker route off a junction's other road end, or a loop
brought back onto a junction. :func:`free_places` lists the road ends a tile can be laid at;
:func:`lay_at` lays a face there (its position and rotation written on the placement, listed after the
other tiles), so that the next tiles added at the open end carry on from it. Pure functions: each returns a
new stage; nothing is written anywhere.
"""
from __future__ import annotations

from dataclasses import dataclass

from designer.core import hexgrid
from designer.systems.dirt.board.stage import Placement, Stage
from designer.systems.dirt.board.tileset import Tileset


@dataclass(frozen=True)
class FreePlace:
    index: int                 # the tile whose road end it is (0-based place in the stage)
    tile: str
    edge: str                  # that tile's local edge
    hex: tuple[int, int]       # the free place beside it
    arrive: str                # the world edge of the free place the road arrives by

    @property
    def key(self) -> str:
        return f"{self.index}:{self.edge}"

    def label(self) -> str:
        return f"beside tile {self.index + 1} ({self.tile}), edge {self.edge}"


def free_places(stage: Stage, tileset: Tileset) -> list[FreePlace]:
    """Every road end of a laid tile whose neighbouring place is empty, in stage order (a junction's branch
    the stage does not drive included)."""
    from designer.systems.dirt.board.track import place_tiles

    placed, _unknown, _errors = place_tiles(stage, tileset)
    taken = {t.hex for t in placed}
    out, seen = [], set()
    for t in placed:
        if t.face.role in ("assistance", "pit", "filler"):
            continue
        for edge in sorted(t.face.edges):
            world = hexgrid.rotate_edge(edge, t.rotation)
            nb = hexgrid.neighbour(t.hex, world)
            if nb in taken or (t.hex, edge) in seen:
                continue
            seen.add((t.hex, edge))
            out.append(FreePlace(t.index, t.tile, edge, nb, hexgrid.opposite(world)))
    return out


def find_place(stage: Stage, tileset: Tileset, key: str | None) -> FreePlace | None:
    return next((p for p in free_places(stage, tileset) if p.key == key), None)


def lay_at(stage: Stage, tileset: Tileset, place: FreePlace, tile_id: str, entry: str,
           exit_: str | None = None) -> Stage:
    """The stage with ``tile_id`` laid at a free place, its road entering by ``entry`` from the road end there.

    The tile is listed last with its position and rotation; where its road meets another road (a junction's
    end, the start of a lap), the assembly joins them (a lap closing through a junction, a joker route)."""
    face = tileset.face(tile_id)
    if entry not in face.edges:
        raise ValueError(f"{face.id} has no road on edge {entry}")
    rotation = (hexgrid.edge_index(place.arrive) - hexgrid.edge_index(entry)) % 6
    tiles = list(stage.tiles) + [Placement(tile=face.id, entry=entry, exit=exit_, at=place.hex, rotation=rotation)]
    return stage.with_tiles(tiles)
