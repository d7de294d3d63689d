"""The closure of the DIRT expected-time sweep (every state the optimum needs, forward from the starts):
the fast search (numpy masks over the point numbers, the states of a kind of point worked out once) against
the reference that follows each point through the model's lists of outcomes."""
from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.systems.dirt.dice.closure import closure, closure_reference
from designer.systems.dirt.dice.mishaps import load_mishaps
from designer.systems.dirt.dice.turn_model import FIN, DirtModel
from designer.systems.dirt.driving.rules import road_of
from designer.systems.dirt.driving.ruleset import load_ruleset
from tests.test_expected_dirt import demo_track


@functools.lru_cache(maxsize=None)
def demo_road():
    return road_of(demo_track().graph)


def _both(rules, mishaps, sisu=False):
    """The closure of the demonstration stage from its starts, fast and reference, each on a model of its own."""
    out = []
    for follow in (closure, closure_reference):
        model = DirtModel(demo_road(), rules, mishaps, sisu=sisu)
        out.append(follow(model, [(s, 0, model.start_damage) for s in model.road.starts()]))
    return out


@pytest.mark.parametrize("reading", ["achievable", "as_laid", "latest"])
@pytest.mark.parametrize("sisu", [False, True])
def test_the_closure_is_the_reference_closure(reading, sisu):
    fast, reference = _both(load_ruleset().with_options(big_attack_failure=reading), load_mishaps(), sisu)
    assert fast == reference
    assert FIN in fast and len(fast) > 100
    assert any(s != FIN and s[2][3] for s in fast)                 # the spare wheel was changed somewhere


@pytest.mark.parametrize("options", [{"red_zone": True}, {"canon_start": True}])
def test_the_closure_with_advanced_rules(options):
    fast, reference = _both(load_ruleset().with_options(**options), load_mishaps().replace(max_damage=2))
    assert fast == reference


@settings(max_examples=12, deadline=None)
@given(backs=st.sampled_from([(0.5, 0.3, 0.2), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.0, 0.6, 0.4)]),
       flat=st.integers(0, 3), sisu_gear=st.sampled_from(["same", 0, 2]), max_damage=st.integers(0, 2),
       reading=st.sampled_from(["achievable", "as_laid"]), sisu=st.booleans())
def test_the_closure_under_any_mishaps(backs, flat, sisu_gear, max_damage, reading, sisu):
    """Whichever backs of the card can happen, cuts that flatten a tyre or never do, the SISU card's gear and
    the damage tracked: the same states."""
    base = load_mishaps()
    mishaps = base.replace(card_backs=dict(zip(("spin", "crash", "sisu"), backs)), sisu_gear=sisu_gear,
                           max_damage=max_damage, cut_tokens={**base.cut_tokens, "flat": flat})
    fast, reference = _both(load_ruleset().with_options(big_attack_failure=reading), mishaps, sisu)
    assert fast == reference


def test_a_loss_of_control_is_one_back_of_the_card():
    """The outcomes of a loss of control off the finish line, built from :meth:`DirtModel.loss_ends`: chances
    adding up to 1, the card's seconds, a spin or crash in gear 0 on the cell, SISU in the card's gear."""
    mishaps = load_mishaps().replace(max_damage=2)
    model = DirtModel(demo_road(), load_ruleset(), mishaps)
    rules = model.rules
    checked = 0
    for cell in range(0, len(model.road.nodes), 3):
        for gear in range(1, 7):
            for cuts in (0, 1, 2):
                for damage in ((0, 0, 0, 0, 0), (0, 1, 0, 0, 0), (1, 0, 1, 0, 0)):
                    outs = model.loss_outcomes(cell, gear, False, cuts, damage)
                    assert sum(o[0] for o in outs) == pytest.approx(1.0)
                    for p, sec, (c, g, d), loss in outs:
                        assert loss and c == cell and sum(d[:3]) <= mishaps.max_damage
                        assert sum(d[:3]) >= sum(damage[:3])
                        assert (g, sec) in ((0, rules.loss_of_control_seconds), (gear, mishaps.sisu_seconds))
                    checked += 1
    assert checked > 100


def test_the_closure_without_the_changes_of_wheel_is_the_reference_s():
    """Left out, the states after a change of the spare wheel (which the sweep decides where a change could pay):
    the same states in both, none with the wheel spent, and fewer than with them."""
    rules = load_ruleset()
    out = []
    for follow in (closure, closure_reference):
        model = DirtModel(demo_road(), rules, load_mishaps())
        out.append(follow(model, [(s, 0, model.start_damage) for s in model.road.starts()], wheel=False))
    fast, reference = out
    assert fast == reference
    assert not any(s != FIN and s[2][3] for s in fast)
    assert len(fast) < len(_both(rules, load_mishaps())[0])
