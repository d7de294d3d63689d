"""The expected solo time with real hands: a Monte Carlo driver who draws the cards, plays the stress cards off,
rolls the die, and takes stress cards when spinning.

The simulated driver, before each section, looks at the speed changes its hand can make and picks the one with
the least expected seconds from there on (the plan's values), using as few cards as it can. It never buys cards.
With its starting set of 12 cards, a hand of 6, and no face-down trick beyond dropping stress cards, this is a
realistic solo run; the plan's ideal assumes the best hand every time, so it is a lower bound of this.
"""
from __future__ import annotations

import random
import statistics
from functools import lru_cache

from designer.systems.rallye.deck import Deck, Section
from designer.systems.rallye.plan import Plan, action_cards, outcome_cost, section_outcomes
from designer.systems.rallye.rules import SPIN

STRESS = None          # a stress card in a hand or a pile


@lru_cache(maxsize=8192)
def _moves(hand: tuple, max_cards: int, wheel: str | None, carries: bool) -> dict:
    """{(change in steps, wheel ok): indices of the fewest cards of ``hand`` that make it}."""
    best: dict = {(0, wheel is None): ()}
    signs = (1, -1) if carries else (1,)

    def walk(i, value, ok, used):
        if i == len(hand):
            key = (value, ok)
            if key not in best or len(used) < len(best[key]):
                best[key] = used
            return
        walk(i + 1, value, ok, used)
        if len(used) < max_cards:
            steps, arrows = hand[i]
            for sign in signs:
                walk(i + 1, value + sign * steps, ok or (wheel is not None and wheel in arrows), used + (i,))

    walk(0, 0, wheel is None, ())
    return best


def run_once(deck: Deck, sections: list[Section], plan: Plan, rng: random.Random, extra_stress: int = 0) -> dict:
    r = deck.ruleset
    step, top = r.speed_step, r.top_step
    own = list(action_cards(deck))
    draw = own[:] + [STRESS] * extra_stress
    rng.shuffle(draw)
    discard: list = []
    hand: list = []
    speed = r.start_speed // step
    seconds = spins = stress_taken = cards_lost = 0
    hand_size = r.hand_size
    max_cards = min(r.max_cards_per_turn, hand_size)
    carries = r.speed_carries_over
    for i, s in enumerate(sections):
        q = plan.q[i]
        while len(hand) < hand_size:
            if not draw:
                if not discard:
                    break
                draw, discard = discard, []
                rng.shuffle(draw)
            hand.append(draw.pop())
        actions = sorted((c for c in hand if c is not STRESS), key=lambda c: (c[0], sorted(c[1])))
        stress_in_hand = len(hand) - len(actions)
        moves = _moves(tuple(actions), max_cards, s.wheel, carries)
        best = None
        for (d, ok), used in moves.items():
            v = speed + d if carries else d
            if not 0 <= v <= top:
                continue
            key = (q[(v, ok)], len(used))
            if best is None or key < best[0]:
                best = (key, v, ok, used)
        _, v, ok, used = best
        played = [actions[k] for k in used]
        for k in sorted(used, reverse=True):
            actions.pop(k)
        discard += played
        if not played and not stress_in_hand and actions:
            actions.remove(min(actions, key=lambda c: c[0]))      # one card laid face down: gone to the common pile
            cards_lost += 1
        hand = actions                                              # stress cards are laid face down and sorted away
        outs = section_outcomes(deck, s, v, ok)
        roll = rng.random()
        acc = 0.0
        outcome = next(iter(outs))
        for o, p in outs.items():
            acc += p
            outcome = o
            if roll < acc:
                break
        sec, after = outcome_cost(r, v, outcome)
        seconds += sec
        if outcome == SPIN:
            spins += 1
            stress_taken += r.spin_stress_cards
            discard += [STRESS] * r.spin_stress_cards
        speed = after
    return {"seconds": seconds, "spins": spins, "stress": stress_taken, "cards_lost": cards_lost}


def simulate(deck: Deck, sections: list[Section], plan: Plan, runs: int = 400, seed: int = 1,
             extra_stress: int = 0) -> dict:
    """Solo runs following ``plan`` with real hands; the same seed gives the same figures.

    ``extra_stress``: stress cards shuffled into the starting set (the rules' handicap for experienced drivers).
    """
    rng = random.Random(seed)
    results = [run_once(deck, sections, plan, rng, extra_stress) for _ in range(max(1, runs))]
    times = sorted(x["seconds"] for x in results)

    def pct(q):
        return times[min(len(times) - 1, int(q * len(times)))]

    return {"runs": len(results), "seed": seed, "plan": plan.kind, "extra_stress": extra_stress,
            "mean_seconds": round(statistics.fmean(times), 2),
            "stdev_seconds": round(statistics.pstdev(times), 2),
            "best_seconds": times[0], "p10": pct(0.1), "median": pct(0.5), "p90": pct(0.9), "worst_seconds": times[-1],
            "spins_per_stage": round(statistics.fmean(x["spins"] for x in results), 3),
            "spin_stage_chance": round(sum(1 for x in results if x["spins"]) / len(results), 4),
            "stress_per_stage": round(statistics.fmean(x["stress"] for x in results), 3),
            "cards_lost_per_stage": round(statistics.fmean(x["cards_lost"] for x in results), 3),
            "histogram": _histogram(times)}


def _histogram(times: list[int]) -> dict:
    out: dict = {}
    for t in times:
        out[t] = out.get(t, 0) + 1
    return {str(k): v for k, v in sorted(out.items())}
