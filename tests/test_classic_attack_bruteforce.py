"""An independent brute force for the expected stage time with Big Attack (classic Rallyman ART.5), written from
the rulebook, compared with the product's solver on many random tiny one-board courses.

The one-die-at-a-time turn is :class:`tests.test_classic_bruteforce.Brute`'s (ART.4, 7, 8, 9, 9.3, 10, 13), written
again here without the SISU card and without dropping seconds (ART.6: the product's ``bank_cap=0``), so that a turn
boundary may also choose a Big Attack. Only the course graph is read (lanes, notes, cuts, environments, edges), with
``Brute.moves`` for the chaining of one die; nothing of the product's move generator or solver.

Big Attack (ART.5), as this brute force reads it:

- a *plan*: at a turn boundary, a legal chain of two dice or more from there (ART.4 chaining: the first gear die
  within one of the gear engaged, die 1 from a standstill, each gear die once, gas dice as a turn allows), with no
  corner entered above its note; a plan may cross the finish line only with its last die (remark 1);
- the plan's dice are rolled together, each showing its mark with its own chance; one second off the time for each
  die rolled, whatever happens;
- fewer than three marks (asphalt): the whole planned move is made, the card of the last gear, the cut cards of the
  cut cells entered are drawn (a puncture takes effect once the move is made; a third retires the car);
- three marks or more: the driver lays again some of the rolled dice, each with the face it shows, as a legal chain
  from the boundary (the same chaining), in any order, up to the die that brings the third mark, on whose cell
  control is lost (ART.7: the loss card, a spin with no damage or off the road with the environment's black dice
  (ART.8), a restart in gear 0 from the cell's restart cell); the chain may cross the finish only with that die
  (ART.13: it finishes, the card of its gear). The cut cards of the cut cells the chain enters are drawn (a
  puncture does not take back a gas die rolled: ART.5 remark 2 is not modelled, as in the product). The
  driver lays the chain whose outcome is cheapest on average. With ``relay="prefix"`` the chain is the planned
  order's, up to the die that brings the third mark (the product's reading before the free re-laying).

The courses: one board, asphalt cells only (no snow face), no bump, no ford; a corner with or without a drift lane
or a cut, a long corner or a plain road; cells beside meadow, forest or rocks (some cells their own environment, so
that where control is lost matters); the three tyres. Cut cards, punctures and the spare wheel are kept: a course
has one cut cell at most, so a plan draws one cut card at most.
"""
from __future__ import annotations

import functools
import itertools
import sys
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.systems.classic.board.assembly import assemble
from designer.systems.classic.dice import expected as E
from designer.systems.classic.dice import lines as L
from designer.systems.classic.dice import moves as M
from designer.systems.classic.files.notation import parse_share
from designer.systems.classic.files.zones import loads_box
from tests.test_classic_bruteforce import (CARD, DAMAGE, GEARS, LOSS, P_MARK, PUNCTURE, RETIRE, RULES, SPARE,
                                           SPIN, Brute, corners_text)

LIMIT = 3                     # ART.7.1: three marks in a turn (asphalt cells only here)


