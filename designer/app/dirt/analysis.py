"""The analysis shown by the app, gathered from :mod:`designer.systems.dirt.driving.lines` into plain rows: the lines to
draw with the gear in each cell, the turn-by-turn table, the speed profile along the distance and
the headline figures.

No game logic here: lines, turns, speed limits and times come from the library (``lines.analyze``);
this module only reshapes its JSON-ready result. While :mod:`designer.systems.dirt.driving.lines` is
missing, :func:`analyse` raises :class:`~designer.app.dirt.sources.Unavailable`; while
:mod:`designer.systems.dirt.driving.estimate` is missing, the lines are still shown and the times that need it
are left out.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from designer.app.dirt.sources import Unavailable
from designer.core.errors import DesignerError
from designer.core.words import plural
from designer.systems.dirt.report import below_ideal, damage_bound_turns

LINE_NAMES = ("fastest", "shortest")
#: The two chances of a loss of control the summary shows, named for whose chance each is.
POLICY_LOSS = "Loss of control"                 # the headline row is the best policy's
LINE_LOSS = "Loss of control, line shown"       # a figure of the line (``figures["loss_chance"]``), not shown
LINE_TIME = "Line on the map"                   # its time cards, shown when a risk budget makes it slower
HEADLINE = ("Expected time", "Spread", "Table time")
HEADLINE_LINES = ("Game time", "Table time", "Length")     # before (or without) the expected time


class AnalysisError(DesignerError):
    """The library could not analyse this stage (no legal line...): a message for the user."""


@dataclass
class LineView:
    name: str
    cells: list[tuple[str, int | None]]                 # (cell node, gear the car is in there, or None)
    turns: list[dict[str, Any]] = field(default_factory=list)
    turn_of: list[int | None] = field(default_factory=list)     # per cell: the turn that reaches it (0: the start)
    flown: list[bool] = field(default_factory=list)             # per cell: flown over by a jump (never touched)

    def __post_init__(self):
        self.turn_of = list(self.turn_of) or [None] * len(self.cells)
        self.flown = list(self.flown) or [False] * len(self.cells)


@dataclass
class AnalysisView:
    lines: dict[str, LineView]
    summary: dict[str, Any]                               # label -> value, in display order
    helps: dict[str, str]
    figures: dict[str, Any]                               # length_cells, game_seconds, turns, table_minutes...
    speed_limits: dict[str, int | None]
    notes: list[str]
    raw: dict[str, Any]

    def drawing_lines(self, names=LINE_NAMES) -> dict[str, list[tuple[str, int | None]]]:
        return {n: self.lines[n].cells for n in names if n in self.lines and self.lines[n].cells}


def lines_module():
    try:
        from designer.systems.dirt.driving import lines as L
    except ImportError as exc:
        if (getattr(exc, "name", "") or "").startswith("designer"):
            raise Unavailable("The analysis of racing lines is not available in this version "
                              f"({exc.name} is missing).") from None
        raise
    if not hasattr(L, "fastest_line"):
        raise Unavailable("The analysis of racing lines is not available in this version "
                          "(designer.systems.dirt.driving.lines has no fastest_line()).")
    return L


def available() -> bool:
    try:
        lines_module()
        return True
    except Unavailable:
        return False


def analyse(track, players: int = 4, max_risk: float | None = None, expected: bool = False) -> AnalysisView:
    """Run the library's analysis of a track and reshape it for the app (with ``expected``, the expected time
    under the dice too; the app asks for it apart, see :func:`expected_result`)."""
    L = lines_module()
    try:
        try:
            from designer.systems.dirt.analysis import analyze

            result = analyze(track, players=players, max_risk=max_risk, expected=expected)
        except ImportError as exc:
            if not (getattr(exc, "name", "") or "").startswith("designer"):
                raise
            result = _without_estimate(L, track, players, max_risk)
            result.setdefault("notes", []).append(
                "Game and table times need designer.systems.dirt.driving.estimate, "
                "which is not available in this version.")
    except DesignerError as exc:
        raise AnalysisError(exc.message, where=exc.where, hint=exc.hint) from None
    return with_expected(normalise(result, track), result.get("expected"))


def _without_estimate(L, track, players, max_risk) -> dict:
    """The lines alone, from the library's own functions, while ``designer.systems.dirt.driving.estimate`` is missing."""
    fast = L.fastest_line(track)
    if fast is None:
        raise DesignerError("no legal line from the start to the finish")
    safe = L.fastest_line(track, max_risk=max_risk) if max_risk is not None else None
    short = L.shortest_line(track)
    out = {"players": players, "fastest_line": fast.to_dict(),
           "safe_line": safe.to_dict() if safe is not None else None,
           "shortest_line": short.to_dict() if short is not None else None,
           "speed_limits": L.speed_limits(track), "estimate": None}
    if max_risk is not None and safe is None:
        out["notes"] = [f"no line keeps every turn's chance of a loss of control at or below {max_risk:g}"]
    return out


