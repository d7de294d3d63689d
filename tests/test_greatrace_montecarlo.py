"""The Monte Carlo drives the plan the route search made: the same route, actions, purchases, repairs and
cards, so on a route whose tiles are all known the action count, the plan and the Monte Carlo agree."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from designer.systems.greatrace.driving import montecarlo
from designer.systems.greatrace.driving.analysis import direction
from designer.systems.greatrace.files.board import board_from_data
from designer.systems.greatrace.files.race import race_from_data
from tests.test_greatrace_search import KINDS, _case

FIGURES = ("actions", "pilot_actions", "repairs", "francs", "fuel", "mech", "funding_assistants", "rounds")


def _plan_figures(plan, rules) -> dict:
    from designer.systems.greatrace.driving.plan import rounds

    return {"actions": plan.actions, "pilot_actions": plan.pilot_actions, "repairs": plan.repairs,
            "francs": plan.francs, "fuel": plan.fuel_burnt, "mech": plan.mech_lost,
            "funding_assistants": plan.funding_assistants, "rounds": rounds(plan, rules, 1)["rounds"]}


def _drive_matches(cm, plan, seeds=3):
    want = _plan_figures(plan, cm.rules)
    for seed in range(seeds):
        run = montecarlo.run_once(cm, plan, random.Random(seed))
        assert run["failed"] is None, run
        assert {k: run[k] for k in FIGURES} == want
        assert run["blind_failures"] == 0 and run["money_left"] >= 0


def test_the_hill_strip_is_driven_in_the_plans_three_actions():
    """By hand (see the search's test): five laid hills between West and East, engine 5, a tank of 5. Action 1
    covers two hills, action 2 buys 3 at 20 F and covers two, action 3 buys 3 at 20 F, covers the last and
    enters East: 3 actions, 120 F, 11 fuel. The plan says so, and every Monte Carlo run drives just that."""
    board, race = _case(7, 1, ["hills"], [False], False, None, (5, 5, 5), {"fuel": 5}, {})
    race.money = 500
    d = direction(board, race)
    plan = d["_plans"]["fastest"]
    assert (plan.actions, plan.pilot_actions, plan.francs, plan.fuel_burnt) == (3, 3, 120, 11)
    buys = [a["buy"] for a in plan.driven.schedule]
    assert buys[0] == 0 and sum(buys) == 6           # 6 levels bought on the way (3 + 3, or 1 + 5: the same)
    mc = montecarlo.simulate(d["_cm"], plan, runs=20)
    for key, value in (("actions", 3), ("pilot_actions", 3), ("francs", 120), ("fuel", 11)):
        assert mc[key]["p10"] == mc[key]["max"] == value
    assert mc["failed_chance"] == 0 and mc["stranded_chance"] == 0
    _drive_matches(d["_cm"], plan)


def test_with_an_empty_purse_the_monte_carlo_takes_the_plans_funding():
    board, race = _case(7, 1, ["hills"], [False], False, None, (5, 5, 5), {"fuel": 5}, {})
    d = direction(board, race)                       # money 0: the 120 F are raised on the funding space
    plan = d["_plans"]["fastest"]
    assert plan.shortfall == 120 and plan.funding_assistants == 5 + 1      # 110 F and 10 F
    _drive_matches(d["_cm"], plan)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cols=st.integers(2, 4), rows=st.integers(1, 2),
       kinds=st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=6),
       risk=st.lists(st.booleans(), min_size=1, max_size=4), middle=st.booleans(),
       fare=st.one_of(st.none(), st.sampled_from([0, 30, 60, 120])),
       gauges=st.tuples(st.integers(2, 5), st.integers(1, 3), st.integers(1, 3)),
       fuel=st.integers(0, 5), engine=st.integers(1, 3), chassis=st.integers(0, 3),
       cards=st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 1)), money=st.sampled_from([0, 30, 500]))
def test_on_random_laid_boards_every_trade_off_way_is_driven_as_planned(cols, rows, kinds, risk, middle, fare,
                                                                      gauges, fuel, engine, chassis, cards, money):
    """Every way of the trade-off set (repairs, fuel bought on the way, DANGER and STOP with cards or
    assistants, transport lines, funding) is driven by the Monte Carlo in the plan's figures."""
    fmax, emax, cmax = gauges
    dash = {"fuel": min(fuel, fmax), "engine": min(engine, emax), "chassis": min(chassis, cmax)}
    hand = {"transport": cards[0], "escort": cards[1], "guide": cards[2]}
    board, race = _case(cols, rows, kinds, risk, middle, fare, gauges, dash, hand)
    race.money = money
    d = direction(board, race, candidates=2)
    if not d["reachable"]:
        return
    for plan in d["_front"] + list(d["_plans"].values()):
        _drive_matches(d["_cm"], plan, seeds=1)


def _open_strip(terrain: dict, spaces: int, dashboard: dict):
    cols = spaces + 2
    data = {"board": "strip", "columns": cols, "rows": 1,
            "cities": [{"name": "West", "at": "A1", "purple": True},
                       {"name": "East", "at": f"{chr(64 + cols)}1", "purple": True}],
            "bag": [dict(terrain, count=20)]}
    board = board_from_data(data, {}, "strip")
    race = race_from_data({"race": "r", "board": "strip", "start": "West", "finish": "East", "money": 500,
                           "dashboard": dashboard}, {}, "r")
    return board, race


@settings(max_examples=15, deadline=None)
@given(fuel=st.integers(0, 3), mech=st.integers(0, 2), spaces=st.integers(1, 6), tank=st.integers(2, 10),
       engine=st.integers(1, 5))
def test_open_spaces_whose_draw_is_the_planning_cost_are_driven_as_planned(fuel, mech, spaces, tank, engine):
    """A bag of one terrain: every draw costs what the plan counted, so the blind drive is the plan."""
    board, race = _open_strip({"terrain": "only", "fuel": fuel, "mech": mech}, spaces,
                              {"fuel": tank, "engine": engine})
    d = direction(board, race, candidates=2)
    if not d["reachable"]:
        return
    plan = d["_plans"]["fastest"]
    assert plan.open_spaces == spaces
    _drive_matches(d["_cm"], plan)


def test_drawn_tiles_that_cost_more_than_planned_cost_actions_not_the_plan():
    """A bag whose tiles are dearer than its rounded expectation on some draws: the driver keeps the plan's
    actions when the draws allow and never drives fewer actions than the plan on a known route."""
    board, race = _open_strip({"terrain": "only", "fuel": 2, "mech": 1}, 4, {"fuel": 10, "engine": 5})
    board.bag.append(type(board.bag[0])("dear", 3, 3, 2))
    d = direction(board, race, candidates=2)
    plan = d["_plans"]["fastest"]
    runs = [montecarlo.run_once(d["_cm"], plan, random.Random(s)) for s in range(40)]
    assert all(r["failed"] is None for r in runs)
    assert all(r["actions"] >= 1 for r in runs)
    cheap = [r for r in runs if r["fuel"] <= plan.fuel_burnt and r["mech"] <= plan.mech_lost]
    assert cheap and all(r["actions"] == plan.actions for r in cheap)


def test_a_drawn_stop_ends_the_action_unless_a_spare_guide_is_held():
    """Every tile of the bag is a STOP (the plan counts no STOP on an open space): three open spaces and the
    city, one planned action. Without a GUIDE card every drawn STOP ends the action: 4 actions. With three
    GUIDE cards (the plan plays none) each STOP is ignored: the plan's one action."""
    for guides, actions in ((0, 4), (3, 1)):
        board, race = _open_strip({"terrain": "ford", "fuel": 1, "mech": 0, "stop": True}, 3,
                                  {"fuel": 10, "engine": 5})
        race.cards = {"guide": guides}
        d = direction(board, race, candidates=2)
        plan = d["_plans"]["fastest"]
        assert plan.actions == 1
        run = montecarlo.run_once(d["_cm"], plan, random.Random(0))
        assert run["failed"] is None and run["actions"] == actions and run["fuel"] == 3 + 1


def test_a_drawn_danger_takes_a_spare_escorte_card_first():
    """Every tile is a DANGER (1 mechanic + 2): the plan counts 3 mechanic a space. With two ESCORTE cards the
    driver cancels the first two dangers and loses 1 + 1 + 3 mechanic instead of 9."""
    board, race = _open_strip({"terrain": "rocks", "fuel": 1, "mech": 1, "danger": True}, 3,
                              {"fuel": 10, "engine": 5, "chassis": 5})
    race.cards = {"escort": 2}
    d = direction(board, race, candidates=2)
    plan = d["_plans"]["fastest"]
    assert plan.mech_lost == 9
    run = montecarlo.run_once(d["_cm"], plan, random.Random(0))
    assert run["failed"] is None and run["mech"] == 1 + 1 + 3 and run["actions"] == plan.actions
