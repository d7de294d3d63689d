"""The rules of Rallye as numbers: solo and multiplayer timing, the crossing tables, and the ruleset file.

Speeds are handled in *steps* of ``speed_step`` km/h (20 in the game): step 0 is standstill, step 12 is 240 km/h.

>>> solo_seconds(240), solo_seconds(20), solo_seconds(0)
(1, 12, 13)
>>> seconds_received(60, held=12)     # 3 s behind, already 12 s down: divided by 2
1
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from designer.core import offered, paths, yamlio
from designer.core.errors import DesignerError

STATUSES = ("rulebook", "reference", "assumed", "decided")
SPIN = "spin"
DIE = 6
DEFAULT_RULESET = "rallye-v7"
RULESET_FILE = paths.TILESETS / "rallye" / "ruleset.yaml"

# -- timing (the rulebook's own numbers; the ruleset may change step and scale) ------------------------------


def solo_seconds(speed_kmh: int, step: int = 20, at_zero: int = 13) -> int:
    """Seconds a lone driver counts for one section crossed at ``speed_kmh`` (S4: 240 -> 1 s ... 0 -> 13 s)."""
    if speed_kmh < 0 or speed_kmh % step:
        raise ValueError(f"a speed is a multiple of {step} km/h, not {speed_kmh}")
    return at_zero - speed_kmh // step


def seconds_received(gap_kmh: int, held: int, step: int = 20, per_step: int = 1, every: int = 10) -> int:
    """Seconds a driver receives for a section, ``gap_kmh`` slower than the fastest, holding ``held`` seconds.

    One second per full ``step`` behind; divided by 2 from 10 s held, by 3 from 20 s, by 4 from 30 s ... rounded down.
    """
    if gap_kmh < 0 or held < 0:
        raise ValueError("a gap and the seconds held are never negative")
    raw = (gap_kmh // step) * per_step
    return raw // (1 + held // every)


def multiplayer_round(speeds: list[int], held: list[int], step: int = 20, per_step: int = 1,
                      every: int = 10) -> list[int]:
    """The seconds each driver holds after a section: the seconds received, then the leader's seconds taken off all."""
    if len(speeds) != len(held) or not speeds:
        raise ValueError("one speed and one count of seconds per driver")
    fastest = max(speeds)
    after = [h + seconds_received(fastest - v, h, step, per_step, every) for v, h in zip(speeds, held)]
    least = min(after)
    return [a - least for a in after]


# -- the crossing tables ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tables:
    """The two crossing tables of a card: rows by steps above the safety speed, six die faces each."""
    wheel_right: tuple[tuple, ...]
    wheel_wrong: tuple[tuple, ...]

    def row(self, steps_over: int, wheel_ok: bool) -> tuple:
        table = self.wheel_right if wheel_ok else self.wheel_wrong
        k = max(0, steps_over)
        return table[k] if k < len(table) else (SPIN,) * DIE

    def outcomes(self, speed: int, safety: int, top: int, wheel_ok: bool) -> dict:
        """{outcome: chance} for crossing at step ``speed`` a card of safety/top steps (outcome: seconds or 'spin')."""
        if speed > top:
            return {SPIN: 1.0}
        out: dict = {}
        for face in self.row(speed - safety, wheel_ok):
            out[face] = out.get(face, 0.0) + 1.0 / DIE
        return out

    def to_data(self) -> dict:
        return {"wheel_right": {i: list(r) for i, r in enumerate(self.wheel_right)},
                "wheel_wrong": {i: list(r) for i, r in enumerate(self.wheel_wrong)}, "above_top": SPIN}


def _rank(outcome) -> float:
    return float("inf") if outcome == SPIN else float(outcome)


