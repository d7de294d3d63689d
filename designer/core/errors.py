"""Errors a user can act on: each says where it happened and how to fix it.

Front ends print ``str(error)`` and exit with code 2; they never show a traceback for these.
"""
from __future__ import annotations


class DesignerError(Exception):
    """A problem with the user's input (a file, a name, a value), with a place and a hint."""

    def __init__(self, message: str, where: str | None = None, hint: str | None = None,
                 details: list[str] | None = None):
        super().__init__(message)
        self.message = message
        self.where = where
        self.hint = hint
        self.details = list(details or [])

    def __str__(self) -> str:
        head = f"{self.where}: {self.message}" if self.where else self.message
        lines = [head, *(d for d in self.details if d.strip() != head.strip())]   # a lone detail is the head
        if self.hint:
            lines.append(f"hint: {self.hint}")
        return "\n".join(lines)


class SchemaError(DesignerError):
    """A file that parses but breaks its schema; ``details`` holds one ``file:line: path: message`` each."""
