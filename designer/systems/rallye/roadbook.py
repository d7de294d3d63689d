"""The printed road book of a Rallye stage or rally (fpdf2): per stage, the reconnaissance sheet a co-driver
would write (number, pace note, width and surface, safety and top speed, the planned speed, the distance to the
next hard section), the strip drawing with the speed profile, the cards on the table, and the solo targets.
"""
from __future__ import annotations

import io
from pathlib import Path

from fpdf import FPDF

from designer.core import paths
from designer.core.errors import DesignerError
from designer.core.svgkit import svg_to_png
from designer.systems.rallye.analyse import analyse
from designer.systems.rallye.deck import get_deck
from designer.systems.rallye.draw import map_svg, stage_svg
from designer.systems.rallye.stage import Rally, Stage

FONT = "DejaVu"
GREY = (225, 225, 225)
SEVERITY_GREY = {"none": (255, 255, 255), "yellow": (246, 226, 120), "orange": (240, 170, 90), "red": (150, 30, 30)}


class _Book(FPDF):
    def __init__(self, paper: str, title: str):
        super().__init__(orientation="P", unit="mm", format="Letter" if paper.lower() == "letter" else "A4")
        self.add_font(FONT, "", str(paths.FONTS / "DejaVuSans.ttf"))
        self.add_font(FONT, "B", str(paths.FONTS / "DejaVuSans-Bold.ttf"))
        self.set_auto_page_break(True, 12)
        self.set_margins(10, 10, 10)
        self.book_title = title
        self.set_title(title)
        self.set_creator("rally-designer")

    def footer(self):
        self.set_y(-9)
        self.set_font(FONT, "", 7)
        self.set_text_color(80)
        self.cell(0, 4, f"{self.book_title} · Rallye reconnaissance sheet · page {self.page_no()}", align="C")
        self.set_text_color(0)


def _image(pdf: _Book, svg: str, width: float, x: float | None = None) -> None:
    png = svg_to_png(svg, scale=2.0)
    pdf.image(io.BytesIO(png), x=x, w=width)


def _stage_page(pdf: _Book, result: dict, deck) -> None:
    pdf.add_page()
    pdf.set_font(FONT, "B", 16)
    pdf.cell(0, 8, result["stage"], new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, "", 8.5)
    notes = [f"Deck {deck.name}: {deck.title}. {len(result['cards'])} sections; "
             f"{result['players']} driver(s), about {result['table_time']['minutes']} min at the table."]
    if deck.demo:
        notes.append("DEMONSTRATION DATA: the card values are made up, not the game's cards.")
    if deck.tables_status != "rulebook":
        notes.append(f"Crossing tables: {deck.tables_status} (the card backs are not public); plans depend on them.")
    for n in notes:
        pdf.multi_cell(0, 4.2, n, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1)
    _image(pdf, stage_svg(result, parts=("strip", "profile"), header=False), pdf.epw)
    pdf.ln(2)
    _recon_table(pdf, result)
    pdf.ln(3)
    y = pdf.get_y()
    if y > pdf.h - 58:
        pdf.add_page()
        y = pdf.get_y()
    _targets(pdf, result, 10, y)
    cols, rows = result["layout"]["size"]
    w_px, h_px = max(16 + cols * 44, 290), 40 + rows * 44
    room = pdf.h - 14 - y
    pdf.set_xy(120, y)
    _image(pdf, map_svg(result), min(80.0, 0.36 * w_px, room * w_px / h_px), x=120)


COLS = [("#", 7, "section"), ("card", 11, "card"), ("call", 12, "note"), ("pace note", 37, "pace_note"),
        ("width", 16, "width"), ("surface", 16, "surface"), ("safe", 12, "safety"), ("top", 12, "top"),
        ("cautious", 17, "cautious_speed"), ("planned", 17, "planned_speed"), ("next hard", 34, "next_hard")]


def _recon_table(pdf: _Book, result: dict) -> None:
    pdf.set_font(FONT, "B", 8.5)
    pdf.set_fill_color(*GREY)
    for head, w, _ in COLS:
        pdf.cell(w, 6, head, border=1, align="C", fill=True)
    pdf.ln()
    for row in result["recon"]:
        for head, w, key in COLS:
            value = row[key]
            bold = key in ("note", "planned_speed")
            fill = False
            if key == "note":
                pdf.set_fill_color(*SEVERITY_GREY[row["severity"]])
                pdf.set_text_color(255 if row["severity"] == "red" else 0)
                fill = True
            if key == "note" and row["severity"] == "none":
                value = "—"
            if key == "next_hard":
                value = f"in {value['in']} → {value['note']} (#{value['section']})" if value else "—"
            elif key in ("safety", "top", "cautious_speed", "planned_speed"):
                value = f"{value}"
            pdf.set_font(FONT, "B" if bold else "", 10 if key == "note" else 8.5)
            pdf.cell(w, 6.2, str(value), border=1, align="C" if key not in ("pace_note", "next_hard") else "L",
                     fill=fill)
            pdf.set_text_color(0)
        pdf.ln()
    pdf.set_font(FONT, "", 7)
    pdf.multi_cell(0, 3.6, "call: L/R and 1 light (yellow), 2 medium (orange), 3 tight (red). Speeds in km/h. "
                   "planned = the fastest plan (may go above the safety speed where the tables make it worth it); "
                   "cautious = never above it. next hard: sections to the next tight corner.",
                   new_x="LMARGIN", new_y="NEXT")


