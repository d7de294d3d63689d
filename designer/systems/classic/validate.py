"""Checks of a classic stage against its zone box: located problems with a hint, never an exception.

Route problems come from :func:`designer.systems.classic.board.assembly.assemble` (unknown zone or road end, no road
between two ends, ends that do not face each other, boards on top of each other, snow sides mixed within a
zone); this module adds the stage's own: split points off the route, tyres that do not suit the roads, a
finish nobody can reach, and the information a race director wants (boards and sides used).
"""
from __future__ import annotations

from designer.core.problems import Problem
from designer.systems.classic.dice import lines as L
from designer.systems.classic.dice import moves as M
from designer.systems.classic.board.assembly import Course, assemble
from designer.systems.classic.files.rules import Rules, rules_for, tyre_name


def validate(stage, box, rules: Rules | None = None, course: Course | None = None) -> list[Problem]:
    course = course or assemble(stage.route, box)
    problems = list(course.problems)
    if not course.ok:
        return problems
    g = course.graph
    for i, cell in stage.splits:
        node = f"{i}:{cell}"
        if node not in g:
            t = stage.route[i]
            problems.append(Problem("split-off-route", "error",
                                    f"split point {i + 1}:{cell} is not on the road driven through zone {t.zone}",
                                    "put the split time pawn on a cell of the route (ART.16)", "splits"))
    surfaces = {g.nodes[n].get("surface") for n in g if n not in ("start", "finish")}
    if stage.tyres in ("asphalt", "gravel", "soft") and "snow" in surfaces:
        problems.append(Problem("tyres", "warning", f"{stage.tyres} tyres on snow: two hazard marks on snow cells are "
                                "a loss of control (ART.15.4; the ruleset's reading for gravel and soft tyres)",
                                _tyre_hint(stage, "choose snow tyres for a snowy stage"), "tyres"))
    if stage.tyres in ("snow", "snow2", "gravel") and "asphalt" in surfaces:
        problems.append(Problem("tyres", "info", f"{tyre_name(stage.tyres)} tyres on asphalt: one gas "
                                "die only on asphalt cells (ART.15.4; the ruleset's reading for gravel tyres)", "",
                                "tyres"))
    if stage.weather == "variable":
        flat = [t.zone for t in stage.route if box.zones[t.zone].face(True) is None]
        if flat:
            problems.append(Problem("weather", "warning", f"variable weather, but zone {', '.join(sorted(set(flat)))} "
                                    "has no snow side in this box", "add its snow face or use fixed weather",
                                    "weather"))
    rules = rules or rules_for(stage)
    if stage.penalty_seconds % rules.penalty_step:
        problems.append(Problem("penalty", "error", f"a time-control penalty of {stage.penalty_seconds} s: penalties "
                                f"come in tokens of {rules.penalty_step} s (ART.22)",
                                f"write a multiple of {rules.penalty_step}", "penalty_seconds"))
    car = M.Car(tyres=stage.tyres, leader=stage.leader)
    if L.ideal_line(g, rules, car) is None:
        problems.append(Problem("unreachable", "error", "no legal way leads from the start to the finish",
                                "check the corner notes and drift gears of the roads driven", "route"))
    boards = ", ".join(f"{p.zone} ({p.surface})" for p in course.placements.values())
    problems.append(Problem("boards", "info", f"boards: {boards}", "", "route"))
    return problems


def check_box(box) -> list[Problem]:
    """What a zone box allows but does nothing, for ``validate`` of a box file: an environment set on a cell
    no road, drift lane or cut passes (a loss of control takes the environment of the cell where it happens,
    ART.8), a road end no road leaves from, a zone without a snow side (no variable weather, ART.15.2)."""
    problems = []
    for letter, zone in box.zones.items():
        if zone.face(True) is None:
            problems.append(Problem("no-snow-side", "info", f"zone {letter} has no snow side: variable weather "
                                    "leaves it dry (ART.15.2)", "add a snow face to race it snowy", f"zones.{letter}"))
        for surface, face in zone.faces.items():
            where = f"zones.{letter}.faces.{surface}"
            driven = {c for road in face.roads for c in road.path}
            driven |= {c for road in face.roads for k in road.corners for c in (*k.drift, *k.cut)}
            for name, cell in sorted(face.cells.items()):
                if cell.env in ("forest", "rocks") and name not in driven:
                    problems.append(Problem(
                        "env-off-road", "warning", f"{letter}-{surface} {name}: {cell.env} on a cell no road, drift "
                        "or cut passes does nothing", f"set env: {cell.env} on the road cells it borders: a loss of "
                        "control costs the dice of the cell where it happens (ART.8)", f"{where}.cells.{name}"))
            used = {e for road in face.roads for e in road.ends}
            for n in sorted(set(face.ends) - used):
                problems.append(Problem("end-unused", "warning", f"{letter}-{surface}: road end {n} has no road",
                                        "add the road that leaves from it, or remove the end", f"{where}.ends"))
    return problems


def _tyre_hint(stage, hint: str) -> str:
    """``hint``, or where the tyres are those kept from the stage before (no assistance between, ART.15.3), how to
    be allowed to change them."""
    before = getattr(stage, "carried_from", None)
    if getattr(stage, "tyre_change_refused", None) and before is not None:
        return (f"the {tyre_name(stage.tyres)} tyres of {before.name} stay on without an assistance after it "
                f"(ART.15.3): give {before.name} an assistance to change them")
    return hint

