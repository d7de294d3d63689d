"""Expected time of a DIRT stage under the dice: properties, the Monte Carlo check and the model's bounds.

Most tests use a short demonstration stage (start, one hairpin, one bend, finish) so that each solve takes
a second or two; one test runs a rulebook stage through ``analyze``.
"""
from __future__ import annotations

import functools

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from designer.systems.dirt.board.stage import loads_stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.dice.expected_time import expected_time
from designer.systems.dirt.dice.mishaps import load_mishaps
from designer.systems.dirt.dice.player import DicePlayer
from designer.systems.dirt.dice.turn_model import Decision, cheapest_from
from designer.systems.dirt.driving.ruleset import load_ruleset

DEMO = """\
# Demonstration stage designed for these tests (not from the rulebook): start, a hairpin, a bend, finish.
stage: Demo short stage (tests)
tileset: dirt-core
surface: gravel
tiles:
- 202a A
- 210b C
- 217a D
- 203a A
"""


@functools.lru_cache(maxsize=None)
def demo_track():
    stage = loads_stage(DEMO, "demo.yaml")
    return assemble(stage, get_tileset(stage.tileset))


def quick_mishaps(**changes):
    m = load_mishaps()
    return m.replace(**{"max_damage": 0, "most_damage": None, **changes})


@functools.lru_cache(maxsize=None)
def demo_result(max_damage=1):
    return expected_time(demo_track(), mishaps=load_mishaps().replace(max_damage=max_damage, most_damage=None))


def no_hazards(rules):
    return rules.replace(hazard_faces={k: 0 for k in rules.hazard_faces})


def test_value_and_policy_agree():
    r = demo_result()
    assert r.stats.seconds == pytest.approx(r.solution.value(r.start, 0), abs=1e-9)
    d = r.to_dict()
    assert d["seconds"] == pytest.approx(r.seconds, abs=1e-3) and d["turns"] >= 1
    assert 0 < d["loss_of_control_chance"] < 1
    dist = r.distribution()
    assert sum(dist.values()) == pytest.approx(1.0, abs=1e-9)
    assert sum(t * p for t, p in dist.items()) == pytest.approx(r.seconds, abs=1e-6)
    var = sum((t - r.seconds) ** 2 * p for t, p in dist.items())
    assert var ** 0.5 == pytest.approx(r.stats.sd, abs=1e-6)
    assert d["p10_seconds"] <= d["p50_seconds"] <= d["p90_seconds"]
    assert d["policy"][0]["cell"] == r.model.road.nodes[r.start[0]]
    assert {"card_backs", "crash_damage_marks", "damage_tokens", "cut_tokens", "time_card"} <= set(d["assumed"])
    assert all(v["status"] in ("rulebook", "reference", "assumed", "decided") for v in d["assumed"].values())


def test_monte_carlo_agrees_with_the_expectation():
    r = demo_result()
    runs = r.simulate(4000, seed=7)
    lo, hi = runs.ci95
    assert lo <= r.seconds <= hi
    assert runs.turns.mean() == pytest.approx(r.stats.turns, rel=0.05)
    assert abs((runs.losses > 0).mean() - r.stats.loss_chance) < 0.03
    assert runs.percentile(10) <= runs.percentile(50) <= runs.percentile(90)


def _no_hazard_reference(track, rules):
    """Without hazard faces every Big Attack succeeds: the best run is the cheapest chain of turns, each
    costing its card minus the tokens it earns. An independent recursion over EVERY legal turn of the engine
    (not the plan search of the solver), so that it also checks that the plans searched miss no better one."""
    from designer.systems.dirt.driving.rules import TurnEngine, road_of

    road = road_of(track.graph)
    engine = TurnEngine(road, rules, rules.pool("gravel", False), None)

    @functools.lru_cache(maxsize=None)
    def best(cell, gear):
        out = float("inf")
        for turn in engine.all_turns(cell, gear):
            gain = sum(1 for st in turn.steps if "red-zone" not in st.events for d in st.dice if d != "brake")
            rest = 0.0 if turn.finished else best(road.index[turn.end], turn.gear)
            out = min(out, turn.seconds - gain + rest)
        return out

    return min(best(s, 0) for s in road.starts())


