"""Graphic variants of a tile in an imported layout (``106b-2``: another print of the same face): read as the
face, and listed in the stage's notes by the importer, so the app and ``rally-designer import`` both say so."""
import json

from click.testing import CliRunner

from designer.cli import main
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.io import import_file
from designer.systems.dirt.io.layout import notes_list_variants
from tests.conftest import STAGE_FILES


def test_graphic_variants_go_into_the_notes():
    raw = json.dumps({"author": "someone",
                      "tiles": [{"id": "202a", "q": 0, "r": 0, "dir": 0}, {"id": "210B-2", "q": 1, "r": 0, "dir": 0},
                                ["210b-2", 2, 0, 0], {"id": "205a", "q": 3, "r": 0, "dir": 0},
                                {"id": "103a1", "q": 4, "r": 0, "dir": 0}]})
    stage = import_file("track.json", raw)
    assert stage.tile_ids.count("210b") == 2 and "103a" in stage.tile_ids and "210b-2" not in stage.tile_ids
    assert "Author: someone\nGraphic variants in track.json" in stage.notes
    assert "210b-2 as 210b (2 tiles), 103a1 as 103a." in stage.notes
    assert notes_list_variants(stage.notes)
    plain = import_file("plain.json", raw.replace("210B-2", "210b").replace("210b-2", "210b").replace("103a1", "103a"))
    assert "Graphic variants" not in plain.notes and not notes_list_variants(plain.notes)


def test_the_variants_line_follows_the_unknown_tokens():
    layout = {"Name": "x", "Tuiles": [{"X": 55, "Y": 52, "Orientation": 0, "TuileId": "202A-2",
                                       "Tokens": [{"X": 0.0, "Y": 0.0, "Orientation": 0.0, "TokenId": "nosuch"}]}]}
    lines = import_file("x.rgt", json.dumps(layout)).notes.splitlines()
    assert lines[1].startswith("Tokens in the file with ids this designer does not know")
    assert lines[2] == "- tile 1 (202a): nosuch"
    assert lines[3].startswith("Graphic variants in x.rgt") and lines[3].endswith(": 202a-2 as 202a.")


def test_cli_import_writes_the_variants_note(tmp_path):
    from designer.systems.dirt.io import export_stage

    data, _name, _mime = export_stage(load_stage(STAGE_FILES[0]), "rgt")
    layout = json.loads(data)
    layout["Tuiles"][1]["TuileId"] += "-2"
    variant = layout["Tuiles"][1]["TuileId"].lower()
    src = tmp_path / "variants.rgt"
    src.write_text(json.dumps(layout))
    out = tmp_path / "x.yaml"
    r = CliRunner().invoke(main, ["import", str(src), "-o", str(out)])
    assert r.exit_code == 0, r.output
    stage = load_stage(out)
    assert stage.tile_ids == load_stage(STAGE_FILES[0]).tile_ids
    assert "Graphic variants in variants.rgt" in stage.notes and f"{variant} as {variant[:4]}" in stage.notes
