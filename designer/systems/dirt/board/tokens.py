"""Tokens laid on tiles: chicanes (with or without a limit), water and jumps (asphalt, gravel and snow
prints), Climb markers, RX arches and the mud spray (the cut token on its "-1" side).

A token belongs to the stage, not to the tile: it is written on a placement of the stage::

    tiles:
      - {tile: 205a, entry: D, tokens: [{kind: water, cell: a2}, {kind: chicane-limit, at: [0.0, -0.57], value: 2}]}

``cell`` names the space it lies on; ``at`` is where it lies on the upright tile (x to the right, y down, in
tile radii from the tile's centre: the frame of the other editors' files), used when no cell is named.
What each kind does to its space is a parameter in ``tilesets/dirt-token-rules.yaml``.

Functions for editors (the app): :func:`token_kinds`, :func:`cells_for_tokens`, :func:`add_token`,
:func:`remove_token`, :func:`tokens_of` (each returns a new stage; nothing is written anywhere), and
:func:`token_position` (where a token lies on its tile, for drawings and exported files). This module
imports neither the stage nor the assembly (they import it).
"""
from __future__ import annotations

import functools
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from designer.core import paths, yamlio
from designer.core.errors import DesignerError

TokenKind = Literal["chicane", "chicane-limit", "water", "jump", "climb-ascent", "climb-descent", "cloud",
                    "oxygen", "joker-entrance", "joker-exit", "finish", "mud-spray"]
KINDS: tuple[str, ...] = TokenKind.__args__
LABELS = {"chicane": "chicane", "chicane-limit": "chicane with a speed limit", "water": "water (ford)",
          "jump": "jump", "climb-ascent": "ascent", "climb-descent": "descent", "cloud": "cloud",
          "oxygen": "oxygen", "joker-entrance": "joker entrance arch", "joker-exit": "joker exit arch",
          "finish": "finish arch", "mud-spray": "mud spray (-1 on the corners)"}


class Token(BaseModel):
    """One token on a tile of a stage."""
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    kind: TokenKind
    terrain: Literal["asphalt", "gravel", "snow"] | None = None
    cell: str | None = None
    at: tuple[float, float] | None = None
    dir: float = 0.0                       # turned this many 60-degree steps clockwise (fractions allowed)
    value: int | None = Field(default=None, ge=0, le=9)   # chicane limit, jump value or oxygen number

    @model_validator(mode="after")
    def _where(self):
        if self.at is not None and any(abs(v) > 2 for v in self.at):
            raise ValueError(f"token {self.kind}: at {list(self.at)} is off the tile (coordinates are tile radii, "
                             "within -1..1)")
        return self

    def label(self) -> str:
        text = LABELS[self.kind]
        if self.value is not None and self.kind in ("chicane-limit", "jump", "oxygen"):
            text += f" {self.value}"
        if self.terrain:
            text += f" ({self.terrain})"
        return text


# -- effects --------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def token_rules() -> dict[str, dict]:
    """The effect of each kind, from ``tilesets/dirt-token-rules.yaml`` (value, status, source)."""
    path = paths.TILESETS / "dirt-token-rules.yaml"
    data, _lines = yamlio.load(path)
    effects = (data or {}).get("effects") if isinstance(data, dict) else None
    if not isinstance(effects, dict):
        raise DesignerError("the token rules need an `effects:` mapping", where=str(path))
    missing = [k for k in KINDS if k not in effects]
    if missing:
        raise DesignerError(f"the token rules say nothing of {', '.join(missing)}", where=str(path),
                            hint="give every token kind an entry {value: {effect: ...}, status, source}")
    return {k: dict(effects[k]) for k in KINDS}


@functools.lru_cache(maxsize=1)
def climb_rule() -> dict:
    """What the ascent and descent markings do: ``{"effect": "none"}`` or ``{"effect": "limit", "up": n, "down": m}``."""
    path = paths.TILESETS / "dirt-token-rules.yaml"
    data, _lines = yamlio.load(path)
    rule = (data or {}).get("climb_marks", {}) if isinstance(data, dict) else {}
    value = rule.get("value") if isinstance(rule, dict) else None
    if not isinstance(value, dict) or value.get("effect") not in ("none", "limit"):
        raise DesignerError("climb_marks needs value: {effect: none} or {effect: limit, up: N, down: M}",
                            where=str(path))
    if value["effect"] == "limit" and not all(isinstance(value.get(k), int) for k in ("up", "down")):
        raise DesignerError("climb_marks with effect: limit needs whole numbers `up` and `down`", where=str(path))
    return dict(value, status=rule.get("status"), source=rule.get("source"))


