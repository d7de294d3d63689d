"""The rulebook's worked examples (classic Rallyman ART.4-11, Dirt ART.18-23) as legal and illegal moves."""
import pytest

from designer.systems.classic.dice import moves as M
from designer.systems.classic.board.assembly import assemble
from designer.systems.classic.files.notation import parse_share
from designer.systems.classic.files.rules import load_rules
from designer.systems.classic.files.zones import loads_box

# A test board: one straight road A3..H3 with the rulebook's corner (3 / 444 / K4) at C3, a bump 3 at E3, a ford
# at G3 (gravel side); a second road with a tight corner (1 / K2) to reach abandoning.
BOX = """
system: classic
box: test-zones
size: 8
zones:
  T:
    faces:
      asphalt: &t
        cells:
          E3: {bump: 3}
          G3: {ford: true}
          B6: {half: true}
        ends: {0: A3, 1: H3, 2: A6, 3: H6}
        roads:
          - ends: [0, 1]
            path: A3 B3 C3 D3 E3 F3 G3 H3
            corners:
              - {inside: C3, note: 3, drift: B2 C2 D2, gear: 4, cut: C4, k: 4}
          - ends: [2, 3]
            path: A6 B6 C6 D6 E6 F6 G6 H6
            corners:
              - {inside: D6, note: 1, cut: D7, k: 2}
      gravel: *t
"""


@pytest.fixture(scope="module")
def rules():
    return load_rules()


def course(share="T0-1"):
    c = assemble(parse_share(share), loads_box(BOX, "test-zones"))
    assert c.ok, c.problems
    return c.graph


def gravel_course(share="T0-1"):
    text = BOX.replace("      asphalt: &t", "      gravel: &t").replace("      gravel: *t", "      snow: *t")
    c = assemble(parse_share(share), loads_box(text, "test-zones"))
    assert c.ok, c.problems
    return c.graph


def play(g, rules, node, gear, moves, car=M.Car()):
    return M.play(g, rules, car, node, gear, moves)


# -- ART.4: phases 1-3 -------------------------------------------------------------------------------

def test_phase1_first_die_is_same_next_or_gas(rules):
    g = course()
    state = M.TurnState("0:A3", 3)
    assert {die for die, _, _ in M.legal_steps(g, rules, M.Car(), state)} == {"gear2", "gear3", "gear4", "gas"}
    for die in ("gear2", "gear3", "gas"):
        play(g, rules, "0:A3", 3, [(die, "0:B3")])
    with pytest.raises(M.IllegalMove, match="one by one"):
        play(g, rules, "0:A3", 3, [("gear5", "0:B3")])
    assert play(g, rules, "0:A3", 3, [("gear1", "0:B3")]).over == "loss"     # an unauthorised double downshift


def test_standstill_needs_die_1(rules):
    g = course()
    play(g, rules, "start", 0, [("gear1", "0:A3")])
    with pytest.raises(M.IllegalMove, match="die 1"):
        play(g, rules, "start", 0, [("gear2", "0:A3")])
    with pytest.raises(M.IllegalMove, match="standstill"):
        play(g, rules, "start", 0, [("gas", "0:A3")])


def test_phase2_chain_gears_one_by_one_each_die_once(rules):
    g = course()
    s = play(g, rules, "start", 0, [("gear1", "0:A3"), ("gear2", "0:B3"), ("gas", "0:C3"), ("gear3", "0:D3")])
    assert (s.node, s.gear) == ("0:D3", 3)
    with pytest.raises(M.IllegalMove, match="already rolled"):
        play(g, rules, "start", 0, [("gear1", "0:A3"), ("gear2", "0:B3"), ("gear1", "0:C3"), ("gear2", "0:D3")])
    with pytest.raises(M.IllegalMove, match="no gas die left"):
        play(g, rules, "0:A3", 2, [("gas", "0:B3"), ("gas", "0:C3"), ("gas", "0:D3")])


