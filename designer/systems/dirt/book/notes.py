"""The pace-notes page of a DIRT road book: one compact row per call, in driving order, grouped by tile."""
from __future__ import annotations

from designer.core.pdfkit import GREY, INK, Book, Column
from designer.systems.dirt.board.render import DANGER_COLOUR
from designer.systems.dirt.book.build import tile_kind
from designer.systems.dirt.book.facts import no_cells_words

LEGEND = ("Distances in cells along the shortest line: from the start, and (+) from the previous call, corner to "
          "corner. Left/Right n: the way the road driven turns at the bend (a junction's printed limits make a "
          "bend too) and the speed limit of its inside line; out n: the outside line's limit; slide in/out: the dashed half-cell rows before/after the corner. 'into': the "
          "next hazard follows within two cells. Cut n: a 'Corde' taken at gear n or less (draws a damage token). "
          "Jump n: the die for it. Ford: enter with a gas die or gear 1. Flat: no hazard on the tile. The dot and "
          "word give the tile's danger colour.")
ROW_H = 4.4


def gears_by_tile(track, cell_gears) -> dict[int, list[int]]:
    """The gears of the fastest line on each tile, in driving order, repeats removed."""
    out: dict[int, list[int]] = {}
    for node, gear in cell_gears:
        if gear is None or node not in track.graph:
            continue
        seq = out.setdefault(track.graph.nodes[node]["index"], [])
        if not seq or seq[-1] != gear:
            seq.append(gear)
    return out


def ideal_by_tile(track, line) -> dict[int, float]:
    """Seconds of the ideal line's turns by the tile each turn starts on (where the expected time puts them)."""
    out: dict[int, float] = {}
    nodes = track.graph.nodes
    at = line.cell_gears[0][0] if line.cell_gears and line.cell_gears[0][1] is None else None
    for t in line.turns:
        start = at if at is not None else (t.cells[0] if t.cells else None)
        if start in nodes and t.seconds is not None:
            index = nodes[start]["index"]
            out[index] = out.get(index, 0.0) + t.seconds
        if t.cells:
            at = t.cells[-1]
    return out


def _seconds(v: float | None) -> str:
    if v is None:
        return ""
    return f"{v:.0f}" if abs(v - round(v)) < 0.05 else f"{v:.1f}"


def pace_notes_page(pdf: Book, f, new_page: bool = True) -> list[float]:
    """The pace notes of a stage: from a page of their own, or (``new_page=False``) from where the book is; a
    long table runs onto the next page under its header again. Returns where each row ends on the page the
    notes start on (mm below their start), so that a book can tell how much of them fits a page."""
    if new_page:
        pdf.add_page()
    page, start = pdf.page_no(), pdf.get_y()
    ends: list[float] = []
    pdf.heading(f"Pace notes · {f.stage.name}")
    if not f.notes:
        reason = ("the stage does not assemble" if (f.track.unknown or f.track.errors)
                  else no_cells_words(f.track))
        pdf.para(f"No pace notes: {reason}.", 9)
        return [pdf.get_y() - start]
    line = f.fastest
    gears = gears_by_tile(f.track, line.cell_gears) if line else {}
    ideal = ideal_by_tile(f.track, line) if line and line.turns else {}
    expected = line.expected.tiles if line and line.expected else {}
    legend = LEGEND
    order = [n.tile for k, n in enumerate(f.notes) if k == 0 or n.tile != f.notes[k - 1].tile]
    again = len(order) > len(set(order))          # a circuit comes back to its first tile
    if any(n.kind == "chicane" for n in f.notes):
        legend += (" Chicane n: a chicane token limits its row to gear n; 'one lane closed': a chicane closes the "
                   "space beside it (both assumed: tilesets/dirt-token-rules.yaml).")
    if any(n.kind == "corner" and n.direction is None for n in f.notes):
        legend += " Bend n: a bend whose side the tile does not tell."
    if gears:
        legend += " Line gears: the gears of the ideal line on the tile."
    if (gears or ideal) and again:
        legend += " A tile driven again has its figures on its first row, for every time it is driven."
    if ideal:
        legend += " Ideal s: the time cards of the ideal line's turns that start on the tile (no hazard rolled)."
    if expected:
        legend += (" Exp. s: the expected seconds of the turns started on the tile, playing the best way under "
                   "the dice (time cards and the cost of losses of control; the sum is under the table).")
    pdf.para(legend, 7, GREY, 3.2)
    pdf.ln(1.5)
    cols = [Column("From start", 15, "R"), Column("+", 8, "R"), Column("", 2.5), Column("Tile", 45),
            Column("Call", 0), Column("Danger", 16 if ideal else 19)]
    if gears:
        cols.append(Column("Line gears", 24 if ideal else 27))
    if ideal:
        cols.append(Column("Ideal s", 11, "R"))
    if expected:
        cols.append(Column("Exp. s", 11, "R"))
    widths = pdf.widths(cols)
    at = {c.name: k for k, c in enumerate(cols)}
    kinds = {t.index: tile_kind(t) for t in f.track.tiles}
    ids = {t.index: t.tile for t in f.track.tiles}

    def header():
        pdf.table_header(cols, widths, 7)

    pdf.need(ROW_H * 4 + 6)
    header()
    last_tile = None
    shown: set[int] = set()          # tiles whose line figures are printed (a circuit's first tile comes back)
    for n in f.notes:
        new_tile = n.tile != last_tile
        figures = new_tile and n.tile not in shown
        quiet = n.kind in ("flat", "assistance", "slide")
        call_style = (9 if n.kind == "corner" else 8.5,
                      n.kind in ("corner", "chicane", "jump", "ford", "start", "finish", "cut"), GREY if quiet else INK)
        kind_lines = _lines(pdf, kinds.get(n.tile, "") if new_tile else "", widths[3] - 18, 6.5, False)
        call_lines = _lines(pdf, n.text, widths[4], *call_style[:2])
        gear_text = "→ ".join(str(g) for g in gears.get(n.tile, [])) if gears and figures else ""
        gear_lines = _lines(pdf, gear_text, widths[at["Line gears"]], 7.5, False) if gears else [""]
        row_h = ROW_H + LINE_H * (max(len(kind_lines), len(call_lines), len(gear_lines)) - 1)
        if not pdf.room(row_h):
            pdf.add_page()
            header()
        if figures:
            shown.add(n.tile)
        y = pdf.get_y()
        if new_tile and last_tile is not None:
            pdf.rule(y, width=0.15)
        pdf.set_x(pdf.l_margin)
        pdf.font(9, True)
        pdf.cell(widths[0], ROW_H, str(n.distance_from_start), align="R")
        pdf.font(7.5, False, GREY)
        pdf.cell(widths[1], ROW_H, f"+{n.distance_from_previous}", align="R")
        pdf.cell(widths[2], ROW_H, "")
        if new_tile:
            pdf.font(7.5, True, INK)
            pdf.cell(7, ROW_H, str(n.tile + 1))
            pdf.cell(11, ROW_H, ids.get(n.tile, n.tile_id))
            _draw_lines(pdf, kind_lines, widths[3] - 18, y, 6.5, False, GREY)
        else:
            pdf.cell(widths[3], ROW_H, "")
        _draw_lines(pdf, call_lines, widths[4], y, *call_style)
        if n.danger:
            x = pdf.get_x()
            pdf.dot(x + 1.6, y + ROW_H / 2, DANGER_COLOUR.get(n.danger, "#999999"), r=1.2)
            pdf.set_x(x + 4)
            pdf.font(7.5, False, GREY)
            pdf.cell(widths[5] - 4, ROW_H, n.danger)
        else:
            pdf.cell(widths[5], ROW_H, "")
        if gears:
            _draw_lines(pdf, gear_lines, widths[at["Line gears"]], y, 7.5, False, GREY)
        if ideal:
            pdf.font(7.5, False, INK)
            pdf.cell(widths[at["Ideal s"]], ROW_H, _seconds(ideal.get(n.tile)) if figures else "", align="R")
        if expected:
            pdf.font(7.5, True, INK)
            exp = expected.get(n.tile)
            pdf.cell(widths[at["Exp. s"]], ROW_H, _seconds(exp[0]) if figures and exp else "", align="R")
        pdf.set_xy(pdf.l_margin, y + row_h)
        if pdf.page_no() == page:
            ends.append(pdf.get_y() - start)
        last_tile = n.tile
    if ideal or expected:
        _sums(pdf, f, widths, at, ideal, expected)
        if pdf.page_no() == page:
            ends.append(pdf.get_y() - start)
    pdf.set_text_color(*INK)
    return ends


