"""Big Attack, dropping seconds, SISU, time control (ART.5-7, ART.22) and split times (ART.16)."""
import re
from pathlib import Path
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from designer.systems.classic.dice import attack as A
from designer.systems.classic.dice.moves import IllegalMove
from designer.systems.classic.files.rules import load_rules
from designer.systems.classic.system import SYSTEM

RULES = load_rules()
ROOT = Path(__file__).resolve().parent.parent


def test_big_attack_rules():
    assert A.big_attack(RULES, ["gear1", "gear2"], [True, True], 5) == A.Attack(2, 2, False)
    lost = A.big_attack(RULES, ["gear2", "gear3", "gear4", "gear5", "gas"], [True, True, False, True, False], 8)
    assert lost.loss and lost.seconds == 5 and lost.cells == 5
    with pytest.raises(IllegalMove, match="at least two"):
        A.big_attack(RULES, ["gear1"], [False], 5)
    with pytest.raises(IllegalMove, match="cells left"):
        A.big_attack(RULES, ["gear3", "gear4", "gas"], [False] * 3, 2)
    with pytest.raises(IllegalMove, match="not allowed in a Big Attack"):
        A.big_attack(RULES, ["gear3", "gear4"], [False] * 2, 5, dropped=1)


def test_drop_seconds_sisu_and_time_control():
    assert A.drop_seconds_cost(RULES, 2, 3) == 6
    with pytest.raises(IllegalMove, match="two hazard marks"):
        A.drop_seconds_cost(RULES, 1, 1)
    assert A.sisu_cancels("marks") and not A.sisu_cancels("corner")
    assert A.time_control_penalty(RULES, 3) == 15


@settings(deadline=None, max_examples=60)
@given(st.lists(st.sampled_from(["gear1", "gear2", "gear3", "gear4", "gear5", "gas", "orange"]), max_size=7))
def test_loss_chance_is_a_probability_and_grows_with_dice(dice):
    p = A.loss_chance(RULES, dice)
    assert 0 <= p <= 1
    assert A.loss_chance(RULES, dice + ["gear4"]) >= p
    if len(dice) < 3:
        assert p == 0


def test_loss_chance_exact():
    # three dice with one face in six each: all three marked
    assert A.loss_chance(RULES, ["gear1", "gas", "gas"]) == Fraction(1, 216)


def test_split_times_on_the_ideal_line():
    doc = SYSTEM.load(ROOT / "stages/classic/es1-demo.yaml")
    res = SYSTEM.analyse(doc, SYSTEM.box_of(doc))
    splits = res["splits"]
    assert [s["cell"] for s in splits] == ["E4"]
    assert 0 < splits[0]["seconds"] <= res["ideal_line"]["time_seconds"]


def test_split_times_take_off_the_seconds_won_in_big_attack(tmp_path):
    """ART.16: the cards up to the split less the seconds won; a split in the last turn is the stage's time."""
    text = (ROOT / "stages/classic/es2-demo.yaml").read_text()
    text = re.sub(r"(?m)^big_attack:.*$", "big_attack: true", text)
    path = tmp_path / "es2.yaml"
    path.write_text(text)
    ideal = SYSTEM.analyse(SYSTEM.load(path), SYSTEM.box_of(SYSTEM.load(path)))["ideal_line"]
    assert ideal["attack_seconds"] > 0
    ends = [t["cells"][-1] for t in ideal["turns"][:-1]] + [ideal["cells"][-1]]      # the last road cell
    path.write_text(re.sub(r"(?m)^splits:.*$", "", text) + "splits: [" + ", ".join(
        f'"{int(c.split(":")[0]) + 1}:{c.split(":")[1]}"' for c in ends) + "]\n")
    doc = SYSTEM.load(path)
    res = SYSTEM.analyse(doc, SYSTEM.box_of(doc))
    assert res["ideal_line"] == ideal
    seconds = [s["seconds"] for s in res["splits"]]
    assert seconds[-1] == ideal["time_seconds"]
    assert seconds == [sum(t["card"] - t["attack_seconds"] for t in ideal["turns"][:k]) for k in
                       range(1, len(ideal["turns"]) + 1)]
    assert seconds[0] < ideal["turns"][0]["card"]