def test_phase3_card_is_the_last_gear_die(rules):
    g = course()
    s = play(g, rules, "start", 0, [("gear1", "0:A3")])
    assert rules.card(s.gear) == 50                                  # the rulebook's example: gear 1 = 50 s
    s = play(g, rules, "start", 0, [("gear1", "0:A3"), ("gear2", "0:B3"), ("gas", "0:C3")])
    assert s.gear == 2 and rules.card(s.gear) == 40                  # last die gas: the card of the gear before


# -- ART.9: corners -----------------------------------------------------------------------------------

def test_drift_444_is_die_4_gas_gas(rules):
    g = course()
    s = play(g, rules, "0:B3", 3, [("gear4", "0:B2"), ("gas", "0:C2"), ("gas", "0:D2")])
    assert (s.node, s.gear) == ("0:D2", 4)
    with pytest.raises(M.IllegalMove, match="only in gear 4"):
        play(g, rules, "0:B3", 3, [("gear3", "0:B2")])
    with pytest.raises(M.IllegalMove, match="only in gear 4"):
        play(g, rules, "0:B3", 3, [("gear4", "0:B2"), ("gear3", "0:C2")])


def test_back_to_the_inside_line_one_gear_lower_except_from_the_last_drift_cell(rules):
    g = course()
    s = play(g, rules, "0:B2", 4, [("gear3", "0:C3")])
    assert (s.node, s.gear) == ("0:C3", 3)
    play(g, rules, "0:C2", 4, [("gear3", "0:C3")])
    with pytest.raises(M.IllegalMove, match="one gear lower"):
        play(g, rules, "0:B2", 4, [("gas", "0:C3")])
    assert not g.has_edge("0:D2", "0:C3")


def test_back_to_the_inside_line_by_a_double_downshift_where_the_dashboard_allows(rules):
    """ART.19 "à n'importe quel moment du tour": gravel tyres on gravel go from the drift (gear 4) back to the
    inside line in gear 2; that is how a long corner's drift two gears over its note rejoins (ART.26.1)."""
    s = M.play(gravel_course(), rules, M.Car(tyres="gravel"), "0:B2", 4, [("gear2", "0:C3")])
    assert (s.node, s.gear, s.steps[0].risk) == ("0:C3", 2, "double")
    s = M.play(gravel_course(), rules, M.Car(tyres="asphalt"), "0:B2", 4, [("gear2", "0:C3")])
    assert (s.node, s.over) == ("0:C3", "loss")                  # not on this dashboard: control is lost


def test_inside_line_at_most_its_note_cut_at_most_k(rules):
    g = course()
    play(g, rules, "0:B3", 3, [("gear3", "0:C3")])
    with pytest.raises(M.IllegalMove, match="above the note"):
        play(g, rules, "0:B3", 3, [("gear4", "0:C3")])
    s = play(g, rules, "0:B3", 3, [("gear4", "0:C4")])
    assert s.node == "0:C4"


def test_one_or_two_over_the_highest_note_is_a_loss_more_is_abandoning(rules):
    g = course()
    st = M.step(g, rules, M.Car(), M.TurnState("0:B3", 4), "gear5", "0:C4")
    assert st.event == "loss"                                        # K4 is the highest note: 5 is one over
    g2 = course("T2-3")
    assert M.step(g2, rules, M.Car(), M.TurnState("0:C6", 3), "gear4", "0:D7").event == "loss"      # 2 over K2
    assert M.step(g2, rules, M.Car(), M.TurnState("0:C6", 4), "gear5", "0:D7").event == "abandon"   # 3 over


def test_dirty_cuts_lower_inside_and_drift_notes_not_k(rules):
    g = course()
    corner = g.nodes["0:C3"]["corner"]
    once, twice = M.Car().with_dirt(corner), M.Car().with_dirt(corner, 2)
    assert [M.notes(g, n, once)[0] for n in ("0:B2", "0:C2", "0:D2")] == [3, 3, 3]      # 444 -> 333
    assert [M.notes(g, n, twice)[0] for n in ("0:B2", "0:C2", "0:D2")] == [2, 2, 2]     # 444 -> 222
    assert M.notes(g, "0:C4", twice)[0] == 4                                          # K4 -> K4
    assert M.notes(g, "0:C3", once)[0] == 2
    with pytest.raises(M.IllegalMove, match="only in gear 3"):
        M.play(g, rules, once, "0:B3", 3, [("gear4", "0:B2")])
    M.play(g, rules, once, "0:B3", 3, [("gear3", "0:B2"), ("gas", "0:C2")])


