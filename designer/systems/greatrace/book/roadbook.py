"""The road book of a Great Race race (PDF): the map with the routes, the itinerary leg by leg (spaces, risk
spaces, expected and worst costs, where to refuel and repair, the transport alternative, the bands crossed),
then the trade-off, both directions and the Monte Carlo. Laid out with the page kit
(:mod:`designer.core.pdfkit`), the map as vector paths; no text under the kit's 6 pt (the paragraphs and
table cells 7 pt and more); grayscale-safe."""
from __future__ import annotations

from designer.core import pdfkit
from designer.core.pdfkit import Column
from designer.core.words import plural
from designer.systems.greatrace.driving.analysis import price_words
from designer.systems.greatrace.files.board import Board
from designer.systems.greatrace.files.race import Race


class _Book(pdfkit.Book):
    """The kit's book with the race's running title in the footer."""

    def __init__(self, paper: str, title: str, footer_text: str):
        super().__init__(paper, title, "The Great Race road book")
        self.running = footer_text

    def heading(self, text: str, size: float = 13) -> None:
        self.title_block(text, size)

    def para(self, text: str, size: float = 9, colour=pdfkit.INK, h: float | None = None,
             bold: bool = False) -> None:
        super().para(text, size, colour, h or size * 0.45, bold)
        self.ln(0.8)

    def grid(self, header: list[str], rows: list[list], widths: list[float], size: float = 8) -> None:
        """A ruled table whose cells wrap (a width of 0 shares what the others leave)."""
        super().grid([Column(str(h), w) for h, w in zip(header, widths)], [[str(v) for v in r] for r in rows],
                     size=size, line_h=size * 0.45)
        self.ln(2)


def _leg_rows(plan: dict) -> list[list]:
    rows = []
    for i, leg in enumerate(plan["legs"], 1):
        buy = []
        if leg["fuel_bought_city"]:
            buy.append(f"{leg['fuel_bought_city']} fuel in {leg['start']}")
        if leg["fuel_bought_on_way"]:
            buy.append(f"{leg['fuel_bought_on_way']} fuel on the way")
        if leg["repair_city"]:
            buy.append(f"repair {leg['repair_city']} in {leg['start']}")
        if leg["repair_on_way"]:
            buy.append(f"repair {leg['repair_on_way']} on the way (engine limit)")
        alt = [f"{a['mode']} to {a['to']}: {a['fare']} F" + (f" ({a['fare_with_cards']} F with cards)"
                                                             if a["fare_with_cards"] != a["fare"] else "")
               for a in leg["alternatives"] if not (leg["via"] != "land" and a["same_end"])]
        symbols = []
        if leg["stops"]:
            symbols.append(f"{leg['stops']} STOP")
        if leg["stop_chance"] > 0.005:
            symbols.append(f"STOP chance {100 * leg['stop_chance']:.0f}%")
        via = leg["via"] if leg["via"] == "land" else f"{leg['via']}, fare {leg['fare']} F"
        rows.append([i, f"{leg['start']} → {leg['end']}\n{via}", f"{plural(leg['spaces'], 'space')} ({leg['risk_spaces']} risk)\n"
                     + " ".join(leg["hexes"]),
                     f"{leg['fuel']:.1f} / {leg['worst_fuel']}", f"{leg['mech']:.1f} / {leg['worst_mech']}",
                     "\n".join(buy) or "-", "\n".join(alt) or "-", " ".join(leg["bands"]) or "-",
                     f"{leg['francs']} F" + ("\n" + ", ".join(symbols) if symbols else "")])
    return rows



def _same_way(a: dict, b: dict) -> bool:
    """Two routes of the result driven alike: one path, with the same actions, price, damage and cards (the cheapest
    way may follow the fastest's path with fewer francs and more actions)."""
    keys = ("path", "actions", "francs", "fuel_burnt", "mech_lost", "repairs", "start_cards", "legs")
    return all(a.get(k) == b.get(k) for k in keys)

