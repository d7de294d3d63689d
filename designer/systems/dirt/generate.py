"""Stage generator: stages that are valid by construction, under a player's constraints, searched for a
difficulty target expressed in the analysis' own figures.

A candidate is built tile by tile from the boxes owned: a start tile, road tiles each attached to the previous
tile's exit at a free table position (so no overlap and the road always joins), a finish tile, and the
assistance tile when asked. Only tiles still in the box are used (a tile has two faces; one face at a time per
copy), never a reserved tile, only the allowed surfaces. Each candidate is then validated (any error discards
it), measured (footprint on the table; fastest line, tight corners, optionally the expected time) and scored by
its distance to the targets; the best are kept. A seed makes a run reproducible, whatever the number of
processes: candidate ``k`` always uses the random stream ``(seed, k)``.

The search stops at the first candidates that meet every target (they score 0, the best score there is, so an
exhaustive search would rank them first too), and measures the fastest line only of the candidates whose cheap
figures (tile and corner counts) could still rank; ``best`` examines every candidate and prefers, among those
meeting every target, the one nearest the middle of the ranges asked.

>>> spec = Spec(tiles=(8, 8), seed=3, candidates=4)
>>> best = search(spec, jobs=1)[0]
>>> len(best.stage.tiles), best.stage.tiles[0].tile[:3], best.stage.tiles[-1].tile[:3]
(8, '202', '203')
"""
from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

from designer.core import hexgrid, parallel
from designer.core.errors import DesignerError

BOXES = {"core": ("DIRT Core Box", "dirt-core"), "monte-carlo": ("DIRT Monte Carlo (or 110%)", "dirt-monte-carlo"),
         "rx": ("DIRT RX", "dirt-rx"), "climb": ("DIRT Climb", "dirt-climb")}
METRICS = ("ideal_seconds", "expected_seconds", "gap_seconds", "loss_of_control", "tight_corners", "tiles")
# Difficulty presets in the analysis' own terms: corners whose inside limit is under gear 3, per road tile, and the
# chance of at least one loss of control on the fastest (shakedown) line.
PRESETS = {"easy": {"tight_per_tile": (0.0, 0.25), "loss_of_control": (0.0, 0.85)},
           "medium": {"tight_per_tile": (0.25, 0.5), "loss_of_control": (0.0, 0.95)},
           "hard": {"tight_per_tile": (0.5, 2.0), "loss_of_control": (0.0, 1.0)}}
MAX_CANDIDATES = 200_000


@dataclass(frozen=True)
class Spec:
    """What a player asks for. ``copies`` maps a box (``core``, ``monte-carlo``, ``rx``, ``climb``) to how many
    copies they own; ``reserved`` tile numbers are kept for other stages; ``table_cm`` is (width, height)."""
    tiles: tuple[int, int] = (10, 14)                     # road tiles, start and finish included
    copies: tuple[tuple[str, int], ...] = (("core", 1),)
    reserved: tuple[str, ...] = ()
    taken: tuple[tuple[str, int], ...] = ()               # copies already laid in other stages (a disjoint rally)
    terrains: tuple[str, ...] = ("gravel", "asphalt", "snow")
    table_cm: tuple[float, float] | None = None
    tile_cm: float = 20.0
    assistance: bool = False
    difficulty: str | None = None                         # a preset name
    targets: tuple[tuple[str, float | None, float | None], ...] = ()   # (metric, low, high)
    expected: bool = False                                # measure the expected time (slower)
    seed: int = 0
    candidates: int = 200
    name: str = "Generated stage"

    def check(self) -> None:
        lo, hi = self.tiles
        if not 3 <= lo <= hi <= 60:
            raise DesignerError(f"tile count {lo}-{hi} is not possible", hint="ask for 3 to 60 road tiles, low <= high")
        for box, n in self.copies:
            if box not in BOXES:
                raise DesignerError(f"unknown box {box!r}", hint=f"boxes: {', '.join(BOXES)}")
            if not 1 <= n <= 9:
                raise DesignerError(f"{n} copies of {box} is not a number of boxes", hint="1 to 9")
        if self.difficulty and self.difficulty not in PRESETS:
            raise DesignerError(f"unknown difficulty {self.difficulty!r}", hint=f"one of {', '.join(PRESETS)}")
        for metric, _lo, _hi in self.targets:
            if metric not in METRICS:
                raise DesignerError(f"unknown target {metric!r}", hint=f"targets: {', '.join(METRICS)}")
        if not 1 <= self.candidates <= MAX_CANDIDATES:
            raise DesignerError(f"{self.candidates} candidates is out of range", hint=f"1 to {MAX_CANDIDATES:,}")
        if self.table_cm and not all(0 < v < 10_000 for v in self.table_cm):
            raise DesignerError(f"table {self.table_cm} is not a table size in cm")

    @property
    def tileset_name(self) -> str:
        boxes = [b for b, _ in self.copies if b != "core"]
        if not boxes:
            return "dirt-core"
        return BOXES[boxes[0]][1] if len(boxes) == 1 else "official"


