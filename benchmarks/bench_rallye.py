"""Rallye: how long loading, drafting, planning, simulating, analysing and printing take.

Run: .venv/bin/python benchmarks/bench_rallye.py   (prints one figure per line)
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
from designer.systems.rallye.driving import simulate  # noqa: E402
from designer.systems.rallye.table.draft import draft  # noqa: E402
from designer.systems.rallye.model.stage import load_stage  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def timed(fn, repeat: int = 5) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
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
    for stage in stages:
        sections = [deck.sections[c] for c in stage.cards]
        t_c, cautious = timed(lambda: plan.solve(deck, sections, cautious=True))
        t_f, fastest = timed(lambda: plan.solve(deck, sections))
        t_s, sim = timed(lambda: simulate.simulate(deck, sections, fastest, runs=1000, seed=1), 3)
        print(f"{stage.name}: cautious plan {cautious.expected:.1f} s in {t_c * 1000:.1f} ms; fastest plan "
              f"{fastest.expected:.1f} s in {t_f * 1000:.1f} ms; 1000 simulated runs in {t_s:.2f} s "
              f"(mean {sim['mean_seconds']} s, sd {sim['stdev_seconds']})")
        t_a, _ = timed(lambda: system.analyse(stage, deck), 3)
        print(f"{stage.name}: whole analysis (2 x 300 runs) {t_a:.2f} s")
    rally = system.load(ROOT / "stages" / "rallye" / "demo-rally.yaml")
    t, pdf = timed(lambda: system.roadbook(rally), 2)
    print(f"road book of the demo rally (3 stages): {t:.2f} s, {len(pdf) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