class AttackBrute(Brute):
    """The expected time with Big Attack (ART.5) and without dropping seconds (ART.6)."""

    def __init__(self, g, tyres: str, relay: str = "free", spare: int = SPARE, puncture: float = PUNCTURE):
        super().__init__(g, tyres, spare, puncture)
        assert relay in ("free", "prefix")
        self.relay = relay
        for n, d in g.nodes(data=True):
            if n not in ("start", "finish"):
                assert d.get("surface") == "asphalt" and not d.get("bump") and not d.get("ford"), (n, d)

    # -- the course ------------------------------------------------------------------------------------------------
    def lane(self, n: str) -> str | None:
        return None if n == "finish" else self.g.nodes[n].get("lane")

    def enters_cut(self, frm: str, to: str) -> bool:
        return self.lane(to) == "cut" and self.lane(frm) != "cut"         # ART.9.3: a card on entering a cut

    def safe_moves(self, node, gear, used, gas, dmg, punct):
        """Brute's dice and cells, without a corner entered above its note (no bump, no ford on these roads)."""
        return [m for m in self.moves(node, gear, used, gas, dmg, punct) if m[3] in (None, "finish")]

    # -- Big Attack ------------------------------------------------------------------------------------------------
    @functools.lru_cache(maxsize=None)
    def plans(self, node, gear, dmg, punct) -> tuple:
        """Every plan from a boundary: a tuple of steps (die, cell reached, gear after)."""
        out = []

        def walk(n, gr, used, gas, steps):
            for die, k, to, event, ngas in self.safe_moves(n, gr, used, gas, dmg, punct):
                s = steps + ((die, to, k),)
                if len(s) >= 2:
                    out.append(s)
                if event != "finish":
                    walk(to, k, used | {die} if die != "gas" else used, ngas, s)

        walk(node, gear, frozenset(), (0, 0), ())
        return tuple(out)

    def cuts(self, node, steps) -> int:
        n, prev = 0, node
        for _, to, _ in steps:
            n += self.enters_cut(prev, to)
            prev = to
        return n

    @functools.lru_cache(maxsize=None)
    def relays(self, node, gear, dmg, punct, rolled: tuple) -> frozenset:
        """Where the dice ``rolled`` ((die, marked) each, three marks or more) may be laid again from a boundary:
        (the cell the third marked die reaches, its gear, cut cards entered on the way)."""
        ends = set()

        def walk(n, gr, used, gas, left, marks, cuts):
            for die, k, to, event, ngas in self.safe_moves(n, gr, used, gas, dmg, punct):
                for face in sorted({f for f in left if f[0] == die}):
                    rest = list(left)
                    rest.remove(face)
                    m, c = marks + face[1], cuts + self.enters_cut(n, to)
                    if m == LIMIT:
                        ends.add((to, k, c))
                    elif event != "finish":          # the finish is crossed only with the third marked die
                        walk(to, k, used | {die} if die != "gas" else used, ngas, tuple(rest), m, c)

        walk(node, gear, frozenset(), (0, 0), rolled, 0, 0)
        return frozenset(ends)

    # -- the expected time -----------------------------------------------------------------------------------------
    def expected(self) -> float:
        return self.game()[0]("start", 0, 0, 0, True)

    def plan_value(self, node: str, gear: int, plan: tuple, relay: str | None = None) -> float:
        """The expected time from a boundary (a fresh car) when it lays ``plan`` (the dice laid again as ``relay``
        says this once, the game after it as the solver's)."""
        return self.game()[1](node, gear, 0, 0, True, plan, relay or self.relay)

    def loss_value(self, cell: str) -> float:
        """The expected time from a loss of control on ``cell`` (a fresh car)."""
        return self.game()[2](cell, 0, 0, True)

    @functools.cache
    def game(self):
        """The value functions of the game (boundary, plan, loss), each run with a deep recursion limit."""
        @functools.lru_cache(maxsize=None)
        def boundary(node, gear, dmg, punct, spare):
            best = within(node, gear, frozenset(), (0, 0), 0, False, dmg, punct, spare)
            if punct and spare and gear <= 1:
                best = min(best, self.spare + boundary(node, 0, dmg, punct - 1, False))     # ART.10
            for plan in self.plans(node, gear, dmg, punct):
                best = min(best, attack(node, gear, dmg, punct, spare, plan, self.relay))
            return best

        @functools.lru_cache(maxsize=None)
        def within(node, gear, used, gas, marks, moved, dmg, punct, spare):
            best = CARD[gear] + boundary(node, gear, dmg, punct, spare) if moved else float("inf")
            for die, k, to, event, ngas in self.safe_moves(node, gear, used, gas, dmg, punct):
                nused = used | {die} if die != "gas" else used
                p, total = P_MARK[die], 0.0
                for marked, q in ((False, 1 - p), (True, p)):
                    m = marks + marked
                    if event == "finish":
                        v = CARD[k]
                    elif m >= LIMIT:
                        v = loss(to, dmg, punct, spare)
                    elif self.enters_cut(node, to):
                        go = within(to, k, nused, ngas, m, True, dmg, punct, spare)
                        hurt = RETIRE if punct == 2 else within(to, k, nused, ngas, m, True, dmg, punct + 1, spare)
                        v = (1 - self.puncture) * go + self.puncture * hurt
                    else:
                        v = within(to, k, nused, ngas, m, True, dmg, punct, spare)
                    total += q * v
                best = min(best, total)
            return best

        def loss(cell, dmg, punct, spare):
            """ART.7.2: the loss card's back, a spin (no damage) or off the road (ART.8), restart in gear 0."""
            hurt = min(dmg + DAMAGE[self.g.nodes[cell].get("env", "meadow")], len(GEARS) - 1)
            at = self.restart(cell)
            return LOSS + SPIN * boundary(at, 0, dmg, punct, spare) + (1 - SPIN) * boundary(at, 0, hurt, punct, spare)

        def cards(n, punct, then):
            """``n`` cut cards drawn, each a puncture with its chance; a third puncture retires the car."""
            return sum(comb(n, j) * self.puncture ** j * (1 - self.puncture) ** (n - j)
                       * (RETIRE if punct + j >= 3 else then(punct + j)) for j in range(n + 1))

        def stop(node, steps, dmg, punct, spare, lost):
            """The car stops after ``steps`` (the plan made, or control lost with its last die)."""
            _, to, k = steps[-1]
            if to == "finish":
                return cards(self.cuts(node, steps), punct, lambda pu: CARD[k])
            if lost:
                return cards(self.cuts(node, steps), punct, lambda pu: loss(to, dmg, pu, spare))
            return cards(self.cuts(node, steps), punct, lambda pu: CARD[k] + boundary(to, k, dmg, pu, spare))

        @functools.lru_cache(maxsize=None)
        def relaid(node, gear, dmg, punct, spare, rolled):
            """The best re-laying of the dice ``rolled`` (three marks or more)."""
            best = float("inf")
            for to, k, c in self.relays(node, gear, dmg, punct, rolled):
                if to == "finish":
                    v = cards(c, punct, lambda pu: CARD[k])
                else:
                    v = cards(c, punct, lambda pu: loss(to, dmg, pu, spare))
                best = min(best, v)
            return best

        def attack(node, gear, dmg, punct, spare, plan, relay):
            total = -len(plan)                       # one second per die rolled (ART.5)
            dice = [die for die, _, _ in plan]
            for faces in itertools.product((False, True), repeat=len(plan)):
                q = 1.0
                for die, marked in zip(dice, faces):
                    q *= P_MARK[die] if marked else 1 - P_MARK[die]
                if sum(faces) < LIMIT:
                    v = stop(node, plan, dmg, punct, spare, False)
                elif relay == "prefix":
                    third = [i for i, f in enumerate(faces) if f][LIMIT - 1]
                    v = stop(node, plan[:third + 1], dmg, punct, spare, True)
                else:
                    v = relaid(node, gear, dmg, punct, spare, tuple(sorted(zip(dice, faces))))
                total += q * v
            return total

        def deep(f):
            def run(*args):
                limit = sys.getrecursionlimit()
                sys.setrecursionlimit(max(limit, 20000))
                try:
                    return f(*args)
                finally:
                    sys.setrecursionlimit(limit)
            return run

        return deep(boundary), deep(attack), deep(loss)


