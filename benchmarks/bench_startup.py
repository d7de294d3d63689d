"""Start-up of the command line: what a user waits for when running one command.

Prints: the tileset's YAML read with the C parser (what the product uses) and with the pure-Python parser
(what it used before), then `rally-designer analyze --no-expected` (the lines, limits and times the command gave
before the expected time existed; the expected time has its own benchmark, bench_expected.py) and `validate` of one
rulebook stage (median of 7 runs, one process each: wall and CPU seconds), and `analyze --no-expected` of all 18
rulebook stages, one process each, one and two at a time; each with the command line's tileset cache off (a first
run) and on (every later run); and what a process costs before any work (the interpreter and the imports, the
floor under every figure of one process each). The machine's load average is printed: on a busy machine the
figures are slower.
Run: python benchmarks/bench_startup.py
"""
from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
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


def _run(path: Path, command: str = "analyze", env: dict | None = None) -> tuple[float, float]:
    """One command in a process of its own: (wall seconds, CPU seconds of that process)."""
    extra = ["--no-expected"] if command == "analyze" else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "designer", command, str(path), *extra], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter() - t, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _all(env: dict, jobs: int) -> float:
    """Wall seconds for every rulebook stage, one process each, ``jobs`` processes at a time."""
    t = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(lambda p: _run(p, env=env), STAGES))
    return time.perf_counter() - t


def _floor() -> None:
    """What a process costs before any work: the interpreter, networkx alone, and every import of `analyze`
    (median and least of 9 processes, CPU seconds)."""
    cases = {"python alone": "pass", "import networkx": "import networkx",
             "networkx, yaml, click, pydantic": "import networkx, yaml, click, pydantic",
             "every import of analyze": "import designer.cli, designer.systems.dirt.analysis, "
                                        "designer.systems.dirt.board.stage, designer.systems.dirt.board.tileset"}
    print("a process before any work (CPU):")
    for label, code in cases.items():
        cpu = []
        for _ in range(9):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        print(f"  {label}: median {statistics.median(cpu):.3f} s (min {min(cpu):.3f}); "
              f"x {len(STAGES)} processes {len(STAGES) * statistics.median(cpu):.1f} s")


def main() -> None:
    # as installed: scripts/setup.sh compiles the package (files changed since then would be compiled at each run
    # where PYTHONDONTWRITEBYTECODE is set)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "designer")], check=True,
                   stdout=subprocess.DEVNULL)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (other work slows every figure)")
    _yaml_figures()
    _floor()
    cache = tempfile.mkdtemp(prefix="rally-bench-cache-")
    kinds = {"tileset cache off (a first run)": dict(os.environ, RALLY_CACHE="off"),
             "tileset cache on (every later run)": dict(os.environ, RALLY_CACHE_DIR=cache)}
    try:
        _run(STAGES[0], env=kinds["tileset cache on (every later run)"])          # fills the cache
        for label, env in kinds.items():
            print(label)
            for command in ("validate", "analyze"):
                runs = [_run(STAGES[0], command, env) for _ in range(7)]
                wall, cpu = [w for w, _ in runs], [c for _, c in runs]
                print(f"  {command}{' --no-expected' if command == 'analyze' else ''} "
                      f"{STAGES[0].relative_to(ROOT)}: median {statistics.median(wall):.2f} s wall "
                      f"(min {min(wall):.2f}), {statistics.median(cpu):.2f} s CPU, over 7 processes")
            for jobs in (1, 2):
                print(f"  analyze --no-expected of all {len(STAGES)} rulebook stages, one process each, {jobs} at a "
                      f"time: {_all(env, jobs):.2f} s")
    finally:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
