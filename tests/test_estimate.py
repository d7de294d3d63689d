"""Stage length, game time and table time."""
from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.driving.estimate import (GUIDANCE_MINUTES_PER_TILE, TABLE_TIME, TableTime, estimate,
                                                    fit_table_time, guidance_minutes, table_minutes)
from designer.systems.dirt.driving.lines import fastest_line, shortest_line

ROOT = Path(__file__).resolve().parent.parent
STAGES = sorted(ROOT.glob("stages/dirt/rally-*/ss*.yaml"))


def rulebook_tracks():
    tracks = []
    for path in STAGES:
        track = load_track(load_stage(path))
        missing = sorted({t.tile for t in track.missing_cells()})
        if missing:
            pytest.skip(f"{path}: cell graphs not encoded yet for {', '.join(missing)}")
        tracks.append((path, track))
    return tracks


def test_rulebook_stages_are_the_18():
    assert len(STAGES) == 18
    for path in STAGES:
        stage = load_stage(path)
        road = [t for t in stage.tiles if not t.tile.startswith("201")]
        assert 9 <= len(road) <= 14


def test_guidance_within_15_percent():
    """The formula reproduces the rulebook's 25 / 35 / 45 minutes for 10 / 14 / 18 tiles (2.5 min a road tile,
    4 players) within 15 % on each of the rulebook's own stages."""
    worst = 0.0
    for path, track in rulebook_tracks():
        est = estimate(track, players=4)
        assert est.road_tiles == len([t for t in track.tiles if t.face.role != "assistance"])
        want = GUIDANCE_MINUTES_PER_TILE * est.road_tiles
        assert est.guidance_minutes == want
        err = abs(est.table_minutes - want) / want
        worst = max(worst, err)
        assert err <= 0.15, f"{path}: {est.table_minutes:.1f} min vs {want} min"
    assert worst > 0.0


def test_fit_once():
    samples = []
    for _, track in rulebook_tracks():
        samples.append((len(track.road_tiles), len(fastest_line(track).turns)))
    params, err = fit_table_time(samples)
    assert err <= 0.15
    # the stored constants are no worse than 15 % either (they were fitted on these stages)
    worst = max(abs(table_minutes(turns, 4, tiles) - 2.5 * tiles) / (2.5 * tiles) for tiles, turns in samples)
    assert worst <= 0.15
    assert params.build_minutes_per_tile == TABLE_TIME.build_minutes_per_tile


def test_formula():
    assert guidance_minutes(10) == 25.0 and guidance_minutes(14) == 35.0 and guidance_minutes(18) == 45.0
    assert guidance_minutes(10, players=3) is None
    base = table_minutes(6, 4, 10)
    assert base == pytest.approx(TABLE_TIME.setup_minutes + 10 * TABLE_TIME.build_minutes_per_tile
                                 + 4 * 6 * TABLE_TIME.seconds_per_turn / 60)
    # one more player adds one player-turn per turn of the line; setup does not grow
    assert table_minutes(6, 5, 10) - base == pytest.approx(6 * TABLE_TIME.seconds_per_turn / 60)
    custom = TableTime(setup_minutes=0, build_minutes_per_tile=0, seconds_per_turn=60)
    assert table_minutes(5, 2, 99, custom) == 10


def synthetic(rows=20):
    g = nx.DiGraph()
    for r in range(rows):
        g.add_node(f"r{r}", index=r // 2, limit=2 if r == 12 else None, cut=None, jump=None, ford=False,
                   start=r == 0, finish=r == rows - 1, terrain="gravel")
    nx.add_path(g, [f"r{r}" for r in range(rows)], kind="straight")
    return g


def test_estimate_synthetic():
    g = synthetic()
    est = estimate(g, players=2)
    line = fastest_line(g)
    assert est.road_tiles == 10 and est.turns == len(line.turns)
    assert est.game_seconds == line.seconds and est.fastest_cells == line.length == 19
    assert est.shortest_cells == shortest_line(g).length == 19
    assert est.table_minutes == pytest.approx(table_minutes(est.turns, 2, 10))
    assert est.guidance_minutes is None
    data = json.loads(json.dumps(est.to_dict()))
    assert data["game_time"].count(":") == 1 and data["length_cells"]["fastest_line"] == 19


def test_estimate_real_stage():
    path, track = rulebook_tracks()[0]
    est = estimate(track)
    assert est.shortest_cells <= est.fastest_cells
    assert est.game_seconds >= est.turns * 10



def test_a_tile_driven_twice_is_built_once():
    """The crossing demo drives one RX tile twice: 10 placements, 9 road tiles on the table; the build time and
    the guidance count the 9, as the road book and `info` do."""
    from tests.conftest import ROOT

    track = load_track(load_stage(ROOT / "stages" / "dirt" / "expansions" / "rx-crossing-twice-demo.yaml"))
    assert len(track.road_tiles) == 10 and len(track.laid_road_tiles) == 9
    est = estimate(track, players=4)
    assert est.road_tiles == 9 and est.to_dict()["rulebook_guidance_minutes"] == 22.5
