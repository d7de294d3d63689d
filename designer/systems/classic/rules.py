"""Classic Rallyman rules as data: the ruleset file (``tilesets/classic/classic-rules.yaml``) read into
:class:`Rules`, with the dashboards (dice by tyre and road), hazard limits and time cards.

Every value in the file is ``{value, status, source}``; the statuses are kept so that the analysis and the road
book can say which numbers are printed in the rulebook and which are assumed.

>>> rules = load_rules()
>>> rules.card(1), rules.card(5), rules.hazard_limit_for("asphalt", "snow")
(50, 10, 2)
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

from designer.core import paths, yamlio
from designer.core.errors import DesignerError

RULES_FILE = paths.TILESETS / "classic" / "classic-rules.yaml"
STATUSES = ("rulebook", "reference", "assumed", "decided")
TYRES = ("asphalt", "snow", "snow2", "gravel", "soft")
ROADS = ("asphalt", "snow", "gravel", "gravel-leader")
ENVIRONMENTS = ("meadow", "earth", "forest", "rocks")
REQUIRED = ("gears", "gas_dice", "time_card", "loss_of_control_seconds", "die_faces", "hazard_faces",
            "hazard_limit", "dashboards", "damage_by_environment", "corner_overspeed", "bump", "cut_card",
            "drop_seconds", "time_control_penalty_step", "seconds_per_turn_at_table")


@dataclass(frozen=True)
class Dash:
    """One dashboard cell: what a tyre allows on a road."""
    gas: int                 # gas dice usable
    gas_kind: str            # "white" or "orange" (leader on gravel)
    double_downshift: bool   # ART.19


@dataclass(frozen=True)
class Rules:
    gears: tuple[int, ...]
    gas_dice: int
    time_card: dict
    loss_seconds: int
    die_faces: int
    hazard_faces: dict
    hazard_limit: dict
    dashboards: dict
    damage: dict
    overspeed_loss: int
    bump: dict
    cut_card: dict
    drop_seconds: tuple[int, ...]
    penalty_step: int
    table_seconds: int
    sources: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def top(self) -> int:
        return self.gears[-1]

    def card(self, gear: int) -> int:
        """Seconds of the time card for a turn ending in ``gear`` (gear 0: a loss of control)."""
        return self.loss_seconds if gear == 0 else self.time_card[gear]

    def dash(self, tyres: str, road: str) -> Dash:
        return self.dashboards[tyres][road]

    def hazard_limit_for(self, tyres: str, surface: str, sector: str | None = None) -> int:
        """Marks in one turn that make a loss of control (ART.7.1, ART.24.3)."""
        if tyres == "soft" and sector:
            return self.hazard_limit.get(f"soft_{sector}", self.hazard_limit["default"])
        if tyres == "asphalt" and surface == "snow":
            return self.hazard_limit["asphalt_tyres_on_snow"]
        return self.hazard_limit["default"]

    def hazard_chance(self, die: str) -> Fraction:
        """Chance that ``die`` ("gear3", "gas", "orange") shows the hazard mark."""
        return Fraction(self.hazard_faces[die], self.die_faces)

    def drop_cost(self, n: int) -> int:
        """Seconds to place ``n`` dice in one turn without rolling them (ART.6)."""
        return sum(self.drop_seconds[:n])

    def with_values(self, **changes) -> "Rules":
        return replace(self, **changes)

    def status(self, key: str) -> str:
        return self.sources.get(key, {}).get("status", "?")


def _triple(x, where: str) -> Dash:
    if not (isinstance(x, list) and len(x) == 3 and isinstance(x[0], int) and x[1] in ("white", "orange")
            and isinstance(x[2], bool)):
        raise ValueError(f"{where}: write [gas dice, white|orange, double downshift true|false]")
    return Dash(x[0], x[1], x[2])


def rules_from_data(data, lines, source: str) -> Rules:
    def fail(path, msg, hint="see tilesets/classic/README.md for the ruleset format"):
        line = yamlio.line_of(lines, path)
        raise DesignerError(msg, where=f"{source}:{line}" if line else source, hint=hint)

    if not isinstance(data, dict):
        fail((), "a ruleset is a mapping of parameters")
    sources, v = {}, {}
    for key in REQUIRED:
        item = data.get(key)
        if not isinstance(item, dict) or "value" not in item:
            fail((key,), f"parameter `{key}` is missing or has no `value`",
                 "write it as {value: ..., status: rulebook|reference|assumed|decided, source: '...'}")
        if item.get("status") not in STATUSES:
            fail((key, "status"), f"`{key}.status` must be one of {', '.join(STATUSES)}")
        if not str(item.get("source") or "").strip():
            fail((key, "source"), f"`{key}` needs a `source` saying where the value comes from")
        sources[key] = {"status": item["status"], "source": str(item["source"])}
        v[key] = item["value"]
    try:
        gears = tuple(int(g) for g in v["gears"])
        if gears != tuple(range(1, len(gears) + 1)):
            raise ValueError("gears: write 1, 2, ... in order")
        card = {int(k): int(s) for k, s in v["time_card"].items()}
        if set(card) != set(gears):
            raise ValueError("time_card: give the seconds of every gear")
        hz = {str(k): int(n) for k, n in v["hazard_faces"].items()}
        need = {f"gear{g}" for g in gears} | {"gas", "orange"}
        if set(hz) != need:
            raise ValueError(f"hazard_faces: give exactly {', '.join(sorted(need))}")
        faces = int(v["die_faces"])
        if any(not 0 <= n <= faces for n in hz.values()):
            raise ValueError(f"hazard_faces: a die has {faces} faces")
        limits = {str(k): int(n) for k, n in v["hazard_limit"].items()}
        if "default" not in limits or "asphalt_tyres_on_snow" not in limits:
            raise ValueError("hazard_limit: give `default` and `asphalt_tyres_on_snow`")
        dashes = {}
        for tyre in TYRES:
            row = (v["dashboards"] or {}).get(tyre)
            if not isinstance(row, dict):
                raise ValueError(f"dashboards: no row for {tyre} tyres")
            dashes[tyre] = {road: _triple(row.get(road), f"dashboards.{tyre}.{road}") for road in ROADS}
        damage = {str(k): int(n) for k, n in v["damage_by_environment"].items()}
        if set(damage) != set(ENVIRONMENTS):
            raise ValueError(f"damage_by_environment: give {', '.join(ENVIRONMENTS)}")
        cut = {str(k): float(p) for k, p in v["cut_card"].items()}
        if set(cut) != {"good", "dirty", "puncture"} or abs(sum(cut.values()) - 1) > 1e-3:
            raise ValueError("cut_card: good, dirty and puncture chances adding up to 1")
        bump = {str(k): int(n) for k, n in v["bump"].items()}
        if set(bump) != {"at_note", "one_over", "two_over"}:
            raise ValueError("bump: give at_note, one_over and two_over")
        return Rules(gears=gears, gas_dice=int(v["gas_dice"]), time_card=card,
                     loss_seconds=int(v["loss_of_control_seconds"]), die_faces=faces, hazard_faces=hz,
                     hazard_limit=limits, dashboards=dashes, damage=damage,
                     overspeed_loss=int(v["corner_overspeed"]["loss"]), bump=bump, cut_card=cut,
                     drop_seconds=tuple(int(x) for x in v["drop_seconds"]),
                     penalty_step=int(v["time_control_penalty_step"]),
                     table_seconds=int(v["seconds_per_turn_at_table"]), sources=sources)
    except (ValueError, TypeError, AttributeError, KeyError) as exc:
        key = str(exc).split(":")[0].strip("'\" ").split(".")[0]
        fail((key,) if key in REQUIRED else (), f"bad ruleset value: {exc}")


@functools.lru_cache(maxsize=8)
def _load_cached(path: str, mtime: float) -> Rules:
    data, lines = yamlio.load(path)
    return rules_from_data(data, lines, path)


def rules_for(stage) -> Rules:
    """The ruleset a stage names (``rules:``, beside the stage file) or the bundled one."""
    if not getattr(stage, "rules", None):
        return load_rules()
    p = Path(stage.rules)
    if not p.is_absolute():
        p = Path(stage.source).parent / p
    return load_rules(p)


def load_rules(path: str | Path | None = None) -> Rules:
    """The ruleset (the bundled one when ``path`` is None)."""
    p = Path(path) if path else RULES_FILE
    if not p.is_file():
        raise DesignerError("no such ruleset file", where=str(p), hint="name a classic ruleset YAML file")
    return _load_cached(str(p), p.stat().st_mtime)
