"""The printable road book (PDF, through fpdf2): what an organiser hands to the players.

For each stage:

* a title block: rally, stage number, surface, options, tiles, length in cells, game time of the
  fastest line, table time for the number of players, boxes and table space needed;
* an overview map at cell level (tiles numbered in driving order, start, finish, assistance),
  scaled to fit the page;
* a build sheet: every tile in order with a drawing as placed, its face, where the road enters and
  leaves, its rotation and the tile it attaches to;
* the pace notes in driving order (see :mod:`designer.systems.dirt.pacenotes`), tile by tile, each tile drawn
  beside its notes;
* the fastest line: its map with the gear in every cell, the gears on each tile and the turns
  (when :mod:`designer.systems.dirt.lines` can give it; otherwise the section says why it is missing).

For a rally: a cover with the stages in order and the assistance between them, every stage, and a
rally sheet to fill in at the table (players, stage times, damage V/G/F, spare wheel O/N, totals,
position), laid out as the rulebook's own "fiche Rallye".

Drawings are vector: the SVG of :mod:`designer.systems.dirt.render` is placed with fpdf2's SVG support. Text
uses the bundled DejaVu Sans (``designer/fonts``), which has every symbol printed.

Public functions: :func:`stage_roadbook`, :func:`rally_roadbook`, :func:`roadbook`.
"""
from __future__ import annotations

import io
import math
import re
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path

from fpdf import FPDF

from designer.core import hexgrid, paths
from designer.core.errors import DesignerError
from designer.systems.dirt.pacenotes import PaceNote, notes_by_tile, pace_notes, stage_length
from designer.systems.dirt.render import DANGER_COLOUR, stage_svg
from designer.systems.dirt.stage import Rally, Stage, is_rally_file, load_rally, load_stage
from designer.systems.dirt.track import Track, assemble
from designer.systems.dirt.validate import RULEBOOK_SIZES, boxes_needed, errors, footprint, validate

FONT = "DejaVu Sans"
FONT_DIR = paths.FONTS
PAPERS = {"a4": "A4", "letter": "Letter"}
MARGIN = 12.0
FOOTER = 12.0
# Maps never draw a tile wider than 50 mm (the SVG's hexagons have a circumradius of 100 units).
MAP_MAX_SCALE = 0.25
# Rulebook p. 3, "Quelques conseils": 10 / 14 / 18 tiles take about 25 / 35 / 45 minutes with 4 players.
RULEBOOK_MIN_PER_TILE = RULEBOOK_SIZES[0][2] / RULEBOOK_SIZES[0][0]
# World edges as arrows (flat-topped hexagons: A at the top, then clockwise).
ARROWS = {"A": "↑", "B": "↗", "C": "↘", "D": "↓", "E": "↙", "F": "↖"}
SIDE_WORDS = {"A": "top", "B": "upper right", "C": "lower right", "D": "bottom", "E": "lower left",
              "F": "upper left"}
INK = (34, 34, 34)
GREY = (110, 110, 110)
LIGHT = (236, 236, 236)
RED = (190, 30, 30)


# -- facts of a stage (no drawing) --------------------------------------------------------

@dataclass
class Turn:
    number: int
    cells: list[str]
    gears: list[int | None]
    gear: int | None            # the gear the turn ends in (its time card)
    dice: str = ""
    seconds: float | None = None


@dataclass
class FastestLine:
    game_seconds: float | None
    turns: list[Turn]
    cell_gears: list[tuple[str, int | None]]
    table_minutes: float | None = None


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

    @property
    def road_tiles(self) -> int:
        return len(self.track.road_tiles)


def stage_facts(stage: Stage, near: Path | None = None, players: int | None = None,
                tileset=None) -> StageFacts:
    """Assemble a stage and gather what its road book prints (pace notes, lines, timings)."""
    from designer.systems.dirt.tileset import get_tileset

    tileset = tileset or get_tileset(stage.tileset, near)
    track = assemble(stage, tileset)
    players = players or stage.players or 4
    facts = StageFacts(stage=stage, track=track, players=players)
    facts.problems = errors(validate(stage, tileset, track))
    facts.notes = pace_notes(track)
    facts.length = stage_length(track)
    facts.boxes = boxes_needed(stage)
    facts.assistance = track.has_assistance or bool(stage.rally and stage.rally.assistance_after)
    facts.fastest, facts.fastest_missing = fastest_line(track, players)
    if facts.fastest is not None and facts.fastest.table_minutes is not None:
        facts.table_minutes = facts.fastest.table_minutes
        turns = len(facts.fastest.turns)
        facts.table_basis = (f"setting up, building and {turns} turns a player" if turns
                             else f"estimate for {players} players")
    else:
        tiles = facts.road_tiles
        facts.table_minutes = tiles * RULEBOOK_MIN_PER_TILE * players / 4.0 if tiles else None
        facts.table_basis = ("rulebook guide: 10 tiles ≈ 25 min with 4 players"
                             + ("" if players == 4 else f", scaled to {players} players"))
    return facts


