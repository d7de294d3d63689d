"""The whole scoring of The Great Race for a planned route: the purse by seat, the progression bonus, the end of
the game and the prestige the car arrives with, plus what the analysis does not model.

Rulebook (shared/seeds/001_*.txt): MISE EN PLACE 7 (80 F, 70 F for the last player), PHASE DE MAINTENANCE (20 F
to the first on the progression scale, 10 F to the second; 20 F to the first only with 2 players), FIN DE
PARTIE (the first arrival ends the game at the end of that round; only the cars that arrive in that round can
win) and CALCUL DES POINTS DE PRESTIGE (5/3/1 by arrival, 1 per engine and chassis level, 1 per 50 F; ties
go to the first arrived).

>>> from designer.systems.greatrace.files.rules import load_ruleset
>>> purse(load_ruleset(), players=4, seat=4), purse(load_ruleset(), players=4, seat=1)
(70, 80)
"""
from __future__ import annotations

from designer.systems.greatrace.files.race import purse  # noqa: F401  (the purse of a seat, read by the scoring)

NOT_MODELLED = [
    "resource cards drawn in cities and in the bivouac (the route search uses only the TRANSPORT, ESCORTE and "
    "GUIDE cards the race lists)",
    "JERRICAN (+1 fuel) and RAVITAILLEMENT (+5 fuel): they would save fuel bought",
    "PIÈCES DE MOTEUR / DE CHÂSSIS (+1) and CAISSE A OUTILS (+3): they would save parts bought",
    "FINANCIER (+30 F) and PILOTE (an extra pilot action without an assistant)",
    "cards played against the car (SABOTEUR, RANÇON, SIPHONNEUR, DÉNICHEUR, DOUANES, PISTEUR, TRICHEUR) and "
    "other cars' scouting and discarding",
    "the LEADER module",
]


def bonus_per_round(rules, players: int) -> tuple[int, int]:
    """(first, second) progression bonus a round."""
    b = rules["progression_bonus"] if "progression_bonus" in rules.params else {"first": 20, "second": 10,
                                                                                  "two_players_first_only": True}
    first, second = int(b["first"]), int(b["second"])
    if players <= 2 and b.get("two_players_first_only", True):
        second = 0
    if players <= 1:
        second = 0
    return first, second


def prestige_points(rules, rank: int | None, engine: int, chassis: int, francs: int) -> int:
    """Prestige at the end: arrival points by rank (None: not arrived), gauge levels, francs."""
    p = rules["prestige"] if "prestige" in rules.params else {"arrival": [5, 3, 1], "per_gauge_level": 1,
                                                              "francs_per_point": 50}
    arrival = list(p["arrival"])
    points = arrival[rank - 1] if rank is not None and 1 <= rank <= len(arrival) else 0
    return points + int(p["per_gauge_level"]) * (max(0, engine) + max(0, chassis)) \
        + max(0, francs) // int(p["francs_per_point"])


def score(plan, rules, race, players: int, rounds: int) -> dict:
    """The scoring figures of one planned route (``plan`` a :class:`~designer.systems.greatrace.driving.plan.Plan`)."""
    from designer.systems.greatrace.driving.plan import funding_plan

    start_money = race.money
    raised = funding_plan(plan.shortfall, rules)[2]
    money_left = start_money + raised - plan.spent
    engine, chassis = plan.end.get("engine", 0), plan.end.get("chassis", 0)
    first, second = bonus_per_round(rules, players)
    by_rank = {rank: prestige_points(rules, rank, engine, chassis, money_left) for rank in range(1, min(players, 3) + 1)}
    with_bonus = {rank: prestige_points(rules, rank, engine, chassis, money_left + first * max(0, rounds - 1))
                  for rank in by_rank}
    return {
        "purse_at_start": start_money,
        "purse_by_seat": {"others": purse(rules, players, 1), "last_player": purse(rules, players, players)},
        "money_left": money_left, "funding_raised": raised,
        "engine": engine, "chassis": chassis,
        "arrival_round": rounds,
        "end_of_game": f"the first car to arrive ends the game at the end of its round (round {rounds} on this "
                       "plan); only cars arriving in that round can win",
        "progression_bonus": {"first": first, "second": second, "rounds_before_arrival": max(0, rounds - 1),
                              "at_most": first * max(0, rounds - 1)},
        "prestige_by_arrival_rank": by_rank,
        "prestige_by_arrival_rank_leading_every_round": with_bonus,
        "prestige_without_arrival_points": prestige_points(rules, None, engine, chassis, money_left),
        "not_modelled": NOT_MODELLED,
    }
