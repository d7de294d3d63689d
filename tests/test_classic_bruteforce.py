"""An independent brute force written from the rulebook (classic Rallyman ART.4-11, 13, 15.4, 17, 26.3),
compared with the product's line search and expected-time solver on many random tiny stages.

The brute force reads only the cells of the assembled course (lanes, notes, bumps, surfaces, edges); every
rule of a turn is written again here, from the articles, without the product's move generator:

- ART.4: each gear die once per turn, the first die of a turn within one gear of the gear engaged (die 1 from
  a standstill), one gear up or down per die; a gas die keeps the gear, two per turn (ART.15.4: one on asphalt
  cells with snow tyres; with gravel tyres too, as the ruleset assumes). The card of the last gear is the turn's
  time; a stop is allowed after any die.
- ART.9: an inside cell at most its note; a drift cell exactly at its gear, left back to the inside line one
  gear lower (ART.26.1: a long corner's inside line leads on to its drift lane); a cut at most K; a corner
  entered 1-2 gears above its highest note is a loss of control, more is abandoning (never chosen).
- ART.11: a bump at its note lands on the next cell, one gear over on the second (a mark on that die: a loss
  there), two over on the third with a loss; a landing in a corner above its note is a loss, more than two over
  abandoning (as entering it).
- A move that loses control whatever the dice show (ART.7.1) is legal and taken where it pays: a minute and a
  restart, no SISU (ART.7.5).
- ART.7.2, ART.8: the loss-of-control card's back is a spin (no damage; one card in three assumed) or off the
  road, which beside forest costs one black die, beside rocks two, for the rest of the stage (one die is always
  kept here, as the product decides).
- ART.7: three marks in a turn (two on snow cells with asphalt tyres, ART.15.4, and gravel tyres, assumed) lose
  control on the cell the die reached: one minute, a restart in gear 1 (gear 0 here) from that cell; from a drift
  cell from the inside line (ART.7.4, ART.26.3). ART.13: the finish is crossed even with a loss of control.
- ART.17: the ideal time is a shakedown, no mark rolled.
- ART.9.3: entering a cut draws a cut card; a puncture takes a gas die for the rest of the stage, a third with none
  repaired retires the car. ART.10: in gear 0 or 1 at the start of a turn the spare wheel repairs one puncture
  (its card is the turn; once a stage).
- ART.7.5: the SISU card, held, cancels a loss of control the dice made: the move is made (the turn ends there).
- ART.6: with seconds held from a Big Attack, once two marks show a die may be placed instead of rolled (no mark),
  for 1 s, then 2 s, ... in that turn.
"""
from __future__ import annotations

import functools
import sys

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.systems.classic.dice import expected as E
from designer.systems.classic.dice import lines as L
from designer.systems.classic.dice import moves as M
from designer.systems.classic.board.assembly import assemble
from designer.systems.classic.files.notation import parse_share
from designer.systems.classic.files.rules import load_rules
from designer.systems.classic.files.zones import loads_box

RULES = load_rules()
GEARS = (1, 2, 3, 4, 5)
CARD = {1: 50, 2: 40, 3: 30, 4: 20, 5: 10}       # ART.4 and the reference time cards
LOSS = 60                                        # a loss of control: 1'00" (reference)
DAMAGE = {"meadow": 0, "earth": 0, "forest": 1, "rocks": 2}   # ART.8, the legend of zone C
SPARE, RETIRE = 60, 600                          # ART.10 spare wheel card, ART.9.3 retirement (assumed values)
PUNCTURE = 0.3333                                # the cut card puncture chance (assumed: about one card in three)
SPIN = 0.3333                                    # ART.7.2: backs showing the spin, no damage (assumed: one in three)
DROP = (1, 2, 3, 4, 5, 6, 7)                     # ART.6: 1 s for the first die placed, 2 s for the second ...
P_MARK = {"gear1": 1 / 6, "gear2": 2 / 6, "gear3": 2 / 6, "gear4": 2 / 6, "gear5": 2 / 6, "gas": 1 / 6}


# -- the brute force ---------------------------------------------------------------------------------------------

