"""The expected solo time with real hands: a Monte Carlo driver who draws the cards, plays the stress cards off,
rolls the die, and takes stress cards when spinning.

The simulated driver decides from its own hand and what it may draw (:class:`.driver.HandDriver`): before each
section it weighs every way of playing the cards it holds by the crossing it gives (the plan's knowledge: the
fronts only, the back unseen) and by what the cards kept, refilled from its actual pile, are worth at the
sections after. So it keeps the cards the corners it can see coming need (arrows and braking), never spends an
arrow card where one with fewer arrows does the same, and lays a card face down only when nothing better
holds its speed. It buys from the pile as the ruleset's ``drivers`` habits say; with ``keep_for_corners:
false`` it plays the plain habit (:func:`.driver.simple_choice`). The plan assumes the best hand every time but
is made, like the driver's choices, from the fronts: on the real backs a run's luck may beat it, so it is the
target a driver expects, not a bound of this.
"""
from __future__ import annotations

import math
import random
import statistics

from designer.systems.rallye.driving.driver import HandDriver, simple_choice
from designer.systems.rallye.driving.hand import STRESS, card_key
from designer.systems.rallye.driving.plan import Plan, outcome_cost, race_cards, section_outcomes
from designer.systems.rallye.model.deck import Deck, Section
from designer.systems.rallye.model.rules import SPIN


def driver_for(deck: Deck, sections: list[Section], plan: Plan):
    """The decision of one section, ``(i, speed, hand, draw, discard) -> (speed, wheel ok, laid, face down)``:
    the hand driver (kept with the plan, so the analysis and the race share it) or the plain habit."""
    if not deck.ruleset.drivers.get("keep_for_corners", True):
        return lambda i, speed, hand, draw, discard: simple_choice(deck, sections, plan, i, speed, hand)
    key = (id(deck), tuple(s.id for s in sections))
    cached = plan.__dict__.get("_hand_driver")
    if cached is None or cached[0] != key:
        cached = (key, HandDriver(deck, sections, plan))
        plan.__dict__["_hand_driver"] = cached
    return cached[1].choose


def play(hand: list, choice) -> tuple[list, list, object]:
    """Lay the cards ``choice`` names: (the action cards left in hand, the cards laid up or across, the card
    laid face down or None). Stress cards are laid face down and sorted away."""
    actions = sorted((c for c in hand if c is not STRESS), key=card_key)
    _, _, used, lost = choice
    gone = set(used) | ({lost} if lost is not None else set())
    return ([c for k, c in enumerate(actions) if k not in gone], [actions[k] for k in used],
            None if lost is None else actions[lost])


def cross(deck: Deck, s: Section, v: int, ok: bool, rng: random.Random):
    """The outcome of crossing ``s`` at ``v`` steps: the die read on the real back."""
    outs = section_outcomes(deck, s, v, ok)
    roll, acc, outcome = rng.random(), 0.0, next(iter(outs))
    for o, p in outs.items():
        acc += p
        outcome = o
        if roll < acc:
            break
    return outcome


def _refill(hand: list, draw: list, discard: list, size: int, rng: random.Random) -> tuple[list, list]:
    while len(hand) < size:
        if not draw:
            if not discard:
                break
            draw, discard = discard, []
            rng.shuffle(draw)
        hand.append(draw.pop())
    return draw, discard


