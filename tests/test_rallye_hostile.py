"""Rallye files as an attacker or a careless user writes them: names that are server paths, wrong types, tags,
absurd sizes. Each is refused with a located message (exit 2 on the command line), never a traceback, never a
file of the server opened on behalf of an upload, never hours of work.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from streamlit.testing.v1 import AppTest

from designer.cli import main
from designer.core import paths
from designer.core.errors import DesignerError
from designer.systems.rallye.model import deck as deck_mod
from designer.systems.rallye.model import rules as rules_mod
from designer.systems.rallye.model import stage as stage_mod
from designer.systems.rallye.system import SYSTEM

DEMO_DECK = paths.TILESETS / "rallye" / "rallye-demo.yaml"
RULESET = paths.TILESETS / "rallye" / "ruleset.yaml"
STAGE = paths.STAGES / "rallye" / "demo-ss1-col-des-essais.yaml"

# -- a sentinel: every file the process opens while it is watching ------------------------------------------

_OPENED: list[str] = []
_WATCH = [False]


def _hook(event, args):
    if _WATCH[0] and event == "open" and args and isinstance(args[0], (str, bytes, Path)):
        _OPENED.append(str(args[0]))


sys.addaudithook(_hook)


class Watch:
    """``with Watch() as w:`` records the files opened inside; ``w.opened(path)`` tells whether one was."""

    def __enter__(self):
        _OPENED.clear()
        _WATCH[0] = True
        return self

    def __exit__(self, *exc):
        _WATCH[0] = False

    def opened(self, path) -> bool:
        target = str(Path(path).resolve())
        return any(str(Path(p).resolve()) == target or str(p) == str(path) for p in _OPENED if p)


@pytest.fixture
def sentinel(tmp_path):
    """A real YAML file on the server (a valid deck, so that opening it would "work")."""
    p = tmp_path / "secret-deck.yaml"
    p.write_text(DEMO_DECK.read_text(encoding="utf-8").replace("deck: rallye-demo", "deck: secret"), encoding="utf-8")
    return p


def test_the_sentinel_sees_an_open(sentinel):
    with Watch() as w:
        deck_mod.load_deck(sentinel)
    assert w.opened(sentinel)


HOSTILE = ["/etc/passwd", "../../pyproject.toml", "..", "C:\\Windows\\win.ini", "~/.ssh/id_rsa", "a/../../b"]


@pytest.mark.parametrize("name", HOSTILE + ["SENTINEL"])
def test_an_uploaded_stage_names_decks_only_by_name(name, sentinel):
    name = str(sentinel) if name == "SENTINEL" else name
    text = f"system: rallye\nstage: x\ndeck: '{name}'\ncards: [1, 2, 3]\n"
    with Watch() as w:
        stage = SYSTEM.loads(text, "upload.yaml")
        with pytest.raises(DesignerError) as exc:
            SYSTEM.box_of(stage)
    assert "named by a path" in str(exc.value) and "upload.yaml:3" in str(exc.value)
    assert "rallye-demo" in exc.value.hint
    assert not w.opened(sentinel) and not any(p.endswith(("passwd", "pyproject.toml", "win.ini")) for p in _OPENED)


@pytest.mark.parametrize("name", HOSTILE + ["SENTINEL"])
def test_an_uploaded_deck_names_its_ruleset_only_by_name(name, sentinel):
    name = str(sentinel) if name == "SENTINEL" else name
    text = DEMO_DECK.read_text(encoding="utf-8").replace("ruleset: rallye-v7", f"ruleset: '{name}'")
    with Watch() as w:
        with pytest.raises(DesignerError) as exc:
            deck_mod.loads_deck(text, "my-deck.yaml")
    assert "named by a path" in str(exc.value) and "my-deck.yaml:" in str(exc.value)
    assert not w.opened(sentinel)


def test_an_uploaded_rally_holds_its_stages_inline(sentinel):
    text = f"system: rallye\nrally: r\nstages: ['{sentinel}', ../../pyproject.toml]\n"
    with Watch() as w:
        with pytest.raises(DesignerError, match="hold its stages inline"):
            SYSTEM.loads(text, "rally.yaml")
    assert not w.opened(sentinel)


def test_a_bundled_name_still_works_for_an_upload():
    stage = SYSTEM.loads("system: rallye\nstage: x\ndeck: rallye-demo\ncards: [1]\n", "up.yaml")
    assert SYSTEM.box_of(stage).name == "rallye-demo"
    with pytest.raises(DesignerError, match="no deck named 'ruleset'"):     # the ruleset is not a deck
        SYSTEM.box_of(SYSTEM.loads("system: rallye\nstage: x\ndeck: ruleset\ncards: [1]\n", "up.yaml"))


def test_the_command_line_still_reads_files_beside_a_stage(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "house.yaml").write_text(RULESET.read_text(encoding="utf-8").replace("value: 6\n", "value: 5\n", 1),
                                       encoding="utf-8")
    (folder / "decks").mkdir()
    (folder / "decks" / "own.yaml").write_text(
        DEMO_DECK.read_text(encoding="utf-8").replace("deck: rallye-demo", "deck: own")
        .replace("ruleset: rallye-v7", "ruleset: ../house.yaml"), encoding="utf-8")
    stage = folder / "ss.yaml"
    stage.write_text(STAGE.read_text(encoding="utf-8").replace("deck: rallye-demo", "deck: decks/own.yaml"),
                     encoding="utf-8")
    deck = SYSTEM.box_of(SYSTEM.load(stage))
    assert deck.name == "own" and deck.ruleset.hand_size == 5
    result = CliRunner().invoke(main, ["validate", str(stage)])
    assert result.exit_code == 0, result.output


def _upload_page():
    import streamlit as st

    from designer.app import rallye
    from designer.app.rallye.state import ensure, open_text
    from designer.core.errors import DesignerError

    ensure()
    text = st.session_state.get("test_upload")
    if text and not st.session_state.get("test_done"):
        st.session_state["test_done"] = True
        try:
            open_text(text, "upload.yaml")
        except DesignerError as exc:
            st.session_state["rallye_message"] = f"error: {exc}"
    rallye.sidebar()


@pytest.mark.parametrize("field", ["stage", "deck"])
def test_the_app_refuses_an_upload_naming_a_server_file(field, sentinel):
    if field == "stage":
        text = f"system: rallye\nstage: x\ndeck: '{sentinel}'\ncards: [1, 2]\n"
    else:
        text = DEMO_DECK.read_text(encoding="utf-8").replace("ruleset: rallye-v7", f"ruleset: '{sentinel}'")
    at = AppTest.from_function(_upload_page, default_timeout=60)
    at.session_state["test_upload"] = text
    with Watch() as w:
        at.run()
    assert not at.exception
    assert at.session_state["rallye_message"].startswith("error:") and "named by a path" in at.session_state["rallye_message"]
    assert any("named by a path" in e.value for e in at.sidebar.error)
    assert not w.opened(sentinel)
    assert at.session_state["rallye_deck"]["deck"] == "rallye-demo"          # the last good deck is kept


# -- every file typed before use ---------------------------------------------------------------------------


def _cli(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output and "hint:" in result.output
    return result.output


def _write_beside(tmp_path, *, deck_text=None, ruleset_text=None, stage_extra=""):
    deck_text = deck_text or DEMO_DECK.read_text(encoding="utf-8")
    if ruleset_text is not None:
        (tmp_path / "house.yaml").write_text(ruleset_text, encoding="utf-8")
        deck_text = deck_text.replace("ruleset: rallye-v7", "ruleset: house")
    (tmp_path / "own.yaml").write_text(deck_text.replace("deck: rallye-demo", "deck: own"), encoding="utf-8")
    stage = tmp_path / "ss.yaml"
    stage.write_text(STAGE.read_text(encoding="utf-8").replace("deck: rallye-demo", "deck: own") + stage_extra,
                     encoding="utf-8")
    return stage


def _param_line(text: str, key: str) -> int:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{key}:"))
    return next(i for i in range(start, len(lines)) if lines[i].strip().startswith("value:")) + 1


@pytest.mark.parametrize("key, value, words", [
    ("hand_size", "-1", "greater than or equal to 1"),
    ("hand_size", "true", "valid integer"),
    ("hand_size", "'6'", "valid integer"),
    ("speed_carries_over", "1", "valid boolean"),
    ("stage_cards", "100000", "less than or equal to 30"),
    ("speed_step", "0", "greater than or equal to 1"),
    ("buy_costs", "abc", "valid list"),
    ("table_cards", "{columns: 8}", "rows"),
])
def test_a_bad_ruleset_value_is_located(tmp_path, key, value, words):
    text = RULESET.read_text(encoding="utf-8")
    line = _param_line(text, key)
    lines = text.splitlines()
    indent = lines[line - 1].index("value:")
    lines[line - 1] = " " * indent + f"value: {value}"
    stage = _write_beside(tmp_path, ruleset_text="\n".join(lines) + "\n")
    out = _cli(["analyze", str(stage)])
    assert f"house.yaml:{line}: {key}.value" in out and words in out


@pytest.mark.parametrize("old, new, where, words", [
    ("{id: s20, acceleration: 20, steering: [], owner: start, count: 3}",
     "{id: s20, acceleration: 20, steering: [], owner: start, count: 1000000000}", "actions[0].count", "less than or equal to 100"),
    ("{id: 1, type: straight-wide-tarmac, safety: 200, top: 240}",
     "{id: 1, type: straight-wide-tarmac, safety: -20, top: 240}", "sections[0].safety", "greater than or equal to 0"),
    ("{id: 1, type: straight-wide-tarmac, safety: 200, top: 240}",
     "{id: 1, type: straight-wide-tarmac, safety: fast, top: 240}", "sections[0].safety", "valid integer"),
    ("{id: 1, type: straight-wide-tarmac, safety: 200, top: 240}",
     "{id: [1], type: straight-wide-tarmac, safety: 200, top: 240}", "sections[0].id", "a word or a number"),
    ("demo: true", "demo: yes please", "demo", "valid boolean"),
    ("demo: true", "demo: true\ncolour: blue", "colour", "not part of the format"),
])
def test_a_bad_deck_value_is_located(tmp_path, old, new, where, words):
    text = DEMO_DECK.read_text(encoding="utf-8")
    assert old in text
    bad = text.replace(old, new, 1)
    line = next(i for i, ln in enumerate(bad.splitlines(), 1) if new.splitlines()[-1] in ln)
    stage = _write_beside(tmp_path, deck_text=bad)
    out = _cli(["validate", str(stage)])
    assert f"own.yaml:{line}: {where}" in out and words in out


@pytest.mark.parametrize("extra, where, words", [
    ("players: true\n", "players", "1 to 4 drivers"),
    ("players: -3\n", "players", "1 to 4 drivers"),
    ("note: {a: 1}\n", "note", "valid string"),
    ("draft: {seed: 1, policy: sneaky}\n", "draft.policy", "'random'"),
    ("extra: 1\n", "extra", "not part of the format"),
])
def test_a_bad_stage_value_is_located(tmp_path, extra, where, words):
    stage = _write_beside(tmp_path)
    text = stage.read_text(encoding="utf-8")
    text = "\n".join(ln for ln in text.splitlines() if not ln.startswith(extra.split(":")[0] + ":")) + "\n" + extra
    stage.write_text(text, encoding="utf-8")
    line = len(text.splitlines())
    out = _cli(["analyze", str(stage)])
    assert f"ss.yaml:{line}: {where}" in out and words in out


@pytest.mark.parametrize("text, line", [
    ("system: rallye\nstage: !!python/object:os.system {a: 1}\ncards: [1]\n", 2),
    ("system: rallye\nstage: x\ncards: !!python/object/new:list [[1, 2]]\n", 3),
    ("system: rallye\nstage: x\ncards: !!set {1: null}\n", 3),
    ("system: rallye\nstage: x\ncards: [!!python/name:os.system 1]\n", 3),
])
def test_tags_are_refused_with_their_line(tmp_path, text, line):
    stage = tmp_path / "ss.yaml"
    stage.write_text(text, encoding="utf-8")
    out = _cli(["validate", str(stage)])
    assert f"ss.yaml:{line}" in out and "tag" in out


def test_tags_in_decks_and_rulesets_are_refused(tmp_path):
    deck = DEMO_DECK.read_text(encoding="utf-8").replace("stress: {count: 24}", "stress: !!python/object:x {count: 24}")
    assert "!!python" in deck
    with pytest.raises(DesignerError, match="tag"):
        deck_mod.loads_deck(deck, "d.yaml")
    rules = RULESET.read_text(encoding="utf-8").replace("hand_size:\n", "hand_size: !!python/object:x\n")
    with pytest.raises(DesignerError, match="tag"):
        rules_mod.ruleset_from_data(*__import__("designer.core.yamlio", fromlist=["x"]).loads_plain(rules, "r.yaml"),
                                    "r.yaml")


# -- bounded work ------------------------------------------------------------------------------------------


def test_a_rally_of_two_thousand_stages_is_refused(tmp_path):
    rally = tmp_path / "rally.yaml"
    rally.write_text("system: rallye\nrally: long\nstages:\n" + "".join(f"  - ss{i}.yaml\n" for i in range(2000)),
                     encoding="utf-8")
    out = _cli(["validate", str(rally)])
    assert "rally.yaml:4: stages" in out and "at most 30 items" in out


def test_a_rally_that_lists_itself_names_the_file(tmp_path):
    rally = tmp_path / "rally.yaml"
    rally.write_text("system: rallye\nrally: loop\nstages: [rally.yaml]\n", encoding="utf-8")
    out = _cli(["validate", str(rally)])
    assert "rally.yaml:3" in out and "lists itself" in out
    other = tmp_path / "outer.yaml"
    other.write_text("system: rallye\nrally: outer\nstages: [rally.yaml]\n", encoding="utf-8")
    out = _cli(["analyze", str(other)])
    assert "outer.yaml:3" in out and "rally.yaml is a rally" in out


def test_a_stage_of_a_thousand_cards_is_refused(tmp_path):
    stage = tmp_path / "ss.yaml"
    stage.write_text("system: rallye\nstage: x\ncards: [" + ", ".join(str(i) for i in range(1000)) + "]\n",
                     encoding="utf-8")
    out = _cli(["analyze", str(stage)])
    assert "ss.yaml:3: cards" in out and "at most 40" in out


def test_many_copies_of_an_action_card_are_refused_before_any_work():
    text = DEMO_DECK.read_text(encoding="utf-8").replace("owner: start, count: 3}", "owner: start, count: 1000000000}")
    with pytest.raises(DesignerError) as exc:
        deck_mod.loads_deck(text, "d.yaml")
    assert "count" in "\n".join(exc.value.details)


def test_rally_stage_files_are_read_once_each(tmp_path):
    for i in range(3):
        (tmp_path / f"ss{i}.yaml").write_text(STAGE.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "rally.yaml").write_text("system: rallye\nrally: r\nstages: [ss0.yaml, ss1.yaml, ss2.yaml]\n",
                                         encoding="utf-8")
    rally = stage_mod.load(tmp_path / "rally.yaml")
    assert len(rally.stages) == 3


def test_bundled_files_pass_the_schemas():
    for p in sorted((paths.TILESETS / "rallye").glob("*.yaml")):
        if p.stem == "ruleset":
            rules_mod.load_ruleset(p)
        else:
            deck_mod.load_deck(p)
    for p in sorted((paths.STAGES / "rallye").glob("*.yaml")):
        stage_mod.load(p)
    assert yaml.safe_load(RULESET.read_text(encoding="utf-8"))["stage_cards"]["value"] == 12
