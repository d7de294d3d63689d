"""The simulated driver's judgement of its own hand: what a hand is worth at a section, and which play to make.

A driver's own action cards (the starting set) are a few *kinds* (acceleration and arrows) with counts, so a
hand is a count per kind, packed into one integer (a mixed-radix *code*: the code of a union of two disjoint
hands is the sum of their codes).

:func:`hand_values` works backwards from the finish over (section, speed held, hand) for a plan's kind
(fastest, or cautious: never above the lowest safety speed the front allows) and the plan's knowledge (the
fronts only, or every back). It weighs every play of the hand (each card kept, laid upright or laid across; a
card laid face down when nothing else is played) by the crossing it gives, from what the driver believes of
the back, and by what the cards kept can do at the next sections with the cards drawn to refill the hand.
Those later refills are taken at random from the driver's own cards not in hand (the discard is not told from
the draw pile there: an approximation of the later draws, not of the next one).

:class:`HandDriver` makes the decision of one section from the driver's actual hand and actual draw pile: the
next refill is drawn from the pile it really has (the discard shuffled in when the pile runs short), the
sections after from the values above. Among plays of equal worth it spends the fewest arrow cards, then the
fewest cards; a play that spends an arrow card where a card of the same acceleration with fewer arrows, kept in
hand, would do the same (same speed, same wheel) is never made. Stress cards in hand are laid face down (the
rules sort them away), which also lets the driver hold its speed without losing a card.
"""
from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np

from designer.systems.rallye.model.knowledge import beliefs, safe_limit
from designer.systems.rallye.driving.plan import FORCED, Plan, back_outcomes, outcome_cost
from designer.systems.rallye.model.deck import Deck, Section
from designer.systems.rallye.model.rules import SPIN

STRESS = None            # a stress card in a hand or a pile
MAX_CODES = 50_000       # hands of a starting set with more kinds and copies than this are judged roughly
TIE = 1e-9


def card_key(card) -> tuple:
    return card[0], sorted(card[1])


