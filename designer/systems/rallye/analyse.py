"""The analysis of a Rallye stage as one JSON-ready dict: the speed limits along the 12 sections, the cautious
and fastest plans and what each costs, the expected solo time with real hands, the reconnaissance notes and the
time at the table.
"""
from __future__ import annotations

from designer.core.errors import DesignerError
from designer.core.words import plural
from designer.systems.rallye.model.knowledge import front_text
from designer.systems.rallye.driving.plan import MAX_DRIVERS, hardest_braking, limits_profile, solve
from designer.systems.rallye.driving.race import race
from designer.systems.rallye.driving.simulate import simulate
from designer.systems.rallye.model.deck import Deck, Section
from designer.systems.rallye.model.stage import Stage
from designer.systems.rallye.table.layout import exit_of, lay_out
from designer.systems.rallye.validate import card_ids

ARROWS = {"left": "L", "right": "R"}


TABLE_RACES = 60       # races simulated for the table time when no race was asked for


def table_minutes(deck: Deck, sections: list[Section], players: int, fastest, sim: dict | None, raced: dict | None,
                  seed: int = 1, races: int = TABLE_RACES, extra_stress: int = 0) -> dict:
    """Minutes at the table for ``players`` drivers, counted from simulated races (what was played in each: cards
    laid, bought, reshuffles, spins; see :func:`designer.systems.rallye.driving.race.table_time`): the race asked
    for, else ``TABLE_RACES`` races of ``players`` drivers on the fastest plan."""
    raced = raced or race(deck, sections, players, runs=races, seed=seed, plan=fastest, extra_stress=extra_stress)
    return raced["table_time"]


def pace_note(s: Section) -> str:
    """A short co-driver's call: ``L3`` tight left, ``R2`` medium right, ``R1`` light, ``straight``."""
    if s.severity == "none":
        return "straight"
    grade = {"yellow": 1, "orange": 2, "red": 3}[s.severity]
    return f"{ARROWS[s.direction]}{grade}"


def _percent(p: float) -> str:
    """A chance as a percentage that never rounds a real risk to 0% or a near-certainty to 100%."""
    if 0 < p < 0.01:
        return "under 1%"
    if 0.99 < p < 1:
        return "over 99%"
    return f"{100 * p:.0f}%"


def _spin_text(p: float) -> str:
    return "no spin" if p <= 0 else f"{_percent(p)} chance of a spin"


def recon_rows(deck: Deck, sections: list[Section], cautious, fastest, full_cautious=None, full_fastest=None) -> list[dict]:
    """One row per section: the front (what the drivers see), the aid's ranges and the plans chosen from them;
    the back (safety, top) and the plans for a driver who knew it, for the organiser."""
    hard = set(deck.ruleset.hard_severities)
    rows = []
    for i, s in enumerate(sections):
        nxt = next((j for j in range(i + 1, len(sections)) if sections[j].severity in hard), None)
        rows.append({"section": i + 1, "card": s.id, "note": pace_note(s), "pace_note": s.pace_note(),
                     "severity": s.severity, "direction": s.direction, "width": s.width, "surface": s.surface,
                     "safety": s.safety, "top": s.top, "exit": exit_of(s, deck.ruleset.turn_quarters),
                     "aid": front_text(deck, s),
                     "cautious_speed": cautious.legs[i].speed, "planned_speed": fastest.legs[i].speed,
                     "full_cautious_speed": (full_cautious or cautious).legs[i].speed,
                     "full_planned_speed": (full_fastest or fastest).legs[i].speed,
                     "next_hard": None if nxt is None else {"in": nxt - i, "section": nxt + 1,
                                                              "note": pace_note(sections[nxt])}})
    return rows


