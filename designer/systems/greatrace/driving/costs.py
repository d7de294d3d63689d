"""What each space of a board costs in a given race: a city, a laid tile at its real cost, or an open space
at the expectation of the tiles still in the bag.

>>> from designer.systems.greatrace.files.board import TileKind
>>> bag = remaining_bag([TileKind("plain", 3, 1, 0), TileKind("hill", 1, 2, 1, danger=True)], {})
>>> round(open_space(bag, risk=False, danger=2).fuel, 2)
1.25
"""
from __future__ import annotations

from dataclasses import dataclass

from designer.systems.greatrace.files.board import Board, City, Hex, TileKind
from designer.systems.greatrace.files.race import Race, with_purse
from designer.systems.greatrace.files.rules import Entry


@dataclass(frozen=True)
class Space:
    """The cost of entering one space: expected and worst values (equal for a city or a laid tile)."""
    at: Hex
    kind: str                  # "city", "tile" (laid) or "open" (a tile will be drawn from the bag)
    fuel: float                # expected fuel, risk surcharge included
    mech: float                # expected mechanic, DANGER counted at its chance (before any escort)
    p_danger: float
    p_stop: float
    worst_fuel: int
    worst_mech: int
    risk: bool = False
    terrain: str | None = None
    city: City | None = None
    entry: Entry | None = None  # the exact entry for a city or a laid tile

    @property
    def stops(self) -> bool:
        """The action surely ends here (a city or a laid STOP tile)."""
        return self.kind == "city" or (self.kind == "tile" and self.p_stop >= 1.0)


def remaining_bag(bag: list[TileKind], laid: dict[Hex, str]) -> dict[str, tuple[TileKind, int]]:
    """Each terrain with the number of its tiles still in the bag (the laid ones are out)."""
    used: dict[str, int] = {}
    for terrain in laid.values():
        used[terrain] = used.get(terrain, 0) + 1
    return {k.terrain: (k, max(0, k.count - used.get(k.terrain, 0))) for k in bag}


def open_space(bag: dict[str, tuple[TileKind, int]], risk: bool, danger: int, at: Hex = (0, 0),
               risk_fuel: int = 1) -> Space:
    total = sum(n for _, n in bag.values())
    extra = risk_fuel if risk else 0
    if total == 0:
        return Space(at, "open", float("inf"), float("inf"), 0.0, 0.0, 99, 99, risk)
    fuel = sum(k.fuel * n for k, n in bag.values()) / total + extra
    p_danger = sum(n for k, n in bag.values() if k.danger) / total
    p_stop = sum(n for k, n in bag.values() if k.stop) / total
    mech = sum(k.mech * n for k, n in bag.values()) / total + danger * p_danger
    present = [k for k, n in bag.values() if n > 0]
    return Space(at, "open", fuel, mech, p_danger, p_stop, max(k.fuel for k in present) + extra,
                 max(k.mech + (danger if k.danger else 0) for k in present), risk)


def tile_space(kind: TileKind, risk: bool, danger: int, at: Hex, risk_fuel: int = 1) -> Space:
    fuel = kind.fuel + (risk_fuel if risk else 0)
    mech = kind.mech + (danger if kind.danger else 0)
    return Space(at, "tile", fuel, mech, 1.0 if kind.danger else 0.0, 1.0 if kind.stop else 0.0, fuel, mech, risk,
                 terrain=kind.terrain,
                 entry=Entry(fuel=kind.fuel, mech=kind.mech, danger=kind.danger, stop=kind.stop, risk=risk))


class CostMap:
    """The spaces of one race: which hexes are cities (the chosen median slot included), which tiles are laid,
    what every space costs to enter."""

    def __init__(self, board: Board, race: Race):
        rules = board.rules
        race = with_purse(race, rules)
        self.board, self.race, self.rules = board, race, rules
        danger = int(rules["danger_mechanic"])
        risk_fuel = int(rules["risk_zone_extra_fuel"])
        entry_fuel = int(rules["city_entry_fuel"])
        self.bag = remaining_bag(board.bag, race.laid)
        self.cities: dict[Hex, City] = {}
        for c in board.cities.values():
            if c.median and c.name != race.median:
                continue           # a median slot without the token is an ordinary space
            if c.median:
                c = City(c.name, c.at, int(rules["median_city"].get("cards", 1)), c.purple, True)
            self.cities[c.at] = c
        self.by_name = {c.name: c.at for c in self.cities.values()}
        self.spaces: dict[Hex, Space] = {}
        for h in board.spaces():
            risk = h in board.risk
            if h in self.cities:
                c = self.cities[h]
                self.spaces[h] = Space(h, "city", entry_fuel, 0, 0.0, 1.0, entry_fuel, 0, risk, city=c,
                                       entry=Entry(city=True, cards=c.cards))
            elif h in race.laid and board.tile(race.laid[h]) is not None:
                self.spaces[h] = tile_space(board.tile(race.laid[h]), risk, danger, h, risk_fuel)
            else:
                self.spaces[h] = open_space(self.bag, risk, danger, h, risk_fuel)

    def hex_of_city(self, name: str) -> Hex | None:
        return self.by_name.get(name)

    def transports(self) -> list[tuple[Hex, Hex, str, int]]:
        """Transport lines between cities present in this race, both ways: (from, to, mode, printed fare)."""
        out = []
        for t in self.board.transports:
            a, b = self.by_name.get(t.a), self.by_name.get(t.b)
            if a is not None and b is not None:
                out += [(a, b, t.mode, t.fare), (b, a, t.mode, t.fare)]
        return out
