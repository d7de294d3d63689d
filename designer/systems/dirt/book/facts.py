"""What a DIRT road book prints about a stage, gathered once (no drawing): the assembled track, its problems,
pace notes, length, the fastest line turn by turn, the expected time under the dice when the analysis gives
it, the table time, and which values behind the times are assumed.

The lines module's result is read defensively (:func:`fastest_line`): a road book still prints, without
the line section, when the search is missing, fails or finds no line.
"""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from designer.core.errors import DesignerError
from designer.systems.dirt.board.stage import Stage
from designer.systems.dirt.board.track import Track, assemble
from designer.systems.dirt.board.validate import EDITIONS, RULEBOOK_SIZES, boxes_needed, errors, validate
from designer.systems.dirt.driving.bends import stage_length
from designer.systems.dirt.driving.pacenotes import PaceNote, pace_notes

# Rulebook p. 3, "Quelques conseils": 10 / 14 / 18 tiles take about 25 / 35 / 45 minutes with 4 players.
RULEBOOK_MIN_PER_TILE = RULEBOOK_SIZES[0][2] / RULEBOOK_SIZES[0][0]



# -- facts of a stage (no drawing) --------------------------------------------------------

@dataclass
class Turn:
    number: int
    cells: list[str]
    gears: list[int | None]
    gear: int | None            # the gear the turn ends in (its time card)
    dice: str = ""
    seconds: float | None = None
    risk: float | None = None       # chance of a loss of control in this turn


@dataclass
class FastestLine:
    game_seconds: float | None
    turns: list[Turn]
    cell_gears: list[tuple[str, int | None]]
    table_minutes: float | None = None
    loss_chance: float | None = None          # chance of at least one loss of control on the line
    assumed: list[str] = field(default_factory=list)   # parameters behind the times that are assumed
    expected: "Expected | None" = None


@dataclass
class Expected:
    """The expected time under the dice (the analysis' ``expected`` part), when it exists."""
    seconds: float
    spread: float | None = None
    turns: float | None = None
    loss_chance: float | None = None
    assumed: list[str] = field(default_factory=list)
    # Per road tile (placement index): the expected seconds of the turns started on it and the chance of a
    # loss of control there (the analysis' ``expected.tiles``).
    tiles: dict[int, tuple[float, float | None]] = field(default_factory=dict)
    big_attack_failure: str | None = None     # the reading of a failed Big Attack the figure is solved under
    max_damage: int | None = None             # the damage tokens the figure tracks (later ones drawn, not tracked)


@dataclass
class StageFacts:
    """Everything a road book prints about one stage."""
    stage: Stage
    track: Track
    players: int
    problems: list = field(default_factory=list)
    notes: list[PaceNote] = field(default_factory=list)
    length: int | None = None
    fastest: FastestLine | None = None
    fastest_missing: str | None = None
    table_minutes: float | None = None
    table_basis: str = ""
    boxes: list[str] = field(default_factory=list)
    assistance: bool = False
    lines: bool = True            # False: a book for competitive play, without lines and times

    @property
    def road_tiles(self) -> int:
        """Road tiles on the table (a tile the stage drives twice counts once)."""
        return len(self.track.laid_road_tiles)