# -- ART.11: bumps ------------------------------------------------------------------------------------

def test_bump_cases(rules):
    g = course()
    under = M.step(g, rules, M.Car(), M.TurnState("0:D3", 2), "gear2", "0:E3")
    at = M.step(g, rules, M.Car(), M.TurnState("0:D3", 3), "gear3", "0:E3")
    over1 = M.step(g, rules, M.Car(), M.TurnState("0:D3", 3), "gear4", "0:E3")
    over2 = M.step(g, rules, M.Car(), M.TurnState("0:D3", 5), "gear5", "0:E3")
    assert (under.to, under.event) == ("0:E3", None)                 # below the note: a normal cell
    assert (at.to, at.event) == ("0:F3", "jump")                     # at the note: the cell just after
    assert (over1.to, over1.event, over1.risk) == ("0:G3", "jump", "bump")   # one over: 2nd cell, a hazard is a loss
    assert (over2.to, over2.event) == ("0:H3", "loss")               # two over: loss on the 3rd cell after


# -- Dirt: ART.19 double downshift, ART.23 fords, ART.18 half-cells, ART.20 leader --------------------

def test_double_downshift_5_3_1_where_the_dashboard_allows(rules):
    g = gravel_course()
    car = M.Car(tyres="gravel")
    s = M.play(g, rules, car, "0:F3", 5, [("gear3", "0:G3"), ("gear1", "0:H3")])
    assert s.gear == 1 and [x.risk for x in s.steps] == ["double", "double"]
    s = M.play(g, rules, car, "0:F3", 5, [("gear3", "0:G3"), ("gear4", "0:H3")])    # the skipped die 4 stays usable
    assert s.gear == 4
    # not allowed by the dashboard: one cell, then a loss of control there (ART.19)
    s = M.play(course(), rules, M.Car(tyres="gravel"), "0:F3", 5, [("gear3", "0:G3")])    # asphalt road
    assert (s.node, s.over) == ("0:G3", "loss")
    s = M.play(g, rules, M.Car(tyres="asphalt"), "0:F3", 5, [("gear3", "0:G3")])
    assert (s.node, s.over) == ("0:G3", "loss")
    with pytest.raises(M.IllegalMove, match="one by one"):
        M.play(g, rules, car, "0:F3", 5, [("gear2", "0:G3")])


def test_fords_stabilised_speed_is_safe_a_gear_change_may_stop_the_car(rules):
    g = gravel_course()
    car = M.Car(tyres="gravel")
    assert M.step(g, rules, car, M.TurnState("0:F3", 3), "gas", "0:G3").risk is None
    assert M.step(g, rules, car, M.TurnState("0:F3", 3), "gear3", "0:G3").risk is None
    assert M.step(g, rules, car, M.TurnState("0:F3", 3), "gear4", "0:G3").risk == "ford"
    snow = assemble(parse_share("T0-1*"), loads_box(BOX.replace("      asphalt: &t", "      gravel: &t")
                                                    .replace("      gravel: *t", "      snow: *t"), "t"))
    assert M.step(snow.graph, rules, car, M.TurnState("0:F3", 3), "gear4", "0:G3").risk is None   # frozen


def test_half_cells_single_or_two_halves_never_single_to_half(rules):
    g = course("T2-3")
    assert g.has_edge("0:A6", "0:B6") and g.has_edge("0:A6", "0:B6.1")
    assert g.has_edge("0:B6.1", "0:B6.2") and g.has_edge("0:B6.2", "0:C6")
    assert not g.has_edge("0:B6", "0:B6.2")
    s = play(g, rules, "0:A6", 2, [("gear2", "0:B6.1"), ("gas", "0:B6.2"), ("gear1", "0:C6")])
    assert s.node == "0:C6"
    assert g.nodes["0:B6.2"]["restart"] == "0:B6"                   # after a loss: the single cell