class Brute:
    def __init__(self, g: nx.DiGraph, tyres: str, spare: int = SPARE, puncture: float = PUNCTURE):
        self.g, self.tyres = g, tyres
        self.spare, self.puncture = spare, puncture
        self.order = {n: i for i, n in enumerate(nx.topological_sort(g))}

    # where the road goes on after a cell (for the landing of a jump)
    def next_on_road(self, n: str) -> str | None:
        succ = [v for v in self.g.successors(n) if self.g.edges[n, v].get("kind", "road") == "road"
                and self.g.nodes[v].get("lane") in ("road", "inside", "finish")]
        return min(succ, key=self.order.get) if succ else None

    def restart(self, n: str) -> str:
        d = self.g.nodes[n]
        if d.get("lane") != "drift":
            return n
        inside = sorted((v for v, a in self.g.nodes(data=True) if a.get("corner") == d["corner"]
                         and a.get("lane") == "inside"), key=self.order.get)
        drifts = [v for v, a in self.g.nodes(data=True) if a.get("corner") == d["corner"] and a.get("lane") == "drift"]
        first, last = d["drift"] == 0, d["drift"] == len(drifts) - 1
        if first or len(inside) == 1:
            return inside[0]
        if last or len(inside) == 2:
            return inside[-1]
        return inside[len(inside) // 2]                  # ART.26.3: the middle inside cell

    def gas_ok(self, frm: str, to: str, gas: tuple[int, int], punctures: int = 0) -> bool:
        """gas = (used on asphalt cells, used on snow cells); the die crossing the finish is on the road the
        car leaves; a puncture takes one of the two gas dice (ART.9.3)."""
        if sum(gas) >= 2 - punctures:
            return False
        surface = self.g.nodes[to if to != "finish" else frm].get("surface")
        if self.tyres in ("snow", "gravel") and surface == "asphalt":
            return gas[0] < 1           # ART.15.4 (snow tyres); gravel tyres alike (the ruleset's assumption)
        return True

    def moves(self, node, gear, used, gas, lost_dice=0, punctures=0):
        """Every die and cell from here: (die, new gear, where the car is, event, gas after); ``lost_dice``
        black dice lost to damage (ART.8: any of the gear dice, as many fewer per turn)."""
        out = []
        left = len(GEARS) - lost_dice > len(used)
        dice = [f"gear{k}" for k in GEARS if f"gear{k}" not in used and left] + (["gas"] if gear else [])
        for die in dice:
            k = int(die[4:]) if die != "gas" else gear
            if die != "gas":
                if gear == 0 and k != 1:
                    continue
                if gear and k == gear - 2:
                    # ART.19 is not allowed on these roads: "le déplacement de 1 case et la perte de contrôle
                    # sur la case atteinte" (over the line it would finish: left to the other dice)
                    out += [(die, k, to, "loss", gas) for to in self.g.successors(node) if to != "finish"]
                    continue
                if gear and abs(k - gear) > 1:
                    continue
            for to in self.g.successors(node):
                kind = self.g.edges[node, to].get("kind", "road")
                if kind == "rejoin" and not (die != "gas" and k == gear - 1):
                    continue
                ngas = gas
                if die == "gas":
                    if not self.gas_ok(node, to, gas, punctures):
                        continue
                    snow = self.g.nodes[to if to != "finish" else node].get("surface") == "snow"
                    ngas = (gas[0] + (not snow), gas[1] + snow)
                if to == "finish":
                    out.append((die, k, "finish", "finish", ngas))
                    continue
                d = self.g.nodes[to]
                lane, high = d.get("lane"), d.get("highest")
                if high is not None and k > high:
                    if k - high <= 2:
                        out.append((die, k, to, "loss", ngas))
                    continue
                if lane == "inside" and (d.get("limit") is None or k > d["limit"]):
                    continue
                if lane == "drift" and k != d.get("exact"):
                    continue
                if lane == "cut" and k > d.get("limit"):
                    continue
                bump = d.get("bump")
                if bump and k >= bump:
                    over = k - bump
                    land = to
                    for _ in range(min(over, 2) + 1):
                        land = self.next_on_road(land) if land != "finish" else "finish"
                    event = "finish" if land == "finish" else ("loss" if over >= 2 else
                                                               ("bump" if over == 1 else "jump"))
                    if land != "finish":               # landing in a corner: its notes as when entering it
                        at = self.g.nodes[land]
                        if at.get("highest") is not None and k - at["highest"] > 2:
                            continue                         # ART.9 "Au delà, c'est l'abandon": never chosen
                        if event != "loss" and ((at.get("highest") is not None and k > at["highest"]) or (
                                at.get("lane") == "inside" and at.get("limit") is not None and k > at["limit"])):
                            event = "loss"
                    out.append((die, k, land, event, ngas))
                    continue
                out.append((die, k, to, None, ngas))
        return out

    def snowy(self, n):
        return n != "finish" and self.g.nodes[n].get("surface") == "snow"

    def lost(self, marks, snow_marks):
        # ART.7.1: two marks on snow with asphalt tyres; gravel tyres alike (the ruleset's assumption)
        return marks >= 3 or (self.tyres in ("asphalt", "gravel") and snow_marks >= 2)

    # -- the ideal time: every turn enumerated, no mark ---------------------------------------------------
    def ideal(self) -> int | None:
        best = {("start", 0): 0}
        todo = [("start", 0)]
        finish = None
        while todo:
            todo.sort(key=lambda s: self.order[s[0]])
            node, gear = todo.pop(0)
            cost = best[(node, gear)]
            ends = {}

            def walk(n, gr, used, gas):
                for die, k, to, event, ngas in self.moves(n, gr, used, gas):
                    if event == "loss":
                        continue
                    if event == "finish":
                        ends[("finish", k)] = True
                        continue
                    ends[(to, k)] = True
                    walk(to, k, used | {die} if die != "gas" else used, ngas)

            walk(node, gear, frozenset(), (0, 0))
            for (to, k) in ends:
                c = cost + CARD[k]
                if to == "finish":
                    finish = c if finish is None else min(finish, c)
                    continue
                if (to, k) not in best:
                    todo.append((to, k))
                    best[(to, k)] = c
                best[(to, k)] = min(best[(to, k)], c)
        return finish

    # -- the expected time: the best of stopping or each die, every mark weighed ------------------------------
    def expected(self, sisu: bool = False, bank: int = 0) -> float:
        """``sisu``: the car holds its SISU card (ART.7.5); ``bank``: seconds it holds from a Big Attack, to
        drop (ART.6). A boundary is (cell, gear, black dice lost, punctures, spare wheel held, SISU held, bank)."""
        @functools.lru_cache(maxsize=None)
        def boundary(node, gear, dmg, punct, spare, sisu, bank):
            best = within(node, gear, frozenset(), (0, 0), 0, 0, False, dmg, punct, spare, sisu, bank, 0)
            if punct and spare and gear <= 1:
                # ART.10: the spare wheel card is the turn, a puncture repaired, the car restarts in gear 1
                best = min(best, self.spare + boundary(node, 0, dmg, punct - 1, False, sisu, bank))
            return best

        @functools.lru_cache(maxsize=None)
        def within(node, gear, used, gas, marks, snow_marks, moved, dmg, punct, spare, sisu, bank, placed):
            best = CARD[gear] + boundary(node, gear, dmg, punct, spare, sisu, bank) if moved else float("inf")
            for die, k, to, event, ngas in self.moves(node, gear, used, gas, dmg, punct):
                if event == "loss":                  # lost whatever the dice show, taken on purpose where it pays
                    hurt = min(dmg + DAMAGE[self.g.nodes[to].get("env", "meadow")], len(GEARS) - 1)
                    best = min(best, LOSS + SPIN * boundary(self.restart(to), 0, dmg, punct, spare, sisu, bank)
                               + (1 - SPIN) * boundary(self.restart(to), 0, hurt, punct, spare, sisu, bank))
                    continue                         # no SISU: it cancels only what the dice show (ART.7.5)
                nused = used | {die} if die != "gas" else used
                ways = [(P_MARK[die], 0, bank, placed)]                    # rolled
                if bank and marks >= 2 and placed < len(DROP) and DROP[placed] <= bank:
                    ways.append((0.0, DROP[placed], bank - DROP[placed], placed + 1))   # ART.6: placed, no mark
                for p, cost, b, pl in ways:
                    total = cost
                    for marked, q in ((False, 1 - p), (True, p)):
                        if not q:
                            continue
                        m, ms = marks + marked, snow_marks + (marked and self.snowy(to))
                        if event == "finish":
                            v = CARD[k]
                        elif marked and (self.lost(m, ms) or event == "bump"):
                            # ART.7.2: the card's back; a spin does no damage, off the road ART.8's black dice
                            hurt = min(dmg + DAMAGE[self.g.nodes[to].get("env", "meadow")], len(GEARS) - 1)
                            v = LOSS + SPIN * boundary(self.restart(to), 0, dmg, punct, spare, sisu, b) \
                                + (1 - SPIN) * boundary(self.restart(to), 0, hurt, punct, spare, sisu, b)
                            if sisu:                 # ART.7.5: the move made, the turn ends there (decided)
                                v = min(v, CARD[k] + boundary(to, k, dmg, punct, spare, False, b))
                        elif self.g.nodes[to].get("lane") == "cut" and self.g.nodes[node].get("lane") != "cut":
                            # ART.9.3: a cut card; only a puncture touches this car (a gas die), a third retires it
                            go = within(to, k, nused, ngas, m, ms, True, dmg, punct, spare, sisu, b, pl)
                            hurt = RETIRE if punct == 2 else within(to, k, nused, ngas, m, ms, True, dmg, punct + 1,
                                                                     spare, sisu, b, pl)
                            v = (1 - self.puncture) * go + self.puncture * hurt
                        else:
                            v = within(to, k, nused, ngas, m, ms, True, dmg, punct, spare, sisu, b, pl)
                        total += q * v
                    best = min(best, total)
            return best

        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20000))
        try:
            return boundary("start", 0, 0, 0, True, sisu, bank)
        finally:
            sys.setrecursionlimit(limit)