def _sums(pdf: Book, f, widths: list[float], at: dict[str, int], ideal: dict, expected: dict) -> None:
    """The sums of the seconds columns, and what the expected seconds add up to against the expected time."""
    total = sum(v[0] for v in expected.values())
    words = []
    if ideal:
        words.append("Ideal s adds up to the ideal time.")
    exp = f.fastest.expected if f.fastest else None
    if expected and exp is not None:
        gap = total - exp.seconds
        words.append(f"Exp. s adds up to {total:.1f} s against an expected time of {exp.seconds:.1f} s: the sum counts "
                     "every turn's time card, losses of control included, while the expected time also takes off the "
                     "seconds tokens a driver still holds at the finish (1 s each) and adds the time of an abandon "
                     f"(no gear die left); here these come to {abs(gap):.1f} s {'off' if gap >= 0 else 'on'} "
                     "on average.")
    text = " ".join(words)
    pdf.font(6.8)
    if not pdf.room(ROW_H + 0.5 + 3.0 * len(pdf.wrap(text, pdf.epw))):
        pdf.add_page()
    y = pdf.get_y()
    pdf.rule(y, width=0.3)
    pdf.set_x(pdf.l_margin)
    label_w = sum(widths[:at["Ideal s"] if ideal else at["Exp. s"]])
    pdf.font(7.5, True, INK)
    pdf.cell(label_w, ROW_H, "Sum of the column", align="R")
    if ideal:
        pdf.cell(widths[at["Ideal s"]], ROW_H, _seconds(sum(ideal.values())), align="R")
    if expected:
        pdf.cell(widths[at["Exp. s"]], ROW_H, _seconds(total), align="R")
    pdf.set_xy(pdf.l_margin, y + ROW_H + 0.5)
    pdf.para(text, 6.8, GREY, 3.0)


LINE_H = 3.4            # a further line of a wrapped call (mm)


def _lines(pdf: Book, text: str, width: float, size: float, bold: bool) -> list[str]:
    """``text`` wrapped to ``width`` mm at its own size: a call is never cut nor shrunk."""
    pdf.font(size, bold)
    return pdf.wrap(text, width - 2 * pdf.c_margin) if text else [""]


def _draw_lines(pdf: Book, lines: list[str], width: float, y: float, size: float, bold: bool, colour) -> None:
    """The lines of one cell from the row's top; the cursor moves on to the next cell of the row."""
    x = pdf.get_x()
    pdf.font(size, bold, colour)
    for k, line in enumerate(lines):
        pdf.set_xy(x, y + (0 if k == 0 else ROW_H + LINE_H * (k - 1) - 0.6))
        pdf.cell(width, ROW_H if k == 0 else LINE_H, line)
    pdf.set_xy(x + width, y)


__all__ = ["pace_notes_page", "gears_by_tile", "ideal_by_tile", "LEGEND"]
