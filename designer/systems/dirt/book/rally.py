"""Rally pages of a DIRT road book: the cover (stages in order, assistance between them, tiles for the whole
rally, small maps) and the rally sheet to fill in at the table, laid out as the rulebook's "fiche Rallye"
for up to six players (the box says 1-6): time and SISU per stage (the SISU rule: write "SISU" beside the
time), penalties (time controls, liaison), damage V/G/F and flat tyres and the spare wheel O/N between
stages, running totals, final time and position. A single-stage book has its sheet too.

With more than one player and the expected time solved (``--expected``), the sheet ends with the rally raced by
that many cars (:func:`designer.systems.dirt.dice.table_rally.simulate_rally`, seeded): per car the total, its
spread, wins, the chance of being blocked, turns and each stage's time, and the table time from every car's
simulated turns. A book for competitive play (no lines) leaves it out, as it leaves out the game times.
"""
from __future__ import annotations

import math
import re

from designer.core.pdfkit import BAND, GREY, INK, PALE, SHADE, Book, Column
from designer.systems.dirt.book.build import physical, pick_list, tile_number
from designer.systems.dirt.book.draw import map_svg
from designer.systems.dirt.book.facts import clock, minutes, stage_label

SHEET_PLAYERS = 6
_TEXT = re.compile(r"<text\b[^>]*>.*?</text>", re.S)


def strip_text(svg: str) -> str:
    """A drawing without its labels (for thumbnails too small to carry type)."""
    return _TEXT.sub("", svg)


def _time(f) -> str:
    if not f.lines or f.fastest is None:
        return "–"
    if f.fastest.expected is not None:
        return f"{clock(f.fastest.expected.seconds)} ({clock(f.fastest.game_seconds)})"
    return clock(f.fastest.game_seconds)


def rally_tiles(facts: list) -> tuple[dict[str, int], dict[str, list[str]]]:
    """The physical tiles a rally needs, by number in order: how many of each (the most one stage lays) and
    the faces (letters) the stages use."""
    need: dict[str, int] = {}
    faces: dict[str, set[str]] = {}
    for f in facts:
        count: dict[str, int] = {}
        for face in pick_list(f.track):
            number = physical(face)
            count[number] = count.get(number, 0) + 1
            faces.setdefault(number, set()).add(tile_number(face)[1] if number != face else "")
        for number, n in count.items():
            need[number] = max(need.get(number, 0), n)
    order = sorted(need, key=tile_number)
    return {n: need[n] for n in order}, {n: sorted(faces[n]) for n in order}


def contents_block(pdf: Book, contents: list[tuple[str, int]] | None) -> None:
    """The book's contents on the cover: each stage's first page and the rally sheet's."""
    if not contents:
        return
    pdf.subheading("Contents", 9.5)
    pdf.font(8.5)
    for title, page in contents:
        pdf.cell(14, 4.0, f"p. {page}")
        pdf.cell(0, 4.0, title, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1)