# -- tiny stages -------------------------------------------------------------------------------------------------

def corners_text(corner: dict | None) -> str:
    """A road's ``corners`` entry in a zone face's flow style (empty without a corner)."""
    if not corner:
        return ""
    items = [f"inside: {corner['inside']}"] + [f"{key}: {corner[key]}" for key in ("note", "drift", "gear", "cut", "k")
                                              if corner.get(key) is not None]
    return f", corners: [{{{', '.join(items)}}}]"


def box_text(corner: dict | None, bump: tuple[str, int] | None, env: str = "meadow") -> str:
    """One board X, 6 cells across, a road from end 0 (A3) to end 1 (F3), the same on its snow side."""
    cells = f"cells: {{{bump[0]}: {{bump: {bump[1]}}}}}" if bump else ""
    corners = corners_text(corner)
    face = (f"{{env: {env}, ends: {{0: A3, 1: F3}}, roads: [{{ends: [0, 1], path: A3 B3 C3 D3 E3 F3{corners}}}]"
            + (f", {cells}" if cells else "") + "}")
    return f"system: classic\nbox: tiny\nsize: 6\nzones:\n  X:\n    faces:\n      asphalt: {face}\n      snow: {face}\n"


@st.composite
def tiny_stages(draw):
    kind = draw(st.sampled_from(["corner", "long", "bump", "plain", "bump-corner"]))
    corner = bump = None
    if kind == "bump-corner":      # a jump may land in the corner (a loss, or abandoning when too fast)
        bump = (draw(st.sampled_from(["A3", "B3"])), draw(st.integers(1, 4)))
        corner = {"inside": draw(st.sampled_from(["D3", "E3"])), "note": draw(st.integers(1, 3))}
    if kind == "corner":
        note = draw(st.one_of(st.none(), st.integers(1, 5)))
        drift = draw(st.booleans()) or note is None
        cut = draw(st.booleans())
        corner = {"inside": "C3", "note": note}
        if drift:
            corner.update(drift="B2 C2 D2", gear=draw(st.integers(2, 5)))
        if cut:
            corner.update(cut="C4", k=draw(st.integers(1, 5)))
    elif kind == "long":
        corner = {"inside": "C3 D3", "note": draw(st.integers(1, 4)), "drift": "B2 C2 D2 E2",
                  "gear": draw(st.integers(2, 5))}
    elif kind == "bump":
        bump = (draw(st.sampled_from(["A3", "B3", "C3"])), draw(st.integers(1, 5)))
    snow = draw(st.booleans())
    tyres = draw(st.sampled_from(["asphalt", "snow", "gravel"]))
    env = draw(st.sampled_from(["meadow", "forest", "rocks"]))
    return corner, bump, snow, tyres, env