def stage_facts(stage: Stage, near: Path | None = None, players: int | None = None,
                tileset=None, lines: bool = True, expected: bool = False,
                analysis: dict | None = None) -> StageFacts:
    """Assemble a stage and gather what its road book prints (pace notes, lines, timings).

    ``lines=False`` skips the line search (a book for competitive play prints neither lines nor times).
    ``expected=True`` also solves the expected time under the dice (tens of seconds a stage);
    ``analysis``: a result of :func:`designer.systems.dirt.analysis.analyze` for this stage already at hand
    (the app's), read instead of searching again, with its expected time when it has one."""
    from designer.systems.dirt.board.tileset import get_tileset

    tileset = tileset or get_tileset(stage.tileset, near)
    track = assemble(stage, tileset)
    players = players or stage.players or 4
    facts = StageFacts(stage=stage, track=track, players=players, lines=lines)
    facts.problems = errors(validate(stage, tileset, track))
    facts.notes = pace_notes(track)
    facts.length = stage_length(track)
    facts.boxes = boxes_with_copies(boxes_needed(stage), track)
    facts.assistance = track.has_assistance or bool(stage.rally and stage.rally.assistance_after)
    if lines and analysis is not None:
        from designer.systems.dirt.driving import lines as L
        facts.fastest = _normalise_analysis(analysis, L, track)
        facts.fastest_missing = None if facts.fastest else "no legal line from the start to the finish"
    elif lines:
        facts.fastest, facts.fastest_missing = fastest_line(track, players, expected)
    else:
        facts.fastest_missing = "left out of this book (competitive play)"
    # The table time rests on the ideal line's turns whatever the book prints (with or without the lines, with
    # or without the expected time), so that one rally gets one table time.
    minutes_, turns = _table_from_line(track, players)
    if minutes_ is not None:
        facts.table_minutes = minutes_
        facts.table_basis = f"setting up, building and {turns} turns a player"
    else:
        tiles = facts.road_tiles
        facts.table_minutes = tiles * RULEBOOK_MIN_PER_TILE * players / 4.0 if tiles else None
        facts.table_basis = ("rulebook guide: 10 tiles ≈ 25 min with 4 players"
                             + ("" if players == 4 else f", scaled to {players} players"))
    return facts


def no_cells_words(track: Track) -> str:
    """Which faces of a stage have no cell graph, and why when they are Rallyman: GT faces."""
    faces = sorted({t.tile for t in track.missing_cells()})
    if not faces:
        return "some faces have no cell graph"
    gt = [x for x in faces if x[:1] == "1"]
    why = (" (Rallyman: GT tiles: no picture of them is among the references their cells are read from)"
           if gt and len(gt) == len(faces) else "")
    verb = "have" if len(faces) > 1 else "has"
    return f"face{'s' if len(faces) > 1 else ''} {', '.join(faces)} {verb} no cell graph{why}"


def fastest_line(track: Track, players: int, expected: bool = False) -> tuple[FastestLine | None, str | None]:
    """The fastest line from :mod:`designer.systems.dirt.driving.lines` with the table time of
    :mod:`designer.systems.dirt.driving.estimate`, or None and the reason it is missing (the road book prints the
    rest without it)."""
    if not track.has_cells:
        if track.unknown or track.errors:
            return None, "the stage does not assemble (see the problems above)"
        return None, f"{no_cells_words(track)}, so no line can be searched"
    from designer.systems.dirt.driving import lines as L

    try:
        if expected:
            from designer.systems.dirt.analysis import analyze

            fast = _normalise_analysis(analyze(track, players=players, expected=True), L, track)
        else:
            # The quick way: the line and the table time only (no speed-limit map, no expected time).
            line = L.fastest_line(track)
            if line is None:
                return None, "no legal line from the start to the finish"
            fast = _normalise_analysis({"fastest_line": line.to_dict(), "rules": _rules_dict()}, L, track)
            if fast is not None:
                fast.table_minutes = _table_minutes(track, players, line, L)
    except DesignerError as exc:
        return None, str(exc).splitlines()[0]
    except Exception as exc:  # noqa: BLE001 - a road book must still print without the lines
        warnings.warn(f"road book: the fastest-line search failed: {type(exc).__name__}: {exc}", stacklevel=2)
        return None, f"the line search failed ({type(exc).__name__}: {exc})"
    if fast is None:
        return None, "no legal line from the start to the finish"
    return fast, None


