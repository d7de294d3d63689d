"""Start-up of the command line: what a user waits for when running one command.

Prints: the tileset's YAML read with the C parser (what the product uses) and with the pure-Python parser
(what it used before), then `rally-designer analyze --no-expected` (the lines, limits and times the command gave
before the expected time existed; the expected time has its own benchmark, bench_expected.py) and `validate` of one
rulebook stage (median of 5 runs, one process each), and `analyze --no-expected` of all 18 rulebook stages, one
process each. The machine's load average is printed: on a busy machine the figures are slower.
Run: python benchmarks/bench_startup.py
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
STAGES = sorted((ROOT / "stages" / "dirt").glob("rally-*/ss*.yaml"))


def _yaml_figures() -> None:
    from designer.core import yamlio

    text = (ROOT / "tilesets" / "dirt-core.yaml").read_text(encoding="utf-8")
    t = time.perf_counter()
    yamlio.loads(text, "dirt-core.yaml")
    fast = time.perf_counter() - t
    t = time.perf_counter()
    yaml.compose(text, Loader=yaml.SafeLoader)
    slow = time.perf_counter() - t
    print(f"dirt-core.yaml ({len(text) // 1024} kB): read with line numbers {fast * 1000:.0f} ms "
          f"(C parser: {getattr(yaml, '__with_libyaml__', False)}); pure-Python compose alone {slow * 1000:.0f} ms")


def _run(path: Path, command: str = "analyze") -> float:
    extra = ["--no-expected"] if command == "analyze" else []
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "designer", command, str(path), *extra], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def main() -> None:
    import os

    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    _yaml_figures()
    for command in ("validate", "analyze"):
        one = [_run(STAGES[0], command) for _ in range(5)]
        print(f"{command} {STAGES[0].relative_to(ROOT)}: median {statistics.median(one):.2f} s "
              f"(min {min(one):.2f}, max {max(one):.2f}) over 5 processes")
    t = time.perf_counter()
    for p in STAGES:
        _run(p)
    print(f"analyze --no-expected of all {len(STAGES)} rulebook stages, one process each: "
          f"{time.perf_counter() - t:.2f} s")


if __name__ == "__main__":
    main()
