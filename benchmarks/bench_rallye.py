"""Rallye: how long loading, drafting, planning, simulating, analysing and printing take.

Run: .venv/bin/python benchmarks/bench_rallye.py   (prints one figure per line)

Times are wall-clock medians with the CPU seconds of the process beside them (a loaded machine stretches the
wall clock, not the CPU time). The first simulation of a deck builds the hand values of its starting set (the
plays of every hand, kept for the process), so it is timed apart.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from designer import systems  # noqa: E402
from designer.core.errors import DesignerError  # noqa: E402
from designer.systems.rallye.model import deck as deck_mod  # noqa: E402
from designer.systems.rallye.driving import plan  # noqa: E402
from designer.systems.rallye.driving import race  # noqa: E402
from designer.systems.rallye.driving import simulate  # noqa: E402
from designer.systems.rallye.table.draft import draft  # noqa: E402
from designer.systems.rallye.model.stage import load_stage  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


CPU: list[float] = []


def timed(fn, repeat: int = 5) -> tuple[float, object]:
    """(median wall seconds, result); the median CPU seconds go to ``CPU[-1]``."""
    times, cpu, out = [], [], None
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    CPU.append(statistics.median(cpu))
    return statistics.median(times), out


def main() -> None:
    system = systems.get("rallye")
    deck_file = ROOT / "tilesets" / "rallye" / "rallye-demo.yaml"
    t, deck = timed(lambda: deck_mod.load_deck(deck_file))
    print(f"load demo deck ({len(deck.sections)} cards): {t * 1000:.1f} ms")
    def drafts():
        done = failed = 0
        for seed in range(300):
            try:
                draft(deck, 3, seed)
                done += 1
            except DesignerError:
                failed += 1
        return done, failed

    t, (done, failed) = timed(drafts, 3)
    print(f"draft a stage (six piles, 3 drivers): {t / 300 * 1000:.2f} ms each over 300 seeds; "
          f"{failed} of 300 ran out of cards")
    stages = [load_stage(p) for p in sorted((ROOT / "stages" / "rallye").glob("demo-ss*.yaml"))]
    first = [deck.sections[c] for c in stages[0].cards]
    t, _ = timed(lambda: simulate.simulate(deck, first, plan.solve(deck, first), runs=1, seed=1), 1)
    print(f"first simulation of the deck (hand values of its starting set, then one run): {t:.2f} s "
          f"({CPU[-1]:.2f} s CPU)")
    for stage in stages:
        sections = [deck.sections[c] for c in stage.cards]
        t_c, cautious = timed(lambda: plan.solve(deck, sections, cautious=True))
        t_f, fastest = timed(lambda: plan.solve(deck, sections))
        # a fresh plan each time: the driver's hand values and its memo of decisions are built again
        t_s, sim = timed(lambda: simulate.simulate(deck, sections, plan.solve(deck, sections), runs=1000, seed=1), 3)
        print(f"{stage.name}: cautious plan {cautious.expected:.1f} s in {t_c * 1000:.1f} ms; fastest plan "
              f"{fastest.expected:.1f} s in {t_f * 1000:.1f} ms; plan and 1000 simulated runs in {t_s:.2f} s "
              f"({CPU[-1]:.2f} s CPU; mean {sim['mean_seconds']} s, sd {sim['stdev_seconds']}, spins in "
              f"{100 * sim['spin_stage_chance']:.1f}% of runs)")
        for players in (2, 4, 6):
            t_r, raced = timed(lambda: race.race(deck, sections, players, runs=60, seed=1), 3)
            print(f"{stage.name}: plan and 60 races of {players} drivers in {t_r:.2f} s ({CPU[-1]:.2f} s CPU; table "
                  f"{raced['table_time']['minutes']} min)")
        t_a, _ = timed(lambda: system.analyse(stage, deck, players=4, race_runs=60), 3)
        print(f"{stage.name}: whole analysis (2 x 300 runs, 60 races of 4) {t_a:.2f} s ({CPU[-1]:.2f} s CPU)")
    rally = system.load(ROOT / "stages" / "rallye" / "demo-rally.yaml")
    t, pdf = timed(lambda: system.roadbook(rally), 2)
    print(f"road book of the demo rally (3 stages): {t:.2f} s, {len(pdf) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
