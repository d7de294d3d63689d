"""A board side's ``env:`` is the environment beside every cell it does not list (ART.8: the damage of leaving the
road depends on what borders the cell), in the analysis and in the zone editor's drawing alike."""
import json

import yaml
from click.testing import CliRunner

from designer.cli import main
from designer.systems.classic.board.edit import preview_face
from designer.systems.classic.files.zones import load_box

ROAD = "A4 B4 C4 D4 E4 F4 G4 H4"


def _box(tmp_path, name, cells):
    face = {"env": "rocks", "cells": cells, "ends": {0: "A4", 1: "H4"},
            "roads": [{"ends": [0, 1], "path": ROAD,
                       "corners": [{"inside": "C4", "note": 2}, {"inside": "F4", "note": 1}]}]}
    box = {"box": name, "size": 8, "system": "classic", "title": name,
           "zones": {"P": {"title": "P", "faces": {"asphalt": face, "snow": face}}}}
    (tmp_path / f"{name}-box.yaml").write_text(yaml.safe_dump(box))
    stage = {"system": "classic", "stage": name, "zones": f"{name}-box.yaml", "route": "P0 | - | P1",
             "weather": "fixed", "tyres": "asphalt", "leader": False, "assistance": False}
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(stage))
    return path


def _expected(path):
    out = CliRunner().invoke(main, ["analyze", str(path), "--json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)["expected"]


def test_a_face_environment_prices_the_cells_it_does_not_list(tmp_path):
    bare = _expected(_box(tmp_path, "bare", {}))
    listed = _expected(_box(tmp_path, "listed", {c: {"env": "rocks"} for c in ROAD.split()}))
    assert bare["dice_lost_per_run"] > 0
    assert bare["dice_lost_per_run"] == listed["dice_lost_per_run"]
    assert bare["seconds"] == listed["seconds"] and bare["finish_damage"] == listed["finish_damage"]


def test_the_zone_file_and_the_editor_give_unlisted_cells_the_face_environment(tmp_path):
    path = _box(tmp_path, "bare", {})
    face = load_box(tmp_path / "bare-box.yaml").zones["P"].faces["asphalt"]
    assert face.cell("E4").env == "rocks"
    drawn = preview_face({"env": "forest", "cells": [{"cell": "B2", "env": None}], "ends": [], "roads": [],
                          "corners": []}, "P", "asphalt", 8)
    assert drawn.cell("B2").env == "forest" and drawn.cell("C3").env == "forest"
    assert path.exists()


def test_damage_carried_into_a_stage_comes_from_the_stage_before_on_its_own_box(tmp_path):
    """Two stages of a rally on boxes of their own, with the same zone letter: the stage before on rocks (its
    losses cost dice), no assistance between. The next stage starts with the damage the stage before finished
    with, worked out on the stage before's box (before, on the next stage's box: meadow, almost no damage)."""
    first = _box(tmp_path, "rocky", {})
    data = yaml.safe_load(first.read_text())
    first.write_text(yaml.safe_dump(dict(data, assistance=False)))
    calm = yaml.safe_load((tmp_path / "rocky-box.yaml").read_text())
    for face in calm["zones"]["P"]["faces"].values():
        face["env"] = "meadow"
    calm["box"] = "calm"
    (tmp_path / "calm-box.yaml").write_text(yaml.safe_dump(calm))
    (tmp_path / "second.yaml").write_text(yaml.safe_dump(dict(data, stage="second", zones="calm-box.yaml")))
    (tmp_path / "rally.yaml").write_text(yaml.safe_dump({"system": "classic", "rally": "two boxes",
                                                         "stages": ["rocky.yaml", "second.yaml"]}))
    out = CliRunner().invoke(main, ["analyze", str(tmp_path / "rally.yaml"), "--json"])
    assert out.exit_code == 0, out.output
    one, two = json.loads(out.output)
    finish = {k: round(v, 4) for k, v in one["expected"]["finish_damage"].items()}
    assert two["carried"]["dice_lost_chances"] == finish and finish["0"] < 0.95
