"""The printable road book of a classic stage or rally: the course sheet (P.C. COURSE, ART.1) with the
stages, assistances and a time table to fill in, then per stage the route, how to lay the boards, the drawing
with the ideal line, the pace notes and the ideal line turn by turn.

The pages are laid out with the page kit (:mod:`designer.core.pdfkit`); the drawing is placed as vector
paths. Everything is dark on white or grey (readable in grayscale); the book's own text is never under 7 pt and
the drawing's labels never under the kit's 6 pt.
"""
from __future__ import annotations

from designer.core import pdfkit, pdfsvg
from designer.core.pdfkit import Column
from designer.core.words import plural
from designer.racing.course import format_time
from designer.systems.classic.files import notation
from designer.systems.classic.analysis import analyse, unanalysed
from designer.systems.classic.board.assembly import assemble
from designer.systems.classic.board.pacenotes import stage_notes
from designer.systems.classic.board.render import stage_svg
from designer.systems.classic.files.rules import tyre_name
from designer.systems.classic.files.stage import Rally

MIN_PT = 7


class Book(pdfkit.Book):
    """The kit's book with the classic floor: no text under :data:`MIN_PT`."""

    def __init__(self, paper: str, title: str = ""):
        super().__init__(paper, title, "Rallyman classic road book")

    def font(self, size: float, bold: bool = False, colour=pdfkit.INK) -> None:
        super().font(max(MIN_PT, size), bold, colour)

    def para(self, text: str, size: float = 9.5, colour=pdfkit.INK, h: float | None = None,
             bold: bool = False) -> None:
        super().para(text, max(MIN_PT, size), colour, h or max(MIN_PT, size) * 0.48, bold)

    def form(self, head: list[str], rows: list[list[str]], widths: list[float], size: float = 9,
             height: float = 6.5) -> None:
        """A ruled table (a width of 0 shares what the others leave); cells wrap, rows are ``height`` at least."""
        self.grid([Column(h, w) for h, w in zip(head, widths)], rows, size=size, min_h=height)


def _box(checked: bool) -> str:
    return "[X]" if checked else "[ ]"


