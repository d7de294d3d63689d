"""Classic Rallyman on the shared contract: zone boxes, stages and rallies, validation, lines, drawings,
course sheet and road book."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from designer.core import paths
from designer.core.errors import DesignerError
from designer.systems.base import Example, GameSystem


class BoxFile:
    """A zone box opened where a stage was expected (``validate`` checks it; the other commands need a stage)."""

    def __init__(self, box, source: str):
        self.box, self.source, self.name = box, source, f"zone box {box.name}"

    def refuse(self, what: str):
        raise DesignerError(f"this is a zone box ({self.box.name}: zones {', '.join(self.box.zones)}), not a stage",
                            where=self.source, hint=f"{what} a stage or rally that uses it with `zones: "
                                                    f"{self.box.name}`; `validate` checks the box itself")


class ClassicSystem(GameSystem):
    name = "classic"
    title = "Rallyman (classic) + Dirt"
    summary = "square zone boards joined end to end (C3-J1); lines, expected time and the course sheet"
    stage_word = "ES"

    # -- files ------------------------------------------------------------------------------
    def load(self, path):
        from designer.systems.classic.files import stage as S

        try:
            return S.load(path)
        except S.IsABox as found:
            return BoxFile(found.box, str(path))

    def loads(self, text: str, source: str = "<text>"):
        """A stage or rally sent as text (an upload, a link): it may name boxes and rulesets by name only."""
        from designer.systems.classic.files import stage as S

        return S.loads(text, source)

    def dumps(self, doc) -> str:
        from designer.systems.classic.files import stage as S

        return S.dumps(doc)

    def stages_of(self, doc) -> list:
        from designer.systems.classic.files.stage import Rally

        return list(doc.stages) if isinstance(doc, Rally) else [doc]

    def is_rally(self, doc) -> bool:
        from designer.systems.classic.files.stage import Rally

        return isinstance(doc, Rally)

    def box_of(self, stage, near: Path | None = None):
        """The zone box a stage names: beside a stage read from disk (``near``, or the folder it was read
        from), else only a bundled box by name; a stage that came as text never reaches a path it names."""
        from designer.systems.classic.files.zones import find_box

        if isinstance(stage, BoxFile):
            return stage.box
        return find_box(stage.zones, near if near is not None else getattr(stage, "near", None))

    # -- checking and analysing ----------------------------------------------------------------
    def validate(self, stage, box) -> list:
        from designer.systems.classic.validate import check_box, validate

        if isinstance(stage, BoxFile):
            return check_box(box)
        return validate(stage, box)

    def analyse(self, stage, box, *, players: int | None = None, **options: Any) -> dict:
        from designer.systems.classic.analysis import analyse

        if isinstance(stage, BoxFile):
            stage.refuse("analyse")
        if options.get("max_risk") is not None:
            raise DesignerError("classic Rallyman has no --max-risk option",
                                hint="the expected time already plays the best policy under the dice")
        options.pop("max_risk", None)
        return analyse(stage, box, players=players, **options)

    def simulate_rally(self, rally, near: Path | None = None, *, players: int | None = None, runs: int = 200,
                       progress=None, box_of=None, hint: str | None = None) -> dict:
        """Several cars raced over a rally's stages (dice/rally_table.py): per seat totals with the time-control
        penalties (ART.22) and the start order by the standings (ART.3.2). ``box_of(stage)`` gives a stage's zone
        box when the caller has its own (the app's page: uploads and the editor), ``hint`` how to mend a stage
        that cannot be raced."""
        from designer.systems.classic.board.assembly import assemble
        from designer.systems.classic.dice import expected as E
        from designer.systems.classic.dice.rally_table import rally_lines, simulate_rally_table
        from designer.systems.classic.files.rules import rules_for

        stages = []
        for i, stage in enumerate(rally.stages, start=1):
            course = assemble(stage.route, box_of(stage) if box_of else self.box_of(stage, near))
            if not course.ok:
                raise DesignerError(f"ES{i} {stage.name!r} cannot be raced: " + "; ".join(
                    p.message for p in course.problems if p.severity == "error"), where=stage.source,
                    hint=hint or "`rally-designer validate` the rally: it lists every problem")
            E.check_size(course.graph, stage.big_attack, stage.source)
            stages.append({"name": stage.name, "graph": course.graph, "tyres": stage.tyres,
                           "big_attack": stage.big_attack, "assistance": stage.assistance})
        first = rally.stages[0]
        result = simulate_rally_table(stages, rules_for(first), players or first.players, runs,
                                      sisu=first.sisu)
        result.update(system=self.name, rally=rally.name, summary=rally_lines(result))
        return result

    def facts(self, stage, box, result: dict | None) -> dict:
        result = result or {}
        ideal, exp = result.get("ideal_line") or {}, result.get("expected") or {}
        boards = result.get("boards")
        return {"pieces": len(boards) if boards else None, "length": result.get("length_cells"),
                "ideal_seconds": ideal.get("time_seconds"), "expected_seconds": exp.get("seconds"),
                "spread_seconds": (exp["p90_seconds"] - exp["p10_seconds"]
                                   if exp.get("p90_seconds") is not None and exp.get("p10_seconds") is not None
                                   else None),
                "loss_of_control": exp.get("loss_chance"),
                "table_minutes": (result.get("table") or {}).get("minutes"), "boxes": result.get("zones")}

    # -- drawing and printing ------------------------------------------------------------------
    def draw(self, stage, box, result: dict | None = None) -> str:
        from designer.systems.classic.board.assembly import assemble
        from designer.systems.classic.board.render import stage_svg

        if isinstance(stage, BoxFile):
            stage.refuse("draw")
        course = assemble(stage.route, box)
        if not course.ok:
            errors = [p for p in course.problems if p.severity == "error"]
            raise DesignerError("cannot draw this stage: " + "; ".join(p.message for p in errors),
                                where=f"{stage.source}: {errors[0].where}" if errors else stage.source,
                                hint=(errors[0].hint + "; " if errors and errors[0].hint else "")
                                + "`rally-designer validate` the stage lists every problem")
        line = (result or {}).get("ideal_line")
        return stage_svg(course, title=stage.name, line=line)

    def roadbook(self, doc, *, near: Path | None = None, paper: str = "A4", players: int | None = None,
                 **options: Any) -> bytes:
        from designer.systems.classic.roadbook import roadbook

        if isinstance(doc, BoxFile):
            doc.refuse("make a road book of")
        return roadbook(doc, lambda st: self.box_of(st, near), paper=paper, players=players)

    # -- bundled data ----------------------------------------------------------------------------
    def examples(self) -> list[Example]:
        out: list[Example] = []
        root = paths.STAGES / "classic"
        if root.is_dir():
            for f in sorted(root.glob("*.yaml")):
                text = f.read_text(encoding="utf-8")
                m = re.search(r"^(rally|stage):\s*\"?([^\"\n]+)\"?", text, re.MULTILINE)
                kind = "rally" if m and m.group(1) == "rally" else "stage"
                label = m.group(2).strip() if m else f.stem
                out.append(Example(f.stem, label, f, kind, "Demo rally" if kind == "stage" else None))
        for f in sorted((paths.TILESETS / "classic").glob("*.yaml")):
            if not f.stem.endswith("-rules"):             # the rulesets are parameters, not zone boxes
                out.append(Example(f"box/{f.stem}", f.stem, f, "box"))
        return out


SYSTEM = ClassicSystem()
