"""The printed road book of a Rallye stage or rally: per stage a drivers' sheet (fronts only: what the rules let
a driver see, for play) and an organiser's sheet (every back), each the reconnaissance sheet a co-driver would
write (number, pace note, width and surface, safety and top speed, the planned speed, the distance to the next
hard section), the strip drawing with the speed profile, the cards on the table, and the solo targets.

Laid out with the page kit (:mod:`designer.core.pdfkit`); the drawings are placed as vector paths.
"""
from __future__ import annotations

from pathlib import Path

from designer.core import pdfkit
from designer.core.errors import DesignerError
from designer.core.pdfkit import Column
from designer.core.words import plural
from designer.systems.rallye.analyse import analyse
from designer.systems.rallye.draw import map_svg, stage_svg
from designer.systems.rallye.model.deck import deck_of
from designer.systems.rallye.model.stage import Rally, Stage

# The call's cell takes its corner's colour: light, middle and dark grey once printed in black and white.
SEVERITY_GREY = {"none": (255, 255, 255), "yellow": (246, 226, 120), "orange": (240, 170, 90), "red": (150, 30, 30)}
MAP_W = 78.0                          # the cards on the table, beside the targets (mm)


class _Book(pdfkit.Book):
    """The kit's book with the Rallye's running title."""

    def __init__(self, paper: str, title: str):
        super().__init__(paper, title, "Rallye reconnaissance sheet")
        self.running = f"{title} · Rallye reconnaissance sheet"


def _drawing(pdf: _Book, svg: str, x: float, width: float, height: float | None = None, align: str = "C",
             max_scale: float | None = None) -> float:
    """Place a drawing at the cursor's height (in ``height``, or down to the bottom margin); returns the height
    used."""
    top = pdf.get_y()
    height = height if height is not None else pdf.bottom - top
    return pdf.drawing(svg, x, top, width, height, align=align, max_scale=max_scale)[1]


def fronts_only(result: dict) -> dict:
    """The analysis as the drivers may see it: no card numbers, safety and top speeds as the player aid's
    ranges, the plans chosen from the fronts, nothing a driver could only learn from a card's back."""
    rows = []
    for row in result["recon"]:
        aid = row.get("aid", "")
        ranges = dict(part.strip().split(" ", 1) for part in aid.split(",")) if aid.startswith("safety") else {}
        rows.append({**{k: v for k, v in row.items() if not k.startswith("full_")}, "card": "",
                     "safety": ranges.get("safety", "?"), "top": ranges.get("top", "?")})
    out = {k: v for k, v in result.items() if k not in ("full_information", "bounds", "limits")}
    out["recon"] = rows
    return out


def _stage_page(pdf: _Book, result: dict, deck, play: bool = False) -> None:
    """A stage's sheet: for ``play`` the drivers' one (fronts only), else the organiser's (every back)."""
    pdf.add_page()
    if play:
        result = fronts_only(result)
    pdf.title_block(result["stage"] + (" · drivers' sheet (fronts only)" if play else " · organiser's sheet"), 16,
                    rule=False)
    notes = [f"Deck {deck.name}: {deck.title}. {len(result['cards'])} sections; "
             f"{plural(result['players'], 'driver')}, about {result['table_time']['minutes']} min at the table "
             f"(counted from {result['table_time'].get('races', '-')} simulated races: "
             f"{result['table_time'].get('cards_laid_per_round', '-')} cards laid a round)."]
    if play:
        notes.append("What a driver sees before turning a card over: its front and the player aid's ranges. "
                     "Speeds planned from those alone; the backs are on the organiser's sheet.")
    else:
        notes.append("Every card's back: keep this sheet away from the drivers. Plans as chosen from the fronts, "
                     "and as they would be if every back were known.")
    if deck.demo:
        notes.append("DEMONSTRATION DATA: the card values are made up, not the game's cards.")
    if deck.tables_status != "rulebook":
        notes.append(f"Crossing tables: {deck.tables_status} (the card backs are not public); plans depend on them.")
    for n in notes:
        pdf.para(n, 8.5, h=4.2)
    pdf.ln(1)
    strip = stage_svg(result, parts=("strip",) if play else ("strip", "profile"), header=False)
    pdf.set_y(pdf.get_y() + _drawing(pdf, strip, pdf.l_margin, pdf.epw) + 2)
    _recon_table(pdf, result, PLAY_COLS if play else COLS)
    pdf.ln(3)
    pdf.need(46)
    y = pdf.get_y()
    _targets(pdf, result, pdf.l_margin, y, play)
    below = pdf.get_y()
    pdf.set_y(y)
    used = _drawing(pdf, map_svg(result), pdf.w - pdf.r_margin - MAP_W, MAP_W, pdf.bottom - y, max_scale=0.36)
    pdf.set_y(max(below, y + used))


