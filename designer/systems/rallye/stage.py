"""Rallye stages (12 section cards in driving order) and rallies (several stages, times added up).

A stage file::

    system: rallye
    stage: "SS1 demo: Col des Essais"
    deck: rallye-demo            # a deck file beside the stage, or a bundled one
    players: 3                   # optional, for the table time
    cards: [12, 5, 33, ...]      # card numbers in driving order
    draft: {seed: 7, players: 3} # optional: how the cards were drafted (used when `cards` is absent)

A rally file lists stage files (paths relative to it) or holds stages inline::

    system: rallye
    rally: "Demo rally"
    stages: [ss1.yaml, ss2.yaml]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from designer.core import files, yamlio
from designer.core.errors import DesignerError
from designer.systems.rallye.rules import check_system

POLICIES = ("random", "fast", "slow")


@dataclass
class Draft:
    seed: int = 1
    players: int = 2
    policy: str = "random"


@dataclass
class Stage:
    name: str
    deck: str = "rallye-demo"
    cards: list[str] = field(default_factory=list)
    card_lines: list[int | None] = field(default_factory=list)
    players: int | None = None
    draft: Draft | None = None
    note: str = ""
    source: str = "<stage>"
    near: Path | None = None


@dataclass
class Rally:
    name: str
    stages: list[Stage]
    source: str = "<rally>"


def _where(source: str, lines: dict, path: tuple) -> str:
    line = yamlio.line_of(lines, path)
    return f"{source}:{line}" if line else source


def stage_from_data(data: Any, lines: dict, source: str, near: Path | None = None, prefix: tuple = ()) -> Stage:
    if not isinstance(data, dict):
        raise DesignerError("a stage is a mapping (stage, deck, cards)", where=source,
                            hint="see stages/rallye/ for examples")
    problems: list[tuple[tuple, str]] = []
    name = data.get("stage", data.get("name"))
    if not isinstance(name, (str, int)) or str(name).strip() == "":
        problems.append((prefix + ("stage",), "give the stage a name: stage: \"SS1 ...\""))
        name = "stage"
    deck = data.get("deck", "rallye-demo")
    if not isinstance(deck, str) or not deck.strip():
        problems.append((prefix + ("deck",), "the name of a deck (a file beside the stage or a bundled deck)"))
        deck = "rallye-demo"
    cards_raw = data.get("cards")
    cards: list[str] = []
    card_lines: list[int | None] = []
    if cards_raw is not None:
        if not isinstance(cards_raw, list):
            problems.append((prefix + ("cards",), "a list of card numbers in driving order: [12, 5, 33, ...]"))
        else:
            for i, c in enumerate(cards_raw):
                if isinstance(c, bool) or not isinstance(c, (int, str)) or str(c).strip() == "":
                    problems.append((prefix + ("cards", i), f"a card number, not {c!r}"))
                    continue
                cards.append(str(c).strip())
                card_lines.append(yamlio.line_of(lines, prefix + ("cards", i)))
    players = data.get("players")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 4):
        problems.append((prefix + ("players",), f"Rallye is for 1 to 4 drivers, not {players!r}"))
        players = None
    draft = None
    if data.get("draft") is not None:
        d = data["draft"]
        if not isinstance(d, dict):
            problems.append((prefix + ("draft",), "give the draft as {seed: 7, players: 3, policy: random}"))
        else:
            seed, dp, policy = d.get("seed", 1), d.get("players", players or 2), d.get("policy", "random")
            if not isinstance(seed, int) or isinstance(seed, bool):
                problems.append((prefix + ("draft", "seed"), f"a whole number, not {seed!r}"))
            elif not isinstance(dp, int) or isinstance(dp, bool) or not 1 <= dp <= 4:
                problems.append((prefix + ("draft", "players"), f"1 to 4 drivers, not {dp!r}"))
            elif policy not in POLICIES:
                problems.append((prefix + ("draft", "policy"), f"one of {', '.join(POLICIES)}, not {policy!r}"))
            else:
                draft = Draft(seed, dp, policy)
    if cards_raw is None and draft is None:
        problems.append((prefix or ("cards",), "a stage needs its cards (cards: [...]) or a draft (draft: {seed: 1})"))
    if problems:
        raise yamlio.schema_error(source, lines, problems, "stage", hint="see stages/rallye/ for examples")
    return Stage(str(name), deck.strip(), cards, card_lines, players, draft, str(data.get("note", "")), source, near)


def _doc_from_data(data: Any, lines: dict, source: str, near: Path | None):
    check_system(data, lines, source, "stage or rally")
    if isinstance(data, dict) and "deck" in data and "sections" in data:
        raise DesignerError("this is a deck (the box), not a stage", where=source,
                            hint="open a stage or rally file; a deck is named in a stage's `deck:`")
    if isinstance(data, dict) and "rally" in data:
        raw = data.get("stages")
        if not isinstance(raw, list) or not raw:
            raise DesignerError("a rally lists its stages: stages: [ss1.yaml, ...]", where=_where(source, lines, ("stages",)))
        stages = []
        for i, item in enumerate(raw):
            if isinstance(item, str):
                if near is None:
                    raise DesignerError("a rally read from text must hold its stages inline",
                                        where=_where(source, lines, ("stages", i)),
                                        hint="paste the stages into the rally, or open the rally from its folder")
                path = (near / item).resolve()
                if near.resolve() not in path.parents:
                    raise DesignerError(f"the stage {item!r} is outside the rally's folder",
                                        where=_where(source, lines, ("stages", i)), hint="keep a rally's stages beside it")
                stages.append(load_stage(path))
            else:
                stages.append(stage_from_data(item, lines, source, near, ("stages", i)))
        return Rally(str(data["rally"]), stages, source)
    return stage_from_data(data, lines, source, near)


def load_stage(path: str | Path) -> Stage:
    doc = load(path)
    if isinstance(doc, Rally):
        raise DesignerError("this is a rally, not a single stage", where=str(path))
    return doc


def load(path: str | Path) -> Stage | Rally:
    p = Path(path)
    text = files.read_text(p, what="stage file")
    data, lines = yamlio.loads(text, str(p))
    return _doc_from_data(data, lines, str(p), p.resolve().parent)


def loads(text: str, source: str = "<text>", near: Path | None = None) -> Stage | Rally:
    data, lines = yamlio.loads(text, source)
    return _doc_from_data(data, lines, source, near)


def stage_data(stage: Stage) -> dict:
    out: dict = {"system": "rallye", "stage": stage.name, "deck": stage.deck}
    if stage.players:
        out["players"] = stage.players
    if stage.note:
        out["note"] = stage.note
    out["cards"] = [int(c) if c.isdigit() else c for c in stage.cards]
    if stage.draft:
        out["draft"] = {"seed": stage.draft.seed, "players": stage.draft.players, "policy": stage.draft.policy}
    return out


def dumps(doc: Stage | Rally) -> str:
    if isinstance(doc, Rally):
        data = {"system": "rallye", "rally": doc.name,
                "stages": [{k: v for k, v in stage_data(s).items() if k != "system"} for s in doc.stages]}
    else:
        data = stage_data(doc)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=110)
