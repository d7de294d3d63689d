"""Layouts that need more tiles than one box holds: the RX sample of the official editor lays both faces of 403 and
of 209 and four Rallyman: GT faces. The import says how many copies it is built with (``copies``), validation
passes with them and names the count without them, and the GT faces are reported as having no cells."""
import json

from click.testing import CliRunner

from designer.cli import main
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.validate import validate as validate_stage
from designer.systems.dirt.io import import_file
from designer.systems.dirt.io.layout import LayoutTile, copies_needed

# (X, Y, Orientation, TuileId) of the "RX Finland" sample saved by the official Windows editor
RX_FINLAND = [(54, 56, 4, "403A"), (54, 55, 1, "401A"), (53, 57, 1, "119b"), (54, 58, 2, "118b"),
              (55, 58, 0, "414B"), (54, 57, 0, "137b"), (55, 56, 3, "126b"), (55, 55, 4, "PODIUM"),
              (55, 59, 2, "206A"), (56, 59, 4, "209B"), (56, 60, 5, "402B"), (57, 58, 5, "208A"),
              (57, 59, 4, "209A"), (57, 60, 1, "204A"), (56, 61, 2, "410B"), (56, 58, 3, "403B")]


def rgt(tiles=RX_FINLAND, name="RX Finland") -> str:
    return json.dumps({"Name": name, "Tuiles": [{"X": x, "Y": y, "Orientation": o, "TuileId": t}
                                                 for x, y, o, t in tiles]})


def test_the_rx_sample_imports_with_two_copies_and_validates():
    stage = import_file("rx-finland.rgt", rgt())
    assert stage.copies == 2
    assert "tile 209 on 2 places (209a, 209b); tile 403 on 2 places (403a, 403b)" in stage.notes
    assert "`copies: 2`" in stage.notes
    problems = validate_stage(stage, get_tileset(stage.tileset))
    assert not [p for p in problems if p.severity == "error"], problems
    codes = {p.code for p in problems}
    assert {"circuit", "joker", "no-cells"} <= codes
    gt = next(p for p in problems if p.code == "no-cells")
    assert "118b, 119b, 126b, 137b" in gt.message and "no picture of a GT tile" in gt.message
    assert "a tileset of your own" in gt.hint


def test_one_box_is_refused_with_the_count_of_copies():
    stage = import_file("rx-finland.rgt", rgt()).model_copy(update={"copies": 1})
    reused = [p for p in validate_stage(stage, get_tileset(stage.tileset)) if p.code == "tile-reused"]
    assert sorted(p.tile_id for p in reused) == ["209b", "403b"]
    for p in reused:
        assert "needs 2 copies of tile" in p.message and "`copies: 2`" in p.hint
    assert "DIRT RX" in next(p.hint for p in reused if p.tile_id == "403b")


def test_a_tile_driven_by_two_roads_is_one_tile():
    # 414b is driven twice in the sample (its two roads): the import does not count it as two tiles
    stage = import_file("rx-finland.rgt", rgt())
    assert stage.tile_ids.count("414b") == 2 and "tile 414" not in stage.notes


def test_copies_needed_counts_places_not_faces():
    one = [LayoutTile("202a", (0, 0), 0), LayoutTile("205a", (1, 0), 0), LayoutTile("203a", (2, 0), 0)]
    assert copies_needed(one) == (1, "")
    three = one + [LayoutTile("205a", (3, 0), 0), LayoutTile("205b", (4, 0), 0)]
    n, note = copies_needed(three)
    assert n == 3 and "tile 205 on 3 places (205a, 205b)" in note and "copies of it" in note


def test_cli_import_then_validate(tmp_path):
    src = tmp_path / "rx-finland.rgt"
    src.write_text(rgt())
    out = tmp_path / "rx.yaml"
    r = CliRunner().invoke(main, ["import", str(src), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert load_stage(out).copies == 2
    r = CliRunner().invoke(main, ["validate", str(out)])
    assert r.exit_code == 0, r.output
    assert "valid" in r.output and "no picture of a GT tile" in r.output


def test_the_road_book_names_the_copies_and_the_faces_without_cells():
    from designer.systems.dirt.book.facts import stage_facts
    from designer.systems.dirt.book.roadbook import stage_roadbook

    stage = import_file("rx-finland.rgt", rgt())
    facts = stage_facts(stage)
    assert "DIRT RX × 2 (tile 403 laid on 2 places)" in facts.boxes
    assert "DIRT Core Box × 2 (tile 209 laid on 2 places)" in facts.boxes and "GT Core Box" in facts.boxes
    assert facts.fastest is None and facts.fastest_missing.startswith("faces 118b, 119b, 126b, 137b have no cell")
    assert "Rallyman: GT tiles" in facts.fastest_missing
    assert stage_roadbook(stage).startswith(b"%PDF")
