"""Several DIRT cars on one stage (designer/systems/dirt/dice/table.py): the rulebook's overtaking and blocking
examples on a two-lane road, the single car unchanged, alike players alike, and what a race must keep."""
from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.core.errors import DesignerError
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice.table import Cells, Table, first_block, simulate_table
from designer.systems.dirt.dice.table_rules import load_table_rules
from designer.systems.dirt.dice.turn_model import FIN

RULES = load_table_rules()


class _Road:
    """A road as :class:`Cells` reads it: a graph and its cells in order."""

    def __init__(self, graph):
        self.graph = graph
        self.nodes = list(graph.nodes)


def two_lanes(stretches: int = 5, corner_at: int | None = None, cut_at: int | None = None):
    """A straight of two lanes, one tile a stretch; cell names 'L<lane>s<stretch>', numbered in that order."""
    g = nx.DiGraph()
    for s in range(stretches):
        for lane in (0, 1):
            g.add_node(f"L{lane}s{s}", index=s, lane=lane, a=0.0, b=1.0, pos=s + 0.5,
                       corner="inside" if s == corner_at and lane == 1 else None,
                       cut=1 if s == cut_at and lane == 0 else None, slide=False)
    road = _Road(g)
    return Cells(road), {n: i for i, n in enumerate(road.nodes)}


def plan(ix, *moves):
    """Steps (dice, cells, gear, events) of a plan: moves are (cell name, gear)."""
    return [((f"gear{g}",), (ix[c],), g, ()) for c, g in moves]


def test_cells_beside_are_the_other_lane_of_the_same_stretch():
    cells, ix = two_lanes()
    assert cells.beside[ix["L0s2"]] == (ix["L1s2"],)
    assert cells.beside[ix["L1s0"]] == (ix["L0s0"],)


def test_overtaking_example_red_passes_blue_then_yellow():
    # "Le Dépassement": red, in gear 5 beside blue, shifts to 6 and moves diagonally beside yellow; its gear is
    # at least theirs, so it gets past both and carries on.
    cells, ix = two_lanes()
    blue, yellow = {ix["L1s1"]: 5}, {ix["L0s2"]: 6}
    red = plan(ix, ("L0s1", 5), ("L1s2", 6), ("L1s3", 6))
    assert first_block(red, {**blue, **yellow}, cells, RULES) is None
    # the same move against a faster blue: red cannot come beside it
    assert first_block(red, {ix["L1s1"]: 6, **yellow}, cells, RULES) == 1
    # and a yellow in gear 6 passed in gear 5 stops the second step
    slow = plan(ix, ("L0s1", 5), ("L1s2", 5))
    assert first_block(slow, {**blue, **yellow}, cells, RULES) == 2


def test_blocked_example_yellow_stopped_by_blue_and_green_side_by_side():
    # "Bloqué": blue and green hold both lanes in front of yellow; whichever lane it takes, its first move is
    # stopped, so its turn ends at once without moving.
    cells, ix = two_lanes()
    cars = {ix["L0s1"]: 2, ix["L1s1"]: 2}
    for lane in (0, 1):
        assert first_block(plan(ix, (f"L{lane}s1", 6), (f"L{lane}s2", 6)), cars, cells, RULES) == 1


def test_blocked_example_red_cannot_reach_the_gear_of_orange():
    # "Bloqué": red (gear 2) has not the room to reach orange's gear 4 before coming beside it: it moves one
    # cell, then is blocked.
    cells, ix = two_lanes()
    orange = {ix["L1s2"]: 4}
    red = plan(ix, ("L0s1", 3), ("L0s2", 3), ("L0s3", 4))
    assert first_block(red, orange, cells, RULES) == 2


def test_a_car_in_a_corner_is_passed_only_through_a_cut():
    cells, ix = two_lanes(corner_at=2)
    in_corner = {ix["L1s2"]: 1}
    assert first_block(plan(ix, ("L0s1", 6), ("L0s2", 6)), in_corner, cells, RULES) == 2
    cells, ix = two_lanes(corner_at=2, cut_at=2)
    assert first_block(plan(ix, ("L0s1", 6), ("L0s2", 6)), in_corner, cells, RULES) is None


def _bundled(name):
    g = load_track(load_stage(f"stages/dirt/{name}.yaml")).graph
    road = _Road(g)
    return Cells(road), {n: i for i, n in enumerate(road.nodes)}