def course(corner, bump, snow, env="meadow"):
    box = loads_box(box_text(corner, bump, env), "tiny.yaml")
    c = assemble(parse_share("X0-1*" if snow else "X0-1"), box)
    assert c.ok, c.problems
    return c.graph


@settings(max_examples=40, deadline=None)
@given(tiny_stages())
def test_ideal_time_agrees_with_the_brute_force(case):
    corner, bump, snow, tyres, env = case
    g = course(corner, bump, snow, env)
    product = L.ideal_line(g, RULES, M.Car(tyres=tyres))
    brute = Brute(g, tyres).ideal()
    assert (product["time_seconds"] if product else None) == brute


@settings(max_examples=30, deadline=None)
@given(tiny_stages())
def test_expected_time_agrees_with_the_brute_force(case):
    corner, bump, snow, tyres, env = case
    g = course(corner, bump, snow, env)
    if L.ideal_line(g, RULES, M.Car(tyres=tyres)) is None:
        return
    product = E.Solver(g, RULES, M.Car(tyres=tyres)).solve()
    brute = Brute(g, tyres).expected()
    assert abs(product - brute) < 1e-6, (product, brute)


@settings(max_examples=25, deadline=None)
@given(tiny_stages(), st.booleans(), st.integers(0, 3))
def test_sisu_and_dropping_seconds_agree_with_the_brute_force(case, sisu, bank):
    """ART.7.5 (the SISU card held) and ART.6 (seconds held from a Big Attack, dropped to place dice)."""
    corner, bump, snow, tyres, env = case
    g = course(corner, bump, snow, env)
    if L.ideal_line(g, RULES, M.Car(tyres=tyres)) is None:
        return
    product = E.Solver(g, RULES, M.Car(tyres=tyres, sisu=sisu), bank_cap=bank).solve(bank)
    brute = Brute(g, tyres).expected(sisu=sisu, bank=bank)
    assert abs(product - brute) < 1e-6, (product, brute)
    plain = E.Solver(g, RULES, M.Car(tyres=tyres)).solve()
    assert product <= plain + 1e-9                     # a card or seconds held never cost time