# -- reshaping ----------------------------------------------------------------------------

DIE_NAMES = {"gas": "gas", "brake": "brake", "leader": "leader"}


def die_text(die: str) -> str:
    """``'gear4'`` -> ``'4'``; ``'gas'`` -> ``'gas'``."""
    d = str(die)
    return d[4:] if d.startswith("gear") else DIE_NAMES.get(d, d)


def step_text(step: dict) -> str:
    return "+".join(die_text(d) for d in step.get("dice", [])) or "?"


JUMP_EVENTS = {"jump", "long-jump"}


def line_walk(line: dict | None) -> list[tuple[str, int | None, int, bool]]:
    """Every cell of a fastest line in order: (cell, gear there, the turn that reaches it (0 for the start cell),
    flown over by a jump?). Its start cell in its start gear, then every cell of every die; a jump's die lists the
    jump cell, the cells flown over, then the landing cell."""
    if not line:
        return []
    out: list[tuple[str, int | None, int, bool]] = []
    if line.get("start"):
        out.append((line["start"], line.get("start_gear"), 0, False))
    for n, turn in enumerate(line.get("turn_list", []), start=1):
        for step in turn.get("steps", []):
            cells = [c for c in step.get("cells", [step.get("cell")]) if c]
            jump = bool(JUMP_EVENTS & set(step.get("events") or ()))
            out += [(c, step.get("gear"), turn.get("turn", n), jump and 0 < k < len(cells) - 1)
                    for k, c in enumerate(cells)]
    return out


def line_cells(line: dict | None) -> list[tuple[str, int | None]]:
    """(cell, gear) along a fastest line (:func:`line_walk`)."""
    return [(c, g) for c, g, _, _ in line_walk(line)]


def line_marks(line: dict | None) -> tuple[list[int | None], list[bool]]:
    """For each cell of :func:`line_cells`: the turn that reaches it and whether the car flies over it."""
    walk = line_walk(line)
    return [t for _, _, t, _ in walk], [f for _, _, _, f in walk]


def shortest_cells(line: dict | None) -> list[tuple[str, int | None]]:
    if not line:
        return []
    cells = list(line.get("cell_list") or [])
    return ([(line["start"], None)] if line.get("start") else []) + [(c, None) for c in cells]


def tile_of(graph, node: str | None) -> str:
    if graph is None or node is None or node not in graph:
        return "-"
    d = graph.nodes[node]
    return f"{d.get('index', -1) + 1} ({d.get('tile')})"


def turn_table(line: dict | None, graph) -> list[dict[str, Any]]:
    """One row per turn: where it starts and ends (tile), the dice, the gear of the time card, seconds."""
    rows = []
    total = 0
    for t in (line or {}).get("turn_list", []):
        total += t.get("seconds", 0) or 0
        steps = t.get("steps", [])
        events = sorted({e for s in steps for e in s.get("events", [])})
        rows.append({
            "turn": t.get("turn"),
            "from tile": tile_of(graph, t.get("start")),
            "to tile": tile_of(graph, t.get("end")),
            "dice": " · ".join(step_text(s) for s in steps),
            "gears": f"{t.get('start_gear')} → {t.get('gear')}",
            "cells": t.get("cells"),
            "seconds": t.get("seconds"),
            "total s": total,
            "loss of control": f"{100 * (t.get('loss_of_control_chance') or 0):.0f} %",
            "events": ", ".join(events),
        })
    return rows