@functools.lru_cache(maxsize=1)
def joker_rule() -> dict:
    """The RX joker rule: ``{"laps": n, "status", "source", "source_short"}``, n joker laps each car drives."""
    path = paths.TILESETS / "dirt-token-rules.yaml"
    data, _lines = yamlio.load(path)
    rule = (data or {}).get("rx_joker", {}) if isinstance(data, dict) else {}
    value = rule.get("value") if isinstance(rule, dict) else None
    if not isinstance(value, dict) or not isinstance(value.get("laps"), int) or not 0 <= value["laps"] <= 1:
        raise DesignerError("rx_joker needs value: {laps: 0 or 1} (joker laps each car drives)", where=str(path))
    source = str(rule.get("source") or "")
    return dict(value, status=rule.get("status"), source=source, source_short=source.split(";")[0])


def apply_climb_rule(g) -> None:
    """Limits from climb marks on every cell of a graph, when the parameter gives them an effect."""
    rule = climb_rule()
    if rule["effect"] != "limit":
        return
    for _n, d in g.nodes(data=True):
        if d.get("climb"):
            cap = int(rule[d["climb"]])
            d["limit"] = cap if d.get("limit") is None else min(cap, d["limit"])


def effect_of(token: Token) -> dict:
    """``{"effect": limit|closed|ford|jump|climb|none, ...}`` with the token's own value where it has one."""
    eff = dict(token_rules()[token.kind]["value"])
    if token.value is not None:
        if eff.get("effect") == "limit":
            eff["limit"] = token.value
        elif eff.get("effect") == "jump":
            eff["jump"] = max(1, token.value)
    return eff


def token_cell(tile, token: Token) -> str | None:
    """The id of the cell (of the road a placement drives) that a token lies on; None when off that road."""
    face = tile.driven
    ids = {c.id for c in face.cells or []}
    if token.cell is not None:
        return token.cell if token.cell in ids else None
    if token.at is None:
        return None
    from shapely.geometry import Point

    from designer.systems.dirt.board import geometry

    polys = geometry.face_cell_polygons(face)
    point = Point(token.at)
    best, best_d = None, 0.12          # further than this from every cell: off the road
    for cid, poly in polys.items():
        if cid not in ids:
            continue
        cut = next(c for c in face.cells if c.id == cid).is_cut
        d = poly.distance(point) + (0.001 if cut else 0.0)
        if d < best_d:
            best, best_d = cid, d
    return best


def apply_tokens(g, tile, i: int, tokens) -> None:
    """Change the cells of the ``i``-th tile of a cell graph under its tokens; log what each token did in
    ``g.graph["tokens"]`` (kind, tile index, cell or None, effect)."""
    log = g.graph.setdefault("tokens", [])
    for tok in tokens:
        eff = effect_of(tok)
        cid = token_cell(tile, tok)
        node = f"{i}:{cid}" if cid else None
        entry = {"tile": tile.index, "tile_id": tile.tile, "kind": tok.kind, "cell": cid,
                 "effect": eff.get("effect", "none"), "label": tok.label(),
                 "token": f"{tile.hex}:{tok.model_dump_json()}"}     # the same token seen from each drive
        if eff.get("effect") == "corners":
            entry["cell"] = _mud(g, i, int(eff.get("by", 1))) or cid
            log.append(entry)
            continue
        if node in g:
            d = g.nodes[node]
            kind = eff.get("effect")
            if kind == "limit":
                d["limit"] = min(int(eff["limit"]), d["limit"]) if d.get("limit") is not None else int(eff["limit"])
            elif kind == "closed":
                d["closed"] = True
            elif kind == "ford":
                d["ford"] = True
            elif kind == "jump":
                d["jump"] = int(eff["jump"])
            elif kind == "climb":
                d["climb"] = eff["climb"]
            d.setdefault("tokens", []).append(tok.kind)
        log.append(entry)


