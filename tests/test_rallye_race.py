"""A race of several drivers, round by round as the rules run it: seconds received behind the fastest, the
leader's seconds taken off everyone, the leader's stress card, every seat reported."""
from __future__ import annotations

import pytest

from designer.core import paths
from designer.core.errors import DesignerError
from designer.systems.rallye.driving.race import race
from designer.systems.rallye.model.deck import get_deck, loads_deck
from designer.systems.rallye.system import SYSTEM

DECK = get_deck("rallye-demo")
SS1 = ["32", "5", "37", "25", "13", "4", "31", "17", "9", "27", "8", "26"]

LEVEL = """system: rallye
deck: level
sections:
""" + "".join(f"  - {{id: {i}, width: wide, surface: tarmac, severity: none, safety: 240, top: 240}}\n" for i in range(1, 13)) + \
    "actions:\n  - {id: a, acceleration: 40, steering: [], owner: start, count: 12}\n"


def test_drivers_who_always_match_stay_level_and_take_no_stress():
    deck = loads_deck(LEVEL, "level.yaml")
    out = race(deck, [deck.section(i) for i in range(1, 13)], players=3, runs=20, seed=4)
    for seat in out["seats"]:
        assert seat["mean_behind_seconds"] == 0 and seat["wins"] == 1.0 and seat["stress_per_stage"] == 0


@pytest.mark.parametrize("players", [2, 4])
def test_every_seat_is_reported_and_someone_wins_every_race(players):
    out = race(DECK, [DECK.sections[c] for c in SS1], players=players, runs=30, seed=2)
    assert [s["seat"] for s in out["seats"]] == list(range(1, players + 1))
    assert sum(s["wins"] for s in out["seats"]) >= 1.0 - 1e-9        # ties share the win
    for s in out["seats"]:
        assert 0 <= s["p10"] <= s["mean_behind_seconds"] <= s["p90"] + 1e-9
        assert s["stress_per_stage"] > 0                           # someone leads, and the leader takes stress
    assert race(DECK, [DECK.sections[c] for c in SS1], players=players, runs=30, seed=2) == out


def test_the_race_is_in_the_analysis_when_asked():
    stage = SYSTEM.load(paths.STAGES / "rallye" / "demo-ss1-col-des-essais.yaml")
    result = SYSTEM.analyse(stage, SYSTEM.box_of(stage), runs=0, race_runs=10, players=3)
    assert result["race"]["players"] == 3 and len(result["race"]["seats"]) == 3
    assert any(line.startswith("a race of 3 drivers") for line in result["summary"])
    assert SYSTEM.analyse(stage, SYSTEM.box_of(stage), runs=0, players=3)["race"] is None
    with pytest.raises(DesignerError):
        SYSTEM.analyse(stage, SYSTEM.box_of(stage), runs=0, race_runs=-1)
    with pytest.raises(ValueError):
        race(DECK, [DECK.sections[c] for c in SS1], players=7)


def _with_table(deck, **seconds):
    import dataclasses

    from designer.systems.rallye.model.rules import Param

    params = dict(deck.ruleset.params)
    old = params["table_minutes"]
    params["table_minutes"] = Param({**old.value, **seconds}, old.status, old.source)
    return dataclasses.replace(deck, ruleset=dataclasses.replace(deck.ruleset, params=params, _cache={}))


def test_the_table_time_is_counted_from_what_the_races_played():
    sections = [DECK.sections[c] for c in SS1]
    out = race(DECK, sections, players=3, runs=20, seed=3)
    table = out["table_time"]
    assert table["source"] == "simulated races" and table["races"] == 20 and table["rounds"] == 12
    assert table["p10_minutes"] <= table["mean_minutes"] <= table["p90_minutes"]
    assert table["cards_laid_per_round"] >= 3                       # every driver lays at least one card a round
    # the same races with no seconds per card laid: the minutes drop by exactly the cards laid times their seconds
    p = DECK.ruleset.table_minutes
    free = race(_with_table(DECK, card_seconds=0), sections, players=3, runs=20, seed=3)["table_time"]
    assert table["mean_minutes"] - free["mean_minutes"] == pytest.approx(
        table["cards_laid_per_round"] * 12 * p["card_seconds"] / 60, abs=0.02)
    more = race(DECK, sections, players=4, runs=20, seed=3)["table_time"]
    assert more["mean_minutes"] > table["mean_minutes"] and more["cards_laid_per_round"] > table["cards_laid_per_round"]


def test_each_seat_has_its_own_time_with_spread_and_interval():
    out = race(DECK, [DECK.sections[c] for c in SS1], players=2, runs=40, seed=6)
    for seat in out["seats"]:
        lo, hi = seat["solo_ci95"]
        assert lo <= seat["solo_seconds"] <= hi and seat["solo_stdev"] >= 0
        assert seat["solo_seconds"] >= 12                            # at least 1 s a section on the solo scale


def test_the_analysis_table_time_comes_from_simulated_races():
    stage = SYSTEM.load(paths.STAGES / "rallye" / "demo-ss1-col-des-essais.yaml")
    asked = SYSTEM.analyse(stage, SYSTEM.box_of(stage), runs=0, race_runs=15, players=2)
    assert asked["table_time"] == asked["race"]["table_time"] and asked["table_time"]["races"] == 15
    default = SYSTEM.analyse(stage, SYSTEM.box_of(stage), runs=0, players=1)
    assert default["table_time"]["source"] == "simulated races" and default["table_time"]["players"] == 1
    assert any("counted from" in line and "simulated races" in line for line in default["summary"])
    assert SYSTEM.analyse(stage, SYSTEM.box_of(stage), runs=0, table_races=0)["table_time"] is None