@st.composite
def cut_stages(draw):
    """A corner with a cut somewhere on a tiny road (ART.9.3)."""
    corner = {"inside": "C3", "note": draw(st.integers(1, 4)), "cut": "C4", "k": draw(st.integers(1, 5))}
    if draw(st.booleans()):
        corner.update(drift="B2 C2 D2", gear=draw(st.integers(2, 5)))
    return corner, draw(st.booleans()), draw(st.sampled_from(["asphalt", "snow"])), draw(st.integers(0, 60))


@settings(max_examples=20, deadline=None)
@given(cut_stages())
def test_punctures_and_the_spare_wheel_agree_with_the_brute_force(case):
    """ART.9.3 (a puncture on most cut cards here), ART.10 (the spare wheel, at any price from 0 to 60 s)."""
    corner, snow, tyres, spare = case
    g = course(corner, None, snow)
    rules = RULES.with_values(cut_card={"good": 0.05, "dirty": 0.05, "puncture": 0.9}, spare_wheel_seconds=spare)
    product = E.Solver(g, rules, M.Car(tyres=tyres)).solve()
    brute = Brute(g, tyres, spare=spare, puncture=0.9).expected()
    assert abs(product - brute) < 1e-6, (product, brute)
    without = E.Solver(g, rules, M.Car(tyres=tyres, spare=False)).solve()
    assert product <= without + 1e-9                    # the spare wheel card held never costs time


def long_course(note: int, k: int):
    """A 10-cell road: a corner with a cut early (C3, K on C4), a hairpin late (H3, note 1): gas dice matter."""
    face = ("{env: meadow, ends: {0: A3, 1: J3}, roads: [{ends: [0, 1], path: A3 B3 C3 D3 E3 F3 G3 H3 I3 J3, "
            f"corners: [{{inside: C3, note: {note}, cut: C4, k: {k}}}, {{inside: H3, note: 1}}]}}]}}")
    box = loads_box(f"system: classic\nbox: tiny\nsize: 10\nzones:\n  X:\n    faces:\n      asphalt: {face}\n",
                    "tiny.yaml")
    c = assemble(parse_share("X0-1"), box)
    assert c.ok, c.problems
    return c.graph