def fastest_line(track: Track, players: int) -> tuple[FastestLine | None, str | None]:
    """The fastest line from :mod:`designer.systems.dirt.lines` with the table time of :mod:`designer.systems.dirt.estimate`,
    or None and the reason it is missing (the road book prints the rest without it)."""
    if not track.has_cells:
        if track.unknown or track.errors:
            return None, "the stage does not assemble (see the problems above)"
        return None, "some faces have no cell graph, so no line can be searched"
    try:
        from designer.systems.dirt import lines as L
    except ImportError:
        return None, "this version has no racing-line search (designer.systems.dirt.lines)"
    try:
        if hasattr(L, "fastest_line"):
            line = L.fastest_line(track)
            if line is None:
                return None, "no legal line from the start to the finish"
            data = line.to_dict() if hasattr(line, "to_dict") else line
            fast = _normalise_analysis({"fastest_line": data}, L, track)
            if fast is not None:
                fast.table_minutes = _table_minutes(track, players, line, L)
        elif hasattr(L, "analyze"):
            fast = _normalise_analysis(L.analyze(track, players=players), L, track)
        else:
            return None, "designer.systems.dirt.lines has no fastest_line()"
    except DesignerError as exc:
        return None, str(exc).splitlines()[0]
    except Exception as exc:  # noqa: BLE001 - a road book must still print without the lines
        warnings.warn(f"road book: the fastest-line search failed: {type(exc).__name__}: {exc}", stacklevel=2)
        return None, f"the line search failed ({type(exc).__name__}: {exc})"
    if fast is None:
        return None, "no legal line from the start to the finish"
    return fast, None


def _table_minutes(track: Track, players: int, line, L) -> float | None:
    """Table time from :func:`designer.systems.dirt.estimate.estimate` when that module exists, else None."""
    try:
        from designer.systems.dirt.estimate import estimate
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
                seconds=_number(t.get("seconds", t.get("time", t.get("card")))))


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
    return FastestLine(game_seconds=game, turns=turns, cell_gears=cell_gears, table_minutes=table)


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


def tile_kind(tile) -> str:
    face = tile.face
    if face.role in ("start", "finish", "start-finish", "assistance"):
        return {"start-finish": "start and finish"}.get(face.role, face.role)
    kind = face.kind
    if kind in ("curve", "hairpin", "kink") and face.turn in ("left", "right") and tile.entry and face.ends:
        turn = face.turn
        if tile.reversed:
            turn = "right" if turn == "left" else "left"
        return f"{kind} {turn}"
    return kind


def attachment(track: Track, tile) -> tuple[str, str]:
    """(where this tile goes, short form): e.g. ('tile 3 (205a), on its upper right side', '↗ of 3')."""
    if tile.index == track.tiles[0].index:
        side = tile.world_entry or "D"
        return f"first tile: lay it anywhere, the road enters at its {SIDE_WORDS[side]} side", "first"
    by_hex = {t.hex: t for t in track.tiles}
    if tile.world_entry:
        other = by_hex.get(hexgrid.neighbour(tile.hex, tile.world_entry))
        if other is not None and other is not tile:
            side = hexgrid.opposite(tile.world_entry)
            return (f"tile {other.index + 1} ({other.tile}), on its {SIDE_WORDS[side]} side {ARROWS[side]}",
                    f"{ARROWS[side]} of {other.index + 1}")
    for e in hexgrid.EDGES:
        other = by_hex.get(hexgrid.neighbour(tile.hex, e))
        if other is not None and other is not tile:
            side = hexgrid.opposite(e)
            return (f"tile {other.index + 1} ({other.tile}), on its {SIDE_WORDS[side]} side {ARROWS[side]}",
                    f"{ARROWS[side]} of {other.index + 1}")
    return "stands apart", "apart"


def build_rows(track: Track) -> list[dict]:
    """One row per tile in driving order: the facts of the build sheet (also handy for tests)."""
    rows = []
    for t in track.tiles:
        where, short = attachment(track, t)
        rows.append({
            "number": t.index + 1, "tile": t.tile, "kind": tile_kind(t), "danger": t.face.danger,
            "entry": t.entry, "exit": t.exit,
            "from": ARROWS.get(t.world_entry, "") if t.world_entry else "",
            "to": ARROWS.get(t.world_exit, "") if t.world_exit else "",
            "rotation": t.rotation, "degrees": 60 * t.rotation, "attaches": where, "attaches_short": short,
        })
    return rows


# -- SVG for fpdf2 --------------------------------------------------------------------------

_TEXT_TAG = re.compile(r"<text\b[^>]*>")


def _fix_text(tag: str) -> str:
    """fpdf2 ignores dominant-baseline: move centred labels down by a third of their size instead."""
    if 'dominant-baseline="central"' not in tag:
        return tag
    y = re.search(r'\by="(-?[\d.]+)"', tag)
    size = re.search(r'font-size="([\d.]+)"', tag)
    if not (y and size):
        return tag
    new_y = float(y.group(1)) + 0.36 * float(size.group(1))
    tag = tag.replace(y.group(0), f'y="{new_y:.2f}"', 1)
    return tag.replace(' dominant-baseline="central"', "")


def pdf_svg(svg: str) -> str:
    """An SVG of :mod:`designer.systems.dirt.render` adjusted for fpdf2's SVG renderer."""
    svg = _TEXT_TAG.sub(lambda m: _fix_text(m.group(0)), svg)
    return re.sub(r"<title>.*?</title>", "", svg, flags=re.S)


