"""The Great Race on the shared contract (:class:`designer.systems.base.GameSystem`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from designer.core import files, paths, yamlio
from designer.core.errors import DesignerError
from designer.systems.base import Example, GameSystem
from designer.systems.greatrace.files import race as race_mod
from designer.systems.greatrace.files.board import Board, board_from_data, load_board


LIMITS = {"runs": (1, 20_000), "candidates": (1, 200), "players": (1, 5), "seed": (0, 2**63)}
"""The work an analysis may be asked for: Monte Carlo runs, candidate routes, players at the table."""


class GreatRace(GameSystem):
    name = "greatrace"
    title = "The Great Race"
    summary = "a race between two purple cities on a hex map, with terrain tiles drawn from a bag"
    stage_word = "race"

    def __init__(self):
        self._boards: dict[tuple, Board] = {}

    # -- files ------------------------------------------------------------------------------
    def load(self, path):
        p = Path(path)
        return self.loads(files.read_text(p, what="race file"), str(p), near=p.parent)

    def loads(self, text: str, source: str = "<text>", near: Path | None = None):
        data, lines = yamlio.loads_plain(text, source)
        if isinstance(data, dict) and "race" not in data and "bag" in data:
            return self._board_check(board_from_data(data, lines, source, near=near))
        race = race_mod.race_from_data(data, lines, source)
        race.near = Path(near) if near is not None else None
        return race

    def _board_check(self, board: Board):
        """A board file opened on its own: a race between its first two purple cities, to check the board."""
        purple = board.purple() + ["?", "?"]
        race = race_mod.Race(name=f"{board.title or board.name} (board check: {purple[0]} to {purple[1]})",
                             board=board.name, start=purple[0], finish=purple[1],
                             median=(board.median_slots() or [None])[0], source=board.source, board_obj=board)
        return race

    def dumps(self, doc) -> str:
        return race_mod.dumps_race(doc)

    def stage_name(self, stage) -> str:
        return stage.name

    def box_of(self, stage, near: Path | None = None) -> Board:
        if stage.board_obj is not None:
            return stage.board_obj
        near = near or stage.near
        p = race_mod.board_path(stage.board, near, where=stage.line("board"))
        key = (str(p.resolve()), p.stat().st_mtime_ns)
        if key not in self._boards:
            try:
                self._boards[key] = load_board(p)
            except DesignerError as exc:
                exc.hint = exc.hint or f"the race {stage.name!r} uses this board"
                raise
        return self._boards[key]

    # -- checking and analysing ---------------------------------------------------------------
    def generate(self, *, seed: int = 0, count: int = 1, candidates: int = 20, difficulty: str | None = None,
                 box: str | None = None, players: int | None = None) -> list:
        from designer.core import paths
        from designer.systems.greatrace.driving.generate import generate

        name = box or "demo-frontier"
        race = race_mod.Race(name="", board=name, start="", finish="", near=paths.TILESETS / "greatrace")
        return generate(self.box_of(race), seed=seed, count=count, difficulty=difficulty, players=players or 4)

    def validate(self, stage, box) -> list:
        from designer.systems.greatrace.driving.validate import validate_race

        return validate_race(stage, box)

    def analyse(self, stage, box, *, players: int | None = None, **options: Any) -> dict:
        from designer.systems.greatrace.driving.analysis import analyse

        from designer.core.problems import errors

        bad = errors(self.validate(stage, box))
        if bad:
            raise DesignerError("the race has errors, so it cannot be analysed", where=stage.source or stage.name,
                                details=[str(p) for p in bad], hint="run validate and fix them first")
        allowed = {k: options[k] for k in ("runs", "seed", "transport", "candidates") if k in options}
        for key, (low, high) in LIMITS.items():
            value = players if key == "players" else allowed.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not low <= value <= high):
                raise DesignerError(f"{key} = {str(value)[:20]} is out of range", where=stage.source or stage.name,
                                    hint=f"choose {key} from {low} to {high:,}")
        return analyse(box, stage, players=players, **allowed)

    def facts(self, stage, box, result: dict | None) -> dict:
        """The batch table's figures. The game has no clock, so the seconds are None; the chance that the car is
        stranded (dry or broken away from a city without the francs to go on) on the fastest route, from the
        Monte Carlo over the bag, stands in for the loss of control of the dice games."""
        result = result or {}
        fast = result.get("fastest") or {}
        mc = (result.get("montecarlo") or {}).get("fastest") or {}
        blind = (result.get("duration") or {}).get("blind") or {}
        return {"pieces": fast.get("spaces"), "length": fast.get("spaces"), "ideal_seconds": None,
                "expected_seconds": None, "spread_seconds": None, "loss_of_control": mc.get("stranded_chance"),
                "table_minutes": blind.get("table_minutes"), "boxes": result.get("board") or getattr(box, "name", None)}

    def report(self, result: dict) -> str:
        from designer.core.words import plural

        lines = [str(result.get("stage", ""))] + [f"  {s}" for s in result.get("summary", [])]
        for leg in (result.get("fastest") or {}).get("legs", []):
            lines.append(f"    {leg['start']} -> {leg['end']} ({leg['via']}): {plural(leg['spaces'], 'space')}, "
                         f"{leg['risk_spaces']} risk, fuel {leg['fuel']:.1f} (worst {leg['worst_fuel']}), "
                         f"mechanic {leg['mech']:.1f} (worst {leg['worst_mech']}), {leg['francs']} F paid")
        return "\n".join(lines)

    # -- drawing and printing -------------------------------------------------------------------
    def draw(self, stage, box, result: dict | None = None) -> str:
        from designer.systems.greatrace.files.board import parse_label
        from designer.systems.greatrace.driving.costs import CostMap
        from designer.systems.greatrace.book.draw import board_svg

        cm = CostMap(box, stage)
        routes = {}
        for name in ("cheapest", "fastest"):
            plan = (result or {}).get(name)
            if plan:
                routes[name] = [cm.hex_of_city(p) if cm.hex_of_city(p) is not None else parse_label(p)
                                for p in plan["path"]]
        return board_svg(box, cm, routes, title=race_title(stage))

    def roadbook(self, doc, *, near: Path | None = None, paper: str = "A4", players: int | None = None,
                 **options: Any) -> bytes:
        from designer.systems.greatrace.book.roadbook import roadbook

        board = self.box_of(doc, near)
        result = self.analyse(doc, board, players=players, **options)
        return roadbook(doc, board, result, self.draw(doc, board, result), paper=paper)

    # -- bundled data -----------------------------------------------------------------------------
    def examples(self) -> list[Example]:
        out = []
        for p in sorted((paths.STAGES / "greatrace").glob("*.yaml")):
            try:
                data, _ = yamlio.load(p)
                label = str(data.get("race", p.stem))
            except DesignerError:
                label = p.stem
            out.append(Example(key=p.stem, label=label, path=p, kind="stage", tags=("demo",)))
        for p in sorted((paths.TILESETS / "greatrace").glob("*.yaml")):
            if p.name.endswith("-rules.yaml"):
                continue
            out.append(Example(key=f"board/{p.stem}", label=f"Board: {p.stem}", path=p, kind="box", tags=("demo",)))
        return out


def race_title(race) -> str:
    """The race's name for headings and maps, with its start and finish added when the name does not give both
    (a name written for other cities must not pass for this race)."""
    name = race.name or ""
    if race.start and race.finish and not (race.start in name and race.finish in name):
        return f"{name} · {race.start} → {race.finish}" if name else f"{race.start} → {race.finish}"
    return name


SYSTEM = GreatRace()
