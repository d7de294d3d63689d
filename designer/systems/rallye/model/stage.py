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
from designer.systems.rallye.model import schema
from designer.systems.rallye.model.rules import check_system

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
    deck_where: str = ""          # file:line of the stage's `deck:` (where a message about the deck points)
    seen: tuple = ()              # card ids raced in the earlier stages of its rally (their backs were shown)


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
        raise DesignerError("a stage is a mapping (stage, deck, cards)", where=_where(source, lines, prefix),
                            hint="see stages/rallye/ for examples")
    hint = "see stages/rallye/ for examples"
    model = schema.check(schema.StageFile, data, lines, source, "stage", prefix=prefix, hint=hint)
    problems: list[tuple[tuple, str]] = []
    name = model.stage if model.stage is not None else model.name
    if name is None:
        problems.append((prefix + ("stage",), "give the stage a name: stage: \"SS1 ...\""))
    cards = [str(c).strip() for c in model.cards or []]
    card_lines = [yamlio.line_of(lines, prefix + ("cards", i)) for i in range(len(cards))]
    players = model.players
    draft = None
    if model.draft is not None:
        d = model.draft
        draft = Draft(d.seed, d.players or players or 2, d.policy)
    if model.cards is None and draft is None:
        problems.append((prefix or ("cards",), "a stage needs its cards (cards: [...]) or a draft (draft: {seed: 1})"))
    if problems:
        raise yamlio.schema_error(source, lines, problems, "stage", hint=hint)
    return Stage(str(name).strip(), model.deck.strip(), cards, card_lines, players, draft, str(model.note or ""),
                 source, near, _where(source, lines, prefix + ("deck",)))


def _is_deck_data(data: Any) -> bool:
    return isinstance(data, dict) and "deck" in data and "sections" in data


def _doc_from_data(data: Any, lines: dict, source: str, near: Path | None, chain: tuple = ()):
    check_system(data, lines, source, "stage or rally")
    if _is_deck_data(data):
        raise DesignerError("this is a deck (the box), not a stage", where=source,
                            hint="open a stage or rally file; a deck is named in a stage's `deck:`")
    if isinstance(data, dict) and "rally" in data:
        model = schema.check(schema.RallyFile, data, lines, source, "rally",
                             hint=f"a rally lists 1 to {schema.MAX_RALLY_STAGES} stages: stages: [ss1.yaml, ...]")
        stages = []
        for i, item in enumerate(model.stages):
            where = _where(source, lines, ("stages", i))
            if isinstance(item, str):
                if near is None:
                    raise DesignerError("a rally read from text must hold its stages inline", where=where,
                                        hint="paste the stages into the rally, or open the rally from its folder")
                path = (near / item).resolve()
                if near.resolve() not in path.parents:
                    raise DesignerError(f"the stage {item!r} is outside the rally's folder", where=where,
                                        hint="keep a rally's stages beside it")
                stages.append(_stage_of_rally(path, where, chain + (source,)))
            elif isinstance(item, dict):
                if "rally" in item:
                    raise DesignerError("a rally's stage cannot be a rally", where=where,
                                        hint="list the stages themselves")
                stages.append(stage_from_data(item, lines, source, near, ("stages", i)))
            else:
                raise DesignerError(f"a rally's stage is a file name or a stage, not {type(item).__name__}",
                                    where=where, hint="stages: [ss1.yaml, {stage: SS2, cards: [...]}]")
        earlier: list[str] = []
        for st in stages:
            st.seen = tuple(earlier)
            earlier += [c for c in st.cards if c not in earlier]
        return Rally(str(model.rally), stages, source)
    return stage_from_data(data, lines, source, near)


def _stage_of_rally(path: Path, where: str, chain: tuple) -> Stage:
    """A stage file a rally lists: a single stage (never a rally: a rally that lists itself or another rally
    is refused at once, naming both files)."""
    if str(path) in chain or any(Path(c).resolve() == path for c in chain if not c.startswith("<")):
        raise DesignerError(f"the rally lists itself ({path.name})", where=where,
                            hint="list the stage files, not the rally file")
    text = files.read_text(path, what="stage file")
    data, lines = yamlio.loads_plain(text, str(path))
    if isinstance(data, dict) and "rally" in data:
        raise DesignerError(f"{path.name} is a rally, not a stage: a rally lists stages", where=where,
                            hint="list the stage files of that rally instead")
    doc = _doc_from_data(data, lines, str(path), path.parent, chain)
    return doc


def load_stage(path: str | Path) -> Stage:
    doc = load(path)
    if isinstance(doc, Rally):
        raise DesignerError("this is a rally, not a single stage", where=str(path))
    return doc


def load(path: str | Path) -> Stage | Rally:
    p = Path(path)
    text = files.read_text(p, what="stage file")
    data, lines = yamlio.loads_plain(text, str(p))
    return _doc_from_data(data, lines, str(p), p.resolve().parent)


def loads(text: str, source: str = "<text>", near: Path | None = None) -> Stage | Rally:
    data, lines = yamlio.loads_plain(text, source)
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
