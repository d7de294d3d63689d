"""Work kept on a cell graph (designer.core.scratch) dies with the graph: a solved stage, its road and its turn
graph are not kept alive by the caches that share them."""
from __future__ import annotations

import doctest
import gc
import pickle
import weakref

import designer.core.scratch
from designer.systems.dirt.board.stage import loads_stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.dice.expected_time import expected_time
from designer.systems.dirt.driving.lines import fastest_line
from tests.test_expected_dirt import DEMO


def demo_track():
    """A new track of the expected-time tests' demonstration stage (not the cached one)."""
    stage = loads_stage(DEMO, "demo.yaml")
    return assemble(stage, get_tileset(stage.tileset))


def test_doctests():
    assert doctest.testmod(designer.core.scratch).failed == 0


def test_a_solved_stage_dies_with_its_graph():
    track = demo_track()
    result = expected_time(track, ideal_seconds=1)
    assert expected_time(track, ideal_seconds=1) is result          # kept while the graph lives
    assert fastest_line(track) is not None
    gone = weakref.ref(result.model)
    graph = weakref.ref(track.graph)
    del track, result
    gc.collect()
    assert graph() is None and gone() is None


def test_a_pickled_graph_carries_none_of_its_work():
    track = demo_track()
    expected_time(track, ideal_seconds=1)
    data = pickle.dumps(track.graph)
    assert b"DirtModel" not in data
    assert len(data) < 200_000
