"""The cards of one classic car in its analysis: the SISU card held (ART.7.5), the cut cards and the spare wheel
(ART.9.3, ART.10), dropping the seconds of a Big Attack (ART.6); the rally raced at the table with its time
controls (ART.22). The solver's values are checked against the brute force in test_classic_bruteforce.py; here,
what the analysis and the stage file make of them."""
from __future__ import annotations

from pathlib import Path

import pytest

from designer.core.errors import DesignerError
from designer.systems.classic.analysis import analyse
from designer.systems.classic.files import stage as S
from designer.systems.classic.system import SYSTEM

HERE = Path("stages/classic").resolve()
# the demonstration snow stage with its weather fixed (the table of every weather would solve it ten times)
SNOW = Path("stages/classic/es3-demo.yaml").read_text(encoding="utf-8").replace("weather: variable", "weather: fixed")


def stage_of(text):
    return SYSTEM.stages_of(SYSTEM.loads(text, str(HERE / "x.yaml")))[0]


@pytest.fixture(scope="module")
def snowy():
    plain = stage_of(SNOW)
    held = stage_of(SNOW + "\nsisu: true\n")
    box = SYSTEM.box_of(plain, HERE)
    return analyse(plain, box), analyse(held, box)


def test_the_sisu_card_held_saves_time_where_the_policy_plays_it_art_7_5(snowy):
    plain, held = snowy
    assert held["expected"]["seconds"] < plain["expected"]["seconds"]
    cards = held["expected"]["cards"]
    assert cards["sisu_held"] and 0 < cards["sisu"] <= 1
    assert cards["sisu_worth_seconds"] == pytest.approx(plain["expected"]["seconds"] - held["expected"]["seconds"],
                                                        abs=0.11)
    assert not plain["expected"]["cards"]["sisu_held"] and plain["expected"]["cards"]["sisu"] == 0


def test_the_cut_cards_are_priced_and_what_is_not_is_named_art_9_3(snowy):
    plain, _ = snowy
    cards = plain["expected"]["cards"]
    assert 0 <= cards["punctures"] < 1 and cards["spare_wheel"] >= 0 and cards["retired"] >= 0
    named = " ".join(plain["not_modelled"]["one car"])
    assert "ART.5 remark 2" in named and "ART.7.4" in named and "ART.14" in named
    assert not any(x.startswith("dropping seconds") or x.startswith("the SISU card (") for x in
                   plain["not_modelled"]["one car"])
    assert any("prices the punctures" in line for line in plain["summary"]) or not any(
        "cut" in line for line in plain["summary"])


def test_a_stage_keeps_its_sisu_card_and_refuses_a_bad_one():
    stage = stage_of(SNOW + "\nsisu: true\n")
    assert stage.sisu and S.stage_to_data(stage)["sisu"] is True
    assert "sisu" not in S.stage_to_data(stage_of(SNOW))
    with pytest.raises(DesignerError) as exc:
        stage_of(SNOW + "\nsisu: 3\n")
    assert "sisu" in str(exc.value) + " ".join(getattr(exc.value, "details", []))


def test_dropping_seconds_needs_a_big_attack_art_6():
    es2 = stage_of(Path("stages/classic/es2-demo.yaml").read_text(encoding="utf-8"))
    box = SYSTEM.box_of(es2, HERE)
    result = analyse(es2, box)
    assert es2.big_attack and result["expected"]["cards"]["drop_turns"] > 0       # seconds won, then dropped
    assert not any("dropping the seconds" in x for x in result["expected"]["not_priced"])


def test_the_demo_rally_raced_at_the_table_names_its_time_controls_art_22():
    rally = SYSTEM.load(HERE / "rally.yaml")
    for stage in rally.stages:
        stage.big_attack = False                     # the race is the point here, not the Big Attack's solve
    d = SYSTEM.simulate_rally(rally, HERE, players=2, runs=6)
    assert d["rally"] == rally.name and len(d["seats"]) == 2 and len(d["opening_cost_seconds"]) == 3
    assert d["time_control_bid"] in ("none", "avoid-opening")
    for seat in d["seats"]:
        assert seat["rally_seconds"] == pytest.approx(sum(seat["stage_seconds"]) + seat["penalty_seconds"], abs=0.01)
    assert any("time-control bids" in line for line in d["summary"])
