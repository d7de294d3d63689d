"""Speed of the expected time under the dice: the optimum of the longest rulebook stage (rally-3 ss2), all 18
rulebook stages, and 10,000 simulated runs of a stage. Prints its figures.

Run: .venv/bin/python benchmarks/bench_expected.py [--quick | --bounds | --readings]
  --quick: rally-3 ss2 and the simulation only; --bounds: how the model's bounds move Rally 1 SS1's answer;
  --readings: every rulebook stage under each reading of a failed Big Attack (achievable, as_laid, latest);
  --damage: Rally 3 SS2 and Rally 1 SS1 with 1, 2 and 3 damage tokens tracked under the readings as_laid and
  achievable (each in its own process, for its peak memory); --damage-all: every rulebook stage with 1, 2 and 3
  damage tokens tracked (the default reading), what each token adds and the CPU
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from designer.systems.dirt.board.stage import load_stage  # noqa: E402
from designer.systems.dirt.board.track import load_track  # noqa: E402
from designer.systems.dirt.dice.expected_time import expected_time  # noqa: E402
from designer.systems.dirt.dice.mishaps import load_mishaps  # noqa: E402


def solve_one(path: Path, reading: str | None = None, **bounds):
    stage = load_stage(path)
    if reading is not None:
        stage = stage.model_copy(update={"options": stage.options.model_copy(update={"big_attack_failure": reading})})
    track = load_track(stage)
    if "max_damage" in bounds:                     # a damage bound given is the bound solved (not raised)
        bounds.setdefault("most_damage", None)
    mishaps = load_mishaps().replace(**bounds) if bounds else None
    t0, c0 = time.perf_counter(), time.process_time()
    result = expected_time(track, mishaps=mishaps)
    result.extra_cache["cpu_seconds"] = time.process_time() - c0
    return result, time.perf_counter() - t0


def bounds() -> None:
    """Raise each bound of the model in turn and show how far the answer moves (0.000 s: the bound is exact)."""
    path = ROOT / "stages/dirt/rally-1/ss1.yaml"
    base = load_mishaps()
    result, secs = solve_one(path)
    ref = result.seconds
    print(f"rally-1 ss1 default bounds {base.max_tokens} tokens, {base.max_secured} dice secured per turn, "
          f"{base.max_damage} damage token(s): expected {ref:.6f} s ({secs:.1f} s to solve, "
          f"{len(result.solution.values)} states)")
    worst = 0.0
    for change in ({"max_tokens": base.max_tokens + 4}, {"max_secured": base.max_secured + 1},
                   {"max_damage": base.max_damage + 1}):
        result, secs = solve_one(path, **change)
        moved = result.seconds - ref
        worst = max(worst, abs(moved))
        print(f"  {change}: expected {result.seconds:.6f} s, moves the answer by {moved:+.6f} s "
              f"({secs:.1f} s to solve, {len(result.solution.values)} states)")
    verdict = "the bounds do not change the answer" if worst <= 1e-6 else \
        f"the bounds move the answer by at most {worst:.3f} s ({100 * worst / ref:.2f} %)"
    print(f"verdict: {verdict}")


def main(quick: bool = False) -> None:
    from designer.systems.dirt.dice import plan_search
    from designer.systems.dirt.dice import rollout

    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (other work slows every figure)")
    print(f"compiled roll-outs: {'yes' if rollout.KERNELS else 'no (numpy)'}; compiled plan search: "
          f"{'yes' if plan_search.COMPILED else 'no (Python)'} (built by pip install -e .)")
    longest = ROOT / "stages/dirt/rally-3/ss2.yaml"
    result, secs = solve_one(longest)
    print(f"rally-3 ss2 expected-time optimum: {secs:.2f} s wall, {result.extra_cache['cpu_seconds']:.2f} s CPU "
          f"(target <= 1 s); expected {result.seconds:.3f} s, ideal {result.ideal_seconds} s, "
          f"{len(result.solution.values)} states")
    t0, c0 = time.perf_counter(), time.process_time()
    runs = result.simulate(10_000, seed=1)
    print(f"10,000 simulated runs of rally-3 ss2: {time.perf_counter() - t0:.2f} s wall, "
          f"{time.process_time() - c0:.2f} s CPU (target <= 5 s); "
          f"mean {runs.mean:.2f} s, 95% CI {runs.ci95[0]:.2f}-{runs.ci95[1]:.2f}")
    if quick:
        return
    total = cpu = 0.0
    states = 0
    print(f"  {'stage':12s} {'CPU s':>6s} {'wall s':>6s} {'states':>6s} {'expected':>10s} {'ideal':>5s} "
          f"{'turns':>5s} {'loss':>5s} damage tracked (turns at the bound)")
    for path in sorted((ROOT / "stages/dirt").glob("rally-*/ss*.yaml")):
        result, secs = solve_one(path)
        total += secs
        cpu += result.extra_cache["cpu_seconds"]
        states += len(result.solution.values)
        print(f"  {path.parent.name + '/' + path.stem:12s} {result.extra_cache['cpu_seconds']:6.2f} {secs:6.2f} "
              f"{len(result.solution.values):6d} {result.seconds:10.3f} {result.ideal_seconds!s:>5s} "
              f"{result.stats.turns:5.1f} {100 * result.stats.loss_chance:4.0f}% "
              + " -> ".join(f"{d['max_damage']} ({d['turns_at_bound']:.2f})" for d in result.damage_steps))
    print(f"all 18 rulebook stages: {cpu:.1f} s CPU, {total:.1f} s wall (target: 10 s of CPU), {states} states")


def readings() -> None:
    """Each rulebook stage under the three readings of where a failed Big Attack loses control."""
    names = ("achievable", "as_laid", "latest")
    print(f"  {'stage':12s} " + " ".join(f"{n + ' s':>11s} {'CPU':>5s}" for n in names))
    cpu = dict.fromkeys(names, 0.0)
    for path in sorted((ROOT / "stages/dirt").glob("rally-*/ss*.yaml")):
        row = []
        for n in names:
            result, _secs = solve_one(path, n)
            assert result.model.reading == n
            cpu[n] += result.extra_cache["cpu_seconds"]
            row.append(f"{result.seconds:11.3f} {result.extra_cache['cpu_seconds']:5.1f}")
        print(f"  {path.parent.name + '/' + path.stem:12s} " + " ".join(row), flush=True)
    print("CPU over the 18 stages: " + ", ".join(f"{n} {cpu[n]:.1f} s" for n in names))


def damage(readings=("as_laid", "achievable")) -> None:
    """How the damage bound (max_damage) moves the answer, the CPU and the peak memory, one process each, under
    each reading of a failed Big Attack (as_laid, achievable)."""
    import json
    import subprocess

    code = ("import json, resource, sys; sys.path.insert(0, {root!r}); "
            "from benchmarks.bench_expected import solve_one; from pathlib import Path; "
            "r, s = solve_one(Path({path!r}), {reading!r}, max_damage={d}); "
            "print(json.dumps([r.seconds, r.extra_cache['cpu_seconds'], len(r.solution.values), "
            "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024]))")
    for reading in readings:
        for stage in ("rally-3/ss2", "rally-1/ss1"):
            path = ROOT / "stages/dirt" / f"{stage}.yaml"
            ref = ref_cpu = None
            for d in (1, 2, 3):
                out = subprocess.run([sys.executable, "-c", code.format(root=str(ROOT), path=str(path), d=d,
                                                                        reading=reading)],
                                     capture_output=True, text=True, check=True).stdout
                secs, cpu, states, mb = json.loads(out.strip().splitlines()[-1])
                ref = secs if ref is None else ref
                ref_cpu = cpu if ref_cpu is None else ref_cpu
                print(f"  {reading:10s} {stage} max_damage {d}: expected {secs:.3f} s ({secs - ref:+.3f}), "
                      f"{cpu:.2f} s CPU ({cpu - ref_cpu:+.2f}), {states} states, peak {mb:.0f} MB", flush=True)


def damage_all(bounds=(1, 2, 3)) -> None:
    """Every rulebook stage under the default reading with 1, 2 and 3 damage tokens tracked: the expected time,
    what each further token adds, and the CPU."""
    print(f"  {'stage':12s} " + " ".join(f"{f'{d} token(s)':>12s} {'adds':>6s} {'CPU':>5s}" for d in bounds))
    cpu = dict.fromkeys(bounds, 0.0)
    over = dict.fromkeys(bounds, 0)
    for path in sorted((ROOT / "stages/dirt").glob("rally-*/ss*.yaml")):
        row, before = [], None
        for d in bounds:
            result, _secs = solve_one(path, max_damage=d)
            cpu[d] += result.extra_cache["cpu_seconds"]
            adds = 0.0 if before is None else result.seconds - before
            over[d] += adds > 0.5
            before = result.seconds
            row.append(f"{result.seconds:12.3f} {adds:+6.2f} {result.extra_cache['cpu_seconds']:5.2f}")
        print(f"  {path.parent.name + '/' + path.stem:12s} " + " ".join(row), flush=True)
    print("CPU over the 18 stages: " + ", ".join(f"{d} token(s) {cpu[d]:.1f} s" for d in bounds))
    print("stages moved by more than 0.5 s by the last token added: "
          + ", ".join(f"{d} token(s) {over[d]}" for d in bounds[1:]))


if __name__ == "__main__":
    if "--bounds" in sys.argv:
        bounds()
    elif "--readings" in sys.argv:
        readings()
    elif "--damage-all" in sys.argv:
        damage_all()
    elif "--damage" in sys.argv:
        damage()
    else:
        main(quick="--quick" in sys.argv)