@dataclass
class Candidate:
    stage: Any
    seed: int
    index: int
    score: float
    figures: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        from designer.systems.dirt.board.stage import stage_to_data

        return {"seed": self.seed, "index": self.index, "score": round(self.score, 4), "figures": self.figures,
                "stage": stage_to_data(self.stage)}


# -- building one candidate ----------------------------------------------------------------------------------------

def _inventory(spec: Spec, tileset) -> dict[str, int]:
    """Tile number -> copies available."""
    from designer.systems.dirt.board.validate import EDITIONS

    owned = {BOXES[b][0]: n for b, n in spec.copies}
    out: dict[str, int] = {}
    for face in tileset.tiles.values():
        num = face.id[:3]
        if not num.isdigit() or num in spec.reserved:
            continue
        for box, test in EDITIONS:
            if box in owned and test(int(num)):
                out[num] = owned[box]
    for num, n in spec.taken:
        if num in out:
            out[num] -= n
    return {k: v for k, v in out.items() if v > 0}


def _pools(spec: Spec, tileset, inventory: dict[str, int]) -> dict[str, list]:
    pools: dict[str, list] = {"start": [], "finish": [], "road": [], "assistance": []}
    for face in sorted(tileset.tiles.values(), key=lambda f: f.id):
        if face.id[:3] not in inventory or face.terrain not in spec.terrains and face.role != "assistance":
            continue
        if face.role == "assistance":
            pools["assistance"].append((face, None))
            continue
        if not face.has_cells or face.roads or len(face.edges) != 2:
            continue                                      # one-road faces: junctions need a choice of branch
        entries = [e for e in sorted(face.edges) if len(face.exit_for(e)) == 1]
        kind = {"start": "start", "finish": "finish"}.get(face.role or "", "road" if not face.role else None)
        if kind:
            pools[kind] += [(face, e) for e in entries]
    return pools


def _build(spec: Spec, tileset, pools, inventory, rng: random.Random, n_road: int):
    """One stage, or None when the random walk boxes itself in."""
    from designer.systems.dirt.board.stage import Stage

    used: dict[str, int] = {}
    occupied: set = set()
    placements: list[str] = []

    def free(face) -> bool:
        return used.get(face.id[:3], 0) < inventory.get(face.id[:3], 0)

    pos, out_edge = (0, 0), None
    start = [c for c in pools["start"] if free(c[0])]
    if not start:
        return None
    face, entry = rng.choice(start)
    rot = (3 - hexgrid.edge_index(entry)) % 6
    placements.append(f"{face.id} {entry}")
    used[face.id[:3]] = used.get(face.id[:3], 0) + 1
    occupied.add(pos)
    out_edge = hexgrid.rotate_edge(face.exit_for(entry)[0], rot)
    middle = n_road - 2
    for step in range(middle + 1):
        last = step == middle
        nxt = hexgrid.neighbour(pos, out_edge)
        if nxt in occupied:
            return None
        arrive = hexgrid.opposite(out_edge)
        options = [c for c in pools["finish" if last else "road"] if free(c[0])]
        rng.shuffle(options)
        chosen = None
        for face, entry in options:
            r = (hexgrid.edge_index(arrive) - hexgrid.edge_index(entry)) % 6
            exit_world = hexgrid.rotate_edge(face.exit_for(entry)[0], r)
            ahead = hexgrid.neighbour(nxt, exit_world)
            if ahead in occupied or (not last and ahead == pos):
                continue
            chosen = (face, entry, exit_world)
            break
        if chosen is None:
            return None
        face, entry, exit_world = chosen
        placements.append(f"{face.id} {entry}")
        used[face.id[:3]] = used.get(face.id[:3], 0) + 1
        occupied.add(nxt)
        pos, out_edge = nxt, exit_world
    if spec.assistance:
        tents = [c for c in pools["assistance"] if free(c[0])]
        nxt = hexgrid.neighbour(pos, out_edge)
        if not tents or nxt in occupied:
            return None
        face = tents[0][0]
        placements.append(f"{face.id} {sorted(face.edges)[0] if face.edges else 'A'}")
    return Stage(name=spec.name, tileset=tileset.name, tiles=placements, copies=max(n for _b, n in spec.copies))


