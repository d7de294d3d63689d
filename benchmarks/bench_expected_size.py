"""How the expected time grows with the stage: CPU seconds and peak memory of one solve, each in a fresh process.

Stages: generated ones of 10, 40 and 60 road tiles (benchmarks/stages/, made by ``rally-designer generate``),
longer ones laid by repeating the 60-tile stage's road, and the RX demo circuit with more laps. A road longer than
the solver's cap (designer.systems.dirt.dice.expected_time.MAX_CELLS) is measured with the cap lifted, to show
why it is there. Prints one row per stage.

Run: .venv/bin/python benchmarks/bench_expected_size.py [--quick]   (--quick: 10 and 40 tiles only)
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAGES = ROOT / "benchmarks" / "stages"

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
import yaml
from designer.systems.dirt.board.stage import loads_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice import expected_time as E
E.MAX_CELLS = 10 ** 6
stage = loads_stage(sys.argv[2], "bench.yaml")
track = load_track(stage)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
c0 = time.process_time()
result = E.expected_time(track)
cpu = time.process_time() - c0
print(json.dumps({"cells": track.graph.number_of_nodes(), "cpu": cpu, "states": len(result.solution.values),
                  "seconds": result.seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "before_mb": before / 1024}))
"""


def stages(quick: bool):
    import yaml

    yield "generated 10 tiles", (STAGES / "generated-10.yaml").read_text()
    yield "generated 40 tiles", (STAGES / "generated-40.yaml").read_text()
    if quick:
        return
    text = (STAGES / "generated-60.yaml").read_text()
    yield "generated 60 tiles", text
    data = yaml.safe_load(text)
    tiles, middle = data["tiles"], data["tiles"][1:-1]
    for n in (100, 150):          # the road of the 60-tile stage driven again (the build sheet aside)
        data.update(tiles=[tiles[0]] + (middle * 3)[:n - 2] + [tiles[-1]], copies=9)
        yield f"repeated {n} tiles", yaml.safe_dump(data, sort_keys=False)
    rx = yaml.safe_load((ROOT / "stages/dirt/expansions/rx-circuit-demo.yaml").read_text())
    for laps in (1, 5, 10, 20):
        rx["laps"] = laps
        yield f"RX circuit {laps} laps", yaml.safe_dump(rx, sort_keys=False)


def main(quick: bool = False) -> None:
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (CPU seconds are what counts)")
    print(f"  {'stage':24s} {'cells':>5s} {'CPU s':>6s} {'peak MB':>7s} {'states':>7s} {'expected':>9s}")
    for name, text in stages(quick):
        run = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), text], capture_output=True, text=True)
        if run.returncode:
            print(f"  {name:24s} failed: {run.stderr.strip().splitlines()[-1]}")
            continue
        r = json.loads(run.stdout)
        print(f"  {name:24s} {r['cells']:5d} {r['cpu']:6.2f} {r['peak_mb']:7.0f} {r['states']:7d} {r['seconds']:9.3f}")
    print("targets: any stage within 30 CPU s and 1.5 GB; 40 tiles within 4x the CPU of 10 tiles and under 600 MB")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
