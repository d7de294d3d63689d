"""Batch on several processes: the same figures as on one and as `analyze`, the longest jobs handed out first, the
workers on the caller's disk cache, and a guess of each file's cost that never fails."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.batch import analyse_all
from designer.batch.cost import guess, guess_text
from designer.core import diskcache, parallel

ROOT = Path(__file__).resolve().parent.parent
STAGES = ROOT / "stages"
# quick stages of three games, the expected time included (about 2 CPU seconds in all)
QUICK_FILES = [STAGES / "dirt" / "demo" / "215b-cut-middle-cut.yaml", STAGES / "dirt" / "expansions" / "tokens-demo.yaml",
               STAGES / "dirt" / "rally-1" / "rally.yaml", STAGES / "greatrace" / "demo-race-3.yaml",
               STAGES / "classic" / "es1-demo.yaml"]


def test_two_processes_give_the_rows_of_one_and_of_analyze():
    usage: list = []
    one = analyse_all(QUICK_FILES, jobs=1, thumbnails=False)
    two = analyse_all(QUICK_FILES, jobs=2, thumbnails=False, usage=usage)
    assert one == two
    assert sorted(u["index"] for u in usage) == list(range(len(QUICK_FILES)))
    assert len({u["pid"] for u in usage}) <= 2 and os.getpid() not in {u["pid"] for u in usage}
    from designer.cli import main

    dirt = [r for r in two if r["system"] == "dirt"]
    assert len(dirt) == 2 and all(isinstance(r["expected_seconds"], float) for r in dirt)
    for row in dirt:
        out = CliRunner().invoke(main, ["analyze", row["file"], "--json"])
        assert out.exit_code == 0, out.output
        expected = json.loads(out.output)["expected"]
        assert row["expected_seconds"] == expected["expected_seconds"]
        assert row["loss_of_control"] == expected["loss_of_control_chance"]


def _started(seconds: float) -> float:
    start = time.monotonic()
    time.sleep(seconds)
    return start


def test_the_costliest_job_is_handed_out_first():
    waits = [0.2] * 6 + [0.6]
    cost = [1.0] * 6 + [9.0]
    starts = parallel.run(_started, waits, jobs=2, cost=cost)
    # handed out first, beside one other: no more than that one starts before it (a job lasts long enough that a
    # worker paused by a busy machine between taking a job and starting its clock does not change the order)
    assert sum(s < starts[-1] for s in starts[:-1]) <= 1


def _cache_folder(_item) -> str | None:
    return str(diskcache.folder()) if diskcache.enabled() else None


def test_workers_use_the_callers_disk_cache(tmp_path):
    try:
        diskcache.enable(tmp_path / "cache")
        mine = str(diskcache.folder())
        assert set(parallel.run(_cache_folder, range(4), jobs=2)) == {mine}
        diskcache.disable()
        assert set(parallel.run(_cache_folder, range(4), jobs=2)) == {None}     # off here, off there
    finally:
        diskcache.disable()


def test_a_guess_never_fails_and_ranks_the_long_stage_first(tmp_path):
    from designer.batch import stage_files

    files = stage_files([STAGES])
    ranked = sorted(files, key=guess, reverse=True)
    assert ranked[0].endswith("rx-joker-demo.yaml")
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefgh", "bcdefghi"))
    weird = {"bomb.yaml": bomb + "tiles: *i\nroute: *i\n", "binary.yaml": b"\x00\xff\xfe" * 1000,
             "huge.yaml": "tiles: [" + "202a A, " * 20_000 + "]\n", "list.yaml": "- 1\n- 2\n",
             "deep.yaml": "[" * 5000 + "]" * 5000}
    for name, text in weird.items():
        path = tmp_path / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        start = time.process_time()
        value = guess(path)
        assert isinstance(value, float) and value >= 0 and time.process_time() - start < 2, name
    assert guess(tmp_path / "missing.yaml") == guess_text("[")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(-1000, 1000), st.floats(0, 100, allow_nan=False)), max_size=12))
def test_any_costs_give_the_results_in_the_items_order(pairs):
    items, cost = [p[0] for p in pairs], [p[1] for p in pairs]
    usage: list = []
    assert parallel.run(abs, items, jobs=2, cost=cost, usage=usage) == [abs(x) for x in items]
    assert sorted(u["index"] for u in usage) == list(range(len(items)))


def test_workers_never_run_the_callers_main_script(tmp_path, monkeypatch):
    """A caller whose main script is not the command line's (a test runner's, an app page that runs a batch): the
    workers and the fork server start without running it (they used to run it by its path and stop)."""
    import sys
    import types

    from designer.core import parallel_pool

    script = tmp_path / "page.py"
    marker = tmp_path / "ran"
    script.write_text(f"open({str(marker)!r}, 'w').write('ran')\nraise SystemExit('a page script, not a worker')\n")
    fake = types.ModuleType("__main__")
    fake.__file__ = str(script)
    parallel_pool.shutdown()                 # a new pool and fork server, started under this main script
    monkeypatch.setitem(sys.modules, "__main__", fake)
    try:
        assert parallel.run(_started, [0.0] * 4, jobs=2) and len(parallel.run(abs, [-1, -2, 3], jobs=2)) == 3
    finally:
        parallel_pool.shutdown()
    assert not marker.exists()
