"""Laying the cards on the table: each card takes one place of a grid and the road leaves it straight on or
to one side. A card cannot be laid on a place already taken, nor so that the stage outgrows the table, nor so
that the road runs straight into a card already laid (nothing could follow it).

Headings count clockwise with y going down, as on a drawing: 0 east, 1 south, 2 west, 3 north.

>>> step((0, 0), 0)
(1, 0)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from designer.systems.rallye.model.deck import Section

MOVES = ((1, 0), (0, 1), (-1, 0), (0, -1))
SEARCH_BUDGET = 20_000


def step(cell: tuple[int, int], heading: int) -> tuple[int, int]:
    dx, dy = MOVES[heading % 4]
    return cell[0] + dx, cell[1] + dy


def exit_of(section: Section, turn_quarters: dict) -> str:
    """Where the road leaves the card: the card's own ``exit``, else the ruleset's turn for its severity."""
    if section.exit:
        return section.exit
    if section.severity == "none" or not int(turn_quarters.get(section.severity, 0)):
        return "straight"
    return section.direction or "straight"


def turn_of(exit_: str) -> int:
    return {"straight": 0, "right": 1, "left": -1}[exit_]


@dataclass(frozen=True)
class Placement:
    cell: tuple[int, int]
    heading_in: int
    heading_out: int


@dataclass
class Layout:
    placements: list[Placement] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)   # (index of the card, why it cannot be laid)

    @property
    def ok(self) -> bool:
        return not self.problems

    def size(self) -> tuple[int, int]:
        cells = [p.cell for p in self.placements]
        if not cells:
            return 0, 0
        xs, ys = [c[0] for c in cells], [c[1] for c in cells]
        return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def _fits(cells, table: dict) -> bool:
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    w, h = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    cols, rows = int(table["columns"]), int(table["rows"])
    return (w <= cols and h <= rows) or (w <= rows and h <= cols)


def why_not(taken: dict, cell, heading: int, section: Section, rules, last: bool) -> str | None:
    """None when ``section`` can be laid at ``cell`` entered with ``heading``; else the reason."""
    table = rules.table_cards
    if cell in taken:
        return f"it would lie on section {taken[cell] + 1}"
    if not _fits(list(taken) + [cell], table):
        return f"the stage would outgrow the table ({table['columns']} x {table['rows']} cards)"
    if last:
        return None
    out = (heading + turn_of(exit_of(section, rules.turn_quarters))) % 4
    nxt = step(cell, out)
    if nxt in taken:
        return f"its road would run into section {taken[nxt] + 1}"
    if not _fits(list(taken) + [cell, nxt], table):
        return f"its road would leave the table ({table['columns']} x {table['rows']} cards)"
    return None


def has_future(taken: dict, cell, heading: int, remaining: int, table: dict) -> bool:
    """Can ``remaining`` more cards still be laid from ``cell`` (entered with ``heading``), whatever they are?

    A search for a road that turns where it must, never crossing itself and staying on the table. The search
    stops after SEARCH_BUDGET places tried and then answers yes (a draft may still find itself stuck later, and
    says so): the answer is exact on the tables and stage lengths of the game.
    """
    if remaining <= 0:
        return True
    if len(taken) + remaining > int(table["columns"]) * int(table["rows"]):
        return False
    seen = set(taken)
    cells = list(taken)
    budget = [SEARCH_BUDGET]

    def walk(at, head, left) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return True               # not settled within the budget: taken as possible (laying will tell)
        if at in seen:
            return False
        cells.append(at)
        if not _fits(cells, table):
            cells.pop()
            return False
        if left == 1:
            cells.pop()
            return True
        seen.add(at)
        for turn in (0, 1, -1):
            out = (head + turn) % 4
            if walk(step(at, out), out, left - 1):
                seen.discard(at)
                cells.pop()
                return True
        seen.discard(at)
        cells.pop()
        return False

    return walk(cell, heading, remaining)


class Road:
    """The end of the road while a stage is being laid: where the next card goes and which way it faces."""

    def __init__(self, rules, total: int):
        self.rules = rules
        self.total = total
        self.taken: dict[tuple[int, int], int] = {}
        self.cell = (0, 0)
        self.heading = 0
        self.layout = Layout()

    def why_not(self, section: Section) -> str | None:
        last = len(self.layout.placements) + 1 >= self.total
        return why_not(self.taken, self.cell, self.heading, section, self.rules, last)

    def keeps_a_future(self, section: Section) -> bool:
        """After laying ``section`` here, can the rest of the stage still be laid with some cards?"""
        out = (self.heading + turn_of(exit_of(section, self.rules.turn_quarters))) % 4
        taken = dict(self.taken)
        taken.setdefault(self.cell, len(self.layout.placements))
        left = self.total - len(self.layout.placements) - 1
        return has_future(taken, step(self.cell, out), out, left, self.rules.table_cards)

    def lay(self, section: Section) -> None:
        out = (self.heading + turn_of(exit_of(section, self.rules.turn_quarters))) % 4
        index = len(self.layout.placements)
        self.taken.setdefault(self.cell, index)
        self.layout.placements.append(Placement(self.cell, self.heading, out))
        self.cell, self.heading = step(self.cell, out), out


def lay_out(sections: list[Section], rules) -> Layout:
    """Lay the cards in order; every card that cannot be laid is noted with the reason (and laid all the same)."""
    road = Road(rules, len(sections))
    for i, s in enumerate(sections):
        reason = road.why_not(s)
        if reason:
            road.layout.problems.append((i, reason))
        road.lay(s)
    return road.layout
