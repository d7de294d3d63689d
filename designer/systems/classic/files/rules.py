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

from designer.core import offered, paths, yamlio
from designer.core.errors import DesignerError
from designer.systems.classic.files import schema

RULES_FILE = paths.TILESETS / "classic" / "classic-rules.yaml"
STATUSES = ("rulebook", "reference", "assumed", "decided")
TYRES, ROADS, ENVIRONMENTS = schema.TYRES, schema.ROADS, schema.ENVIRONMENTS
REQUIRED = ("gears", "gas_dice", "time_card", "loss_of_control_seconds", "die_faces", "hazard_faces",
            "hazard_limit", "dashboards", "damage_by_environment", "corner_overspeed", "bump", "cut_card",
            "drop_seconds", "time_control_penalty_step", "seconds_per_turn_at_table", "soft_tyres_on_snow")
# Parameters added later: a ruleset copied before them still loads, with the bundled file's values (below, the
# same as tilesets/classic/classic-rules.yaml) and the status "assumed" for lack of its own.
OPTIONAL = {"drop_seconds_after_marks": 2, "drop_seconds_bank_cap": 3, "sisu_after": "stop",
            "spare_wheel_seconds": 60, "retirement_seconds": 600, "gravel_tyres_on_snow": 2, "spin_chance": 1 / 3,
            "deliberate_loss": True}


TYRE_NAMES = {"snow2": "2nd-gen snow"}       # how a tyre is named in a sentence or a table's heading


def tyre_name(tyre: str) -> str:
    return TYRE_NAMES.get(tyre, tyre)


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
    soft_snow_limit: int = 2
    gravel_snow_limit: int = 2         # marks on snow cells in one turn with gravel tyres
    spin_chance: float = 1 / 3         # ART.7.2: the share of loss-of-control cards whose back is a spin
    drop_after_marks: int = 2          # ART.6: marks showing before a die may be placed for seconds
    drop_bank_cap: int = 3             # seconds held for dropping, counted up to this many (solver state)
    sisu_after: str = "stop"           # ART.7.5: after the SISU card, the turn "stop"s there or "continue"s
    spare_wheel_seconds: int = 60      # ART.10: the spare wheel card on the chrono pile
    retirement_seconds: int = 600      # ART.9.3: a third puncture with none repaired retires the car
    deliberate_loss: bool = True       # the policy may take a move that loses control for sure (ART.7.1, ART.11)
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

    def snow_limit(self, tyres: str) -> int | None:
        """Marks on snow cells in one turn that make a loss of control with these tyres (ART.7.1, ART.15.4;
        soft and gravel tyres: the ruleset's ``soft_tyres_on_snow`` and ``gravel_tyres_on_snow``); None (snow
        tyres): snow cells count like any other."""
        if tyres == "asphalt":
            return self.hazard_limit["asphalt_tyres_on_snow"]
        if tyres == "soft":
            return self.soft_snow_limit
        if tyres == "gravel":
            return self.gravel_snow_limit
        return None

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


