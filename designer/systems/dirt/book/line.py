"""The line-and-times page of a DIRT road book: the expected time under the dice as the headline (when the
analysis gives it), the ideal time of the fastest line beside it, the risk, the values behind them that are
assumed, the map of the line with each turn's end marked T1, T2, ..., and the turns in words a player finds
on the tile ("tile 4 · 227a: left lane, space 2 of 4, limit 5").
"""
from __future__ import annotations

from designer.core.pdfkit import ALERT, GREY, INK, Book, Column
from designer.systems.dirt.book.draw import LEGIBLE_SCALE, map_height, map_svg
from designer.systems.dirt.book.facts import clock, minutes
from designer.systems.dirt.book.flow import measured, open_section, room_below
from designer.systems.dirt.driving.bends import line_sides

LANE_WORDS = {1: ["road"], 2: ["left lane", "right lane"], 3: ["left lane", "middle lane", "right lane"]}
ORDINAL = {1: "first", 2: "second"}


def lane_word(lane: int, lanes: int) -> str:
    """The name of a lane counted from the driver's left on a road of ``lanes`` lanes: "left lane", "road"..."""
    words = LANE_WORDS.get(lanes)
    if words and 0 <= lane < len(words):
        return words[lane]
    return f"lane {lane + 1} from the left"


def cell_words(track, node: str, sides: dict[str, str] | None = None) -> str:
    """Where a cell is, in words a player finds on the tile (driving direction: left is the driver's left).

    ``sides``: :func:`line_sides` of the track when the caller has it (worked out here otherwise).
    """
    g = track.graph
    d = g.nodes.get(node)
    if not d:
        return node
    index = d["index"]
    tile = next((t for t in track.tiles if t.index == index), None)
    lanes = max(tile.driven.lanes, 1) if tile else 2
    head = f"tile {index + 1} · {d['tile']}: "
    same = [(n, e) for n, e in g.nodes(data=True) if e["index"] == index]
    if d.get("slide"):
        halves = sorted((e["a"], n) for n, e in same if e.get("slide") and abs(e["a"] - d["a"]) < 0.5
                        and (e["a"] <= d["a"] < e["b"] + 0.01 or d["a"] <= e["a"] < d["b"] + 0.01))
        first = not halves or halves[0][1] == node
        where = "coming in" if d["a"] < 0.5 else "going out"
        return head + f"{'first' if first else 'second'} half of the dashed slide row {where}"
    if d.get("cut") is not None:
        side = "left" if d["lane"] < 0 else "right"
        return head + f"the cut on the {side} (C{d['cut']})"
    if d.get("width", 1) > 1:
        where = "space across the road"
        row = sorted(e["a"] for _, e in same if e.get("width", 1) > 1 and not e.get("slide"))
    else:
        where = lane_word(d["lane"], lanes)
        row = sorted(e["a"] for _, e in same if e["lane"] == d["lane"] and not e.get("slide")
                     and e.get("cut") is None and e.get("width", 1) == 1)
    k = min(range(len(row)), key=lambda i: abs(row[i] - d["a"])) + 1 if row else 1
    text = head + f"{where}, space {k} of {max(len(row), 1)}"
    if d.get("limit") is not None:
        text += f", limit {d['limit']}"
    side = (line_sides(track) if sides is None else sides).get(node)
    if side:
        text += f" ({side} line)"
    if d.get("finish"):
        text += ", just past the finish line"
    return text


def _percent(p: float | None) -> str:
    return "–" if p is None else f"{100 * p:.0f} %"


