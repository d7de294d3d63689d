"""What a driver knows of a section when setting the speed for it: the front of the card, not its back.

The rules have every driver set the car (phase A) before the leader turns the section card over (phase B). At
that moment a driver sees the front (width, surface, corner colour and direction) and holds the player aid,
whose line for that kind of section gives a range of safety speeds and a range of top speeds. The safety speed,
the top speed and the crossing tables printed on the back are learnt only after the decision.

So a plan weighs each possible back by how likely it is given the front. How likely is not in the rules: it is
the ruleset's ``hidden_backs`` parameter (status ``decided``):

- ``prior: ranges`` (the default): every pair (safety, top) of the aid's ranges, in steps of the speed step,
  with safety at most top, is equally likely; the crossing tables are the deck's own (the ones the players
  share), since a card's own tables are on its back;
- ``prior: deck``: the driver knows the deck's list of cards and weighs the cards with that same front
  equally (each card's own values and tables). Cards already turned over in the stage are not struck off, a
  simplification.

A card whose back the driver has already seen (``remember_backs``: turned over in an earlier stage of the same
rally, recognised by its front picture) is known exactly. A section whose front matches no line of the player
aid is weighed over the deck's cards with that front (what a driver who has played the deck knows), and a
front found nowhere is known exactly (nothing else to go on).
"""
from __future__ import annotations

from dataclasses import dataclass

from designer.systems.rallye.model.deck import Deck, Section, SectionType
from designer.systems.rallye.model.rules import Tables


@dataclass(frozen=True)
class Back:
    """One possible back of a section card: safety and top speed in steps, and the crossing tables."""
    safety: int
    top: int
    tables: Tables


Belief = tuple[tuple[float, Back], ...]      # (chance, back) pairs adding up to 1


def exact(deck: Deck, s: Section) -> Belief:
    step = deck.ruleset.speed_step
    return ((1.0, Back(s.safety // step, s.top // step, deck.tables_of(s))),)


def aid_line(deck: Deck, s: Section) -> SectionType | None:
    """The player aid's line for the front of ``s``: its width, surface and corner colour."""
    if s.type in deck.types:
        return deck.types[s.type]
    for t in deck.types.values():
        if (t.width, t.surface, t.severity) == (s.width, s.surface, s.severity):
            return t
    return None


def _front(s: Section) -> tuple:
    return s.width, s.surface, s.severity, s.direction


def from_ranges(deck: Deck, t: SectionType) -> Belief:
    step = deck.ruleset.speed_step
    pairs = [(a, b) for a in range(t.safety[0] // step, t.safety[1] // step + 1)
             for b in range(t.top[0] // step, t.top[1] // step + 1) if a <= b]
    return tuple((1.0 / len(pairs), Back(a, b, deck.tables)) for a, b in pairs)


def from_deck(deck: Deck, s: Section) -> Belief:
    step = deck.ruleset.speed_step
    same = [c for c in deck.sections.values() if _front(c) == _front(s)] or [s]
    counts: dict[Back, int] = {}
    for c in same:
        back = Back(c.safety // step, c.top // step, deck.tables_of(c))
        counts[back] = counts.get(back, 0) + 1
    return tuple((n / len(same), back) for back, n in counts.items())


def belief(deck: Deck, s: Section, known: frozenset = frozenset()) -> Belief:
    """The backs ``s`` may have, with their chances, for a driver who sees only its front."""
    if s.id in known:
        return exact(deck, s)
    params = deck.ruleset.hidden_backs
    line = aid_line(deck, s)
    if params.get("prior") == "ranges" and line is not None:
        out = from_ranges(deck, line)
        if out:
            return out
    return from_deck(deck, s)


def beliefs(deck: Deck, sections: list[Section], hidden: bool = True, known: frozenset = frozenset()) -> list[Belief]:
    """One belief per section: exact backs when ``hidden`` is False (a driver who knew every back)."""
    if not hidden:
        return [exact(deck, s) for s in sections]
    return [belief(deck, s, known) for s in sections]


def safe_limit(b: Belief) -> int:
    """The highest speed (in steps) that is at or under the safety speed whatever the back."""
    return min(back.safety for _, back in b)


def front_text(deck: Deck, s: Section) -> str:
    """What the player aid says of a section's front: ``safety 40-80, top 80-120`` (km/h), or '?' without a line."""
    line = aid_line(deck, s)
    if line is None:
        return "not in the player aid"
    return f"safety {line.safety[0]}-{line.safety[1]}, top {line.top[0]}-{line.top[1]}"