def run_once(deck: Deck, sections: list[Section], plan: Plan, rng: random.Random, extra_stress: int = 0,
             choose=None, cards: tuple | None = None) -> dict:
    """One solo run; ``choose`` is the driver (see :func:`driver_for`), ``cards`` the (own, pile) action cards."""
    choose = choose or driver_for(deck, sections, plan)
    r = deck.ruleset
    habits = r.drivers
    own, common = cards or race_cards(deck, 1)
    draw = list(own) + [STRESS] * extra_stress
    rng.shuffle(draw)
    pile = list(common)
    rng.shuffle(pile)
    discard: list = []
    hand: list = []
    speed = r.start_speed // r.speed_step
    seconds = spins = stress_taken = cards_lost = bought = laid = reshuffles = 0
    for i, s in enumerate(sections):
        before = len(discard)
        draw, discard = _refill(hand, draw, discard, r.hand_size, rng)
        reshuffles += len(discard) < before
        choice = choose(i, speed, hand, draw, discard)
        hand, played, lost = play(hand, choice)
        discard += played
        laid += len(played) + (lost is not None)
        cards_lost += lost is not None
        v, ok = choice[0], choice[1]
        outcome = cross(deck, s, v, ok, rng)
        sec, speed = outcome_cost(r, v, outcome)
        seconds += sec
        if outcome == SPIN:
            spins += 1
            stress_taken += r.spin_stress_cards
            discard += [STRESS] * r.spin_stress_cards
        left = sum(1 for c in hand + draw + discard if c is not STRESS)
        for k, price in enumerate(r.buy_costs[:3] if i + 1 < len(sections) else ()):   # E) buying when short of
            if left + k >= int(habits.get("buy_below_cards", 0)) or not pile:          # cards, before a section
                break
            discard.append(pile.pop())
            seconds += price
            bought += 1
    return {"seconds": seconds, "spins": spins, "stress": stress_taken, "cards_lost": cards_lost, "bought": bought,
            "laid": laid, "reshuffles": reshuffles}


def interval(xs: list[float]) -> list[float]:
    """The 95 % confidence interval of the mean of ``xs`` (normal approximation)."""
    if len(xs) < 2:
        return [round(xs[0], 3)] * 2 if xs else [0.0, 0.0]
    m, half = statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return [round(m - half, 3), round(m + half, 3)]


def simulate(deck: Deck, sections: list[Section], plan: Plan, runs: int = 400, seed: int = 1,
             extra_stress: int = 0) -> dict:
    """Solo runs following ``plan`` with real hands; the same seed gives the same figures.

    ``extra_stress``: stress cards shuffled into the starting set (the rules' handicap for experienced drivers).
    ``mean_ci95`` and ``spin_ci95`` are the 95 % confidence intervals of the mean time and the spin rate.
    """
    rng = random.Random(seed)
    choose = driver_for(deck, sections, plan)
    cards = race_cards(deck, 1)
    results = [run_once(deck, sections, plan, rng, extra_stress, choose, cards) for _ in range(max(1, runs))]
    times = sorted(x["seconds"] for x in results)
    spun = [1.0 if x["spins"] else 0.0 for x in results]

    def pct(q):
        return times[min(len(times) - 1, int(q * len(times)))]

    return {"runs": len(results), "seed": seed, "plan": plan.kind, "extra_stress": extra_stress,
            "mean_seconds": round(statistics.fmean(times), 2), "mean_ci95": interval(times),
            "stdev_seconds": round(statistics.pstdev(times), 2),
            "best_seconds": times[0], "p10": pct(0.1), "median": pct(0.5), "p90": pct(0.9), "worst_seconds": times[-1],
            "spins_per_stage": round(statistics.fmean(x["spins"] for x in results), 3),
            "spin_stage_chance": round(statistics.fmean(spun), 4), "spin_ci95": interval(spun),
            "stress_per_stage": round(statistics.fmean(x["stress"] for x in results), 3),
            "cards_lost_per_stage": round(statistics.fmean(x["cards_lost"] for x in results), 3),
            "cards_bought_per_stage": round(statistics.fmean(x["bought"] for x in results), 3),
            "cards_laid_per_stage": round(statistics.fmean(x["laid"] for x in results), 3),
            "reshuffles_per_stage": round(statistics.fmean(x["reshuffles"] for x in results), 3),
            "histogram": _histogram(times)}


def _histogram(times: list[int]) -> dict:
    out: dict = {}
    for t in times:
        out[t] = out.get(t, 0) + 1
    return {str(k): v for k, v in sorted(out.items())}
