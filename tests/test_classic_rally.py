"""What one stage of a classic rally hands to the next (ART.8, ART.13, ART.14, ART.15.3, ART.24.3, ART.22)."""
from __future__ import annotations

import pytest

from designer.systems.classic.analysis import analyse
from designer.systems.classic.files import stage as S
from designer.systems.classic.system import SYSTEM

ES1 = "{stage: A, route: 'X0 | - | X4', tyres: %s, assistance: %s}"


def rally(first_tyres="asphalt", second_tyres="asphalt", assistance="false") -> S.Rally:
    text = ("system: classic\nrally: R\nzones: demo-zones\nstages:\n  - " + ES1 % (first_tyres, assistance)
            + "\n  - " + ES1.replace("stage: A", "stage: B") % (second_tyres, "true") + "\n")
    return SYSTEM.loads(text, "r.yaml")


def test_damage_is_carried_without_an_assistance_art_14():
    r = rally()
    first, second = r.stages
    assert second.carried_from is first
    plain = analyse(first, SYSTEM.box_of(first))
    res = analyse(second, SYSTEM.box_of(second))
    chances = {int(k): p for k, p in res["carried"]["dice_lost_chances"].items()}
    assert abs(sum(chances.values()) - 1) < 1e-3 and chances[0] < 1       # the forest beside X costs dice (ART.8)
    assert res["carried"]["expected_seconds"] >= plain["expected"]["seconds"]     # a damaged car is never faster
    assert any("no assistance after A" in line for line in res["summary"])
    fixed = analyse(S.Stage("B", second.route, damage_in=2), SYSTEM.box_of(second))
    assert fixed["expected"]["seconds"] > plain["expected"]["seconds"]


def test_an_assistance_repairs_everything():
    r = rally(assistance="true")
    assert r.stages[1].carried_from is None
    assert "carried" not in analyse(r.stages[1], SYSTEM.box_of(r.stages[1]))


def test_soft_tyres_kept_make_the_next_stage_a_third_sector_art_24_3():
    r = SYSTEM.loads("system: classic\nrally: R\nstages:\n  - {stage: A, share: X1-3/Y3-1, tyres: soft, "
                     "assistance: false}\n  - {stage: B, share: X0-4, tyres: soft}\n", "r.yaml")
    assert r.stages[1].soft_sector == "S3"                  # two sections before: the next stage is S3
    r = rally("soft", "soft")
    assert r.stages[1].soft_sector == "S2"                  # a single section before: S2
    res = analyse(r.stages[1], SYSTEM.box_of(r.stages[1]))
    fresh = analyse(S.Stage("B", r.stages[1].route, tyres="soft"), SYSTEM.box_of(r.stages[1]))
    assert any("sector S2" in line for line in res["summary"])
    assert res["expected"]["seconds"] >= fresh["expected"]["seconds"]        # S2 allows 3 marks, S1 four


def test_tyres_cannot_change_without_an_assistance_art_15_3():
    """"S'il n'y a pas d'assistance avant le départ de l'ES, les pilotes conservent les pneus de la spéciale
    précédente": the stage is raced, and every figure given, on the tyres kept."""
    r = rally("asphalt", "snow")
    second = r.stages[1]
    assert second.tyres == "asphalt" and second.tyre_change_refused == "snow"
    res = analyse(second, SYSTEM.box_of(second))
    assert any("asphalt tyres of the stage before are still on" in line for line in res["summary"])
    on_asphalt = analyse(S.Stage("B", second.route, tyres="asphalt"), SYSTEM.box_of(second))
    assert res["expected"]["seconds"] == on_asphalt["expected"]["seconds"]


def test_the_bundled_rally_races_its_third_stage_on_the_gravel_tyres_kept():
    from pathlib import Path

    r = SYSTEM.load(Path("stages/classic/rally.yaml"))
    es3 = r.stages[2]
    assert es3.weather == "variable" and es3.tyre_change_refused == "snow" and es3.tyres == "gravel"
    table = analyse(es3, SYSTEM.box_of(es3))["weather_table"]
    assert table["tyres"] == ["gravel"]                        # tyres are chosen only after an assistance
    assert table["expected_choosing_tyres"] == table["expected_with_stage_tyres"]
    assert "no change of tyres" in table["text"]

    hints = [p.hint for p in SYSTEM.validate(es3, SYSTEM.box_of(es3)) if p.code == "tyres"]
    assert any("give Demo ES2 - Forest of Y an assistance" in h for h in hints), hints


@pytest.mark.parametrize("value,ok", [(10, True), (-5, False), ("x", False)])
def test_the_penalty_column_art_22(value, ok):
    text = f"system: classic\nstage: A\nshare: X0-4\npenalty_seconds: {value}\n"
    if ok:
        assert SYSTEM.loads(text, "s.yaml").penalty_seconds == value
        assert "penalty_seconds: 10" in SYSTEM.dumps(SYSTEM.loads(text, "s.yaml"))
    else:
        with pytest.raises(Exception, match="penalty_seconds"):
            SYSTEM.loads(text, "s.yaml")


def test_the_tyres_a_stage_names_survive_its_rally():
    """The tyres kept on by the rally are not written over the ones the stage names: saved as named, and back
    when an assistance comes before it again."""
    from designer.systems.classic.files.rally import link_stages

    r = rally("asphalt", "snow")
    second = r.stages[1]
    assert S.stage_to_data(second)["tyres"] == "snow"
    r.stages[0].assistance = True
    link_stages(r.stages)
    assert second.tyres == "snow" and second.tyre_change_refused is None


def test_the_weather_table_of_a_stage_on_kept_soft_tyres_counts_its_sector():
    """ART.24.3: the soft tyres kept make the next stage a sector of its own; the weather table's row for the
    weather the stage is laid in gives the stage's own expected time."""
    text = ("system: classic\nrally: R\nzones: demo-zones\nstages:\n"
            "  - {stage: A, route: 'X0 | - | X4', tyres: soft, assistance: false}\n"
            "  - {stage: B, route: 'X0 | - | X4', tyres: soft, weather: variable}\n")
    second = SYSTEM.loads(text, "r.yaml").stages[1]
    assert second.soft_sector == "S2"
    res = analyse(second, SYSTEM.box_of(second))
    dry = next(r for r in res["weather_table"]["rows"] if r["weather"] == "X dry")
    assert dry["expected"]["soft"] == res["expected"]["seconds"]
