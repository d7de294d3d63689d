"""Rallye on the shared contract: what the command line and the app call."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from designer.core import paths, yamlio
from designer.core.errors import DesignerError
from designer.systems.base import Example, GameSystem
from designer.systems.rallye.model import stage as stage_mod
from designer.systems.rallye.model.deck import Deck, deck_of, load_deck


MAX_RUNS = 100_000


class RallyeSystem(GameSystem):
    name = "rallye"
    title = "Rallye (12-card game)"
    summary = "12 road-section cards in order; the speed plan under the safety and top speeds"
    stage_word = "stage"

    # -- files ------------------------------------------------------------------------------------------
    def load(self, path: str | Path) -> Any:
        """A stage or a rally; a deck file on its own is read as the deck (``validate`` checks it)."""
        try:
            return stage_mod.load(path)
        except DesignerError as exc:
            if "this is a deck" not in str(exc):
                raise
        return load_deck(path)

    def loads(self, text: str, source: str = "<text>") -> Any:
        return stage_mod.loads(text, source)

    def dumps(self, doc: Any) -> str:
        return stage_mod.dumps(doc)

    def stages_of(self, doc: Any) -> list:
        return list(doc.stages) if isinstance(doc, stage_mod.Rally) else [doc]

    def _stage_only(self, stage: Any, what: str) -> None:
        if isinstance(stage, Deck):
            raise DesignerError(f"this is a deck: there is no stage to {what}", where=stage.source,
                                hint="`rally-designer validate DECK.yaml` checks a deck; give a stage that names it")

    def is_rally(self, doc: Any) -> bool:
        return isinstance(doc, stage_mod.Rally)

    def stage_name(self, stage: Any) -> str:
        return f"deck {stage.name}" if isinstance(stage, Deck) else stage.name

    def box_of(self, stage: Any, near: Path | None = None) -> Deck:
        if isinstance(stage, Deck):
            return stage
        return deck_of(stage, near)

    # -- checking and analysing ---------------------------------------------------------------------------
    def validate(self, stage: Any, box: Any) -> list:
        from designer.systems.rallye.validate import validate, validate_deck

        if isinstance(stage, Deck):
            return validate_deck(stage)
        return validate(stage, box)

    def analyse(self, stage: Any, box: Any, *, players: int | None = None, **options: Any) -> dict:
        from designer.systems.rallye.analyse import TABLE_RACES, analyse

        self._stage_only(stage, "analyse")
        if not options.get("partial"):          # the app's editor analyses a stage being built, with a warning
            self._refuse_errors(stage, box, "analysed")
        if options.get("max_risk") is not None:
            raise DesignerError("--max-risk is not a Rallye option", where=stage.source,
                                hint="the cautious plan is the one without risk; the analysis gives both plans "
                                     "with their chance of a spin")
        runs = int(options.get("runs", 300))
        if not 0 <= runs <= MAX_RUNS:
            raise DesignerError(f"{runs} runs is not a number of simulated runs", where=stage.source,
                                hint=f"from 0 to {MAX_RUNS}")
        known = frozenset(stage.seen) if box.ruleset.hidden_backs.get("remember_backs") else frozenset()
        race_runs = int(options.get("race_runs", 0))
        if not 0 <= race_runs <= MAX_RUNS:
            raise DesignerError(f"{race_runs} races is not a number of simulated races", where=stage.source,
                                hint=f"from 0 to {MAX_RUNS}")
        table_races = int(options.get("table_races", TABLE_RACES))
        return analyse(stage, box, players=players, runs=runs, seed=int(options.get("seed", 1)),
                       extra_stress=int(options.get("extra_stress", 0)), known=known, race_runs=race_runs,
                       table_races=table_races)

    def simulate_rally(self, rally, near: Path | None = None, *, players: int | None = None, runs: int = 200,
                       progress=None) -> dict:
        """Several drivers raced over a rally's stages (:mod:`.driving.rally_race`): per seat the seconds behind
        added up and the chance of winning the rally. ``players``: the first stage's, or 2, when not given."""
        from designer.systems.rallye.driving.rally_race import race_rally, rally_race_lines
        from designer.systems.rallye.validate import card_ids

        if not 1 <= int(runs) <= MAX_RUNS:
            raise DesignerError(f"{runs} is not a number of simulated rallies", hint=f"give 1 to {MAX_RUNS}")
        legs = []
        for stage in rally.stages:
            deck = self.box_of(stage, near)
            self._refuse_errors(stage, deck, "raced")
            legs.append((deck, [deck.sections[c] for c in card_ids(stage, deck)]))
        first = rally.stages[0].players if rally.stages else None
        d = race_rally(legs, int(players or first or 2), runs=int(runs), progress=progress)
        d["rally"] = rally.name
        d["summary"] = rally_race_lines(d)
        return d

    def report(self, result: dict) -> str:
        from designer.systems.rallye.analyse import report

        return report(result)

    def rally_lines(self, doc: Any, results: list[dict]) -> list[str]:
        from designer.systems.rallye.roadbook import rally_totals

        if not self.is_rally(doc) or len(results) < 2:
            return []
        cautious, fastest, hands, minutes = rally_totals(results)
        return [f"{doc.name}: {len(results)} stages, times added up over the rally (the winner has the fewest "
                "seconds after all the stages)",
                f"  cautious plans {cautious:.1f} s, fastest plans {fastest:.1f} s (scored on the real backs), "
                f"with real hands {hands:.1f} s on average; table about {minutes} min"]

    def facts(self, stage: Any, box: Any, result: dict | None) -> dict:
        result = result or {}
        sim = ((result.get("simulation") or {}).get("fastest")) or {}
        spread = sim["p90"] - sim["p10"] if sim.get("p90") is not None and sim.get("p10") is not None else None
        return {"pieces": len(result.get("cards") or []) or None, "length": len(result.get("cards") or []) or None,
                "ideal_seconds": result.get("best_solo_seconds"), "expected_seconds": sim.get("mean_seconds"),
                "spread_seconds": spread, "loss_of_control": sim.get("spin_stage_chance"),
                "table_minutes": (result.get("table_time") or {}).get("minutes"), "boxes": result.get("deck")}

    def generate(self, *, seed: int = 0, count: int = 1, candidates: int = 20, difficulty: str | None = None,
                 box: str | None = None, players: int | None = None) -> list:
        from designer.systems.rallye.generate import generate

        # Called from the command line only: the deck may be a file of the user's (a path, or a name in the
        # current folder), or a bundled deck by name.
        return generate(seed=seed, count=count, candidates=candidates, difficulty=difficulty, box=box,
                        players=players, near=Path.cwd())

    # -- drawing and printing --------------------------------------------------------------------------
    def draw(self, stage: Any, box: Any, result: dict | None = None) -> str:
        from designer.systems.rallye.draw import stage_svg

        self._stage_only(stage, "draw")
        if result is None:
            result = self.analyse(stage, box, runs=0, table_races=0)          # the drawing needs no races
        elif not result.get("cards"):
            raise DesignerError("nothing to draw: the stage has no cards", where=stage.source)
        return stage_svg(result)

    def roadbook(self, doc: Any, *, near: Path | None = None, paper: str = "A4", players: int | None = None,
                 **options: Any) -> bytes:
        from designer.systems.rallye.roadbook import roadbook

        for stage in self.stages_of(doc):
            self._stage_only(stage, "print")
            self._refuse_errors(stage, self.box_of(stage, near), "printed")
        return roadbook(doc, near=near, paper=paper, players=players, runs=int(options.get("runs", 300)))

    # -- bundled data ------------------------------------------------------------------------------------
    def examples(self) -> list[Example]:
        out = []
        folder = paths.STAGES / "rallye"
        for p in sorted(folder.glob("*.yaml")):
            try:
                data, _ = yamlio.load(p)
            except DesignerError:
                continue
            if not isinstance(data, dict):
                continue
            if "rally" in data:
                out.append(Example(f"rally/{p.stem}", f"Rally · {data['rally']}", p, "rally", tags=("demo",)))
            else:
                out.append(Example(p.stem, str(data.get("stage", p.stem)), p, "stage", group=None, tags=("demo",)))
        for p in sorted((paths.TILESETS / "rallye").glob("*.yaml")):
            if p.stem != "ruleset":
                out.append(Example(f"deck/{p.stem}", f"Deck · {p.stem}", p, "box", tags=("demo",)))
        return out


SYSTEM = RallyeSystem()
