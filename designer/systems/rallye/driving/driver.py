"""The simulated driver who plays its own hand (:class:`HandDriver`), and the simple driver it is checked against.

:class:`HandDriver` first works out, backwards from the finish, what each hand is worth at each section and
speed (see :mod:`.hand`); then at each section it weighs every play of the hand it holds by the crossing it
gives and by what the cards kept, with the cards it may really draw from its own pile, are worth at the next
section. The exact refill from the actual pile is worked out for the plays that look best with random refills
(``SHORTLIST`` for each speed and wheel). All its decisions are fixed by the hand, the pile and the discard it
holds (no dice of its own), so an exact evaluation can follow it (tests/test_rallye_driver.py compares it with
an exhaustive driver on tiny stages).

:func:`simple_choice` is the plain habit: make the speed the plan would make with the best hand, by the least
the plan counts for the speeds this hand can reach, spending the fewest arrow cards, then the fewest cards.
The ruleset's ``drivers: keep_for_corners: false`` makes the simulated driver play this way.
"""
from __future__ import annotations

import numpy as np

from designer.systems.rallye.driving.hand import STRESS, TIE, Universe, _draws, card_key, crossing_costs, universe
from designer.systems.rallye.driving.plan import Plan, action_cards
from designer.systems.rallye.model.deck import Deck, Section

SHORTLIST = 2          # plays weighed with the actual pile for each speed and wheel: the best by random refills
Choice = tuple[int, bool, tuple[int, ...], int | None]    # speed step, wheel right, cards laid up/across, face down


def _ok(u: Universe, pl: dict, wheel: str | None) -> np.ndarray:
    if wheel is None:
        return np.ones(len(pl["delta"]), dtype=bool)
    return (pl["mask"] & u.bit.get(wheel, 0)) != 0


def _wasteful(pl: dict, ok: np.ndarray) -> np.ndarray:
    """Plays that spend an arrow card where a kept card of the same acceleration with fewer arrows makes the same
    speed with the same wheel."""
    out = np.zeros(len(ok), dtype=bool)
    pairs = pl["pairs"]
    if len(pairs):
        same = ok[pairs[:, 0]] == ok[pairs[:, 1]]
        out[pairs[same, 0]] = True
    return out


def _allowed(pl: dict, stress_in_hand: bool, empty: bool) -> np.ndarray:
    """Nothing laid face up is free with a stress card to lay face down (or no card at all); otherwise one action
    card is laid face down and lost to the common pile."""
    if stress_in_hand or empty:
        return pl["lost"] < 0
    return ~pl["null"]


def _speeds(pl: dict, speed: int, carries: bool) -> np.ndarray:
    return speed + pl["delta"] if carries else pl["delta"].copy()


def _pick(pl: dict, good: np.ndarray, value: np.ndarray, vv: np.ndarray) -> int:
    value = np.where(good, value, np.inf)
    best = value.min()
    tied = np.flatnonzero(value <= best + TIE)
    order = np.lexsort((vv[tied], pl["cards"][tied], pl["arrows"][tied]))
    return int(tied[order[0]])


def _indices(u: Universe, code: int, pl: dict, p: int) -> tuple[tuple[int, ...], int | None]:
    """Which cards of the hand sorted by kind a play lays (up or across), and the one laid face down."""
    counts = u.decode(code)
    offsets, at = {}, 0
    for t, c in enumerate(counts):
        offsets[t] = at
        at += c
    lost = int(pl["lost"][p])
    if lost >= 0:
        return (), offsets[lost]
    kinds = [t for t, c in enumerate(counts) if c]
    used: list[int] = []
    for t, k in zip(kinds, pl["laid"][p]):
        used += range(offsets[t], offsets[t] + k)
    return tuple(used), None