# -- tiny courses ----------------------------------------------------------------------------------------------------

CELLS = ("A3", "B3", "C3", "D3", "E3", "F3", "B2", "C2", "D2", "E2", "C4")


def attack_course(corner: dict | None, env: str = "meadow", envs: dict | None = None, size: int = 6):
    """One asphalt board, ``size`` cells across, a road along row 3; ``envs``: cells with their own environment."""
    corners = corners_text(corner)
    cells = ", ".join(f"{c}: {{env: {e}}}" for c, e in sorted((envs or {}).items()))
    path = [f"{chr(ord('A') + i)}3" for i in range(size)]
    face = (f"{{env: {env}, ends: {{0: A3, 1: {path[-1]}}}, roads: [{{ends: [0, 1], path: {' '.join(path)}{corners}}}]"
            + (f", cells: {{{cells}}}" if cells else "") + "}")
    text = f"system: classic\nbox: tiny\nsize: {size}\nzones:\n  X:\n    faces:\n      asphalt: {face}\n"
    c = assemble(parse_share("X0-1"), loads_box(text, "tiny.yaml"))
    assert c.ok, c.problems
    return c.graph


@st.composite
def attack_stages(draw):
    kind = draw(st.sampled_from(["corner", "corner", "long", "plain"]))
    corner = None
    if kind == "corner":
        note = draw(st.one_of(st.none(), st.integers(1, 5)))
        drift = draw(st.booleans()) or note is None
        corner = {"inside": "C3", "note": note}
        if drift:
            corner.update(drift="B2 C2 D2", gear=draw(st.integers(2, 5)))
        if draw(st.booleans()):
            corner.update(cut="C4", k=draw(st.integers(1, 5)))
    elif kind == "long":
        corner = {"inside": "C3 D3", "note": draw(st.integers(1, 4)), "drift": "B2 C2 D2 E2",
                  "gear": draw(st.integers(2, 5))}
    envs = ("meadow", "forest", "rocks")
    env = draw(st.sampled_from(envs))
    own = draw(st.dictionaries(st.sampled_from(CELLS), st.sampled_from(envs), max_size=4))
    tyres = draw(st.sampled_from(["asphalt", "asphalt", "snow", "gravel"]))
    return corner, env, own, tyres