def test_a_car_sliding_holds_both_lanes_of_its_row():
    # Glisser: a slide counts as "deux cases distinctes ... qui bloquent les deux voies de la piste"; Voiture
    # effectuant une glissade: the car sliding cannot be passed but through a cut. Rally 1 SS1, tile 3: the
    # half-cell 3:s1a lies over the cell 3:a0 of the same lane.
    cells, ix = _bundled("rally-1/ss1")
    assert ix["3:a0"] in cells.beside[ix["3:s1a"]] and ix["3:s1a"] in cells.beside[ix["3:a0"]]
    into_row = [(("gear3",), (ix["3:a0"],), 3, ())]
    assert first_block(into_row, {ix["3:s1a"]: 1}, cells, RULES) == 1          # a slower car sliding there
    sliding_in = [(("gear3",), (ix["3:s1a"],), 3, ())]
    assert first_block(sliding_in, {ix["3:a0"]: 1}, cells, RULES) == 1         # no slide beside a car
    free = RULES.replace(corner_and_slide_passing="free")
    assert first_block(into_row, {ix["3:s1a"]: 1}, cells, free) is None


def test_a_cut_is_beside_the_cells_it_connects_but_the_corner_cells():
    # Le Dépassement: "Les Cordes comptent comme étant adjacentes à toutes les cases qui y sont connectées à
    # l'exception des cases Virage": coming into the cut beside a car there takes a die of its gear or more.
    cells, ix = _bundled("rally-2/ss1")
    cut = ix["5:cut1"]
    assert ix["5:x0"] in cells.beside[cut] and cut in cells.beside[ix["5:x0"]]
    assert not any(cells.corner[j] for j in cells.beside[cut])
    assert first_block([(("gear5",), (cut,), 5, ())], {ix["5:x0"]: 6}, cells, RULES) == 1
    assert first_block([(("gear5",), (cut,), 5, ())], {ix["5:x0"]: 5}, cells, RULES) is None
    # a car on the cut is off the track ("hors-piste"): sliding past it beside takes only a die of its gear
    slide = ix["5:s1b"]
    assert cut in cells.beside[slide] and cells.slide[slide]
    assert first_block([(("gear6",), (slide,), 6, ())], {cut: 1}, cells, RULES) is None
    assert first_block([(("gear2",), (slide,), 2, ())], {cut: 3}, cells, RULES) == 1


def test_a_jump_flies_over_a_car_but_cannot_land_on_one():
    cells, ix = two_lanes()
    jump = [(("gear4",), (ix["L0s1"], ix["L0s2"]), 4, ("jump",))]
    assert first_block(jump, {ix["L0s1"]: 1}, cells, RULES) is None
    assert first_block(jump, {ix["L0s2"]: 1}, cells, RULES) == 1


def test_the_free_rules_change_what_blocks():
    cells, ix = two_lanes(corner_at=2)
    free = RULES.replace(overtake_gear="free", corner_and_slide_passing="free")
    assert first_block(plan(ix, ("L0s1", 2)), {ix["L1s1"]: 6}, cells, free) is None
    assert first_block(plan(ix, ("L0s1", 2), ("L0s2", 2)), {ix["L1s2"]: 1}, cells, free) is None
    with pytest.raises(DesignerError, match="overtake_gear"):
        RULES.replace(overtake_gear="sometimes")


def test_table_rules_name_every_parameter_with_its_status():
    named = RULES.named()
    assert named["overtake_gear"]["status"] == "rulebook"
    assert named["blocked_turn"]["status"] == "decided"
    assert {v["status"] for v in named.values()} <= {"rulebook", "reference", "assumed", "decided"}
    assert all(v["source"] for v in named.values())


def test_a_bad_table_rules_file_says_where(tmp_path):
    text = (RULES.path and open(RULES.path, encoding="utf-8").read()).replace("value: 1\n  status: rulebook",
                                                                              "value: 9\n  status: rulebook", 1)
    bad = tmp_path / "t.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(DesignerError) as exc:
        load_table_rules(bad)
    assert any(f"{bad}:" in d and "start_stagger_rounds" in d for d in exc.value.details), exc.value.details


# -- whole races on a rulebook stage -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def stage():
    track = load_track(load_stage("stages/dirt/rally-1/ss1.yaml"))
    return track, Table(track)


def test_one_car_is_the_single_car_simulation(stage):
    track, table = stage
    alone = simulate_table(track, 1, runs=300, seed=3, table=table).seats[0]
    single = table.lead.simulate(300, seed=3)
    assert alone.times.mean() == pytest.approx(single.mean)          # the same dice, the same policy
    lo, hi = alone.to_dict()["ci95"]
    assert lo <= table.lead.seconds <= hi                             # and the exact single-car figure within it
    assert alone.blocked.sum() == 0 and (alone.led == alone.turns).all()


def test_players_drawn_at_random_are_alike(stage):
    track, table = stage
    run = simulate_table(track, 3, runs=400, seed=5, table=table, draw_order=True)
    assert run.by == "player"
    seats = [s.to_dict() for s in run.seats]
    for a in seats:
        for b in seats:
            se = ((a["sd"] ** 2 + b["sd"] ** 2) / run.runs) ** 0.5
            assert abs(a["expected_seconds"] - b["expected_seconds"]) <= 3.5 * se, (a, b)