def simple_choice(deck: Deck, sections: list[Section], plan: Plan, i: int, speed: int, hand: list) -> Choice:
    """The plain habit: the least the plan counts (best hand assumed later), fewest arrow cards, fewest cards;
    a card laid face down is the slowest with the fewest arrows."""
    r = deck.ruleset
    actions = sorted((c for c in hand if c is not STRESS), key=card_key)
    u = Universe(tuple(actions), r.hand_size, min(r.max_cards_per_turn, r.hand_size), r.speed_carries_over)
    code = u.code_of(actions)
    pl = u.plays(code)
    ok = _ok(u, pl, sections[i].wheel)
    vv = _speeds(pl, speed, r.speed_carries_over)
    valid = (vv >= 0) & (vv <= r.top_step)
    good = valid & _allowed(pl, len(actions) < len(hand), not actions) & ~_wasteful(pl, ok)
    q = plan.q[i]
    value = np.array([q[(int(v), bool(k))] if g else np.inf for v, k, g in zip(vv, ok, good)])
    lost_rank = np.where(pl["lost"] >= 0, pl["lost"], 0)
    value = value + 1e-12 * lost_rank                  # face down: the first kind (slowest, fewest arrows)
    p = _pick(pl, good, value, vv)
    used, lost = _indices(u, code, pl, p)
    return int(vv[p]), bool(ok[p]), used, lost


