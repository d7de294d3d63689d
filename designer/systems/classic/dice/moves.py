"""The moves of one turn in classic Rallyman (ART.4-11, Dirt ART.18-26) on an assembled cell graph.

A die moves the car one cell (``step``): a gear die ``gearK`` engages gear K (the gear engaged, one above or one
below; gear 1 from a standstill; two below where the dashboard allows a double downshift, ART.19); a gas die
(``gas``) keeps the gear. Each die once per turn; gas dice as the dashboard of the car's tyres on that road allows.

Where the car goes decides more (ART.9, 11, 23, 25, 26): an inside line at most its note; a drift lane only at
its imposed gear, left back to the inside line one gear lower; a cut at most its K note; a corner taken 1-2
gears above its highest note is a loss of control, more is abandoning; a bump taken at its note lands one cell
further, one gear above two cells further, two above three cells further with a loss of control.

A step returns the new place and gear and an ``event`` (None, "jump", "loss", "abandon", "finish"); an illegal
step raises :class:`IllegalMove` with the reason in the game's words. Hazard marks are not rolled here: the
caller (the line search, the expected-time solver) decides what they do.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

import networkx as nx

from designer.systems.classic.files.rules import Rules

ROAD_OF = {"asphalt": "asphalt", "snow": "snow", "gravel": "gravel"}


class IllegalMove(ValueError):
    """A die or a cell the rules do not allow; the message says why."""


@dataclass(frozen=True)
class Car:
    """What the rules need to know about the car and the road (defaults: a fresh car, asphalt tyres)."""
    tyres: str = "asphalt"
    leader: bool = False              # opens the road on gravel: orange gas dice (ART.20)
    damage: int = 0                   # black dice lost (ART.8)
    punctures: int = 0                # gas dice lost (ART.9.3)
    dirt: tuple = ()                  # ((corner, dirty-cut tokens), ...) (ART.9.3 corde sale)
    spare: bool = True                # the spare wheel card still held (ART.10: once a stage, back at assistance)
    sisu: bool = False                # the SISU card still held (ART.7.5: once a rally)
    clean: tuple = ()                 # corners whose gravel cut a good card has cleaned: no card (ART.21)

    def dirt_on(self, corner) -> int:
        return dict(self.dirt).get(corner, 0)

    def with_dirt(self, corner, n: int = 1) -> "Car":
        d = dict(self.dirt)
        d[corner] = d.get(corner, 0) + n
        return replace(self, dirt=tuple(sorted(d.items())))


class Step(NamedTuple):
    die: str
    to: str                 # the cell the car stands on after the die
    gear: int
    event: str | None = None
    passed: tuple = ()      # cells jumped over
    risk: str | None = None # a hazard on this die: "ford" stops the car there (ART.23); "double" (ART.19) and
                            # "bump" (one gear over, ART.11) are a loss of control
    damage: int = 0         # black dice lost for sure: a bump jumped two gears over into the finish (ART.11, 13)


@dataclass
class TurnState:
    """The car during a turn: its place, gear, the dice already used."""
    node: str
    gear: int
    used: frozenset = frozenset()
    gas_used: dict = field(default_factory=dict)   # road -> gas dice used on cells of that road
    steps: list = field(default_factory=list)
    over: str | None = None                        # "finish", "loss", "abandon": no more dice


def road_of(g: nx.DiGraph, node: str, car: Car) -> str:
    surface = g.nodes[node].get("surface") or "asphalt"
    if surface == "gravel" and car.leader:
        return "gravel-leader"
    return ROAD_OF.get(surface, "asphalt")


def notes(g: nx.DiGraph, node: str, car: Car) -> tuple[int | None, int | None]:
    """(highest gear allowed on this cell, highest note of its corner), dirty cuts counted (ART.9.3)."""
    d = g.nodes[node]
    limit, highest = d.get("limit"), d.get("highest")
    corner = d.get("corner")
    dirt = car.dirt_on(corner) if corner else 0
    if dirt and d.get("lane") in ("inside", "drift") and limit:
        limit = max(1, limit - dirt)
    if dirt and d.get("corner_notes"):
        note, gear, k = d["corner_notes"]
        highest = max(x for x in (note and max(1, note - dirt), gear and max(1, gear - dirt), k) if x)
    return limit, highest


def gas_allowed(rules: Rules, g, node, car: Car, gas_used: dict) -> bool:
    road = road_of(g, node, car)
    dash = rules.dash(car.tyres, road)
    total = sum(gas_used.values())
    if total >= max(0, rules.gas_dice - car.punctures):
        return False
    # a puncture takes a gas die from the box's two; snow tyres keep their one gas die on asphalt (ART.15.4)
    return gas_used.get(road, 0) < min(dash.gas, rules.gas_dice - car.punctures)


def gas_kind(rules: Rules, g, node, car: Car) -> str:
    return rules.dash(car.tyres, road_of(g, node, car)).gas_kind


def die_gear(die: str) -> int | None:
    return int(die[4:]) if die.startswith("gear") else None


def step(g: nx.DiGraph, rules: Rules, car: Car, state: TurnState, die: str, to: str) -> Step:
    """One die from ``state`` to the cell ``to`` (a successor of the car's cell)."""
    if state.over:
        raise IllegalMove(f"the turn is over ({state.over})")
    if die in state.used and die != "gas":
        raise IllegalMove(f"die {die[4:]} was already rolled this turn (each die once per turn, ART.4)")
    if not g.has_edge(state.node, to):
        raise IllegalMove(f"{to} does not follow {state.node} on the road")
    kind = g.edges[state.node, to].get("kind", "road")
    gear = state.gear
    k = die_gear(die)
    if die == "gas":
        if gear == 0:
            raise IllegalMove("a gas die keeps a gear engaged; from a standstill the first die is die 1 (ART.4)")
        if not gas_allowed(rules, g, to, car, state.gas_used):
            raise IllegalMove("no gas die left for this road with these tyres (ART.15.4, ART.24)")
        new = gear
    elif k is not None:
        if not 1 <= k <= rules.top:
            raise IllegalMove(f"there is no gear {k}")
        if len(state.used - {"gas"}) >= rules.top - car.damage and die not in state.used:
            raise IllegalMove(f"only {rules.top - car.damage} black dice are left after the damage (ART.8)")
        if gear == 0 and k != 1:
            raise IllegalMove("from a standstill (start, after a loss of control) the first die is die 1 (ART.4)")
        if gear and abs(k - gear) > 1:
            dash = rules.dash(car.tyres, road_of(g, to, car))
            if k == gear - 2 and not dash.double_downshift:
                # ART.19: a double downshift the dashboard does not allow moves one cell, then control is lost
                return Step(die, to, k, "loss")
            if k != gear - 2:
                raise IllegalMove(f"gear {gear} to {k}: gears follow one by one (ART.4)")
        new = k
    else:
        raise IllegalMove(f"unknown die {die!r}")
    if kind == "rejoin" and not (k is not None and gear - 2 <= k <= gear - 1):
        # ART.9.2 "en descendant 1 vitesse"; *decided*: or 2 where the dashboard allows a double downshift (ART.19
        # "à n'importe quel moment du tour"), the only way back to the inside line of a long corner whose drift
        # is two gears over its note (ART.26.1 "changements de trajectoires autorisés")
        raise IllegalMove("back from the drift to the inside line needs the die one gear lower, or two where "
                          "the dashboard allows a double downshift (ART.9.2, ART.19)")
    d = g.nodes[to]
    if to == "finish":
        return Step(die, to, new, "finish")
    limit, highest = notes(g, to, car)
    lane = d.get("lane")
    if highest is not None and new > highest:
        over = new - highest
        return Step(die, to, new, "loss" if over <= rules.overspeed_loss else "abandon")
    if lane == "drift":
        exact = limit
        if new != exact:
            raise IllegalMove(f"the drift is taken only in gear {exact} (ART.9.2)")
    elif limit is not None and new > limit:
        if limit == 0:
            raise IllegalMove("this corner has no inside line: take its drift or its cut")
        where = "in the cut (K" if lane == "cut" else "on the inside line (note "
        raise IllegalMove(f"gear {new} is above the note {where}{limit}): drift or slow down (ART.9)")
    bump = d.get("bump")
    if bump and new >= bump:
        over = new - bump
        n = {0: rules.bump["at_note"], 1: rules.bump["one_over"]}.get(over, rules.bump["two_over"])
        ahead = d.get("ahead") or []
        landing = ahead[min(n, len(ahead)) - 1] if ahead else to
        passed = tuple(ahead[:max(0, min(n, len(ahead)) - 1)])
        event = "finish" if landing == "finish" else ("loss" if over >= 2 else "jump")
        if landing != "finish":
            llimit, lhigh = notes(g, landing, car)
            if lhigh is not None and new - lhigh > rules.overspeed_loss:
                event = "abandon"            # *decided*: landing in a corner too fast for it, as entering it (ART.9)
            elif event == "jump" and lhigh is not None and new > lhigh:
                event = "loss"
            elif event == "jump" and g.nodes[landing].get("lane") == "inside" and llimit is not None \
                    and new > llimit:
                event = "loss"
        risk = "double" if k is not None and gear and k == gear - 2 else None
        if event == "jump" and over == 1:
            risk = "bump"                          # a hazard on this die: loss of control on landing (ART.11)
        if event == "jump" and landing != "finish" and g.nodes[landing].get("ford") and over == 0 \
                and not (die == "gas" or new == gear):
            risk = risk or "ford"                 # landing in the ford at the note (ART.23)
        return Step(die, landing, new, event, (to,) + passed, risk, int(event == "finish" and over >= 2))
    risk = "double" if k is not None and gear and k == gear - 2 else None
    if d.get("ford") and not (die == "gas" or new == gear):
        risk = risk or "ford"
    return Step(die, to, new, None, (), risk)


def apply(g, rules: Rules, car: Car, state: TurnState, die: str, to: str) -> TurnState:
    """The turn state after a legal step (raises :class:`IllegalMove` otherwise)."""
    s = step(g, rules, car, state, die, to)
    used = state.used | ({die} if die != "gas" else set())
    gas = dict(state.gas_used)
    if die == "gas":
        road = road_of(g, to, car)
        gas[road] = gas.get(road, 0) + 1
    over = s.event if s.event in ("finish", "loss", "abandon") else None
    return TurnState(s.to, s.gear, frozenset(used), gas, state.steps + [s], over)


def play(g, rules: Rules, car: Car, node: str, gear: int, moves: list[tuple[str, str]]) -> TurnState:
    """Play a whole turn: ``moves`` is a list of (die, cell); raises :class:`IllegalMove` at the first bad one."""
    state = TurnState(node, gear)
    for i, (die, to) in enumerate(moves):
        try:
            state = apply(g, rules, car, state, die, to)
        except IllegalMove as exc:
            raise IllegalMove(f"die {i + 1} ({die} to {to}): {exc}") from None
    return state


def dice_options(g, rules: Rules, car: Car, state: TurnState) -> list[str]:
    """Dice the car may roll next, whatever the cell (gear dice by the chaining rule, and gas)."""
    out = []
    for k in rules.gears:
        die = f"gear{k}"
        if die in state.used:
            continue
        if state.gear == 0 and k != 1:
            continue
        if state.gear and abs(k - state.gear) > 1 and k != state.gear - 2:
            continue
        out.append(die)
    if state.gear and sum(state.gas_used.values()) < rules.gas_dice - car.punctures:
        out.append("gas")
    return out


def legal_steps(g, rules: Rules, car: Car, state: TurnState, safe: bool = True) -> list[tuple[str, str, Step]]:
    """Every legal (die, cell, step) from here; ``safe`` leaves out losses of control and abandoning."""
    out = []
    if state.over:
        return out
    for die in dice_options(g, rules, car, state):
        for to in g.successors(state.node):
            try:
                s = step(g, rules, car, state, die, to)
            except IllegalMove:
                continue
            if safe and s.event in ("loss", "abandon"):
                continue
            out.append((die, to, s))
    return out


def hazard_die(rules: Rules, g, car: Car, die: str, to: str) -> str:
    """The hazard-face key of a die rolled towards ``to`` (gas dice are orange for the gravel leader)."""
    if die == "gas":
        return "orange" if gas_kind(rules, g, to, car) == "orange" else "gas"
    return die


def turn_ends(g, rules: Rules, car: Car, node: str, gear: int) -> list[tuple[str, int, bool]]:
    """Where a turn from (node, gear) can end with no hazard rolled (a shakedown, ART.17): (cell, gear, finished)."""
    return sorted(turn_ends_dice(g, rules, car, node, gear), key=lambda e: (str(e[0]), e[1], e[2]))


def turn_ends_dice(g, rules: Rules, car: Car, node: str, gear: int) -> dict[tuple[str, int, bool], int]:
    """Each end of a turn from (node, gear) with no hazard rolled, with the most dice a turn there can use
    (each die rolled together in a Big Attack wins a second, ART.5)."""
    ends: dict = {}
    seen: set = set()

    def walk(state: TurnState):
        key = (state.node, state.gear, state.used, tuple(sorted(state.gas_used.items())))
        if key in seen:
            return
        seen.add(key)
        for die, to, s in legal_steps(g, rules, car, state):
            nxt = apply(g, rules, car, state, die, to)
            end = ("finish", nxt.gear, True) if s.event == "finish" else (nxt.node, nxt.gear, False)
            ends[end] = max(ends.get(end, 0), len(nxt.steps))
            if s.event != "finish":
                walk(nxt)

    walk(TurnState(node, gear))
    return ends