COLS = [("#", 7, "section"), ("card", 10, "card"), ("call", 11, "note"), ("pace note", 0, "pace_note"),
        ("width", 14, "width"), ("surface", 14, "surface"), ("safe", 10, "safety"), ("top", 10, "top"),
        ("cautious", 15, "cautious_speed"), ("planned", 15, "planned_speed"),
        ("if known: caut.", 15, "full_cautious_speed"), ("planned", 15, "full_planned_speed"),
        ("next hard", 26, "next_hard")]
PLAY_COLS = [("#", 7, "section"), ("call", 12, "note"), ("pace note", 0, "pace_note"), ("width", 15, "width"),
             ("surface", 15, "surface"), ("safe (aid)", 19, "safety"), ("top (aid)", 19, "top"),
             ("cautious", 17, "cautious_speed"), ("planned", 17, "planned_speed"), ("next hard", 28, "next_hard")]


def _recon_table(pdf: _Book, result: dict, cols=COLS) -> None:
    columns = [Column(head, w, "L" if key in ("pace_note", "next_hard") else "C",
                      bold=key in ("note", "planned_speed")) for head, w, key in cols]
    rows = []
    for row in result["recon"]:
        cells = []
        for _, _, key in cols:
            value = row[key]
            if key == "note":
                value = ("—" if row["severity"] == "none" else value,
                         {"fill": SEVERITY_GREY[row["severity"]], "size": 10,
                          "colour": (255, 255, 255) if row["severity"] == "red" else pdfkit.INK})
            elif key == "next_hard":
                value = f"in {value['in']} → {value['note']} (#{value['section']})" if value else "—"
            else:
                value = str(value)
            cells.append(value)
        rows.append(cells)
    pdf.grid(columns, rows, size=8.5, min_h=6.2)
    pdf.para("call: L/R and 1 light (yellow), 2 medium (orange), 3 tight (red). Speeds in km/h, chosen from the "
             "fronts: planned = the fastest plan (may go above the safety speed where it pays on average); "
             "cautious = never above the lowest safety speed the front allows"
             + ("" if cols is PLAY_COLS else "; if known = the same plans for a driver who knew every back")
             + ". next hard: sections to the next tight corner."
             + (" On the cards above: the aid's safe speeds (bold) over its top speeds." if cols is PLAY_COLS else ""),
             7, h=3.6)