def rally_cover(pdf: Book, rally, facts: list, contents: list[tuple[str, int]] | None = None,
                table: dict | None = None) -> None:
    """The cover: the rally's size and table time (``table``: the simulated rally of the sheet, when there is one,
    so the book gives one table time), the contents and the stages in order."""
    pdf.add_page()
    pdf.running = f"{rally.name} · road book"
    pdf.font(8, False, GREY)
    pdf.cell(0, 4.5, "ROAD BOOK · Rallyman: DIRT", new_x="LMARGIN", new_y="NEXT")
    pdf.font(22, True)
    pdf.text_block(rally.name, h=10)
    total_tiles = sum(f.road_tiles for f in facts)
    total_min = sum(f.table_minutes or 0 for f in facts)
    players = max((f.players for f in facts), default=4)
    how = ""
    if table is not None:
        total_min, how = table["table_minutes"], f" (simulated, {table['runs']} races)"
    pdf.font(10.5, False, GREY)
    pdf.cell(0, 6, f"{len(facts)} stages · {total_tiles} road tiles · about {minutes(total_min)} at the table "
                   f"for {players} players{how}", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    contents_block(pdf, contents)
    pdf.ln(1)
    pdf.subheading("The stages in order")
    with_times = any(f.lines for f in facts)
    expected = any(f.fastest is not None and f.fastest.expected is not None for f in facts)
    cols = [Column("", 13, bold=True), Column("Stage"), Column("Tiles", 12, "R"), Column("Length", 18, "R")]
    if with_times:
        cols.append(Column("Expected (ideal)" if expected else "Ideal time", 30 if expected else 20, "R"))
    cols += [Column("Table", 18, "R"), Column("Surface", 18)]
    rows = []
    for k, f in enumerate(facts, start=1):
        label = stage_label(f.stage, k)
        row = [label, f.stage.name, str(f.road_tiles), f"{f.length} cells" if f.length is not None else "–"]
        if with_times:
            row.append(_time(f))
        row += [minutes(table["stage_table_minutes"][k - 1] if table else f.table_minutes), f.stage.surface or "–"]
        rows.append({"cells": row, "fill": None})
        if k < len(facts):
            text = (f"↓ ASSISTANCE after {label}: every damage token off, spare wheel back" if f.assistance
                    else f"↓ no assistance after {label}: write the damage on the rally sheet; the spare wheel "
                         "may be used now")
            rows.append({"cells": [""] + [(text, {"bold": f.assistance, "size": 7.2})] + [""] * (len(cols) - 2),
                         "fill": BAND if f.assistance else PALE})
    _spanning_table(pdf, cols, rows)
    pdf.ln(2)
    if with_times:
        pdf.para("Expected: the average time under the dice; ideal: the fastest line with no hazard rolled. Both "
                 "rest on assumed time-card values (see each stage's line page)." if expected else
                 "Ideal time: the fastest line with no hazard rolled (assumed time-card values): a floor, not a "
                 "forecast.", 7, GREY, 3.2)
    pdf.ln(1)
    need, faces = rally_tiles(facts)
    pdf.subheading(f"Tiles for the whole rally ({sum(need.values())} out of the box)", 9.5)
    pdf.para("  ".join(f"{n}{'/'.join(faces[n])}" + (f" ×{need[n]}" if need[n] > 1 else "") for n in need),
             8.5, INK, 4.0)
    both = next((n for n in need if len(faces[n]) > 1), None)
    pdf.para("By tile number with the faces the stages use"
             + (f" ({both}{'/'.join(faces[both])}: one tile, turned over between stages)" if both else "")
             + ". Each stage's build sheet lists its own tiles and what to change from the stage before.",
             7, GREY, 3.2)
    _cover_maps(pdf, facts)


def _spanning_table(pdf: Book, cols, rows) -> None:
    """The stages table: band rows write their text across the stage columns."""
    widths = pdf.widths(cols)
    pdf.table_header(cols, widths, 7.5)
    for row in rows:
        cells, fill = row["cells"], row["fill"]
        h = 6.2 if fill is None else 5.0
        pdf.set_x(pdf.l_margin)
        if fill is not None:
            pdf.set_fill_color(*fill)
            text, opts = cells[1]
            pdf.font(opts.get("size", 7.5), opts.get("bold", False))
            pdf.cell(widths[0], h, "", fill=True)
            pdf.cell(sum(widths[1:]), h, text, fill=True)
            pdf.ln(h)
            continue
        for c, w, v in zip(cols, widths, cells):
            pdf.font(10 if c.bold else 8.5, c.bold)
            pdf.cell(w, h, str(v), align=c.align)
        pdf.ln(h)


def _cover_maps(pdf: Book, facts: list) -> None:
    top = pdf.get_y() + 3
    avail = pdf.bottom - top
    if avail < 40 or not facts:
        return
    n = len(facts)
    per_row = min(n, 3)
    rows = math.ceil(n / per_row)
    cell_w = pdf.epw / per_row
    cell_h = min(avail / rows, cell_w * 1.25)
    for k, f in enumerate(facts):
        r, c = divmod(k, per_row)
        x, y = pdf.l_margin + c * cell_w, top + r * cell_h
        pdf.set_xy(x, y)
        pdf.font(9, True)
        pdf.cell(cell_w, 5, stage_label(f.stage, k + 1), align="C")
        if f.track.tiles:
            svg, _ = map_svg(f.track, cell_w - 4, cell_h - 8, labels=False)
            pdf.svg(strip_text(svg), x + 2, y + 6, cell_w - 4, cell_h - 8)


# -- the rally sheet ---------------------------------------------------------------------------

def rally_sheet(pdf: Book, name: str, facts: list, runs: int | None = None, table: dict | None = None) -> None:
    """The sheet to fill in at the table: one column per player (six), rows stage by stage; then, with several
    players and the expected time solved, the rally raced by them (``runs`` races, :data:`BOOK_RUNS` by default).
    """
    pdf.add_page()
    pdf.running = f"{name} · rally sheet"
    pdf.heading(f"Rally sheet · {name}", 14)
    pdf.font(9.5)
    pdf.cell(pdf.epw * 0.6, 7, "Place: ..................................................")
    pdf.cell(pdf.epw * 0.4, 7, "Date: ......................", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1.5)
    label_w = 34.0
    col_w = (pdf.epw - label_w) / SHEET_PLAYERS
    n = len(facts)
    rows: list[tuple[str, str, str]] = [("PLAYER", "", "name")]
    for k, f in enumerate(facts, start=1):
        label = stage_label(f.stage, k) if n > 1 else "STAGE"
        rows.append((f"{label} START ORDER", "#....  (drawn)" if k == 1 else "#....  (by total)", "row"))
        rows.append((f"{label} TIME", ".....:.....  ○ SISU", "time"))
        rows.append(("PENALTIES", "+ ........ s", "row"))
        if k < n:
            if f.assistance:
                rows.append((f"assistance after {label}: damage tokens off, spare wheel card back", "", "band"))
            else:
                rows.append((f"no assistance after {label}: write the damage left; the spare wheel may be used now",
                             "", "note"))
            rows.append(("DAMAGE", "..V ..G ..F ..flat", "row"))
            rows.append(("SPARE WHEEL", "○ O    ○ N", "row"))
            if k >= 2:
                rows.append(("TOTAL TIME", ".....:.....  #....", "total"))
    rows.append(("FINAL TIME", ".....:.....", "total"))
    rows.append(("POSITION", "#.....", "total"))
    if table is None:
        table = simulated_table(facts, runs or BOOK_RUNS)
    fit = _sheet_fit(pdf, rows, table)
    pdf.set_line_width(0.3)
    pdf.set_draw_color(*INK)
    for label, content, kind in rows:
        if kind in ("band", "note"):
            pdf.band("↓ " + (label.upper() if kind == "band" else label), 7, BAND if kind == "band" else PALE,
                     bold=kind == "band", h=5.0 * fit)
            continue
        h = _row_h(label, kind) * fit
        fill = kind in ("time", "total", "name")
        pdf.set_fill_color(*(SHADE if fill else (255, 255, 255)))
        pdf.font(8, True)
        pdf.cell(label_w, h, label, border=1, fill=fill)
        pdf.font(7.6 if kind != "row" else 7, False, GREY if kind != "name" else INK)
        for _ in range(SHEET_PLAYERS):
            pdf.cell(col_w, h, content, border=1, align="C")
        pdf.ln(h)
    pdf.set_text_color(*INK)
    pdf.ln(2.5)
    pdf.para(SHEET_TEXT, 7.5, GREY, 3.5)
    if table is not None:
        table_block(pdf, table)


SHEET_TEXT = ("Start order: for the first stage, draw the cars at random, the one drawn starts and play goes "
             "clockwise; for each later stage, the best total time so far starts first, then the second best "
             "(rulebook, 'Déterminer l'ordre de départ' and 'Passer à la Spéciale suivante'). "
             "Write each player's name, then the time of each stage: the time cards added up, minus the seconds "
             "tokens left. Tick SISU when the token was used in the stage. Penalties: seconds added by the "
             "organiser (late at a time control, liaison). Damage: the V (speed), G (throttle) and F (brakes) "
             "damage tokens and the flat tyres left when there is no assistance; they come back on the dashboard "
             "at the next stage. Spare wheel: O if its card can be used in the next stage, N if not. Total time: "
             "the sum so far, with the position (#). A player who retires takes one minute more than the slowest "
             "finisher.")
TABLE_NEED = 38.0   # mm (and 5 a car) the simulated table needs below the sheet, or it starts a page
ROW_FIT = 0.8       # the sheet's rows may be this much shorter (not less) to keep the sheet and its table on a page


def _row_h(label: str, kind: str) -> float:
    return 12.0 if kind == "name" else (7.0 if label == "PENALTIES" else 9.0)


def _sheet_fit(pdf: Book, rows: list, table: dict | None) -> float:
    """How much shorter the sheet's rows are drawn (1: as designed, down to :data:`ROW_FIT`) so that they, the
    text under them and the simulated table fit on the page; 1 when even :data:`ROW_FIT` would not do."""
    rows_h = sum(5.0 if kind in ("band", "note") else _row_h(label, kind) for label, _, kind in rows)
    pdf.font(7.5)
    rest = 2.5 + 3.5 * len(pdf.wrap(SHEET_TEXT, pdf.epw)) + 1.0
    if table is not None:
        from designer.systems.dirt.book.flow import height_alone

        block = height_alone(pdf, lambda b: (b.add_page(), table_block(b, table)))
        if block is None:
            return 1.0
        rest += max(block, TABLE_NEED + 5 * table["players"])     # table_block starts a page under that
    room = pdf.bottom - pdf.get_y() - rest
    if room >= rows_h or room < ROW_FIT * rows_h:
        return 1.0
    return room / rows_h


# -- the rally raced by the table's cars ---------------------------------------------------------

BOOK_RUNS = 500


def simulated_table(facts: list, runs: int = BOOK_RUNS) -> dict | None:
    """The rally raced ``runs`` times by the book's players, when there are several, the book prints lines and
    its expected times are solved (every stage valid with a cell graph); None otherwise."""
    from designer.systems.dirt.dice.table_rally import simulate_rally

    players = max((f.players for f in facts), default=1)
    if players < 2 or not facts or not all(f.lines and f.fastest is not None and f.fastest.expected is not None
                                           and f.track.has_cells for f in facts):
        return None
    return simulate_rally([f.track for f in facts], players, runs)


def table_block(pdf: Book, d: dict) -> None:
    """A simulated rally (:func:`simulated_table`) printed under the sheet: a line of table figures, one row per
    car, and what it rests on."""
    from designer.systems.dirt.book.facts import clock as clk
    from designer.systems.dirt.dice.table_rally import lone_car_words

    pdf.need(TABLE_NEED + 5 * d["players"])
    pdf.ln(1)
    pdf.subheading(f"At the table: {d['players']} cars raced {d['runs']} times (simulation)", 9.5)
    pdf.para(f"About {minutes(d['table_minutes'])} at the table ({d['rally_table_turns']:.0f} turns of all cars, "
             f"{', '.join(f'{t:.0f}' for t in d['table_turns'])} by stage); {lone_car_words(d)}: "
             f"{clk(d['single_car_expected_seconds'])}.", 8.5, INK, 4.0)
    m = d["stages"]
    cols = [Column("Car", 10, "C", bold=True), Column("Total", 16, "R"), Column("± sd", 13, "R"),
            Column("p10–p90", 24, "R"), Column("Wins", 12, "R"), Column("Blocked", 15, "R"), Column("Turns", 13, "R")]
    cols += [Column(f"SS{k}", 0, "R") for k in range(1, m + 1)] if m > 1 else [Column("", 0)]
    rows = []
    for s in d["seats"]:
        row = [str(s["seat"]), clk(s["expected_seconds"]), f"{s['sd']:.0f} s",
               f"{clk(s['p10_seconds'])}–{clk(s['p90_seconds'])}", f"{100 * s['win_chance']:.0f}%",
               f"{100 * s['blocked_chance']:.0f}%", f"{s['turns']:.1f}"]
        row += [clk(x) for x in s["stage_seconds"]] if m > 1 else [""]
        rows.append(row)
    pdf.table(cols, rows, size=8.0)
    pdf.ln(1)
    from designer.systems.dirt.dice.table_rally import damage_carried_words

    kept = [k.replace("_", " ") for k, v in d.get("assumed", {}).items() if v.get("status") in ("assumed", "decided")]
    pdf.para("Car 1 starts the first stage first, car 2 second...; later stages start by the totals so far. Blocked: "
             "the chance of being stopped by another car at least once. Each car plays the best single-car policy "
             "with the dice it gets (leader or gas); without an assistance after a stage, its damage and spent spare "
             "wheel go on to the next; " + damage_carried_words(d) + ". Seconds tokens start fresh. "
             f"Seeded ({d['seed']}), rules of tilesets/dirt-table-rules.yaml; not in the rulebook: "
             f"{', '.join(kept)}.", 7, GREY, 3.2)


__all__ = ["rally_cover", "rally_sheet", "strip_text", "SHEET_PLAYERS", "simulated_table", "table_block"]
