"""Races made from a board: every pair of purple cities as start and finish, ranked by balance (how little it
matters which way the race is driven: the fastest routes of the two directions compared in pilot actions and
francs) and, for a difficulty, by length. The same board always gives the same ranking; the seed orders ties."""
from __future__ import annotations

import random
from itertools import combinations

from designer.core.errors import DesignerError
from designer.systems.greatrace.driving.analysis import direction
from designer.systems.greatrace.files.race import Race

LENGTH_ORDER = {"easy": 1, "hard": -1}


def generate(board, *, seed: int = 0, count: int = 1, difficulty: str | None = None, players: int = 4,
             money: int = 80) -> list[tuple[Race, dict]]:
    if difficulty not in (None, "easy", "medium", "hard"):
        raise DesignerError(f"unknown difficulty {difficulty!r}", hint="easy, medium or hard")
    purple = sorted(name for name, city in board.cities.items() if city.purple)
    if len(purple) < 2:
        raise DesignerError(f"the board {board.name!r} has fewer than two purple cities", hint="mark start cities purple")
    found = []
    for a, b in combinations(purple, 2):
        race = Race(name=f"{a} to {b}", board=board.name, start=a, finish=b, players=players, money=money)
        race.board_obj = board
        fwd, back = direction(board, race), direction(board, race.reversed())
        if not (fwd["reachable"] and back["reachable"]):
            continue
        f, r = fwd["fastest"], back["fastest"]
        balance = abs(f["actions"] - r["actions"]) + abs(f["francs"] - r["francs"]) / 50
        figures = {"start": a, "finish": b, "actions": f["actions"], "actions_reversed": r["actions"],
                   "francs": f["francs"], "francs_reversed": r["francs"], "spaces": fwd["shortest"]["spaces"],
                   "imbalance": round(balance, 2)}
        if r["actions"] < f["actions"] or (r["actions"] == f["actions"] and r["francs"] < f["francs"]):
            race = Race(name=f"{b} to {a}", board=board.name, start=b, finish=a, players=players, money=money)
            figures.update(start=b, finish=a, actions=r["actions"], actions_reversed=f["actions"],
                           francs=r["francs"], francs_reversed=f["francs"])
        found.append((race, figures))
    if not found:
        raise DesignerError("no two purple cities of this board are joined by a route", hint="check the map")
    rng = random.Random(seed)
    ties = {id(r): rng.random() for r, _f in found}
    order = LENGTH_ORDER.get(difficulty, 0)
    found.sort(key=lambda rf: (rf[1]["imbalance"], order * rf[1]["spaces"], ties[id(rf[0])]))
    for race, _f in found:
        race.board_obj = None
    return found[:count]
