"""The contract every game system fulfils, so that the command line and the app need nothing else.

A system is a :class:`GameSystem` instance named ``SYSTEM`` in ``designer.systems.<name>.system``. Its
objects (boxes, stages, rallies) are its own; the front ends only pass them back to the same system.

What a front end does with a system::

    system = systems.system_of_file(path)          # the file's `system:` key (DIRT when absent)
    doc = system.load(path)                        # a stage, or a rally (several stages)
    for stage in system.stages_of(doc):
        box = system.box_of(stage, near=path.parent)
        problems = system.validate(stage, box)     # [Problem-like], never an exception for a bad stage
        result = system.analyse(stage, box, players=4)   # JSON-ready dict, with "summary" lines
        svg = system.draw(stage, box, result)
    pdf = system.roadbook(doc, near=path.parent, paper="A4")

Bad input (a file that cannot be read, a name that does not exist) raises
:class:`designer.core.errors.DesignerError` with the place and a hint; front ends print it and exit 2.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar


@dataclass(frozen=True)
class Example:
    """A bundled example file: a stage, a rally (its stages in order) or a box."""
    key: str                      # unique within the system, e.g. "rally-1/ss1"
    label: str                    # what a user reads, e.g. "Rally 1 · SS1 · Col de Turini"
    path: Path
    kind: str = "stage"           # "stage", "rally" or "box"
    group: str | None = None      # e.g. the rally a stage belongs to
    tags: tuple[str, ...] = field(default_factory=tuple)


class GameSystem(ABC):
    """One game system: its pieces, stages, rules, drawings and road book."""

    name: ClassVar[str]                 # registry key and the value of `system:` in files, e.g. "dirt"
    title: ClassVar[str]                # e.g. "Rallyman: DIRT"
    summary: ClassVar[str] = ""         # one line: what a stage is in this game
    stage_word: ClassVar[str] = "stage"

    # -- files ----------------------------------------------------------------------------
    @abstractmethod
    def load(self, path: str | Path) -> Any:
        """A stage or a rally file of this system (check with :meth:`stages_of`)."""

    @abstractmethod
    def loads(self, text: str, source: str = "<text>") -> Any:
        """The same from text (an upload); ``source`` names it in messages."""

    @abstractmethod
    def dumps(self, doc: Any) -> str:
        """A stage or rally as the YAML text :meth:`loads` reads back."""

    def stages_of(self, doc: Any) -> list:
        """The stages a loaded document holds, in order (one for a stage file)."""
        return [doc]

    def is_rally(self, doc: Any) -> bool:
        return False

    def _refuse_errors(self, stage: Any, box: Any, what: str) -> None:
        """A stage with errors (in Rallye not 12 cards, a card twice or unknown; in DIRT tiles laid on each other,
        a road into a side, a tile used twice) is not analysed, drawn or printed as if it were fine: the problems
        are the message."""
        from designer.core.errors import DesignerError
        from designer.core.problems import errors

        bad = errors(self.validate(stage, box))
        if bad:
            raise DesignerError(f"the stage {stage.name!r} has {len(bad)} error{'s' if len(bad) > 1 else ''}, so it "
                                f"cannot be {what}", where=getattr(stage, "source", None),
                                details=[str(p) for p in bad],
                                hint="run `rally-designer validate` and fix them first")

    def rally_lines(self, doc: Any, results: list[dict]) -> list[str]:
        """Lines for the command line after a rally's stages are analysed (``results``, in order): its totals,
        where the game adds times over a rally; none by default."""
        return []

    def stage_name(self, stage: Any) -> str:
        return getattr(stage, "name", "stage")

    @abstractmethod
    def box_of(self, stage: Any, near: Path | None = None) -> Any:
        """The pieces a stage is built from (tileset, zones, map and bag, deck), found by its name."""

    # -- checking and analysing ----------------------------------------------------------
    @abstractmethod
    def validate(self, stage: Any, box: Any) -> list:
        """Problems (``code``, ``severity``, ``message``, ``hint``, ``where``, ``to_dict()``)."""

    @abstractmethod
    def analyse(self, stage: Any, box: Any, *, players: int | None = None, **options: Any) -> dict:
        """JSON-ready analysis; always has ``system``, ``stage`` (name) and ``summary`` (lines of text)."""

    def facts(self, stage: Any, box: Any, result: dict | None) -> dict:
        """Figures that compare across stages and systems, for batch tables (None where a system has no such
        figure): ``pieces`` (tiles, zones, spaces or cards), ``length`` (cells, spaces or sections),
        ``ideal_seconds``, ``expected_seconds``, ``spread_seconds`` (p90 - p10), ``loss_of_control`` (chance of at
        least one), ``table_minutes``, ``boxes`` (what must be owned). Default: ``result["facts"]``."""
        keys = ("pieces", "length", "ideal_seconds", "expected_seconds", "spread_seconds", "loss_of_control",
                "table_minutes", "boxes")
        given = (result or {}).get("facts") or {}
        return {k: given.get(k) for k in keys}

    def report(self, result: dict) -> str:
        """The analysis as text for the command line (default: its summary lines)."""
        return "\n".join([str(result.get("stage", ""))] + [f"  {s}" for s in result.get("summary", [])])

    def generate(self, *, seed: int = 0, count: int = 1, candidates: int = 20, difficulty: str | None = None,
                 box: str | None = None, players: int | None = None) -> list[tuple[Any, dict]]:
        """New stages made the way this game makes them, best for ``difficulty`` (easy / medium / hard) first,
        each with the figures it was judged on. Systems without a generator say so."""
        from designer.core.errors import DesignerError

        raise DesignerError(f"there is no stage generator for {self.title}",
                            hint="generate works for Rallyman: DIRT, Rallye and The Great Race")

    # -- drawing and printing ------------------------------------------------------------
    @abstractmethod
    def draw(self, stage: Any, box: Any, result: dict | None = None) -> str:
        """An SVG drawing of the stage (with the analysed line when ``result`` is given)."""

    @abstractmethod
    def roadbook(self, doc: Any, *, near: Path | None = None, paper: str = "A4", players: int | None = None,
                 **options: Any) -> bytes:
        """The printable road book (PDF bytes) of a stage or a rally."""

    # -- bundled data --------------------------------------------------------------------
    @abstractmethod
    def examples(self) -> list[Example]:
        """Bundled stages, rallies and boxes, for the app's Open menu and the tests."""