def _targets(pdf: _Book, result: dict, x: float, y: float) -> None:
    pdf.set_xy(x, y)
    pdf.set_font(FONT, "B", 11)
    pdf.cell(100, 6, "Solo challenge: targets", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, "", 9)
    plans = result["plans"]
    lines = [f"Cautious plan: {plans['cautious']['expected_seconds']:.1f} s",
             f"Fastest plan: {plans['fastest']['expected_seconds']:.1f} s expected with the best hand "
             f"({result['fastest_gain_seconds']:.1f} s better)",
             f"Every section at its safety speed: {result['bounds']['all_at_safety']} s",
             f"Every section at its top speed (unbeatable): {result['bounds']['all_at_top']} s"]
    sim = (result.get("simulation") or {}).get("fastest")
    if sim:
        lines.append(f"With real hands: {sim['mean_seconds']} s on average (1 in 10 runs under {sim['p10']} s); "
                     f"at least one spin in {100 * sim.get('spin_stage_chance', 0):.0f}% of runs")
    lines.append("Solo scoring: 13 - speed/20 s per section; spin +5 s, two stress cards.")
    for text in lines:
        pdf.set_x(x)
        pdf.multi_cell(105, 4.8, text, new_x="LMARGIN", new_y="NEXT")


def _rally_page(pdf: _Book, rally: Rally, results: list[dict]) -> None:
    pdf.add_page()
    pdf.set_font(FONT, "B", 18)
    pdf.cell(0, 10, rally.name, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, "", 9)
    pdf.cell(0, 5, f"{len(results)} stages; times add up over the rally (the rules' variant).",
             new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    heads = [("stage", 80), ("tight", 14), ("cautious s", 24), ("fastest s", 24), ("real hands s", 26), ("table min", 22)]
    pdf.set_font(FONT, "B", 9)
    pdf.set_fill_color(*GREY)
    for h, w in heads:
        pdf.cell(w, 6.5, h, border=1, align="C", fill=True)
    pdf.ln()
    pdf.set_font(FONT, "", 9)
    totals = [0.0, 0.0, 0.0, 0]
    for r in results:
        sim = (r.get("simulation") or {}).get("fastest") or {}
        vals = [r["stage"], str(r["difficulty"]["corners"]["red"]), f"{r['cautious_solo_seconds']:.1f}",
                f"{r['best_solo_seconds']:.1f}", f"{sim.get('mean_seconds', '-')}", str(r["table_time"]["minutes"])]
        totals[0] += r["cautious_solo_seconds"]
        totals[1] += r["best_solo_seconds"]
        totals[2] += sim.get("mean_seconds", 0)
        totals[3] += r["table_time"]["minutes"]
        for (h, w), v in zip(heads, vals):
            pdf.cell(w, 6.5, v, border=1, align="L" if h == "stage" else "C")
        pdf.ln()
    pdf.set_font(FONT, "B", 9)
    for (h, w), v in zip(heads, ["total", "", f"{totals[0]:.1f}", f"{totals[1]:.1f}", f"{totals[2]:.1f}", str(totals[3])]):
        pdf.cell(w, 6.5, v, border=1, align="L" if h == "stage" else "C")
    pdf.ln()


def roadbook(doc: Stage | Rally, *, near: Path | None = None, paper: str = "A4", players: int | None = None,
             runs: int = 300) -> bytes:
    """PDF bytes of the road book of a stage or a rally."""
    stages = doc.stages if isinstance(doc, Rally) else [doc]
    if not stages:
        raise DesignerError("nothing to print: the rally has no stages", where=getattr(doc, "source", None))
    pdf = _Book(paper, doc.name)
    results = []
    decks = []
    for stage in stages:
        deck = get_deck(stage.deck, stage.near or near)
        results.append(analyse(stage, deck, players=players, runs=runs))
        decks.append(deck)
    if isinstance(doc, Rally):
        _rally_page(pdf, doc, results)
    for result, deck in zip(results, decks):
        _stage_page(pdf, result, deck)
    return bytes(pdf.output())


def stage_pdf(stage: Stage, deck, *, paper: str = "A4", players: int | None = None, runs: int = 300) -> bytes:
    """PDF bytes of one stage's road book with a deck given as an object (e.g. one being edited)."""
    pdf = _Book(paper, stage.name)
    _stage_page(pdf, analyse(stage, deck, players=players, runs=runs), deck)
    return bytes(pdf.output())
