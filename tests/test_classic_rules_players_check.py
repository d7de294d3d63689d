"""The rules players check first, each from its article: tyres on a snowy stage (ART.15.4, ART.24.3), a bump
jumped two gears over into the finish (ART.11, ART.13) and the zone editor refusing a half-filled corner row
(the weather table's seconds: test_classic_attack.py). The others are tested beside their concern: the ideal as a
floor and the brute force (test_classic_bruteforce.py), restarts (ART.26.3, same file), rally state (test_classic_rally.py),
drawing and validating (test_classic_cli.py, test_classic_hostile.py), the editor in a browser
(test_classic_browser.py), the stage form (test_classic_app_form.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from designer.core.errors import DesignerError
from designer.systems.classic.analysis import cut_and_finish_notes
from designer.systems.classic.board import edit
from designer.systems.classic.dice import expected as E
from designer.systems.classic.dice import lines as L
from designer.systems.classic.dice import moves as M
from designer.systems.classic.files.rules import load_rules
from designer.systems.classic.system import SYSTEM

sys.path.insert(0, str(Path(__file__).parent))
from test_classic_bruteforce import course  # noqa: E402  (the tiny one-board stages)

RULES = load_rules()
HERE = Path("stages/classic").resolve()


def snowy():
    text = Path("stages/classic/es3-demo.yaml").read_text(encoding="utf-8").replace("weather: variable",
                                                                                   "weather: fixed")
    stage = SYSTEM.stages_of(SYSTEM.loads(text, str(HERE / "x.yaml")))[0]
    return assemble_graph(stage)


def assemble_graph(stage):
    from designer.systems.classic.board.assembly import assemble

    return assemble(stage.route, SYSTEM.box_of(stage, HERE)).graph


def test_snow_tyres_beat_soft_gravel_and_asphalt_tyres_on_a_snowy_stage_art_15_4_art_24_3():
    g = snowy()
    assert all(d.get("surface") == "snow" for n, d in g.nodes(data=True) if n not in ("start", "finish"))
    time = {t: E.Solver(g, RULES, M.Car(tyres=t)).solve() for t in ("snow", "snow2", "soft", "asphalt", "gravel")}
    assert max(time["snow"], time["snow2"]) < min(time["soft"], time["asphalt"], time["gravel"]), time


def test_asphalt_tyres_beat_snow_and_gravel_tyres_on_a_dry_asphalt_stage_art_15_4_art_24_1():
    """Each tyre is best on its own road (gravel tyres on asphalt: one gas die, assumed in classic-rules.yaml);
    soft tyres, the asphalt racing tyre, may be faster still in their first sectors (ART.24.3)."""
    g = course(None, None, False)
    assert {d.get("surface") for n, d in g.nodes(data=True) if n not in ("start", "finish")} == {"asphalt"}
    time = {t: E.Solver(g, RULES, M.Car(tyres=t)).solve() for t in ("asphalt", "snow", "gravel")}
    assert time["asphalt"] < min(time["snow"], time["gravel"]), time


def test_a_bump_two_gears_over_into_the_finish_costs_a_black_die_and_is_named_art_11_art_13():
    g = course(None, ("E3", 2), False)
    ideal = L.ideal_line(g, RULES, M.Car())
    assert ideal["finish_damage"] == 1
    assert any("ART.13" in e for e in ideal["turns"][-1]["events"])
    assert any("two gears over into the finish" in line for line in cut_and_finish_notes(g, ideal, RULES))
    at_note = L.ideal_line(course(None, ("D3", 3), False), RULES, M.Car())
    assert at_note["finish_damage"] == 0                   # jumped at its note: a clean finish


@pytest.mark.parametrize("row,missing", [({"road": 0, "inside": "", "note": 3}, "inside"),
                                         ({"road": "", "inside": "C3", "note": 3}, "road")])
def test_a_half_filled_corner_row_is_an_error_not_dropped(row, missing):
    t = edit.empty_tables()
    t["ends"] = [{"end": 0, "cell": "A3", "side": ""}, {"end": 1, "cell": "F3", "side": ""}]
    t["roads"] = [{"from_end": 0, "to_end": 1, "path": "A3 B3 C3 D3 E3 F3"}]
    t["corners"] = [row]
    with pytest.raises(DesignerError, match=f"row 1 of the corners table has no {missing}"):
        edit.face_from_tables(t)


def test_a_time_control_penalty_comes_in_five_second_tokens_art_22():
    from designer.systems.classic.validate import validate

    text = Path("stages/classic/es1-demo.yaml").read_text(encoding="utf-8")
    for seconds, refused in ((7, True), (10, False), (0, False)):
        stage = SYSTEM.stages_of(SYSTEM.loads(text + f"penalty_seconds: {seconds}\n", str(HERE / "x.yaml")))[0]
        codes = [p.code for p in validate(stage, SYSTEM.box_of(stage, HERE)) if p.severity == "error"]
        assert codes == (["penalty"] if refused else []), (seconds, codes)