def _table_from_line(track: Track, players: int) -> tuple[float | None, int]:
    """(table minutes, turns) from the fastest line's turns; (None, 0) when there is no line."""
    if not track.has_cells:
        return None, 0
    from designer.systems.dirt.driving import lines as L
    try:
        line = L.fastest_line(track)
    except DesignerError:
        return None, 0
    if line is None:
        return None, 0
    return _table_minutes(track, players, line, L), len(line.turns)


def _rules_dict() -> dict | None:
    """The default ruleset with its sources (to name the assumed values), or None when it cannot be read."""
    try:
        from designer.systems.dirt.driving.ruleset import load_ruleset

        return load_ruleset().to_dict()
    except (ImportError, DesignerError, AttributeError):
        return None


def _table_minutes(track: Track, players: int, line, L) -> float | None:
    """Table time from :func:`designer.systems.dirt.driving.estimate.estimate` when that module exists, else None."""
    try:
        from designer.systems.dirt.driving.estimate import estimate
    except ImportError:
        return None
    try:
        shortest = L.shortest_line(track) if hasattr(L, "shortest_line") else None
        try:
            est = estimate(track, players=players, fastest=line, shortest=shortest)
        except TypeError:
            est = estimate(track, players=players)
    except DesignerError:
        return None
    except Exception as exc:  # noqa: BLE001
        warnings.warn(f"road book: the table-time estimate failed: {type(exc).__name__}: {exc}", stacklevel=2)
        return None
    data = _as_dict(est) or {}
    table = _as_dict(data.get("table")) or {}
    return _number(_pick((data, table), "table_minutes", "table_time", "minutes"))


def _number(v):
    """A number from a value that may be a number, a dict holding one, or a 'm:ss' string."""
    if v is None or isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, dict):
        for k in ("seconds", "minutes", "value", "total", "mean", "expected"):
            if k in v:
                return _number(v[k])
        return None
    if isinstance(v, str):
        m = re.fullmatch(r"\s*(\d+):(\d{2})\s*", v)
        if m:
            return int(m.group(1)) * 60 + int(m.group(2))
        try:
            return float(v)
        except ValueError:
            return None
    return None


def _pick(sources, *names):
    for src in sources:
        if isinstance(src, dict):
            for n in names:
                if src.get(n) is not None:
                    return src[n]
    return None


def _as_dict(obj):
    if obj is None or isinstance(obj, dict):
        return obj
    for meth in ("to_dict", "model_dump", "_asdict"):
        if hasattr(obj, meth):
            return getattr(obj, meth)()
    if hasattr(obj, "__dataclass_fields__"):
        from dataclasses import asdict
        return asdict(obj)
    return None


DIE_SHORT = {"gas": "G", "brake": "B", "leader": "L"}


def _die(d) -> str:
    d = str(d)
    if d.startswith("gear") and d[4:].isdigit():
        return d[4:]
    return DIE_SHORT.get(d, d)


def _dice_text(steps) -> str:
    """Dice of a turn, one group per step: ``[['gear3', 'brake', 'brake'], ['gas'], ['gear4']]`` -> ``3BB G 4``."""
    out = []
    for step in steps or []:
        if isinstance(step, str):
            step = step.split()
        out.append("".join(_die(d) for d in step))
    return " ".join(x for x in out if x)


