"""Several drivers over the stages of a Rallye rally: each stage raced as :func:`.race.race_once` plays it, each
driver's seconds behind the stage's winner added up over the stages (« parcourir plusieurs spéciales et cumuler
les temps. Le vainqueur est celui qui a le nombre de secondes cumulées le plus faible après toutes les
spéciales »). Every stage starts afresh: its own deck, starting sets and pile (a stage is dealt anew). Drivers that
share the fewest seconds all count as winning (a tie shares the win).

>>> from designer.systems.rallye.model.deck import get_deck
>>> deck = get_deck("rallye-demo")
>>> legs = [(deck, [deck.sections[c] for c in ["5", "4", "2"]]), (deck, [deck.sections[c] for c in ["1", "3"]])]
>>> out = race_rally(legs, players=2, runs=5, seed=1)
>>> len(out["seats"]), out["stages"], len(out["seats"][0]["stage_behind_seconds"])
(2, 2, 2)
"""
from __future__ import annotations

import random
import statistics

from designer.core.errors import DesignerError
from designer.systems.rallye.driving.plan import MAX_DRIVERS, race_cards, solve
from designer.systems.rallye.driving.race import race_once, spread_figures
from designer.systems.rallye.driving.simulate import driver_for


def race_rally(legs: list[tuple], players: int, runs: int = 200, seed: int = 1, extra_stress: int = 0,
               progress=None) -> dict:
    """``runs`` rallies of ``players`` drivers over ``legs`` (each ``(deck, sections)``, in rally order), every
    driver on the stage's fastest plan with its own hand: per seat the rally's seconds behind the winner (mean,
    spread, 95 % interval), its chance of winning the rally, its mean seconds behind on each stage and its time on
    the solo scale; JSON-ready. ``progress(done, total)``, when given, is called every few rallies."""
    if not 2 <= players <= MAX_DRIVERS:
        raise DesignerError(f"a rally race is for 2 to {MAX_DRIVERS} drivers, not {players}",
                            hint="give --players 2 to 4")
    if not legs:
        raise DesignerError("a rally needs at least one stage")
    prepared = []
    for deck, sections in legs:
        plan = solve(deck, sections)
        prepared.append((deck, sections, plan, driver_for(deck, sections, plan), race_cards(deck, players)))
    rng = random.Random(seed)
    m = len(prepared)
    totals = [[0.0] * runs for _ in range(players)]
    solo = [[0.0] * runs for _ in range(players)]
    per_stage = [[[0.0] * runs for _ in range(m)] for _ in range(players)]
    wins = [0.0] * players
    for r in range(runs):
        if progress and r % max(1, runs // 20) == 0:
            progress(r, runs)
        for s, (deck, sections, plan, choose, cards) in enumerate(prepared):
            drivers, _counts = race_once(deck, sections, plan, players, rng, choose, cards, extra_stress)
            for k, d in enumerate(drivers):
                totals[k][r] += d.held
                solo[k][r] += d.solo
                per_stage[k][s][r] = d.held
        best = min(totals[k][r] for k in range(players))
        for k in range(players):
            wins[k] += totals[k][r] == best
    seats = []
    for k in range(players):
        behind = spread_figures(totals[k])
        seats.append({"seat": k + 1, "mean_behind_seconds": behind["mean"], "stdev_seconds": behind["sd"],
                      "behind_ci95": behind["ci95"], "p10": behind["p10"], "p90": behind["p90"],
                      "wins": round(wins[k] / runs, 3), "solo_seconds": round(statistics.fmean(solo[k]), 2),
                      "stage_behind_seconds": [round(statistics.fmean(per_stage[k][s]), 2) for s in range(m)]})
    return {"players": players, "runs": runs, "seed": seed, "stages": m, "seats": seats,
            "rule": "seconds behind each stage's winner added up; the fewest after all the stages wins (a tie "
                    "shares the win); each stage dealt afresh"}


def rally_race_lines(d: dict) -> list[str]:
    """A rally race (:func:`race_rally`) as lines of text."""
    out = [f"  {d['players']} drivers raced the {d['stages']} stages {d['runs']} times (seed {d['seed']}): "
           f"{d['rule']}",
           f"    {'seat':>4}  {'behind':>7} {'sd':>5}  {'p10-p90':>9}  {'wins':>5}  {'solo s':>7}  behind per stage"]
    for s in d["seats"]:
        out.append(f"    {s['seat']:>4}  {s['mean_behind_seconds']:7.1f} {s['stdev_seconds']:5.1f}  "
                   f"{s['p10']:4.0f}-{s['p90']:<4.0f}  {100 * s['wins']:4.0f}%  {s['solo_seconds']:7.1f}  "
                   + " ".join(f"{x:.1f}" for x in s["stage_behind_seconds"]))
    return out