def product(g, tyres: str, rules=RULES) -> float:
    return E.Solver(g, rules, M.Car(tyres=tyres), big_attack=True, bank_cap=0).solve()


@settings(max_examples=30, deadline=None)
@given(attack_stages())
def test_big_attack_expected_time_agrees_with_the_brute_force(case):
    corner, env, own, tyres = case
    g = attack_course(corner, env, own)
    if L.ideal_line(g, RULES, M.Car(tyres=tyres)) is None:
        return
    brute = AttackBrute(g, tyres).expected()
    got = product(g, tyres)
    assert abs(got - brute) < 1e-6, (got, brute)
    # Big Attack is a choice: it never costs time against the one-die-at-a-time game; laying the dice again
    # freely never costs time against the planned order
    assert brute <= Brute(g, tyres).expected() + 1e-9
    assert brute <= AttackBrute(g, tyres, relay="prefix").expected() + 1e-9


@settings(max_examples=6, deadline=None)
@given(st.integers(1, 3), st.integers(1, 5), st.booleans(), st.sampled_from(["asphalt", "snow"]),
       st.sampled_from([0.9, PUNCTURE]), st.integers(0, 60))
def test_punctures_in_a_big_attack_agree_with_the_brute_force(note, k, drift, tyres, puncture, spare):
    """An 8-cell road, a corner with a cut (ART.9.3), a puncture on many cut cards, the spare wheel at any price
    (ART.10): plans that cross the cut and stop before the finish are played here (the spare wheel, checked, is
    seldom worth playing on so short a road)."""
    corner = {"inside": "C3", "note": note, "cut": "C4", "k": k}
    if drift:
        corner.update(drift="B2 C2 D2", gear=note + 1)
    g = attack_course(corner, "meadow", {"D3": "forest"}, size=8)
    good = (1 - puncture) / 2
    rules = RULES.with_values(cut_card={"good": good, "dirty": good, "puncture": puncture}, spare_wheel_seconds=spare)
    brute = AttackBrute(g, tyres, spare=spare, puncture=puncture).expected()
    got = product(g, tyres, rules)
    assert abs(got - brute) < 1e-6, (got, brute)


FREE_VALUE, PREFIX_VALUE = 21.027610097546127, 21.56429388431643      # the brute force's, laying again or not


def test_laying_the_dice_again_loses_control_further_on_a_meadow_art_5():
    """A plain road of 8 cells beside meadows, rocks beside C3 (two black dice lost off the road there, ART.8). From
    the start the plan die 1 (A3), die 2 (B3), die 3 (C3), gas (D3): dice 1, 2, 3 marked and the gas die clean lose
    control on C3 in the planned order; laid again as 1, 2, gas, 3 the third mark comes a cell further, on D3,
    beside a meadow."""
    g = attack_course(None, "meadow", {"C3": "rocks"}, size=8)
    free, prefix = AttackBrute(g, "asphalt"), AttackBrute(g, "asphalt", relay="prefix")
    plan = (("gear1", "0:A3", 1), ("gear2", "0:B3", 2), ("gear3", "0:C3", 3), ("gas", "0:D3", 3))
    assert plan in free.plans("start", 0, 0, 0)
    rolled = (("gas", False), ("gear1", True), ("gear2", True), ("gear3", True))
    assert free.relays("start", 0, 0, 0, rolled) == {("0:C3", 3, 0), ("0:D3", 3, 0)}
    # off the road beside the rocks costs more than beside the meadow a cell further
    assert free.loss_value("0:C3") > free.loss_value("0:D3") + 1
    # only that roll changes: every other roll of three marks or more loses control where the planned order does,
    # or on C3 whatever the order (all four marked: three dice only may be laid)
    odds = P_MARK["gear1"] * P_MARK["gear2"] * P_MARK["gear3"] * (1 - P_MARK["gas"])
    gain = odds * (free.loss_value("0:C3") - free.loss_value("0:D3"))
    assert free.plan_value("start", 0, plan, "prefix") - free.plan_value("start", 0, plan) == pytest.approx(gain)
    # the stage: the best policy laying the dice again freely, and the product's
    assert free.expected() == pytest.approx(FREE_VALUE, abs=1e-6)
    assert prefix.expected() == pytest.approx(PREFIX_VALUE, abs=1e-6)
    assert abs(product(g, "asphalt") - FREE_VALUE) < 1e-6
