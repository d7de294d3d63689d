"""The pages of the road book for the table: what to lay and what goes in the bag (the component list), and a
score sheet for the end of the game, with the prestige each planned route arrives with.

These pages are for the person who sets the race up: the road book shows the routes and what the bag still
holds, which spoils the surprise of the draws for players who race; the setup page says so.
"""
from __future__ import annotations

from designer.core.words import plural
from designer.systems.greatrace.files.board import Board, label
from designer.systems.greatrace.driving.costs import remaining_bag
from designer.systems.greatrace.files.race import Race


def components(race: Race, board: Board) -> dict:
    """What the table needs: the board, the cities and the median token, the tiles to lay and the bag."""
    laid: dict[str, list[str]] = {}
    for h, terrain in sorted(race.laid.items(), key=lambda kv: (label(kv[0])[0], int(label(kv[0])[1:]))):
        laid.setdefault(terrain, []).append(label(h))
    bag = remaining_bag(board.bag, race.laid)
    money = board.rules["start_money"]
    return {
        "board": board.title or board.name,
        "start": race.start, "finish": race.finish, "median_token": race.median,
        "lay": [{"terrain": t, "count": len(hs), "hexes": hs} for t, hs in laid.items()],
        "bag": [{"terrain": k.terrain, "count": n, "fuel": k.fuel, "mech": k.mech, "danger": k.danger,
                 "stop": k.stop} for k, n in bag.values()],
        "bag_total": sum(n for _, n in bag.values()),
        "purse": {"others": int(money["others"]), "last_player": int(money["last_player"])},
        "players": race.players,
    }


def add_pages(pdf, race: Race, board: Board, result: dict) -> None:
    """The setup page and the score sheet, on the kit book ``pdf`` of the road book."""
    c = components(race, board)
    pdf.add_page()
    pdf.heading("Setting up the table")
    pdf.para("For the organiser: this book shows the routes and what the bag still holds, which spoils the draws "
             "for players who race. Keep it away from them until the race is over.", 8.5, bold=True)
    pdf.para(f"Board: {c['board']}. Cars on {c['start']}; finish {c['finish']}."
             + (f" Median city token (purple side) on {c['median_token']}." if c["median_token"] else "")
             + f" {plural(c['players'], 'player')}: {c['purse']['others']} F each, {c['purse']['last_player']} F "
             "for the last player; the three gauges at their maximum unless the race says otherwise.", 8.5)
    if c["lay"]:
        pdf.grid(["lay these tiles", "count", "on"], [[x["terrain"], x["count"], " ".join(x["hexes"])]
                                                     for x in c["lay"]], [30, 14, 0])
    else:
        pdf.para("No tile is laid before the race.", 8.5)
    pdf.grid(["in the bag", "count", "fuel", "mechanic", "symbols"],
             [[x["terrain"], x["count"], x["fuel"], x["mech"],
               " ".join(s for s, on in (("DANGER", x["danger"]), ("STOP", x["stop"])) if on) or "-"]
              for x in c["bag"]] + [["total", c["bag_total"], "", "", ""]], [30, 14, 14, 18, 0])
    pdf.para("Score sheet (prestige: 5 / 3 / 1 for the first three arrivals in the last round, 1 a level of "
             "engine and chassis, 1 per 50 F; a tie goes to the first arrived). Only cars arriving in the round "
             "the first car arrives can win.", 8)
    rows = [[f"player {i}", "", "", "", "", "", ""] for i in range(1, race.players + 1)]
    pdf.grid(["player", "arrival (1st..)", "arrival points", "engine", "chassis", "francs / 50", "prestige"],
             rows, [0, 22, 22, 18, 18, 22, 20])
    scores = result.get("scoring") or {}
    if scores:
        pdf.para("What the planned routes arrive with (without funding luck, cards or attacks):", 8)
        pdf.grid(["route", "engine", "chassis", "francs left", "prestige 1st / 2nd / 3rd"],
                 [[name, sc["engine"], sc["chassis"], f"{sc['money_left']} F",
                   " / ".join(str(v) for v in sc["prestige_by_arrival_rank"].values())]
                  for name, sc in scores.items()], [24, 16, 16, 22, 0])
        pdf.para("Not modelled: " + "; ".join(result.get("not_modelled", [])) + ".", 7)
