"""A race of several drivers on one stage, round by round as the rules run it (S4, 3) A to F).

Every driver has its own starting set, draw pile, hand and discard and plays its hand as the solo driver does
(:class:`.driver.HandDriver`, shared by the seats: its decisions depend only on the hand, pile and discard); the
speeds are set from the fronts, then each crosses with its own die. Then (C) each
driver receives a second per full 20 km/h it was slower than the fastest, divided as the seconds it already
holds grow ("déjà ... devant lui"; *decided*: the penalties of this section's crossing, a wrong wheel's or a
spin's 5 s, are laid before C and so count as held; the rules do not order them), and the seconds the leader
holds are taken off everyone; (D) the leader, or every driver sharing
the lead, takes a stress card, unless all are level; (E) a driver short of cards buys from the common pile as
the ruleset's ``drivers`` habits say, paying seconds it then holds (the next C divides by them; they are not shed
until then), and buys nothing once the last section is crossed. An action card laid face down goes to the common
pile's discard ("retour des cartes action dans la défausse du tas général"), shuffled into a new pile when the
pile runs out. At the end the driver holding no second wins; a driver's
result is the seconds it holds behind the winner.

A seat is a place at the table; the rules have the drivers play at the same time, so the seats differ only
by the luck of the cards and the die. Per seat: the seconds behind the winner and the seat's own time on the
solo scale (what it would count alone), each with its mean, spread and 95 % interval. The table time of a race
is counted from what was played in it (:func:`table_time`): the draft, the reconnaissance, then per round a
base, each driver's turn, each card laid, bought or reshuffled and each spin, with the ruleset's
``table_minutes`` seconds.

>>> from designer.systems.rallye.model.deck import get_deck
>>> deck = get_deck("rallye-demo")
>>> out = race(deck, [deck.sections[c] for c in ["5", "4", "2"]], players=2, runs=5, seed=1)
>>> len(out["seats"]), out["players"]
(2, 2)
"""
from __future__ import annotations

import random
import statistics

from designer.systems.rallye.driving.plan import MAX_DRIVERS, Plan, outcome_cost, race_cards, solve
from designer.systems.rallye.driving.simulate import STRESS, _refill, cross, driver_for, interval, play
from designer.systems.rallye.model.deck import Deck, Section
from designer.systems.rallye.model.rules import SPIN, multiplayer_round

MAX_PLAYERS = MAX_DRIVERS


class _Driver:
    def __init__(self, own: tuple, rng: random.Random, speed: int, extra_stress: int = 0):
        self.draw = list(own) + [STRESS] * extra_stress
        rng.shuffle(self.draw)
        self.discard: list = []
        self.hand: list = []
        self.speed = speed
        self.held = self.solo = 0
        self.spins = self.stress = self.bought = 0


def table_time(deck: Deck, cards: int, players: int, laid: float, bought: float, reshuffles: float,
               spins: float) -> dict:
    """Minutes at the table for one race from what was played in it (counts over all drivers and rounds)."""
    r = deck.ruleset
    p = {**TABLE_DEFAULTS, **r.table_minutes}
    draft = cards * p["draft_seconds_per_card"] / 60
    rounds = cards * (p["round_seconds"] + p["round_seconds_per_player"] * players)
    play_s = (laid * p["card_seconds"] + bought * p["bought_card_seconds"] + reshuffles * p["reshuffle_seconds"]
              + spins * p["spin_seconds"])
    return {"draft_minutes": draft, "reconnaissance_minutes": p["reconnaissance_minutes"],
            "race_minutes": (rounds + play_s) / 60,
            "minutes": draft + p["reconnaissance_minutes"] + (rounds + play_s) / 60}


TABLE_DEFAULTS = {"card_seconds": 0, "bought_card_seconds": 0, "reshuffle_seconds": 0, "spin_seconds": 0}


