"""Several classic Rallyman cars on one stage (designer/systems/classic/dice/table.py) and over a rally
(dice/rally_table.py), each rule tested from its article: one car is the single-car simulation, full cells stop a
turn and a spun car blocks its corner (ART.12), a dirty cut slows the cars behind (ART.9.3), a good card cleans a
gravel cut for them (ART.21), the car passing the leader takes the orange dice (ART.20), the time control's
penalties (ART.22) and the start order by the standings (ART.3.2)."""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from designer.core.errors import DesignerError
from designer.systems.classic.board.assembly import assemble
from designer.systems.classic.dice import moves as M
from designer.systems.classic.dice import policy as P
from designer.systems.classic.dice.rally_table import bids, opening_cost, simulate_rally_table
from designer.systems.classic.dice.table import ClassicTable, Seat, load_table_rules, simulate_table
from designer.systems.classic.files.notation import parse_share
from designer.systems.classic.files.rules import load_rules
from designer.systems.classic.files.zones import loads_box
from designer.systems.classic.system import SYSTEM

RULES = load_rules()


def course(name):
    stage = SYSTEM.stages_of(SYSTEM.load(Path(f"stages/classic/{name}.yaml")))[0]
    return assemble(stage.route, SYSTEM.box_of(stage, Path("stages/classic").resolve())).graph, stage


def gravel_cut():
    """One gravel board, a road A3..F3 with a corner on C3 (note 2) and its cut C4 (K4)."""
    face = ("{env: meadow, ends: {0: A3, 1: F3}, roads: [{ends: [0, 1], path: A3 B3 C3 D3 E3 F3, "
            "corners: [{inside: C3, note: 2, cut: C4, k: 4}]}]}")
    box = loads_box(f"system: classic\nbox: tiny\nsize: 6\nzones:\n  X:\n    faces:\n      gravel: {face}\n",
                    "tiny.yaml")
    c = assemble(parse_share("X0-1"), box)
    assert c.ok, c.problems
    return c.graph


class Fixed:
    """A die that always shows what ``r`` picks: 0.0 the first branch (no mark; a good cut card)."""

    def __init__(self, r):
        self.r = r

    def random(self):
        return self.r


@pytest.fixture(scope="module")
def es1():
    g, stage = course("es1-demo")
    return g, ClassicTable(g, RULES, stage.tyres)


@pytest.fixture(scope="module")
def tiny():
    g = gravel_cut()
    return g, ClassicTable(g, RULES, "gravel")


def test_one_car_is_the_single_car_simulation(es1):
    g, table = es1
    alone = simulate_table(g, RULES, 1, runs=400, seed=3, table=table)["seats"][0]
    model, solution, stats = table.lead
    single = P.monte_carlo(model, solution, runs=400, seed=3)
    assert alone["expected_seconds"] == pytest.approx(single.mean, abs=1e-3)    # the same dice, the same policy
    lo, hi = alone["ci95"]
    assert lo <= stats.seconds <= hi
    assert alone["blocked_chance"] == 0 and alone["turns_led"] == alone["turns"] and alone["passes"] == 0


def test_a_full_cell_ends_the_turn_before_it_art_12(es1):
    g, table = es1
    seat = Seat(table.root.car)
    S = table.solver(seat, False, [], [])
    _, action = S._within(M.TurnState("start", 0), 0, 0)
    first = action[2]
    table.turn(seat, S, {first: table.capacity[first]}, random.Random(1), None, [], [])
    assert seat.tally["blocked"] == 1 and seat.at == ("start", 0)
    assert seat.seconds == RULES.card(1)                       # standing: the stalled card, not a loss of control
    free = Seat(table.root.car)
    table.turn(free, S, {}, random.Random(1), None, [], [])
    assert free.tally["blocked"] == 0 and free.at[0] != "start"


def test_a_car_in_the_corner_is_passed_by_the_cut_art_12(tiny):
    """ART.12 case 2: "dans la corde si le concurrent est dans le virage". The policy's die leads to the inside
    line, which another car holds: the driver takes the cut instead of stopping there blocked."""
    g, table = tiny
    me = Seat(table.root.car)
    me.at = ("0:B3", 2)
    S = table.solver(me, False, [], [])
    assert S._within(M.TurnState("0:B3", 2), 0, 0)[1][2] == "0:C3"       # alone, it drives the inside line
    held = {"0:C3": 1}
    how, die, to = table._detour(S, M.TurnState("0:B3", 2), 0, 0, 0, 0, held)
    assert to == "0:C4"
    table.turn(me, S, held, Fixed(0.0), None, [], [])
    assert me.tally["blocked"] == 0 and me.tally["cut_cards"] == 1 and me.at[0] != "0:B3"
    # with the cut held too there is no move left: blocked, the card of the gear engaged
    stuck = Seat(table.root.car)
    stuck.at = ("0:B3", 2)
    table.turn(stuck, S, {"0:C3": 1, "0:C4": 1}, Fixed(0.0), None, [], [])
    assert stuck.tally["blocked"] == 1 and stuck.at == ("0:B3", 2) and stuck.seconds == RULES.card(2)


