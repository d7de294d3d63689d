"""Faces laid without a cell graph (the Rallyman: GT faces of the official editor's RX sample): the messages say
what the tileset knows of them, what lines and timing still need, and how a user supplies it; a tileset of the
user's own beside the stage, including a bundled tileset by name, gives them cells and the stage analyses."""
import pytest
import yaml

from designer.core.errors import DesignerError
from designer.systems.dirt.analysis import analyze
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.board.validate import validate
from designer.systems.dirt.io import import_file
from tests.test_io_copies import rgt

GT = ("118b", "119b", "126b", "137b")


def test_the_message_says_what_is_known_what_is_missing_and_how_to_supply_it():
    stage = import_file("rx-finland.rgt", rgt())
    p = next(p for p in validate(stage, get_tileset(stage.tileset)) if p.code == "no-cells")
    # what rekee's tile table gives, face by face
    assert "118b: road B-D, 2 lanes at B, 2 lanes at D, limits 4, 5, 5 with a hazard" in p.message
    assert "119b: road B-D, 2 lanes at B, 3 lanes at D, limits 2, 3" in p.message
    assert "126b: road D-E" in p.message and "skewed edge E (right)" in p.message
    assert "Missing: the spaces of each lane" in p.message and "which space carries which limit" in p.message
    assert "include: [official]" in p.hint and "tileset: my-tiles" in p.hint
    with pytest.raises(DesignerError) as err:
        analyze(assemble(stage, get_tileset(stage.tileset)), expected=False)
    assert "no cell graph for 118b, 119b, 126b, 137b" in err.value.message
    assert "include: [official]" in err.value.hint


def _road(ends, lanes):
    return [{"id": f"{'abc'[lane]}{k + 1}", "lane": lane, "span": [round(k / 3, 2), round((k + 1) / 3, 2)]}
            for lane in range(lanes) for k in range(3)]


def test_a_tileset_of_ones_own_gives_the_faces_cells(tmp_path):
    official = get_tileset("official")
    faces = {}
    for fid in GT:          # cells of our own invention for the test: two lanes, three spaces each
        face = official.tiles[fid]
        ends = list(face.links[0])
        faces[fid] = {"terrain": "asphalt", "edges": {e: 2 for e in ends}, "links": [ends], "ends": ends,
                      "turn": "left", "cells": _road(ends, 2), "slides": []}
    (tmp_path / "my-tiles.yaml").write_text(yaml.safe_dump({"tileset": "my-tiles", "include": ["official"],
                                                            "tiles": faces}))
    stage = import_file("rx-finland.rgt", rgt()).model_copy(update={"tileset": "my-tiles"})
    ts = get_tileset(stage.tileset, near=tmp_path)
    assert "403a" in ts.tiles and ts.tiles["118b"].has_cells
    result = analyze(assemble(stage, ts), expected=False)
    assert result["fastest_line"]["turns"] > 0 and result["laps"]["joker_route"]


def test_an_include_that_is_nowhere_is_named(tmp_path):
    (tmp_path / "mine.yaml").write_text(yaml.safe_dump({"tileset": "mine", "include": ["no-such-box"],
                                                        "tiles": {}}))
    with pytest.raises(DesignerError) as err:
        get_tileset(str(tmp_path / "mine.yaml"))
    assert "no-such-box not found in this folder nor among the tilesets" in str(err.value)


def test_a_joker_lap_past_the_last_lap_is_warned():
    from tests.conftest import ROOT

    stage = load_stage(ROOT / "stages" / "dirt" / "expansions" / "rx-joker-demo.yaml")
    ts = get_tileset(stage.tileset)
    ok = {p.code for p in validate(stage.model_copy(update={"laps": 3, "joker_lap": 3}), ts)}
    assert "joker" in ok and "joker-lap" not in ok
    late = {p.code: p for p in validate(stage.model_copy(update={"laps": 3, "joker_lap": 5}), ts)}
    assert late["joker-lap"].severity == "warning" and "lap 3 is driven through the joker" in late["joker-lap"].message