def race_once(deck: Deck, sections: list[Section], plan: Plan, players: int, rng: random.Random,
              choose=None, cards: tuple | None = None, extra_stress: int = 0) -> tuple[list[_Driver], dict]:
    """One race: the drivers, and what was played (cards laid, bought, reshuffles, spins; the table minutes).
    ``extra_stress``: stress cards each driver adds to the starting set (the experienced players' handicap)."""
    r = deck.ruleset
    choose = choose or driver_for(deck, sections, plan)
    own, common = cards or race_cards(deck, players)
    pile = list(common)
    rng.shuffle(pile)
    gone: list = []          # the common pile's discard: action cards laid face down ("défausse du tas général")
    drivers = [_Driver(own, rng, r.start_speed // r.speed_step, extra_stress) for _ in range(players)]
    habits = r.drivers
    laid = reshuffles = 0
    for i, s in enumerate(sections):
        speeds = []
        for d in drivers:                                            # A) every driver sets its car
            before = len(d.discard)
            d.draw, d.discard = _refill(d.hand, d.draw, d.discard, r.hand_size, rng)
            reshuffles += len(d.discard) < before
            choice = choose(i, d.speed, d.hand, d.draw, d.discard)
            d.hand, played, lost = play(d.hand, choice)
            d.discard += played
            laid += len(played) + (lost is not None)
            if lost is not None:
                gone.append(lost)                                    # face down: to the common pile's discard
            v, ok = choice[0], choice[1]
            outcome = cross(deck, s, v, ok, rng)                     # B) the card is turned over, each crosses
            sec, after = outcome_cost(r, v, outcome)
            d.solo += sec
            d.held += 0 if outcome == SPIN else int(outcome)
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
        for d in drivers if i + 1 < len(sections) else ():          # E) buying when short of cards (not after
            left = sum(1 for c in d.hand + d.draw + d.discard if c is not STRESS)    # the last section)
            for k, price in enumerate(r.buy_costs[:3]):
                if left + k >= int(habits.get("buy_below_cards", 0)):
                    break
                if not pile and gone:                                # the common discard shuffled into a pile
                    pile, gone = gone, []
                    rng.shuffle(pile)
                    reshuffles += 1
                if not pile:
                    break
                d.discard.append(pile.pop())
                d.held += price          # seconds held "devant lui": the next C divides by them, no one sheds them
                d.solo += price
                d.bought += 1
    counts = {"laid": laid, "bought": sum(d.bought for d in drivers), "reshuffles": reshuffles,
              "spins": sum(d.spins for d in drivers)}
    counts["minutes"] = table_time(deck, len(sections), players, **counts)["minutes"]
    return drivers, counts


def spread_figures(xs: list[float]) -> dict:
    ordered = sorted(xs)
    return {"mean": round(statistics.fmean(xs), 2), "sd": round(statistics.pstdev(xs), 2), "ci95": interval(xs),
            "p10": ordered[int(0.1 * (len(ordered) - 1))], "p90": ordered[int(0.9 * (len(ordered) - 1))]}


def race(deck: Deck, sections: list[Section], players: int, runs: int = 100, seed: int = 1,
         plan: Plan | None = None, extra_stress: int = 0) -> dict:
    """``runs`` races of ``players`` drivers: per seat the seconds held behind the winner and its own time on the
    solo scale (mean, spread, 95 % interval, p10, p90), how often it wins, spins and buys; the table time from
    what was played; the same seed gives the same figures."""
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"a race is for 1 to {MAX_PLAYERS} drivers, not {players}")
    plan = plan or solve(deck, sections)
    rng = random.Random(seed)
    choose = driver_for(deck, sections, plan)
    cards = race_cards(deck, players)
    results = [race_once(deck, sections, plan, players, rng, choose, cards, extra_stress)
               for _ in range(max(1, runs))]
    seats = []
    for k in range(players):
        behind = spread_figures([res[k].held for res, _ in results])
        own = spread_figures([res[k].solo for res, _ in results])
        wins = sum(1 for res, _ in results if res[k].held == 0)
        seats.append({"seat": k + 1, "mean_behind_seconds": behind["mean"], "stdev_seconds": behind["sd"],
                      "behind_ci95": behind["ci95"], "p10": behind["p10"], "p90": behind["p90"],
                      "solo_seconds": own["mean"], "solo_stdev": own["sd"], "solo_ci95": own["ci95"],
                      "wins": round(wins / len(results), 3),
                      "spins_per_stage": round(statistics.fmean(res[k].spins for res, _ in results), 3),
                      "stress_per_stage": round(statistics.fmean(res[k].stress for res, _ in results), 3),
                      "cards_bought_per_stage": round(statistics.fmean(res[k].bought for res, _ in results), 3)})
    minutes = spread_figures([c["minutes"] for _, c in results])
    mean = {key: statistics.fmean(c[key] for _, c in results) for key in ("laid", "bought", "reshuffles", "spins")}
    parts = table_time(deck, len(sections), players, **mean)
    table = {"players": players, "races": len(results), "rounds": len(sections),
             "minutes": round(minutes["mean"]), "mean_minutes": minutes["mean"],
             "p10_minutes": round(minutes["p10"], 1),
             "p90_minutes": round(minutes["p90"], 1), "draft_minutes": round(parts["draft_minutes"], 1),
             "reconnaissance_minutes": parts["reconnaissance_minutes"],
             "race_minutes": round(parts["race_minutes"], 1),
             "cards_laid_per_round": round(mean["laid"] / len(sections), 2),
             "cards_bought_per_race": round(mean["bought"], 3), "reshuffles_per_race": round(mean["reshuffles"], 3),
             "spins_per_race": round(mean["spins"], 3), "source": "simulated races",
             "status": deck.ruleset.params["table_minutes"].status}
    return {"players": players, "runs": len(results), "seed": seed, "plan": plan.kind, "seats": seats,
            "spins_per_race": round(mean["spins"], 3), "cards_bought_per_race": round(mean["bought"], 3),
            "table_time": table}
