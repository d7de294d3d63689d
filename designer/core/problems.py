"""Problems found when a stage is checked: a code, a severity, where, what is wrong and how to fix it.

Every game system returns a list of objects with this shape from its ``validate``; a system may use this
class as it is or its own class with the same attributes (DIRT's adds the index of the tile).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Literal

Severity = Literal["error", "warning", "info"]
SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class Problem:
    code: str
    severity: Severity
    message: str
    hint: str = ""
    where: str = "stage"

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}"
        return text + (f" (hint: {self.hint})" if self.hint else "")

    def to_dict(self) -> dict:
        return {"code": self.code, "severity": self.severity, "message": self.message, "hint": self.hint,
                "where": self.where}


def errors(problems: Iterable) -> list:
    """The problems that make a stage invalid."""
    return [p for p in problems if p.severity == "error"]


def is_valid(problems: Iterable) -> bool:
    return not errors(problems)