def _buying(below: int):
    """The demo deck with drivers who buy cards (E) when fewer than ``below`` action cards are left."""
    import dataclasses

    from designer.systems.rallye.model.rules import Param

    params = dict(DECK.ruleset.params)
    habits = params["drivers"]
    params["drivers"] = Param({**habits.value, "buy_below_cards": below}, habits.status, habits.source)
    return dataclasses.replace(DECK, ruleset=dataclasses.replace(DECK.ruleset, params=params, _cache={}))


def test_drivers_who_buy_cards_race_and_run_alone_and_never_buy_after_the_last_section():
    """E: up to 3 cards for 1, 2, 3 s, a card of a kind the driver started with included (its hand is then played
    by the plain habit); no card is bought once the last section is crossed (it could never be played)."""
    from designer.systems.rallye.driving.plan import solve
    from designer.systems.rallye.driving.simulate import simulate

    deck = _buying(14)
    sections = [deck.sections[c] for c in SS1]
    out = race(deck, sections, players=3, runs=30, seed=1)
    assert sum(s["cards_bought_per_stage"] for s in out["seats"]) > 0
    assert simulate(deck, sections, solve(deck, sections), runs=30, seed=1)["cards_bought_per_stage"] > 0
    one = sections[:1]
    assert simulate(deck, one, solve(deck, one), runs=10, seed=1)["cards_bought_per_stage"] == 0
    assert all(s["cards_bought_per_stage"] == 0 for s in race(deck, one, players=2, runs=10, seed=1)["seats"])


def test_the_stress_handicap_goes_into_the_race():
    """« les joueurs les plus expérimentés peuvent ajouter une deux ou trois carte stress dans leur jeu de
    départ »: the stress cards asked for are in every driver's starting set at the table too."""
    sections = [DECK.sections[c] for c in SS1]
    plain = race(DECK, sections, players=2, runs=150, seed=3)
    handicapped = race(DECK, sections, players=2, runs=150, seed=3, extra_stress=3)
    assert all(h["stress_per_stage"] == p["stress_per_stage"] or h["solo_seconds"] != p["solo_seconds"]
               for h, p in zip(handicapped["seats"], plain["seats"]))
    assert sum(s["solo_seconds"] for s in handicapped["seats"]) > sum(s["solo_seconds"] for s in plain["seats"])


def test_the_common_pile_holds_the_starting_sets_no_driver_takes():
    from designer.systems.rallye.driving.plan import action_cards, race_cards

    own = action_cards(DECK)
    for players in (1, 2, 4):
        start, pile = race_cards(DECK, players)
        assert start == own
        assert len(pile) == len(action_cards(DECK, DECK.pile())) + (4 - players) * len(own)


def test_a_race_is_for_two_to_four_drivers_and_says_so():
    from click.testing import CliRunner

    from designer.cli import main

    stage = "stages/rallye/demo-ss1-col-des-essais.yaml"
    for args, words in ((["--players", "5"], "1 to 4 drivers, not 5"),
                        (["--players", "1", "--simulate", "10"], "a race needs 2 to 4 drivers")):
        out = CliRunner().invoke(main, ["analyze", stage, *args])
        assert out.exit_code == 2 and words in out.output and "Traceback" not in out.output, out.output
    with pytest.raises(ValueError):
        race(DECK, [DECK.sections[c] for c in SS1], players=5, runs=2)


def test_a_rally_raced_adds_each_drivers_seconds_behind_over_the_stages():
    """« cumuler les temps. Le vainqueur est celui qui a le nombre de secondes cumulées le plus faible après toutes
    les spéciales »: per seat the rally's seconds behind are its stages' added up, and a rally always has a
    winner (ties share it)."""
    from designer.systems.rallye.driving.rally_race import race_rally

    legs = [(DECK, [DECK.sections[c] for c in SS1]), (DECK, [DECK.sections[c] for c in SS1[::-1]])]
    out = race_rally(legs, players=3, runs=60, seed=5)
    assert out["stages"] == 2 and [s["seat"] for s in out["seats"]] == [1, 2, 3]
    assert sum(s["wins"] for s in out["seats"]) >= 1.0 - 1e-9
    for s in out["seats"]:
        assert abs(s["mean_behind_seconds"] - sum(s["stage_behind_seconds"])) < 0.02
        assert s["behind_ci95"][0] <= s["mean_behind_seconds"] <= s["behind_ci95"][1]
    assert race_rally(legs, players=3, runs=60, seed=5) == out
    with pytest.raises(DesignerError):
        race_rally(legs, players=1, runs=5)


def test_the_demo_rally_is_raced_from_the_command_line():
    from click.testing import CliRunner

    from designer.cli import main

    out = CliRunner().invoke(main, ["analyze", "stages/rallye/demo-rally.yaml", "--simulate", "20", "--players", "3"])
    assert out.exit_code == 0, out.output
    assert "3 drivers raced the 3 stages 20 times" in out.output
    assert "the fewest after all the stages wins" in out.output