def _minutes(v) -> str:
    return f"{v:.0f} min" if isinstance(v, (int, float)) else str(v)


def _clock(seconds) -> str:
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}"


def normalise(result: dict[str, Any], track) -> AnalysisView:
    graph = getattr(track, "graph", None)
    fast = result.get("fastest_line")
    safe = result.get("safe_line")
    short = result.get("shortest_line")
    notes = list(result.get("notes") or [])
    shown_fast = safe if safe else fast
    views: dict[str, LineView] = {}
    if shown_fast:
        views["fastest"] = LineView("fastest", line_cells(shown_fast), turn_table(shown_fast, graph),
                                    *line_marks(shown_fast))
    if short:
        views["shortest"] = LineView("shortest", shortest_cells(short))
    est = result.get("estimate") or {}
    players = result.get("players")
    figures: dict[str, float | int | None] = {}
    summary: dict[str, Any] = {}
    helps: dict[str, str] = {}
    if short:
        figures["length_cells"] = short.get("cells")
        summary["Length"] = f"{short.get('cells')} cells"
        helps["Length"] = "Cells on the shortest line, from the start to past the finish" + (
            f"; the fastest line drives {fast.get('cells')}" if fast else "")
    if shown_fast:
        figures["game_seconds"] = shown_fast.get("seconds")
        figures["ideal_seconds"] = (fast or shown_fast).get("seconds")     # the unconstrained fastest line's
        figures["turns"] = shown_fast.get("turns")
        summary["Game time"] = f"{shown_fast.get('seconds')} s"
        helps["Game time"] = (f"Time-card seconds of the fastest line ({shown_fast.get('time')})"
                              + (f" within the risk budget; {fast.get('seconds')} s without it"
                                 if safe and fast else ""))
        summary["Turns"] = shown_fast.get("turns")
        helps["Turns"] = "Turns of the fastest line"
    table = est.get("table_minutes") if isinstance(est, dict) else None
    if safe and isinstance(est, dict) and est.get("road_tiles") is not None and players:
        table = _table_minutes(safe.get("turns"), players, est["road_tiles"], table)
    if table is not None:
        figures["table_minutes"] = table
        summary["Table time"] = _minutes(table)
        guide = est.get("rulebook_guidance_minutes") if isinstance(est, dict) else None
        helps["Table time"] = (f"Minutes at the table for {plural(players, 'player')}"
                               + (f"; the rulebook's guidance is {guide:.0f} min" if guide else ""))
    if shown_fast:                  # the line's own chance is a figure, not a headline (the policy's is)
        figures["loss_chance"] = shown_fast.get("loss_of_control_chance")
    return AnalysisView(lines=views, summary=summary, helps=helps, figures=figures,
                        speed_limits=dict(result.get("speed_limits") or {}), notes=notes, raw=result)


def _table_minutes(turns, players, road_tiles, fallback):
    try:
        from designer.systems.dirt.driving.estimate import table_minutes
    except ImportError:
        return fallback
    try:
        return round(table_minutes(int(turns), int(players), int(road_tiles)), 1)
    except (TypeError, ValueError):
        return fallback


def profile_rows(view: AnalysisView, graph, name: str = "fastest") -> list[dict[str, Any]]:
    """The speed profile along a line, cell by cell: the gear limit of the cell (printed, else the top gear), the
    highest gear
    in which a car can be there and still finish (``speed_limits``), and the line's gear."""
    line = view.lines.get(name)
    if line is None:
        return []
    top = top_gear(view)
    rows = []
    for k, (node, gear) in enumerate(line.cells):
        data = graph.nodes[node] if graph is not None and node in graph else {}
        printed = data.get("cut") if data.get("cut") is not None else data.get("limit")
        if printed is None:
            printed = top            # no printed limit: the top gear is the ceiling
        rows.append({"distance": k, "cell": node, "tile": data.get("index", -1) + 1, "gear limit": printed,
                     "highest gear to finish": view.speed_limits.get(node), "line gear": gear,
                     "turn": line.turn_of[k], "flown": line.flown[k]})
    return rows


