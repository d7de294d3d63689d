"""The expected solo time with real hands: a Monte Carlo driver who draws the cards, plays the stress cards off,
rolls the die, and takes stress cards when spinning.

The simulated driver decides from its own hand: before each section it weighs every way of playing the cards it
holds by what the plan counts for the speed it makes (the plan from the fronts: the driver does not see the
back) and by what the cards left, with what it may draw from its own pile, can still do at the next section. It
keeps the arrow cards the corners it can see coming need, never spends an arrow card where it buys nothing, and
buys from the pile only as the ruleset's ``drivers`` habits say. The plan's ideal assumes the best hand every
time, so it is a lower bound of this.
"""
from __future__ import annotations

import random
import statistics
from functools import lru_cache

from designer.systems.rallye.driving.plan import Plan, action_cards, outcome_cost, reachable, section_outcomes
from designer.systems.rallye.model.deck import Deck, Section
from designer.systems.rallye.model.rules import SPIN

STRESS = None          # a stress card in a hand or a pile


SHORT = 8           # plays of the hand looked at one section ahead
WAYS = 3            # ways of making one (change, wheel) kept: the fewest arrow cards, then the fewest cards


@lru_cache(maxsize=65536)
def _plays(hand: tuple, max_cards: int, wheel: str | None, carries: bool) -> dict:
    """{(change in steps, wheel ok): a few ways (indices of ``hand``) to make it with at most ``max_cards`` cards}.

    Equal cards are interchangeable, so each group of equal cards is played as so many upright and so many
    across; of the ways to make one change, the ones spending the fewest arrow cards, then the fewest cards, are
    kept.
    """
    groups: list[tuple[tuple, list[int]]] = []
    for k, card in enumerate(hand):
        if groups and groups[-1][0] == card:
            groups[-1][1].append(k)
        else:
            groups.append((card, [k]))
    states: dict = {(0, wheel is None, 0): [(0, ())]}          # (change, ok, cards used) -> [(arrows, used)]
    for (steps, marks), idx in groups:
        has = wheel is not None and wheel in marks
        nxt: dict = {}
        for (value, ok, n), ways in states.items():
            for up in range(len(idx) + 1):
                for across in range(len(idx) + 1 - up if carries else 1):
                    k = up + across
                    if n + k > max_cards:
                        break
                    key = (value + (up - across) * steps, ok or (k > 0 and has), n + k)
                    bucket = nxt.setdefault(key, [])
                    bucket += [(arrows + (k if marks else 0), used + tuple(idx[:k])) for arrows, used in ways]
        states = {key: sorted(ways)[:WAYS] for key, ways in nxt.items()}
    found: dict = {}
    for (value, ok, n), ways in states.items():
        found.setdefault((value, ok), []).extend((arrows, n, used) for arrows, used in ways)
    return {key: tuple(u for _, _, u in sorted(ways)[:WAYS]) for key, ways in found.items()}


def _card_key(card) -> tuple:
    return card[0], sorted(card[1])


def _spend(cards, coming: list[str]) -> float:
    """What spending ``cards`` costs the corners coming: each arrow a corner ahead needs, nearer ones more."""
    out = 0.0
    for _, arrows in cards:
        for k, wheel in enumerate(coming):
            if wheel in arrows:
                out += 1.0 / (k + 1)
    return out


def _refill(hand: list, draw: list, discard: list, size: int, rng: random.Random) -> tuple[list, list]:
    while len(hand) < size:
        if not draw:
            if not discard:
                break
            draw, discard = discard, []
            rng.shuffle(draw)
        hand.append(draw.pop())
    return draw, discard


def _best_next(q_next: dict, hand: tuple, speed: int, rules, wheel: str | None, top: int) -> float:
    """The least the plan counts at the next section from ``speed`` with the cards of ``hand`` only."""
    carries = rules.speed_carries_over
    right, anyway = reachable(hand, min(rules.max_cards_per_turn, rules.hand_size), wheel, carries)
    best = float("inf")
    for ok, changes in ((True, right), (False, anyway)):
        for d in changes:
            v = speed + d if carries else d
            if 0 <= v <= top and q_next[(v, ok)] < best:
                best = q_next[(v, ok)]
    return best


