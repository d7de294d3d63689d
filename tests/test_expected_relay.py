"""A failed Big Attack laid again (``big_attack_failure: achievable``, :mod:`designer.systems.dirt.dice.relay`):
the outcomes and their classes, the step-by-step rule against its numpy form, and the simulator replaying it."""
from __future__ import annotations

import numpy as np
import pytest

from designer.systems.dirt.dice import relaid, relay
from designer.systems.dirt.dice.expected_time import expected_time
from designer.systems.dirt.dice.mishaps import load_mishaps
from designer.systems.dirt.dice.plan_search import cut_cells
from designer.systems.dirt.dice.rollout import first_loss
from designer.systems.dirt.dice.turn_model import FIN, NO_DAMAGE, DirtModel
from designer.systems.dirt.driving.rules import road_of
from designer.systems.dirt.driving.ruleset import load_ruleset
from tests.test_expected_exhaustive import MISHAPS, tiny_road

RULES = load_ruleset().with_options(big_attack_failure="achievable")


def _model(G, rules=RULES, mishaps=MISHAPS):
    return DirtModel(road_of(G), rules, mishaps)


def _start(model):
    return model.road.nodes.index("r0a")


def test_the_failing_outcomes_add_up_to_the_chance_of_a_failure():
    """Every plan's failing outcomes (classes) weigh what the plan-order roll-out says fails."""
    model = _model(tiny_road(6, 2, {(3, 0): 3}, {(2, 1): 4}))
    cell = _start(model)
    ps = model.plans(cell, 0, NO_DAMAGE)
    fail, ok = first_loss(ps, model.limit)
    for p in range(ps.n):
        probs = relaid.plan_classes(model, cell, 0, ps.steps[p])[0]
        assert probs.sum() == pytest.approx(1 - ok[p], abs=1e-12)


def test_the_numpy_rule_is_the_step_by_step_rule():
    """:func:`relay._loses_all` says what :func:`relay._loses` says, for every step of every laying and every
    failing outcome of the plans from a boundary (gear and gas dice, brake moves, cuts)."""
    model = _model(tiny_road(7, 2, {(2, 0): 4, (4, 1): 2}, {(3, 0): 3}))
    cell = _start(model)
    engine = model.engine(model.pool(cell, NO_DAMAGE))
    checked = 0
    for gear in (0,):
        ps = model.plans(cell, gear, NO_DAMAGE)
        for p in range(ps.n):
            rolled, jumps = relay.plan_dice(ps.steps[p])
            steps = relay.layings(engine, cut_cells(engine), cell, gear, rolled)
            outs = relay.outcomes(model.rules, rolled, jumps)
            if not outs:
                continue
            fast = relay._loses_all(relay._step_arrays(steps), rolled, np.array([o for _p, o in outs]), model.limit)
            slow = np.array([[relay._loses(st, rolled, o, model.limit) for st in steps] for _p, o in outs])
            assert (fast == slow).all()
            checked += fast.size
    assert checked > 100


def test_a_laid_failure_needs_the_hazards_it_reaches_the_limit_with():
    """Three gear dice showing hazards on a straight: laid again, the loss lies where the third of them is laid,
    so gear 1, 2, 3 all showing a hazard lose on the third cell, never past the line further on."""
    model = _model(tiny_road(6, 1, {}))
    engine = model.engine(model.pool(0, NO_DAMAGE))
    rolled = 0b111                                   # gear dice 1, 2 and 3
    steps = relay.layings(engine, cut_cells(engine), _start(model), 0, rolled)
    points, classes, which = relay.failure_classes(model.rules, steps, rolled, (), as_index=True)
    assert len(classes) == 1 and which == {(0b111, 0, 0, 0): 0}
    names = model.road.nodes
    assert [(names[pt[0]], pt[1], pt[2]) for pt in (points[i] for i in classes[0][1])] == [("r3a", 3, False)]


def test_the_simulator_replays_the_laid_failures():
    """The Monte Carlo player rolls every die, lays a failed Big Attack where its dice allow at least cost, and
    agrees with the solver's expectation within its 95 % interval."""
    mishaps = load_mishaps()
    G = tiny_road(9, 2, {(3, 0): 3, (3, 1): 4, (6, 0): 2}, {(5, 1): 3})
    result = expected_time(G, RULES, mishaps=mishaps)
    assert result.to_dict()["big_attack_failure"] == "achievable"
    attacks = sum(1 for (s, b), p in result.stats.occupancy.items()
                  if p > 0 and result.model.terminal(s) is None and result.solution.decision(s, b).mode == "attack")
    assert attacks, "the test stage should make the policy attack"
    runs = result.simulate(4000, seed=3)
    lo, hi = runs.ci95
    assert lo - 0.05 <= result.seconds <= hi + 0.05


@pytest.mark.parametrize("sisu", [False, True])
def test_the_sweep_lays_failures_as_the_recursion_does(sisu):
    """Under achievable, the sweep (many boundaries at once, with its own bound) gives the values of the plain
    recursion (one boundary at a time), with and without the SISU token."""
    from designer.racing.mdp import solve
    from designer.systems.dirt.dice.sweep import sweep

    G = tiny_road(8, 2, {(3, 0): 3, (5, 1): 2}, {(4, 0): 3})

    def model():
        return DirtModel(road_of(G), RULES, load_mishaps(), sisu=sisu)

    swept = model()
    starts = [(s, 0, swept.start_damage) for s in swept.road.starts()]
    known = sweep(swept, starts)
    reference = solve(model(), starts)
    # without the SISU token the states after a change of wheel are decided only where the change could pay
    needed = {s for s in reference.values if sisu or s == FIN or not s[2][3]}
    assert set(known[0]) >= needed
    worst = max(float(abs(known[0][s] - reference.values[s]).max()) for s in needed)
    assert worst < 1e-9