def test_a_car_spun_in_a_corner_blocks_it_a_car_off_the_road_does_not_art_12(tiny):
    g, table = tiny
    inside = next(n for n, d in g.nodes(data=True) if d.get("lane") == "inside")
    cut = next(n for n, d in g.nodes(data=True) if d.get("lane") == "cut")
    me, other = Seat(table.root.car), Seat(table.root.car)
    other.at = (inside, 0)
    assert table.held([me, other], me) == {inside: 1}          # on the inside line: the cut is free to pass
    other.lost = (inside, False)                               # off the road: passed freely (ART.12 case 4)
    assert table.held([me, other], me) == {}
    other.lost = (inside, True)                                # spun in the corner: the road is blocked
    held = table.held([me, other], me)
    assert held[inside] >= table.capacity[inside] and held[cut] >= table.capacity[cut]
    # spun on a straight ("dans un virage" only): the car holds its place, a second lane stays free
    straight = next(n for n, d in g.nodes(data=True) if d.get("lane") == "road" and not d.get("corner"))
    lanes, table.capacity[straight] = table.capacity[straight], 2
    other.at, other.lost = (straight, 0), (straight, True)
    try:
        assert table.held([me, other], me) == {straight: 1}
    finally:
        table.capacity[straight] = lanes


def test_a_dirty_cut_lowers_the_notes_for_the_cars_behind_art_9_3(tiny):
    g, table = tiny
    inside = next(n for n, d in g.nodes(data=True) if d.get("lane") == "inside")
    corner = g.nodes[inside]["corner"]
    drawer, behind = Seat(table.root.car), Seat(table.root.car)
    dirt: list = []
    table._card(drawer, next(n for n in g if g.nodes[n].get("lane") == "cut"), "dirty", dirt, [])
    assert drawer.tally["dirty_cuts"] == 1
    mine, theirs = table.solver(drawer, False, dirt, []), table.solver(behind, False, dirt, [])
    assert mine.car.dirt == () and theirs.car.dirt == ((corner, 1),)            # the drawer has passed the corner
    assert M.notes(g, inside, theirs.car)[0] == M.notes(g, inside, mine.car)[0] - 1
    dirt.append((corner, id(Seat(table.root.car))))            # a second dirty card: one gear lower again
    assert table.solver(behind, False, dirt, []).car.dirt == ((corner, 2),)
    assert theirs.value("start", 0) > mine.value("start", 0)   # the dirty cut costs the car behind time


def test_a_good_card_on_gravel_cleans_the_cut_for_the_cars_behind_art_21(tiny):
    g, table = tiny
    cut = next(n for n in g if g.nodes[n].get("lane") == "cut")
    before = next(iter(g.predecessors(cut)))
    drawer, behind = Seat(table.root.car), Seat(table.root.car)
    clean: list = []
    table._card(drawer, cut, "good", [], clean)
    theirs, mine = table.solver(behind, False, [], clean), table.solver(drawer, False, [], clean)
    assert not theirs.draws_card(before, cut) and mine.draws_card(before, cut)
    assert theirs.value("start", 0) <= mine.value("start", 0) + 1e-9        # no puncture risk left in the cut


def test_the_car_that_passes_the_leader_takes_the_orange_dice_art_20(tiny):
    g, table = tiny
    leader, follower = Seat(table.root.car), Seat(table.root.car)
    leader.at = ("0:B3", 1)
    S = table.solver(follower, False, [], [])
    table.turn(follower, S, {}, Fixed(0.0), leader, [], [])
    assert table.order[follower.at[0]] > table.order["0:B3"] if follower.at is not P.FINISH else True
    assert follower.tally["lead_taken"] == 1


def test_a_table_of_four_reports_per_seat_and_names_its_parameters(es1):
    g, table = es1
    d = simulate_table(g, RULES, 4, runs=200, seed=2, table=table)
    assert len(d["seats"]) == 4 and d["rounds"] >= 4
    assert d["seats"][0]["turns_led"] > d["seats"][3]["turns_led"]
    assert d["table_turns"] == pytest.approx(sum(s["turns"] for s in d["seats"]), abs=0.01)
    assert {"passes", "cut_cards", "dirty_cuts", "punctures", "spins", "blocked_chance"} <= set(d["seats"][0])
    assert d["assumed"]["spin_chance"]["status"] == "assumed" and d["assumed"]["cut_cards"]["value"] == "priced"
    assert d["not_simulated"]
    with pytest.raises(DesignerError, match="1 to 6 cars"):
        simulate_table(g, RULES, 7, runs=10, table=table)


