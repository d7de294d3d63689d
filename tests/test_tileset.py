import pytest

from designer.core.errors import DesignerError, SchemaError
from designer.systems.dirt.board.tileset import get_tileset, load_tileset, normalise_tile_id


def test_catalogues(dirt, official):
    assert len(dirt.tiles) == 64
    assert "103a" in official and "210a" in official and "415a" in official
    assert official.face("filler1a").id == "902a"
    assert dirt.face("210A").id == "210a"
    f = dirt.face("227b")
    assert f.features.cut == 5 and f.features.limits == [4, 5] and f.kind == "curve"
    assert dirt.face("210a").kind == "hairpin" and dirt.face("205a").kind == "straight"
    assert official.face("415a").kind == "junction"


def test_unknown_face_hint(dirt):
    with pytest.raises(DesignerError, match="this tileset has 210a, 210b"):
        dirt.face("210c")


def test_variants_map_to_their_face():
    assert normalise_tile_id("103a-2") == "103a"
    assert normalise_tile_id("Podium") == "905a"


def test_every_schema_error_at_once(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text(
        "tileset: bad\n"
        "tiles:\n"
        "  '500a':\n"
        "    terrain: mud\n"
        "    edges: {A: 2, Z: 2}\n"
        "  '501a':\n"
        "    edges: {A: 2, D: 2}\n"
        "    links: [[A, D]]\n"
        "    ends: [A, D]\n"
        "    cells:\n"
        "      - {id: c1, lane: 0, span: [0.0, 0.5]}\n"
        "      - {id: c1, lane: 1, span: [0.0, 1.0]}\n"
        "      - {id: c3, lane: 0, span: [0.6, 0.2]}\n")
    with pytest.raises(SchemaError) as exc:
        load_tileset(p)
    text = str(exc.value)
    assert f"{p.name}:4: tiles.500a.terrain" in text or f"{p}:4: tiles.500a.terrain" in text
    assert "tiles.500a.edges" in text
    assert "span" in text and ":13:" in text
    assert len(exc.value.details) >= 3


def test_broken_yaml_names_the_line(tmp_path):
    p = tmp_path / "broken.yaml"
    p.write_text("tiles:\n  '500a': {edges: [A\n")
    with pytest.raises(DesignerError) as exc:
        load_tileset(p)
    assert "broken.yaml:" in str(exc.value) and "not valid YAML" in str(exc.value)


def test_unknown_tileset_name():
    with pytest.raises(DesignerError, match="known tilesets: .*dirt-core"):
        get_tileset("no-such-tileset")


def test_huge_file_is_refused(tmp_path):
    p = tmp_path / "huge.yaml"
    p.write_bytes(b"# " + b"x" * (6 * 1024 * 1024))
    with pytest.raises(DesignerError, match="MB, more than the 5 MB allowed"):
        load_tileset(p)


def test_cell_count_covers_every_road_of_several_road_faces():
    """Faces with several roads count the spaces of every road: a junction's shared space once."""
    ts = get_tileset("official")
    for fid in ("402a", "404a", "408a", "409b", "412a", "413b", "414a", "415b"):
        face = ts.face(fid)
        assert face.roads, fid
        per_road = [len(f.all_cells()) for f in face.road_faces()]
        assert max(per_road) <= face.cell_count <= sum(per_road), fid
    one = ts.face("210a")
    assert one.cell_count == len(one.all_cells()) > 0