def roadbook(race: Race, board: Board, result: dict, drawing: str, paper: str = "A4") -> bytes:
    """The race's road book; ``drawing`` is the map with the routes (SVG), as the system draws it."""
    assumed = result.get("assumed_parameters", [])
    pdf = _Book(paper, race.name, f"{race.name} · The Great Race road book · rally-designer")
    pdf.add_page()
    pdf.heading(race.name, 15)
    dash = ", ".join(f"{g} {getattr(race, g) if getattr(race, g) is not None else board.rules.gauge_max(g)}"
                     for g in ("fuel", "engine", "chassis"))
    cards = ", ".join(f"{k} {v}" for k, v in race.cards.items() if v) or "none"
    pdf.para(f"Board: {board.title}. {race.start} → {race.finish}"
             + (f", median city {race.median}" if race.median else "")
             + f". {plural(result['players'], 'player')}. Dashboard: {dash}. "
               f"Purse: {result.get('purse', race.money)} F. Cards: {cards}.")
    if not result.get("reachable"):
        pdf.para("No route joins the start and the finish on this board.", bold=True)
        return pdfkit.finish(pdf)
    top = pdf.get_y()
    _, height = pdf.drawing(drawing, pdf.l_margin, top, pdf.epw, pdf.bottom - top)
    pdf.set_y(top + height + 2)
    rows = []
    for name in ("fastest", "cheapest", "shortest"):
        p = result[name]
        rows.append([name, p["spaces"], p["risk_spaces"], f"{p['actions']} ({p['expected_actions']})",
                     f"{p['fuel']:.1f} / {p['worst_fuel']}", f"{p['mech']:.1f} / {p['worst_mech']}",
                     f"{p['francs']} F", " - ".join(p["path"])])
    pdf.grid(["route", "spaces", "risk", "actions (expected)", "fuel exp / worst", "mech exp / worst",
              "price", "path"], rows, [16, 12, 10, 20, 18, 18, 14, 0])
    pdf.para("Price: what is paid during the race (fuel, repairs, fares). Actions: the assistants that move or "
             "mend the car (pilot, repair, escort). Mechanic levels not repaired at the finish cost prestige, "
             "not francs.", 7.5)
    if assumed:
        pdf.para("Contains assumed parameters (not printed in the rulebook): " + ", ".join(assumed)
                 + ". See the ruleset file for their sources.", 7.5)
    for name in ("fastest", "cheapest"):
        if name == "cheapest" and _same_way(result["cheapest"], result["fastest"]):
            continue
        p = result[name]
        pdf.add_page()
        pdf.heading(f"Itinerary: the {name} route ({plural(p['actions'], 'action')}, price {p['francs']} F)")
        pdf.para(f"Engine limit {plural(p['engine_limit'], 'space')} per pilot action. Costs are expected / worst; an "
                 "open space costs the bag's expectation. Fuel is bought at 10 F in cities, 20 F elsewhere; repairs "
                 "at 20 F / 40 F." + (f" Without repairs: {plural(p['actions_without_repairs'], 'pilot action')}."
                                       if p["actions_without_repairs"] is not None else
                                       " Without repairs the car would break down on the way."), 8)
        pdf.para(f"Price {price_words(p)}.", 8.5)
        pdf.grid(["#", "leg", "spaces", "fuel", "mech", "refuel / repair", "transport alternative", "bands",
                  "paid"], _leg_rows(p), [6, 32, 34, 13, 13, 0, 28, 12, 18], size=7.5)
        if p["shortfall"]:
            pdf.para(f"Money: the {p['spent']} F paid during the race are {p['shortfall']} F more than the purse: "
                     f"{plural(p['funding_actions'], 'funding action')} of {plural(p['funding_assistants'], 'assistant')} "
                     "in all (the funding space pays 10/20/40/70/110 F for 1-5 assistants).", 8.5, bold=True)
        if p["owed_mech"]:
            pdf.para(f"At the finish {plural(p['owed_mech'], 'mechanic level')} "
                     f"{'is' if p['owed_mech'] == 1 else 'are'} still owed (1 prestige point each).", 8.5)
    pdf.add_page()
    pdf.heading("Trade-off, both directions, Monte Carlo")
    slack = result.get("pareto_slack")
    reach = ("every such way" if slack is None and result.get("search_complete", True)
             else f"every such way within {plural(slack, 'action')} of the fastest" if slack is not None
             else "among the candidate routes: the board is too large for the whole search")
    pdf.para(f"Trade-off: no other way is better on actions, price, fuel and mechanic at once ({reach}). Rounds "
             "add the funding actions the purse needs.", 8)
    pdf.grid(["actions", "price", "fuel", "mech", "rounds", "spaces", "path"],
             [[p["actions"], f"{p['francs']} F", p.get("fuel", ""), p.get("mech", ""), p["rounds"], p["spaces"],
               " - ".join(p["path"])] for p in result["pareto"]], [14, 16, 10, 10, 12, 12, 0])
    rows = []
    for key, d in result["directions"].items():
        if d and d.get("reachable"):
            rows.append([f"{d['start']} → {d['finish']}", d["shortest_spaces"], d["fastest_actions"],
                         f"{d['fastest_francs']} F", f"{d['cheapest_francs']} F ({plural(d['cheapest_actions'], 'action')})",
                         d["expected_fuel"], d["risk_spaces"]])
        else:
            rows.append([f"{d['start']} → {d['finish']}", "no route", "", "", "", "", ""])
    pdf.grid(["direction", "shortest spaces", "fastest actions", "fastest price", "cheapest price", "fuel (fastest)",
              "risk spaces"], rows, [0, 20, 20, 22, 36, 20, 20])
    rows = []
    for name, mc in result["montecarlo"].items():
        def fmt(k):
            v = mc.get(k)
            return f"{v['mean']} ({v['p10']}-{v['p90']}, max {v['max']})" if v else "-"
        rows.append([name, mc["runs"], fmt("fuel"), fmt("mech"), fmt("actions"), fmt("rounds"), fmt("francs"),
                     f"{100 * mc['stranded_chance']:.0f}%"
                     + (f"\nunfinished {100 * mc['failed_chance']:.0f}%" if mc["failed_chance"] else "")])
    pdf.grid(["route", "runs", "fuel mean (p10-p90)", "mechanic", "actions", "rounds", "paid during race (draws)",
              "stranded"], rows, [15, 10, 27, 27, 25, 25, 0, 25], size=7)
    d = result["duration"]
    pdf.para(f"Length and duration (fastest route): {plural(d['spaces'], 'space')}, {plural(d['pilot_actions'], 'pilot action')} "
             f"({d['expected_pilot_actions']} expected). Driving blind: {d['blind']['assistants']} assistants, about "
             f"{plural(d['blind']['rounds'], 'round')}, ~{d['blind']['table_minutes']} min at the table for "
             f"{plural(result['players'], 'player')}. With the route scouted first: "
             f"{plural(d['scouting_actions'], 'scouting action')}, about {plural(d['scouted']['rounds'], 'round')}.", 8.5)
    pdf.para("Stranded: the car runs dry away from a city without the francs to refuel or repair, and must wait "
             "for funding where it stands. Rounds count every pilot, repair and funding assistant. The Monte Carlo "
             "draws the open spaces' tiles from the bag.", 7.5)
    from designer.systems.greatrace.book.table_sheets import add_pages

    add_pages(pdf, race, board, result)
    return pdfkit.finish(pdf)
