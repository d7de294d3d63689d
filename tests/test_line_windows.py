"""Turn ends shared between roads by the window of road a turn sees (designer.systems.dirt.driving.windows): every end
of a turn lies in its window, and a line search that takes ends and turns found on other stages answers exactly what
the turn engine answers on its own."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.systems.dirt.analysis import analyze
from designer.systems.dirt.board.stage import Stage, load_stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble, load_track
from designer.systems.dirt.driving import lines
from designer.systems.dirt.driving.rules import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
RALLIES = sorted((ROOT / "stages" / "dirt").glob("rally-*/ss*.yaml"))


def _fresh_turns(track, leader=False, max_risk=None):
    """The turn graph of a track with nothing kept from other roads."""
    rules = lines._rules_for(track, None)
    return lines._Turns(track.graph, rules, leader, max_risk, lines._stage_surface(track))


def _check_every_state(track, leader=False, max_risk=None):
    turns = _fresh_turns(track, leader, max_risk)
    states = list(turns.explore())
    assert states
    for c, g, fin in states:
        if fin:
            continue
        engine_ends = turns.engine(c).ends(c, g)
        windows, _token = turns._windows[turns.pool(c)]
        assert windows.check(c, engine_ends), (c, g)          # every end in the window
        assert turns.ends(c, g) == engine_ends


@pytest.mark.parametrize("path", RALLIES[::3], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_end_lies_in_its_window_and_shared_ends_are_the_engines(path):
    track = load_track(load_stage(path))
    _check_every_state(track)
    _check_every_state(track, leader=True, max_risk=0.1)


def test_a_stage_after_an_edited_copy_is_analysed_as_alone():
    """Rally 3 SS2 analysed after a copy with tile 9 turned over (most windows shared, some not) gives the whole
    analysis it gives with nothing kept; so does the edited copy."""
    stage = load_stage(ROOT / "stages/dirt/rally-3/ss2.yaml")
    tiles = [p.short() for p in stage.tiles]
    tiles[8] = "213a D"
    edited = Stage(name="edited", tileset="dirt-core", tiles=tiles)
    ts = get_tileset("dirt-core")
    lines._SHARED.clear()
    alone = analyze(load_track(stage), expected=False)
    alone_edited = analyze(assemble(edited, ts), expected=False)
    lines._SHARED.clear()
    analyze(assemble(edited, ts), expected=False)
    assert analyze(load_track(stage), expected=False) == alone
    assert analyze(assemble(edited, ts), expected=False) == alone_edited
    assert alone["fastest_line"] != alone_edited["fastest_line"]


@pytest.mark.parametrize("name", ["rx-circuit-demo", "rx-joker-demo", "rx-crossing-twice-demo", "climb-demo",
                                  "tokens-demo", "ice-circuit-demo"])
def test_expansion_stages_circuits_and_junctions(name):
    track = load_track(load_stage(ROOT / f"stages/dirt/expansions/{name}.yaml"))
    if track.missing_cells():
        pytest.skip("faces without cells")
    _check_every_state(track)


def test_a_road_whose_links_go_back_shares_nothing():
    from designer.systems.dirt.driving.windows import Windows

    track = load_track(load_stage(ROOT / "stages/dirt/rally-1/ss1.yaml"))
    road = _fresh_turns(track).road
    assert Windows(road, 8).window(0) is not None
    road.margin, kept = 40, road.margin
    try:
        assert Windows(road, 8).window(0) is None
    finally:
        road.margin = kept


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_windows_hold_on_generated_stages(seed):
    from designer.systems.dirt import generate as G

    spec = G.Spec(tiles=(6, 9), candidates=2, seed=seed, terrains=("gravel", "asphalt", "snow"))
    ts = get_tileset(spec.tileset_name)
    inventory = G._inventory(spec, ts)
    stage = G._candidate(spec, ts, G._pools(spec, ts, inventory), inventory, 0)
    if stage is None:
        return
    track = assemble(stage, ts)
    if track.missing_cells() or track.errors:
        return
    _check_every_state(track)


def test_moves_in_a_turn_counts_the_red_zone_brake():
    from designer.systems.dirt.driving.windows import moves_in_a_turn

    rules = load_ruleset()
    pool = rules.pool("gravel")
    red = rules.with_options(red_zone=True)
    assert moves_in_a_turn(pool, rules) == pool.gear + pool.gas + pool.leader
    assert moves_in_a_turn(pool, red) == pool.gear + pool.gas + pool.leader + pool.brake


@pytest.mark.parametrize("path", RALLIES[1::4] + [ROOT / "stages/dirt/expansions/rx-joker-demo.yaml"],
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_states_that_can_finish_the_same_either_way(path):
    """Speed limits: on a road whose links all go forward the states that can still finish are found in one pass
    from the far end; following the finished states backwards finds the same ones."""
    track = load_track(load_stage(path))
    adj = _fresh_turns(track).explore()
    forward = lines._alive(adj, forward=True)
    assert forward == lines._alive(adj, forward=False)
    assert any(s[2] for s in forward) and len(forward) > len(adj) // 2
