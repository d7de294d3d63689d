"""A race of several drivers on one stage, round by round as the rules run it (S4, 3) A to F).

Every driver has its own starting set, draw pile, hand and discard and plays its hand as the solo driver does
(:mod:`.simulate`); the speeds are set from the fronts, then each crosses with its own die. Then (C) each
driver receives a second per full 20 km/h it was slower than the fastest, divided as the seconds it already
holds grow, and the seconds the leader holds are taken off everyone; (D) the leader, or every driver sharing
the lead, takes a stress card, unless all are level; (E) a driver short of cards buys from the common pile as
the ruleset's ``drivers`` habits say, paying seconds. At the end the driver holding no second wins; a driver's
result is the seconds it holds behind the winner.

A seat is a place at the table; the rules have the drivers play at the same time, so the seats differ only
by the luck of the cards and the die.

>>> from designer.systems.rallye.model.deck import get_deck
>>> deck = get_deck("rallye-demo")
>>> out = race(deck, [deck.sections[c] for c in ["5", "4", "2"]], players=2, runs=5, seed=1)
>>> len(out["seats"]), out["players"]
(2, 2)
"""
from __future__ import annotations

import random
import statistics

from designer.systems.rallye.driving.plan import Plan, action_cards, outcome_cost, section_outcomes, solve
from designer.systems.rallye.driving.simulate import STRESS, _card_key, _choose, _refill
from designer.systems.rallye.model.deck import Deck, Section
from designer.systems.rallye.model.rules import SPIN, multiplayer_round

MAX_PLAYERS = 6


class _Driver:
    def __init__(self, deck: Deck, rng: random.Random, extra_stress: int = 0):
        self.draw = list(action_cards(deck)) + [STRESS] * extra_stress
        rng.shuffle(self.draw)
        self.discard: list = []
        self.hand: list = []
        self.speed = deck.ruleset.start_speed // deck.ruleset.speed_step
        self.held = 0
        self.spins = 0
        self.stress = 0
        self.bought = 0


def _cross(deck: Deck, s: Section, v: int, ok: bool, rng: random.Random):
    outs = section_outcomes(deck, s, v, ok)
    roll, acc, outcome = rng.random(), 0.0, next(iter(outs))
    for o, p in outs.items():
        acc += p
        outcome = o
        if roll < acc:
            break
    return outcome


def race_once(deck: Deck, sections: list[Section], plan: Plan, players: int, rng: random.Random,
              memo: dict) -> list[_Driver]:
    r = deck.ruleset
    look = random.Random(rng.random())
    pile = list(action_cards(deck, deck.pile()))
    rng.shuffle(pile)
    drivers = [_Driver(deck, rng) for _ in range(players)]
    habits = r.drivers
    for i, s in enumerate(sections):
        speeds = []
        for d in drivers:                                            # A) every driver sets its car
            d.draw, d.discard = _refill(d.hand, d.draw, d.discard, r.hand_size, rng)
            actions = sorted((c for c in d.hand if c is not STRESS), key=_card_key)
            stress_in_hand = len(d.hand) - len(actions)
            left = [c for c in d.draw + d.discard if c is not STRESS]
            v, ok, used = _choose(deck, sections, plan, i, d.speed, actions, left, look,
                                  bool(habits.get("keep_for_corners", True)), memo)
            played = [actions[k] for k in used]
            for k in sorted(used, reverse=True):
                actions.pop(k)
            d.discard += played
            if not played and not stress_in_hand and actions:
                pile.append(actions.pop(0))                         # a card laid face down goes to the common pile
            d.hand = actions
            outcome = _cross(deck, s, v, ok, rng)                  # B) the card is turned over, each crosses
            _, after = outcome_cost(r, v, outcome)
            penalty = 0 if outcome == SPIN else int(outcome)
            d.held += penalty
            if outcome == SPIN:
                d.held += r.spin_penalty_seconds
                d.spins += 1
                d.stress += r.spin_stress_cards
                d.discard += [STRESS] * r.spin_stress_cards
            speeds.append(r.kmh(r.spin_timed_speed // r.speed_step) if outcome == SPIN else r.kmh(v))
            d.speed = after
        held = multiplayer_round(speeds, [d.held for d in drivers], r.speed_step,   # C) seconds received
                                 r.multiplayer_step_seconds, r.multiplayer_divisor_every)
        for d, h in zip(drivers, held):
            d.held = h
        if len(set(held)) > 1 or (players == 1 and r.solo_leader_stress):       # D) the leader's stress
            for d in drivers:
                if d.held == min(held):
                    d.discard.append(STRESS)
                    d.stress += 1
        for d in drivers:                                            # E) buying when short of cards
            left = sum(1 for c in d.hand + d.draw + d.discard if c is not STRESS)
            for k, price in enumerate(r.buy_costs[:3]):
                if left + k >= int(habits.get("buy_below_cards", 0)) or not pile:
                    break
                d.discard.append(pile.pop())
                d.held += price
                d.bought += 1
        least = min(d.held for d in drivers)
        for d in drivers:
            d.held -= least
    return drivers


def race(deck: Deck, sections: list[Section], players: int, runs: int = 100, seed: int = 1,
         plan: Plan | None = None) -> dict:
    """``runs`` races of ``players`` drivers: per seat the seconds held behind the winner (mean, p10, p90),
    how often it wins, spins and buys; the same seed gives the same figures."""
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"a race is for 1 to {MAX_PLAYERS} drivers, not {players}")
    plan = plan or solve(deck, sections)
    rng = random.Random(seed)
    memo: dict = {}
    results = [race_once(deck, sections, plan, players, rng, memo) for _ in range(max(1, runs))]
    seats = []
    for k in range(players):
        behind = sorted(res[k].held for res in results)
        wins = sum(1 for res in results if res[k].held == 0)
        seats.append({"seat": k + 1, "mean_behind_seconds": round(statistics.fmean(behind), 2),
                      "stdev_seconds": round(statistics.pstdev(behind), 2),
                      "p10": behind[int(0.1 * (len(behind) - 1))], "p90": behind[int(0.9 * (len(behind) - 1))],
                      "wins": round(wins / len(results), 3),
                      "spins_per_stage": round(statistics.fmean(res[k].spins for res in results), 3),
                      "stress_per_stage": round(statistics.fmean(res[k].stress for res in results), 3),
                      "cards_bought_per_stage": round(statistics.fmean(res[k].bought for res in results), 3)})
    return {"players": players, "runs": len(results), "seed": seed, "plan": plan.kind, "seats": seats,
            "spins_per_race": round(statistics.fmean(sum(d.spins for d in res) for res in results), 3),
            "cards_bought_per_race": round(statistics.fmean(sum(d.bought for d in res) for res in results), 3)}