def _viewbox(svg: str) -> tuple[float, float, float, float]:
    m = re.search(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"', svg)
    if not m:
        return (0.0, 0.0, 100.0, 100.0)
    return tuple(float(v) for v in m.groups())  # type: ignore[return-value]


def _inject(svg: str, parts: list[str]) -> str:
    i = svg.rfind("</svg>")
    return svg[:i] + "".join(parts) + svg[i:]


def _arrow(edge: str, size: float, inward: bool, colour: str) -> str:
    mx, my = hexgrid.edge_midpoint(edge, size)
    nx_, ny_ = hexgrid.edge_normal(edge)
    px, py = -ny_, nx_
    near, far = size * 0.09, size * 0.27
    tip_d, base_d = (far, near) if inward else (near, far)
    tip = (mx - nx_ * tip_d, my - ny_ * tip_d)
    base = (mx - nx_ * base_d, my - ny_ * base_d)
    w = size * 0.1
    pts = [tip, (base[0] + px * w, base[1] + py * w), (base[0] - px * w, base[1] - py * w)]
    s = " ".join(f"{x:.2f},{y:.2f}" for x, y in pts)
    return f'<polygon points="{s}" fill="{colour}" stroke="white" stroke-width="{size * 0.012:.2f}"/>'


def tile_svg(track: Track, tile, size: float = 100.0, labels: bool = True) -> str:
    """One tile as it lies in the stage, with blue arrows where the road enters and leaves.

    ``labels`` adds its number in driving order and its face id (left out in small drawings).
    """
    mini = Track(stage=track.stage, tileset=track.tileset, tiles=[replace(tile, hex=(0, 0))])
    svg = stage_svg(mini, size=size, width_px=None, numbers=labels)
    if not labels:
        svg = re.sub(r"<text\b[^>]*>" + re.escape(tile.tile) + "</text>", "", svg)
    parts = []
    if tile.world_entry:
        parts.append(_arrow(tile.world_entry, size, True, "#1456c8"))
    if tile.world_exit:
        parts.append(_arrow(tile.world_exit, size, False, "#1456c8"))
    return pdf_svg(_inject(svg, parts))


def map_svg(track: Track, lines: dict | None = None, size: float = 100.0) -> str:
    """The stage map for print: tiles numbered in driving order, start, finish and assistance."""
    svg = stage_svg(track, size=size, lines=lines, width_px=None)
    parts = []
    for t in track.tiles:
        if t.face.role == "assistance":
            cx, cy = hexgrid.to_pixel(t.hex, size)
            nx_, ny_ = hexgrid.edge_normal(t.world_entry or "D")
            # Beside the parking road, on its lower side (or its right when the road is upright).
            px, py = -ny_, nx_
            if py < -1e-6 or (abs(py) <= 1e-6 and px < 0):
                px, py = -px, -py
            x, y = cx + px * size * 0.5, cy + py * size * 0.5
            parts.append(f'<text x="{x:.2f}" y="{y + size * 0.035:.2f}" font-size="{size * 0.1:.2f}" fill="#111" '
                         f'font-weight="bold" text-anchor="middle" font-family="{FONT}">ASSISTANCE</text>')
    return pdf_svg(_inject(svg, parts))


# -- the PDF ----------------------------------------------------------------------------------

class _Book(FPDF):
    def __init__(self, paper: str, title: str):
        super().__init__(orientation="P", unit="mm", format=paper)
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_auto_page_break(True, margin=FOOTER + 4)
        self.add_font(FONT, "", str(FONT_DIR / "DejaVuSans.ttf"))
        self.add_font(FONT, "B", str(FONT_DIR / "DejaVuSans-Bold.ttf"))
        self.set_title(title)
        self.set_creator("rally-designer")
        self.set_subject("Rallyman: DIRT road book")
        self.running = title
        self.set_text_color(*INK)
        self.set_draw_color(*INK)

    def footer(self):
        self.set_y(-FOOTER)
        self.set_font(FONT, "", 7.5)
        self.set_text_color(*GREY)
        self.cell(self.epw * 0.8, 5, self.running, align="L")
        self.cell(self.epw * 0.2, 5, f"page {self.page_no()}/{{nb}}", align="R")
        self.set_text_color(*INK)

    # small helpers
    def font(self, size: float, bold: bool = False, colour=INK):
        self.set_font(FONT, "B" if bold else "", size)
        self.set_text_color(*colour)

    @property
    def bottom(self) -> float:
        return self.h - FOOTER - 4

    def room(self, height: float) -> bool:
        return self.get_y() + height <= self.bottom

    def table_header(self, cols, widths, height: float) -> None:
        """A shaded header row of column names, underlined."""
        self.font(8, True)
        self.set_fill_color(*LIGHT)
        for (name, _), w in zip(cols, widths):
            self.cell(w, height, name, border="B", fill=True)
        self.ln(height)

    def heading(self, text: str, size: float = 15):
        self.font(size, True)
        self.cell(0, size * 0.5, text, new_x="LMARGIN", new_y="NEXT")
        self.set_draw_color(*INK)
        self.set_line_width(0.4)
        self.line(self.l_margin, self.get_y() + 0.6, self.w - self.r_margin, self.get_y() + 0.6)
        self.ln(2.5)

    def para(self, text: str, size: float = 8.5, colour=INK, h: float | None = None):
        self.font(size, False, colour)
        self.multi_cell(0, h or size * 0.48, text, new_x="LMARGIN", new_y="NEXT")

    def svg(self, svg: str, x: float, y: float, w: float, h: float, align: str = "C",
            max_scale: float | None = None) -> tuple[float, float]:
        """Place an SVG scaled to fit the box (x, y, w, h), at most ``max_scale`` mm per SVG unit;
        returns the size used."""
        _, _, vw, vh = _viewbox(svg)
        scale = min(w / vw, h / vh)
        if max_scale is not None:
            scale = min(scale, max_scale)
        dw, dh = vw * scale, vh * scale
        dx = (w - dw) / 2 if align == "C" else 0.0
        self.image(io.BytesIO(svg.encode("utf-8")), x=x + dx, y=y, w=dw, h=dh)
        return dw, dh

    def danger_dot(self, x: float, y: float, danger: str | None, r: float = 1.3):
        colour = DANGER_COLOUR.get(danger, "#999999")
        self.set_fill_color(*_rgb(colour))
        self.set_draw_color(60, 60, 60)
        self.set_line_width(0.15)
        self.circle(x, y, r, style="DF")
        self.set_draw_color(*INK)


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _new_book(paper: str, title: str) -> _Book:
    key = str(paper).strip().lower()
    if key not in PAPERS:
        raise DesignerError(f"unknown paper size {paper!r}", hint="use A4 or Letter")
    pdf = _Book(PAPERS[key], title)
    pdf.alias_nb_pages()
    return pdf


# -- stage pages ----------------------------------------------------------------------------

def _title_block(pdf: _Book, f: StageFacts, rally_name: str | None, position: int | None, count: int | None,
                 running: str = ""):
    s = f.stage
    pdf.add_page()
    pdf.running = running or s.name
    label = stage_label(s, position)
    rally = rally_name or (s.rally.name if s.rally and s.rally.name else None)
    pdf.font(8.5, False, GREY)
    pdf.cell(0, 4.5, "ROAD BOOK · Rallyman: DIRT", new_x="LMARGIN", new_y="NEXT")
    pdf.font(19, True)
    pdf.multi_cell(0, 8.5, s.name, new_x="LMARGIN", new_y="NEXT")
    numbered = label != "Stage"
    sub = " · ".join(x for x in [rally, (label + (f" of {count}" if count else "")) if numbered else None] if x)
    pdf.font(11, False, GREY)
    pdf.cell(0, 6, sub, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1.5)
    t = f.track
    road = f.road_tiles
    tiles_text = f"{road} road tiles" + (" + assistance" if t.has_assistance else "")
    if f.fastest is not None and f.fastest.game_seconds is not None:
        fast = f"{clock(f.fastest.game_seconds)} game time"
        if f.fastest.turns:
            fast += f" ({len(f.fastest.turns)} turns)"
    else:
        fast = "not available" + (f": {f.fastest_missing}" if f.fastest_missing else "")
    fp = footprint(t)
    rows = [
        ("Rally", rally or "–"),
        ("Stage", label + (f" of {count}" if count else "") if numbered else "single stage"),
        ("Surface", s.surface or (t.tiles[0].face.terrain if t.tiles and t.tiles[0].face.terrain else "–")),
        ("Options", options_text(s)),
        ("Tiles", tiles_text),
        ("Length", f"{f.length} cells (shortest line, start to finish)" if f.length is not None else "–"),
        ("Fastest line", fast),
        ("Table time", f"≈ {minutes(f.table_minutes)} for {f.players} players ({f.table_basis})"
         if f.table_minutes else "–"),
        ("Assistance", "after this stage: repair damage, spare wheel back" if f.assistance
         else "none after this stage: damage carries over"),
        ("Boxes", ", ".join(f.boxes) or "–"),
        ("Table space", f"{fp.width_cm:g} × {fp.height_cm:g} cm ({fp.tiles} tiles of {fp.tile_cm:g} cm across the flats)"),
    ]
    key_w = 28
    for k, v in rows:
        pdf.font(9, True)
        pdf.cell(key_w, 5, k)
        pdf.font(9)
        pdf.multi_cell(0, 5, v, new_x="LMARGIN", new_y="NEXT")
    if f.problems:
        pdf.ln(1)
        pdf.font(9, True, RED)
        pdf.cell(0, 5, "This stage is not legal:", new_x="LMARGIN", new_y="NEXT")
        pdf.font(8.5, False, RED)
        for p in f.problems[:8]:
            pdf.multi_cell(0, 4.4, f"• {p}", new_x="LMARGIN", new_y="NEXT", align="L")
        pdf.set_text_color(*INK)
    if s.notes:
        pdf.ln(1)
        pdf.para(s.notes, 7.5, GREY, 3.6)
    pdf.ln(2)
    _overview_map(pdf, f)


def _overview_map(pdf: _Book, f: StageFacts):
    legend = ("Tiles numbered in driving order (black discs) with their face. Circled numbers: speed limits; "
              "C n: cut and its limit; chevron n: jump; waves: ford; dashed cross line: slide; "
              "coloured dots at the road ends: danger colour of the tile.")
    top = pdf.get_y()
    avail = pdf.bottom - top - 10
    if avail < 90:
        pdf.add_page()
        top = pdf.get_y()
        avail = pdf.bottom - top - 10
    if not f.track.tiles:
        pdf.para("The stage has no tile yet.")
        return
    svg = map_svg(f.track)
    _, dh = pdf.svg(svg, pdf.l_margin, top, pdf.epw, avail, max_scale=MAP_MAX_SCALE)
    pdf.set_y(top + dh + 1.5)
    pdf.para(legend, 7, GREY, 3.3)


def _build_sheet(pdf: _Book, f: StageFacts):
    pdf.add_page()
    pdf.heading(f"Build sheet · {f.stage.name}")
    boxes = ", ".join(f.boxes) or "–"
    pdf.para(f"Lay the tiles in this order. Boxes needed: {boxes}. Each drawing shows the tile as it lies on the "
             f"table, north up as on the map; the blue arrows show where the road enters and leaves it. Sides are "
             f"named as seen on the map (↑ top, ↗ upper right, ↘ lower right, ↓ bottom, ↙ lower left, ↖ upper "
             f"left); the edge letters are the tile's own (A at the top of the face drawn upright). Rotation: "
             f"steps of 60° clockwise from upright.", 8, INK, 3.9)
    pdf.ln(1.5)
    cols = [("#", 8), ("", 19), ("Tile", 27), ("Road", 50), ("Rotation", 19), ("Attaches to", 0)]
    widths = [w for _, w in cols]
    widths[-1] = pdf.epw - sum(widths[:-1])
    # Rows shrink (down to 13 mm) so that a stage of up to 15 tiles fits on one page.
    rows_n = max(len(f.track.tiles), 1)
    row_h = max(13.0, min(17.0, (pdf.bottom - pdf.get_y() - 7) / rows_n))

    def header():
        pdf.table_header(cols, widths, 6)

    header()
    tiles = {t.index: t for t in f.track.tiles}
    for row in build_rows(f.track):
        if not pdf.room(row_h):
            pdf.add_page()
            header()
        y = pdf.get_y()
        x = [pdf.l_margin]
        for w in widths:
            x.append(x[-1] + w)
        t = tiles[row["number"] - 1]
        pdf.font(12, True)
        pdf.set_xy(x[0], y)
        pdf.cell(widths[0], row_h, str(row["number"]), align="C")
        pdf.svg(tile_svg(f.track, t, labels=False), x[1] + 0.5, y + 0.5, widths[1] - 1, row_h - 1)
        top = y + (row_h - 11) / 2
        pdf.set_xy(x[2] + 1, top)
        pdf.font(10.5, True)
        pdf.cell(14, 5, row["tile"])
        pdf.danger_dot(x[2] + 17.5, top + 2.5, row["danger"])
        pdf.set_xy(x[2] + 1, top + 5.5)
        pdf.font(7.5, False, GREY)
        pdf.cell(widths[2] - 1, 4, row["kind"])
        pdf.font(8.5)
        pdf.set_xy(x[3], top)
        if row["entry"]:
            side = SIDE_WORDS[t.world_entry] if t.world_entry else ""
            pdf.cell(widths[3], 4.6, f"in: {side} side {row['from']}  (edge {row['entry']})")
        pdf.set_xy(x[3], top + 5.5)
        if row["exit"]:
            side = SIDE_WORDS[t.world_exit] if t.world_exit else ""
            pdf.cell(widths[3], 4.6, f"out: {side} side {row['to']}  (edge {row['exit']})")
        else:
            pdf.font(8.5, False, GREY)
            pdf.cell(widths[3], 4.6, "dead end")
        pdf.font(9)
        pdf.set_xy(x[4], top)
        pdf.cell(widths[4], 4.6, f"{row['rotation']} · {row['degrees']}°")
        pdf.set_xy(x[5], top)
        pdf.font(8.5)
        pdf.multi_cell(widths[5], 4.4, row["attaches"], align="L")
        pdf.set_draw_color(200, 200, 200)
        pdf.set_line_width(0.2)
        pdf.line(pdf.l_margin, y + row_h, pdf.l_margin + pdf.epw, y + row_h)
        pdf.set_draw_color(*INK)
        pdf.set_xy(pdf.l_margin, y + row_h)


PACE_LEGEND = ("Distances in cells along the shortest line: from the start, and (+) from the previous note. "
               "Corners: direction and speed limit of the inside line (the pace-note number), 'out' the limit of "
               "the outside line. 'into': the next hazard follows within two cells; 'tightens': it turns the same "
               "way with a lower limit. Slide: the row may be driven as two half-cells across the road. Cut n: a "
               "'Corde' taken at gear n or less, drawing a damage token. Jump n: the die for it. Ford: enter with a "
               "throttle die or gear 1. The dot is the danger colour of the tile.")


def _pace_notes(pdf: _Book, f: StageFacts):
    pdf.add_page()
    pdf.heading(f"Pace notes · {f.stage.name}")
    if not f.notes:
        reason = ("the stage does not assemble" if (f.track.unknown or f.track.errors)
                  else "some faces have no cell graph")
        pdf.para(f"No pace notes: {reason}.", 9)
        return
    pdf.para(PACE_LEGEND, 7.5, GREY, 3.6)
    pdf.ln(2)
    draw_w = 26.0
    gears = gears_by_tile(f.track, f.fastest.cell_gears) if f.fastest else {}
    cols = [("From start", 19), ("+", 11), ("Note", 0), ("Danger", 22)]
    widths = [w for _, w in cols]
    widths[2] = pdf.epw - draw_w - 3 - sum(widths)
    line_h = 5.6
    by_tile = notes_by_tile(f.notes)

    def header():
        pdf.font(7.5, True, GREY)
        x = pdf.l_margin + draw_w + 3
        pdf.set_x(x)
        for (name, _), w in zip(cols, widths):
            pdf.cell(w, 5, name, border="B", align="R" if name in ("From start", "+") else "L")
        pdf.ln(6)

    header()
    for t in f.track.tiles:
        notes = by_tile.get(t.index, [])
        rows = max(len(notes), 1)
        block = max(draw_w + 2, 7 + rows * line_h + 2)
        if not pdf.room(block):
            pdf.add_page()
            header()
        y = pdf.get_y()
        pdf.svg(tile_svg(f.track, t), pdf.l_margin, y, draw_w, draw_w)
        x0 = pdf.l_margin + draw_w + 3
        pdf.set_xy(x0, y)
        pdf.font(9, True)
        head = f"Tile {t.index + 1} · {t.tile} · {tile_kind(t)}"
        pdf.cell(pdf.get_string_width(head) + 4, 6, head)
        if gears.get(t.index):
            pdf.font(8, False, GREY)
            pdf.cell(0, 6, "fastest line in gear " + " → ".join(str(g) for g in gears[t.index]))
        yy = y + 7
        if not notes:
            pdf.set_xy(x0 + widths[0] + widths[1], yy)
            pdf.font(8.5, False, GREY)
            pdf.cell(widths[2], line_h, "no note")
        for n in notes:
            pdf.set_xy(x0, yy)
            pdf.font(9.5, True)
            pdf.cell(widths[0], line_h, str(n.distance_from_start), align="R")
            pdf.font(8.5, False, GREY)
            pdf.cell(widths[1], line_h, f"+{n.distance_from_previous}", align="R")
            pdf.cell(3, line_h, "")
            quiet = n.kind in ("slide", "assistance")
            pdf.font(10 if n.kind == "corner" else 9, n.kind in ("corner", "jump", "ford", "start", "finish"),
                     GREY if quiet else INK)
            pdf.cell(widths[2] - 3, line_h, n.text)
            if n.danger:
                pdf.danger_dot(pdf.get_x() + 2, yy + line_h / 2, n.danger, r=1.2)
                pdf.font(8, False, GREY)
                pdf.set_x(pdf.get_x() + 4.5)
                pdf.cell(widths[3] - 4.5, line_h, n.danger)
            yy += line_h
        end = max(y + block, yy + 1)
        pdf.set_draw_color(210, 210, 210)
        pdf.set_line_width(0.2)
        pdf.line(pdf.l_margin, end - 1, pdf.l_margin + pdf.epw, end - 1)
        pdf.set_draw_color(*INK)
        pdf.set_xy(pdf.l_margin, end)


def gears_by_tile(track: Track, cell_gears) -> dict[int, list[int]]:
    """The gears of the fastest line on each tile, in driving order, repeats removed."""
    out: dict[int, list[int]] = {}
    for node, gear in cell_gears:
        if gear is None or node not in track.graph:
            continue
        i = track.graph.nodes[node]["index"]
        seq = out.setdefault(i, [])
        if not seq or seq[-1] != gear:
            seq.append(gear)
    return out


def _cell_label(track: Track, node: str) -> str:
    d = track.graph.nodes.get(node)
    if not d:
        return node
    return f"{d['index'] + 1}:{d['cell']}"


def _fastest(pdf: _Book, f: StageFacts):
    line = f.fastest
    if line is None and pdf.room(30):
        pdf.ln(4)
    else:
        pdf.add_page()
    pdf.heading(f"Fastest line · {f.stage.name}")
    if line is None:
        pdf.font(10, True)
        pdf.cell(0, 6, "The fastest line is not available.", new_x="LMARGIN", new_y="NEXT")
        pdf.para(f"Reason: {f.fastest_missing or 'unknown'}. The rest of the road book does not depend on it.", 9)
        return
    summary = []
    if line.game_seconds is not None:
        summary.append(f"game time {clock(line.game_seconds)}")
    if line.turns:
        summary.append(f"{len(line.turns)} turns")
    if f.table_minutes:
        summary.append(f"table time ≈ {minutes(f.table_minutes)} for {f.players} players")
    pdf.para(("Fastest line: " + ", ".join(summary) + ".") if summary else "Fastest line:", 10)
    pdf.para("The gear in each cell is drawn on the line (coloured discs). Gears used on each tile:", 8.5, GREY)
    pdf.ln(1)
    gears = gears_by_tile(f.track, line.cell_gears)
    road = [t for t in f.track.tiles if t.face.role != "assistance"]
    per_row = 2
    cw = pdf.epw / per_row
    for k in range(0, len(road), per_row):
        y = pdf.get_y()
        for j, t in enumerate(road[k:k + per_row]):
            pdf.set_xy(pdf.l_margin + j * cw, y)
            pdf.font(8, False, GREY)
            pdf.cell(24, 5.2, f"tile {t.index + 1} {t.tile}")
            pdf.font(9.5, True)
            gs = gears.get(t.index, [])
            pdf.cell(cw - 24, 5.2, " → ".join(str(g) for g in gs) if gs else "–")
        pdf.set_xy(pdf.l_margin, y + 5.2)
    pdf.ln(1.5)
    # Map with the line, sized to leave room for the table of turns below it.
    table_h = (5.5 + 5.0 * len(line.turns) + 12.0) if line.turns else 0.0
    map_h = min(pdf.bottom - pdf.get_y() - table_h - 4, 150.0)
    if map_h < 80:
        map_h = min(pdf.bottom - pdf.get_y() - 4, 150.0)
    lines = {"fastest": line.cell_gears} if line.cell_gears else None
    top = pdf.get_y()
    _, dh = pdf.svg(map_svg(f.track, lines=lines), pdf.l_margin, top, pdf.epw, map_h, max_scale=MAP_MAX_SCALE)
    pdf.set_y(top + dh + 3)
    if not line.turns:
        return
    cols = [("Turn", 11), ("Tiles", 22), ("Ends at", 20), ("Cells", 11), ("Dice, in order", 0), ("Gear", 11),
            ("Time card", 17)]
    widths = [w for _, w in cols]
    widths[4] = pdf.epw - sum(widths)

    def header():
        pdf.table_header(cols, widths, 5.5)

    if not pdf.room(28):
        pdf.add_page()
    header()
    g = f.track.graph
    for t in line.turns:
        if not pdf.room(5):
            pdf.add_page()
            header()
        tiles = []
        for c in t.cells:
            if c in g:
                i = g.nodes[c]["index"] + 1
                if not tiles or tiles[-1] != i:
                    tiles.append(i)
        span = (f"{tiles[0]}–{tiles[-1]}" if len(tiles) > 1 else str(tiles[0])) if tiles else "–"
        end = _cell_label(f.track, t.cells[-1]) if t.cells else "–"
        pdf.font(9, True)
        pdf.cell(widths[0], 5, str(t.number))
        pdf.font(8.5)
        pdf.cell(widths[1], 5, span)
        pdf.cell(widths[2], 5, end)
        pdf.cell(widths[3], 5, str(len(t.cells)))
        pdf.cell(widths[4], 5, t.dice or "–")
        pdf.font(9, True)
        pdf.cell(widths[5], 5, str(t.gear) if t.gear is not None else "–")
        pdf.font(8.5)
        pdf.cell(widths[6], 5, f"{t.seconds:g} s" if t.seconds is not None else "–", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1.5)
    pdf.para("Dice: gear dice by their number, G gas (throttle), B brake (with the gear die it goes with), "
             "L leader; one group per cell moved. Ends at: tile:cell. Time card: the seconds of the gear the turn "
             "ends in. The line is a shakedown run: hazard faces are not rolled.", 7.5, GREY, 3.6)


def _stage_pages(pdf: _Book, f: StageFacts, rally_name=None, position=None, count=None):
    label = stage_label(f.stage, position)
    rally_part = rally_name if rally_name and rally_name not in f.stage.name else None
    running = " · ".join(x for x in [rally_part, label, f.stage.name] if x)
    _title_block(pdf, f, rally_name, position, count, running)
    _build_sheet(pdf, f)
    _pace_notes(pdf, f)
    _fastest(pdf, f)


# -- rally pages ----------------------------------------------------------------------------

def _rally_cover(pdf: _Book, rally: Rally, facts: list[StageFacts]):
    pdf.add_page()
    pdf.running = f"{rally.name} · road book"
    pdf.font(8.5, False, GREY)
    pdf.cell(0, 4.5, "ROAD BOOK · Rallyman: DIRT", new_x="LMARGIN", new_y="NEXT")
    pdf.font(22, True)
    pdf.multi_cell(0, 10, rally.name, new_x="LMARGIN", new_y="NEXT")
    total_tiles = sum(f.road_tiles for f in facts)
    total_min = sum(f.table_minutes or 0 for f in facts)
    players = max((f.players for f in facts), default=4)
    pdf.font(11, False, GREY)
    pdf.cell(0, 6, f"{len(facts)} stages · {total_tiles} road tiles · about {minutes(total_min)} at the table "
                   f"for {players} players", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.heading("The stages in order", 12)
    cols = [("", 14), ("Stage", 0), ("Tiles", 13), ("Length", 17), ("Fastest", 18), ("Table", 19), ("Surface", 17)]
    widths = [w for _, w in cols]
    widths[1] = pdf.epw - sum(widths)
    pdf.font(8, True)
    pdf.set_fill_color(*LIGHT)
    for (name, _), w in zip(cols, widths):
        pdf.cell(w, 6, name, border="B", fill=True)
    pdf.ln(6)
    for k, f in enumerate(facts, start=1):
        label = stage_label(f.stage, k)
        fast = clock(f.fastest.game_seconds) if f.fastest and f.fastest.game_seconds is not None else "–"
        vals = [label, f.stage.name, str(f.road_tiles), f"{f.length} cells" if f.length is not None else "–",
                fast, minutes(f.table_minutes), f.stage.surface or "–"]
        pdf.font(10, True)
        pdf.cell(widths[0], 7, vals[0])
        pdf.font(9)
        for v, w in zip(vals[1:], widths[1:]):
            pdf.cell(w, 7, v)
        pdf.ln(7)
        if k < len(facts):
            if f.assistance:
                text = f"ASSISTANCE after {label}: remove every damage token, take back the spare wheel card"
                colour, fill = INK, (223, 238, 214)
            else:
                text = (f"No assistance after {label}: note damage (V/G/F) on the rally sheet; "
                        "the spare wheel may be used between stages")
                colour, fill = GREY, (248, 248, 248)
            pdf.set_fill_color(*fill)
            pdf.font(8.5, f.assistance, colour)
            pdf.cell(widths[0], 6, "", fill=True)
            pdf.cell(pdf.epw - widths[0], 6, "↓ " + text, fill=True, new_x="LMARGIN", new_y="NEXT")
            pdf.set_text_color(*INK)
        elif f.assistance:
            pdf.font(8.5, False, GREY)
            pdf.cell(widths[0], 6, "")
            pdf.cell(0, 6, f"↓ assistance after {label} (end of the rally)", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.para("Each stage has its title block and map, build sheet, pace notes and fastest line on the following "
             "pages. The rally sheet to fill in at the table is the last page.", 8.5, GREY)
    # Small maps of the stages side by side.
    top = pdf.get_y() + 3
    avail = pdf.bottom - top
    if avail > 45 and facts:
        n = len(facts)
        per_row = min(n, 3)
        rows = math.ceil(n / per_row)
        cell_w = pdf.epw / per_row
        cell_h = min(avail / rows, cell_w * 1.3)
        for k, f in enumerate(facts):
            r, c = divmod(k, per_row)
            x = pdf.l_margin + c * cell_w
            y = top + r * cell_h
            pdf.set_xy(x, y)
            pdf.font(9, True)
            pdf.cell(cell_w, 5, stage_label(f.stage, k + 1), align="C")
            if f.track.tiles:
                pdf.svg(map_svg(f.track), x + 2, y + 6, cell_w - 4, cell_h - 8)


def _rally_sheet(pdf: _Book, rally: Rally, facts: list[StageFacts]):
    """The rulebook's 'fiche Rallye': one column per player, rows stage by stage."""
    pdf.add_page()
    pdf.running = f"{rally.name} · rally sheet"
    pdf.heading(f"Rally sheet · {rally.name}", 15)
    pdf.font(10)
    pdf.cell(pdf.epw * 0.6, 8, "Place: ..................................................")
    pdf.cell(pdf.epw * 0.4, 8, "Date: ......................", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    players = max(5, max((f.players for f in facts), default=4))
    label_w = 38.0
    col_w = (pdf.epw - label_w) / players
    n = len(facts)
    rows: list[tuple[str, str, str]] = [("PLAYER", "", "name")]
    for k, f in enumerate(facts, start=1):
        label = stage_label(f.stage, k)
        rows.append((f"{label} TIME", ".....:.....", "time"))
        if k < n:
            if f.assistance:
                rows.append((f"assistance after {label}: damage tokens removed, spare wheel card back", "", "band"))
            else:
                rows.append((f"no assistance after {label}: note the damage left, the spare wheel may be used now",
                             "", "note"))
            rows.append(("DAMAGE", "...V / ...G / ...F", "row"))
            rows.append(("SPARE WHEEL", "○ O    ○ N", "row"))
            if k >= 2:
                rows.append(("TOTAL TIME", ".....:.....  #....", "total"))
    rows.append(("FINAL TIME", ".....:.....", "total"))
    rows.append(("POSITION", "#.....", "total"))
    pdf.set_line_width(0.3)
    for label, content, kind in rows:
        if kind in ("band", "note"):
            pdf.set_fill_color(*((223, 238, 214) if kind == "band" else (250, 250, 250)))
            pdf.font(7.5, kind == "band", INK if kind == "band" else GREY)
            pdf.cell(pdf.epw, 5.5, "↓ " + (label.upper() if kind == "band" else label), border=1, fill=True,
                     new_x="LMARGIN", new_y="NEXT")
            continue
        h = 13.0 if kind == "name" else 9.5
        fill = kind in ("time", "total", "name")
        pdf.set_fill_color(*(LIGHT if fill else (255, 255, 255)))
        pdf.font(8.5, True)
        pdf.cell(label_w, h, label, border=1, fill=fill)
        small = col_w < 27
        pdf.font((9.5 if kind != "row" else 9) - (1 if small else 0), False, GREY if kind != "name" else INK)
        for _ in range(players):
            pdf.cell(col_w, h, content, border=1, align="C")
        pdf.ln(h)
    pdf.set_text_color(*INK)
    pdf.ln(3)
    pdf.para("Write each player's name, then the time of each stage (time cards minus seconds tokens). V: speed "
             "(Vitesse), G: throttle (Gaz), F: brakes (Freins) damage tokens left on the dashboard when there is no "
             "assistance. Spare wheel: O (oui) if the card can be used in the next stage, N (non) if not. TOTAL "
             "TIME: the sum so far and the position (#). A player who retires takes one minute more than the slowest "
             "finisher.", 8, GREY, 3.8)
    pdf.ln(2)
    pdf.font(8.5, True)
    pdf.cell(0, 5, "Stages of this rally", new_x="LMARGIN", new_y="NEXT")
    for k, f in enumerate(facts, start=1):
        pdf.font(8.5)
        fast = (f", fastest line {clock(f.fastest.game_seconds)}"
                if f.fastest and f.fastest.game_seconds is not None else "")
        after = "assistance after" if f.assistance else "no assistance after"
        pdf.cell(0, 4.6, f"{stage_label(f.stage, k)}  {f.stage.name}: {f.road_tiles} tiles{fast}; {after}",
                 new_x="LMARGIN", new_y="NEXT")


# -- public API -----------------------------------------------------------------------------

def _write(pdf: _Book, path) -> bytes:
    data = bytes(pdf.output())
    if path is not None:
        p = Path(path)
        try:
            p.write_bytes(data)
        except OSError as exc:
            raise DesignerError(f"cannot write the road book ({exc.strerror})", where=str(p),
                                hint="check that the folder exists and is writable") from None
    return data


def stage_roadbook(stage: Stage, path=None, paper: str = "A4", *, near: Path | None = None,
                   players: int | None = None) -> bytes:
    """The road book of one stage as PDF bytes; also written to ``path`` when given.

    Parameters
    ----------
    stage : Stage
    path : str or Path or None
        Where to write the PDF (None: only return the bytes, e.g. for a download button).
    paper : "A4" or "Letter"
    near : Path, optional
        Folder of the stage file, to find a tileset named relative to it.
    players : int, optional
        Players at the table (default: the stage's, or 4).
    """
    facts = stage_facts(stage, near=near, players=players)
    pdf = _new_book(paper, stage.name)
    rally = stage.rally.name if stage.rally and stage.rally.name else None
    _stage_pages(pdf, facts, rally_name=rally)
    return _write(pdf, path)


def rally_roadbook(rally: Rally, path=None, paper: str = "A4", *, near: Path | None = None,
                   players: int | None = None) -> bytes:
    """The road book of a rally: cover with the stages and assistance, every stage, the rally sheet."""
    if not rally.stages:
        raise DesignerError("the rally has no stage", where=rally.source or rally.name,
                            hint="list stage files under `stages:`")
    if near is None and rally.source:
        near = Path(rally.source).resolve().parent
    facts = [stage_facts(s, near=near, players=players) for s in rally.stages]
    pdf = _new_book(paper, rally.name)
    _rally_cover(pdf, rally, facts)
    for k, f in enumerate(facts, start=1):
        _stage_pages(pdf, f, rally_name=rally.name, position=k, count=len(facts))
    _rally_sheet(pdf, rally, facts)
    return _write(pdf, path)


def roadbook(path, out=None, paper: str = "A4", players: int | None = None) -> bytes:
    """The road book of a stage file or a rally file (``stages: [...]``), written to ``out``."""
    p = Path(path)
    if not p.is_file():
        raise DesignerError("no such file", where=str(p), hint="give a stage file (ss1.yaml) or a rally file (rally.yaml)")
    if is_rally_file(p):
        return rally_roadbook(load_rally(p), out, paper, near=p.resolve().parent, players=players)
    return stage_roadbook(load_stage(p), out, paper, near=p.resolve().parent, players=players)


__all__ = ["stage_roadbook", "rally_roadbook", "roadbook", "stage_facts", "StageFacts", "FastestLine", "Turn",
           "fastest_line", "build_rows", "tile_svg", "map_svg", "pdf_svg", "clock", "PAPERS"]