def tile_starts(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Where each tile starts along a profile: the first distance of every run of cells on one tile."""
    out, last = [], None
    for r in rows:
        if r["tile"] != last and r["tile"] > 0:
            out.append({"distance": r["distance"], "tile": r["tile"]})
        last = r["tile"]
    return out


def line_length(view: AnalysisView, name: str) -> int | None:
    """Cells a line drives past its start cell (what its profile's distance axis counts up to)."""
    line = view.lines.get(name)
    return len(line.cells) - 1 if line and line.cells else None


def top_gear(view: AnalysisView) -> int | None:
    """The highest gear of the ruleset the analysis used."""
    gears = ((view.raw or {}).get("rules") or {}).get("gears") or []
    return max(gears) if gears else None


def turn_rows(view: AnalysisView, name: str = "fastest") -> list[dict[str, Any]]:
    line = view.lines.get(name)
    return list(line.turns) if line else []


# -- the expected time under the dice ---------------------------------------------------------------

def expected_result(track, leader: bool = False) -> dict:
    """The expected time under the dice of a track (``designer.systems.dirt.dice.expected_time``), JSON-ready."""
    try:
        from designer.systems.dirt.dice.expected_time import expected_time
    except ImportError as exc:
        if (getattr(exc, "name", "") or "").startswith("designer"):
            raise Unavailable("The expected time under the dice is not available in this version.") from None
        raise
    try:
        return expected_time(track, leader=leader).to_dict()
    except DesignerError as exc:
        raise AnalysisError(exc.message, where=exc.where, hint=exc.hint) from None


def with_expected(view: AnalysisView, exp: dict | None, players: int | None = None) -> AnalysisView:
    """The view with the expected time as its headline: the expected time, its spread and the table time (from
    the expected turns, as the library counts it), then the details once each: the ideal (shakedown) time, the
    time cards of the line on the map when a risk budget makes it slower, the expected turns, the length and the
    chance of a loss of control under the best policy."""
    if not exp:
        return view
    helps = dict(view.helps)
    figures = dict(view.figures, expected_seconds=exp["seconds"], expected_sd=exp["sd"],
                   expected_turns=exp["turns"], expected_loss_chance=exp["loss_of_control_chance"])
    est = (view.raw or {}).get("estimate") or {}
    players = players or (view.raw or {}).get("players")
    if est.get("road_tiles") is not None and players:
        try:
            from designer.systems.dirt.driving.estimate import table_minutes
            figures["table_minutes"] = round(table_minutes(exp["turns"], int(players), int(est["road_tiles"])), 1)
        except ImportError:
            pass
    summary: dict[str, Any] = {"Expected time": exp["time"], "Spread": f"± {exp['sd']:.0f} s"}
    if "table_minutes" in figures:
        summary["Table time"] = _minutes(figures["table_minutes"])
        helps["Table time"] = helps.get("Table time", "Minutes at the table") + (
            f" ({exp['turns']:.1f} turns a driver, the expected turns under the dice)")
    summary["Ideal time"] = str(exp.get("ideal_time"))
    line_seconds = view.figures.get("game_seconds")
    if line_seconds is not None and exp.get("ideal_seconds") is not None and line_seconds != exp["ideal_seconds"]:
        summary[LINE_TIME] = f"{_clock(line_seconds)}"
        helps[LINE_TIME] = ("Time cards of the line on the map, which keeps every turn within the risk budget "
                            f"(the ideal line takes {exp['ideal_seconds']} s)")
    summary["Turns"] = f"{exp['turns']:.1f}"
    if "Length" in view.summary:
        summary["Length"] = view.summary["Length"]
    summary[POLICY_LOSS] = f"{100 * exp['loss_of_control_chance']:.0f} %"
    helps["Expected time"] = ("Average stage time of a driver who plays the best policy under the dice: plans of "
                              "dice rolled one by one or as a Big Attack, securing with seconds tokens, the cost of "
                              f"losses of control and damage: {exp['seconds']:.0f} s" + (
                                  " (leader dice: alone on the stage)" if exp.get("leader") else "") + _bound_words(exp))
    helps["Ideal time"] = (f"The shakedown ({exp.get('ideal_seconds')} s): time cards of the fastest line with "
                           "hazards never rolled, no tokens" + (
                               "; the expected time is below it: the seconds tokens a Big Attack earns come off the "
                               "time, and a shakedown earns none" if below_ideal(exp) else ""))
    helps["Spread"] = "Standard deviation of the stage time under the best policy"
    helps["Turns"] = "Expected number of turns under the best policy (the table time counts them)"
    helps[POLICY_LOSS] = ("Chance of at least one loss of control in a run under the best policy, which stops "
                          "early or secures dice when that pays")
    raw = dict(view.raw or {}, expected=exp)
    return AnalysisView(lines=view.lines, summary=summary, helps=helps, figures=figures,
                        speed_limits=view.speed_limits, notes=view.notes, raw=raw)


def headline_and_details(view: AnalysisView) -> tuple[list[str], list[str]]:
    """The summary's labels split in two: the few figures a player reads first (the expected time, its spread
    and the table time once the dice are solved; the ideal time, table time and length before), and the rest."""
    lead = HEADLINE if "Expected time" in view.summary else HEADLINE_LINES
    head = [k for k in lead if k in view.summary]
    return head, [k for k in view.summary if k not in head]


#: The policy table's last column. The solver's value at a turn boundary is the expected seconds of the time cards
#: still to come minus the seconds tokens held at the finish (those already held included): once the tokens in hand
#: outweigh the cards still to come it is below zero, which is right, not a rounding artefact.
POLICY_TO_FINISH = "expected s to finish, after tokens"


def policy_rows(exp: dict | None, graph) -> list[dict[str, Any]]:
    """The best policy turn by turn along the most likely run: where, how (one by one, Big Attack), the dice and
    when to stop or secure."""
    rows = []
    for t in (exp or {}).get("policy", []):
        plan = t.get("plan") or []
        rule = ""
        if t.get("mode") == "roll":
            cautions = []
            for i, before in enumerate(t.get("before_each_die") or []):
                acts = {h: a for h, a in before.items() if a != "roll"}
                if acts and i > 0:
                    cautions.append(f"die {i + 1}: " + ", ".join(f"{a} at {h}⚠" for h, a in sorted(acts.items())))
            rule = "; ".join(cautions)
        rows.append({
            "turn": t.get("turn"),
            "tile": tile_of(graph, t.get("cell")),
            "gear": t.get("gear"),
            "tokens": t.get("tokens"),
            "how": {"roll": "one by one", "attack": "Big Attack", "spare": "change the wheel"}.get(t.get("mode"),
                                                                                                t.get("mode")),
            "dice": " · ".join(step_text(s) for s in plan),
            "ends in gear": plan[-1].get("gear") if plan else None,
            "stop or secure": rule,
            "loss of control": f"{100 * (t.get('loss_of_control_chance') or 0):.0f} %",
            POLICY_TO_FINISH: round(t.get("expected_seconds_to_finish") or 0, 1),
        })
    return rows


def tile_rows(exp: dict | None) -> list[dict[str, Any]]:
    """Road tiles by the expected seconds of the turns started on them, most expensive first."""
    rows = [{"tile": f"{t['index'] + 1} ({t['tile']})" if t.get("index") is not None else str(t.get("tile")),
             "expected seconds": round(t["expected_seconds"], 1),
             "loss of control": f"{100 * t['loss_of_control_chance']:.1f} %"}
            for t in (exp or {}).get("tiles", [])]
    return sorted(rows, key=lambda r: -r["expected seconds"])


def _bound_words(exp: dict) -> str:
    """What the figure leaves out of the damage: the tokens past the bound it tracks."""
    bounds = exp.get("bounds") or {}
    bound = bounds.get("max_damage")
    if not isinstance(bound, int):
        return ""
    words = (f". The first {bound} damage tokens a car draws are counted, later ones not" if bound > 1 else
             ". The first damage token a car draws is counted, later ones not" if bound == 1 else
             ". Damage tokens are not counted")
    turns, held = damage_bound_turns(bounds)
    if held and turns is not None:
        words += (f" (for memory: the car is expected to drive {turns:.1f} turns with all of them drawn, so later "
                  "damage would add to the figure)")
    return words