def _choose(deck, sections, plan, i, speed, actions, pile_left, look: random.Random, keep: bool, memo: dict):
    """The play of the hand for section ``i``: (speed step, wheel ok, indices of the cards played).

    Each way of playing the hand is weighed by what the plan counts for it now and by what the cards left (with
    what may be drawn) can still do at the next section; among equal plays, the one that spends the fewest arrows
    the corners ahead need, then the fewest cards. An arrow card is never spent where it buys nothing.
    """
    r = deck.ruleset
    top = r.top_step
    s = sections[i]
    q = plan.q[i]
    coming = [x.wheel for x in sections[i + 1:i + 4] if x.wheel] if keep else []
    carries = r.speed_carries_over
    rough = []
    for (d, ok), ways in _plays(tuple(actions), min(r.max_cards_per_turn, r.hand_size), s.wheel, carries).items():
        v = speed + d if carries else d
        if 0 <= v <= top:
            value = q[(v, ok)]
            for used in ways:
                rough.append((value, sum(1 for k in used if actions[k][1]), len(used), v, ok, used))
    rough.sort(key=lambda c: c[:4])
    candidates = []
    for value, _, _, v, ok, used in rough[:SHORT]:
        cards = [actions[k] for k in used]
        useless = sum(1 for c in cards if c[1]) if s.wheel is None or ok is False else 0
        candidates.append((value, v, ok, used, _spend(cards, coming), useless))
    if i + 1 >= len(sections) or not keep:
        return min(candidates, key=lambda c: (round(c[0], 9), c[5], c[4], len(c[3]), c[1]))[1:4]
    nxt = sections[i + 1]
    short = candidates
    scored = []
    for value, v, ok, used, spent, useless in short:
        rest = tuple(sorted((a for k, a in enumerate(actions) if k not in used), key=_card_key))
        need = r.hand_size - len(rest)
        later = 0.0
        samples = 2 if need and pile_left else 1
        for _ in range(samples):
            drawn = tuple(look.sample(pile_left, min(need, len(pile_left)))) if need and pile_left else ()
            hand = tuple(sorted(rest + drawn, key=_card_key))
            key = (id(plan), i + 1, hand, v)
            if key not in memo:
                memo[key] = _best_next(plan.q[i + 1], hand, v, r, nxt.wheel, top) - plan.values[i + 1][v]
            later += memo[key]
        scored.append((value + later / samples, useless, spent, len(used), v, ok, used))
    best = min(scored, key=lambda c: (round(c[0], 9), c[1], c[2], c[3], c[4]))
    return best[4], best[5], best[6]


def run_once(deck: Deck, sections: list[Section], plan: Plan, rng: random.Random, extra_stress: int = 0,
             memo: dict | None = None) -> dict:
    """One solo run; ``memo`` keeps, across the runs of one simulation, what a hand can do at a section."""
    memo = {} if memo is None else memo
    r = deck.ruleset
    step = r.speed_step
    habits = r.drivers
    own = list(action_cards(deck))
    draw = own[:] + [STRESS] * extra_stress
    rng.shuffle(draw)
    look = random.Random(rng.random())
    pile = list(action_cards(deck, deck.pile()))
    rng.shuffle(pile)
    discard: list = []
    hand: list = []
    speed = r.start_speed // step
    seconds = spins = stress_taken = cards_lost = bought = 0
    for i, s in enumerate(sections):
        draw, discard = _refill(hand, draw, discard, r.hand_size, rng)
        actions = sorted((c for c in hand if c is not STRESS), key=_card_key)
        stress_in_hand = len(hand) - len(actions)
        pile_left = [c for c in draw + discard if c is not STRESS]
        v, ok, used = _choose(deck, sections, plan, i, speed, actions, pile_left, look,
                              bool(habits.get("keep_for_corners", True)), memo)
        played = [actions[k] for k in used]
        for k in sorted(used, reverse=True):
            actions.pop(k)
        discard += played
        if not played and not stress_in_hand and actions:
            actions.remove(min(actions, key=_card_key))      # one card laid face down: gone to the common pile
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
        left = sum(1 for c in hand + draw + discard if c is not STRESS)
        for k, price in enumerate(r.buy_costs[:3]):                 # E) buying from the pile when short of cards
            if left + k >= int(habits.get("buy_below_cards", 0)) or not pile:
                break
            discard.append(pile.pop())
            seconds += price
            bought += 1
    return {"seconds": seconds, "spins": spins, "stress": stress_taken, "cards_lost": cards_lost, "bought": bought}


def simulate(deck: Deck, sections: list[Section], plan: Plan, runs: int = 400, seed: int = 1,
             extra_stress: int = 0) -> dict:
    """Solo runs following ``plan`` with real hands; the same seed gives the same figures.

    ``extra_stress``: stress cards shuffled into the starting set (the rules' handicap for experienced drivers).
    """
    rng = random.Random(seed)
    memo: dict = {}
    results = [run_once(deck, sections, plan, rng, extra_stress, memo) for _ in range(max(1, runs))]
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
            "cards_bought_per_stage": round(statistics.fmean(x["bought"] for x in results), 3),
            "histogram": _histogram(times)}


def _histogram(times: list[int]) -> dict:
    out: dict = {}
    for t in times:
        out[t] = out.get(t, 0) + 1
    return {str(k): v for k, v in sorted(out.items())}