# -- measuring and scoring -----------------------------------------------------------------------------------------

def _tight_corners(track) -> int:
    """Bends whose inside line is limited under gear 3, read as the pace notes read them: from the road driven. The
    inside marks of the cells would miscount junctions, where a cell two roads share keeps one mark (409a's ``hi``
    is the inside of E-D and the outside of F-E) and a hairpin branch prints its limit on cells without a mark."""
    from designer.systems.dirt.driving.pacenotes import pace_notes

    return sum(1 for n in pace_notes(track) if n.kind == "corner" and n.limit is not None and n.limit < 3)


# The figures measured without a line search (a few milliseconds a candidate): a target on them bounds the score
# before the fastest line (and the expected time) is searched.
CHEAP = ("tiles", "tight_corners", "tight_per_tile")


def _cheap_figures(stage, tileset, spec: Spec):
    """``(track, figures)`` with the figures of :data:`CHEAP` and the footprint, or None when the stage is not
    valid or does not fit the table."""
    from designer.systems.dirt.board.track import assemble
    from designer.systems.dirt.board.validate import footprint, validate

    track = assemble(stage, tileset)
    if any(p.severity == "error" for p in validate(stage, tileset, track)):
        return None
    fp = footprint(track, spec.tile_cm)
    if spec.table_cm:
        w, h = spec.table_cm
        if not ((fp.width_cm <= w and fp.height_cm <= h) or (fp.width_cm <= h and fp.height_cm <= w)):
            return None
    road = len(track.road_tiles)
    tight = _tight_corners(track)
    return track, {"tiles": road, "tight_corners": tight, "tight_per_tile": round(tight / max(1, road), 3),
                   "width_cm": fp.width_cm, "height_cm": fp.height_cm}


def _line_figures(track, spec: Spec, figures: dict) -> dict | None:
    """``figures`` with the fastest line's (and, when asked, the expected time's) added; None when no line."""
    from designer.systems.dirt.driving import lines as L

    fast = L.fastest_line(track)
    if fast is None:
        return None
    figures = {"tiles": figures["tiles"], "ideal_seconds": fast.seconds,
               "loss_of_control": round(fast.loss_of_control_chance, 4), **figures}
    if spec.expected or any(m in ("expected_seconds", "gap_seconds") for m, _a, _b in spec.targets):
        from designer.systems.dirt.analysis import analyze

        exp = (analyze(track).get("expected") or {})
        value = exp.get("expected_seconds")
        figures["expected_seconds"] = value
        figures["gap_seconds"] = None if value is None else round(value - fast.seconds, 2)
    return figures


def measure(stage, tileset, spec: Spec) -> dict | None:
    """The figures a target can ask for, or None when the stage is not valid or does not fit the table."""
    cheap = _cheap_figures(stage, tileset, spec)
    return None if cheap is None else _line_figures(cheap[0], spec, cheap[1])


def _wanted(spec: Spec) -> list:
    wanted = list(spec.targets)
    if spec.difficulty:
        wanted += [(m, lo, hi) for m, (lo, hi) in PRESETS[spec.difficulty].items()]
    return wanted


def score(figures: dict, spec: Spec, *, bound: bool = False) -> float:
    """0 when every target is met; otherwise the sum of relative distances outside the asked ranges.

    With ``bound`` a metric missing from ``figures`` adds nothing (instead of 1): a lower bound of the score the
    full figures will have, since every term is non-negative and the terms are added in the same order.
    """
    total = 0.0
    for metric, lo, hi in _wanted(spec):
        v = figures.get(metric)
        if v is None:
            if not bound:
                total += 1.0
            continue
        scale = max(abs(lo or 0), abs(hi or 0), 1e-6)
        if lo is not None and v < lo:
            total += (lo - v) / scale
        if hi is not None and v > hi:
            total += (v - hi) / scale
    return total


