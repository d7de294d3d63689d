"""Server-side time from an edit to the redrawn page of the Streamlit app, on an 18-tile stage.

Each edit is a click in Streamlit's own test harness (``streamlit.testing.v1.AppTest``): the callback
that changes the stage, then the run that assembles, validates and draws what the edit changes (on the
Design tab the header, the map and the checks; the palette and the sidebar are not drawn again). The
browser's share is measured by ``bench_app_browser.py``. That is the work the server does between receiving a click and sending the
page; the browser's drawing and the network are not counted. The harness adds its own small cost (it
parses the page it receives), so the figures are an upper bound.

    python benchmarks/bench_app.py [--repeat 15] [--tab Design|Analysis]

Target: at most 0.5 s per edit on the Design tab. On the Analysis tab the cache of analyses is emptied
before every edit, so each figure includes computing the fastest, safe and shortest lines afresh.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# An 18-tile valid stage (start, 15 road tiles, finish, assistance) built from the DIRT core box.
STAGE_18 = ["202a A", "230b B", "216a D", "214a D", "205b D", "211b C", "217a D", "222a B", "207b A", "231b D",
            "208b D", "228a D", "224a D", "209a B", "213a C", "223b D", "203a A", "201a D"]


def _app(tab: str):
    from streamlit.testing.v1 import AppTest

    from designer.app.dirt import editing
    from designer.systems.dirt.board.stage import Stage

    at = AppTest.from_file(str(ROOT / "designer" / "app" / "main.py"), default_timeout=120)
    at.run()
    stage = Stage(name="Benchmark stage (18 tiles)", tiles=STAGE_18)
    at.session_state["stage"] = stage
    at.session_state["history"] = editing.History()
    at.session_state["rally_slot"] = None
    at.session_state["selected"] = 8
    at.session_state["sel_box"] = 8
    at.session_state["dirt_view"] = tab
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.session_state["stage"].tiles) == 18
    return at


def _button(at, key):
    for b in at.button:
        if b.key == key:
            return b
    raise KeyError(key)


def _timed(at, action) -> float:
    before = at.session_state["stage"]
    action(at)
    t0 = time.perf_counter()
    at.run()
    dt = time.perf_counter() - t0
    if at.exception:
        raise RuntimeError([e.value for e in at.exception])
    if at.session_state["stage"] == before:
        raise RuntimeError("the edit did not change the stage")
    at.run()        # untimed: a Design edit redraws only the parts it changes; this gives the harness the whole page
    return dt


EDITS = {
    # name: (action before the run, action that restores the stage)
    "drive the other way": lambda at: _button(at, "act_reverse").click(),
    "undo": lambda at: _button(at, "undo").click(),
    "remove tile 9": lambda at: _button(at, "act_remove").click(),
    "insert a tile": lambda at: _button(at, "pal_206a_AD").click(),
}


def run(repeat: int, tab: str) -> dict[str, list[float]]:
    at = _app(tab)
    results: dict[str, list[float]] = {k: [] for k in EDITS}
    if tab != "Design":
        results = {"drive the other way": [], "undo": []}
    for _ in range(repeat):
        if tab == "Design":
            at.session_state["palette_mode"] = "after"
            at.session_state["selected"] = 8
            at.session_state["sel_box"] = 8
            at.run()
            results["drive the other way"].append(_timed(at, EDITS["drive the other way"]))
            results["undo"].append(_timed(at, EDITS["undo"]))
            results["remove tile 9"].append(_timed(at, EDITS["remove tile 9"]))
            _timed(at, EDITS["undo"])
            at.session_state["selected"] = 8
            at.session_state["sel_box"] = 8
            at.run()
            results["insert a tile"].append(_timed(at, EDITS["insert a tile"]))
            _timed(at, EDITS["undo"])
        else:
            at.session_state["selected"] = 8
            at.session_state["sel_box"] = 8
            at.session_state["stage"] = at.session_state["stage"]
            # The Analysis tab has no tile actions: edit through the session state and the undo button.
            from designer.app.dirt import editing
            from designer.systems.dirt.board.tileset import get_tileset
            stage = at.session_state["stage"]
            new = editing.reverse_tile(stage, get_tileset("dirt-core"), 1)
            at.session_state["history"] = editing.record(at.session_state["history"], stage, new)
            at.session_state["stage"] = new
            from designer.app.dirt import analysis_view
            analysis_view.cached_analysis.clear()      # an edit the cache has not seen: lines computed afresh
            t0 = time.perf_counter()
            at.run()
            results["drive the other way"].append(time.perf_counter() - t0)
            analysis_view.cached_analysis.clear()
            results["undo"].append(_timed(at, EDITS["undo"]))
        assert len(at.session_state["stage"].tiles) == 18
    return results


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--tab", choices=["Design", "Analysis"], default="Design")
    args = ap.parse_args(argv)
    results = run(args.repeat, args.tab)
    everything = [x for v in results.values() for x in v]
    print(f"Edit -> redrawn page, server side, 18-tile stage, {args.tab} tab ({args.repeat} rounds):")
    for name, xs in results.items():
        xs = sorted(xs)
        print(f"  {name:22} median {statistics.median(xs) * 1000:6.0f} ms   "
              f"p90 {xs[int(0.9 * (len(xs) - 1))] * 1000:6.0f} ms   max {xs[-1] * 1000:6.0f} ms")
    everything.sort()
    med = statistics.median(everything)
    p90 = everything[int(0.9 * (len(everything) - 1))]
    print(f"  {'all edits':22} median {med * 1000:6.0f} ms   p90 {p90 * 1000:6.0f} ms   "
          f"max {everything[-1] * 1000:6.0f} ms   (target: at most 500 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