def times_block(pdf: Book, f) -> None:
    """Expected time (headline) and ideal time beside it, the risk and the assumed values."""
    line = f.fastest
    exp = line.expected
    pdf.font(8, False, GREY)
    if exp is not None:
        spread = f" ± {clock(exp.spread)}" if exp.spread else ""
        pdf.font(16, True)
        head = f"Expected {clock(exp.seconds)}{spread}"
        pdf.cell(pdf.get_string_width(head) + 6, 8, head)
        pdf.font(11, True, GREY)
        pdf.cell(0, 8, f"ideal {clock(line.game_seconds)}", new_x="LMARGIN", new_y="NEXT")
        failure = {"achievable": "a failed Big Attack's dice are laid again where they can lose control at least "
                                 "cost, the loss on the hazard that reaches the limit",
                   "as_laid": "a failed Big Attack's loss of control lies where its dice first reach the limit",
                   "latest": "a failed Big Attack's loss of control may be laid at any later point of its plan"}
        reading = failure.get(exp.big_attack_failure or "", "")
        damage = "" if exp.max_damage is None else \
            (f"; the first {exp.max_damage} damage tokens a car draws take their dice away, later ones are not counted"
             if exp.max_damage > 1 else "; the first damage token a car draws takes its die away, later ones are "
             "not counted" if exp.max_damage == 1 else "; damage tokens are not counted")
        pdf.para("Expected: the average a driver posts playing the best way under the dice (hazards, losses of "
                 "control, seconds tokens kept to the finish taken off)" + (f"; {reading}" if reading else "")
                 + damage + ". ±: one standard deviation of that time from game to game (about two games in three end "
                 "within it). Ideal: the fastest line with no hazard rolled and no seconds tokens; tokens can take "
                 "a short stage's expected time below it.", 7.2, GREY, 3.2)
    else:
        pdf.font(16, True)
        pdf.cell(70, 8, f"Ideal {clock(line.game_seconds)}")
        pdf.font(9, False, GREY)
        pdf.cell(0, 8, "the expected time under the dice was not computed for this book",
                 new_x="LMARGIN", new_y="NEXT")
        pdf.para("Ideal: the fastest line with no hazard rolled and no seconds tokens; real stage times are longer.",
                 7.2, GREY, 3.2)
    rows = []
    turns = f"{len(line.turns)} turns" if line.turns else ""
    if exp is not None and exp.turns:
        turns += f" on the ideal line, about {exp.turns:.1f} expected"
    if turns:
        rows.append(("Turns", turns))
    risk = []
    if line.loss_chance is not None:
        risk.append(f"{_percent(line.loss_chance)} chance of at least one loss of control on the ideal line")
    worst = max((t.risk for t in line.turns if t.risk is not None), default=None)
    if worst is not None:
        risk.append(f"worst turn {_percent(worst)}")
    if exp is not None and exp.loss_chance is not None:
        risk.append(f"{_percent(exp.loss_chance)} playing the expected way")
    if risk:
        rows.append(("Risk", "; ".join(risk)))
    assumed = sorted(set(line.assumed) | set(exp.assumed if exp else []))
    if assumed:
        rows.append(("Assumed", ", ".join(assumed) + " (not printed in the rulebook: the ruleset's assumed values)"))
    if f.table_minutes:
        rows.append(("Table time", f"≈ {minutes(f.table_minutes)} for {f.players} players ({f.table_basis})"))
    pdf.keyvalues(rows, key_w=22, size=8, line=3.8)
    pdf.set_text_color(*INK)


MIN_MAP = 90.0          # mm: the line's map is never drawn smaller than this to share a page
SHRINK = 0.5            # nor smaller than this share of the height it has alone on a page,
LEAST_MAP = 60.0        # unless it keeps LINE_SCALE at a smaller height, and is at least this tall
LINE_SCALE = 1.1 * LEGIBLE_SCALE    # the scale at which the first page's map prints its limits, and a tenth more:
                                    # at the legible scale itself a FINISH word touched a tile id (Rally 5, Letter)


