"""Validation as the app shows it: a stage being built reads "incomplete" rather than wrong, the tile just
placed is named first, and hints speak of the page rather than the command line. Plain functions.

>>> from designer.systems.dirt.board.validate import Problem
>>> building = [Problem("open-road", "error", "the road leaves by edge D and no tile follows", "", 2, "208a"),
...             Problem("no-finish", "error", "the stage ends with 208a, not a finish tile", "", 2, "208a")]
>>> status(building, 3)
'incomplete'
>>> status(building[:1] + [Problem("overlap", "error", "sits on tile 1", "", 1, "205a")], 3)
'errors'
"""
from __future__ import annotations

import re

#: Errors that only say the road has not reached a finish yet, when they are about the last tile.
BUILDING_CODES = {"open-road", "no-finish"}

_CLI_HINTS = [
    (re.compile(r"run `?rally-designer tiles`?[^;.]*"), "the palette lists every face of the tileset"),
    (re.compile(r"run `?rally-designer [a-z]+`?"), "use the tabs of this page"),
]


def status(problems, n_tiles: int) -> str:
    """``valid``, ``incomplete`` (empty, or every error only says the road has no finish yet) or ``errors``."""
    errors = [p for p in problems if p.severity == "error"]
    if not errors:
        return "valid"
    if all(p.code == "empty" for p in errors):
        return "incomplete"
    if all(p.code in BUILDING_CODES and p.tile == n_tiles - 1 for p in errors):
        return "incomplete"
    return "errors"


def web_hint(hint: str) -> str:
    """A hint written for the command line, said for someone using the page."""
    for pattern, words in _CLI_HINTS:
        hint = pattern.sub(words, hint)
    return hint


def ordered(problems, latest: int | None) -> list:
    """Problems with those about the tile just placed or edited first, then errors, warnings and notes."""
    rank = {"error": 0, "warning": 1, "info": 2}
    return sorted(problems, key=lambda p: (p.tile != latest if latest is not None else True,
                                           rank.get(p.severity, 3)))


def overlapping(track, problems) -> tuple[int, ...]:
    """The tiles to draw hatched: those on a place validation calls an overlap (a crossing driven twice shares
    its place legally and is not marked)."""
    wrong = {p.tile for p in problems if p.code == "overlap"}
    return tuple(sorted(i for i, others in shared_places(track).items() if wrong & {i, *others}))


def shared_places(track) -> dict[int, list[int]]:
    """For every tile laid on a place that another tile also takes: the other tiles there (0-based)."""
    by_hex: dict[tuple[int, int], list[int]] = {}
    for t in track.tiles:
        by_hex.setdefault(t.hex, []).append(t.index)
    out: dict[int, list[int]] = {}
    for indices in by_hex.values():
        if len(indices) > 1:
            for i in indices:
                out[i] = [j for j in indices if j != i]
    return out