def parse_tables(data: Any, where: tuple) -> tuple[Tables | None, list[tuple[tuple, str]]]:
    """Tables from YAML data, with (path, message) problems; rows must never get kinder."""
    problems: list[tuple[tuple, str]] = []
    if not isinstance(data, dict):
        return None, [(where, "give the tables as a mapping with wheel_right and wheel_wrong")]
    parsed = {}
    for name in ("wheel_right", "wheel_wrong"):
        rows = data.get(name)
        if not isinstance(rows, dict) or not rows:
            problems.append((where + (name,), "missing: a mapping from steps above the safety speed (0, 1, 2 ...) to six die outcomes"))
            continue
        if len(rows) > 60:
            problems.append((where + (name,), "at most 60 rows (steps of speed above the safety speed)"))
            continue
        try:
            keys = sorted(int(k) for k in rows)
        except (TypeError, ValueError):
            problems.append((where + (name,), "rows are numbered 0, 1, 2 ... (steps of speed above the safety speed)"))
            continue
        if keys != list(range(len(keys))):
            problems.append((where + (name,), f"rows must be numbered 0 to {len(keys) - 1} without gaps, not {keys}"))
            continue
        table = []
        for k in keys:
            raw = rows.get(str(k), rows.get(k))
            path = where + (name, str(k))
            if not isinstance(raw, list) or len(raw) != DIE:
                problems.append((path, f"a row lists {DIE} outcomes, one per face of the die"))
                break
            row = []
            for face, v in enumerate(raw):
                if v == SPIN or (isinstance(v, int) and not isinstance(v, bool) and v >= 0):
                    row.append(v)
                else:
                    problems.append((path + (face,), f"an outcome is seconds of penalty (0 or more) or 'spin', not {v!r}"))
            table.append(tuple(row))
        parsed[name] = tuple(table)
    if problems:
        return None, problems
    for name, table in parsed.items():
        for k in range(1, len(table)):
            if any(a < b for a, b in zip(sorted(map(_rank, table[k])), sorted(map(_rank, table[k - 1])))):
                problems.append((where + (name, str(k)), f"row {k} is kinder than row {k - 1}: going faster must never cost less"))
    right, wrong = parsed["wheel_right"], parsed["wheel_wrong"]
    for k in range(max(len(right), len(wrong))):
        r = sorted(map(_rank, right[k] if k < len(right) else (SPIN,) * DIE))
        w = sorted(map(_rank, wrong[k] if k < len(wrong) else (SPIN,) * DIE))
        if any(a < b for a, b in zip(w, r)):
            problems.append((where + ("wheel_wrong", str(k)), f"row {k} is kinder with the wheel wrong than right"))
    if problems:
        return None, problems
    return Tables(right, wrong), []


# -- the ruleset file ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    value: Any
    status: str
    source: str


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    params: dict[str, Param]
    tables: Tables
    path: str = ""
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    def __getattr__(self, key: str):
        params = object.__getattribute__(self, "params")
        if key in params:
            return params[key].value
        raise AttributeError(key)

    @property
    def top_step(self) -> int:
        return self.speed_max // self.speed_step

    def kmh(self, steps: int) -> int:
        return steps * self.speed_step

    def solo(self, steps: int) -> int:
        return solo_seconds(self.kmh(steps), self.speed_step, self.solo_seconds_at_zero)

    def statuses(self) -> dict[str, str]:
        return {k: p.status for k, p in self.params.items()}


REQUIRED = {
    "speed_step": int, "speed_max": int, "solo_seconds_at_zero": int, "spin_penalty_seconds": int,
    "spin_stress_cards": int, "spin_timed_speed": int, "speed_after_spin": int, "start_speed": int,
    "speed_carries_over": bool, "hand_size": int, "max_cards_per_turn": int, "starting_set_size": int,
    "buy_costs": list, "solo_leader_stress": bool, "stage_cards": int, "draft_piles": int,
    "multiplayer_step_seconds": int, "multiplayer_divisor_every": int, "hard_severities": list,
    "turn_quarters": dict, "table_cards": dict, "table_minutes": dict, "resolution": dict,
}
# Parameters added after the first rulesets were written: a ruleset without them takes these.
OPTIONAL = {
    "hidden_backs": Param({"prior": "ranges", "remember_backs": True}, "decided",
                          "S4 A) then B): the speeds are set before the section card is turned over; a driver "
                          "knows its front and the player aid's ranges (default of this product)"),
    "drivers": Param({"buy_below_cards": 0, "keep_for_corners": True}, "decided",
                     "how the simulated driver plays its hand (default of this product)"),
    "draft_reshuffles": Param(20, "decided", "the rules do not say what happens when the six piles run out; "
                              "the discards are reshuffled into new piles (default of this product)"),
}
MAX_STEPS = 50          # speed_max / speed_step: the plans work over this many speeds


