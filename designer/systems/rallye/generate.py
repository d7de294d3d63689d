"""Rallye stages made as the game makes them: drafted from the six face-up piles, many times over, then ranked.

A difficulty asks for simulated drivers who pick the cards that make the stage easy (the highest safety speed) or
hard (the lowest), and ranks the drafts by the best solo time: easy stages first by the quickest time, hard ones
by the slowest. The same seed gives the same stages.
"""
from __future__ import annotations

from pathlib import Path

from designer.core import paths
from designer.core.errors import DesignerError
from designer.systems.rallye.analyse import analyse
from designer.systems.rallye.model.deck import find_deck, get_deck
from designer.systems.rallye.model.stage import Stage
from designer.systems.rallye.table.draft import draft

POLICY = {None: "random", "easy": "fast", "medium": "random", "hard": "slow"}


def _num(x: float) -> str:
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def summary_line(figures: dict, draft_no: int) -> str:
    """One readable line for a generated stage: its plans' solo times, mean safety speed and draft number."""
    return (f"fastest plan {_num(figures['best_solo_seconds'])} s, cautious {_num(figures['cautious_solo_seconds'])} s, "
            f"mean safety speed {_num(figures['difficulty']['mean_safety'])} km/h, draft #{draft_no}")


def generate(*, seed: int = 0, count: int = 1, candidates: int = 20, difficulty: str | None = None,
             box: str | None = None, players: int | None = None,
             near: Path | None = None) -> list[tuple[Stage, dict]]:
    """Stages drafted from the deck ``box`` (a bundled deck's name; with ``near``, the folder the user works in,
    also a deck file there by name or path, which the stages then name by its full path)."""
    if difficulty not in POLICY:
        raise DesignerError(f"unknown difficulty {difficulty!r}", hint="easy, medium or hard")
    if not 1 <= count <= candidates <= 5000:
        raise DesignerError(f"{count} stages from {candidates} drafts is not possible",
                            hint="ask for at most as many stages as drafts (5000 at most)")
    path = find_deck(box, near, where="--deck")
    deck = get_deck(box, near, where="--deck")
    bundled = path.resolve().parent == (paths.TILESETS / "rallye").resolve()
    deck_ref = deck.name if bundled else str(path.resolve())
    players = players or 2
    found = []
    seen = set()
    for k in range(candidates):
        try:
            result = draft(deck, players=players, seed=seed * 10_000 + k, policy=POLICY[difficulty])
        except DesignerError:
            continue                                  # a draft that ran out of cards: the next seed
        key = tuple(result.cards)
        if key in seen:
            continue
        seen.add(key)
        stage = Stage(name=f"Drafted stage (seed {seed}, #{k})", deck=deck_ref, cards=list(result.cards),
                      players=players)
        figures = analyse(stage, deck, players=players, runs=0, table_races=0)      # plans only: no races
        found.append((stage, {"best_solo_seconds": figures["best_solo_seconds"],
                              "cautious_solo_seconds": figures["cautious_solo_seconds"],
                              "mean_safety": figures["difficulty"]["mean_safety"], "draft": k,
                              "summary": summary_line(figures, k)}))
    if not found:
        raise DesignerError(f"none of {candidates} drafts completed a stage", hint="try another seed")
    slow_first = difficulty == "hard"
    found.sort(key=lambda sf: (-sf[1]["best_solo_seconds"] if slow_first else sf[1]["best_solo_seconds"],
                               sf[1]["draft"]))
    if difficulty == "medium":
        times = sorted(f["best_solo_seconds"] for _s, f in found)
        middle = times[len(times) // 2]
        found.sort(key=lambda sf: (abs(sf[1]["best_solo_seconds"] - middle), sf[1]["draft"]))
    return found[:count]
