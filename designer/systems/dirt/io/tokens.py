"""Tokens in the files of other editors, to and from our :class:`~designer.systems.dirt.board.tokens.Token`.

Ids [reference facts, section 4, from rekee ``src/import.rs`` and ``src/token.rs``]:

* ``.rgt`` (official editor): ``asphalt|dirt|ice`` + ``1`` chicane with a limit, ``2`` chicane, ``3`` water,
  ``4`` jump; ``climbm1`` ascent, ``climbp1`` descent, ``climbw`` cloud, ``climbr1..3`` oxygen;
  ``greendoor`` joker entrance, ``reddoor`` joker exit, ``whitedoor`` finish arch.
* rekee: ``chicane[-limit]-<terrain>``, ``water-<terrain>``, ``jump-<terrain>`` (terrain ``asphalt``,
  ``gravel``, ``snow``, or none), ``climb-ascent``, ``climb-descent``, ``cloud``, ``oxygen-<n>``,
  ``joker-entrance``, ``joker-exit``, ``finish``, ``mud-spray`` (the core box's cut token on its "-1" side).
* The official editor has no mud spray: ``.rgt`` files cannot carry it, so an export to ``.rgt`` leaves it
  out and names it in the file's extra field ``Notes`` (:data:`RGT_UNSUPPORTED`); rekee and our YAML keep it.

Positions. Both files place a token on the tile as it lies upright (A at the top), in the tile's own
frame: the same two tokens sit at the same numbers on a tile turned 0 and 5 steps in rekee's
``chicane-example1`` and ``chicane-example2`` files. rekee writes fractional axial coordinates of its own
grid; the official editor writes ``X`` and ``Y`` in tile radii. The two examples put one token at rekee
``q = 0.33`` and ``.rgt`` ``X = -0.5716`` (= -0.33 * sqrt 3), the point 0.57 radii above the centre: so
``X`` is our ``y`` (down). ``Y`` is taken as our ``x`` (to the right), as the editor's tile ``Y`` counts
columns to the right; no example file has a token off the vertical axis to confirm its sign.
Rotations: ``.rgt`` in degrees, rekee in 60-degree steps (180.0 and 3.0 in those files).
"""
from __future__ import annotations

import math
from typing import Any

from designer.systems.dirt.board.tokens import Token

SQRT3 = math.sqrt(3.0)
RGT_TERRAIN = {"asphalt": "asphalt", "dirt": "gravel", "ice": "snow"}
RGT_PREFIX = {v: k for k, v in RGT_TERRAIN.items()}
RGT_NUMBERED = {"1": "chicane-limit", "2": "chicane", "3": "water", "4": "jump"}
RGT_NUMBER = {v: k for k, v in RGT_NUMBERED.items()}
RGT_OTHER = {"climbm1": "climb-ascent", "climbp1": "climb-descent", "climbw": "cloud", "greendoor": "joker-entrance",
             "reddoor": "joker-exit", "whitedoor": "finish"}
RGT_OTHER_ID = {v: k for k, v in RGT_OTHER.items()}
TERRAIN_KINDS = ("chicane-limit", "chicane", "water", "jump")
RGT_UNSUPPORTED = ("mud-spray",)         # kinds the official editor has no token for


def _num(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        return None
    return float(v)


def _at(x: float | None, y: float | None) -> tuple[float, float] | None:
    if x is None or y is None or abs(x) > 2 or abs(y) > 2:
        return None
    return (round(x, 4), round(y, 4))


def from_rgt(raw: Any, tile_terrain: str | None = None) -> Token | None:
    """Our token of one ``.rgt`` token (None when the id is unknown)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("TokenId"), str):
        return None
    tid = raw["TokenId"].strip().lower()
    kind, terrain, value = None, None, None
    for prefix, ter in RGT_TERRAIN.items():
        if tid.startswith(prefix) and tid[len(prefix):] in RGT_NUMBERED:
            kind, terrain = RGT_NUMBERED[tid[len(prefix):]], ter
    if tid in RGT_OTHER:
        kind = RGT_OTHER[tid]
    if tid.startswith("climbr") and tid[6:].isdigit():
        kind, value = "oxygen", int(tid[6:])
    if kind is None:
        return None
    deg = _num(raw.get("Orientation")) or 0.0
    return Token(kind=kind, terrain=terrain, at=_at(_num(raw.get("Y")), _num(raw.get("X"))),
                 dir=round(deg / 60.0, 4) % 6, value=value)


def to_rgt(tok: Token, at: tuple[float, float], tile_terrain: str | None) -> dict:
    """The ``.rgt`` token of ours, lying at ``at`` (our tile frame)."""
    if tok.kind in TERRAIN_KINDS:
        terrain = tok.terrain or tile_terrain or "gravel"
        tid = RGT_PREFIX[terrain] + RGT_NUMBER[tok.kind]
    elif tok.kind == "oxygen":
        tid = f"climbr{tok.value or 1}"
    else:
        tid = RGT_OTHER_ID[tok.kind]
    return {"X": round(at[1], 7), "Y": round(at[0], 7), "Orientation": round(tok.dir * 60.0, 4), "TokenId": tid}


def from_rekee(raw: Any) -> Token | None:
    """Our token of one rekee token (None when the id is unknown)."""
    if isinstance(raw, list) and raw:
        raw = {"id": raw[0], "q": raw[1] if len(raw) > 1 else 0.0, "r": raw[2] if len(raw) > 2 else 0.0,
               "dir": raw[3] if len(raw) > 3 else 0.0}
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        return None
    tid = raw["id"].strip().lower().replace(" ", "-")
    terrain, value = None, None
    head, _, tail = tid.rpartition("-")
    if head and tail in ("asphalt", "gravel", "snow"):
        tid, terrain = head, tail
    elif head and tail.isdigit():
        tid, value = head, int(tail)
    kinds = {"chicane": "chicane", "chicane-limit": "chicane-limit", "water": "water", "jump": "jump",
             "climb-ascent": "climb-ascent", "climb-descent": "climb-descent", "cloud": "cloud",
             "oxygen": "oxygen", "joker-entrance": "joker-entrance", "joker-exit": "joker-exit", "finish": "finish",
             "mud-spray": "mud-spray"}
    if tid not in kinds:
        return None
    q, r = _num(raw.get("q")), _num(raw.get("r"))
    at = None
    if q is not None and r is not None:
        at = _at(1.5 * r, -SQRT3 * (q + r / 2.0))
    return Token(kind=kinds[tid], terrain=terrain, at=at, dir=round(_num(raw.get("dir")) or 0.0, 4) % 6,
                 value=value if tid == "oxygen" else None)


def to_rekee(tok: Token, at: tuple[float, float]) -> dict:
    x, y = at
    r = x / 1.5
    q = -y / SQRT3 - r / 2.0
    tid = tok.kind
    if tok.kind in TERRAIN_KINDS and tok.terrain:
        tid += f"-{tok.terrain}"
    if tok.kind == "oxygen" and tok.value:
        tid += f"-{tok.value}"
    return {"id": tid, "q": round(q, 4), "r": round(r, 4), "dir": round(tok.dir, 4)}
