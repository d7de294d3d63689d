"""The speed plan: which speed to take on each of the 12 sections, under the game's rules for changing speed.

Before each section a driver lays action cards face up: each adds its acceleration (laid upright) or takes it
off (laid across) from the speed held, and the wheel is right when one of them carries the card's arrow. The
crossing is then read from the card's tables with a die. So a stage is a small Markov decision problem over
(section, speed held), solved exactly backwards from the finish, in expected solo seconds.

- the **cautious plan** never goes above a card's safety speed;
- the **fastest plan** may, where the seconds gained beat the penalties the tables promise (on average).

Each speed is chosen from what the driver can see (the front of the card and the player aid, see
:mod:`..model.knowledge`); with ``hidden=False`` the same plans for a driver who knew every back (the organiser's
figures). Both assume the driver holds the best hand of the starting set each time (an ideal; the simulation
in :mod:`designer.systems.rallye.driving.simulate` deals real hands).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from designer.systems.rallye.model.knowledge import Back, Belief, beliefs, safe_limit
from designer.systems.rallye.model.deck import Deck, Section
from designer.systems.rallye.model.rules import SPIN, Ruleset

Card = tuple[int, frozenset]          # (acceleration in steps, arrows)


@lru_cache(maxsize=4096)
def reachable(cards: tuple[Card, ...], max_cards: int, wheel: str | None, carries: bool) -> tuple[frozenset, frozenset]:
    """The speed changes (or, when speed does not carry over, the speeds) a hand can make, in steps.

    Returns (with the wheel right, with any wheel). Laying no card face up (one laid face down) is a change of 0.
    """
    states = {(0, 0, wheel is None)}
    for steps, arrows in cards:
        has = wheel is not None and wheel in arrows
        new = set(states)
        for n, value, ok in states:
            if n >= max_cards:
                continue
            new.add((n + 1, value + steps, ok or has))
            if carries:
                new.add((n + 1, value - steps, ok or has))
        states = new
    right = frozenset(v for _, v, ok in states if ok)
    anyway = frozenset(v for _, v, _ in states)
    return right, anyway


def hand_key(cards) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: (c[0], sorted(c[1]))))


def action_cards(deck: Deck, cards=None) -> tuple[Card, ...]:
    step = deck.ruleset.speed_step
    return hand_key((a.acceleration // step, a.steering) for a in (cards if cards is not None else deck.starting_set()))


MAX_DRIVERS = 4          # « 1 à 4 joueurs », starting sets J1 to J4


def race_cards(deck: Deck, players: int) -> tuple:
    """A driver's starting set and the common pile with ``players`` drivers: the pile's own cards and the starting
    sets no driver takes (« le paquet de toutes les cartes actions restantes »)."""
    own = action_cards(deck)
    return own, action_cards(deck, deck.pile()) + own * max(0, MAX_DRIVERS - players)


def best_hand_options(deck: Deck, wheel: str | None) -> tuple[frozenset, frozenset]:
    """What the best hand of ``hand_size`` cards from the starting set can do (the plan's ideal)."""
    r = deck.ruleset
    return reachable(action_cards(deck), min(r.max_cards_per_turn, r.hand_size), wheel, r.speed_carries_over)


def outcome_cost(r: Ruleset, speed: int, outcome) -> tuple[float, int]:
    """(seconds, speed held after) of one outcome of a crossing at ``speed`` steps."""
    if outcome == SPIN:
        return (r.solo(r.spin_timed_speed // r.speed_step) + r.spin_penalty_seconds,
                r.speed_after_spin // r.speed_step)
    return r.solo(speed) + outcome, speed


def section_outcomes(deck: Deck, s: Section, speed: int, wheel_ok: bool) -> dict:
    """{outcome: chance} of crossing ``s`` at ``speed`` steps, read from its real back."""
    r = deck.ruleset
    step = r.speed_step
    return deck.tables_of(s).outcomes(speed, s.safety // step, s.top // step, wheel_ok or s.wheel is None)


def back_outcomes(back: Back, s: Section, speed: int, wheel_ok: bool) -> dict:
    """{outcome: chance} of crossing a card of front ``s`` and back ``back`` at ``speed`` steps."""
    return back.tables.outcomes(speed, back.safety, back.top, wheel_ok or s.wheel is None)


@dataclass
class Leg:
    """One section of a plan: the speed taken (km/h), the wheel, and the expected seconds it costs."""
    index: int
    card: str
    speed: int
    wheel_ok: bool
    seconds: float          # expected seconds of this section (time at that speed + expected penalties)
    base: int               # seconds at that speed with no penalty
    penalty: float          # expected penalty seconds (a spin counted as its whole cost above `base`)
    spin_chance: float

    def to_dict(self) -> dict:
        return {"section": self.index + 1, "card": self.card, "speed": self.speed, "wheel_ok": self.wheel_ok,
                "seconds": round(self.seconds, 3), "base": self.base, "penalty": round(self.penalty, 3),
                "spin_chance": round(self.spin_chance, 4)}


@dataclass
class Plan:
    kind: str
    legs: list[Leg]
    expected: float                     # expected solo seconds from the start
    values: list[list[float]]           # values[i][v]: what the plan counts from section i holding speed step v
    q: list[dict]                       # q[i][(v, ok)]: what the plan counts from section i choosing (v, ok)
    believed: float = 0.0               # expected seconds as the driver sees them (the fronts only when hidden)
    hidden: bool = True                 # chosen from the fronts (True) or knowing every back (False)
    choice: list | None = None          # choice[i][v]: (speed step, wheel right) chosen at section i holding v
    known: frozenset = frozenset()      # card ids whose backs the driver remembers

    @property
    def speeds(self) -> list[int]:
        return [leg.speed for leg in self.legs]

    def to_dict(self) -> dict:
        return {"kind": self.kind, "information": "fronts" if self.hidden else "every back",
                "expected_seconds": round(self.expected, 3), "believed_seconds": round(self.believed, 3),
                "seconds_without_penalty": sum(leg.base for leg in self.legs),
                "expected_penalty": round(sum(leg.penalty for leg in self.legs), 3),
                "spin_chance_total": round(1 - _prod(1 - leg.spin_chance for leg in self.legs), 4),
                "legs": [leg.to_dict() for leg in self.legs]}


def _prod(xs) -> float:
    out = 1.0
    for x in xs:
        out *= x
    return out


FORCED = 1000.0     # what a cautious plan counts for being forced above a safety speed (so it avoids it first)
TIE = 1e-9          # choices whose values differ by less are equal: the lower speed, then the wheel right, wins


def _expect(r: Ruleset, s: Section, belief: Belief, v: int, ok: bool, after_values: list[float]) -> float:
    total = 0.0
    for pb, back in belief:
        for outcome, p in back_outcomes(back, s, v, ok).items():
            sec, after = outcome_cost(r, v, outcome)
            total += pb * p * (sec + after_values[after])
    return total


def solve(deck: Deck, sections: list[Section], cautious: bool = False, hidden: bool = True,
          known: frozenset = frozenset()) -> Plan:
    """The plan with the least expected solo seconds (``cautious``: never above a safety speed).

    ``hidden`` (the game as played): each speed is chosen knowing the section's front and the player aid, not
    its back (see :mod:`..model.knowledge`); ``known`` are the card ids whose backs the driver remembers. With
    ``hidden=False`` the driver knows every back (the organiser's figure). Either way the plan's ``expected``
    seconds are those of its choices on the stage's real cards; ``believed`` is what the driver expects.

    A cautious driver never goes above the lowest safety speed the section might have; one who cannot stay
    under it (the section before was too fast to brake from, or no hand reaches a speed that low) takes the
    speed nearest above it, counted as much worse than any time, so the plan avoids it when it can. Equal
    choices: the lower speed, then the wheel right.
    """
    r = deck.ruleset
    top, step = r.top_step, r.speed_step
    n = len(sections)
    thought = beliefs(deck, sections, hidden, known)
    truth = beliefs(deck, sections, False)
    values = [[0.0] * (top + 1) for _ in range(n + 1)]      # what the plan minimises (believed, with FORCED)
    believed = [[0.0] * (top + 1) for _ in range(n + 1)]    # seconds the driver expects
    seconds = [[0.0] * (top + 1) for _ in range(n + 1)]     # seconds on the real cards
    choice: list[list[tuple[int, bool] | None]] = [[None] * (top + 1) for _ in range(n)]
    q_all: list[dict] = [{} for _ in range(n)]
    carries = r.speed_carries_over
    for i in range(n - 1, -1, -1):
        s = sections[i]
        limit = min(top, safe_limit(thought[i])) if cautious else top
        q = q_all[i]
        for v in range(top + 1):
            for ok in (True, False):
                # above the limit: the nearest speed to it first, each step over it worse than any time
                q[(v, ok)] = _expect(r, s, thought[i], v, ok, values[i + 1]) + (FORCED * (v - limit) if v > limit
                                                                                  else 0.0)
        right, anyway = best_hand_options(deck, s.wheel)
        for prev in range(top + 1):
            options = {(prev + d if carries else d, ok) for ok, deltas in ((True, right), (False, anyway))
                       for d in deltas}
            options = [o for o in options if 0 <= o[0] <= top]
            best = min(q[o] for o in options)
            v, ok = min((o for o in options if q[o] <= best + TIE), key=lambda o: (o[0], not o[1]))
            choice[i][prev] = (v, ok)
            values[i][prev] = q[(v, ok)]
            believed[i][prev] = _expect(r, s, thought[i], v, ok, believed[i + 1])
            seconds[i][prev] = _expect(r, s, truth[i], v, ok, seconds[i + 1])
    legs = []
    speed = r.start_speed // step
    for i, s in enumerate(sections):
        v, ok = choice[i][speed]
        outs = section_outcomes(deck, s, v, ok)
        base = r.solo(v)
        expected_here = sum(p * outcome_cost(r, v, o)[0] for o, p in outs.items())
        legs.append(Leg(i, s.id, v * step, ok or s.wheel is None, expected_here, base, max(0.0, expected_here - base),
                        outs.get(SPIN, 0.0)))
        speed = v
    start = r.start_speed // step
    return Plan("cautious" if cautious else "fastest", legs, seconds[0][start], values, q_all,
                believed[0][start], hidden, choice, frozenset(known))


def limits_profile(deck: Deck, sections: list[Section]) -> list[dict]:
    """The 'speed limits' of this game: safety and top speed per section, with what the card asks of the wheel."""
    return [{"section": i + 1, "card": s.id, "severity": s.severity, "direction": s.direction, "wheel": s.wheel,
             "safety": s.safety, "top": s.top, "width": s.width, "surface": s.surface}
            for i, s in enumerate(sections)]


def hardest_braking(deck: Deck, sections: list[Section]) -> dict | None:
    """The biggest drop in safety speed from one section to the next (km/h), and where."""
    best = None
    for i in range(1, len(sections)):
        drop = sections[i - 1].safety - sections[i].safety
        if drop > 0 and (best is None or drop > best["drop"]):
            best = {"section": i + 1, "drop": drop}
    return best