def test_without_hazard_faces_the_expected_time_is_the_ideal_time():
    rules = no_hazards(load_ruleset())
    r = expected_time(demo_track(), rules, mishaps=quick_mishaps(max_tokens=40))
    assert r.stats.loss_chance == pytest.approx(0.0)
    assert r.seconds == pytest.approx(_no_hazard_reference(demo_track(), rules), abs=1e-9)
    assert r.seconds <= r.ideal_seconds            # Big Attack tokens only take time off the shakedown


@settings(max_examples=6, deadline=None)
@example(gear=1, gas=0, brake=0, crash=0.0)
@given(gear=st.integers(0, 3), gas=st.integers(0, 3), brake=st.integers(0, 3), crash=st.floats(0, 1))
def test_expected_time_is_never_below_the_ideal_under_hazards(gear, gas, brake, crash):
    """Whatever the hazard faces and card backs, the dice can only cost time: expected >= the no-hazard optimum
    (the ideal time when Big Attack tokens are counted)."""
    base = load_ruleset()
    faces = {k: (gear if k.startswith("gear") else gas if k in ("gas", "leader") else brake)
             for k in base.hazard_faces}
    rules = base.replace(hazard_faces=faces)
    mishaps = quick_mishaps(card_backs={"spin": 1 - crash, "crash": crash, "sisu": 0.0})
    r = expected_time(demo_track(), rules, mishaps=mishaps)
    ideal = expected_time(demo_track(), no_hazards(base), mishaps=mishaps)
    assert r.seconds >= ideal.seconds - 1e-9


class CautiousPlayer(DicePlayer):
    """A fixed simple policy: always roll one by one the plan the solver picked, never secure, stop as soon as
    one more hazard could be a loss of control (two hazards shown)."""

    def play(self, state, t, decision, rng, value):
        if decision.mode == "attack":
            decision = Decision("roll", decision.plan)
        return super().play(state, t, decision, rng, value)

    def _choice(self, key, hit, i, h, k, tok):
        if i >= 1 and (i >= hit[3].length or h >= self.model.limit - 1):
            return "stop"
        return "roll"


class AttackPlayer(DicePlayer):
    """Another fixed simple policy: always a Big Attack of the plan the solver picked."""

    def play(self, state, t, decision, rng, value):
        if decision.mode == "roll":
            decision = Decision("attack", decision.plan)
        return super().play(state, t, decision, rng, value)


def test_optimal_policy_beats_always_attacking():
    from designer.racing.simulate import simulate

    r = demo_result()
    runs = simulate(r.solution, AttackPlayer(r.model), r.starts, runs=3000, seed=5)
    assert r.seconds <= runs.ci95[1]
    assert r.seconds < runs.mean


def test_optimal_policy_beats_a_simple_policy():
    from designer.racing.simulate import simulate

    r = demo_result()
    runs = simulate(r.solution, CautiousPlayer(r.model), r.starts, runs=3000, seed=3)
    assert r.seconds <= runs.ci95[1]
    assert r.seconds < runs.mean


def test_bounds_do_not_change_the_answer():
    """Tokens held, dice secured per turn and damage tracked are bounded; raising each bound leaves the
    expected time unchanged on the demo stage (``benchmarks/bench_expected.py --bounds`` measures their small
    effect on a rulebook stage; see docs/rules-notes.md)."""
    base = expected_time(demo_track(), mishaps=quick_mishaps()).seconds
    assert expected_time(demo_track(), mishaps=quick_mishaps(max_tokens=14)).seconds == pytest.approx(base, abs=1e-6)
    assert expected_time(demo_track(), mishaps=quick_mishaps(max_secured=5)).seconds == pytest.approx(base, abs=1e-6)
    assert demo_result(2).seconds == pytest.approx(demo_result(1).seconds, abs=1e-6)


def test_the_leader_drives_with_leader_dice():
    r = expected_time(demo_track(), leader=True, mishaps=quick_mishaps())
    dice = {d for turn in r.to_dict()["policy"] for step in turn["plan"] for d in step["dice"]}
    assert "gas" not in dice and r.to_dict()["leader"] is True
    follower = expected_time(demo_track(), mishaps=quick_mishaps())
    assert r.seconds != pytest.approx(follower.seconds)


def test_crashes_cost_more_than_spins():
    spins = expected_time(demo_track(), mishaps=quick_mishaps(card_backs={"spin": 1.0, "crash": 0.0, "sisu": 0.0},
                                                               max_damage=1))
    crashes = expected_time(demo_track(), mishaps=quick_mishaps(card_backs={"spin": 0.0, "crash": 1.0, "sisu": 0.0},
                                                                 max_damage=1))
    assert crashes.seconds >= spins.seconds - 1e-9