def _turn_of(raw, k: int) -> Turn:
    t = _as_dict(raw) or {}
    cells: list[str] = []
    gears: list[int | None] = []
    dice: list[list[str]] = []
    steps = t.get("steps")
    if isinstance(steps, (list, tuple)) and steps:
        for st in steps:
            st = _as_dict(st) or {}
            sc = st.get("cells") or ([st["cell"]] if st.get("cell") else [])
            cells += [str(c) for c in sc]
            gears += [st.get("gear")] * len(sc)
            d = st.get("dice") or []
            dice.append([d] if isinstance(d, str) else list(d))
    else:
        raw_cells = t.get("cells") if isinstance(t.get("cells"), (list, tuple)) else (t.get("path") or [])
        for c in raw_cells:
            if isinstance(c, str):
                cells.append(c)
            elif isinstance(c, (list, tuple)) and c:
                cells.append(str(c[0]))
                gears.append(c[1] if len(c) > 1 else None)
            else:
                c = _as_dict(c) or {}
                if c.get("cell"):
                    cells.append(str(c["cell"]))
                    gears.append(c.get("gear"))
        if isinstance(t.get("gears"), (list, tuple)):
            gears = list(t["gears"])
        d = t.get("dice")
        if isinstance(d, (list, tuple, str)):
            dice = [[x] for x in (d.split() if isinstance(d, str) else d)]
    gear = t.get("gear", t.get("end_gear"))
    if gear is None and gears:
        gear = gears[-1]
    gears = (gears + [gear] * len(cells))[:len(cells)]
    number = t.get("turn", t.get("number", k))
    return Turn(number=int(number) if isinstance(number, (int, float)) else k, cells=cells, gears=gears,
                gear=gear, dice=_dice_text(dice),
                seconds=_number(t.get("seconds", t.get("time", t.get("card")))),
                risk=_number(t.get("loss_of_control_chance")))


def _normalise_analysis(result, L, track) -> FastestLine | None:
    result = _as_dict(result) or {}
    lines_part = _as_dict(result.get("lines")) or {}
    fastest = _as_dict(lines_part.get("fastest") or result.get("fastest_line") or result.get("fastest")) or {}
    summary = _as_dict(result.get("summary")) or {}
    timing = _as_dict(result.get("timing") or result.get("estimate") or result.get("estimates")) or {}
    game = _number(_pick((fastest, summary, timing, result), "game_seconds", "game_time", "seconds", "time",
                         "total_seconds"))
    table = _number(_pick((summary, timing, result, fastest), "table_minutes", "table_time", "minutes"))
    raw_turns = next((v for v in (fastest.get("turn_list"), fastest.get("turns")) if isinstance(v, (list, tuple))), [])
    turns = [_turn_of(raw, k) for k, raw in enumerate(raw_turns, start=1)]
    cell_gears: list[tuple[str, int | None]] = []
    start = fastest.get("start") or (_as_dict(raw_turns[0]) or {}).get("start") if raw_turns else None
    if isinstance(start, str):
        cell_gears.append((start, None))
    for t in turns:
        cell_gears += list(zip(t.cells, t.gears))
    if not cell_gears:
        raw = fastest.get("cell_gears") or fastest.get("cells")
        if callable(raw):
            raw = raw()
        for item in raw or []:
            if isinstance(item, (list, tuple)) and len(item) == 2:
                cell_gears.append((str(item[0]), item[1]))
            elif isinstance(item, str):
                cell_gears.append((item, None))
            elif isinstance(item, dict) and item.get("cell"):
                cell_gears.append((str(item["cell"]), item.get("gear")))
    if not cell_gears and hasattr(L, "fastest_line"):
        line = L.fastest_line(track)
        if line is not None and hasattr(line, "cell_gears"):
            cell_gears = [(str(n), g) for n, g in line.cell_gears()]
    cell_gears = [(n, g) for n, g in cell_gears if n in track.graph]
    if game is None and turns and all(t.seconds is not None for t in turns):
        game = sum(t.seconds for t in turns)
    if game is None and not turns and not cell_gears:
        return None
    loss = _number(_pick((fastest,), "loss_of_control_chance", "loss_chance"))
    return FastestLine(game_seconds=game, turns=turns, cell_gears=cell_gears, table_minutes=table,
                       loss_chance=loss, assumed=assumed_values(result), expected=expected_of(result))


def assumed_values(result: dict) -> list[str]:
    """Names of the ruleset parameters behind the times whose status is 'assumed' (not in the rulebook)."""
    rules = _as_dict(result.get("rules")) or {}
    sources = rules.get("sources") or {}
    out = []
    for name, src in sources.items():
        if isinstance(src, dict) and str(src.get("status", "")).lower() == "assumed":
            out.append(str(name).replace("_", " "))
    return out