def ruleset_from_data(data: Any, lines: dict, source: str) -> Ruleset:
    from designer.systems.rallye.model import schema

    if not isinstance(data, dict):
        raise DesignerError("a ruleset file is a mapping of parameters", where=source,
                            hint="start from tilesets/rallye/ruleset.yaml")
    hint = "compare with tilesets/rallye/ruleset.yaml"
    model = schema.check(schema.RulesetFile, data, lines, source, "ruleset", hint=hint)
    params = {}
    for key in list(REQUIRED) + list(OPTIONAL):
        entry = getattr(model, key)
        if entry is None:
            params[key] = OPTIONAL[key]
            continue
        value = data[key]["value"]
        params[key] = Param(value, entry.status, entry.source)
    problems: list[tuple[tuple, str]] = []
    tables, more = parse_tables(params["resolution"].value, ("resolution", "value"))
    problems += more
    step, vmax = params["speed_step"].value, params["speed_max"].value
    if vmax % step:
        problems.append((("speed_max", "value"), f"a multiple of speed_step ({step} km/h)"))
    elif vmax // step > MAX_STEPS:
        problems.append((("speed_max", "value"), f"at most {MAX_STEPS} steps of speed_step ({MAX_STEPS * step} km/h)"))
    for key in ("spin_timed_speed", "speed_after_spin", "start_speed"):
        v = params[key].value
        if v % step or v > vmax:
            problems.append(((key, "value"), f"a speed from 0 to speed_max in steps of {step} km/h"))
    if params["solo_seconds_at_zero"].value < vmax // step:
        problems.append((("solo_seconds_at_zero", "value"), f"at least speed_max / speed_step ({vmax // step}), so "
                         "that no speed counts negative seconds"))
    if problems:
        raise yamlio.schema_error(source, lines, problems, "ruleset", hint=hint)
    return Ruleset(str(data.get("ruleset") or Path(source).stem), str(data.get("title") or ""), params, tables, source)


def load_ruleset(path: str | Path) -> Ruleset:
    data, lines = yamlio.load_plain(path)
    return ruleset_from_data(data, lines, str(path))


@lru_cache(maxsize=8)
def _cached(path: str, mtime: float) -> Ruleset:
    return load_ruleset(path)


def check_name(name: str, what: str) -> None:
    """A deck or ruleset named by a document that came over the network: a plain name, never a path."""
    offered.plain_name(name, what=what, where=what)


def _is_ruleset(p: Path) -> bool:
    """Any YAML file but the bundled decks (which are offered as decks, not as rulesets)."""
    bundled = paths.TILESETS / "rallye"
    return p.stem == "ruleset" or p.parent.resolve() != bundled.resolve()


def find_ruleset(name: str | None, near: Path | None = None, where: str = "ruleset") -> Path:
    """The file of the ruleset called ``name``.

    ``near`` is the folder of a deck read from the user's disk: a file there (by name or path) wins. Without it
    (a deck uploaded or in the app's editor) only a bundled ruleset, by name, is ever opened.
    """
    name = name or DEFAULT_RULESET
    if name == DEFAULT_RULESET and near is None:
        return RULESET_FILE
    try:
        return offered.find(name, what="ruleset", where=where, folders=[paths.TILESETS / "rallye"], near=near,
                            keep=_is_ruleset)
    except DesignerError:
        if name == DEFAULT_RULESET:
            return RULESET_FILE
        raise


def get_ruleset(name: str | None = None, near: Path | None = None, where: str = "ruleset") -> Ruleset:
    """The ruleset called ``name``: a file beside ``near`` (a deck on disk), or the bundled one."""
    c = find_ruleset(name, near, where)
    return _cached(str(c), c.stat().st_mtime)


def check_system(data: Any, lines: dict, source: str, what: str = "stage") -> None:
    """Raise when a file's ``system:`` is not rallye: which game it names, if any, which games exist, and the fix."""
    if not isinstance(data, dict) or "system" not in data:
        return
    value = str(data.get("system")).strip()
    if value.lower() == "rallye":
        return
    from designer import systems

    line = yamlio.line_of(lines, ("system",))
    where = f"{source}:{line}" if line else source
    known = systems.names()
    key = systems.canonical(value)
    if key in known:
        title = systems.get(key).title
        raise DesignerError(f"this file is for {title} (system: {value}), not for Rallye", where=where,
                            hint=f"open it as a {title} file; if it is a Rallye {what}, write `system: rallye` "
                                 "at the top of the file")
    raise DesignerError(f"`system: {value}` is not a game this designer knows; the games are: {', '.join(known)}",
                        where=where, hint=f"for a Rallye {what}, write `system: rallye` at the top of the file")
