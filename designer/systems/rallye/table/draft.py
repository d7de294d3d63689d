"""Drafting a stage as the rules do: the section cards shuffled into six face-up piles; in turn, clockwise, each
driver takes a visible top card that can be laid and extends the road; when no top card can be laid, the top card
of every pile is discarded; the stage is done at 12 cards. When every pile is empty before that (the rules do
not say what then), the discarded cards are shuffled into new piles, at most ``draft_reshuffles`` times (a
ruleset parameter, status decided), so a draft lays a stage whenever the deck and the table allow one.

How a simulated driver chooses among the cards that can be laid is the ``policy``: ``random``, ``fast`` (the
highest safety speed a driver expects from the card's front: one who wants a quick stage) or ``slow`` (the lowest:
one who wants a hard one). The cards lie face up and are laid "sans montrer l'autre face": a driver sees the front
only, so the expectation is the ruleset's ``hidden_backs`` belief over the backs (the player aid's ranges), and
two cards with the same front are alike to the driver.
Whatever the policy, a simulated driver does not lay the road into a dead end (a place from which the rest of the
stage could not be laid with any cards): it lets such a card be discarded while other cards may still come up.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from designer.core.errors import DesignerError
from designer.systems.rallye.model.deck import Deck
from designer.systems.rallye.model.knowledge import belief
from designer.systems.rallye.table.layout import Road


@dataclass
class DraftResult:
    cards: list[str]
    log: list[str] = field(default_factory=list)
    discarded: int = 0


def seen_safety(deck: Deck) -> dict[str, float]:
    """The safety speed (in steps) a driver expects of each card from its front alone."""
    return {cid: sum(p * back.safety for p, back in belief(deck, s)) for cid, s in deck.sections.items()}


def draft(deck: Deck, players: int = 2, seed: int = 1, policy: str = "random", length: int | None = None) -> DraftResult:
    """Draft a stage from the whole deck; the same seed gives the same stage."""
    rules = deck.ruleset
    length = length or rules.stage_cards
    rng = random.Random(seed)
    order = list(deck.sections)
    rng.shuffle(order)
    n_piles = rules.draft_piles
    piles = [order[i::n_piles] for i in range(n_piles)]
    road = Road(rules, length)
    result = DraftResult([])
    player = 0
    discarded: list[str] = []
    reshuffles = 0
    most = int(rules.draft_reshuffles)
    seen = seen_safety(deck) if policy in ("fast", "slow") else {}
    while len(result.cards) < length:
        tops = [(i, p[-1]) for i, p in enumerate(piles) if p]
        if not tops and discarded and reshuffles < most:
            rng.shuffle(discarded)                # the piles are empty: the discarded cards make new piles
            piles = [discarded[i::n_piles] for i in range(n_piles)]
            discarded = []
            reshuffles += 1
            result.log.append(f"the piles ran out: the discarded cards reshuffled into {n_piles} piles")
            continue
        if not tops:
            raise DesignerError(f"the deck ran out after {len(result.cards)} cards: no stage of {length} could be laid"
                                + (f" (the discards reshuffled {reshuffles} times)" if reshuffles else ""),
                                where="draft", hint="try another seed, or a bigger deck or table")
        fits = [(i, cid) for i, cid in tops if road.why_not(deck.sections[cid]) is None]
        wise = [(i, cid) for i, cid in fits if road.keeps_a_future(deck.sections[cid])]
        # a driver never lays the road into a dead end while another card may still come up
        fits = wise or (fits if reshuffles >= most else [])
        if not fits:
            for i, _ in tops:
                discarded.append(piles[i].pop())
            result.discarded += len(tops)
            result.log.append(f"no top card can be laid: {len(tops)} cards discarded")
            continue
        if policy == "fast":
            pile, cid = max(fits, key=lambda t: (seen[t[1]], -t[0]))
        elif policy == "slow":
            pile, cid = min(fits, key=lambda t: (seen[t[1]], t[0]))
        else:
            pile, cid = rng.choice(fits)
        piles[pile].pop()
        road.lay(deck.sections[cid])
        result.cards.append(cid)
        result.log.append(f"driver {player + 1} lays card {cid} from pile {pile + 1}")
        player = (player + 1) % max(1, players)
    return result
