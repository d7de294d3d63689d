"""The rules of several cars on one DIRT stage, read from ``tilesets/dirt-table-rules.yaml``.

Every value there is written ``{value, status, source}``: what the rulebook says (start stagger, order of
play, leader dice, overtaking, passing in corners and slides, jumps) and what the simulation had to decide
or assume (how a blocked turn is played, the policy, the card of a stalled car, a car after a loss of
control, a rally's start order). The result of a simulation names them all (:meth:`TableRules.named`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from designer.core import yamlio
from designer.core.errors import DesignerError
from designer.systems.dirt.driving.ruleset import read_parameter, rules_path

TABLE_RULES_FILE = "dirt-table-rules.yaml"
# parameter -> the values the simulation knows (an int range for numbers)
CHOICES: dict[str, tuple] = {
    "start_stagger_rounds": (0, 6),
    "play_order": ("distance-gear-lane",),
    "leader_dice": ("first-of-round-until-a-finish", "none"),
    "overtake_gear": ("at-least-the-other-car", "free"),
    "corner_and_slide_passing": ("cut-only", "free"),
    "jump_over_cars": ("landing-cell-only",),
    "blocked_turn": ("cut-at-the-block", "replan"),
    "policy": ("single-car-leader-or-gas",),
    "stalled_card_gear": (1, 6),
    "car_after_loss_of_control": ("on-the-road",),
    "locked_table": ("first-car-alone",),
    "rally_start_order": ("fastest-first", "slowest-first", "same"),
}
NUMBERS = ("start_stagger_rounds", "stalled_card_gear")


@dataclass(frozen=True)
class TableRules:
    """The table parameters (values by name) and their status and source."""
    values: dict
    sources: dict = field(default_factory=dict)
    path: str | None = None

    def __getattr__(self, name):
        try:
            return self.__dict__["values"][name]
        except KeyError:
            raise AttributeError(name) from None

    def named(self) -> dict:
        """Every parameter with its value, status and source (what a result says it rests on)."""
        return {k: {"value": v, **self.sources.get(k, {})} for k, v in self.values.items()}

    def replace(self, **changes) -> "TableRules":
        bad = [f"{k}={v!r}" for k, v in changes.items() if _problem(k, v)]
        if bad:
            raise DesignerError(f"unknown table rule values: {', '.join(bad)}",
                                hint="; ".join(f"{k}: {_allowed(k)}" for k in changes if k in CHOICES))
        sources = dict(self.sources)
        for k in changes:
            sources[k] = {"status": "decided", "source": "changed for this run"}
        return TableRules({**self.values, **changes}, sources, self.path)


def _allowed(key: str) -> str:
    c = CHOICES[key]
    return f"a whole number from {c[0]} to {c[1]}" if key in NUMBERS else "one of " + ", ".join(map(str, c))


def _problem(key: str, value) -> str | None:
    if key not in CHOICES:
        return f"unknown parameter; known: {', '.join(sorted(CHOICES))}"
    c = CHOICES[key]
    if key in NUMBERS:
        if isinstance(value, bool) or not isinstance(value, int) or not c[0] <= value <= c[1]:
            return _allowed(key)
    elif value not in c:
        return _allowed(key)
    return None


def table_rules_path() -> Path:
    return rules_path(TABLE_RULES_FILE)


def load_table_rules(path: str | Path | None = None) -> TableRules:
    """Read a table rules file, every problem reported at once with its line."""
    p = Path(path) if path is not None else table_rules_path()
    data, lines = yamlio.load(p)
    source = str(p)
    if not isinstance(data, dict):
        raise DesignerError("a table rules file is a YAML mapping of parameters", where=f"{source}:1",
                            hint=f"see tilesets/{TABLE_RULES_FILE}")
    problems: list[tuple[tuple, str]] = []
    values: dict = {}
    sources: dict = {}
    for k, item in data.items():
        if k == "table":
            continue
        if k not in CHOICES:
            problems.append(((k,), f"unknown parameter; known: {', '.join(sorted(CHOICES))}"))
            continue
        if not read_parameter(k, item, problems, values, sources):
            continue
        wrong = _problem(k, item["value"])
        if wrong:
            problems.append(((k, "value"), wrong))
    problems += [((k,), "missing parameter") for k in CHOICES if k not in values and k not in
                 {p_[0] for p_, _ in problems}]
    if problems:
        raise yamlio.schema_error(source, lines, problems, "table rules",
                                  hint=f"compare with tilesets/{TABLE_RULES_FILE}")
    return TableRules(values, sources, source)