def expected_of(result: dict) -> Expected | None:
    """The expected time of an analysis' ``expected`` part (seconds, spread, turns, loss chance, assumed)."""
    raw = _as_dict(result.get("expected"))
    if not raw:
        return None
    seconds = _number(_pick((raw,), "seconds", "expected_seconds", "mean_seconds", "time", "mean", "expected"))
    if seconds is None:
        return None
    spread = _number(_pick((raw,), "spread", "sd_seconds", "std_seconds", "sd", "stdev", "std"))
    turns = _number(_pick((raw,), "turns", "expected_turns", "mean_turns"))
    loss = _number(_pick((raw,), "loss_of_control_chance", "loss_chance", "loss_of_control"))
    assumed = raw.get("assumed") or raw.get("assumed_values") or []
    if isinstance(assumed, dict):
        assumed = list(assumed)
    tiles = {}
    for row in raw.get("tiles") or []:
        row = _as_dict(row) or {}
        sec = _number(_pick((row,), "expected_seconds", "seconds"))
        if isinstance(row.get("index"), int) and sec is not None:
            tiles[row["index"]] = (sec, _number(row.get("loss_of_control_chance")))
    return Expected(seconds=seconds, spread=spread, turns=turns, loss_chance=loss,
                    assumed=[str(a).replace("_", " ") for a in assumed], tiles=tiles,
                    big_attack_failure=raw.get("big_attack_failure") if isinstance(raw.get("big_attack_failure"), str)
                    else None,
                    max_damage=_damage_bound(raw.get("bounds")))


def _damage_bound(bounds) -> int | None:
    """The damage tokens an analysis' expected time tracks (its ``bounds.max_damage``), when it says."""
    value = (_as_dict(bounds) or {}).get("max_damage")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def boxes_with_copies(boxes: list[str], track) -> list[str]:
    """The boxes a stage needs, each with how many copies of it the layout lays when that is more than one
    (a tile number on several places: two RX boxes for both faces of 403), and which tiles ask for it.

    A tile driven by two roads (same place) is one tile."""
    places: dict[str, set] = {}
    for t in track.tiles:
        places.setdefault(t.tile[:3], set()).add(tuple(t.hex))
    more = {num: len(on) for num, on in places.items() if len(on) > 1 and num.isdigit()}
    out = []
    for name in boxes:
        nums = sorted(num for num in more for box, test in EDITIONS if box == name and test(int(num)))
        if nums:
            n = max(more[num] for num in nums)
            out.append(f"{name} × {n} (tile{'s' if len(nums) > 1 else ''} {', '.join(nums)} laid on "
                       f"{'several places' if len(nums) > 1 else f'{n} places'})")
        else:
            out.append(name)
    return out


# -- text helpers ---------------------------------------------------------------------------

def clock(seconds: float | None) -> str:
    """Game time as the rally sheet writes it: ``2:55``."""
    if seconds is None:
        return "–"
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}"


def minutes(m: float | None) -> str:
    if m is None:
        return "–"
    m = int(round(m))
    return f"{m} min" if m < 60 else f"{m // 60} h {m % 60:02d} min"


def options_text(stage: Stage) -> str:
    o = stage.options
    names = [("leader dice", o.leader_dice), ("canon start", o.canon_start), ("red zone", o.red_zone)]
    on = [n for n, v in names if v]
    off = [n for n, v in names if not v]
    text = ", ".join(on) if on else "none"
    if off:
        text += "  (not used: " + ", ".join(off) + ")"
    return text


def stage_label(stage: Stage, position: int | None = None) -> str:
    number = (stage.rally.number if stage.rally and stage.rally.number else position)
    return f"SS{number}" if number else "Stage"