def _mud(g, i: int, by: int) -> str | None:
    """Every corner space of the ``i``-th tile loses ``by`` of its limit (a space at 0 or less is closed); a
    cut keeps its own. Returns one of the spaces it changed (None: the tile has no corner)."""
    prefix, changed = f"{i}:", None
    for node, d in g.nodes(data=True):
        if node.startswith(prefix) and d.get("corner") and not d.get("cut") and d.get("limit") is not None:
            d["limit"] -= by
            if d["limit"] <= 0:
                d["closed"] = True
            d.setdefault("tokens", []).append("mud-spray")
            changed = changed or d["cell"]
    return changed


# -- editing (plain functions for the app) ------------------------------------------------------

def token_kinds() -> list[tuple[str, str, str]]:
    """(kind, label, what it does) of every token kind, for a picker."""
    rules = token_rules()
    out = []
    for k in KINDS:
        eff = rules[k]["value"]
        what = {"limit": f"speed limit {eff.get('limit')} on its space", "closed": "closes its space",
                "ford": "its space is a ford", "jump": f"jump {eff.get('jump')} on its space",
                "climb": f"marks its space as {'an ascent' if eff.get('climb') == 'up' else 'a descent'}",
                "corners": f"every corner space of its tile -{eff.get('by', 1)}",
                "none": "no effect on the analysis"}.get(eff.get("effect"), "no effect")
        out.append((k, LABELS[k], f"{what} ({rules[k].get('status', 'assumed')})"))
    return out


def tokens_of(stage) -> list[tuple[int, int, Token]]:
    """(tile index, token index, token) of every token of a stage."""
    return [(i, k, tok) for i, p in enumerate(stage.tiles) for k, tok in enumerate(p.tokens)]


def cells_for_tokens(stage, index: int, tileset) -> list[str]:
    """Ids of the cells a token may be put on, on the ``index``-th tile of a stage: those of the road the
    placement drives (named by its entry and exit edges), else of every road of the face."""
    _check_index(stage, index)
    p = stage.tiles[index]
    if p.tile not in tileset:
        return []
    face = tileset.face(p.tile)
    road = face.road_between(p.entry, p.exit) if p.entry else None
    roads = [road] if road is not None else face.road_faces()
    out: list[str] = []
    for r in roads:
        out += [c.id for c in r.cells or [] if not c.is_cut and c.id not in out]
    return out


def add_token(stage, index: int, kind: str, *, cell: str | None = None, at=None, value: int | None = None,
              terrain: str | None = None, dir: float = 0.0):
    """A copy of ``stage`` with one more token on its ``index``-th tile."""
    _check_index(stage, index)
    tok = Token(kind=kind, cell=cell, at=tuple(at) if at is not None else None, value=value, terrain=terrain,
                dir=dir)
    tiles = list(stage.tiles)
    tiles[index] = tiles[index].model_copy(update={"tokens": list(tiles[index].tokens) + [tok]})
    return stage.with_tiles(tiles)


def remove_token(stage, index: int, k: int):
    """A copy of ``stage`` without the ``k``-th token of its ``index``-th tile."""
    _check_index(stage, index)
    toks = list(stage.tiles[index].tokens)
    if not 0 <= k < len(toks):
        raise DesignerError(f"tile {index + 1} has no token {k + 1}", hint=f"it has {len(toks)} token(s)")
    del toks[k]
    tiles = list(stage.tiles)
    tiles[index] = tiles[index].model_copy(update={"tokens": toks})
    return stage.with_tiles(tiles)


def _check_index(stage, index: int) -> None:
    if not 0 <= index < len(stage.tiles):
        raise DesignerError(f"the stage has no tile {index + 1}", hint=f"tiles are 1 to {len(stage.tiles)}")


def token_position(tile, tok: Token) -> tuple[float, float]:
    """Where a token lies on its upright tile: its own ``at``, else the middle of its cell, else the centre."""
    if tok.at is not None:
        return tok.at
    if tok.cell is not None and tile is not None:
        from designer.systems.dirt.board import geometry

        face = tile.driven
        cell = next((c for c in face.cells or [] if c.id == tok.cell), None)
        if cell is not None:
            x, y = geometry.cell_anchor(face, cell)
            return (round(x, 4), round(y, 4))
    return (0.0, 0.0)