def analyse(stage: Stage, deck: Deck, players: int | None = None, runs: int = 300, seed: int = 1,
            extra_stress: int = 0, known: frozenset = frozenset(), race_runs: int = 0,
            table_races: int = TABLE_RACES) -> dict:
    """The analysis of ``stage``; the plans are chosen from the cards' fronts (``known``: card ids whose backs
    the drivers remember from an earlier stage), the full-information figures given beside them. With
    ``race_runs``, races of that many drivers too (each seat's time and seconds behind the winner). The table
    time is counted from those races, else from ``table_races`` races (0: no table time, for a quick look)."""
    ids = card_ids(stage, deck)
    missing = [c for c in ids if c not in deck.sections]
    if missing:
        raise DesignerError(f"the stage names card {missing[0]!r}, which the deck {deck.name} does not have",
                            where=stage.source, hint="run `rally-designer validate` to see every problem")
    if not ids:
        raise DesignerError("the stage has no cards", where=stage.source, hint="list its cards: cards: [...]")
    sections = [deck.sections[c] for c in ids]
    r = deck.ruleset
    players = players or stage.players or (stage.draft.players if stage.draft else None) or 1
    if not 1 <= players <= MAX_DRIVERS:
        raise DesignerError(f"Rallye is for 1 to {MAX_DRIVERS} drivers, not {players}", where=stage.source,
                            hint=f"give --players 1 to {MAX_DRIVERS} (« 1 à 4 joueurs »: starting sets J1 to J4)")
    if race_runs and players < 2:
        raise DesignerError("a race needs 2 to 4 drivers, not 1 (a stage naming no players is analysed for one "
                            "driver)", where=stage.source,
                            hint="give --players 2 to 4 with --simulate, or players: in the stage")
    cautious = solve(deck, sections, cautious=True, known=known)
    fastest = solve(deck, sections, cautious=False, known=known)
    full_cautious = solve(deck, sections, cautious=True, hidden=False)
    full_fastest = solve(deck, sections, cautious=False, hidden=False)
    layout = lay_out(sections, r)
    sim = simulate(deck, sections, fastest, runs=runs, seed=seed, extra_stress=extra_stress) if runs else None
    sim_cautious = simulate(deck, sections, cautious, runs=runs, seed=seed, extra_stress=extra_stress) if runs else None
    at_safety = sum(r.solo(s.safety // r.speed_step) for s in sections)
    at_top = sum(r.solo(s.top // r.speed_step) for s in sections)
    counts = {k: sum(1 for s in sections if s.severity == k) for k in ("none", "yellow", "orange", "red")}
    raced = race(deck, sections, players, runs=race_runs, seed=seed, plan=fastest, extra_stress=extra_stress) \
        if race_runs and players > 1 else None
    table = table_minutes(deck, sections, players, fastest, sim, raced, seed, table_races, extra_stress) \
        if raced or table_races else None
    statuses = {k: v for k, v in r.statuses().items() if v in ("assumed", "decided")}
    gain = cautious.expected - fastest.expected
    prior = r.hidden_backs.get("prior", "ranges")
    summary = [
        f"{plural(len(sections), 'section')}: {plural(counts['none'], 'straight')}, {counts['yellow']} light, "
        f"{counts['orange']} medium, "
        f"{counts['red']} tight corners; mean safety speed {round(sum(s.safety for s in sections) / len(sections))} km/h",
        f"speeds chosen from the fronts of the cards and the player aid (backs hidden until turned over; "
        f"back chances: {prior})",
        f"cautious plan (never above the lowest safety speed the front allows): {cautious.expected:.1f} s solo",
        f"fastest plan: {fastest.expected:.1f} s expected solo with the best hand every section ({gain:.1f} s "
        f"better; {_spin_text(fastest.to_dict()['spin_chance_total'])} with that hand)",
        f"if you knew every back: cautious {full_cautious.expected:.1f} s, fastest {full_fastest.expected:.1f} s",
        f"bounds: every section at its safety speed {at_safety} s, at its top speed {at_top} s",
    ]
    if sim:
        lo, hi = sim["mean_ci95"]
        slo, shi = sim["spin_ci95"]
        summary.append(f"with real hands ({sim['runs']} runs, the driver playing its own hand): "
                       f"{sim['mean_seconds']} s "
                       f"on average for the fastest plan (95% interval {lo:.1f}-{hi:.1f}; p10 {sim['p10']}, p90 "
                       f"{sim['p90']}), {sim_cautious['mean_seconds']} s for the cautious one; spins in "
                       f"{_percent(sim['spin_stage_chance'])} of runs on the fastest plan (95% interval "
                       f"{_percent(max(0.0, slo))}-{_percent(min(1.0, shi))}; {sim['spins_per_stage']} per stage), "
                       f"{_percent(sim_cautious['spin_stage_chance'])} on the cautious one"
                       + (f" ({extra_stress} stress cards in the starting set)" if extra_stress else ""))
    if raced:
        seats = "; ".join(f"seat {x['seat']} {x['solo_seconds']} s ± {x['solo_stdev']} on the solo scale, "
                          f"{x['mean_behind_seconds']} s behind the winner (p90 {x['p90']}), wins "
                          f"{_percent(x['wins'])}" for x in raced["seats"])
        summary.append(f"a race of {plural(players, 'driver')} ({raced['runs']} races, every driver on the fastest "
                       f"plan with its own hand): {seats}; {raced['spins_per_race']} spins per race")
    hb = hardest_braking(deck, sections)
    if hb:
        summary.append(f"hardest braking: {hb['drop']} km/h into section {hb['section']}")
    if table:
        summary.append(f"table time: about {table['minutes']} min for {plural(players, 'driver')} (p10 "
                       f"{table['p10_minutes']}, p90 {table['p90_minutes']}; {table['rounds']} rounds, "
                       f"{table['cards_laid_per_round']} cards laid a round, counted from {table['races']} simulated "
                       f"races)")
    if deck.demo:
        summary.append(f"deck {deck.name} is demonstration data; crossing tables {deck.tables_status}")
    return {
        "system": "rallye", "stage": stage.name, "deck": deck.name, "deck_title": deck.title, "demo_deck": deck.demo,
        "cards": ids, "players": players,
        "limits": limits_profile(deck, sections),
        "plans": {"cautious": cautious.to_dict(), "fastest": fastest.to_dict()},
        "information": {"headline": "fronts", "prior": prior, "known_backs": sorted(known),
                        "status": r.params["hidden_backs"].status},
        "full_information": {"cautious": full_cautious.to_dict(), "fastest": full_fastest.to_dict(),
                             "cautious_solo_seconds": round(full_cautious.expected, 2),
                             "best_solo_seconds": round(full_fastest.expected, 2)},
        "best_solo_seconds": round(fastest.expected, 2), "cautious_solo_seconds": round(cautious.expected, 2),
        "fastest_gain_seconds": round(gain, 2),
        "bounds": {"all_at_safety": at_safety, "all_at_top": at_top},
        "difficulty": {"corners": counts, "mean_safety": round(sum(s.safety for s in sections) / len(sections), 1),
                       "hardest_braking": hb},
        "simulation": {"fastest": sim, "cautious": sim_cautious} if sim else None,
        "recon": recon_rows(deck, sections, cautious, fastest, full_cautious, full_fastest),
        "layout": {"ok": layout.ok, "size": list(layout.size()),
                   "cells": [list(p.cell) for p in layout.placements],
                   "headings": [[p.heading_in, p.heading_out] for p in layout.placements],
                   "problems": [{"section": i + 1, "reason": why} for i, why in layout.problems]},
        "table_time": table,
        "race": raced,
        "data_status": {"tables": deck.tables_status, "parameters": statuses},
        "summary": summary,
    }


def report(result: dict) -> str:
    """The analysis as text: the summary, then the reconnaissance notes: the front and the player aid's ranges
    with the plans chosen from them, then the back and the plans of a driver who knew it."""
    out = [str(result.get("stage", ""))] + [f"  {s}" for s in result.get("summary", [])]
    out.append("")
    out.append(f"  {'':>2} {'':>5} {'front':33} {'player aid':28} {'plans':>16}   {'back':>10} {'if known':>16}")
    out.append(f"  {'#':>2} {'card':>5} {'note':8} {'width':7} {'surface':8} {'aid ranges (km/h)':37} "
               f"{'cautious':>8} {'fastest':>7}  {'safety':>6} {'top':>4} {'cautious':>8} {'fastest':>7}  next hard")
    for row in result.get("recon", []):
        nh = row["next_hard"]
        nh_text = f"{nh['in']} -> {nh['note']}" if nh else "-"
        out.append(f"  {row['section']:>2} {row['card']:>5} {row['note']:8} {row['width']:7} {row['surface']:8} "
                   f"{row.get('aid', ''):37} {row['cautious_speed']:>8} {row['planned_speed']:>7}  "
                   f"{row['safety']:>6} {row['top']:>4} {row.get('full_cautious_speed', ''):>8} "
                   f"{row.get('full_planned_speed', ''):>7}  {nh_text}")
    return "\n".join(out)