class Universe:
    """The kinds of a driver's own cards, their counts and every play of a hand of them."""

    def __init__(self, cards: tuple, hand_size: int, max_cards: int, carries: bool):
        self.kinds = sorted(set(cards), key=card_key)
        self.counts = [cards.count(k) for k in self.kinds]
        self.index = {k: t for t, k in enumerate(self.kinds)}
        self.mult, m = [], 1
        for c in self.counts:
            self.mult.append(m)
            m *= c + 1
        self.size = m
        names = sorted({a for k in self.kinds for a in k[1]})
        self.bit = {a: 1 << j for j, a in enumerate(names)}
        self.kind_mask = [sum(self.bit[a] for a in k[1]) for k in self.kinds]
        km = self.kind_mask
        self.swaps = [(t, t2) for t in range(len(km)) for t2 in range(len(km)) if t != t2 and km[t]
                      and self.kinds[t][0] == self.kinds[t2][0] and km[t2] != km[t] and not km[t2] & ~km[t]]
        self.total = len(cards)
        self.full = min(hand_size, self.total)
        self.max_cards, self.carries = max_cards, carries
        self._plays: dict = {}
        self._refills: dict = {}
        self.draw_memo: dict = {}
        self.mult_arr = np.array(self.mult, dtype=np.int64)
        self.sizes = np.zeros(self.size, dtype=np.int64) if self.size <= MAX_CODES else None
        if self.sizes is not None:
            for m, c in zip(self.mult, self.counts):
                self.sizes += (np.arange(self.size) // m) % (c + 1)

    def decode(self, code: int) -> list[int]:
        return [(code // m) % (c + 1) for m, c in zip(self.mult, self.counts)]

    def code_of(self, cards) -> int | None:
        """The code of a list of cards, or None when one is not of the driver's own kinds (or too many)."""
        n = [0] * len(self.kinds)
        for card in cards:
            t = self.index.get(card)
            if t is None:
                return None
            n[t] += 1
            if n[t] > self.counts[t]:
                return None
        return sum(k * m for k, m in zip(n, self.mult))

    def hands(self, size: int) -> list[int]:
        out: list[int] = []

        def rec(t, left, code):
            if t == len(self.kinds):
                if left == 0:
                    out.append(code)
                return
            for k in range(min(left, self.counts[t]) + 1):
                rec(t + 1, left - k, code + k * self.mult[t])
        rec(0, size, 0)
        return out

    def plays(self, code: int) -> dict:
        """Every play of the hand ``code`` as arrays: change of speed, code kept, arrows shown, cards and arrow
        cards laid, the kind laid face down (-1: none), whether nothing is laid; plays that lay the same cards
        for the same change are one. ``pairs``: (play, the same play with one arrow card swapped for a kept card
        of the same acceleration with fewer arrows); ``laid``: the cards laid per kind of the hand."""
        if code in self._plays:
            return self._plays[code]
        counts = self.decode(code)
        kinds = [t for t in range(len(self.kinds)) if counts[t]]
        rows: list[tuple] = []
        laid: list[tuple] = []
        where: dict = {}

        def rec(j, deltas, kept, mask, n, narrow, kvec):
            if j == len(kinds):
                for d in sorted(deltas):
                    where[(kvec, d)] = len(rows)
                    rows.append((d, kept, mask, n, narrow, -1, n == 0))
                    laid.append(kvec)
                return
            t = kinds[j]
            steps, km = self.kinds[t][0], self.kind_mask[t]
            for k in range(min(counts[t], self.max_cards - n) + 1):
                opts = {(2 * up - k) * steps for up in range(k + 1)} if self.carries else {k * steps}
                rec(j + 1, {a + b for a in deltas for b in opts}, kept - k * self.mult[t], mask | (km if k else 0),
                    n + k, narrow + (k if km else 0), kvec + (k,))
        rec(0, {0}, code, 0, 0, 0, ())
        for t in kinds:
            rows.append((0, code - self.mult[t], 0, 0, 0, t, False))
            laid.append(None)
        swaps = [(kinds.index(t), kinds.index(t2)) for t, t2 in self.swaps if counts[t] and counts[t2]]
        pairs = []
        for (kvec, d), p in where.items():
            for j, j2 in swaps:
                if kvec[j] and counts[kinds[j2]] - kvec[j2] > 0:
                    other = list(kvec)
                    other[j] -= 1
                    other[j2] += 1
                    pairs.append((p, where[(tuple(other), d)]))
        arr = np.array(rows, dtype=np.int64).reshape(-1, 7)
        out = {"delta": arr[:, 0], "kept": arr[:, 1], "mask": arr[:, 2], "cards": arr[:, 3], "arrows": arr[:, 4],
               "lost": arr[:, 5], "null": arr[:, 6].astype(bool), "laid": laid,
               "pairs": np.array(pairs, dtype=np.int64).reshape(-1, 2)}
        self._plays[code] = out
        return out

    def refill(self, kept: int) -> tuple[np.ndarray, np.ndarray]:
        """Hands after refilling the cards kept to a full hand at random from the driver's cards not kept:
        (codes, chances)."""
        if kept in self._refills:
            return self._refills[kept]
        have = self.decode(kept)
        free = [c - h for c, h in zip(self.counts, have)]
        need = self.full - sum(have)
        codes, chances = _draws(free, need, self.mult)
        out = (kept + codes, chances)
        self._refills[kept] = out
        return out


def _draws(free: list[int], need: int, mult: list[int], stress: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Every way of drawing ``need`` cards from ``free`` copies per kind (and ``stress`` stress cards), as the
    codes of the action cards drawn and their chances (kind by kind: cards drawn so far and code -> ways)."""
    total = sum(free) + stress
    need = min(need, total)
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    for f, m in list(zip(free, mult)) + [(stress, 0)]:
        if not f:
            continue
        ways_k = _WAYS[f] if f < len(_WAYS) else [comb(f, k) for k in range(f + 1)]
        nxt: dict[tuple[int, int], int] = {}
        get = nxt.get
        for (n, code), w in states.items():
            for k in range((f if f < need - n else need - n) + 1):
                key = (n + k, code + k * m)
                nxt[key] = get(key, 0) + w * ways_k[k]
        states = nxt
    denom = comb(total, need)
    out = [(code, w / denom) for (n, code), w in states.items() if n == need]
    return np.array([c for c, _ in out], dtype=np.int64), np.array([w for _, w in out])


_WAYS = [[comb(f, k) for k in range(f + 1)] for f in range(32)]


@lru_cache(maxsize=16)
def universe(cards: tuple, hand_size: int, max_cards: int, carries: bool) -> Universe | None:
    u = Universe(cards, hand_size, max_cards, carries)
    return u if u.size <= MAX_CODES else None


def crossing_costs(deck: Deck, sections: list[Section], plan: Plan) -> tuple[list, list]:
    """Per section, arrays [speed, wheel right] of the expected seconds of the crossing as the driver believes
    them (a cautious plan's forcing above the safety speed counted as in the plan) and of the chance of a spin."""
    r = deck.ruleset
    top = r.top_step
    thought = beliefs(deck, sections, plan.hidden, plan.known)
    costs, spins = [], []
    for s, b in zip(sections, thought):
        c = np.zeros((top + 1, 2))
        ps = np.zeros((top + 1, 2))
        limit = min(top, safe_limit(b)) if plan.kind == "cautious" else top
        for v in range(top + 1):
            for ok in (0, 1):
                for pb, back in b:
                    for o, p in back_outcomes(back, s, v, bool(ok)).items():
                        c[v, ok] += pb * p * outcome_cost(r, v, o)[0]
                        if o == SPIN:
                            ps[v, ok] += pb * p
                if v > limit:
                    c[v, ok] += FORCED
        costs.append(c)
        spins.append(ps)
    return costs, spins