@settings(max_examples=6, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_a_race_keeps_the_start_and_the_turns(stage, players, seed):
    track, table = stage
    run = simulate_table(track, players, runs=5, seed=seed, table=table)
    turns = [s.turns for s in run.seats]
    for k, t in enumerate(turns):
        assert (run.rounds >= t + k).all()              # car k enters in round k + 1, one turn a round
    assert (run.table_turns == sum(turns)).all()
    assert (run.seats[0].led >= 1).all()                # the first car leads its first round
    assert sum(s.led for s in run.seats).max() <= run.rounds.max()
    for s in run.seats:
        assert (s.blocked <= s.turns).all() and (s.times > 0).all()


def test_a_table_slows_the_cars_behind_and_says_what_it_rests_on(stage):
    track, table = stage
    d = simulate_table(track, 4, runs=200, seed=2, table=table).to_dict()
    assert d["seats"][0]["turns_led"] > d["seats"][3]["turns_led"]
    assert any(s["blocked_chance"] > 0 for s in d["seats"][1:])
    assert d["table_minutes"] > 0 and d["table_turns"] > 4 * min(s["turns"] for s in d["seats"]) - 1e-9
    assert d["assumed"]["stalled_card_gear"]["status"] == "assumed"
    assert d["assumed"]["rally_start_order"]["status"] == "rulebook"      # "le meilleur temps total ... premier"


def test_bad_counts_are_refused(stage):
    track, table = stage
    with pytest.raises(DesignerError, match="1 to 6 cars"):
        simulate_table(track, 7, runs=10, table=table)
    with pytest.raises(DesignerError, match="simulated races"):
        simulate_table(track, 2, runs=0, table=table)


# -- a rally -----------------------------------------------------------------------------------------------

def test_next_stage_start_order_follows_the_totals():
    from designer.systems.dirt.dice.table_rally import next_order

    assert next_order([0, 1, 2], [30.0, 10.0, 20.0], "fastest-first") == [1, 2, 0]
    assert next_order([0, 1, 2], [30.0, 10.0, 20.0], "slowest-first") == [0, 2, 1]
    assert next_order([1, 0, 2], [10.0, 10.0, 5.0], "fastest-first") == [2, 1, 0]      # a tie keeps the order
    assert next_order([2, 0, 1], [1.0, 2.0, 3.0], "same") == [2, 0, 1]


def test_a_rally_adds_its_stages_up(stage):
    from designer.systems.dirt.dice.table_rally import simulate_rally

    track, table = stage
    d = simulate_rally([track, track], players=3, runs=60, seed=4, tables=[table, table])
    assert d["stages"] == 2 and len(d["seats"]) == 3
    for s in d["seats"]:
        assert s["expected_seconds"] == pytest.approx(sum(s["stage_seconds"]), abs=0.01)
    assert sum(s["win_chance"] for s in d["seats"]) == pytest.approx(1.0, abs=2e-4)   # each to 4 places
    assert d["table_minutes"] > 0 and len(d["table_turns"]) == 2


def test_replanning_takes_a_plan_the_other_cars_allow(stage):
    import random

    track, table = stage
    replan = Table(track, table_rules=RULES.replace(blocked_turn="replan"), lead=table.lead, gas=table.gas)
    e = replan.gas
    start = replan.starts[0]
    d = e.solution.decision(start, 0)
    steps = e.model.plans(*start).steps[d.plan]
    second = steps[1][1][-1] if len(steps) > 1 else steps[0][1][-1]
    others = {second: 6}
    rng = random.Random(7)
    ends = set()
    for _ in range(200):
        o, blocked = replan._turn(e, start, 0, others, rng)
        assert blocked
        if o.state is not FIN:
            ends.add(o.state[0])
    assert ends and second not in ends
    for c in ends:                       # no end past the car either: no cell beyond it is reached
        assert table.cells.pos[c] <= table.cells.pos[second] + 1e-9
    run = simulate_table(track, 3, runs=30, seed=1, table=replan)
    assert run.rules.named()["blocked_turn"]["value"] == "replan"
    assert all((s.times > 0).all() for s in run.seats)


def test_a_rally_of_one_car_is_the_single_car_figures(stage):
    from designer.systems.dirt.dice.table_rally import simulate_rally

    track, table = stage
    d = simulate_rally([track, track], players=1, runs=300, seed=6, tables=[table, table])
    seat = d["seats"][0]
    assert d["single_car_expected_seconds"] == pytest.approx(2 * table.lead.seconds, abs=0.01)
    lo, hi = seat["ci95"]
    assert lo <= 2 * table.lead.seconds <= hi                  # the exact single-car solve within the interval
    assert seat["blocked_chance"] == 0 and seat["win_chance"] == 1.0


def test_a_rally_with_the_start_order_drawn_treats_players_alike(stage):
    from designer.systems.dirt.dice.table_rally import simulate_rally

    track, table = stage
    d = simulate_rally([track, track], players=3, runs=300, seed=8, tables=[table, table], draw_order=True)
    assert d["by"] == "player"
    seats = d["seats"]
    for a in seats:
        for b in seats:
            se = ((a["sd"] ** 2 + b["sd"] ** 2) / d["runs"]) ** 0.5
            assert abs(a["expected_seconds"] - b["expected_seconds"]) <= 3.5 * se, (a, b)
            assert abs(a["win_chance"] - b["win_chance"]) <= 0.15


def test_a_locked_table_unlocks_with_the_first_car_playing_alone():
    """When no car moves in a whole round (every one blocked where it stands), the first car in the order plays
    its next turn as if alone (locked_table), so the race ends; here every turn that meets another car is
    blocked, so each car moves only when it plays alone."""
    import random

    from designer.racing.mdp import Outcome
    from designer.systems.dirt.dice import table as T

    table = Table(load_track(load_stage("stages/dirt/rally-1/ss1.yaml")))
    real = table._turn
    alone = []

    def turn(e, s, bank, others, rng):
        if others:
            return Outcome(1.0, 10.0, s, bank, False, "blocked"), True
        alone.append(s)
        return real(e, s, bank, others, rng)

    table._turn = turn
    secs, turns, blocked, _led, _losses, rounds = table.race(3, random.Random(1))
    assert rounds < T.MAX_ROUNDS and sum(blocked) > 0 and len(alone) == sum(turns) - sum(blocked)
    assert RULES.named()["locked_table"]["status"] == "decided"


def test_damage_goes_on_to_the_next_stage_without_an_assistance(stage):
    """p. 25-26: "Les joueurs commencent avec tous les dégâts qui ont pu être transférés depuis la Spéciale
    précédente"; the spare wheel may be changed between two stages ("Utiliser une carte Roue de secours entre
    deux Spéciales"); an assistance tile repairs everything."""
    import random

    from designer.systems.dirt.dice.table_rally import assistance_after, carry, simulate_rally

    track, table = stage
    model, value = table.gas.model, table.gas.solution.value
    cell, gear, fresh = table.starts[0]
    assert carry(None, table) is None and carry(fresh, table) is None
    assert carry((1, 0, 0, 0, 0), table) == (1, 0, 0, 0, fresh[4])
    bound = model.mishaps.max_damage
    assert sum(carry((bound + 2, 0, 0, 0, 0), table)[:3]) == bound         # no more than the stage tracks
    flat = carry((0, 1, 0, 0, 0), table)                                    # a gas token, the spare unspent
    options = [(0, 1, 0, 0, fresh[4]), (0, 0, 0, 1, fresh[4])]
    assert flat in options and value((cell, gear, flat), 0) == min(value((cell, gear, o), 0) for o in options)
    assert carry((0, 1, 0, 1, 0), table) == (0, 1, 0, 1, fresh[4])        # spent: the token stays on
    # a car starting damaged plays from the damaged boundary, and the race says what each car finished with
    ends: list = []
    table.race(2, random.Random(3), [(1, 0, 0, 0, fresh[4]), None], ends)
    assert len(ends) == 2 and all(e is not None for e in ends) and ends[0][0] >= 1
    # Rally 1 SS1 ends with an assistance tile: nothing goes on; raced twice without one, some damage does
    assert assistance_after(track)
    plain = simulate_rally([track, track], players=2, runs=30, seed=2, tables=[table, table])
    assert plain["assistance_after"][0] and plain["damage_carried_chance"] == [0.0]
    # "Fin d'une Spéciale": control lost on the die that crosses the line draws the card's back for the next stage
    player, rng = table.players[id(table.gas)], random.Random(5)
    player.finish_loss = None
    assert table._after_finish(table.gas, fresh, rng) == fresh
    last = len(model.road.nodes) - 1
    player.finish_loss = (last, 6)
    backs = model.loss_ends(0, model.crash_marks(last, 6), fresh)
    damaged = sum(p for p, _s, _su, d in backs if sum(d[:3]) > 0) / sum(p for p, *_ in backs)
    draws = [table._after_finish(table.gas, fresh, rng) for _ in range(2000)]
    assert damaged > 0 and abs(sum(sum(d[:3]) > 0 for d in draws) / 2000 - damaged) < 0.04
    player.finish_loss = None
    worn = simulate_rally([track, track], players=2, runs=60, seed=2, tables=[table, table], assistance=[False, False])
    assert not worn["assistance_after"][0] and worn["damage_carried_chance"][0] > 0
