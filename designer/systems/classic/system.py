"""Classic Rallyman on the shared contract: zone boxes, stages and rallies, validation, lines, drawings,
course sheet and road book."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from designer.core import paths
from designer.core.errors import DesignerError
from designer.systems.base import Example, GameSystem


class ClassicSystem(GameSystem):
    name = "classic"
    title = "Rallyman (classic) + Dirt"
    summary = "square zone boards joined end to end (C3-J1); lines, expected time and the course sheet"
    stage_word = "ES"

    # -- files ------------------------------------------------------------------------------
    def load(self, path):
        from designer.systems.classic import stage as S

        return S.load(path)

    def loads(self, text: str, source: str = "<text>"):
        """A stage or rally sent as text (an upload, a link): it may name boxes and rulesets by name only."""
        from designer.systems.classic import stage as S

        return S.loads(text, source)

    def dumps(self, doc) -> str:
        from designer.systems.classic import stage as S

        return S.dumps(doc)

    def stages_of(self, doc) -> list:
        from designer.systems.classic.stage import Rally

        return list(doc.stages) if isinstance(doc, Rally) else [doc]

    def is_rally(self, doc) -> bool:
        from designer.systems.classic.stage import Rally

        return isinstance(doc, Rally)

    def box_of(self, stage, near: Path | None = None):
        """The zone box a stage names: beside a stage read from disk (``near``, or the folder it was read
        from), else only a bundled box by name; a stage that came as text never reaches a path it names."""
        from designer.systems.classic.zones import find_box

        return find_box(stage.zones, near if near is not None else getattr(stage, "near", None))

    # -- checking and analysing ----------------------------------------------------------------
    def validate(self, stage, box) -> list:
        from designer.systems.classic.validate import validate

        return validate(stage, box)

    def analyse(self, stage, box, *, players: int | None = None, **options: Any) -> dict:
        from designer.systems.classic.analysis import analyse

        if options.get("max_risk") is not None:
            raise DesignerError("classic Rallyman has no --max-risk option",
                                hint="the expected time already plays the best policy under the dice")
        options.pop("max_risk", None)
        return analyse(stage, box, players=players, **options)

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
        from designer.systems.classic.assembly import assemble
        from designer.systems.classic.render import stage_svg

        course = assemble(stage.route, box)
        line = (result or {}).get("ideal_line")
        return stage_svg(course, title=stage.name, line=line)

    def roadbook(self, doc, *, near: Path | None = None, paper: str = "A4", players: int | None = None,
                 **options: Any) -> bytes:
        from designer.systems.classic.roadbook import roadbook

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
            if f.stem != "classic-rules":
                out.append(Example(f"box/{f.stem}", f.stem, f, "box"))
        return out


SYSTEM = ClassicSystem()
