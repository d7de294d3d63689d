"""Property: a bundled Rallye file (ruleset, deck, stage, rally) changed at random in one to three places is
either refused with a DesignerError (a located message, exit 2) or analysed; never an internal error.

In CI (``CI`` set) the examples are derandomized, so a red run always means a change broke something; a local
run searches afresh each time.
"""
from __future__ import annotations

import copy
import dataclasses
import os

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from designer.core import paths, yamlio
from designer.core.errors import DesignerError
from designer.systems.rallye import analyse as analyse_mod
from designer.systems.rallye.model import deck as deck_mod
from designer.systems.rallye.model import rules as rules_mod
from designer.systems.rallye.model import stage as stage_mod
from designer.systems.rallye.table.draft import draft
from designer.systems.rallye.validate import validate, validate_deck

CI = settings(max_examples=40, deadline=None, derandomize=bool(os.environ.get("CI")),
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

FOLDER = paths.TILESETS / "rallye"
DECK_DATA = yaml.safe_load((FOLDER / "rallye-demo.yaml").read_text(encoding="utf-8"))
RULES_DATA = yaml.safe_load((FOLDER / "ruleset.yaml").read_text(encoding="utf-8"))
STAGE_DATA = yaml.safe_load((paths.STAGES / "rallye" / "demo-ss3-neige-draft.yaml").read_text(encoding="utf-8"))
DECK = deck_mod.get_deck("rallye-demo")

ODD = st.one_of(
    st.integers(-10 ** 12, 10 ** 12), st.sampled_from([0, 1, -1, 13, 20, 240, 241, 10 ** 9, 100000]),
    st.booleans(), st.none(), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12), st.sampled_from(["spin", "left", "red", "none", "tarmac", "start", "pile", "../x", "/etc/passwd"]),
    st.lists(st.integers(-5, 300), max_size=8), st.dictionaries(st.text(max_size=5), st.integers(-3, 3), max_size=3),
)


def _paths(data, prefix=()):
    out = [prefix] if prefix else []
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, prefix + (i,))
    return out


@st.composite
def mutated(draw, base):
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        places = _paths(data)
        if not places:
            break
        path = draw(st.sampled_from(places))
        parent = data
        for part in path[:-1]:
            parent = parent[part]
        key = path[-1]
        how = draw(st.sampled_from(["replace", "replace", "replace", "delete", "copy"]))
        if how == "delete":
            del parent[key]
        elif how == "copy" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        else:
            parent[key] = draw(ODD)
    return data


def _text(data) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def _use(deck, stage_text: str | None = None) -> None:
    """Everything the product does with a deck (and a stage on it): checks, draft, plans, a few runs."""
    validate_deck(deck)
    stage = stage_mod.loads(stage_text or _text(STAGE_DATA), "ss.yaml")
    problems = validate(stage, deck)
    if not any(p.severity == "error" for p in problems):
        analyse_mod.analyse(stage, deck, runs=3)
    draft(deck, players=2, seed=3)


@CI
@given(mutated(DECK_DATA))
def test_a_mutated_deck_is_refused_or_analysed(data):
    try:
        deck = deck_mod.loads_deck(_text(data), "deck.yaml")
        _use(deck)
    except DesignerError:
        pass


@CI
@given(mutated(RULES_DATA))
def test_a_mutated_ruleset_is_refused_or_analysed(data):
    try:
        rules = rules_mod.ruleset_from_data(*yamlio.loads_plain(_text(data), "rules.yaml"), "rules.yaml")
        deck = dataclasses.replace(DECK, ruleset=rules, tables=rules.tables)
        _use(deck)
    except DesignerError:
        pass


@CI
@given(mutated(STAGE_DATA))
def test_a_mutated_stage_is_refused_or_analysed(data):
    try:
        _use(DECK, _text(data))
    except DesignerError:
        pass


@CI
@given(mutated({"system": "rallye", "rally": "r", "stages": [dict(STAGE_DATA, system=None)]}))
def test_a_mutated_rally_is_refused_or_read(data):
    try:
        doc = stage_mod.loads(_text(data), "rally.yaml")
        for stage in getattr(doc, "stages", [doc]):
            deck = deck_mod.deck_of(stage)
            validate(stage, deck)
    except DesignerError:
        pass
