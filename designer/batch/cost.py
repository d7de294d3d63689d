"""A rough guess, before any analysis, of how long each file of a batch takes: only to hand the longest out first.

On two workers, a long stage handed out last keeps one worker busy while the other waits; handed out first, the
short ones fill in around it. The guess reads the file's top keys (a few milliseconds a file, in the calling
process) and never fails: a file it cannot read is guessed short (its job only reports the problem). The figures
are CPU seconds of the analysis with the expected time, fitted loosely on the bundled stages (a rulebook DIRT stage
of 10 to 15 tiles takes 0.5 to 4 s; the RX circuit of three laps with a joker about 6 s); only their order
matters.

>>> guess_text("tiles: [202a A, 210b C, 205a D]\\nlaps: 2\\n") > guess_text("tiles: [202a A, 210b C]\\n")
True
>>> guess_text("system: rallye\\ncards: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\\n")
3.0
>>> guess_text(": not yaml [")
0.5
"""
from __future__ import annotations

from pathlib import Path

import yaml

READ_BYTES = 64 * 1024        # a stage file is a few hundred bytes; a larger one is guessed by its size
UNKNOWN = 0.5                 # a file that cannot be read or has no stage in it: its job is quick
RALLY = 0.05                  # a rally or a box: the job skips it

# per system: CPU seconds per unit of road (DIRT: a tile driven once, laps counted; classic: a zone board crossed;
# Rallye: a section card) and for a stage with none given
PER_PIECE = {"dirt": 0.15, "classic": 1.5, "rallye": 0.25, "greatrace": 1.0}
JOKER = 1.5                   # an RX stage of several laps with a joker route: measured about 1.5 times its laps


def guess(path: str | Path) -> float:
    """The guessed CPU seconds of analysing every stage of ``path`` (see the module's docstring)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(READ_BYTES + 1)
    except OSError:
        return UNKNOWN
    if len(data) > READ_BYTES:                 # far larger than any stage: guessed by its size
        return PER_PIECE["dirt"] * len(data) / 40
    try:
        return guess_text(data.decode("utf-8", errors="replace"))
    except Exception:                          # a guess never stops a batch
        return UNKNOWN


def guess_text(text: str) -> float:
    try:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        doc = yaml.load(text, Loader=loader)  # noqa: S506 (a safe loader)
    except Exception:
        return UNKNOWN
    if not isinstance(doc, dict):
        return UNKNOWN
    system = str(doc.get("system") or "dirt").strip().lower()
    if "stages" in doc and not any(k in doc for k in ("tiles", "cards", "share", "route", "start")):
        return RALLY
    if system.startswith("rallye"):
        cards = doc.get("cards")
        return PER_PIECE["rallye"] * (len(cards) if isinstance(cards, list) else 12)
    if system.startswith(("classic", "rallyman")) and system != "rallyman-dirt":
        route = doc.get("share") or doc.get("route")
        boards = route.count("/") + route.count("|") + 1 if isinstance(route, str) else 2
        return PER_PIECE["classic"] * boards
    if system.startswith(("greatrace", "great-race", "the-great-race")):
        return PER_PIECE["greatrace"]
    tiles = doc.get("tiles")
    if not isinstance(tiles, list):
        return UNKNOWN
    laps = doc.get("laps", 1)
    laps = laps if isinstance(laps, int) and 1 <= laps <= 100 else 1
    joker = laps > 1 and any(isinstance(t, str) and "@" in t for t in tiles)
    return PER_PIECE["dirt"] * len(tiles) * laps * (JOKER if joker else 1.0)
