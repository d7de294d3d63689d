"""Checking a Rallye stage against its deck: 12 cards, each known and used once, a road that can be laid on the
table, wheels the action cards can set, speeds that can be brought down in time. Every problem says where.
"""
from __future__ import annotations

from designer.core.problems import Problem
from designer.systems.rallye.driving.plan import solve
from designer.systems.rallye.model.deck import Deck, Section
from designer.systems.rallye.model.stage import Stage
from designer.systems.rallye.table.draft import draft
from designer.systems.rallye.table.layout import lay_out


def _where(stage: Stage, index: int | None = None) -> str:
    line = None
    if index is not None and index < len(stage.card_lines):
        line = stage.card_lines[index]
    place = f"cards[{index}]" if index is not None else "cards"
    return f"{stage.source}:{line}: {place}" if line else f"{stage.source}: {place}"


def card_ids(stage: Stage, deck: Deck) -> list[str]:
    """The stage's cards in order: as written, or drafted from its seed when the file gives none."""
    if stage.cards or stage.draft is None:
        return list(stage.cards)
    return draft(deck, stage.draft.players, stage.draft.seed, stage.draft.policy).cards


def known_sections(stage: Stage, deck: Deck) -> list[Section]:
    return [deck.sections[c] for c in card_ids(stage, deck) if c in deck.sections]


def validate(stage: Stage, deck: Deck) -> list[Problem]:
    rules = deck.ruleset
    out: list[Problem] = []
    ids = card_ids(stage, deck)
    want = rules.stage_cards
    if len(ids) != want:
        out.append(Problem("stage-length", "error", f"the stage has {len(ids)} cards; a stage has {want}",
                           f"{'add' if len(ids) < want else 'take out'} {abs(want - len(ids))} card(s)", _where(stage)))
    seen: dict[str, int] = {}
    for i, cid in enumerate(ids):
        if cid not in deck.sections:
            near = sorted(deck.sections, key=lambda k: (len(k) != len(cid), k))[:6]
            out.append(Problem("unknown-card", "error", f"section {i + 1}: there is no card {cid!r} in the deck {deck.name}",
                               f"the deck's cards include {', '.join(near)} ...", _where(stage, i)))
        elif cid in seen:
            out.append(Problem("card-twice", "error",
                               f"section {i + 1}: card {cid} is already section {seen[cid] + 1}",
                               "each card of the deck exists once; pick another card", _where(stage, i)))
        else:
            seen[cid] = i
    if any(p.code == "unknown-card" for p in out):
        return out
    sections = [deck.sections[c] for c in ids]
    layout = lay_out(sections, rules)
    for i, reason in layout.problems:
        out.append(Problem("cannot-lay", "error", f"section {i + 1} (card {ids[i]}) cannot be laid: {reason}",
                           "change the order, or pick a card that turns the other way", _where(stage, i)))
    starting = deck.starting_set()
    for i, s in enumerate(sections):
        if s.wheel and not any(s.wheel in a.steering for a in starting):
            out.append(Problem("wheel-missing", "warning",
                               f"section {i + 1} (card {s.id}): no action card of the starting set carries the arrow {s.wheel}",
                               "the driver crosses it with the wheel wrong unless they buy a card from the pile",
                               _where(stage, i)))
        if s.type and s.type in deck.types:
            t = deck.types[s.type]
            if not (t.safety[0] <= s.safety <= t.safety[1]) or not (t.top[0] <= s.top <= t.top[1]):
                out.append(Problem("type-range", "warning",
                                   f"card {s.id}: safety {s.safety} / top {s.top} is outside its type {t.name} "
                                   f"({t.safety[0]}-{t.safety[1]} / {t.top[0]}-{t.top[1]})",
                                   "check the card against the player aid", f"{deck.source}:{s.line}" if s.line else deck.source))
    if sections and all(p.severity != "error" for p in out):
        cautious = solve(deck, sections, cautious=True, hidden=False)
        for leg, s in zip(cautious.legs, sections):
            if leg.speed > s.safety:
                out.append(Problem("too-fast-in", "warning",
                                   f"section {leg.index + 1} (card {s.id}): even a cautious driver arrives at {leg.speed} km/h, "
                                   f"above its safety speed {s.safety}", "the cards cannot brake that much in one section; "
                                   "put a slower card before it", _where(stage, leg.index)))
    if deck.demo:
        out.append(Problem("demo-deck", "info", f"the deck {deck.name} is demonstration data, not the game's cards",
                           "enter your own deck in the app's Deck editor", deck.source))
    if deck.tables_status != "rulebook":
        out.append(Problem("assumed-tables", "info", f"the crossing tables are {deck.tables_status}, not read from cards",
                           "enter your cards' tables as `resolution:` in the deck", deck.source))
    return out


def validate_deck(deck: Deck) -> list[Problem]:
    """Problems of the deck as a whole (beyond what loading already refused)."""
    rules = deck.ruleset
    out: list[Problem] = []
    n = len(deck.starting_set())
    if n != rules.starting_set_size:
        out.append(Problem("starting-set", "error", f"the starting set has {n} action cards; the game deals "
                           f"{rules.starting_set_size} to each driver",
                           "set owner: start and count: on the action cards (or change starting_set_size in a "
                           "ruleset of your own)", deck.source))
    if n < rules.hand_size:
        out.append(Problem("hand-unfilled", "error", f"the starting set ({n} cards) cannot fill a hand of "
                           f"{rules.hand_size}", "add action cards with owner: start", deck.source))
    for wheel in sorted({s.wheel for s in deck.sections.values() if s.wheel}):
        if not any(wheel in a.steering for a in deck.actions):
            out.append(Problem("wheel-missing", "warning", f"no action card carries the arrow {wheel}: every "
                               f"corner asking for it is crossed with the wheel wrong", "add the arrow to an "
                               "action card", deck.source))
    if len(deck.sections) < rules.stage_cards:
        out.append(Problem("deck-small", "error", f"the deck has {len(deck.sections)} section cards, fewer than a stage's "
                           f"{rules.stage_cards}", "add section cards", deck.source))
    for s in deck.sections.values():
        if s.type and s.type in deck.types:
            t = deck.types[s.type]
            if not (t.safety[0] <= s.safety <= t.safety[1]) or not (t.top[0] <= s.top <= t.top[1]):
                out.append(Problem("type-range", "warning", f"card {s.id}: safety {s.safety} / top {s.top} is outside its "
                                   f"type {t.name}", "check the card against the player aid",
                                   f"{deck.source}:{s.line}" if s.line else deck.source))
    if deck.demo:
        out.append(Problem("demo-deck", "info", f"the deck {deck.name} is demonstration data, not the game's cards",
                           "enter your own deck in the app's Deck editor", deck.source))
    return out
