"""Several DIRT cars over the stages of a rally (:func:`simulate_rally`): each stage raced as the table plays it
(:mod:`.table`), the start order of the next stage set by the totals so far (``rally_start_order`` of
``tilesets/dirt-table-rules.yaml``: fastest first, "le joueur avec le meilleur temps total est le premier
joueur"). Without an assistance after a stage (its assistance tile, or ``rally: {assistance_after: true}``),
each car starts the next one with the damage tokens it finished with and its spare wheel spent or not
(:func:`carry`); seconds tokens start fresh.

Per player (numbered by the first stage's start order, or drawn before each rally with ``draw_order``): the
rally time's mean, spread, interval, the chance of winning, of being blocked at least once, turns, and the
mean time per stage; for the table: every stage's simulated turns and the minutes at the table they take.
"""
from __future__ import annotations

import random

import numpy as np

from designer.core.errors import DesignerError
from designer.racing.simulate import mean_sd_ci95
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


CARRIED = ("the start order by the totals; without an assistance tile after a stage, the damage tokens (up to as many "
           "as the next stage's solve tracks) and the spent spare wheel (\"Passer à la Spéciale suivante\": \"Les "
           "joueurs commencent avec tous les dégâts ... transférés\"), the spare wheel changed between the stages "
           "where that pays, and the damage of a loss of control on the die that crosses the finish line (\"Fin "
           "d'une Spéciale\": the card's back drawn for the next stage); seconds tokens, time cards and the SISU "
           "token start fresh")


def assistance_after(track) -> bool:
    """Whether the car can be repaired after this stage: its assistance tile, or the stage's rally saying so."""
    stage = getattr(track, "stage", None)
    rally = getattr(stage, "rally", None)
    return bool(getattr(track, "has_assistance", False) or (rally is not None and rally.assistance_after))


def carry(ctx, table) -> tuple | None:
    """The damage a car that finished with ``ctx`` (a turn boundary's damage: gear, gas, brake, spare spent,
    SISU) starts the next stage with, whose :class:`~.table.Table` is ``table`` (no assistance between): the
    tokens up to the stage's damage bound (the most of one kind dropped first beyond it); the spare wheel
    changed between the stages when it is unspent and a gas token is on and that is quicker for the stage
    ("Utiliser une carte Roue de secours entre deux Spéciales": no time added); the SISU token as the stage
    starts it. None (fresh) when nothing is carried, or when the car had abandoned ("Abandonner une Spéciale":
    it goes on "comme s'il avait eu accès à l'Assistance")."""
    if ctx is None:
        return None
    model = table.gas.model
    cell, gear, _ = table.starts[0]
    sisu = model.start_damage[4]
    if model.terminal((cell, gear, ctx[:4] + (sisu,))) is not None:
        return None
    g, s, b, spare, _sisu = ctx
    kinds = [g, s, b]
    while sum(kinds) > model.mishaps.max_damage:
        kinds[kinds.index(max(kinds))] -= 1
    g, s, b = kinds
    options = [(g, s, b, spare, sisu)]
    if not spare and s > 0:
        options.append((g, s - 1, b, 1, sisu))
    best = min(options, key=lambda c: table.gas.solution.value((cell, gear, c), 0))
    return None if best == model.start_damage else best


