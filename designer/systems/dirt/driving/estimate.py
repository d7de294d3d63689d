"""How long a stage is: in cells, in game time (time cards) and in minutes at the table.

Table time, a simple model fitted once on the rulebook's guidance (p. 4 'Quelques conseils': with 4
players a 10-tile stage lasts about 25 minutes, 14 tiles 35 minutes, 18 tiles 45 minutes; that is
2.5 minutes a tile)::

    minutes = setup_minutes + build_minutes_per_tile * road_tiles
              + players * turns * seconds_per_turn / 60

- ``turns``: the turns of the fastest line (:func:`designer.systems.dirt.driving.lines.fastest_line`); every
  player drives every turn, so the play part grows with the players. The staggered start adds rounds but no turns.
- ``build_minutes_per_tile`` (1.0, chosen, not fitted): finding, laying and putting away one tile.
- ``setup_minutes`` and ``seconds_per_turn``: fitted once (:func:`fit_table_time`) on the 18 rulebook
  stages (``stages/dirt/rally-*/ss*.yaml``) against 2.5 minutes per road tile, minimising the largest
  relative error. ``seconds_per_turn`` is per turn of the *fastest* line: real players take more
  turns (safer lines, losses of control), and that is folded into it.

The fitted values and the error they leave are in :data:`TABLE_TIME` and ``docs/rules-notes.md``.

>>> round(table_minutes(turns=6, players=4, road_tiles=10), 1)
27.5
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Iterable

from designer.systems.dirt.driving.lines import CellLine, Line, check_track, fastest_line, format_time, shortest_line
from designer.systems.dirt.driving.rules import Ruleset

GUIDANCE_MINUTES_PER_TILE = 2.5     # rulebook p. 4: 10/14/18 tiles -> 25/35/45 minutes with 4 players
GUIDANCE_PLAYERS = 4


@dataclass(frozen=True)
class TableTime:
    """Parameters of the table-time formula (see the module docstring)."""
    setup_minutes: float = 7.5
    build_minutes_per_tile: float = 1.0
    seconds_per_turn: float = 25.0
    source: str = ("setup_minutes and seconds_per_turn fitted (minimax relative error) on the 18 rulebook stages "
                   "against 2.5 min per road tile with 4 players; build_minutes_per_tile chosen")

    def to_dict(self) -> dict:
        return asdict(self)


TABLE_TIME = TableTime()


def table_minutes(turns: int, players: int, road_tiles: int, params: TableTime = TABLE_TIME) -> float:
    """Minutes at the table for a stage whose fastest line takes ``turns`` turns."""
    return (params.setup_minutes + params.build_minutes_per_tile * road_tiles
            + players * turns * params.seconds_per_turn / 60.0)


def guidance_minutes(road_tiles: int, players: int = GUIDANCE_PLAYERS) -> float | None:
    """The rulebook's guidance (4 players only): 2.5 minutes a road tile; None for other player counts."""
    if players != GUIDANCE_PLAYERS:
        return None
    return GUIDANCE_MINUTES_PER_TILE * road_tiles


@dataclass
class Estimate:
    """Length and durations of a stage."""
    road_tiles: int
    shortest_cells: int | None
    fastest_cells: int
    turns: int
    game_seconds: int
    players: int
    table_minutes: float
    guidance_minutes: float | None
    params: TableTime = TABLE_TIME
    expected_turns: float | None = None

    def to_dict(self) -> dict:
        return {
            "road_tiles": self.road_tiles,
            "length_cells": {"shortest_line": self.shortest_cells, "fastest_line": self.fastest_cells},
            "turns": self.turns,
            "expected_turns": round(self.expected_turns, 3) if self.expected_turns is not None else None,
            "table_turns": "expected" if self.expected_turns is not None else "fastest_line",
            "game_seconds": self.game_seconds,
            "game_time": format_time(self.game_seconds),
            "players": self.players,
            "table_minutes": round(self.table_minutes, 1),
            "rulebook_guidance_minutes": self.guidance_minutes,
            "formula": "setup_minutes + build_minutes_per_tile * road_tiles + players * turns * seconds_per_turn / 60",
            "params": self.params.to_dict(),
        }


def _road_tiles(track) -> int:
    if hasattr(track, "laid_road_tiles"):
        return len(track.laid_road_tiles)             # a tile driven twice is built once
    graph = check_track(track)
    return len({d.get("index") for _, d in graph.nodes(data=True)})


def estimate(track, players: int = 4, rules: Ruleset | None = None, *, fastest: Line | None = None,
             shortest: CellLine | None = None, params: TableTime = TABLE_TIME,
             expected_turns: float | None = None) -> Estimate:
    """Length (cells of the shortest and the fastest line), game time and table time of a stage.

    ``fastest`` / ``shortest`` may be passed when already computed.
    """
    from designer.core.errors import DesignerError

    if fastest is None:
        fastest = fastest_line(track, rules)
        if fastest is None:
            raise DesignerError("no legal line from the start to the finish",
                                hint="a cell limited to 0 or a dead end blocks the road")
    if shortest is None:
        shortest = shortest_line(track)
    tiles = _road_tiles(track)
    turns = len(fastest.turns)
    return Estimate(road_tiles=tiles, shortest_cells=shortest.length if shortest else None,
                    fastest_cells=fastest.length, turns=turns, game_seconds=fastest.seconds, players=players,
                    table_minutes=table_minutes(expected_turns if expected_turns is not None else turns, players,
                                                tiles, params),
                    guidance_minutes=guidance_minutes(tiles, players), params=params, expected_turns=expected_turns)


def fit_table_time(samples: Iterable[tuple[int, int]], build_minutes_per_tile: float = 1.0,
                   players: int = GUIDANCE_PLAYERS) -> tuple[TableTime, float]:
    """Fit ``setup_minutes`` and ``seconds_per_turn`` on (road tiles, fastest-line turns) samples against
    the rulebook's 2.5 minutes a tile, minimising the largest relative error (a grid search: quarter
    minutes, half seconds). Returns the parameters and that error.
    """
    samples = list(samples)
    best_err, best = float("inf"), (0.0, 0.0)
    for i in range(0, 81):                      # setup 0..20 min in quarter minutes
        setup = i * 0.25
        for j in range(0, 241):                 # 0..120 s per turn in half seconds
            spt = j * 0.5
            err = 0.0
            for tiles, turns in samples:
                target = GUIDANCE_MINUTES_PER_TILE * tiles
                pred = setup + build_minutes_per_tile * tiles + players * turns * spt / 60.0
                err = max(err, abs(pred - target) / target)
                if err >= best_err:
                    break
            if err < best_err:
                best_err, best = err, (setup, spt)
    params = TableTime(setup_minutes=best[0], build_minutes_per_tile=build_minutes_per_tile,
                       seconds_per_turn=best[1])
    return params, best_err