@pytest.mark.parametrize("note,k,spare", [(1, 2, 0), (1, 2, 10), (1, 3, 10), (2, 3, 0)])
def test_the_spare_wheel_pays_where_the_brute_force_says_art_10(note, k, spare):
    g = long_course(note, k)
    rules = RULES.with_values(cut_card={"good": 0.05, "dirty": 0.05, "puncture": 0.9}, spare_wheel_seconds=spare)
    product = E.Solver(g, rules, M.Car()).solve()
    assert product == pytest.approx(Brute(g, "asphalt", spare=spare, puncture=0.9).expected(), abs=1e-6)
    # played where no loss on purpose is (a loss taken on purpose can avoid the cut on some of these roads)
    plain = rules.with_values(deliberate_loss=False)
    assert E.Solver(g, plain, M.Car()).solve() < E.Solver(g, plain, M.Car(spare=False)).solve() - 1e-3


@settings(max_examples=25, deadline=None)
@given(tiny_stages(), st.booleans())
def test_no_policy_beats_the_ideal(case, big_attack):
    corner, bump, snow, tyres, env = case
    g = course(corner, bump, snow, env)
    ideal = L.ideal_line(g, RULES, M.Car(tyres=tyres), big_attack=big_attack)
    if ideal is None:
        return
    # with Big Attack the car also holds its SISU card and drops seconds: the boldest policy there is
    exp = E.Solver(g, RULES, M.Car(tyres=tyres, sisu=big_attack), big_attack=big_attack).solve()
    assert exp >= ideal["time_seconds"] - 1e-9


def test_the_rulebook_values_the_brute_force_uses_are_the_rulesets():
    assert RULES.time_card == CARD and RULES.loss_seconds == LOSS
    assert RULES.spare_wheel_seconds == SPARE and RULES.retirement_seconds == RETIRE
    assert RULES.cut_card["puncture"] == pytest.approx(PUNCTURE, abs=1e-3) and RULES.drop_seconds == DROP
    assert RULES.drop_after_marks == 2 and RULES.sisu_after == "stop"
    assert {d: float(RULES.hazard_chance(d)) for d in P_MARK} == pytest.approx(P_MARK)


def test_restart_after_a_long_corner_drift_art_26_3():
    g = course({"inside": "C3 D3", "note": 3, "drift": "B2 C2 D2 E2", "gear": 4}, None, False)
    restart = {g.nodes[n]["cell"]: g.nodes[n]["restart"] for n in g if g.nodes[n].get("lane") == "drift"}
    # two inside cells: the first drift cell restarts from the first, the others from the last
    assert restart == {"B2": "0:C3", "C2": "0:D3", "D2": "0:D3", "E2": "0:D3"}


def _two_boards():
    """P: a straight with a bump (note 2) on E4; Q: a hairpin (note 1) on its second cell: route P0 | P1-Q0 | Q1."""
    straight = "{env: meadow, cells: {E4: {bump: 2}}, ends: {0: A4, 1: H4}, roads: [{ends: [0, 1], " \
               "path: A4 B4 C4 D4 E4 F4 G4 H4}]}"
    hairpin = "{env: meadow, ends: {0: A4, 1: H4}, roads: [{ends: [0, 1], path: A4 B4 C4 D4 E4 F4 G4 H4, " \
              "corners: [{inside: B4, note: 1}]}]}"
    box = loads_box(f"system: classic\nbox: two\nsize: 8\nzones:\n  P:\n    faces:\n      asphalt: {straight}\n"
                    f"  Q:\n    faces:\n      asphalt: {hairpin}\n", "two.yaml")
    c = assemble(parse_share("P0-1/Q0-1"), box)
    assert c.ok, c.problems
    return c.graph


@pytest.mark.parametrize("tyres", ["asphalt", "snow"])
def test_a_loss_of_control_taken_on_purpose_is_in_the_optimum(tyres):
    """ART.7.1 and ART.11: jumping the bump two gears over, or entering the hairpin too fast, loses control for
    sure; both are legal moves, and on this road the best policy takes one (a minute and a restart in gear 1
    against a slow, risky run to the hairpin). The brute force, which enumerates them, agrees."""
    g = _two_boards()
    product = E.Solver(g, RULES, M.Car(tyres=tyres)).solve()
    assert product == pytest.approx(Brute(g, tyres).expected(), abs=1e-6)
    never = E.Solver(g, RULES.with_values(deliberate_loss=False), M.Car(tyres=tyres)).solve()
    assert product < never - 4.0