def simulate_rally(tracks, players: int = 4, runs: int = 200, seed: int | None = 0, tables: list | None = None,
                   draw_order: bool = False, progress=None, assistance: list | None = None) -> dict:
    """Race ``players`` cars ``runs`` times over the stages ``tracks`` (assembled, in rally order); JSON-ready.
    ``assistance``: per stage, whether an assistance follows it (by default :func:`assistance_after`).

    ``progress(done, total, text)``, when given, is called as each stage's two policies are solved (one step a
    stage) and then every few rallies (one step for all the races): ``total`` is the stages plus one."""
    if not 1 <= int(players) <= MAX_PLAYERS:
        raise DesignerError(f"a table races 1 to {MAX_PLAYERS} cars, not {players}", hint="e.g. --players 4")
    if not 1 <= int(runs) <= MAX_RUNS:
        raise DesignerError(f"{runs} is not a number of simulated rallies", hint=f"give 1 to {MAX_RUNS}")
    if tables is None:
        tracks = list(tracks)
        if not tracks:
            raise DesignerError("a rally needs at least one stage")
        tables = []
        for si, t in enumerate(tracks):
            if progress:
                progress(si, len(tracks) + 1, f"SS{si + 1}: solving the leader's and the others' policies")
            table = Table(t)
            for solved in (table.lead, table.gas):      # the race works out again only the states it meets
                solved.release()
            tables.append(table)
    if not tables:
        raise DesignerError("a rally needs at least one stage")
    every = max(1, runs // 20)
    rule = tables[0].rules.rally_start_order
    rng = random.Random(seed)
    draw = random.Random(None if seed is None else seed + 1)
    n, m = players, len(tables)
    per_stage = np.zeros((m, n, runs))
    turns = np.zeros((n, runs))
    blocked = np.zeros((n, runs))
    table_turns = np.zeros((m, runs))
    carried = np.zeros((m, n, runs), dtype=bool)
    assisted = list(assistance) if assistance is not None else [assistance_after(table.track) for table in tables]
    for r in range(runs):
        if progress and r % every == 0:
            progress(m, m + 1, f"racing: rally {r + 1} of {runs}")
        order = list(range(n))
        if draw_order:
            draw.shuffle(order)
        totals = [0.0] * n
        damage = [None] * n                        # per player: the damage taken into the next stage
        for si, table in enumerate(tables):
            ends: list = []
            secs, t, b, _led, _lost, _rounds = table.race(n, rng, [damage[p] for p in order], ends)
            after = tables[si + 1] if si + 1 < m else None
            for k, p in enumerate(order):
                damage[p] = None if after is None or assisted[si] else carry(ends[k], after)
                carried[si, p, r] = damage[p] is not None and sum(damage[p][:3]) > 0
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
        mean, sd, ci = mean_sd_ci95(x)
        seats.append({"seat": p + 1, "expected_seconds": mean, "sd": sd, "ci95": ci,
                      "p10_seconds": round(float(np.percentile(x, 10)), 3),
                      "p90_seconds": round(float(np.percentile(x, 90)), 3),
                      "win_chance": round(float(wins[p].mean()), 4),
                      "blocked_chance": round(float((blocked[p] > 0).mean()), 4),
                      "blocked_turns": round(float(blocked[p].mean()), 3),
                      "turns": round(float(turns[p].mean()), 3),
                      "stage_seconds": [round(float(per_stage[s, p].mean()), 3) for s in range(m)]})
    p = TABLE_TIME
    by_stage = [p.setup_minutes + p.build_minutes_per_tile * t.road_tiles
                + float(table_turns[s].mean()) * p.seconds_per_turn / 60.0 for s, t in enumerate(tables)]
    minutes = sum(by_stage)
    return {"players": n, "runs": runs, "seed": seed, "stages": m, "by": "player" if draw_order else "seat",
            "seats": seats, "table_turns": [round(float(table_turns[s].mean()), 3) for s in range(m)],
            "rally_table_turns": round(float(table_turns.sum(axis=0).mean()), 3),
            "table_minutes": round(minutes, 1), "stage_table_minutes": [round(x, 1) for x in by_stage],
            "table_minutes_formula": "per stage: setup_minutes + build_minutes_per_tile * road_tiles + "
                                     "simulated turns of all cars * seconds_per_turn / 60; added over the stages",
            "table_time_parameters": p.to_dict(),
            "single_car_expected_seconds": round(sum((t.lead if n == 1 else t.gas).seconds for t in tables), 3),
            "carried_between_stages": CARRIED,
            "assistance_after": assisted,
            "damage_carried_chance": [round(float(carried[s].mean()), 4) for s in range(m - 1)],
            "assumed": tables[0].rules.named()}


def repaired_apart(d: dict) -> bool:
    """Whether a simulated rally's single-car figure (the stages' exact expected times added, each from a
    repaired car) leaves out damage the cars carry: some stage but the last has no assistance after it."""
    return not all(d.get("assistance_after", [])[:-1])


def lone_car_words(d: dict) -> str:
    """What the rally's single-car figure is (:func:`repaired_apart`)."""
    return "single car alone" + (", each stage started repaired" if repaired_apart(d) else "")


def damage_carried_words(d: dict) -> str:
    """How often damage went on to each stage with no assistance before it, e.g. ``damage went on into SS2 for 15%
    of the cars``, or that none could."""
    parts = [f"SS{k + 2} for {100 * p:.0f}% of the cars" for k, (p, a) in
             enumerate(zip(d.get("damage_carried_chance", []), d.get("assistance_after", []))) if not a]
    return "damage went on into " + ", ".join(parts) if parts else \
        "no damage went on: an assistance follows every stage but the last"


def rally_lines(d: dict) -> list[str]:
    """A simulated rally (:func:`simulate_rally`) as lines of text for the report."""
    from designer.racing.course import format_time

    who = "player (start order drawn)" if d.get("by") == "player" else "car (first stage's start order)"
    out = [f"  {d['players']} cars raced the {d['stages']} stages {d['runs']} times (seed {d['seed']}): "
           f"{d['rally_table_turns']:.1f} turns at the table, about {d['table_minutes']} min at the table "
           f"({lone_car_words(d)}: {format_time(d['single_car_expected_seconds'])})",
           "    turns at the table per stage: " + ", ".join(f"SS{k + 1} {t:.1f}" for k, t in enumerate(d["table_turns"])),
           f"    {who:>30}  {'total':>7} {'sd':>5}  {'p10-p90':>9}  {'wins':>5}  {'blocked':>7}  {'turns':>5}  per stage"]
    for s in d["seats"]:
        out.append(f"    {s['seat']:>30}  {format_time(s['expected_seconds']):>7} {s['sd']:5.1f}  "
                   f"{s['p10_seconds']:4.0f}-{s['p90_seconds']:<4.0f}  {100 * s['win_chance']:4.0f}%  "
                   f"{100 * s['blocked_chance']:6.0f}%  {s['turns']:5.1f}  "
                   + " ".join(format_time(x) for x in s["stage_seconds"]))
    out.append(f"    carried between stages: {d['carried_between_stages']}; {damage_carried_words(d)}")
    kept = [k for k, v in d.get("assumed", {}).items() if v.get("status") in ("assumed", "decided")]
    out.append(f"    not in the rulebook (tilesets/dirt-table-rules.yaml): {', '.join(kept)}")
    return out


def race_rally(stages, box_of, players: int | None = None, runs: int = 200, seed: int | None = 0,
               draw_order: bool = False, progress=None) -> dict:
    """:func:`simulate_rally` of a rally's stages as written (``box_of(stage)`` gives a stage's box); a stage with
    an error is refused by name before any solving. ``players``: the first stage's, or 4, when not given."""
    from designer.systems.dirt.board.track import assemble
    from designer.systems.dirt.board.validate import validate

    stages = list(stages)
    if not stages:
        raise DesignerError("a rally needs at least one stage", hint="add a stage to the rally")
    tracks = []
    for k, stage in enumerate(stages, start=1):
        box = box_of(stage)
        track = assemble(stage, box)
        wrong = [p for p in validate(stage, box, track) if p.severity == "error"]
        if wrong:
            raise DesignerError(f"SS{k} ({stage.name}) cannot be raced: {wrong[0].message}"
                                + (f" (and {len(wrong) - 1} more errors)" if len(wrong) > 1 else ""),
                                where=f"SS{k}", hint="fix the stage (rally-designer validate) before racing the rally")
        tracks.append(track)
    n = int(players or stages[0].players or 4)
    result = simulate_rally(tracks, n, runs, seed, draw_order=draw_order, progress=progress)
    result["stage_names"] = [s.name for s in stages]
    return result