class HandDriver:
    """A driver who decides from its actual hand and what it may draw (see the module's docstring)."""

    def __init__(self, deck: Deck, sections: list[Section], plan: Plan):
        r = deck.ruleset
        self.deck, self.sections, self.plan = deck, sections, plan
        self.carries, self.top = r.speed_carries_over, r.top_step
        self.hand_size = r.hand_size
        self.spin_after = r.speed_after_spin // r.speed_step
        self.u = universe(action_cards(deck), r.hand_size, min(r.max_cards_per_turn, r.hand_size), self.carries)
        self.memo: dict = {}
        self._kept: dict = {}
        if self.u is None:
            return
        self.costs, self.spins = crossing_costs(deck, sections, plan)
        n = len(sections)
        shape = (self.top + 1, self.u.size)
        self.W = [np.full(shape, np.nan) for _ in range(n)] + [np.zeros(shape)]
        self.U: list = [None] * (n + 1)
        self.worth: list = [None] * n
        self._solve()

    # -- the values of hands, backwards from the finish -------------------------------------------------------

    def _refill_rows(self):
        u = self.u
        rows, codes, chances = [], [], []
        for size in range(u.full + 1):
            for k in u.hands(size):
                c, p = u.refill(k)
                rows.append(np.full(len(c), k))
                codes.append(c)
                chances.append(p)
        return np.concatenate(rows), np.concatenate(codes), np.concatenate(chances)

    def _solve(self) -> None:
        u = self.u
        rows, codes, chances = self._refill_rows()
        full = u.hands(u.full)
        plays = [u.plays(h) for h in full]
        lengths = np.array([len(p["delta"]) for p in plays])
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        cat = {k: np.concatenate([p[k] for p in plays]) for k in ("delta", "kept", "mask", "lost", "null")}
        pairs = np.concatenate([p["pairs"] + s for p, s in zip(plays, starts)]) if len(plays) else np.zeros((0, 2), int)
        flat = {**cat, "pairs": pairs}
        allowed = _allowed(flat, False, u.full == 0)
        speeds = np.arange(self.top + 1)[:, None]
        vv = speeds + cat["delta"][None, :] if self.carries else \
            np.broadcast_to(cat["delta"], (self.top + 1, len(cat["delta"])))
        valid = (vv >= 0) & (vv <= self.top)
        vi = np.clip(vv, 0, self.top)
        m = u.size
        for i in range(len(self.sections) - 1, -1, -1):
            nxt = self._u_of(i + 1, rows, codes, chances)
            ok = _ok(u, flat, self.sections[i].wheel)
            good = valid & (allowed & ~_wasteful(flat, ok))[None, :]
            self.worth[i] = self._worth(i, nxt)
            worth = self.worth[i].ravel()
            q = np.where(good, worth[(ok.astype(int)[None, :] * (self.top + 1) + vi) * m + cat["kept"][None, :]],
                         np.inf)
            self.W[i][:, full] = np.minimum.reduceat(q, starts, axis=1)
        self._u_of(0, rows, codes, chances)

    def _worth(self, i: int, nxt: np.ndarray) -> np.ndarray:
        """[wheel right, speed, cards kept]: the crossing of section ``i`` at that speed and what the cards kept
        are worth after it (at that speed, or from the speed after a spin)."""
        c, ps = self.costs[i].T[:, :, None], self.spins[i].T[:, :, None]
        return c + (1 - ps) * nxt[None, :, :] + ps * nxt[self.spin_after][None, None, :]

    def _u_of(self, i: int, rows, codes, chances) -> np.ndarray:
        """U[i][a, K]: what keeping K is worth arriving at section i at speed a, the hand refilled at random."""
        if self.U[i] is None:
            if i == len(self.sections):
                self.U[i] = np.zeros((self.top + 1, self.u.size))
            else:
                contrib = self.W[i][:, codes] * chances
                self.U[i] = np.stack([np.bincount(rows, contrib[a], minlength=self.u.size)
                                      for a in range(self.top + 1)])
        return self.U[i]

    def _values(self, i: int, hands: np.ndarray) -> np.ndarray:
        """W[i][:, hands], working out the hands (short of a full hand) not valued yet."""
        w = self.W[i]
        if i < len(self.sections):
            for h in np.unique(hands[np.isnan(w[0, hands])]):
                w[:, h] = self._hand_value(i, int(h))
        return w[:, hands]

    def _hand_value(self, i: int, code: int) -> np.ndarray:
        u = self.u
        pl = u.plays(code)
        ok = _ok(u, pl, self.sections[i].wheel).astype(int)
        good = _allowed(pl, False, code == 0) & ~_wasteful(pl, ok.astype(bool))
        vv = np.arange(self.top + 1)[:, None] + pl["delta"][None, :] if self.carries else \
            np.broadcast_to(pl["delta"], (self.top + 1, len(ok)))
        valid = good[None, :] & (vv >= 0) & (vv <= self.top)
        q = self.worth[i][ok[None, :], np.clip(vv, 0, self.top), pl["kept"][None, :]]
        return np.where(valid, q, np.inf).min(axis=1)

    # -- one decision -------------------------------------------------------------------------------------------

    def _pile(self, cards: list) -> tuple[tuple, int] | None:
        n = [0] * len(self.u.kinds)
        stress = 0
        for c in cards:
            if c is STRESS:
                stress += 1
                continue
            t = self.u.index.get(c)
            if t is None:
                return None
            n[t] += 1
        return tuple(n), stress

    def _own(self, code: int, pile: tuple, old: tuple | None) -> bool:
        """Whether the hand, the draw pile and the discard hold no more cards of a kind than the starting set (a
        card bought of a kind the driver started with is one more than its tables count: the plain habit then)."""
        held = [a + b + (c if old else 0)
                for a, b, c in zip(self.u.decode(code), pile[0], old[0] if old else pile[0])]
        return all(h <= n for h, n in zip(held, self.u.counts))

    def _drawn(self, pile: tuple, need: int) -> tuple[np.ndarray, np.ndarray]:
        memo = self.u.draw_memo
        key = (pile, need)
        if key not in memo:
            memo[key] = _draws(list(pile[0]), need, self.u.mult, pile[1])
        return memo[key]

    def choose(self, i: int, speed: int, hand: list, draw: list, discard: list) -> Choice:
        """The play for section ``i`` holding ``speed`` steps: (speed step, wheel right, indices of the action
        cards of ``hand`` sorted by kind laid up or across, index of the one laid face down or None)."""
        actions = sorted((c for c in hand if c is not STRESS), key=card_key)
        stress_in = len(actions) < len(hand)
        u = self.u
        code = u.code_of(actions) if u is not None else None
        pile = self._pile(draw) if code is not None else None
        short = pile is not None and len(draw) < self.hand_size
        old = self._pile(discard) if short else None
        if code is None or pile is None or (short and old is None):
            return simple_choice(self.deck, self.sections, self.plan, i, speed, hand)
        key = (i, speed, code, stress_in, pile, old)
        if key in self.memo:
            return self.memo[key]
        if not self._own(code, pile, old):
            return simple_choice(self.deck, self.sections, self.plan, i, speed, hand)
        pl = u.plays(code)
        s = self.sections[i]
        ok = _ok(u, pl, s.wheel)
        vv = _speeds(pl, speed, self.carries)
        valid = (vv >= 0) & (vv <= self.top)
        good = valid & _allowed(pl, stress_in, code == 0) & ~_wasteful(pl, ok)
        vi, oki = np.clip(vv, 0, self.top), ok.astype(int)
        value = self.costs[i][vi, oki].copy()
        if i + 1 < len(self.sections):
            rough = np.where(good, self.worth[i][oki, vi, pl["kept"]], np.inf)
            short = np.flatnonzero(good)
            order = short[np.lexsort((rough[short], oki[short], vv[short]))]
            pos = np.arange(len(order))
            first = np.r_[True, (np.diff(vv[order]) != 0) | (np.diff(oki[order]) != 0)]
            rank = pos - np.maximum.accumulate(np.where(first, pos, 0))
            short = order[rank < SHORTLIST]
            good = np.zeros_like(good)
            good[short] = True
            ps = self.spins[i][vi, oki]
            later = np.zeros((2, len(vv)))
            for g, kept, source in self._next_hands(pl, short, code, pile, old):
                worth = self._kept_worth(i + 1, kept, source)        # [play, speed]
                later[0, g] = worth[np.arange(len(g)), vi[g]]
                later[1, g] = worth[:, self.spin_after]
            value += (1 - ps) * later[0] + ps * later[1]
        p = _pick(pl, good, value, vv)
        used, lost = _indices(u, code, pl, p)
        out = (int(vv[p]), bool(ok[p]), used, lost)
        self.memo[key] = out
        return out

    def _next_hands(self, pl: dict, plays: np.ndarray, code: int, pile: tuple, old: tuple | None):
        """Groups of plays with the hands after each play and the refill from the actual pile (the discard, with
        the cards just laid up or across, shuffled in when the pile runs short): (plays, codes [play, hand],
        chances [hand])."""
        u = self.u
        kept = pl["kept"][plays]
        need = self.hand_size - (u.sizes[code] - pl["cards"][plays] - (pl["lost"][plays] >= 0))
        size = sum(pile[0]) + pile[1]
        if old is None:
            laid = np.zeros(len(plays), dtype=np.int64)
        else:
            lost = pl["lost"][plays]
            laid = np.where(need > size, code - kept - np.where(lost >= 0, u.mult_arr[np.maximum(lost, 0)], 0), 0)
        keys = need * u.size + laid
        whole = sum(k * m for k, m in zip(pile[0], u.mult))
        for key in np.unique(keys):
            ks = np.flatnonzero(keys == key)
            n, more = divmod(int(key), u.size)
            if n <= size:
                yield plays[ks], kept[ks], (pile, n, 0)
            else:
                pool = (tuple(a + b for a, b in zip(old[0], u.decode(more))), old[1])
                yield plays[ks], kept[ks] + whole, (pool, n - size, 1)

    def _kept_worth(self, i: int, kept: np.ndarray, source: tuple) -> np.ndarray:
        """[cards kept, speed]: what keeping each hand of ``kept`` is worth at section ``i`` when the hand is
        refilled from ``source`` (a pile and how many cards are drawn from it), kept across decisions."""
        memo = self._kept
        keys = [(i, int(k), source) for k in kept]
        missing = [k for k in dict.fromkeys(keys) if k not in memo]
        if missing:
            codes, chances = self._drawn(source[0], source[1])
            base = np.array([k[1] for k in missing])
            w = self._values(i, base[:, None] + codes[None, :])       # [speed, kept, hand drawn]
            for k, row in zip(missing, (w @ chances).T):
                memo[k] = row
        return np.array([memo[k] for k in keys])
