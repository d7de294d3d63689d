"""What goes wrong under the dice in Rallyman: DIRT, and what it costs: the parameters of a loss of control
(the time card's back: spin, crash or SISU), crash damage by danger colour, the damage and cut sides of the
token bag, the spare wheel and abandoning, plus the bounds of the expected-time model.

They live in the same file as the rest of the ruleset (``tilesets/dirt-rules.yaml``), each written
``{value, status, source}``; the rulebook prints none of these numbers, so most are *assumed*.

>>> m = load_mishaps()
>>> round(sum(m.card_backs.values()), 6), m.crash_marks("red", 4)
(1.0, 3)
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from designer.core import yamlio
from designer.core.errors import DesignerError
from designer.systems.dirt.driving.ruleset import READ_ELSEWHERE, load_parameter_file, read_parameter

DANGERS = ("yellow", "orange", "red")
DAMAGE_KINDS = ("green", "gear", "brake", "gas")
CUT_KINDS = ("ok", "flat", "mud")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class _Sisu(_Model):
    seconds: int = Field(ge=0)
    gear: Literal["same"] | int = "same"


class _Bounds(_Model):
    max_tokens: int = Field(ge=0, le=40)
    max_secured: int = Field(ge=0, le=8)
    max_damage: int = Field(ge=0, le=6)
    damage_turns: float = Field(default=0.0, ge=0)
    most_damage: int | None = Field(default=None, ge=0, le=6)


class _Values(_Model):
    card_backs: dict[Literal["spin", "crash", "sisu"], float]
    sisu_card: _Sisu
    crash_damage_marks: dict[Literal["yellow", "orange", "red"], list[int]]
    damage_tokens: dict[Literal["green", "gear", "brake", "gas"], int]
    cut_tokens: dict[Literal["ok", "flat", "mud"], int]
    spare_wheel_seconds: int = Field(ge=0)
    abandon_seconds: int = Field(ge=0)
    expected_bounds: _Bounds

    @field_validator("card_backs")
    @classmethod
    def _backs(cls, v):
        if any(x < 0 for x in v.values()) or abs(sum(v.values()) - 1.0) > 1e-6:
            raise ValueError("spin, crash and sisu are chances that add up to 1")
        return v

    @field_validator("crash_damage_marks")
    @classmethod
    def _marks(cls, v):
        for colour, marks in v.items():
            if len(marks) != 6 or any(m < 0 for m in marks):
                raise ValueError(f"{colour}: six counts (gears 1 to 6), none negative")
        if set(v) != set(DANGERS):
            raise ValueError("give yellow, orange and red")
        return v

    @model_validator(mode="after")
    def _bags(self):
        for name in ("damage_tokens", "cut_tokens"):
            bag = getattr(self, name)
            if any(n < 0 for n in bag.values()) or sum(bag.values()) <= 0:
                raise ValueError(f"{name}: counts of tokens, none negative, at least one token")
        return self


@dataclass(frozen=True)
class Mishaps:
    """The costs of a loss of control, of damage and of cuts (see ``tilesets/dirt-rules.yaml``)."""
    card_backs: dict[str, float]
    sisu_seconds: int
    sisu_gear: str | int
    crash_damage_marks: dict[str, tuple[int, ...]]
    damage_tokens: dict[str, int]
    cut_tokens: dict[str, int]
    spare_wheel_seconds: int
    abandon_seconds: int
    max_tokens: int
    max_secured: int
    max_damage: int
    damage_turns: float = 0.0      # one more damage token tracked while more turns than this start at the bound
    most_damage: int | None = None  # the most damage tokens ever tracked (None: max_damage, never more)
    sources: dict[str, dict[str, str]] = field(default_factory=dict, compare=False)

    @property
    def key(self) -> tuple:
        return tuple(getattr(self, f.name) if not isinstance(getattr(self, f.name), dict)
                     else tuple(sorted(getattr(self, f.name).items()))
                     for f in dataclasses.fields(self) if f.name != "sources")

    def crash_marks(self, danger: str | None, gear: int) -> int:
        """Damage tokens drawn after a crash in ``gear`` on a tile of colour ``danger`` (orange when unknown)."""
        marks = self.crash_damage_marks.get(danger or "orange", self.crash_damage_marks["orange"])
        return marks[max(1, min(6, gear)) - 1] if gear >= 1 else 0

    def damage_chances(self) -> dict[str, float]:
        total = sum(self.damage_tokens.values())
        return {k: n / total for k, n in self.damage_tokens.items()}

    @property
    def flat_chance(self) -> float:
        return self.cut_tokens.get("flat", 0) / sum(self.cut_tokens.values())

    def replace(self, **changes) -> "Mishaps":
        return dataclasses.replace(self, **changes)

    def assumed(self) -> dict[str, Any]:
        """Every value the expected time rests on with its status and source (for the analysis JSON)."""
        out = {}
        for name, info in self.sources.items():
            out[name] = {"value": self._value_of(name), **info}
        return out

    def _value_of(self, name: str):
        return {
            "card_backs": dict(self.card_backs),
            "sisu_card": {"seconds": self.sisu_seconds, "gear": self.sisu_gear},
            "crash_damage_marks": {k: list(v) for k, v in self.crash_damage_marks.items()},
            "damage_tokens": dict(self.damage_tokens), "cut_tokens": dict(self.cut_tokens),
            "spare_wheel_seconds": self.spare_wheel_seconds, "abandon_seconds": self.abandon_seconds,
            "expected_bounds": {"max_tokens": self.max_tokens, "max_secured": self.max_secured,
                                "max_damage": self.max_damage, "damage_turns": self.damage_turns,
                                "most_damage": self.most_damage},
        }.get(name)


_CACHE: dict[tuple[str, float], Mishaps] = {}


def wheel_change(state) -> tuple | None:
    """The turn boundary after changing a flat tyre from ``state`` (cell, gear, damage) (p. 20 'La roue de
    secours': at the end of a turn in gear 1, one flat mended, the spare spent, the car in gear 0), or None where
    the rule allows no change (another gear, no flat, the spare spent)."""
    cell, gear, (g, s, b, spare, su) = state
    return (cell, 0, (g, s - 1, b, 1, su)) if gear == 1 and s > 0 and not spare else None


def load_mishaps(path: str | Path | None = None) -> Mishaps:
    """The mishap parameters of a DIRT ruleset file (default ``tilesets/dirt-rules.yaml``)."""
    return load_parameter_file(path, _CACHE, _mishaps_from)


def _mishaps_from(data, lines, source: str):
    if not isinstance(data, dict):
        raise DesignerError("a ruleset file is a YAML mapping of parameters", where=f"{source}:1")
    problems: list[tuple[tuple, str]] = []
    values: dict[str, Any] = {}
    sources: dict[str, dict[str, str]] = {}
    for k in sorted(READ_ELSEWHERE):
        item = data.get(k)
        if item is None:
            problems.append(((k,), "missing parameter (needed for the expected time under the dice)"))
            continue
        read_parameter(k, item, problems, values, sources)
    parsed = None
    if not problems:
        try:
            parsed = _Values(**values)
        except ValidationError as exc:
            problems += [((p_[0], "value") + tuple(p_[1:]) if p_ else p_, m)
                         for p_, m in yamlio.pydantic_problems(exc)]
    if problems or parsed is None:
        raise yamlio.schema_error(source, lines, problems, "ruleset", hint="compare with tilesets/dirt-rules.yaml")
    v = parsed
    out = Mishaps(card_backs=dict(v.card_backs), sisu_seconds=v.sisu_card.seconds, sisu_gear=v.sisu_card.gear,
                  crash_damage_marks={k: tuple(m) for k, m in v.crash_damage_marks.items()},
                  damage_tokens=dict(v.damage_tokens), cut_tokens=dict(v.cut_tokens),
                  spare_wheel_seconds=v.spare_wheel_seconds, abandon_seconds=v.abandon_seconds,
                  max_tokens=v.expected_bounds.max_tokens, max_secured=v.expected_bounds.max_secured,
                  max_damage=v.expected_bounds.max_damage, damage_turns=v.expected_bounds.damage_turns,
                  most_damage=v.expected_bounds.most_damage, sources=sources)
    return out
