"""Classic Rallyman: how long loading, the ideal line, the expected time (and its Monte Carlo check) and the road
book take on the bundled demonstration stages; prints the figures.

    .venv/bin/python benchmarks/bench_classic.py [--long] [--table]

``--long`` adds the analysis of roads of 80, 200 and 400 cells (about a minute); ``--table`` the tables of
several cars (1,000 four-car races of each demonstration stage, per seat, and 200 races of the demonstration
rally with its time controls). Times are wall and CPU seconds: on a loaded machine read the CPU ones.
"""
from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

from designer.systems.classic.dice import expected as E
from designer.systems.classic.dice import lines as L
from designer.systems.classic.dice import moves as M
from designer.systems.classic.dice import policy as P
from designer.systems.classic.board.assembly import assemble
from designer.systems.classic.files.rules import load_rules
from designer.systems.classic.system import SYSTEM

ROOT = Path(__file__).resolve().parent.parent


def clock(fn, repeat=3):
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best * 1000, out


def main() -> None:
    rules = load_rules()
    rally = SYSTEM.load(ROOT / "stages/classic/rally.yaml")
    print(f"{'stage':34} {'cells':>5} {'nodes':>5} {'load+lay ms':>11} {'ideal ms':>8} {'expected ms':>11} "
          f"{'CPU ms':>7} {'states':>7} {'ideal':>6} {'expect':>6} {'MC 4000':>7} {'MC ms':>6}")
    for st in rally.stages:
        ms_lay, course = clock(lambda: assemble(st.route, SYSTEM.box_of(st)))
        car = M.Car(tyres=st.tyres, leader=st.leader)
        ms_ideal, ideal = clock(lambda: L.ideal_line(course.graph, rules, car, big_attack=st.big_attack))
        cpu = time.process_time()
        ms_exp, exp = clock(lambda: E.expected_time(course.graph, rules, car, big_attack=st.big_attack), repeat=1)
        cpu_exp = (time.process_time() - cpu) * 1000
        model, solution, stats = P.solve_stage(course.graph, rules, car, big_attack=st.big_attack)
        t = time.perf_counter()
        runs = P.monte_carlo(model, solution, runs=4000, seed=1)
        ms_mc = (time.perf_counter() - t) * 1000
        print(f"{st.name[:34]:34} {len(L.main_line(course.graph)):5d} {course.graph.number_of_nodes():5d} "
              f"{ms_lay:11.1f} {ms_ideal:8.1f} {ms_exp:11.1f} {cpu_exp:7.0f} {exp['states']:7d} "
              f"{ideal['time_seconds']:6d} "
              f"{exp['seconds']:6.1f} {runs.mean:7.1f} {ms_mc:6.0f}" + ("  (Big Attack)" if st.big_attack else ""))
    ms_rb, pdf = clock(lambda: SYSTEM.roadbook(rally), repeat=1)
    print(f"road book of the rally: {ms_rb:.0f} ms, {len(pdf) / 1024:.0f} kB")
    if "--long" in sys.argv:
        long_course()
    if "--table" in sys.argv:
        tables(rules, rally)


def tables(rules, rally) -> None:
    """Several cars: each demonstration stage raced 1,000 times by 4 cars, then the rally 200 times."""
    from designer.systems.classic.dice.table import ClassicTable, simulate_table

    for st in rally.stages:
        g = assemble(st.route, SYSTEM.box_of(st)).graph
        t, cpu = time.perf_counter(), time.process_time()
        table = ClassicTable(g, rules, st.tyres, st.big_attack)
        solve, solve_cpu = time.perf_counter() - t, time.process_time() - cpu
        t, cpu = time.perf_counter(), time.process_time()
        d = simulate_table(g, rules, 4, 1000, seed=1, table=table)
        took, cpu = time.perf_counter() - t, time.process_time() - cpu
        print(f"table {st.name[:30]:30} solved {solve:5.1f} s (CPU {solve_cpu:5.1f}); 1000 races of 4 cars "
              f"{took:5.1f} s (CPU {cpu:5.1f}); {len({c for c in table.root.family})} cars solved")
        for s in d["seats"]:
            print(f"    seat {s['seat']}: {s['expected_seconds']:6.1f} s ± {s['sd']:4.1f}  blocked "
                  f"{s['blocked_chance']:4.0%}  passes {s['passes']:.2f}  cut cards {s['cut_cards']:.2f} "
                  f"(dirty {s['dirty_cuts']:.2f}, punctures {s['punctures']:.2f})")
    t, cpu = time.perf_counter(), time.process_time()
    d = SYSTEM.simulate_rally(rally, players=4, runs=200)
    print(f"rally of {len(rally.stages)} stages, 4 cars, 200 races: {time.perf_counter() - t:.1f} s "
          f"(CPU {time.process_time() - cpu:.1f})")
    for line in d["summary"]:
        print("  " + line)


def long_course() -> None:
    """The whole analysis of one road snaking over a 20 x 20 board, the size the caps of the expected time
    (designer.systems.classic.dice.expected.MAX_CELLS, MAX_CELLS_ATTACK) were set from."""
    from designer.systems.classic.analysis import analyse
    from designer.systems.classic.files.notation import parse_share
    from designer.systems.classic.files.stage import Stage
    from designer.systems.classic.files.zones import loads_box

    print(f"{'snake road':12} {'nodes':>6} {'Big Attack':>10} {'CPU s':>7} {'ms/cell':>8} {'max RSS MB':>10}")
    for n in (80, 200, 400):
        cells = [f"{chr(65 + c)}{r + 1}" for r in range(20) for c in (range(20) if r % 2 == 0 else range(19, -1, -1))]
        cells = cells[:n]
        side = "E" if cells[-1][0] == "T" else "W"
        box = loads_box(f"system: classic\nbox: snake\nsize: 20\nzones:\n  X:\n    faces:\n      asphalt: {{ends: "
                        f"{{0: A1/N, 1: {cells[-1]}/{side}}}, roads: [{{ends: [0, 1], path: {' '.join(cells)}}}]}}\n")
        for attack in (False, True):
            t = time.process_time()
            analyse(Stage("snake", parse_share("X0-1"), big_attack=attack), box)
            cpu = time.process_time() - t
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"{n:12d} {n + 2:6d} {str(attack):>10} {cpu:7.1f} {cpu * 1000 / (n + 2):8.1f} {rss:10.0f}")


if __name__ == "__main__":
    main()
