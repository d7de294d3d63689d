"""Several cars on one stage. DIRT: how long the two policies take to solve and how long 1,000 simulated races
of 2, 4 and 6 cars take on the longest rulebook stage (rally 3, SS2); prints the figures and the per-seat
results of the 4-car table. The aim: 1,000 four-car races within 5 s (the solve is apart: it is the
single-car expected time, done once per stage). Wall and CPU time are both printed: on a loaded machine the
CPU time is the fairer figure. Classic Rallyman: 1,000 races of 4 cars on each bundled demonstration stage.

    .venv/bin/python benchmarks/bench_table.py [--runs N]
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice.table import Table, simulate_table

ROOT = Path(__file__).resolve().parent.parent
STAGE = ROOT / "stages/dirt/rally-3/ss2.yaml"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=1000)
    args = ap.parse_args()
    track = load_track(load_stage(STAGE))
    t = time.perf_counter()
    table = Table(track)
    solve = time.perf_counter() - t
    print(f"{STAGE.relative_to(ROOT)}: {track.graph.number_of_nodes()} cells; both policies solved in {solve:.1f} s "
          f"(single car: leader {table.lead.seconds:.1f} s, gas {table.gas.seconds:.1f} s)")
    simulate_table(track, 4, 20, table=table)          # warm the kept plans
    four = None
    for players in (1, 2, 4, 6):
        t, cpu = time.perf_counter(), time.process_time()
        run = simulate_table(track, players, args.runs, seed=1, table=table)
        took, cpu = time.perf_counter() - t, time.process_time() - cpu
        if players == 4:
            four = run
        print(f"{players} car{'s' if players > 1 else ' '}: {args.runs} races in {took:5.2f} s (CPU {cpu:5.2f} s) "
              f"({1000 * took / args.runs:.2f} ms a race); rounds {run.rounds.mean():.1f}, "
              f"turns at the table {run.table_turns.mean():.1f}, table time {run.table_minutes:.0f} min")
    replan = Table(track, table_rules=table.rules.replace(blocked_turn="replan"), lead=table.lead, gas=table.gas)
    few = max(1, args.runs // 5)
    t, cpu = time.perf_counter(), time.process_time()
    again = simulate_table(track, 4, few, seed=1, table=replan)
    took, cpu = time.perf_counter() - t, time.process_time() - cpu
    print(f"4 cars re-planning round blocks: {few} races in {took:5.2f} s (CPU {cpu:5.2f} s); seats "
          + ", ".join(f"{s['expected_seconds']:.1f}" for s in again.to_dict()["seats"]) + " s")
    print("4 cars, per seat: seat  mean s  sd   blocked  blocked turns  turns  led")
    for s in four.to_dict()["seats"]:
        print(f"{s['seat']:>24} {s['expected_seconds']:7.1f} {s['sd']:5.1f} {100 * s['blocked_chance']:6.0f} % "
              f"{s['blocked_turns']:13.2f} {s['turns']:6.2f} {s['turns_led']:5.2f}")

    classic(args.runs)


def classic(runs: int) -> None:
    from designer.systems.classic.board.assembly import assemble
    from designer.systems.classic.dice.table import ClassicTable, simulate_table as classic_table
    from designer.systems.classic.files.rules import load_rules
    from designer.systems.classic.system import SYSTEM

    rules = load_rules()
    for name in ("es1-demo", "es2-demo", "es3-demo"):
        stage = SYSTEM.stages_of(SYSTEM.load(ROOT / f"stages/classic/{name}.yaml"))[0]
        g = assemble(stage.route, SYSTEM.box_of(stage, ROOT / "stages/classic")).graph
        t = time.perf_counter()
        table = ClassicTable(g, rules, stage.tyres, stage.big_attack)
        solve = time.perf_counter() - t
        t, cpu = time.perf_counter(), time.process_time()
        d = classic_table(g, rules, 4, runs, seed=1, table=table)
        took, cpu = time.perf_counter() - t, time.process_time() - cpu
        seats = ", ".join(f"{s['expected_seconds']:.1f}" for s in d["seats"])
        print(f"classic {name} ({g.number_of_nodes()} cells, {stage.tyres}): solved in {solve:.2f} s; 4 cars, "
              f"{runs} races in {took:.2f} s (CPU {cpu:.2f} s); seats {seats} s; table {d['table_minutes']} min")


if __name__ == "__main__":
    main()
