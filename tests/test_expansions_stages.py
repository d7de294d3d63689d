"""A stage from each expansion box validates and analyses; a tile with two roads may be driven twice;
imported layouts with the assistance tile and fillers validate; a wrong explicit entry edge is caught."""
import json

import pytest

from designer.systems.dirt.analysis import analyze
from designer.systems.dirt.board.stage import Placement, Stage, load_stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.board.validate import validate
from designer.systems.dirt.driving.lines import fastest_line
from designer.systems.dirt.io import export_stage, import_file
from tests.conftest import ROOT

EXPANSION_STAGES = sorted((ROOT / "stages" / "dirt" / "expansions").glob("*.yaml"))
BOXES = {"dirt-monte-carlo": range(301, 325), "dirt-rx": range(401, 416), "dirt-climb": (325, 326, 418, 419)}


def _errors(stage, ts):
    return [str(p) for p in validate(stage, ts) if p.severity == "error"]


def test_each_box_has_a_stage():
    used = {int(p.tile[:3]) for f in EXPANSION_STAGES for p in load_stage(f).tiles}
    for box, numbers in BOXES.items():
        assert used & set(numbers), f"no stage uses a tile of {box}"


@pytest.mark.parametrize("path", EXPANSION_STAGES, ids=lambda p: p.stem)
def test_expansion_stage_validates_and_analyses(path):
    stage = load_stage(path)
    ts = get_tileset(stage.tileset)
    assert _errors(stage, ts) == []
    track = assemble(stage, ts)
    assert track.has_cells
    result = analyze(track, expected=False)
    assert result["fastest_line"]["seconds"] > 0
    assert result["shortest_line"]["cells"] > 0
    assert "demo" in stage.name.lower()


def test_stage_changing_surface_keeps_each_cells_terrain():
    stage = load_stage(ROOT / "stages" / "dirt" / "expansions" / "climb-demo.yaml")
    g = assemble(stage, get_tileset(stage.tileset)).graph
    terrains = {d["tile"][:3]: d["terrain"] for _, d in g.nodes(data=True)}
    assert terrains["418"] == "asphalt" and terrains["202"] == "gravel"


def test_climb_marks_follow_the_driving_direction(official):
    # 418a falls from A to D: driven A->D its marks are descents, driven D->A ascents on the rows before.
    down = assemble(Stage(tiles=["202a A", "418a A", "203a A"]), official).graph
    up = assemble(Stage(tiles=["202a A", "418a D", "203a A"]), official).graph
    marks = lambda g: sorted((d["cell"], d["climb"]) for _, d in g.nodes(data=True) if d.get("climb"))  # noqa: E731
    assert {m for _, m in marks(down)} == {"down"} and {m for _, m in marks(up)} == {"up"}
    assert len(marks(down)) == len(marks(up)) == 4
    assert {c for c, _ in marks(down)} != {c for c, _ in marks(up)}


def test_a_tile_with_two_roads_is_driven_twice(official):
    stage = load_stage(ROOT / "stages" / "dirt" / "expansions" / "rx-crossing-twice-demo.yaml")
    codes = {p.code for p in validate(stage, official)}
    assert not codes & {"tile-reused", "overlap", "road-crossing"}
    track = assemble(stage, official)
    twice = [t for t in track.tiles if t.tile == "412a"]
    assert len(twice) == 2 and twice[0].hex == twice[1].hex and twice[0].rotation == twice[1].rotation
    assert twice[0].driven.road != twice[1].driven.road
    line = fastest_line(track)
    tiles = [track.graph.nodes[c]["index"] for c in line.cells]
    assert twice[0].index in tiles and twice[1].index in tiles


def test_the_same_road_twice_is_still_a_reuse(official):
    stage = load_stage(ROOT / "stages" / "dirt" / "expansions" / "rx-crossing-twice-demo.yaml")
    tiles = list(stage.tiles)
    tiles[8] = Placement(tile="412a", entry="B", exit="E")
    codes = {p.code for p in validate(stage.with_tiles(tiles), official)}
    assert codes & {"tile-reused", "overlap"}