def test_sisu_token_helps_and_the_dice_agree():
    """The SISU token (optional rule, p. 24: once per stage, ignore a turn's hazards, even after rolling) can
    only take time off; its policy played with dice agrees with its expectation."""
    without = expected_time(demo_track(), mishaps=quick_mishaps())
    with_token = expected_time(demo_track(), mishaps=quick_mishaps(), sisu=True)
    assert with_token.seconds <= without.seconds + 1e-9
    assert with_token.stats.loss_chance < without.stats.loss_chance
    assert with_token.to_dict()["policy"][0]["sisu_token"] is True
    runs = with_token.simulate(3000, seed=11)
    lo, hi = runs.ci95
    assert lo - 1e-6 <= with_token.seconds <= hi + 1e-6


def test_analyze_carries_the_expected_time():
    """``analyze`` has an ``expected`` key with documented, JSON-ready keys; the table time uses the expected
    turns; one player is the leader (p. 8: the first car of a round)."""
    import json

    from designer.systems.dirt.analysis import analyze
    from designer.systems.dirt.report import text_report

    data = analyze(demo_track(), players=2)
    exp = data["expected"]
    assert {"seconds", "sd", "p10_seconds", "p90_seconds", "turns", "loss_of_control_chance", "ideal_seconds",
            "policy", "decisions", "tiles", "costliest_tiles", "assumed", "bounds"} <= set(exp)
    assert exp["ideal_seconds"] == data["fastest_line"]["seconds"] and exp["leader"] is False
    assert data["estimate"]["expected_turns"] == pytest.approx(exp["turns"], abs=1e-3)
    json.dumps(data)
    text = text_report(data)
    assert text.splitlines()[1].strip().startswith("expected time") and "ideal" in text.splitlines()[1]
    alone = analyze(demo_track(), players=1)
    assert alone["leader"] is True and alone["expected"]["leader"] is True
    assert analyze(demo_track(), players=2, expected=False)["expected"] is None


@given(st.lists(st.sampled_from([-2.0, 0.0, 1.5, 3.0, 1e9]), min_size=1, max_size=12))
def test_cheapest_from_is_the_first_least_value_at_or_after_each_point(values):
    """Where a failed Big Attack lays its loss of control: the first point of least value from j on."""
    assert cheapest_from(values) == [min(range(j, len(values)), key=values.__getitem__) for j in range(len(values))]


def test_the_securing_table_lists_every_k_a_reader_may_meet():
    """A secured brake move secures its dice at once, so k dice secured can pass the die's index: each row from the
    second die on lists every k up to the bound that the tokens held allow. (Solved as laid: on the demo road that
    policy rolls one by one with three tokens or more, where the rulebook's reading prefers Big Attacks.)"""
    from designer.systems.dirt.board.track import load_track

    result = expected_time(load_track(loads_stage(DEMO + "options:\n  big_attack_failure: as_laid\n", "demo.yaml")))
    K = result.mishaps.max_secured
    rows = [(d, i, row) for d in result.decisions() if d["mode"] == "roll"
            for i, row in enumerate(d["before_each_die_after_securing"])]
    assert any(d["tokens"] >= 3 and i for d, i, row in rows)          # two dice or more can be secured there
    for d, i, row in rows:
        ks = {int(key.split("/")[1]) for key in row}
        affordable = {k for k in range(1, K + 1) if d["tokens"] >= k * (k + 1) // 2}
        assert ks == (affordable if i else set()), (d["cell"], i, sorted(ks))


def test_the_reading_of_a_failed_big_attack_is_named_and_changes_the_figure():
    from designer.systems.dirt.board.track import load_track

    stage = loads_stage(DEMO + "options:\n  big_attack_failure: latest\n", "demo.yaml")
    latest = expected_time(load_track(stage)).to_dict(details=False)
    default = expected_time(demo_track()).to_dict(details=False)
    assert default["big_attack_failure"] == "achievable" and latest["big_attack_failure"] == "latest"
    assert latest["seconds"] <= default["seconds"] + 1e-9   # laying the loss anywhere later never costs more
    laid = expected_time(load_track(loads_stage(DEMO + "options:\n  big_attack_failure: as_laid\n",
                                                "demo.yaml"))).to_dict(details=False)
    assert laid["big_attack_failure"] == "as_laid"
    assert default["seconds"] <= laid["seconds"] + 1e-9   # the dice laid again where the plan lies is one laying
