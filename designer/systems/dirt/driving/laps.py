"""Lap times of a circuit: a lap with and without the joker route, and the race with and without it.

A lap time is the difference of two races on the fastest line (hazards not rolled): two laps less one lap
(the second lap starts at speed, as every lap but the first does), with the second lap driven through the
joker or not. The race's own figures stay those of the stage (its ``laps`` and the lap its joker is taken on).
"""
from __future__ import annotations

from dataclasses import replace

from designer.systems.dirt.board.track import joker_lap, race_graph
from designer.systems.dirt.driving.lines import fastest_line


def _seconds(track, rules, leader: bool, laps: int, joker: int | None) -> int | None:
    tiles = track.lap_tiles + track.joker_tiles()
    line = fastest_line(replace(track, graph=race_graph(track, tiles, joker, laps=laps)), rules, leader=leader)
    return line.seconds if line is not None else None


def lap_times(track, rules=None, leader: bool = False) -> dict | None:
    """JSON-ready lap figures of a circuit (None for a stage that is not a circuit or has no cells)."""
    if not getattr(track, "circuit", False) or not track.has_cells:
        return None
    one = _seconds(track, rules, leader, 1, None)
    two = _seconds(track, rules, leader, 2, None)
    out = {"laps": track.stage.laps, "joker_route": track.lap.joker is not None,
           "lap_seconds": two - one if None not in (one, two) else None,
           "joker_lap_seconds": None, "joker_lap": joker_lap(track.stage, track.lap),
           "race_seconds_without_joker": _seconds(track, rules, leader, track.stage.laps, None),
           "what": "fastest line, hazards not rolled: a lap after the first (two laps less one); "
                   "the joker lap the same with the second lap driven through the joker route"}
    if track.lap.joker is not None:
        two_j = _seconds(track, rules, leader, 2, 2)
        out["joker_lap_seconds"] = two_j - one if None not in (one, two_j) else None
    return out
