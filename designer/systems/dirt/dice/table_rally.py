"""Several DIRT cars over the stages of a rally (:func:`simulate_rally`): each stage raced as the table plays it
(:mod:`.table`), the start order of the next stage set by the totals so far (``rally_start_order`` of
``tilesets/dirt-table-rules.yaml``: fastest first unless changed; the rulebook says the totals set it, not which
way). Each stage starts fresh: damage, spare wheel and seconds tokens are not carried from one stage to the
next here (assistance between stages is not modelled).

Per player (numbered by the first stage's start order, or drawn before each rally with ``draw_order``): the
rally time's mean, spread, interval, the chance of winning, of being blocked at least once, turns, and the
mean time per stage; for the table: every stage's simulated turns and the minutes at the table they take.
"""
from __future__ import annotations

import math
import random

import numpy as np

from designer.core.errors import DesignerError
from designer.systems.dirt.dice.table import MAX_PLAYERS, MAX_RUNS, Table
from designer.systems.dirt.driving.estimate import TABLE_TIME


def next_order(order: list[int], totals: list[float], rule: str) -> list[int]:
    """The start order of the next stage (players' numbers, first starter first) from the totals so far; a tie
    keeps the order the players started the last stage in."""
    if rule == "same":
        return list(order)
    place = {p: i for i, p in enumerate(order)}
    sign = 1 if rule == "fastest-first" else -1
    return sorted(order, key=lambda p: (sign * totals[p], place[p]))


def simulate_rally(tracks, players: int = 4, runs: int = 200, seed: int | None = 0, tables: list | None = None,
                   draw_order: bool = False) -> dict:
    """Race ``players`` cars ``runs`` times over the stages ``tracks`` (assembled, in rally order); JSON-ready."""
    if not 1 <= int(players) <= MAX_PLAYERS:
        raise DesignerError(f"a table races 1 to {MAX_PLAYERS} cars, not {players}", hint="e.g. --players 4")
    if not 1 <= int(runs) <= MAX_RUNS:
        raise DesignerError(f"{runs} is not a number of simulated rallies", hint=f"give 1 to {MAX_RUNS}")
    tables = tables or [Table(t) for t in tracks]
    if not tables:
        raise DesignerError("a rally needs at least one stage")
    rule = tables[0].rules.rally_start_order
    rng = random.Random(seed)
    draw = random.Random(None if seed is None else seed + 1)
    n, m = players, len(tables)
    per_stage = np.zeros((m, n, runs))
    turns = np.zeros((n, runs))
    blocked = np.zeros((n, runs))
    table_turns = np.zeros((m, runs))
    for r in range(runs):
        order = list(range(n))
        if draw_order:
            draw.shuffle(order)
        totals = [0.0] * n
        for si, table in enumerate(tables):
            secs, t, b, _led, _lost, _rounds = table.race(n, rng)
            for k, p in enumerate(order):
                per_stage[si, p, r] = secs[k]
                totals[p] += secs[k]
                turns[p, r] += t[k]
                blocked[p, r] += b[k]
            table_turns[si, r] = sum(t)
            order = next_order(order, totals, rule)
    total = per_stage.sum(axis=0)
    best = total.min(axis=0)
    wins = (total == best).astype(float) / (total == best).sum(axis=0)      # a tie shares the win
    seats = []
    for p in range(n):
        x = total[p]
        sd = float(x.std(ddof=1)) if runs > 1 else 0.0
        half = 1.96 * sd / math.sqrt(runs) if runs > 1 else 0.0
        seats.append({"seat": p + 1, "expected_seconds": round(float(x.mean()), 3), "sd": round(sd, 3),
                      "ci95": [round(float(x.mean()) - half, 3), round(float(x.mean()) + half, 3)],
                      "win_chance": round(float(wins[p].mean()), 4),
                      "blocked_chance": round(float((blocked[p] > 0).mean()), 4),
                      "turns": round(float(turns[p].mean()), 3),
                      "stage_seconds": [round(float(per_stage[s, p].mean()), 3) for s in range(m)]})
    p = TABLE_TIME
    minutes = sum(p.setup_minutes + p.build_minutes_per_tile * t.road_tiles
                  + float(table_turns[s].mean()) * p.seconds_per_turn / 60.0 for s, t in enumerate(tables))
    return {"players": n, "runs": runs, "seed": seed, "stages": m, "by": "player" if draw_order else "seat",
            "seats": seats, "table_turns": [round(float(table_turns[s].mean()), 3) for s in range(m)],
            "table_minutes": round(minutes, 1), "table_time_parameters": p.to_dict(),
            "carried_between_stages": "start order only (damage, spare wheel and tokens start fresh each stage)",
            "assumed": tables[0].rules.named()}
