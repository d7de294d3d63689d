"""Tilesets: the faces of the tiles in a box, each with its tile-level facts and its cell graph.

A tileset file is YAML::

    tileset: dirt-core
    title: Rallyman DIRT core box
    system: dirt
    include: [other.yaml]          # optional: faces from other files, same folder (or `official`)
    tiles:
      210a:
        terrain: gravel
        danger: yellow
        edges: {C: 2, D: 2}        # road edges and their lane counts
        links: [[C, D]]            # edges joined by road
        features: {limits: [1, 2]}
        ends: [C, D]               # cell graph: driving reference, from ends[0] to ends[1]
        turn: left
        cells: [...]               # see tilesets/README.md
        slides: [...]

Loading reports every schema problem at once as ``file:line: path: message``.
A face is stored once, direction-free; :mod:`designer.systems.dirt.board.track` orients it when a stage is assembled.
"""
from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from designer.core import diskcache, paths, yamlio
from designer.core.errors import DesignerError
from designer.core.hexgrid import EDGES
from designer.systems.dirt.board.face_checks import EPS, cell_problems, road_problems

Terrain = Literal["gravel", "asphalt", "snow"]
Danger = Literal["yellow", "orange", "red"]
Role = Literal["start", "finish", "start-finish", "assistance", "pit", "filler"]
Turn = Literal["straight", "left", "right", "s-left", "s-right"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Features(_Model):
    """Tile-level summary of what is printed on a face (from the official catalogue)."""
    limits: list[int] = Field(default_factory=list)
    hazard_limits: list[int] = Field(default_factory=list)
    cut: int | None = None
    jumps: list[int] = Field(default_factory=list)
    ford: bool = False
    climb: bool = False
    hazard_space: bool = False


class Cell(_Model):
    """One space of the road (or a cut) in tile coordinates.

    ``lane`` 0 is the driver's left going from ``ends[0]`` to ``ends[1]``; cuts sit in lane -1 or
    ``lanes`` (beside the inside lane). ``span`` is the stretch of road it covers, as fractions of
    the road's length from ``ends[0]`` (0) to ``ends[1]`` (1).
    """
    id: str
    lane: int = Field(ge=-1, le=4)
    span: tuple[float, float]
    limit: int | None = Field(default=None, ge=0, le=6)
    corner: str | None = None
    path: Literal["inside", "outside"] | None = None
    cut: int | None = Field(default=None, ge=1, le=6)
    connects: list[str] = Field(default_factory=list)
    jump: int | None = Field(default=None, ge=1, le=6)
    ford: bool = False
    width: int = Field(default=1, ge=1, le=2)          # 2: one space across lanes ``lane`` and ``lane + 1``
    climb: Literal["up", "down"] | None = None          # ascent / descent marking (Climb tiles)

    @field_validator("span")
    @classmethod
    def _span_order(cls, v):
        a, b = v
        if not (-EPS <= a < b <= 1 + EPS):
            raise ValueError(f"span {list(v)} must be two fractions 0 <= from < to <= 1")
        return v

    @model_validator(mode="after")
    def _corner_path(self):
        if self.corner and not self.path:
            raise ValueError(f"corner cell {self.id} needs path: inside or outside")
        if self.path and not self.corner:
            raise ValueError(f"cell {self.id} has a path but no corner")
        if self.cut is not None and self.corner:
            raise ValueError(f"cut cell {self.id} cannot be a corner cell")
        if self.cut is not None and self.width != 1:
            raise ValueError(f"cut cell {self.id} cannot span two lanes")
        return self

    @property
    def is_cut(self) -> bool:
        return self.cut is not None

    @property
    def lane_range(self) -> tuple[int, int]:
        """First and last lane the cell covers (a ``width: 2`` cell covers two)."""
        return self.lane, self.lane + self.width - 1

    def kind_facts(self) -> dict:
        """What a cell is, whatever road of a face it is listed in (shared cells of a junction agree on these)."""
        return self.model_dump(exclude={"id", "span", "lane", "connects"})


class Slide(_Model):
    """A row crossed by a dashed line: it may be driven as two half-cells across both lanes."""
    span: tuple[float, float]
    split: float

    @model_validator(mode="after")
    def _split_inside(self):
        a, b = self.span
        if not (a < self.split < b):
            raise ValueError(f"split {self.split} must lie inside span {list(self.span)}")
        return self


class Road(_Model):
    """One road of a face with several roads (a crossing) or with a junction of three road ends.

    Each road is a cell graph of its own between its two ``ends``, in the same format as a one-road
    face. A space shared by two roads of a junction is listed in both, with the same id and the same
    facts (its span and lane are those of each road).
    """
    id: str
    ends: list[str]
    turn: Turn = "straight"
    cells: list[Cell]
    slides: list[Slide] = Field(default_factory=list)
    apart: list[tuple[str, str]] = Field(default_factory=list)   # cells the lane model joins that do not touch
    start_line: float | None = None
    finish_line: float | None = None
    notes: str | None = None

    @field_validator("ends")
    @classmethod
    def _two_ends(cls, v):
        if len(v) != 2 or v[0] == v[1]:
            raise ValueError(f"a road has two different ends, not {v}")
        return v


class Face(_Model):
    """One side of one physical tile, e.g. ``210a``.

    A one-road face keeps its cells at the top level (``ends``, ``cells``...); a face with several
    roads lists them in ``roads``. :meth:`road_faces` gives one face per road either way, which is
    what assembly and drawing work on.
    """
    id: str
    terrain: Terrain | None = None
    danger: Danger | None = None
    edges: dict[str, int] = Field(default_factory=dict)
    skew: dict[str, Literal["left", "right"]] = Field(default_factory=dict)
    links: list[tuple[str, str]] = Field(default_factory=list)
    role: Role | None = None
    variants: int = 1
    features: Features = Field(default_factory=Features)
    # The cell graph (None while a face is known at tile level only).
    ends: list[str] | None = None
    turn: Turn = "straight"
    arc: int | None = Field(default=None, ge=0, le=330)   # drawing hint: degrees a hairpin's road turns (410: 240)
    start_line: float | None = None
    finish_line: float | None = None
    cells: list[Cell] | None = None
    slides: list[Slide] = Field(default_factory=list)
    apart: list[tuple[str, str]] = Field(default_factory=list)   # pairs of cells with no move between them
    roads: list[Road] | None = None
    road: str | None = None            # on the face of one road of a several-road face: its id
    beside: int = 0                    # on such a face: how many other roads share no edge with it
    notes: str | None = None

    @field_validator("edges")
    @classmethod
    def _edges_known(cls, v):
        for e, lanes in v.items():
            if e not in EDGES:
                raise ValueError(f"edge {e!r} is not one of A-F")
            if not 1 <= lanes <= 4:
                raise ValueError(f"edge {e} has {lanes} lanes; expected 1 to 4")
        return v

    @model_validator(mode="after")
    def _consistent(self):
        for a, b in self.links:
            for e in (a, b):
                if e not in self.edges:
                    raise ValueError(f"link {a}-{b} uses edge {e}, which is not a road edge of {self.id}")
        if self.ends is not None:
            for e in self.ends:
                if e not in self.edges:
                    raise ValueError(f"ends: {e} is not a road edge of {self.id}")
            if len(self.ends) == 2 and self.ends[0] == self.ends[1]:
                raise ValueError(f"ends: {self.ends} of {self.id} must be two different edges (where the road "
                                 "comes in and where it goes out)")
        for a, b in self.links:
            if a == b:
                raise ValueError(f"link {a}-{b} of {self.id} joins an edge to itself; a road links two edges")
        if self.roads is not None:
            if self.cells is not None or self.ends is not None:
                raise ValueError(f"{self.id}: give either `roads:` or top-level ends/cells, not both")
            problems = road_problems(self, _road_face)
            if problems:
                raise ValueError("; ".join(problems))
        if self.cells is not None:
            if self.ends is None:
                raise ValueError(f"{self.id} has cells but no ends (the driving reference)")
            problems = cell_problems(self)
            if problems:
                raise ValueError("; ".join(problems))
        return self

    # -- derived facts -------------------------------------------------------------------
    @property
    def number(self) -> str:
        return self.id[:3]

    @property
    def side(self) -> str:
        return self.id[3:4]

    @property
    def has_cells(self) -> bool:
        return bool(self.cells) or bool(self.roads)

    def road_faces(self) -> list["Face"]:
        """One face per road: the face itself for a one-road face, else a face for each entry of ``roads``."""
        if not self.roads:
            return [self]
        cached = _ROAD_FACES.get(id(self))
        if cached is not None and cached[0] is self:
            return cached[1]
        out = [_road_face(self, r) for r in self.roads]
        _ROAD_FACES[id(self)] = (self, out)
        return out

    def road_between(self, entry: str | None, exit_: str | None) -> "Face | None":
        """The face of the road that joins ``entry`` to ``exit_`` (the only road from ``entry`` when no exit)."""
        found = []
        for f in self.road_faces():
            if not f.ends:
                continue
            if len(f.ends) == 1:
                ok = f.ends[0] == entry
            else:
                ok = entry in f.ends and (exit_ is None or (exit_ in f.ends and exit_ != entry))
            if ok:
                found.append(f)
        return found[0] if len(found) == 1 else None

    @property
    def lanes(self) -> int:
        return max(self.edges.values()) if self.edges else 0

    def exit_for(self, entry: str) -> list[str]:
        """Edges the road leads to from ``entry``."""
        out = []
        for a, b in self.links:
            if a == entry:
                out.append(b)
            elif b == entry:
                out.append(a)
        return out

    @property
    def kind(self) -> str:
        """straight, curve, hairpin, kink, junction, start, finish, assistance... (for palettes and filters)."""
        if self.role in ("assistance", "pit", "filler"):
            return self.role
        if len(self.links) > 1:
            ends = [e for link in self.links for e in link]
            return "two roads" if len(ends) == len(set(ends)) else "junction"
        if not self.links:
            return "dead-end"
        a, b = self.links[0]
        gap = (EDGES.index(b) - EDGES.index(a)) % 6
        gap = min(gap, 6 - gap)
        if gap == 3:
            return "kink" if self.turn in ("s-left", "s-right") or self._bends() else "straight"
        return "curve" if gap == 2 else "hairpin"

    def _bends(self) -> bool:
        return bool(self.features.limits) and not self.role

    def all_cells(self) -> list[Cell]:
        """Cells including the generated slide half-cells (ids ``s<k>a`` and ``s<k>b``)."""
        cells = list(self.cells or [])
        for k, slide in enumerate(self.slides, start=1):
            a, b = slide.span
            cells.append(Cell(id=f"s{k}a", lane=0, span=(a, slide.split)))
            cells.append(Cell(id=f"s{k}b", lane=0, span=(slide.split, b)))
        return cells

    @property
    def cell_count(self) -> int:
        """Spaces on the face, every road counted (a space two roads of a junction share counts once)."""
        roads = self.road_faces() if self.has_cells else []
        return len({c.id for f in roads for c in f.cells or []}) + sum(2 * len(f.slides) for f in roads)

    def slide_ids(self) -> set[str]:
        return {f"s{k}{h}" for k in range(1, len(self.slides) + 1) for h in "ab"}

    def corner_limits(self) -> set[int]:
        return {c.limit for c in (self.cells or []) if c.limit is not None}


_ROAD_FACES: dict[int, tuple[Face, list[Face]]] = {}


def _road_face(face: Face, road: Road) -> Face:
    return Face.model_construct(
        id=face.id, terrain=face.terrain, danger=face.danger,
        edges={e: face.edges[e] for e in road.ends}, skew={}, links=[tuple(road.ends)], role=face.role,
        variants=face.variants, features=face.features, ends=list(road.ends), turn=road.turn,
        start_line=road.start_line, finish_line=road.finish_line, cells=list(road.cells),
        slides=list(road.slides), apart=list(road.apart), roads=None, road=road.id, notes=road.notes,
        beside=sum(1 for r in face.roads or [] if r is not road and not set(r.ends) & set(road.ends)))


class Tileset(_Model):
    name: str
    title: str = ""
    system: str = "dirt"
    source: str | None = None
    tiles: dict[str, Face]

    def face(self, tile_id: str) -> Face:
        key = normalise_tile_id(tile_id)
        try:
            return self.tiles[key]
        except KeyError:
            raise DesignerError(f"unknown tile {tile_id!r} in tileset {self.name}",
                                hint=_suggest(key, self.tiles)) from None

    def __contains__(self, tile_id: str) -> bool:
        return normalise_tile_id(tile_id) in self.tiles


ALIASES = {"filler1a": "902a", "filler1b": "902b", "filler2a": "903a", "filler2b": "903b",
           "filler3a": "904a", "filler3b": "904b", "podium": "905a"}


def normalise_tile_id(tile_id: str) -> str:
    """``210A`` -> ``210a``; graphic variants (``103a-2``) map to their face; aliases to numbers."""
    t = str(tile_id).strip().lower()
    t = ALIASES.get(t, t)
    if "-" in t:
        t = t.split("-", 1)[0]
    return t


def _suggest(key: str, tiles) -> str:
    near = sorted(t for t in tiles if t[:3] == key[:3])
    return f"this tileset has {', '.join(near)}" if near else "run `rally-designer tiles` to list the faces of the tileset"


# -- loading ------------------------------------------------------------------------------

def tileset_dirs() -> list[Path]:
    """Where tilesets are looked up by name: $RALLY_TILESETS, then the bundled folder."""
    env = os.environ.get("RALLY_TILESETS") or ""
    return [Path(p) for p in env.split(os.pathsep) if p] + [paths.TILESETS]


def find_tileset(name: str, near: Path | None = None) -> Path:
    candidates = []
    if near is not None:
        candidates += [near / f"{name}.yaml", near.parent / "tilesets" / f"{name}.yaml"]
    candidates += [d / f"{name}.yaml" for d in tileset_dirs()]
    for c in candidates:
        if c.is_file():
            return c
    known = sorted({p.stem for d in tileset_dirs() if d.is_dir() for p in d.glob("*.yaml")
                    if not p.stem.endswith("-rules")})
    raise DesignerError(f"no tileset named {name!r}",
                        hint=f"known tilesets: {', '.join(known) or 'none'}; or give a path to a tileset file")


def load_tileset(path: str | Path) -> Tileset:
    """Load a tileset file (and the files it includes), reporting every schema problem at once."""
    return _load_cached(str(Path(path).resolve()), _mtime(path))


def _mtime(path) -> float:
    return Path(path).stat().st_mtime if Path(path).exists() else 0.0


_LOADING: set[str] = set()          # tilesets being read, to refuse an include loop


@functools.lru_cache(maxsize=16)
def _load_cached(path: str, _mtime_key: float) -> Tileset:
    _LOADING.add(path)
    try:
        return _read_through_disk_cache(path)
    finally:
        _LOADING.discard(path)


def _read_through_disk_cache(path: str) -> Tileset:
    """:func:`_read_tileset`, or the same tileset from :mod:`designer.core.diskcache` when the command line has
    switched it on and neither the file nor a file it includes has changed a byte."""
    if not diskcache.enabled():
        return _read_tileset(path)
    try:
        key = path.encode() + b"\0" + Path(path).read_bytes()
    except OSError:
        return _read_tileset(path)
    hit = diskcache.fetch("tileset", key, _CODE, expect={"tileset": Tileset, "includes": [tuple]})
    if hit is not None and all(_digest(dep) == digest for dep, digest in hit["includes"]):
        _DEPS[path] = [dep for dep, _ in hit["includes"]]
        return hit["tileset"]
    tileset = _read_tileset(path)
    includes = sorted(set(_DEPS.get(path, ())))
    diskcache.store("tileset", key, {"tileset": tileset, "includes": [(d, _digest(d)) for d in includes]}, _CODE)
    return tileset


_CODE = (__name__, "designer.systems.dirt.board.face_checks", "designer.core.hexgrid", "designer.core.yamlio",
         "pydantic.version")                                  # the code a cached tileset depends on
_DEPS: dict[str, list[str]] = {}    # a tileset file -> every file it includes, directly or not


def _digest(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def _read_tileset(path: str) -> Tileset:
    _DEPS[path] = []
    data, lines = yamlio.load(path)
    source = path
    try:
        source = os.path.relpath(path)
    except ValueError:
        pass
    if not isinstance(data, dict) or "tiles" not in data:
        raise DesignerError("a tileset file needs a `tiles:` mapping", where=f"{source}:1",
                            hint="see tilesets/README.md for the format")
    problems: list[tuple[tuple, str]] = []
    faces: dict[str, Face] = {}
    includes = data.get("include", []) or []
    if not isinstance(includes, list):
        includes = []
        problems.append((("include",), "must be a list of tileset files in the same folder, e.g. [dirt-core.yaml]"))
    for inc in includes:          # a file of the same folder, else a bundled tileset by name (`official`)
        if not isinstance(inc, str) or Path(inc).name != inc or not inc.strip():
            problems.append((("include",), f"{inc!r} must be the name of a .yaml file in the same folder"))
            continue
        near = [Path(path).parent / inc] if inc.endswith((".yaml", ".yml")) else []
        found = [c for c in near + [d / f"{Path(inc).stem}.yaml" for d in tileset_dirs()] if c.is_file()]
        if not found:
            problems.append((("include",), f"included file {inc} not found in this folder nor among the tilesets"))
            continue
        inc_path = found[0]
        key = str(inc_path.resolve())
        if key in _LOADING:
            problems.append((("include",), f"{inc} includes this file back (an include loop)"))
            continue
        faces.update(load_tileset(inc_path).tiles)
        _DEPS[path].extend([key] + _DEPS.get(key, []))
    tiles = data.get("tiles") or {}
    if not isinstance(tiles, dict):
        problems.append((("tiles",), "must be a mapping from face id (e.g. 210a) to its facts"))
        tiles = {}
    for key, raw in tiles.items():
        if not isinstance(raw, dict):
            problems.append((("tiles", key), "must be a mapping"))
            continue
        try:
            faces[normalise_tile_id(key)] = Face(id=normalise_tile_id(key), **raw)
        except ValidationError as exc:
            problems += yamlio.pydantic_problems(exc, ("tiles", key))
        except TypeError as exc:
            problems.append((("tiles", key), str(exc)))
    if problems:
        raise yamlio.schema_error(source, lines, problems, "tileset",
                                  hint="see tilesets/README.md for the tileset format")
    name = str(data.get("tileset") or Path(path).stem)
    return Tileset(name=name, title=str(data.get("title", "")), system=str(data.get("system", "dirt")),
                   source=data.get("source"), tiles=faces)


def get_tileset(name_or_path: str, near: Path | None = None) -> Tileset:
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") and (p.is_file() or (near and (near / p).is_file())):
        return load_tileset(p if p.is_file() else near / p)
    return load_tileset(find_tileset(name_or_path, near))