def test_symmetric_seats_give_symmetric_times(es1):
    g, table = es1
    d = simulate_table(g, RULES, 3, runs=600, seed=5, table=table, draw_start=True)
    for a in d["seats"]:
        for b in d["seats"]:
            assert a["ci95"][0] <= b["ci95"][1] and b["ci95"][0] <= a["ci95"][1], (a, b)


def test_time_control_bids_art_22():
    assert bids([100.0, 103.0, 140.0], 10.0, 5, "avoid-opening") == [1, 0, 0]     # 5 s to start behind the 2nd
    assert bids([100.0, 112.0], 10.0, 5, "avoid-opening") == [0, 0]               # 15 s: dearer than opening
    assert bids([100.0, 103.0], 0.0, 5, "avoid-opening") == [0, 0]                # no gravel: nothing to avoid
    assert bids([100.0, 103.0], 10.0, 5, "none") == [0, 0]


def test_a_rally_adds_the_penalties_and_starts_by_the_standings_art_22_art_3_2(es1):
    g1, t1 = es1
    g2, stage2 = course("es2-demo")
    t2 = ClassicTable(g2, RULES, stage2.tyres)
    stages = [{"name": "ES1", "table": t1, "assistance": True}, {"name": "ES2", "table": t2, "assistance": True}]
    one = simulate_rally_table(stages, RULES, 1, runs=150, seed=4)
    s = one["seats"][0]
    single = t1.lead[1].value(t1.lead[0].start) + t2.lead[1].value(t2.lead[0].start)
    assert s["penalty_seconds"] == 0 and s["ci95"][0] <= single <= s["ci95"][1]
    assert 0 < opening_cost(t2) < RULES.penalty_step and opening_cost(t1) == 0   # ES2 is gravel (ART.20)
    two = simulate_rally_table(stages, RULES, 2, runs=100, seed=4)
    assert all(seat["penalty_seconds"] == 0 for seat in two["seats"])           # a token dearer than the road
    # a ruleset whose orange dice mark on five faces and whose tokens are worth 1 s: leading costs more than a bid
    rules = RULES.with_values(hazard_faces=dict(RULES.hazard_faces, orange=5), penalty_step=1)
    dear = ClassicTable(g2, rules, stage2.tyres)
    assert opening_cost(dear) > rules.penalty_step
    stages = [{"name": "ES1", "table": ClassicTable(g1, rules, "asphalt")}, {"name": "ES2", "table": dear}]
    bid = simulate_rally_table(stages, rules, 2, runs=100, seed=4)
    for seat in bid["seats"]:
        assert seat["rally_seconds"] == pytest.approx(sum(seat["stage_seconds"]) + seat["penalty_seconds"], abs=0.01)
    assert sum(seat["penalty_seconds"] for seat in bid["seats"]) > 0
    table_rules = load_table_rules()
    table_rules["time_control_bid"] = dict(table_rules["time_control_bid"], value="none")
    none = simulate_rally_table(stages, rules, 2, runs=50, seed=4, table_rules=table_rules)
    assert all(seat["penalty_seconds"] == 0 for seat in none["seats"])


def test_a_bad_table_rules_file_says_where(tmp_path):
    from designer.systems.classic.dice.table import RULES_FILE

    bad = tmp_path / "t.yaml"
    bad.write_text(RULES_FILE.read_text(encoding="utf-8").replace("value: 1\n  status: rulebook",
                                                                  "value: 9\n  status: rulebook", 1))
    with pytest.raises(DesignerError) as exc:
        load_table_rules(bad)
    assert any(f"{bad}:" in d and "start_stagger_rounds" in d for d in exc.value.details), exc.value.details
    # the chance of a spin is the ruleset's now (the single-car model draws it too): a table file naming it is told
    bad.write_text(RULES_FILE.read_text(encoding="utf-8") + "spin_chance: {value: 0.5, status: assumed, source: x}\n")
    with pytest.raises(DesignerError) as exc:
        load_table_rules(bad)
    assert any("spin_chance" in d and "moved to the ruleset" in d for d in exc.value.details), exc.value.details


def test_a_car_beside_the_leader_on_another_lane_has_not_passed_it_art_20(tiny):
    """ART.20: the orange dice change hands when a car "avance une case plus loin" than the leader: not on the cut
    beside the leader's inside cell, but a cell further on."""
    g, table = tiny
    inside = next(n for n, d in g.nodes(data=True) if d.get("lane") == "inside")
    corner = g.nodes[inside]["corner"]
    cut = next(n for n, d in g.nodes(data=True) if d.get("lane") == "cut" and d.get("corner") == corner)
    after = next(v for v in g.successors(inside) if g.nodes[v].get("lane") == "road")
    assert not table._ahead(cut, inside) and not table._ahead(inside, cut)
    assert table._ahead(after, inside) and table._ahead(after, cut) and not table._ahead(inside, after)
