"""Import and export of foreign track formats: the Rallyman Track Editor (.rgt) and rekee JSON."""
import doctest
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import designer.systems.dirt.io
import designer.systems.dirt.io.layout
import designer.systems.dirt.io.rekee
import designer.systems.dirt.io.rgt
from designer.core import hexgrid
from designer.core.errors import DesignerError
from designer.systems.dirt.board.stage import Stage, dumps_stage, load_stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble, driving_order
from designer.systems.dirt.board.validate import validate
from designer.systems.dirt.io import export_stage, import_file
from designer.systems.dirt.io.rekee import export_rekee, from_rekee, import_rekee, to_rekee
from designer.systems.dirt.io.rgt import export_rgt, from_offset, import_rgt, rgt_tile_id, to_offset
from tests.conftest import STAGE_FILES

DATA = Path(__file__).resolve().parent / "data"
ROAD_ERRORS = {"road-into-side", "open-road", "overlap", "road-crossing", "lanes-mismatch", "bad-edge"}
# The hand-made sample (tests/data/hairpin-4.*): worked out by hand from rekee's conversion and its edge tables,
# not with this package. 202A at the editor's (55, 52) runs D into 205A, whose D leads into 210A's D; 210A turns
# through C into 203A's A, and 203A's D is the open finish.
HAIRPIN = ["202a A", "205a A", "210a D", "203a A"]


def _codes(stage, tileset=None):
    tileset = tileset or get_tileset(stage.tileset)
    return [p.code for p in validate(stage, tileset) if p.severity != "info"]


def _key(stage):
    return [(p.tile, p.entry, p.exit) for p in stage.tiles]


