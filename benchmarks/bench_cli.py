"""Wall-clock figures of the command line on the 18 rulebook stages (printed, not a test).

Run: python benchmarks/bench_cli.py
"""
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGES = sorted(str(p) for p in (ROOT / "stages" / "dirt").glob("rally-*/ss*.yaml"))
CLI = [sys.executable, "-m", "designer"]


def wall(cmd) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return time.perf_counter() - t


def main() -> None:
    print(f"python {sys.version.split()[0]}, {len(STAGES)} rulebook stages")
    one = [wall(CLI + ["analyze", "--json", *STAGES]) for _ in range(3)]
    print(f"  analyze --json, all stages in one process:   {statistics.median(one):6.2f} s  (target <= 10 s)")
    t = time.perf_counter()
    for s in STAGES:
        subprocess.run(CLI + ["analyze", "--json", s], check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    print(f"  analyze --json, one process per stage:       {time.perf_counter() - t:6.2f} s")
    v = [wall(CLI + ["validate", *STAGES]) for _ in range(3)]
    print(f"  validate, all stages in one process:         {statistics.median(v):6.2f} s")


if __name__ == "__main__":
    main()