def test_layout_with_assistance_and_fillers_imports_to_a_valid_stage(official):
    stage = load_stage(ROOT / "stages" / "dirt" / "rally-1" / "ss1.yaml")
    data = json.loads(export_stage(stage, "rgt", official)[0])
    xs = [t["X"] for t in data["Tuiles"]]
    ys = [t["Y"] for t in data["Tuiles"]]
    # Fillers of the copilot pack laid well away from the road, after the assistance tile in the file.
    for k, name in enumerate(["FILLER1A", "FILLER2B", "PODIUM"]):
        data["Tuiles"].append({"X": max(xs) + 3 + k, "Y": max(ys) + 3, "Orientation": 0, "TuileId": name})
    again = import_file("with-fillers.rgt", json.dumps(data))
    assert _errors(again, official) == []
    assert {"902a", "903b", "905a", "201a"} <= set(again.tile_ids)


def test_wrong_explicit_entry_on_a_positioned_tile_is_an_error(dirt):
    good = Stage(tiles=["202a A", "210b C", "203a A"])
    placed = assemble(good, dirt).tiles
    second = placed[1]
    wrong = "D" if second.entry == "C" else "C"
    bad = Stage(tiles=[Placement(tile="202a", entry="A"),
                       Placement(tile="210b", entry=wrong, at=second.hex, rotation=second.rotation),
                       Placement(tile="203a", entry="A")])
    problems = [p for p in validate(bad, dirt) if p.code == "bad-edge"]
    assert problems and "wrong way" in problems[0].message
    ok = Stage(tiles=[Placement(tile="202a", entry="A"),
                      Placement(tile="210b", entry=second.entry, at=second.hex, rotation=second.rotation),
                      Placement(tile="203a", entry="A")])
    assert not [p for p in validate(ok, dirt) if p.code == "bad-edge"]


def test_a_tile_driven_twice_survives_export_and_import(official):
    from designer.systems.dirt.io.rgt import export_rgt, import_rgt

    stage = load_stage(ROOT / "stages" / "dirt" / "expansions" / "rx-crossing-twice-demo.yaml")
    text = export_rgt(stage, official)
    assert [t["TuileId"] for t in json.loads(text)["Tuiles"]].count("412A") == 1   # one tile on the table
    again = import_rgt(text, official)
    assert [p.tile for p in again.tiles].count("412a") == 2
    assert _errors(again, official) == []
    assert assemble(again, official).graph.number_of_nodes() == assemble(stage, official).graph.number_of_nodes()


def test_a_road_running_into_an_earlier_tile_is_an_error(official):
    stage = load_stage(ROOT / "stages" / "dirt" / "expansions" / "rx-crossing-twice-demo.yaml")
    # Without the second drive of 412a, the road of 225b runs into 412a's other road: not the next tile.
    broken = stage.with_tiles(stage.tiles[:8] + [Placement(tile="203a", at=(-5, 5), rotation=0)])
    assert "road-crossing" in {p.code for p in validate(broken, official)}


def test_a_stage_that_changes_surface_uses_each_terrains_column():
    from designer.systems.dirt.driving.rules import load_ruleset

    stage = load_stage(ROOT / "stages" / "dirt" / "expansions" / "climb-demo.yaml")
    track = assemble(stage, get_tileset(stage.tileset))
    rules = load_ruleset()
    base = fastest_line(track, rules)
    # Fewer gear dice on asphalt only: the asphalt Climb tiles slow the car, the gravel ones do not change.
    columns = {k: v.model_dump() for k, v in rules.dashboards.items()}
    columns["asphalt"] = dict(columns["asphalt"], gear=2, gas=0)
    slow = fastest_line(track, rules.replace(dashboards=columns))
    assert slow.seconds > base.seconds
    columns["asphalt"] = rules.dashboards["asphalt"].model_dump()
    columns["gravel"] = dict(columns["gravel"], gear=2, gas=0)
    assert fastest_line(track, rules.replace(dashboards=columns)).seconds > base.seconds
