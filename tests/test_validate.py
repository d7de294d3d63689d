import pytest

from designer.systems.dirt.board.stage import Stage, load_stage
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.board.validate import boxes_needed, explain, footprint, is_valid, validate
from tests.conftest import STAGE_FILES


def codes(stage, ts):
    return {p.code for p in validate(stage, ts) if p.severity == "error"}


@pytest.mark.parametrize("path", STAGE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_rulebook_stages_are_clean(path, dirt):
    stage = load_stage(path)
    problems = validate(stage, dirt)
    assert [p for p in problems if p.severity != "info"] == []


def test_unknown_tile(dirt):
    problems = validate(Stage(tiles=["202a A", "299a D", "203a A"]), dirt)
    p = next(p for p in problems if p.code == "unknown-tile")
    assert p.tile == 1 and p.tile_id == "299a" and "rally-designer tiles" in p.hint


def test_both_faces_and_repeats(dirt):
    assert "tile-reused" in codes(Stage(tiles=["202a A", "205a D", "205b D", "203a A"]), dirt)
    assert "tile-reused" in codes(Stage(tiles=["202a A", "205a D", "205a D", "203a A"]), dirt)


def test_overlap(dirt):
    # Three left hairpins close a loop onto the start.
    stage = Stage(tiles=["202a A", "210a D", "211a D", "212a D", "213a D", "203a A"])
    assert "overlap" in codes(stage, dirt)


def test_start_and_finish(dirt):
    assert "no-start" in codes(Stage(tiles=["205a A", "203a A"]), dirt)
    assert "no-finish" in codes(Stage(tiles=["202a A", "205a A"]), dirt)
    assert not codes(Stage(tiles=["202a A", "205a A", "203a A", "201a D"]), dirt)
    assert "assistance-inside" in codes(Stage(tiles=["202a A", "201a D", "203a A"]), dirt)


def test_bad_entry_edge(dirt):
    problems = validate(Stage(tiles=["202a A", "205a B", "203a A"]), dirt)
    p = next(p for p in problems if p.code == "bad-edge")
    assert p.tile == 1 and "A, D" in p.message


def test_road_into_side_and_lanes(official):
    # A GT 3-lane straight after a DIRT 2-lane start.
    stage = Stage(tileset="official", tiles=["202a A", "103a A", "203a A"])
    assert "lanes-mismatch" in codes(stage, official)


def test_road_meets_a_tile_that_is_not_next(dirt):
    # Two hairpins bring the road back: it runs into the side of an earlier tile, or meets its road.
    assert "road-into-side" in codes(Stage(tiles=["202a A", "210a C", "211a C", "206a A", "203a A"]), dirt)
    assert "road-crossing" in codes(Stage(tiles=["202a A", "210a C", "211a C", "212a C", "203a A"]), dirt)


def test_size_advice(dirt):
    problems = validate(Stage(tiles=["202a A", "205a A", "203a A"]), dirt)
    assert any(p.code == "short-stage" and p.severity == "warning" for p in problems)


def test_is_valid_and_explain(dirt):
    good = Stage(tiles=["202a A", "205a A", "203a A"])
    assert is_valid(good, dirt) and explain(good, dirt) == "Valid stage"
    bad = Stage(tiles=["202a A", "205a A"])
    assert not is_valid(bad, dirt)
    assert "not a finish tile" in explain(bad, dirt)


def test_empty(dirt):
    assert codes(Stage(tiles=[]), dirt) == {"empty"}


def test_footprint_and_boxes(dirt):
    track = assemble(load_stage(STAGE_FILES[0]), dirt)
    fp = footprint(track, tile_cm=20)
    assert fp.tiles == 11 and fp.area_tiles == pytest.approx(11, rel=1e-6)
    assert fp.width_cm > 20 and fp.height_cm > 20
    assert footprint(track, tile_cm=40).width_cm == pytest.approx(2 * fp.width_cm, rel=1e-3)
    assert boxes_needed(load_stage(STAGE_FILES[0])) == ["DIRT Core Box"]
    assert boxes_needed(Stage(tiles=["202a A", "310a C", "103a A"])) == ["DIRT Core Box", "DIRT Monte Carlo (or 110%)", "GT Core Box"]


def test_an_unknown_tile_is_listed_first_and_the_road_problems_it_causes_say_so(dirt):
    stage = load_stage(STAGE_FILES[0])
    tiles = [dict(t) if isinstance(t, dict) else t for t in stage.model_dump()["tiles"]]
    tiles[1]["tile"] = tiles[1]["tile"][:3] + "x"
    broken = Stage(**dict(stage.model_dump(), tiles=tiles))
    problems = [p for p in validate(broken, dirt) if p.severity == "error"]
    assert len(problems) >= 2 and problems[0].code == "unknown-tile" and problems[0].tile == 1
    assert "exists as" in problems[0].hint
    for p in problems[1:]:
        assert p.code != "unknown-tile"
        assert "fix that tile first" in p.hint and "tile 2" in p.hint


def test_problems_before_an_unknown_tile_do_not_blame_it(dirt):
    stage = Stage(name="x", tileset="dirt-core", tiles=["210b C", "205a D", "999z A", "227a D"])
    problems = {p.code: p for p in validate(stage, dirt) if p.severity == "error"}
    assert "fix that tile first" not in problems["no-start"].hint           # a missing start does not follow
    assert "fix that tile first" in problems["open-road"].hint and "tile 3" in problems["open-road"].hint