def off_centre(figures: dict, spec: Spec) -> float:
    """How far a stage lies from the middle of the ranges asked with both ends (relative to each range's half
    width): what ``best`` ranks by among the stages that meet every target."""
    total = 0.0
    for metric, lo, hi in _wanted(spec):
        v = figures.get(metric)
        if v is not None and lo is not None and hi is not None and hi > lo:
            total += abs(v - (lo + hi) / 2) / ((hi - lo) / 2)
    return round(total, 6)


# -- the search ---------------------------------------------------------------------------------------------------------

def _spec_of(data: dict) -> Spec:
    return Spec(**{k: (tuple(tuple(x) if isinstance(x, list) else x for x in v) if isinstance(v, list) else v)
                   for k, v in data.items()})


def _candidate(spec: Spec, tileset, pools, inventory, k: int):
    """Candidate ``k``'s stage (from its own random stream), or None when every walk boxed itself in."""
    rng = random.Random(f"{spec.seed}:{k}")
    n_road = rng.randint(*spec.tiles)
    for _attempt in range(30):
        stage = _build(spec, tileset, pools, inventory, rng, n_road)
        if stage is not None:
            return stage
    return None


def work(job: dict) -> list[dict]:
    """A batch of candidates (the unit sent to a process or a cluster worker): plain data in and out.

    ``job``: ``spec`` (a :class:`Spec` as a dict) and ``indices``; every candidate fully measured, unless ``lazy``:
    then one whose targets on :data:`CHEAP` figures already miss is only bounded (a record with ``bound`` and
    ``exact`` false, measured later only if it could still rank), and with ``stop`` N the batch ends after the
    N-th candidate meeting every target (the indices are examined in order).
    """
    from designer.systems.dirt.board.tileset import get_tileset

    spec = _spec_of(job["spec"])
    lazy, stop = job.get("lazy", False), job.get("stop")
    tileset = get_tileset(spec.tileset_name)
    inventory = _inventory(spec, tileset)
    pools = _pools(spec, tileset, inventory)
    out, met = [], 0
    for k in job["indices"]:
        stage = _candidate(spec, tileset, pools, inventory, k)
        if stage is None:
            continue
        cheap = _cheap_figures(stage, tileset, spec)
        if cheap is None:
            continue
        tiles = [p.short() for p in stage.tiles]
        low = score(cheap[1], spec, bound=True)
        if lazy and low > 0:
            out.append({"index": k, "bound": low, "exact": False, "figures": cheap[1], "tiles": tiles})
            continue
        figures = _line_figures(cheap[0], spec, cheap[1])
        if figures is None:
            continue
        s = score(figures, spec)
        out.append({"index": k, "score": s, "exact": True, "figures": figures, "tiles": tiles})
        met += s == 0
        if stop and met >= stop:
            break
    return out


def _key(record: dict, best: bool) -> tuple:
    """Rank of an examined candidate (a bounded one's is never above the rank its full figures will give)."""
    low = record["score"] if record["exact"] else record["bound"]
    if best:
        return (low, record.get("centre", 0.0) if record["exact"] else 0.0, record["index"])
    return (low, record["index"])


