"""A stage's whole analysis as one JSON-ready dict: the lines of :mod:`.driving.lines`, the length and table time
of :mod:`.driving.estimate` and the expected time under the dice of :mod:`.dice.expected_time` (the CLI
``rally-designer analyze`` prints it; the app, the road book and the batch table read it).

>>> from designer.systems.dirt.board.stage import load_stage
>>> from designer.systems.dirt.board.track import load_track
>>> result = analyze(load_track(load_stage("stages/dirt/rally-1/ss1.yaml")), expected=False)
>>> result["fastest_line"]["time"], result["expected"]
('1:05', None)
"""
from __future__ import annotations

from designer.core.errors import DesignerError
from designer.systems.dirt.driving.estimate import estimate
from designer.systems.dirt.driving.lines import (_rules_for, _stage_surface, check_track, fastest_line, graph_to_dict,
                                                 shortest_line, speed_limits)
from designer.systems.dirt.driving.ruleset import Ruleset

__all__ = ["analyze"]


def analyze(track, players: int = 4, max_risk: float | None = None, rules: Ruleset | None = None,
            leader: bool = False, expected: bool = True, all_decisions: bool = False) -> dict:
    """Everything the designer knows about a stage's lines and timing, as one JSON-ready dict.

    Keys: ``stage``, ``rules`` (every parameter used, with sources), ``graph`` (cells and move links),
    ``fastest_line`` (turn by turn, die by die: cell, dice, gear), ``safe_line`` (under ``max_risk``, or
    None), ``shortest_line``, ``speed_limits``, ``estimate`` (lengths, game time, table time) and ``expected``
    (the expected time under the dice and its policy, see :mod:`designer.systems.dirt.dice.expected_time`; None when
    ``expected`` is False). With ``players == 1`` the car is the leader (leader dice).
    Raises DesignerError for a stage that cannot be analysed (tiles without cells, no start, no line).
    """
    if players < 1:
        raise DesignerError(f"players must be 1 or more, not {players}")
    if max_risk is not None and not 0.0 <= max_risk <= 1.0:
        raise DesignerError(f"max risk must be a chance between 0 and 1, not {max_risk}",
                            hint="e.g. --max-risk 0.1 for at most 10 % per turn")
    missing = track.missing_cells() if hasattr(track, "missing_cells") and not getattr(track, "unknown", None) else []
    if missing:             # faces at tile level: say what they lack and how to give it (board/cellless.py)
        from designer.systems.dirt.board.cellless import missing_text, supply_hint

        faces = sorted({t.tile: t.face for t in missing}.values(), key=lambda f: f.id)
        raise DesignerError(f"no cell graph for {', '.join(f.id for f in faces)}: " + missing_text(faces),
                            hint="lines and timing need the cells of every road tile: " + supply_hint(
                                getattr(getattr(track, "stage", None), "tileset", None)))
    graph = check_track(track)
    if expected:            # a road too long for the expected time is refused before any work
        from designer.systems.dirt.dice.expected_time import check_size

        check_size(track, graph, rules)
    rules = _rules_for(track, rules)
    leader = leader or players == 1             # a car alone on the stage is always the leader (p. 8)
    fast = fastest_line(track, rules, leader=leader)
    if fast is None:
        raise DesignerError("no legal line from the start to the finish",
                            hint="a cell limited to 0 or a dead end blocks the road; check the speed limits")
    safe = fastest_line(track, rules, max_risk=max_risk, leader=leader) if max_risk is not None else None
    short = shortest_line(track)
    limits = speed_limits(track, rules, leader=leader)
    exp = None
    if expected:            # the expected time under the dice (designer.systems.dirt.dice.expected_time: its keys)
        from designer.systems.dirt.dice.expected_time import expected_time    # numpy and the solver: only when asked

        exp = expected_time(track, rules, leader=leader, ideal_seconds=fast.seconds)
    est = estimate(track, players=players, rules=rules, fastest=fast, shortest=short,
                    expected_turns=exp.stats.turns if exp is not None else None)
    stage = getattr(track, "stage", None)
    out = {
        "stage": {
            "name": getattr(stage, "name", None),
            "tiles": [t.tile for t in track.tiles] if hasattr(track, "tiles") else None,
            "road_tiles": len(track.road_tiles) if hasattr(track, "road_tiles") else None,
            "surface": _stage_surface(track),
        },
        "rules": rules.to_dict(),
        "players": players,
        "leader": leader,
        "graph": graph_to_dict(graph),
        "fastest_line": fast.to_dict(),
        "safe_line": safe.to_dict() if safe is not None else None,
        "shortest_line": short.to_dict() if short is not None else None,
        "speed_limits": limits,
        "estimate": est.to_dict(),
        "expected": (exp.to_dict(min_chance=0.0) if all_decisions else exp.to_dict()) if exp is not None else None,
    }
    if exp is not None:        # the answers are read: drop the solve's tables (a rally holds one per stage)
        exp.release()
    if max_risk is not None and safe is None:
        out["notes"] = [f"no line keeps every turn's chance of a loss of control at or below {max_risk:g}"]
    if hasattr(track, "circuit"):           # circuits (one lap or `laps`), tokens and climb marks
        from designer.systems.dirt.board.track import analysis_notes
        out["stage"]["circuit"] = track.circuit
        out["stage"]["laps"] = stage.laps if track.circuit else None
        if track.circuit:                   # a lap with and without the joker route (fastest line)
            from designer.systems.dirt.driving.laps import lap_times
            out["laps"] = laps = lap_times(track, rules, leader)
            if laps and laps["lap_seconds"] is not None:
                out["notes"] = out.get("notes", []) + [
                    f"a lap takes {laps['lap_seconds']} s on the fastest line"
                    + (f", a joker lap {laps['joker_lap_seconds']} s" if laps["joker_lap_seconds"] is not None else "")
                    + f"; the race without the joker {laps['race_seconds_without_joker']} s (hazards not rolled)"]
        extra = analysis_notes(track)
        if extra:
            out["notes"] = out.get("notes", []) + extra
    return out
