"""Rallyman: DIRT on the shared contract: tilesets, stages and rallies, validation, lines, drawings, road book."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from designer.core import files, paths, yamlio
from designer.core.errors import DesignerError
from designer.systems.base import Example, GameSystem


def _natural(s: str):
    import re
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


class DirtSystem(GameSystem):
    name = "dirt"
    title = "Rallyman: DIRT"
    summary = "hex tiles laid in driving order; lines over cells, a gear per cell, time under the dice"

    # -- files ------------------------------------------------------------------------
    def load(self, path):
        p = Path(path)
        text = files.read_text(p, what="stage file")
        return self._from_text(text, str(p), p)

    def loads(self, text: str, source: str = "<text>"):
        return self._from_text(text, source, None)

    def _from_text(self, text: str, source: str, path: Path | None):
        from designer.systems.dirt.board import stage as S

        data, lines = yamlio.loads(text, source)
        if isinstance(data, dict) and "stages" in data and "tiles" not in data:
            if path is None and any(isinstance(x, str) for x in (data.get("stages") or [])):
                raise DesignerError("this rally names stage files, which an upload cannot reach", where=source,
                                    hint="upload each stage, or a rally with its stages written inside it")
            return S.rally_from_data(data, lines, path or Path(source))
        return S.stage_from_data(data, lines, source)

    def dumps(self, doc) -> str:
        from designer.systems.dirt.board import stage as S

        if isinstance(doc, S.Rally):
            import yaml
            data = {"system": "dirt", "rally": doc.name, "stages": [S.stage_to_data(s) for s in doc.stages]}
            return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
        return S.dumps_stage(doc)

    def stages_of(self, doc) -> list:
        from designer.systems.dirt.board.stage import Rally

        return list(doc.stages) if isinstance(doc, Rally) else [doc]

    def is_rally(self, doc) -> bool:
        from designer.systems.dirt.board.stage import Rally

        return isinstance(doc, Rally)

    def box_of(self, stage, near: Path | None = None):
        from designer.systems.dirt.board.tileset import get_tileset

        return get_tileset(stage.tileset, near)

    # -- checking and analysing ------------------------------------------------------------
    def validate(self, stage, box) -> list:
        from designer.systems.dirt.board.validate import validate

        return validate(stage, box)

    def analyse(self, stage, box, *, players: int | None = None, max_risk: float | None = None,
                **options: Any) -> dict:
        from designer.systems.dirt.analysis import analyze
        from designer.systems.dirt.board.track import assemble

        expected = bool(options.pop("expected", True))
        table_runs = int(options.pop("table_runs", 0) or 0)
        all_decisions = bool(options.pop("all_decisions", False))
        if options:
            raise DesignerError(f"unknown analysis option{'s' if len(options) > 1 else ''} for DIRT: "
                                f"{', '.join(sorted(options))}",
                                hint="DIRT knows players, max_risk, expected, table_runs and all_decisions")
        self._refuse_errors(stage, box, "analysed")
        track = assemble(stage, box)
        result = analyze(track, players=players or stage.players or 4, max_risk=max_risk, expected=expected,
                          all_decisions=all_decisions)
        if table_runs:                  # several cars raced on the stage (dice/table.py)
            from designer.systems.dirt.dice.table import simulate_table

            result["table"] = simulate_table(track, players=result["players"], runs=table_runs).to_dict()
        result["system"] = self.name
        fl, est = result.get("fastest_line") or {}, result.get("estimate") or {}
        exp = result.get("expected") or {}
        lines = []
        if exp:
            lines.append(f"expected time {exp.get('time', '?')} (sd {exp.get('sd', 0):.0f} s) in "
                         f"{exp.get('turns', 0):.1f} turns under the dice, best policy"
                         f"{' with the leader dice' if exp.get('leader') else ''}; "
                         f"{100 * exp.get('loss_of_control_chance', 0):.0f}% chance of a loss of control")
        lines += [f"{'ideal' if exp else 'fastest line'} {fl.get('time', '?')} in {fl.get('turns', '?')} turns "
                  f"(shakedown: hazards not rolled)",
                  f"table time about {est.get('table_minutes', '?')} min for {est.get('players', '?')} players"]
        result["summary"] = lines
        return result

    def simulate_rally(self, rally, near: Path | None = None, *, players: int | None = None, runs: int = 200,
                       progress=None) -> dict:
        """Several cars raced over a rally's stages (dice/table_rally.py): per seat totals, the table time."""
        from designer.systems.dirt.dice.table_rally import race_rally, rally_lines

        result = race_rally(rally.stages, lambda s: self.box_of(s, near), players, runs, progress=progress)
        result.update(system=self.name, rally=rally.name, summary=rally_lines(result))
        return result

    def facts(self, stage, box, result: dict | None) -> dict:
        from designer.systems.dirt.board.validate import boxes_needed

        result = result or {}
        fl, sl, est = result.get("fastest_line") or {}, result.get("shortest_line") or {}, result.get("estimate") or {}
        exp = result.get("expected") or {}
        spread = None
        if exp.get("p90_seconds") is not None and exp.get("p10_seconds") is not None:
            spread = exp["p90_seconds"] - exp["p10_seconds"]
        return {"pieces": (result.get("stage") or {}).get("road_tiles"), "length": sl.get("cells"),
                "ideal_seconds": fl.get("seconds"), "expected_seconds": exp.get("expected_seconds"),
                "spread_seconds": spread,
                "loss_of_control": exp.get("loss_of_control_chance", fl.get("loss_of_control_chance")),
                "damage_tracked": (exp.get("bounds") or {}).get("max_damage"),
                "table_minutes": est.get("table_minutes"), "boxes": ", ".join(boxes_needed(stage))}

    def report(self, result: dict) -> str:
        from designer.systems.dirt.report import text_report

        return text_report(result)

    # -- drawing and printing --------------------------------------------------------------
    def draw(self, stage, box, result: dict | None = None, *, line: str = "none") -> str:
        from designer.systems.dirt.board.render import stage_svg
        from designer.systems.dirt.board.track import assemble

        track = assemble(stage, box)
        lines = self.drawing_lines(track, line) if line != "none" else None
        return stage_svg(track, lines=lines, title=stage.name)

    @staticmethod
    def drawing_lines(track, which: str) -> dict:
        """The fastest and/or shortest line as (cell, gear) lists for :func:`stage_svg`."""
        from designer.systems.dirt.driving import lines as L

        if not track.has_cells:
            raise DesignerError("this stage has faces without cells, so no line can be drawn",
                                hint="cell graphs exist for the DIRT core box")
        out = {}
        if which in ("shortest", "both"):
            line = L.shortest_line(track)
            if line is not None:
                out["shortest"] = [(line.start, None)] + [(n, None) for n in line.cells]
        if which in ("fastest", "both"):
            line = L.fastest_line(track)
            if line is not None:
                out["fastest"] = line.cell_gears()
        return out

    def roadbook(self, doc, *, near: Path | None = None, paper: str = "A4", players: int | None = None,
                 **options: Any) -> bytes:
        from designer.systems.dirt.book import roadbook as rb

        unknown = set(options) - {"lines", "expected", "analysis"}
        if unknown:
            raise DesignerError(f"unknown road-book option for DIRT: {', '.join(sorted(unknown))}",
                                hint="DIRT knows lines (False: a book for competitive play) and expected")
        lines, expected = bool(options.get("lines", True)), bool(options.get("expected", False))
        if self.is_rally(doc):
            return rb.rally_roadbook(doc, None, paper, near=near, players=players, lines=lines, expected=expected)
        return rb.stage_roadbook(doc, None, paper, near=near, players=players, lines=lines, expected=expected,
                                 analysis=options.get("analysis"))

    # -- bundled data --------------------------------------------------------------------
    def examples(self) -> list[Example]:
        import yaml

        root = paths.STAGES / "dirt"
        out: list[Example] = []
        if not root.is_dir():
            return out
        # The rulebook's rallies first, in their order; other folders (demonstration stages) after them.
        for rally_dir in sorted((d for d in root.iterdir() if d.is_dir()),
                                key=lambda d: (not d.name.startswith("rally-"), _natural(d.name))):
            rally_name = rally_dir.name.replace("-", " ").title()
            order: list[str] = []
            meta = rally_dir / "rally.yaml"
            if meta.is_file():
                try:
                    data = yaml.safe_load(meta.read_text(encoding="utf-8")) or {}
                    rally_name = str(data.get("rally") or data.get("name") or rally_name)
                    order = [s for s in data.get("stages", []) if isinstance(s, str)]
                except (yaml.YAMLError, OSError):
                    pass
                out.append(Example(rally_dir.name, rally_name, meta, "rally", rally_name))
            stage_files = [rally_dir / s for s in order if (rally_dir / s).is_file()]
            stage_files += sorted((p for p in rally_dir.glob("*.yaml") if p.name != "rally.yaml"
                                   and p not in stage_files), key=lambda p: _natural(p.name))
            for f in stage_files:
                short = f.stem.upper() if re.fullmatch(r"ss\d+", f.stem) else f.stem.replace("-", " ")
                out.append(Example(f"{rally_dir.name}/{f.stem}", f"{rally_name} - {short}", f, "stage", rally_name))
        for f in sorted(paths.TILESETS.glob("dirt-*.yaml")):
            if not f.stem.endswith("-rules"):
                out.append(Example(f"tileset/{f.stem}", f.stem, f, "box"))
        if (paths.TILESETS / "official.yaml").is_file():
            out.append(Example("tileset/official", "official", paths.TILESETS / "official.yaml", "box"))
        return out


SYSTEM = DirtSystem()