def search(spec: Spec, *, jobs: int | None = 1, scheduler: str | None = None, keep: int = 5, progress=None,
           best: bool = False) -> list[Candidate]:
    """The ``keep`` best candidates: lowest score, then lowest index; with ``best`` lowest score, then nearest the
    middle of the ranges asked (:func:`off_centre`), then lowest index.

    Candidates are examined in index order, in waves, and only as far as needed: the search stops once ``keep``
    candidates meet every target with every lower index examined (not with ``best``, which examines them all);
    a candidate whose cheap figures already miss a target is bounded, not measured, and measured later only if its
    bound could still rank it among the ``keep`` (branch and bound). The stages returned are exactly those an
    exhaustive search ranks first: a stage meeting every target scores 0, the least score there is.
    """
    from designer.systems.dirt.board.stage import Stage
    from designer.systems.dirt.board.tileset import get_tileset

    spec.check()
    tileset = get_tileset(spec.tileset_name)
    inventory = _inventory(spec, tileset)
    pools = _pools(spec, tileset, inventory)
    if not pools["start"] or not pools["finish"]:
        raise DesignerError("the boxes owned have no start or no finish tile left", hint="do not reserve them all")
    if spec.assistance and not pools["assistance"]:
        raise DesignerError("the assistance tile (201) is reserved or not owned", hint="free tile 201 or drop assistance")
    payload = asdict(spec)
    local = parallel.scheduler_address(scheduler) is None and parallel.default_jobs(jobs) == 1
    workers = 1 if local else parallel.default_jobs(jobs)
    stop = None if best else keep

    def run(indices: list[int], lazy: bool, here: bool = False) -> list[dict]:
        if here or local or len(indices) <= 2:         # in this process: no pool to start for a few candidates
            return work({"spec": payload, "indices": indices, "lazy": lazy, "stop": stop if lazy else None})
        size = max(1, min(50, len(indices) // (2 * workers) or 1))
        jobs_in = [{"spec": payload, "indices": g, "lazy": lazy, "stop": stop if lazy else None}
                   for g in parallel.chunks(indices, size)]
        return [r for group in parallel.run(work, jobs_in, jobs=jobs, scheduler=scheduler) for r in group]

    records: list[dict] = []
    # one wave in this process, unless someone watches the progress: then waves of 4, 8, 16... (the same stages)
    done, wave = 0, spec.candidates if local and progress is None else min(spec.candidates, 4)
    while done < spec.candidates:
        if stop and sum(1 for r in records if r["exact"] and r["score"] == 0) >= stop:
            break
        indices = list(range(done, min(spec.candidates, done + wave)))
        records += run(indices, True, here=done == 0)   # the first few here: one often meets every target
        done += len(indices)
        wave *= 2 if local else 4
        if progress:
            progress(done, spec.candidates)
    while True:                                        # measure the bounded ones that could still rank
        for r in records:
            if r["exact"] and best and "centre" not in r:
                r["centre"] = off_centre(r["figures"], spec)
        exact = sorted((r for r in records if r["exact"]), key=lambda r: _key(r, best))
        cut = _key(exact[keep - 1], best) if len(exact) >= keep else None
        todo = sorted((r for r in records if not r["exact"] and (cut is None or _key(r, best) < cut)),
                      key=lambda r: _key(r, best))[:max(4, 4 * workers)]
        if not todo:
            break
        again = {r["index"] for r in todo}
        records = [r for r in records if r["index"] not in again] + run(sorted(again), False)
    if not exact:
        raise DesignerError(f"none of {spec.candidates} candidates met the constraints",
                            hint="allow more tiles or a larger table, reserve fewer tiles, or ask for more candidates")
    copies = max(n for _b, n in spec.copies)
    return [Candidate(Stage(name=spec.name, tileset=tileset.name, tiles=r["tiles"], copies=copies), spec.seed,
                      r["index"], r["score"], r["figures"]) for r in exact[:keep]]


def generate_rally(spec: Spec, stages: int = 3, *, disjoint: bool = False, jobs: int | None = 1,
                   scheduler: str | None = None, best: bool = False) -> list[Candidate]:
    """Stages of one rally from the same boxes: each the best of its own search (seed + k); with ``disjoint`` a
    stage never uses a tile of the stages before it (for building them all on one table)."""
    from dataclasses import replace

    out: list[Candidate] = []
    taken: dict[str, int] = dict(spec.taken)
    for k in range(stages):
        s = replace(spec, seed=spec.seed * 1000 + k, taken=tuple(sorted(taken.items())), name=f"{spec.name} - SS{k + 1}")
        seen = {tuple(p.short() for p in c.stage.tiles) for c in out}
        fresh = [c for c in search(s, jobs=jobs, scheduler=scheduler, keep=10, best=best)
                 if tuple(p.short() for p in c.stage.tiles) not in seen]
        if not fresh:
            raise DesignerError(f"stage {k + 1} of the rally repeats an earlier one", hint="ask for more candidates")
        out.append(fresh[0])
        if disjoint:
            for p in fresh[0].stage.tiles:
                taken[p.tile[:3]] = taken.get(p.tile[:3], 0) + 1
    return out