def _targets(pdf: _Book, result: dict, x: float, y: float, play: bool = False) -> None:
    pdf.set_xy(x, y)
    pdf.font(11, True)
    pdf.cell(100, 6, "Solo challenge: targets", new_x="LMARGIN", new_y="NEXT")
    pdf.font(9)
    plans = result["plans"]
    # The drivers' sheet gives what a driver expects from the fronts (the player aid's ranges behind each front);
    # the organiser's sheet what the plans post on the real backs.
    key = "believed_seconds" if play else "expected_seconds"
    cautious, fastest = plans["cautious"][key], plans["fastest"][key]
    lines = [f"Cautious plan: {cautious:.1f} s" + (" expected from the fronts" if play else ""),
             f"Fastest plan: {fastest:.1f} s expected " + ("from the fronts" if play else "with the best hand")
             + f" ({cautious - fastest:.1f} s better)"]
    if not play:
        full = result["full_information"]
        lines += [f"If every back were known: cautious {full['cautious_solo_seconds']:.1f} s, "
                  f"fastest {full['best_solo_seconds']:.1f} s",
                  f"Every section at its safety speed: {result['bounds']['all_at_safety']} s",
                  f"Every section at its top speed (unbeatable): {result['bounds']['all_at_top']} s"]
    sim = (result.get("simulation") or {}).get("fastest")
    if sim and not play:            # run on the real backs: the organiser's figure
        lines.append(f"With real hands: {sim['mean_seconds']} s on average (1 in 10 runs under {sim['p10']} s); "
                     f"at least one spin in {100 * sim.get('spin_stage_chance', 0):.0f}% of runs")
    lines.append("Solo scoring: 13 - speed/20 s per section; spin +5 s, two stress cards.")
    width = pdf.w - pdf.r_margin - MAP_W - 4 - x
    for text in lines:
        pdf.text_block(text, width, 4.8, x=x)


def rally_totals(results: list[dict]) -> list:
    """The rally's sums over its stages' analyses: cautious and fastest solo seconds (the plans scored on the
    real backs), the mean with real hands, the table minutes (« le nombre de secondes cumulées le plus faible après
    toutes les spéciales »)."""
    totals = [0.0, 0.0, 0.0, 0]
    for r in results:
        sim = (r.get("simulation") or {}).get("fastest") or {}
        totals[0] += r["cautious_solo_seconds"]
        totals[1] += r["best_solo_seconds"]
        totals[2] += sim.get("mean_seconds", 0)
        totals[3] += r["table_time"]["minutes"]
    return totals


def _rally_page(pdf: _Book, rally: Rally, results: list[dict]) -> None:
    pdf.add_page()
    pdf.title_block(rally.name, 18, rule=False)
    pdf.para(f"{len(results)} stages; times add up over the rally (the rules' variant). Cautious and fastest: the "
             "plans chosen from the fronts, scored on the real backs (each drivers' sheet gives what the fronts "
             "promise, which may differ); real hands: the simulated driver's mean.", 9, h=5)
    pdf.ln(2)
    heads = [("stage", 0), ("tight", 14), ("cautious s", 24), ("fastest s", 24), ("real hands s", 26),
             ("table min", 22)]
    columns = [Column(h, w, "L" if h == "stage" else "C") for h, w in heads]
    rows = []
    for r in results:
        sim = (r.get("simulation") or {}).get("fastest") or {}
        rows.append([r["stage"], str(r["difficulty"]["corners"]["red"]), f"{r['cautious_solo_seconds']:.1f}",
                     f"{r['best_solo_seconds']:.1f}", f"{sim.get('mean_seconds', '-')}", str(r["table_time"]["minutes"])])
    totals = rally_totals(results)
    rows.append([(v, {"bold": True}) for v in
                 ["total", "", f"{totals[0]:.1f}", f"{totals[1]:.1f}", f"{totals[2]:.1f}", str(totals[3])]])
    pdf.grid(columns, rows, size=9, min_h=6.5)


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
        deck = deck_of(stage, near)
        known = frozenset(stage.seen) if deck.ruleset.hidden_backs.get("remember_backs") else frozenset()
        results.append(analyse(stage, deck, players=players, runs=runs, known=known))
        decks.append(deck)
    if isinstance(doc, Rally):
        _rally_page(pdf, doc, results)
    for result, deck in zip(results, decks):
        _stage_page(pdf, result, deck, play=True)
    for result, deck in zip(results, decks):
        _stage_page(pdf, result, deck)
    return pdfkit.finish(pdf)


def stage_pdf(stage: Stage, deck, *, paper: str = "A4", players: int | None = None, runs: int = 300) -> bytes:
    """PDF bytes of one stage's road book with a deck given as an object (e.g. one being edited)."""
    pdf = _Book(paper, stage.name)
    result = analyse(stage, deck, players=players, runs=runs)
    _stage_page(pdf, result, deck, play=True)
    _stage_page(pdf, result, deck)
    return pdfkit.finish(pdf)