def line_page(pdf: Book, f, new_page: bool = True, alone: bool = True) -> float:
    """The line and times of a stage: on a page of their own, or (``new_page=False``) from where the book is,
    the map taking the height the times and the turn table leave; ``alone``: nothing else is on the page
    (a long turn table may then run onto the next one). Returns the map's height (mm, 0: none)."""
    if new_page:
        pdf.add_page()
    pdf.heading(f"Line and times · {f.stage.name}")
    line = f.fastest
    if line is None:
        pdf.font(10, True)
        pdf.cell(0, 6, "The fastest line is not available.", new_x="LMARGIN", new_y="NEXT")
        pdf.para(f"Reason: {f.fastest_missing or 'unknown'}. The rest of the road book does not depend on it.", 9)
        return 0.0
    times_block(pdf, f)
    pdf.ln(1.5)
    turn_rows = len(line.turns)
    # Below the map: its legend (2 lines), the table (header and rows), its legend (2 lines) and a warning.
    table_h = 28 + 4.5 * turn_rows
    top = pdf.get_y()
    box_h = pdf.bottom - top - table_h
    if box_h < 90 and alone:
        box_h = min(pdf.bottom - top - 4, 170)
    ends = [t.cells[-1] for t in line.turns if t.cells]
    svg, _ = map_svg(f.track, pdf.epw, box_h, line=line.cell_gears, turn_ends=ends)
    _, dh = pdf.svg(svg, pdf.l_margin, top, pdf.epw, box_h, max_scale=0.25)
    pdf.set_y(top + dh + 1)
    pdf.para("The line with the gear of each cell (white discs, ringed in the gear's colour); T1, T2, ...: where "
             "each turn ends (black ring). Speed limits are on the first page's map and in the pace notes.",
             6.8, GREY, 3.0)
    if not line.turns:
        return dh
    pdf.ln(1)
    cols = [Column("Turn", 11, bold=True), Column("Ends at", 0), Column("Dice, in order", 46),
            Column("Gear", 10, "C", bold=True), Column("Card", 11, "R"), Column("Risk", 12, "R")]
    rows = []
    sides = line_sides(f.track)
    for k, t in enumerate(line.turns, start=1):
        end = cell_words(f.track, t.cells[-1], sides) if t.cells else "–"
        rows.append([f"T{k}", end, t.dice or "–", "–" if t.gear is None else str(t.gear),
                     "–" if t.seconds is None else f"{t.seconds:g} s", _percent(t.risk)])
    pdf.table(cols, rows, size=7.4)
    pdf.ln(1)
    pdf.para("Dice: gear dice by their number, G gas, B brake (with the gear die it goes with), L leader; one group "
             "per cell moved. Card: the seconds of the gear the turn ends in. Risk: chance of a loss of control "
             "in the turn rolling its dice one by one.", 6.8, GREY, 3.0)
    if line.loss_chance is not None and line.loss_chance > 0.5:
        pdf.para("The ideal line is a target, not a plan: most drivers who try it lose control somewhere.",
                 7, ALERT, 3.2)
    return dh


def smallest_map(pdf: Book, f, natural: float | None = None) -> float:
    """The least height (mm) the line's map may take to share a page (``natural``: its height alone on a page):
    :data:`MIN_MAP` and :data:`SHRINK` of ``natural``, or less where the map keeps :data:`LINE_SCALE` there."""
    usual = max(MIN_MAP, SHRINK * natural) if natural else MIN_MAP
    if not f.track.tiles:
        return usual
    return min(usual, max(LEAST_MAP, map_height(f.track, pdf.epw, LINE_SCALE)))


def line_section(pdf: Book, f) -> None:
    """The line and times below the section before them when they fit with the map at least
    :func:`smallest_map` tall; else on a new page."""
    alone = None
    turns = len(f.fastest.turns) if f.fastest else 0
    least = smallest_map(pdf, f)
    if room_below(pdf) >= least + 28 + 4.5 * turns + 30:         # else it cannot fit: no need to measure it
        alone, natural = measured(pdf, f, "line", lambda b: line_page(b, f))
        if alone is not None:
            natural = natural or 0.0
            alone -= natural - min(natural, smallest_map(pdf, f, natural))
    shared = open_section(pdf, alone)
    line_page(pdf, f, new_page=False, alone=not shared)


__all__ = ["line_page", "line_section", "smallest_map", "MIN_MAP", "SHRINK", "LEAST_MAP", "cell_words", "line_sides", "times_block"]