# -- the 18 rulebook stages ---------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["rgt", "rekee"])
@pytest.mark.parametrize("path", STAGE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_rulebook_stage_round_trip(path, fmt, official):
    stage = load_stage(path)
    text = export_rgt(stage) if fmt == "rgt" else export_rekee(stage)
    back = import_rgt(text, official) if fmt == "rgt" else import_rekee(text, official)
    # Same tiles, same order, same entry edges, short form, same orientation on the table.
    assert back.tiles == stage.tiles
    assert back.start_rotation == stage.start_rotation
    assert back.name == stage.name
    assert back.tileset == "dirt-core"
    # Road edges still meet road edges: no error and no warning at all.
    assert not set(_codes(back)) & ROAD_ERRORS
    assert _codes(back) == []
    # The very same hexes and rotations as the original assembly (up to where the layout sits).
    a = assemble(stage, official).tiles
    b = assemble(back, official).tiles
    assert [(t.hex, t.rotation) for t in a] == [(t.hex, t.rotation) for t in b]


@pytest.mark.parametrize("fmt", ["rgt", "rekee", "yaml"])
def test_export_stage_then_import_file(fmt):
    for path in STAGE_FILES:
        stage = load_stage(path)
        data, name, mime = export_stage(stage, fmt)
        assert isinstance(data, bytes) and name.startswith(path.parent.name)
        assert mime in ("application/json", "application/x-yaml")
        back = import_file(name, data)
        assert _key(back) == _key(stage), path


@settings(max_examples=30, deadline=None)
@given(index=st.integers(0, len(STAGE_FILES) - 1), turn=st.integers(0, 5), fmt=st.sampled_from(["rgt", "rekee"]))
def test_round_trip_keeps_any_orientation(index, turn, fmt):
    stage = load_stage(STAGE_FILES[index]).model_copy(update={"start_rotation": turn})
    text = export_rgt(stage) if fmt == "rgt" else export_rekee(stage)
    back = import_rgt(text) if fmt == "rgt" else import_rekee(text)
    assert back.tiles == stage.tiles
    assert back.start_rotation == turn


def test_a_mirrored_layout_would_break_the_road(official):
    # The check above has teeth: mirror the layout (left-right) and the roads no longer meet.
    stage = load_stage(STAGE_FILES[0])
    track = assemble(stage, official)
    mirrored = [(t.tile, (-t.hex[0], t.hex[0] + t.hex[1]), t.rotation) for t in track.tiles]
    order = driving_order(mirrored, official)
    bad = Stage(name="mirror", tiles=order)
    assert set(_codes(bad, official)) & ROAD_ERRORS


# -- the real formats ---------------------------------------------------------------------

def test_exported_rgt_has_the_editor_layout():
    stage = load_stage(STAGE_FILES[0])
    data = json.loads(export_rgt(stage))
    assert list(data) == ["Path", "Name", "Orientation", "Tuiles", "lowResWidth", "lowResHeight"]
    assert data["Name"] == stage.name
    assert len(data["Tuiles"]) == len(stage.tiles)
    for t, p in zip(data["Tuiles"], stage.tiles):
        assert set(t) == {"X", "Y", "Orientation", "TuileId"}
        assert all(isinstance(t[k], int) for k in ("X", "Y", "Orientation"))
        assert 0 <= t["Orientation"] <= 5
        assert t["TuileId"] == p.tile.upper()         # DIRT tiles are written in upper case
        assert 0 < t["X"] < 110 and 0 < t["Y"] < 110  # near the middle of the editor's board (55, 52)


def test_exported_rekee_has_rekee_layout():
    stage = load_stage(STAGE_FILES[0]).model_copy(update={"notes": "Author: Jo"})
    data = json.loads(export_rekee(stage))
    assert list(data) == ["title", "author", "orientation", "tiles"]
    assert data["author"] == "Jo" and data["orientation"] == "flat"
    for t, p in zip(data["tiles"], stage.tiles):
        assert list(t) == ["q", "r", "id", "dir"]
        assert t["id"] == p.tile


def test_hand_made_rgt_sample(official):
    stage = import_file("hairpin-4.rgt", (DATA / "hairpin-4.rgt").read_bytes())
    assert [p.short() for p in stage.tiles] == HAIRPIN
    assert stage.name == "Hairpin test"
    assert stage.tileset == "dirt-core"
    assert "Author: Test Author" in stage.notes
    water = stage.tiles[1].tokens
    assert [(t.kind, t.terrain, t.at) for t in water] == [("water", "gravel", (0.0, 0.0))]
    codes = _codes(stage)
    assert not set(codes) & ROAD_ERRORS
    assert codes == ["short-stage"]          # a valid stage, only shorter than the rulebook's
    # Our coordinates of the sample, from the editor's offset ones.
    by_tile = {t.tile: t for t in assemble(stage, official).tiles}
    assert hexgrid.neighbour(by_tile["202a"].hex, by_tile["202a"].world_exit) == by_tile["205a"].hex


def test_hand_made_rekee_sample_is_the_same_stage():
    a = import_file("hairpin-4.rgt", (DATA / "hairpin-4.rgt").read_bytes())
    b = import_file("hairpin-4.json", (DATA / "hairpin-4.json").read_bytes())
    assert b.tiles == a.tiles and b.start_rotation == a.start_rotation
    assert [(t.kind, t.terrain) for t in b.tiles[1].tokens] == [("water", "gravel")]
    # And export gives back the sample's positions (up to centring on the board).
    exported = json.loads(export_rgt(a))["Tuiles"]
    sample = json.loads((DATA / "hairpin-4.rgt").read_text())["Tuiles"]
    want = {t["TuileId"]: (from_offset(t["X"], t["Y"]), t["Orientation"]) for t in sample}
    got = {t["TuileId"]: (from_offset(t["X"], t["Y"]), t["Orientation"]) for t in exported}
    shift = (want["202A"][0][0] - got["202A"][0][0], want["202A"][0][1] - got["202A"][0][1])
    assert {k: ((h[0] + shift[0], h[1] + shift[1]), r) for k, (h, r) in got.items()} == want


def test_offset_conversion_matches_rekee():
    # rekee src/import.rs, test export_rgt_short_track: rekee axial (q, r) -> the editor's (X, Y).
    pairs = [((0, 1), (54, 53)), ((1, 1), (53, 53)), ((0, 0), (55, 52)), ((1, 0), (54, 52)), ((2, -1), (53, 51)),
             ((-1, 0), (56, 52)), ((2, 0), (53, 52)), ((-1, -1), (56, 51)), ((-2, 0), (57, 52)),
             ((-1, 1), (55, 53)), ((-2, 1), (56, 53))]
    for rekee_pos, xy in pairs:
        assert to_offset(*from_rekee(*rekee_pos)) == xy
        assert to_rekee(*from_offset(*xy)) == rekee_pos


def test_rekee_directions_are_our_edges():
    # rekee src/hexagon.rs Coordinate::neighbor, directions A..F, in our axial coordinates.
    rekee_steps = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
    assert [from_rekee(*d) for d in rekee_steps] == list(hexgrid.DIRECTIONS)


def test_gt_circuit_saved_by_the_official_editor(official):
    # The tiles of rekee's test file src/tests/short-track2.rgt (a GT circuit saved by the official editor):
    # a closed loop, so every road edge must meet the next tile's road.
    tuiles = [(54, 53, 0, "102b"), (53, 53, 2, "106b-2"), (55, 52, 0, "116b-2"), (54, 52, 2, "117b-2"),
              (53, 51, 5, "111b-2"), (56, 52, 0, "125b-1"), (53, 52, 1, "112b-1"), (56, 51, 3, "128b"),
              (57, 52, 3, "138b-1"), (55, 53, 0, "104b-2"), (56, 53, 3, "105b-1")]
    text = json.dumps({"Name": "ShortTrack2", "Tuiles": [{"X": x, "Y": y, "Orientation": o, "TuileId": i}
                                                         for x, y, o, i in tuiles]})
    stage = import_rgt(text, official)
    assert len(stage.tiles) == 11 and all(p.at is None for p in stage.tiles)   # one road through all tiles
    codes = _codes(stage, official)
    assert "road-into-side" not in codes and "open-road" not in codes and "overlap" not in codes
    # The loop closes on its start-finish tile: a circuit, not a road that crosses itself.
    assert "road-crossing" not in codes and "no-finish" not in codes
    assert "circuit" in [p.code for p in validate(stage, official)]


# -- tiles ----------------------------------------------------------------------------------

def test_tile_ids():
    text = json.dumps({"Tuiles": [{"X": 55, "Y": 52, "Orientation": 0, "TuileId": "PODIUM"},
                                  {"X": 55, "Y": 54, "Orientation": 0, "TuileId": "106b-2"},
                                  {"X": 55, "Y": 56, "Orientation": 0, "TuileId": "FILLER1B"},
                                  {"X": 55, "Y": 58, "Orientation": 0, "TuileId": "103a1"}]})
    assert sorted(import_rgt(text).tile_ids) == ["103a", "106b", "902b", "905a"]
    assert rgt_tile_id("905a") == "PODIUM" and rgt_tile_id("203b") == "203B" and rgt_tile_id("102a") == "102a"


def test_unknown_tiles_are_kept_for_validation():
    text = json.dumps({"Name": "x", "Tuiles": [{"X": 55, "Y": 52, "Orientation": 0, "TuileId": "202A"},
                                               {"X": 56, "Y": 52, "Orientation": 0, "TuileId": "999Z"}]})
    stage = import_rgt(text)
    assert stage.tile_ids == ["202a", "999z"]
    assert stage.tiles[1].at is not None
    assert "unknown-tile" in _codes(stage, get_tileset("official"))
    with pytest.raises(DesignerError, match="999z"):
        export_rgt(Stage(tiles=["202a A", "999z D"]))


def test_second_tile_on_one_place_is_kept():
    text = json.dumps({"Tuiles": [{"X": 55, "Y": 52, "Orientation": 0, "TuileId": "202A"},
                                  {"X": 55, "Y": 52, "Orientation": 3, "TuileId": "205A"}]})
    stage = import_rgt(text)
    assert stage.tile_ids == ["202a", "205a"]
    assert "overlap" in _codes(stage, get_tileset("official"))


def test_stray_tile_keeps_its_position():
    rows = [{"X": 55, "Y": 52, "Orientation": 0, "TuileId": "202A"},
            {"X": 56, "Y": 52, "Orientation": 0, "TuileId": "205A"},
            {"X": 40, "Y": 40, "Orientation": 1, "TuileId": "210A"}]
    stage = import_rgt(json.dumps({"Tuiles": rows}))
    assert [p.short() for p in stage.tiles[:2]] == ["202a A", "205a A"]
    assert stage.tiles[2].at == (from_offset(40, 40)[0] - 0, from_offset(40, 40)[1] - 0)
    # Saved and read again as YAML, the stage is the same.
    from designer.systems.dirt.board.stage import loads_stage
    assert loads_stage(dumps_stage(stage)).tiles == stage.tiles


# -- bad input ------------------------------------------------------------------------------

@pytest.mark.parametrize("name, data, message", [
    ("t.rgt", b"this is not json", "not valid JSON"),
    ("t.rgt", b'{"Tuiles": [', "not valid JSON"),
    ("t.rgt", b"[1, 2]", "not a track"),
    ("t.rgt", b'{"Name": "x"}', "not a track"),
    ("t.json", b'{"title": "x"}', "not a track"),
    ("t.rgt", b'{"Tuiles": {"X": 1}}', "must be a list"),
    ("t.rgt", b'{"Tuiles": [7]}', "must be an object"),
    ("t.rgt", b'{"Tuiles": [{"Y": 52, "Orientation": 0, "TuileId": "202A"}]}', "'X' is missing"),
    ("t.rgt", b'{"Tuiles": [{"X": "a", "Y": 52, "Orientation": 0, "TuileId": "202A"}]}', "not a whole number"),
    ("t.rgt", b'{"Tuiles": [{"X": 1.5, "Y": 52, "Orientation": 0, "TuileId": "202A"}]}', "not a whole number"),
    ("t.rgt", b'{"Tuiles": [{"X": 99999999, "Y": 52, "Orientation": 0, "TuileId": "202A"}]}', "far outside"),
    ("t.rgt", b'{"Tuiles": [{"X": 55, "Y": 52, "Orientation": 0, "TuileId": null}]}', "tile id"),
    ("t.rgt", b'{"Tuiles": [{"X": 55, "Y": 52, "Orientation": 0, "TuileId": "a b"}]}', "not a tile id"),
    ("t.json", b'{"tiles": [{"q": 0, "r": 0, "id": "202a"}]}', "'dir' is missing"),
    ("t.json", b'{"tiles": "none"}', "must be a list"),
    ("t.rgt", b"\x89PNG\r\n\x1a\n\x00\x00", "binary file"),
    ("t.yaml", b"tiles: [", "not valid YAML"),
    ("t.txt", b"", "empty"),
    ("t.rgt", b"[" * 100000, "JSON"),
])
def test_bad_input_is_a_designer_error(name, data, message):
    with pytest.raises(DesignerError, match=message) as info:
        import_file(name, data)
    text = str(info.value)
    assert name in text                       # says where
    assert "Traceback" not in text


def test_bad_input_names_the_tile_and_the_fix():
    bad = b'{"Tuiles": [{"X": 55, "Y": 52, "Orientation": 0, "TuileId": "202A"}, {"X": 56, "Y": 52, "TuileId": "205A"}]}'
    with pytest.raises(DesignerError) as info:
        import_file("my.rgt", bad)
    assert info.value.where == "my.rgt: Tuiles[1] (tile 2)"
    assert "Orientation" in str(info.value) and "hint:" in str(info.value)


def test_huge_file_is_refused():
    big = b'{"Name": "' + b"x" * (5 * 1024 * 1024 + 10) + b'", "Tuiles": []}'
    with pytest.raises(DesignerError, match="larger than"):
        import_file("big.rgt", big)
    with pytest.raises(DesignerError, match="larger than"):
        import_rgt(big.decode())


def test_too_many_tiles_is_refused():
    rows = [{"X": i % 100, "Y": i // 100, "Orientation": 0, "TuileId": "205A"} for i in range(1001)]
    with pytest.raises(DesignerError, match="more than"):
        import_rgt(json.dumps({"Tuiles": rows}))


def test_wrong_extension_is_recognised_by_content():
    rekee_text = (DATA / "hairpin-4.json").read_bytes()
    rgt_text = (DATA / "hairpin-4.rgt").read_bytes()
    assert [p.short() for p in import_file("x.rgt", rekee_text).tiles] == HAIRPIN
    assert [p.short() for p in import_file("x.json", rgt_text).tiles] == HAIRPIN
    assert [p.short() for p in import_file("x", rgt_text).tiles] == HAIRPIN
    with pytest.raises(DesignerError, match="rekee file"):
        import_rgt(rekee_text)
    with pytest.raises(DesignerError, match="extension .rgt"):
        import_rekee(rgt_text)


def test_encodings():
    text = (DATA / "hairpin-4.rgt").read_text(encoding="utf-8").replace("Hairpin test", "Épreuve")
    for data in (text.encode("utf-8-sig"), text.encode("utf-16"), text.encode("cp1252")):
        assert import_file("e.rgt", data).name == "Épreuve"


def test_yaml_import_and_export_formats():
    stage = load_stage(STAGE_FILES[0])
    data, name, mime = export_stage(stage, "yaml")
    assert name == "rally-1-ss1.yaml" and mime == "application/x-yaml"
    assert import_file(name, data) == stage
    assert export_stage(stage, "json")[1] == "rally-1-ss1.json"
    with pytest.raises(DesignerError, match="unknown export format"):
        export_stage(stage, "pdf")


def test_doctests():
    for module in (designer.systems.dirt.io, designer.systems.dirt.io.layout, designer.systems.dirt.io.rgt,
                   designer.systems.dirt.io.rekee):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