def course_sheet(pdf: Book, rally: Rally, results: list[dict], demo: bool):
    pdf.add_page()
    pdf.title_block("P.C. COURSE", 20, rule=False)
    pdf.font(11)
    pdf.set_draw_color(*pdfkit.INK)
    pdf.set_line_width(0.2)
    pdf.cell(pdf.epw * 0.55, 8, pdf.clip(f"Rallye: {rally.name}", pdf.epw * 0.55), border=1)
    pdf.cell(0, 8, f"Date: {rally.date or '....................'}", border=1, new_x="LMARGIN", new_y="NEXT")
    drivers = rally.drivers or [""] * 4
    pdf.cell(0, 8, pdf.clip("Drivers: " + "   ".join(f"{i + 1}. {d or '..............'}"
                                                   for i, d in enumerate(drivers)), pdf.epw),
             border=1, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    rows = []
    for i, (st, res) in enumerate(zip(rally.stages, results), start=1):
        start, joins, finish = notation.sheet_parts(st.route)
        rows.append([f"ES{i}", start, " ".join(joins) or "→", finish, _box(st.assistance),
                     f"{st.penalty_seconds}\"" if st.penalty_seconds else ""])
    pdf.form(["", "START", "→  joins", "FINISH", "Assistance", "Penalty"], rows, [16, 24, 0, 24, 28, 22],
             size=11, height=9)
    pdf.ln(3)
    pdf.para("Joins: C3-J1 = leave zone C at road end 3, enter zone J at road end 1. * = the zone's snow side. "
             "Assistance ticked: repairs, spare wheel back and tyre choice after the stage (ART.14); without it, "
             "black dice lost stay lost and the tyres stay on. Penalty: the time-control penalty bid after the "
             "stage, in 5-second tokens (ART.22).", 8.5)
    pdf.ln(4)
    pdf.heading("Times", 13)
    names = [d or f"Driver {i + 1}" for i, d in enumerate(drivers)]
    rows = [[label] + [""] * len(names) for label in ("ES1", "ES2", "ES1-ES2", "ES3", "ES1-ES2-ES3")]
    pdf.form(["Stage"] + names, rows, [40] + [0] * len(names), size=10, height=10)
    pdf.ln(4)
    pdf.heading("The stages at a glance (analysis)", 13)
    rows, total_cells = [], 0
    for i, (st, res) in enumerate(zip(rally.stages, results), start=1):
        cells = res.get("length_cells") or 0
        total_cells += cells
        rows.append([f"ES{i}", st.name, f"{cells}", (res.get("ideal_line") or {}).get("time", "-"),
                     (res.get("expected") or {}).get("time", "-"), f"{st.tyres}, {st.weather}"])
    rows.append(["Rally", "", str(total_cells), "", "", ""])
    pdf.form(["", "Stage", "Cells", "Ideal", "Expected", "Tyres, weather"], rows, [16, 0, 16, 18, 22, 40], size=9)
    pdf.ln(2)
    pdf.para("Ideal: a shakedown with no hazard rolled (ART.17). Expected: the average time of the best policy "
             "under the dice, with a loss of control costing 1'00\" and a restart in gear 1 (taken on purpose where "
             "that pays: a corner or a bump too fast, ART.7.1).", 8)
    if demo:
        pdf.ln(1)
        pdf.para("These stages use the DEMONSTRATION zones X and Y of this product, not the official boards.", 8.5)


def stage_pages(pdf: Book, index: int, stage, box, res: dict):
    pdf.add_page()
    pdf.title_block(f"ES{index}  {stage.name}", 16, rule=False)
    pdf.para(f"Route (course sheet): {notation.sheet(stage.route)}  ·  share: {notation.share(stage.route)}", 10)
    pdf.para(f"Tyres: {stage.tyres}  ·  weather: {stage.weather}  ·  assistance after: "
             f"{'yes' if stage.assistance else 'no'}", 10)
    pdf.ln(2)
    course = assemble(stage.route, box)
    if not course.ok:
        pdf.heading("This stage cannot be built", 12)
        for p in course.problems:
            pdf.para(f"{p.where}: {p.message}" + (f" ({p.hint})" if p.hint else ""), 9.5)
        return
    pdf.heading("Building the stage", 12)
    for i, line in enumerate(res.get("build", []), start=1):
        pdf.para(f"{i}. {line}", 9.5)
    if stage.weather == "variable":
        snow = ", ".join(f"zone {s['zone']}: die {s['die']}, {s['fraction']}" for s in res.get("snow_chances", []))
        pdf.para(f"Variable weather (ART.15.2): chance a zone turns to snow - {snow}.", 9)
        table = res.get("weather_table")
        if table:
            pdf.ln(1)
            rows = [[r["weather"], r["fraction"]] + [format_time(r["expected"][t]) for t in table["tyres"]]
                    + [tyre_name(r["best_tyres"])] for r in table["rows"]]
            n = len(table["tyres"])
            pdf.form(["Weather", "Chance"] + [f"{tyre_name(t)} tyres" for t in table["tyres"]] + ["Best"], rows,
                     [52, 18] + [0] * n + [26], size=8.5, height=6)
            kept = f"keeping {table['stage_tyres']} tyres: {format_time(table['expected_with_stage_tyres'])}"
            pdf.para((f"Expected with the best tyres after the roll: {format_time(table['expected_choosing_tyres'])}; "
                      f"{kept}. " if n > 1 else
                      f"Expected over the roll on the {tyre_name(table['stage_tyres'])} tyres kept (no assistance "
                      f"before the stage: no change of tyres, ART.15.3): "
                      f"{format_time(table['expected_with_stage_tyres'])}. ") + f"{table['note']}.", 7.5)
    pdf.ln(2)
    svg = stage_svg(course, title="", line=res.get("ideal_line"))
    turns = len((res.get("ideal_line") or {}).get("turns", []))
    room = pdf.bottom - pdf.get_y() - (44 + 4.6 * turns + 5 * len(stage.route))   # keep the notes and the line
    top = min(110, max(60, room))
    _, _, height = pdfsvg.fit(svg, pdf.epw, top)
    if not pdf.room(height):
        pdf.add_page()
    _, height = pdf.drawing(svg, pdf.l_margin, pdf.get_y(), pdf.epw, top)
    pdf.set_y(pdf.get_y() + height + 2)
    pdf.para("Drawing: grey cells the road driven, dashed cells drift lanes with their gear, brown K cells cuts, "
             "(n) an inside note, ^n a bump, ~ a ford, + a crossroads, F/R forest/rocks beside the cell; "
             "the black line the ideal line, circles the gear at the end of each turn.", 7.5)
    pdf.ln(2)
    pdf.heading("Pace notes", 12)
    for label, notes in stage_notes(course):
        pdf.para(f"{label}:  {notes}", 10)
    pdf.para("Straights in cells; corner inside/drift/K (ART.9); ^ bump, ~ ford, // half-cells, + crossroads.", 7.5)
    pdf.ln(2)
    ideal = res.get("ideal_line")
    if ideal:
        pdf.need(24)                  # the heading, the table's header and two turns stay together
        pdf.heading(f"Ideal line: {ideal['time']} in {plural(ideal['turn_count'], 'turn')}; expected "
                    f"{(res.get('expected') or {}).get('time', '-')}", 12)
        rows = []
        for k, t in enumerate(ideal["turns"], start=1):
            dice = " ".join("G" if d == "gas" else d[4:] for d in t["dice"])
            cells = " ".join(c.split(":", 1)[-1] if c != "finish" else "FIN" for c in t["cells"])
            rows.append([str(k), dice, cells, str(t["gear"]), f"{t['card']}\""])
        pdf.form(["Turn", "Dice (G = gas)", "Cells", "Gear", "Card"], rows, [14, 44, 0, 14, 20], size=8.5)
        for line in res.get("summary", []):
            if line.startswith("the ideal line"):
                pdf.para(line[0].upper() + line[1:] + ".", 8)


def _analysis_or_problems(stage, box, players):
    """The analysis, or for a stage whose boards do not join, its route and problems (the book still prints)."""
    course = assemble(stage.route, box)
    if not course.ok:
        return unanalysed(stage, box, course.problems, players=players)
    return analyse(stage, box, players=players)


def roadbook(doc, box_of, paper: str = "A4", players: int | None = None, results: list[dict] | None = None) -> bytes:
    """The PDF; ``results`` may give the stages' analyses already made (the app's), in stage order."""
    rally = doc if isinstance(doc, Rally) else Rally(name=doc.name, stages=[doc])
    pdf = Book(paper, rally.name)
    pdf.running = f"{rally.name} - road book"
    boxes = [box_of(st) for st in rally.stages]
    if results is None or len(results) != len(rally.stages):
        results = [_analysis_or_problems(st, b, players) for st, b in zip(rally.stages, boxes)]
    course_sheet(pdf, rally, results, any(b.demo for b in boxes))
    for i, (st, b, res) in enumerate(zip(rally.stages, boxes, results), start=1):
        stage_pages(pdf, i, st, b, res)
    return pdfkit.finish(pdf)