def test_leader_rolls_orange_gas_dice_on_gravel(rules):
    g = gravel_course()
    assert M.hazard_die(rules, g, M.Car(tyres="gravel", leader=True), "gas", "0:B3") == "orange"
    assert M.hazard_die(rules, g, M.Car(tyres="gravel"), "gas", "0:B3") == "gas"
    assert rules.hazard_chance("orange") == 2 * rules.hazard_chance("gas")


def test_snow_tyres_on_asphalt_one_gas_die(rules):
    g = course()
    car = M.Car(tyres="snow")
    play(g, rules, "0:D3", 3, [("gas", "0:E3")], car)
    with pytest.raises(M.IllegalMove, match="no gas die left"):
        M.play(g, rules, car, "0:E3", 2, [("gas", "0:F3"), ("gas", "0:G3")])
    # a punctured snow tyre still has its one gas die on asphalt (ART.15.4 remark)
    M.play(g, rules, M.Car(tyres="snow", punctures=1), "0:E3", 2, [("gas", "0:F3")])


def test_damage_and_punctures_take_dice_away(rules):
    g = course()
    hurt = M.Car(damage=4)
    with pytest.raises(M.IllegalMove, match="black dice"):
        M.play(g, rules, hurt, "start", 0, [("gear1", "0:A3"), ("gear2", "0:B3")])
    flat = M.Car(punctures=2)
    with pytest.raises(M.IllegalMove, match="no gas die"):
        M.play(g, rules, flat, "0:A3", 1, [("gas", "0:B3")])


def test_hazard_limits(rules):
    assert rules.hazard_limit_for("asphalt", "asphalt") == 3
    assert rules.hazard_limit_for("asphalt", "snow") == 2
    assert rules.hazard_limit_for("snow", "snow") == 3
    assert [rules.hazard_limit_for("soft", "asphalt", s) for s in ("S1", "S2", "S3")] == [4, 3, 2]
    assert rules.drop_cost(3) == 6                                   # ART.6: 1 + 2 + 3 seconds


def test_a_mark_on_a_ford_stops_the_car_even_on_the_turns_limiting_mark_art_23(rules):
    """ART.23: a mark on a ford taken while changing gear is "la fin du tour sur le gué sans perte de contrôle",
    the third mark of the turn included (ART.7.1 alone would make it a loss)."""
    from designer.systems.classic.dice import expected as E

    g = gravel_course()
    solver = E.Solver(g, rules, M.Car(tyres="gravel"))
    ts = M.TurnState("0:F3", 3)
    s = M.step(g, rules, solver.car, ts, "gear4", "0:G3")
    nxt = M.apply(g, rules, solver.car, ts, "gear4", "0:G3")
    assert s.risk == "ford"
    for marks in (0, 1, 2):            # the mark rolled is the 1st, 2nd or 3rd of the turn
        marked = [b for b in solver.branches(ts, marks, 0, 0, 0, "roll", s, nxt, 0.25) if b.p == 0.25]
        assert [(b.at, b.loss, b.seconds) for b in marked] == [(("0:G3", 4), False, rules.card(4))]


def test_a_long_corner_whose_restart_leads_back_is_refused_with_a_hint(rules):
    """3 inside cells beside 5 drift cells: the 4th drift cell restarts from the middle inside cell (ART.26.3),
    from which the change of line leads onto it again; the stage is refused with where and how to mend it, not
    an internal error."""
    from designer.core.errors import DesignerError
    from designer.systems.classic.analysis import analyse
    from designer.systems.classic.files.stage import Stage

    box = loads_box("""
system: classic
box: long
size: 7
zones:
  Q:
    faces:
      gravel:
        ends: {0: A2, 1: G2}
        roads:
          - ends: [0, 1]
            path: A2 B2 C2 D2 E2 F2 G2
            corners:
              - {inside: B2 C2 D2, note: 3, drift: A3 B3 C3 D3 E3, gear: 4}
""", "long")
    course = assemble(parse_share("Q0-1"), box)
    assert not course.ok and [p.code for p in course.problems if p.severity == "error"] == ["corner-loop"]
    with pytest.raises(DesignerError, match="restarts on inside cell"):
        analyse(Stage("L", parse_share("Q0-1"), tyres="gravel"), box)
