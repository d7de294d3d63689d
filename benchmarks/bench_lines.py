"""Benchmark of the line searches (prints figures; not a test).

    /work/venv/bin/python benchmarks/bench_lines.py

1. The fastest line of the longest rulebook stage (most cells), in one process: the first search (cold: road
   index, turn memo and risk tables built from nothing), the median on freshly assembled tracks (nothing cached
   but the process-wide hazard tables), and again on the same track (turns cached per graph). Target: <= 0.5 s.
2. Synthetic straight-ish stages of 10, 20, 40, 80 road tiles built from dirt-core faces (straights, fast curves,
   a kink), or from a tiny synthetic tileset when the dirt-core faces have no cells yet: time per tile should stay
   roughly flat.
"""
from __future__ import annotations

import glob
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from designer.systems.dirt.analysis import analyze
from designer.systems.dirt.board.stage import Stage, load_stage  # noqa: E402
from designer.systems.dirt.board.tileset import Cell, Face, Tileset, get_tileset  # noqa: E402
from designer.systems.dirt.board.track import assemble, load_track  # noqa: E402
from designer.systems.dirt.driving.lines import fastest_line, speed_limits  # noqa: E402

PATTERN = ["204a A", "205a A", "227a B", "206a A", "222a B", "207a A", "231a A", "224a B"]


def timed(fn, repeat=1):
    out, times = None, []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return out, times


def synthetic_tileset() -> Tileset:
    def face(fid, rows, role=None, start=None, finish=None, limit=None):
        cells = [Cell(id=f"{'ab'[ln]}{k}", lane=ln, span=(k / rows, (k + 1) / rows),
                      limit=limit if k == rows // 2 else None)
                 for ln in range(2) for k in range(rows)]
        return Face(id=fid, terrain="gravel", edges={"A": 2, "D": 2}, links=[("A", "D")], role=role, ends=["A", "D"],
                    cells=cells, start_line=start, finish_line=finish)
    faces = [face("902a", 4, "start", start=0.5), face("903a", 4, "finish", finish=0.5), face("904a", 2),
             face("905a", 3), face("906a", 4, limit=4), face("907a", 3, limit=5)]
    return Tileset(name="bench", tiles={f.id: f for f in faces})


def synthetic_stage(n_tiles: int):
    ts = get_tileset("dirt-core")
    needed = {p.split()[0] for p in PATTERN} | {"202a", "203a"}
    if all(ts.face(f).has_cells for f in needed):
        middle = [PATTERN[i % len(PATTERN)] for i in range(n_tiles - 2)]
        return assemble(Stage(name=f"synthetic {n_tiles}", tiles=["202a A", *middle, "203a A"]), ts), "dirt-core faces"
    ts = synthetic_tileset()
    pattern = ["904a A", "905a A", "906a A", "907a A"]
    middle = [pattern[i % len(pattern)] for i in range(n_tiles - 2)]
    return assemble(Stage(name=f"synthetic {n_tiles}", tileset="bench",
                          tiles=["902a A", *middle, "903a A"]), ts), "synthetic tileset"


def main() -> None:
    print(f"python {sys.version.split()[0]}")
    tracks = []
    for path in sorted(glob.glob(str(ROOT / "stages" / "dirt" / "rally-*" / "ss*.yaml"))):
        track = load_track(load_stage(path))
        if track.has_cells:
            tracks.append((track.graph.number_of_nodes(), len(track.road_tiles), path, track))
    if tracks:
        cells, tiles, path, track = max(tracks)
        name = Path(path).relative_to(ROOT)
        stage = load_stage(path)
        t0 = time.perf_counter()
        line = fastest_line(track)
        cold = time.perf_counter() - t0

        def fresh(fn):
            """Time ``fn`` on a freshly assembled track (no cached road index or turn memo)."""
            times = []
            for _ in range(7):
                t = load_track(stage)
                t0 = time.perf_counter()
                fn(t)
                times.append(time.perf_counter() - t0)
            return statistics.median(times) * 1000

        _, again = timed(lambda: fastest_line(track), repeat=7)
        print(f"\nlongest rulebook stage: {name} ({tiles} road tiles, {cells} cells)")
        print(f"  fastest line: {line.seconds} s game time, {len(line.turns)} turns, {line.length} cells")
        print(f"  fastest_line, first call in the process:     {cold * 1000:7.1f} ms   (target <= 500 ms)")
        print(f"  fastest_line, fresh track, median of 7:      {fresh(fastest_line):7.1f} ms")
        print(f"  fastest_line max_risk=0.1, fresh track:      {fresh(lambda t: fastest_line(t, max_risk=0.1)):7.1f} ms")
        print(f"  speed_limits, fresh track:                   {fresh(speed_limits):7.1f} ms")
        print(f"  analyze (all of it, max_risk=0.1), fresh:    {fresh(lambda t: analyze(t, max_risk=0.1)):7.1f} ms")
        print(f"  fastest_line again on the same track:        {statistics.median(again) * 1000:7.1f} ms (cached turns)")
    else:
        print("\nno rulebook stage has cells yet: skipped the rulebook figure")

    print("\nsynthetic straight-ish stages (fastest line on a freshly assembled track, median of 3):")
    print(f"  {'tiles':>5} {'cells':>6} {'turns':>5} {'ms':>8} {'ms/tile':>8}  source")
    for n in (10, 20, 40, 80):
        times = []
        for _ in range(3):
            track, source = synthetic_stage(n)
            t0 = time.perf_counter()
            line = fastest_line(track)
            times.append(time.perf_counter() - t0)
        ms = statistics.median(times) * 1000
        print(f"  {n:>5} {track.graph.number_of_nodes():>6} {len(line.turns):>5} {ms:>8.1f} {ms / n:>8.2f}  {source}")


if __name__ == "__main__":
    main()
