"""Several classic Rallyman cars on one stage (designer/systems/classic/dice/table.py): one car is the single-car
simulation, full cells stop a turn (ART.12), a good cut card cleans the cut for the cars behind (ART.21)."""
from __future__ import annotations

from pathlib import Path

import pytest

from designer.core.errors import DesignerError
from designer.systems.classic.board.assembly import assemble
from designer.systems.classic.dice import moves as M
from designer.systems.classic.dice import policy as P
from designer.systems.classic.dice.table import ClassicTable, load_table_rules, simulate_table
from designer.systems.classic.files.rules import load_rules
from designer.systems.classic.system import SYSTEM

RULES = load_rules()


def course(name):
    stage = SYSTEM.stages_of(SYSTEM.load(Path(f"stages/classic/{name}.yaml")))[0]
    return assemble(stage.route, SYSTEM.box_of(stage, Path("stages/classic").resolve())).graph, stage


@pytest.fixture(scope="module")
def es1():
    g, stage = course("es1-demo")
    return g, ClassicTable(g, RULES, stage.tyres)


def test_one_car_is_the_single_car_simulation(es1):
    g, table = es1
    alone = simulate_table(g, RULES, 1, runs=400, seed=3, table=table)["seats"][0]
    model, solution, stats = table.lead
    single = P.monte_carlo(model, solution, runs=400, seed=3)
    assert alone["expected_seconds"] == pytest.approx(single.mean, abs=1e-3)    # the same dice, the same policy
    lo, hi = alone["ci95"]
    assert lo <= stats.seconds <= hi
    assert alone["blocked_chance"] == 0 and alone["turns_led"] == alone["turns"]


def test_a_full_cell_ends_the_turn_before_it(es1):
    g, table = es1
    model = table.other[0]
    start = model.start
    _, action = model._of(start)._within(M.TurnState(start[0], start[1]), 0, 0)
    first = action[1]
    held = {first: table.capacity[first]}
    import random
    outcome, blocked = table._walk(model, start, held, random.Random(1), set(), [0, 0, 0])
    assert blocked and outcome.state[0] == start[0]
    assert outcome.seconds == RULES.card(1)                    # standing: the stalled card, not a loss of control
    free, was = table._walk(model, start, {}, random.Random(1), set(), [0, 0, 0])
    assert not was and free.state[0] != start[0]


def test_a_good_cut_card_cleans_the_cut_for_the_cars_behind(es1):
    g, table = es1
    cut = next(n for n, d in g.nodes(data=True) if d.get("lane") == "cut")
    table.gravel_cut = {cut: g.nodes[cut].get("corner")}

    class Fixed:
        def __init__(self, r):
            self.r = r

        def random(self):
            return self.r

    clean, first, second = set(), [0, 0, 0], [0, 0, 0]
    table._cut(cut, Fixed(0.999), clean, first)                # the last card: a puncture; the cut stays dirty
    assert first == [1, 0, 1] and not clean
    table._cut(cut, Fixed(0.0), clean, first)                  # a good card: clean for good
    table._cut(cut, Fixed(0.999), clean, second)               # the car behind draws nothing
    assert first[0] == 2 and second == [0, 0, 0] and clean
    table.gravel_cut = {}


def test_a_table_of_four_keeps_the_start_and_names_its_parameters(es1):
    g, table = es1
    d = simulate_table(g, RULES, 4, runs=200, seed=2, table=table)
    assert len(d["seats"]) == 4 and d["rounds"] >= 4
    assert d["seats"][0]["turns_led"] > d["seats"][3]["turns_led"]
    assert d["table_turns"] == pytest.approx(sum(s["turns"] for s in d["seats"]), abs=0.01)
    assert d["assumed"]["cell_capacity"]["status"] == "assumed"
    with pytest.raises(DesignerError, match="1 to 6 cars"):
        simulate_table(g, RULES, 7, runs=10, table=table)


def test_a_bad_table_rules_file_says_where(tmp_path):
    from designer.systems.classic.dice.table import RULES_FILE

    bad = tmp_path / "t.yaml"
    bad.write_text(RULES_FILE.read_text(encoding="utf-8").replace("value: 1\n  status: rulebook",
                                                                  "value: 9\n  status: rulebook", 1))
    with pytest.raises(DesignerError) as exc:
        load_table_rules(bad)
    assert any(f"{bad}:" in d and "start_stagger_rounds" in d for d in exc.value.details), exc.value.details
