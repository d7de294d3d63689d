"""Several classic Rallyman cars over a rally's stages (:func:`simulate_rally_table`): each stage raced by the
table of :mod:`.table`, then the time control (ART.22) and the next stage's start order (ART.3.2).

- **Start order** (ART.3.2): the first stage in seat order (agreed between the drivers), each later stage in the
  order of the standings after the stages before (the fastest total first).
- **Time control** (ART.22): after each stage every car bids 5-second tokens in secret, added to its time. How
  the cars bid is the table rule ``time_control_bid``: ``none`` (every car bids 0) or ``avoid-opening`` (before a
  stage with gravel, the car first in the standings bids the fewest tokens that put it behind the second when
  they cost less than opening the road: the next stage's single-car expected time as leader, with the orange
  dice of ART.20, minus as a follower; the others bid 0).
- **Between stages** (ART.10, ART.14): without an assistance a car keeps its black dice lost, its punctures and
  whether it has played its spare wheel; the SISU card is played once a rally (ART.7.5).

Per seat: the rally time (penalties included), its spread and interval, the penalties bid, each stage's mean.
"""
from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np

from designer.core.errors import DesignerError
from designer.core.words import plural
from designer.racing.simulate import mean_sd_ci95
from designer.systems.classic.dice.table import ClassicTable, check_size, load_table_rules


def opening_cost(table: ClassicTable) -> float:
    """Seconds a car expects to lose by opening the road of this stage (ART.20: 0 where there is no gravel)."""
    lead = table.lead[1].value(table.lead[0].start)
    other = table.other[1].value(table.other[0].start)
    return max(0.0, lead - other)


def bids(totals: list[float], cost: float, step: int, rule: str) -> list[int]:
    """Tokens each car bids at the time control (ART.22) before a stage whose road costs ``cost`` seconds to open.

    >>> bids([100.0, 103.0, 140.0], 10.0, 5, "avoid-opening")
    [1, 0, 0]
    >>> bids([100.0, 112.0], 10.0, 5, "avoid-opening"), bids([100.0, 103.0], 10.0, 5, "none")
    ([0, 0], [0, 0])
    """
    out = [0] * len(totals)
    if rule == "none" or len(totals) < 2 or cost <= 0:
        return out
    ranked = sorted(range(len(totals)), key=lambda k: totals[k])
    first, second = ranked[0], ranked[1]
    tokens = math.floor((totals[second] - totals[first]) / step) + 1       # strictly behind the second car
    if tokens * step < cost:
        out[first] = tokens
    return out


def simulate_rally_table(stages: list[dict], rules, players: int = 4, runs: int = 200, seed: int | None = 0,
                         table_rules: dict | None = None, sisu: bool = False) -> dict:
    """Race ``players`` cars over ``stages`` (each {"name", "graph", "tyres", "big_attack", "assistance"}: an
    assistance after that stage; or a ready "table") ``runs`` times; JSON-ready, per seat."""
    check_size(players, runs)
    if not stages:
        raise DesignerError("a rally table needs at least one stage", hint="give the rally's stages")
    table_rules = table_rules or load_table_rules()
    rule = table_rules["time_control_bid"]["value"]
    tables = [s.get("table") or ClassicTable(s["graph"], rules, s.get("tyres", "asphalt"), s.get("big_attack", False),
                                             table_rules, sisu=sisu) for s in stages]
    costs = [opening_cost(t) for t in tables]
    rng = random.Random(seed)
    n, m = players, len(stages)
    total = np.zeros((n, runs))
    penalty = np.zeros((n, runs))
    stage_secs = np.zeros((m, n, runs))
    stage_turns = np.zeros((m, runs))            # turns of all cars, the table's own count of the evening
    for r in range(runs):
        standings = [0.0] * n
        order = list(range(n))
        kits = [None] * n
        for i, (stage, table) in enumerate(zip(stages, tables)):
            base = table.root.car
            fresh = i == 0 or stages[i - 1].get("assistance", True)
            start = []
            for k in order:
                kit = kits[k]
                if kit is None:
                    start.append(base)
                elif fresh:       # ART.14: the car repaired, its spare wheel back; the SISU card stays played
                    start.append(replace(base, sisu=kit.sisu))
                else:
                    start.append(replace(base, damage=kit.damage, punctures=kit.punctures, spare=kit.spare,
                                         sisu=kit.sisu))
            raced, _ = table.race(n, rng, start)
            stage_turns[i, r] = sum(seat.tally["turns"] for seat in raced)
            for pos, k in enumerate(order):
                seat = raced[pos]
                stage_secs[i, k, r] = seat.seconds
                standings[k] += seat.seconds
                kits[k] = seat.kit
            if i + 1 < m:
                bid = bids(standings, costs[i + 1], rules.penalty_step, rule)
                for k in range(n):
                    standings[k] += bid[k] * rules.penalty_step
                    penalty[k, r] += bid[k] * rules.penalty_step
            # ART.3.2: the next stage starts in the order of the standings (ties: the order they started in)
            order = sorted(range(n), key=lambda k: (standings[k], order.index(k)))
        total[:, r] = standings
    seats = []
    for k in range(n):
        mean, sd, ci = mean_sd_ci95(total[k])
        seats.append({"seat": k + 1, "rally_seconds": mean, "sd": sd, "ci95": ci,
                      "penalty_seconds": round(float(penalty[k].mean()), 3),
                      "stage_seconds": [round(float(stage_secs[i, k].mean()), 3) for i in range(m)]})
    return {"players": n, "runs": runs, "seed": seed, "stages": [s.get("name", f"ES{i + 1}") for i, s in
                                                                  enumerate(stages)],
            "opening_cost_seconds": [round(c, 3) for c in costs], "time_control_bid": rule, "seats": seats,
            "table_turns": [round(float(t), 3) for t in stage_turns.mean(axis=1)],
            "table_minutes": round(float(stage_turns.sum(axis=0).mean()) * rules.table_seconds / 60, 1),
            "stage_table_minutes": [round(float(t) * rules.table_seconds / 60, 1) for t in stage_turns.mean(axis=1)],
            "table_minutes_formula": "simulated turns of all cars * table_seconds (classic-rules.yaml) / 60, "
                                     "added over the stages"}


def rally_lines(d: dict) -> list[str]:
    """A rally raced at the table as summary lines."""
    out = [f"{plural(d['players'], 'car')} raced the {plural(len(d['stages']), 'stage')} "
           f"{plural(d['runs'], 'time')}; time-control bids: "
           f"{d['time_control_bid']} (opening the road costs "
           + ", ".join(f"{c:.1f} s" for c in d["opening_cost_seconds"]) + " by stage)"]
    if d.get("table_minutes") is not None:
        out.append(f"  about {d['table_minutes']:.0f} min at the table from the simulated turns ("
                   + ", ".join(f"{t:.0f}" for t in d["table_turns"]) + " turns of all cars by stage)")
    for s in d["seats"]:
        out.append(f"  seat {s['seat']}: {s['rally_seconds']:.1f} s ± {s['sd']:.0f} (95% {s['ci95'][0]:.1f}-"
                   f"{s['ci95'][1]:.1f}), penalties {s['penalty_seconds']:.1f} s; stages "
                   + ", ".join(f"{x:.1f}" for x in s["stage_seconds"]))
    return out
