"""How long The Great Race analysis takes on the demo races: route searches, planning, Monte Carlo.

Run: .venv/bin/python benchmarks/bench_greatrace.py
"""
from __future__ import annotations

import time
from pathlib import Path

from designer.systems.greatrace.driving import montecarlo
from designer.systems.greatrace.driving.analysis import direction
from designer.systems.greatrace.system import SYSTEM

ROOT = Path(__file__).resolve().parents[1]


def _time(fn, repeat: int = 3) -> float:
    """The best CPU time of ``repeat`` runs (CPU, not the wall clock: other work on the machine does not count)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def _open_board(columns: int, rows: int):
    """A board with no tile laid, cities in opposite corners, a bag of plains and rocky DANGER tiles."""
    from designer.systems.greatrace.files.board import board_from_data, label, hex_of
    from designer.systems.greatrace.files.race import race_from_data

    data = {"board": "open", "columns": columns, "rows": rows,
            "cities": [{"name": "W", "at": "A1", "purple": True},
                       {"name": "E", "at": label(hex_of(columns - 1, rows - 1)), "purple": True}],
            "bag": [{"terrain": "plain", "count": 500, "fuel": 1, "mech": 0},
                    {"terrain": "rock", "count": 500, "fuel": 2, "mech": 1, "danger": True}]}
    race = race_from_data({"race": "open", "board": "open", "start": "W", "finish": "E",
                           "cards": {"escort": 1, "guide": 1}}, {}, "open")
    return board_from_data(data, {}, "open"), race


def main() -> None:
    print(f"{'race':58} {'routes':>8} {'MC 1000':>8} {'analyse':>8} {'roadbook':>9}")
    for path in sorted((ROOT / "stages" / "greatrace").glob("*.yaml")):
        race = SYSTEM.load(path)
        board = SYSTEM.box_of(race)
        d = direction(board, race)
        plan = d["_plans"]["fastest"]
        t_routes = _time(lambda: direction(board, race))
        t_mc = _time(lambda: montecarlo.simulate(d["_cm"], plan, runs=1000))
        t_all = _time(lambda: SYSTEM.analyse(race, board, runs=500), repeat=2)
        t_book = _time(lambda: SYSTEM.roadbook(race, near=path.parent), repeat=1)
        print(f"{race.name[:58]:58} {t_routes:7.3f}s {t_mc:7.3f}s {t_all:7.3f}s {t_book:8.3f}s")
    board, race = _open_board(12, 10)
    t_open = _time(lambda: direction(board, race), repeat=1)
    print(f"{'open 12 x 10 board, no tile laid (routes)':58} {t_open:7.3f}s")
    print("CPU seconds. routes: the whole trade-off set and the shortest route, each planned, one "
          "direction; MC 1000: the fastest plan driven 1000 times over the bag; analyse: both directions and "
          "3 x 500 Monte Carlo runs; best of 3 (2, 1) runs")


if __name__ == "__main__":
    main()