def rules_from_data(data, lines, source: str) -> Rules:
    """The ruleset in ``data``: every parameter typed and bounded (schema.RuleValues) before use."""
    def fail(path, msg, hint="see tilesets/classic/README.md for the ruleset format"):
        line = yamlio.line_of(lines, path)
        raise DesignerError(msg, where=f"{source}:{line}" if line else source, hint=hint)

    if not isinstance(data, dict):
        fail((), "a ruleset is a mapping of parameters")
    known = set(REQUIRED) | set(OPTIONAL) | {"system", "ruleset", "title", "notes"}
    unknown = sorted(set(data) - known)
    if unknown:
        fail((unknown[0],), f"unknown parameter {', '.join(unknown)}", f"a classic ruleset has {', '.join(REQUIRED)}")
    sources, v = {}, {}
    for key in REQUIRED:
        item = data.get(key)
        if not isinstance(item, dict) or "value" not in item:
            fail((key,), f"parameter `{key}` is missing or has no `value`",
                 "write it as {value: ..., status: rulebook|reference|assumed|decided, source: '...'}")
        param = schema.check(schema.Param, item, lines, source, "ruleset", (key,))
        sources[key] = {"status": param.status, "source": param.source}
        v[key] = item["value"]
    for key, default in OPTIONAL.items():
        item = data.get(key)
        if item is None:
            sources[key], v[key] = {"status": "assumed", "source": "not in this ruleset: the bundled value"}, default
            continue
        if not isinstance(item, dict) or "value" not in item:
            fail((key,), f"parameter `{key}` has no `value`",
                 "write it as {value: ..., status: rulebook|reference|assumed|decided, source: '...'}")
        param = schema.check(schema.Param, item, lines, source, "ruleset", (key,))
        sources[key] = {"status": param.status, "source": param.source}
        v[key] = item["value"]
    vals = schema.check(schema.RuleValues, v, lines, source, "ruleset",
                        rename={k: (k, "value") for k in (*REQUIRED, *OPTIONAL)})

    def bad(key, msg):
        fail((key, "value"), f"bad ruleset value: {key}: {msg}")

    gears = tuple(vals.gears)
    if gears != tuple(range(1, len(gears) + 1)):
        bad("gears", "write 1, 2, ... in order")
    card = dict(vals.time_card)
    if set(card) != set(gears):
        bad("time_card", "give the seconds of every gear, and only those")
    hz = dict(vals.hazard_faces)
    need = {f"gear{g}" for g in gears} | {"gas", "orange"}
    if set(hz) != need:
        bad("hazard_faces", f"give exactly {', '.join(sorted(need))}")
    faces = vals.die_faces
    if any(n > faces for n in hz.values()):
        bad("hazard_faces", f"a die has {faces} faces")
    limits = dict(vals.hazard_limit)
    if "default" not in limits or "asphalt_tyres_on_snow" not in limits:
        bad("hazard_limit", "give `default` and `asphalt_tyres_on_snow`")
    if set(vals.dashboards) != set(TYRES):
        bad("dashboards", f"give a row for each tyre: {', '.join(TYRES)}")
    dashes = {}
    for tyre, row in vals.dashboards.items():
        if set(row) != set(ROADS):
            bad("dashboards", f"{tyre}: give a cell for each road: {', '.join(ROADS)}")
        dashes[tyre] = {road: Dash(*row[road]) for road in ROADS}
    if any(d.gas > vals.gas_dice for row in dashes.values() for d in row.values()):
        bad("dashboards", f"a cell allows more gas dice than the box holds ({vals.gas_dice})")
    damage = dict(vals.damage_by_environment)
    if set(damage) != set(ENVIRONMENTS):
        bad("damage_by_environment", f"give {', '.join(ENVIRONMENTS)}")
    cut = vals.cut_card.model_dump()
    if abs(sum(cut.values()) - 1) > 1e-3:
        bad("cut_card", "good, dirty and puncture chances adding up to 1")
    return Rules(gears=gears, gas_dice=vals.gas_dice, time_card=card,
                 loss_seconds=vals.loss_of_control_seconds, die_faces=faces, hazard_faces=hz,
                 hazard_limit=limits, dashboards=dashes, damage=damage,
                 overspeed_loss=vals.corner_overspeed.loss, bump=vals.bump.model_dump(),
                 cut_card={k: float(p) for k, p in cut.items()},
                 drop_seconds=tuple(vals.drop_seconds), penalty_step=vals.time_control_penalty_step,
                 table_seconds=vals.seconds_per_turn_at_table, soft_snow_limit=vals.soft_tyres_on_snow,
                 gravel_snow_limit=vals.gravel_tyres_on_snow, spin_chance=float(vals.spin_chance),
                 drop_after_marks=vals.drop_seconds_after_marks, drop_bank_cap=vals.drop_seconds_bank_cap,
                 sisu_after=vals.sisu_after, spare_wheel_seconds=vals.spare_wheel_seconds,
                 retirement_seconds=vals.retirement_seconds, deliberate_loss=vals.deliberate_loss, sources=sources)


@functools.lru_cache(maxsize=8)
def _load_cached(path: str, mtime: float) -> Rules:
    data, lines = yamlio.load(path)
    return rules_from_data(data, lines, path)


def rules_for(stage) -> Rules:
    """The ruleset a stage names (``rules:``; a file beside a stage read from disk, else a bundled ruleset
    by name), or the bundled one."""
    if not getattr(stage, "rules", None):
        return load_rules()
    found = offered.find(stage.rules, what="ruleset", where=f"{stage.source}: rules",
                         folders=[paths.TILESETS / "classic"], near=getattr(stage, "near", None),
                         keep=lambda p: p.stem.endswith("-rules") or p.parent.resolve() != RULES_FILE.parent.resolve())
    return load_rules(found)


def load_rules(path: str | Path | None = None) -> Rules:
    """The ruleset (the bundled one when ``path`` is None)."""
    p = Path(path) if path else RULES_FILE
    if not p.is_file():
        raise DesignerError("no such ruleset file", where=str(p), hint="name a classic ruleset YAML file")
    return _load_cached(str(p), p.stat().st_mtime)
