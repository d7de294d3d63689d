"""The owner's deck everywhere: every command takes a deck file of one's own, `validate` checks a deck on its
own, and a stage that is not a legal stage (11 or 13 cards, a road that cannot be laid) is refused by analyze,
render and roadbook with its problems, not analysed as if it were fine."""
from __future__ import annotations

import pytest
import yaml
from click.testing import CliRunner

from designer.cli import main
from designer.core import paths

DEMO_DECK = paths.TILESETS / "rallye" / "rallye-demo.yaml"
SS1 = [32, 5, 37, 25, 13, 4, 31, 17, 9, 27, 8, 26]


@pytest.fixture
def owner(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = DEMO_DECK.read_text(encoding="utf-8").replace("deck: rallye-demo", "deck: my-box").replace("demo: true", "demo: false")
    (tmp_path / "my-box.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def _run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("how", ["my-box.yaml", "my-box", "ABS"])
def test_generate_takes_the_owners_deck(owner, how):
    deck = str(owner / "my-box.yaml") if how == "ABS" else how
    (owner / "out").mkdir(exist_ok=True)
    result = _run("generate", "--system", "rallye", "--deck", deck, "-o", "out/g.yaml", "--candidates", "4")
    assert result.exit_code == 0, result.output
    stage = yaml.safe_load((owner / "out" / "g.yaml").read_text(encoding="utf-8"))
    assert stage["deck"] == str((owner / "my-box.yaml").resolve())
    again = _run("validate", str(owner / "out" / "g.yaml"))
    assert again.exit_code == 0 and "valid" in again.output


def test_generate_refuses_an_unknown_deck_with_a_message(owner):
    result = _run("generate", "--system", "rallye", "--deck", "nope.yaml", "-o", "g.yaml")
    assert result.exit_code == 2 and "no deck named 'nope.yaml'" in result.output and "Traceback" not in result.output


def test_validate_checks_a_deck_on_its_own(owner):
    good = _run("validate", "my-box.yaml")
    assert good.exit_code == 0 and "deck my-box" in good.output
    text = (owner / "my-box.yaml").read_text(encoding="utf-8")
    small = text.replace("owner: start, count: 3}", "owner: start, count: 1}").replace(
        "{id: s40, acceleration: 40, steering: [], owner: start, count: 2}",
        "{id: s40, acceleration: 40, steering: [], owner: pile, count: 2}")
    (owner / "small.yaml").write_text(small, encoding="utf-8")
    bad = _run("validate", "small.yaml")
    assert bad.exit_code == 1 and "starting-set" in bad.output and "the game deals 12" in bad.output
    assert _run("analyze", "small.yaml").exit_code == 2


@pytest.mark.parametrize("cards, words", [
    (SS1[:11], "the stage has 11 cards"),
    (SS1 + [1], "the stage has 13 cards"),
    ([5, 4, 2, 1, 3, 7, 8, 6, 11, 10, 9, 12], "cannot be laid"),
])
@pytest.mark.parametrize("command", [["analyze"], ["render", "-o", "x.svg"], ["roadbook", "-o", "x.pdf"]])
def test_a_stage_that_is_not_legal_is_refused(owner, cards, words, command):
    (owner / "s.yaml").write_text(yaml.safe_dump({"system": "rallye", "stage": "s", "deck": "my-box", "cards": cards}),
                                  encoding="utf-8")
    result = _run(command[0], "s.yaml", *command[1:])
    assert result.exit_code == 2, result.output
    assert words in result.output and "hint:" in result.output and "Traceback" not in result.output
    assert not (owner / "x.svg").exists() and not (owner / "x.pdf").exists()
    assert _run("validate", "s.yaml").exit_code == 1


def test_max_risk_is_refused_for_rallye(owner):
    result = _run("analyze", "--max-risk", "0.1", str(paths.STAGES / "rallye" / "demo-ss1-col-des-essais.yaml"))
    assert result.exit_code == 2 and "--max-risk is not a Rallye option" in result.output