def test_cut_cards_and_cleaning_on_gravel():
    from designer.systems.classic.dice.moves import Car

    car = Car()
    assert A.cut_card(car, "0:c0", "good", "asphalt") == (car, 0, frozenset())
    _, _, clean = A.cut_card(car, "0:c0", "good", "gravel")
    assert clean == {"0:c0"}
    assert A.cut_card(car, "0:c0", "dirty", "gravel", clean) == (car, 0, clean)      # clean for good: no card
    assert A.cut_card(car, "0:c0", "dirty", "gravel")[1] == 1
    flat, _, _ = A.cut_card(car, "0:c0", "puncture", "asphalt")
    assert flat.punctures == 1
    with pytest.raises(IllegalMove, match="retires"):
        A.cut_card(Car(punctures=2), "0:c0", "puncture", "asphalt")


def test_variable_weather_table():
    from designer.systems.classic.dice.weather import weather_table, weathers

    doc = SYSTEM.load(ROOT / "stages/classic/es3-demo.yaml")
    box = SYSTEM.box_of(doc)
    pats = weathers(doc, box, RULES)
    assert sum(p for _, p in pats) == 1 and len(pats) == 4
    assert dict((tuple(sorted(w.items())), p) for w, p in pats)[(("X", True), ("Y", True))] == Fraction(1, 18)
    table = weather_table(doc, box, RULES)
    assert table["tyres"] == ["asphalt", "snow", "snow2", "gravel", "soft"]    # ART.24.1: every tyre of the box
    for row in table["rows"]:
        assert row["expected"][row["best_tyres"]] == min(row["expected"].values())
    assert table["expected_choosing_tyres"] <= table["expected_with_stage_tyres"]
    # asphalt tyres on two snowy zones: two marks on snow are a loss of control, so they are the slowest
    both = next(r for r in table["rows"] if r["weather"] == "X snow, Y snow")
    assert both["expected"]["asphalt"] == max(both["expected"].values())
    # its seconds are printed to the tenth (no "42.4000")
    assert not re.search(r"\d\.\d{2,}", table["text"]), table["text"]


def test_tyres_that_drive_a_course_alike_share_one_solve(monkeypatch):
    """The weather table solves once for tyres that change nothing on a course (snow and 2nd-generation snow with
    no snow cell): its figures are those of solving every tyre."""
    from designer.systems.classic.board.assembly import assemble
    from designer.systems.classic.dice import expected as E, weather as W
    from designer.systems.classic.dice.moves import Car
    from designer.systems.classic.files.notation import Traversal

    doc = SYSTEM.load(ROOT / "stages/classic/es3-demo.yaml")
    box = SYSTEM.box_of(doc)
    dry = assemble(tuple(Traversal(t.zone, t.entry, t.exit, False) for t in doc.route), box).graph
    assert not any(d.get("surface") == "snow" for _, d in dry.nodes(data=True))
    assert W.plays_as(dry, RULES, Car(tyres="snow")) == W.plays_as(dry, RULES, Car(tyres="snow2"))
    assert W.plays_as(dry, RULES, Car(tyres="snow")) != W.plays_as(dry, RULES, Car(tyres="asphalt"))
    for n in dry.nodes:                    # on snow, 2nd-generation snow tyres may double downshift (ART.19)
        dry.nodes[n]["surface"] = "snow"
    assert W.plays_as(dry, RULES, Car(tyres="snow")) != W.plays_as(dry, RULES, Car(tyres="snow2"))

    solves = []
    real = E.expected_time
    monkeypatch.setattr(E, "expected_time", lambda *a, **k: solves.append(a[2].tyres) or real(*a, **k))
    shared = W.weather_table(doc, box, RULES)
    assert len(solves) < len(shared["rows"]) * len(shared["tyres"])
    monkeypatch.setattr(W, "plays_as", lambda g, rules, car: car.tyres)        # every tyre solved on its own
    assert W.weather_table(doc, box, RULES) == shared
