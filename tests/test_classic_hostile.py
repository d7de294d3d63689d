"""Classic Rallyman files from an upload, a link or a careless hand: the server opens only what it offers,
every file is typed before use, and no file can ask for unbounded work."""
from __future__ import annotations

import builtins
import os
import pathlib
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from designer.cli import main
from designer.core.errors import DesignerError
from designer.systems.classic.files import rules as R
from designer.systems.classic.files import stage as S
from designer.systems.classic.system import SYSTEM

ROOT = Path(__file__).resolve().parent.parent
BOX = ROOT / "tilesets/classic/demo-zones.yaml"
RULES = ROOT / "tilesets/classic/classic-rules.yaml"
STAGE = "system: classic\nstage: S\nzones: {zones}\nroute: 'X0 | - | X4'\n"


@pytest.fixture
def opened(monkeypatch):
    """Every path the code opens, stats or probes while the test runs."""
    seen: list[str] = []
    real_open, real_stat = builtins.open, os.stat
    real_is_file, real_exists = pathlib.Path.is_file, pathlib.Path.exists

    def rec_open(file, *a, **k):
        seen.append(str(file))
        return real_open(file, *a, **k)

    def rec_stat(path, *a, **k):
        seen.append(str(path))
        return real_stat(path, *a, **k)

    def rec_is_file(self):
        seen.append(str(self))
        return real_is_file(self)

    def rec_exists(self, *a, **k):
        seen.append(str(self))
        return real_exists(self, *a, **k)

    monkeypatch.setattr(builtins, "open", rec_open)
    monkeypatch.setattr(os, "stat", rec_stat)
    monkeypatch.setattr(pathlib.Path, "is_file", rec_is_file)
    monkeypatch.setattr(pathlib.Path, "exists", rec_exists)
    return seen


def outside(seen: list[str]) -> list[str]:
    """The paths probed that are neither the bundled classic files nor Python's own modules."""
    offered = str(ROOT / "tilesets/classic")
    imports = set(sys.path) | {str(ROOT), ""}          # the import system looks at its own folders
    return [p for p in list(seen) if not os.path.abspath(p).startswith(offered) and p not in imports
            and not p.endswith((".py", ".pyc", ".so")) and "python3" not in p and "__editable__" not in p]


def _sentinel(tmp_path) -> Path:
    """A real, valid classic box on the server that an upload must never reach."""
    p = tmp_path / "secret-box.yaml"
    p.write_text(BOX.read_text(encoding="utf-8"), encoding="utf-8")
    return p


def hostile_names(tmp_path):
    return ["/etc/passwd", "../../pyproject.toml", str(_sentinel(tmp_path)), str(RULES), "..", "~/x.yaml",
            "C:\\x.yaml", "tilesets/classic/demo-zones.yaml", "demo-zones/../classic-rules"]


@pytest.mark.parametrize("key", ["zones", "rules"])
def test_an_upload_names_no_server_file(tmp_path, opened, key):
    for name in hostile_names(tmp_path):
        text = STAGE.format(zones="demo-zones") + f"{key}: {name!r}\n" if key == "rules" else \
            STAGE.format(zones=repr(name))
        opened.clear()
        with pytest.raises(DesignerError) as e:
            SYSTEM.loads(text, "upload.yaml")
        assert "by name" in e.value.message and e.value.where.startswith("upload.yaml:")
        assert "demo-zones" in e.value.hint or key == "rules"
        assert not outside(opened), opened


def test_a_rally_upload_names_no_server_file(tmp_path, opened):
    secret = _sentinel(tmp_path)
    for body in (f"zones: {secret}\nstages:\n  - {{stage: A, route: X0-4}}\n",
                 f"stages:\n  - {{stage: A, route: X0-4, zones: {secret}}}\n",
                 f"stages:\n  - {{stage: A, route: X0-4, rules: {secret}}}\n",
                 f"stages: [{secret}]\n", "stages: [../../pyproject.toml]\n"):
        opened.clear()
        with pytest.raises(DesignerError):
            SYSTEM.loads("system: classic\nrally: R\n" + body, "upload.yaml")
        assert not outside(opened), opened


def test_box_of_an_upload_never_probes_its_source_name(tmp_path, opened, monkeypatch):
    # the upload is called like a file in the server's working folder: that file is never looked at
    monkeypatch.chdir(tmp_path)
    (tmp_path / "demo-zones.yaml").write_text("not: a box\n")
    (tmp_path / "upload.yaml").write_text("system: classic\n")
    stage = SYSTEM.loads(STAGE.format(zones="demo-zones"), "upload.yaml")
    opened.clear()
    box = SYSTEM.box_of(stage)
    assert box.name == "demo-zones" and Path(box.path).parent == BOX.parent
    assert not outside(opened), opened
    # a stage built by hand (no folder), even with a path as its zones, reaches nothing either
    opened.clear()
    with pytest.raises(DesignerError, match="by name"):
        SYSTEM.box_of(S.Stage("x", stage.route, zones=str(_sentinel(tmp_path))))
    assert not outside(opened), opened


def test_the_ruleset_of_an_upload_is_a_bundled_one_by_name(tmp_path):
    stage = SYSTEM.loads(STAGE.format(zones="demo-zones") + "rules: classic-rules\n", "upload.yaml")
    assert R.rules_for(stage) == R.load_rules()
    stage = S.Stage("x", stage.route, rules=str(RULES))          # a path slipped in by hand
    with pytest.raises(DesignerError, match="by name"):
        R.rules_for(stage)
    with pytest.raises(DesignerError, match="no zone box named"):
        SYSTEM.box_of(SYSTEM.loads(STAGE.format(zones="classic-rules"), "upload.yaml"))


def test_the_command_line_still_reads_files_beside_a_stage(tmp_path):
    (tmp_path / "boxes").mkdir()
    (tmp_path / "boxes" / "mine.yaml").write_text(BOX.read_text(encoding="utf-8").replace("box: demo-zones",
                                                                                         "box: mine"))
    (tmp_path / "house.yaml").write_text(RULES.read_text(encoding="utf-8"))
    (tmp_path / "s.yaml").write_text(STAGE.format(zones="boxes/mine.yaml") + "rules: house.yaml\n")
    (tmp_path / "t.yaml").write_text(STAGE.format(zones=tmp_path / "boxes" / "mine"))
    for name in ("s.yaml", "t.yaml"):
        r = CliRunner().invoke(main, ["validate", str(tmp_path / name)])
        assert r.exit_code == 0, r.output
    stage = S.load(tmp_path / "s.yaml")
    assert SYSTEM.box_of(stage).name == "mine" and R.rules_for(stage) == R.load_rules()


def test_the_app_refuses_an_upload_naming_a_server_file(tmp_path):
    from streamlit.testing.v1 import AppTest

    secret = _sentinel(tmp_path)

    def app(text):
        from designer.app.classic.state import K, open_text, ss
        from designer.core.errors import DesignerError

        try:
            open_text(text, "upload.yaml")
            ss["out"] = "opened"
        except DesignerError as exc:
            ss["out"] = str(exc)
        ss["has_doc"] = K + "doc" in ss

    at = AppTest.from_function(app, args=(STAGE.format(zones=secret),)).run(timeout=30)
    assert "by name" in at.session_state["out"] and not at.session_state["has_doc"]


# -- every file typed before use -----------------------------------------------------------------------------------

def _cli(tmp_path, name, text):
    (tmp_path / name).write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["analyze", str(tmp_path / name)])


ES1 = (ROOT / "stages/classic/es1-demo.yaml").read_text(encoding="utf-8")
RULES_TEXT = RULES.read_text(encoding="utf-8")


@pytest.mark.parametrize("old,new,line", [
    ("splits: [\"1:E4\"]", "splits: 5", 9),
    ("assistance: true", "notes: 5", 8),
    ("assistance: true", "players: true", 8),
    ("assistance: true", "players: 7", 8),
    ("assistance: true", "leader: 'yes'", 8),
    ("tyres: asphalt", "tyres: {a: 1}", 7),
    ("tyres: asphalt", "tyres: !!python/object:os.system {a: 1}", 7),
    ("stage: \"Demo ES1 - Col de la Croix X\"", "stage: [1, 2]", 3),
    ("route: \"X0 | - | X4\"", "route: 12", 5),
    ("route: \"X0 | - | X4\"", "route: {start: X0, finish: [X4]}", 5),
    ("weather: fixed", "weather: 3", 6),
])
def test_bad_stage_values_are_exit_2_with_the_line(tmp_path, old, new, line):
    assert old in ES1
    r = _cli(tmp_path, "s.yaml", ES1.replace(old, new))
    assert r.exit_code == 2, r.output
    assert f"s.yaml:{line}:" in r.output and "hint:" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("old,new,words", [
    ("value: 6\n", "value: 0\n", "die_faces"),
    ("{1: 50, 2: 40,", "{1: -50, 2: 40,", "time_card"),
    ("value: 2\n  status: rulebook\n  source: \"S0 ART.4: two white", "value: abc\n  status: rulebook\n"
                                                                      "  source: \"S0 ART.4: two white", "gas_dice"),
    ("value: {loss: 2}", "value: {loss: true}", "corner_overspeed"),
    ("value: {loss: 2}", "value: !!python/object:os.system {loss: 2}", "tag"),
    ("value: [1, 2, 3, 4, 5, 6, 7]", "value: 7", "drop_seconds"),
    ("value: [1, 2, 3, 4, 5]\n", "value: [1, 2, 4]\n", "gears"),
    ("status: assumed", "status: guessed", "status"),
    ("soft_S3: 2}", "soft_S3: 0}", "hazard_limit"),
    ("gravel: [2, white, true],", "gravel: [9, white, true],", "dashboards"),
    ("value: {good: 0.3334, dirty: 0.3333, puncture: 0.3333}", "value: {good: 2, dirty: 0, puncture: 0}", "cut_card"),
])
def test_bad_ruleset_values_are_exit_2_with_the_line(tmp_path, old, new, words):
    assert old in RULES_TEXT, old
    (tmp_path / "house-rules.yaml").write_text(RULES_TEXT.replace(old, new, 1), encoding="utf-8")
    r = _cli(tmp_path, "s.yaml", ES1 + "rules: house-rules.yaml\n")
    assert r.exit_code == 2, r.output
    assert "house-rules.yaml:" in r.output and words in r.output and "hint:" in r.output, r.output


@pytest.mark.parametrize("old,new", [
    ("size: 8", "size: true"), ("size: 8", "size: 1000000"), ("demo: true", "demo: 3"),
    ("ends: [0, 4]", "ends: [0, 4, 5]"), ("ends: [0, 4]", "ends: 04"), ("note: 3", "note: 9"),
    ("note: 3", "note: '3'"), ("bump: 3", "bump: -1"), ("ford: true", "ford: 1"),
])
def test_bad_box_values_are_exit_2(tmp_path, old, new):
    text = BOX.read_text(encoding="utf-8")
    assert old in text, old
    (tmp_path / "b.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    r = _cli(tmp_path, "s.yaml", ES1.replace("zones: demo-zones", "zones: b.yaml"))
    assert r.exit_code == 2 and "b.yaml:" in r.output and "hint:" in r.output, r.output


# -- bounded work ----------------------------------------------------------------------------------------------------

def test_a_rally_of_two_thousand_stages_is_refused_at_once(tmp_path):
    body = "system: classic\nrally: R\nstages:\n" + "  - {stage: A, route: X0-4}\n" * 2000
    r = _cli(tmp_path, "r.yaml", body)
    assert r.exit_code == 2 and "r.yaml:4:" in r.output and "2000 stages" in r.output


def test_a_rally_that_lists_itself_or_another_rally_names_the_file(tmp_path):
    r = _cli(tmp_path, "r.yaml", "system: classic\nrally: R\nstages: [r.yaml]\n")
    assert r.exit_code == 2 and "r.yaml:3:" in r.output and "loop" in r.output and "r.yaml -> r.yaml" in r.output
    (tmp_path / "b.yaml").write_text("system: classic\nrally: B\nstages: [a.yaml]\n")
    r = _cli(tmp_path, "a.yaml", "system: classic\nrally: A\nstages: [b.yaml]\n")
    assert r.exit_code == 2 and "a.yaml:3:" in r.output and "'b.yaml' is a rally" in r.output


@pytest.mark.parametrize("body,words", [
    ("splits: [" + ", ".join(["'1:E4'"] * 50) + "]\n", "splits"),
    ("notes: [" + ", ".join(["x"] * 500) + "]\n", "notes"),
    ("notes: ['" + "x" * 5000 + "']\n", "notes"),
])
def test_counts_a_stage_can_raise_are_capped(tmp_path, body, words):
    r = _cli(tmp_path, "s.yaml", ES1.replace("splits: [\"1:E4\"]\n", "") + body)
    assert r.exit_code == 2 and words in r.output and "s.yaml:" in r.output, r.output


def test_a_long_route_is_refused(tmp_path):
    route = "/".join(["X0-4"] * 40)
    r = _cli(tmp_path, "s.yaml", f"system: classic\nstage: S\nshare: {route}\n")
    assert r.exit_code == 2 and "crosses 40 zones" in r.output


# -- a zone box checked by validate ---------------------------------------------------------------------------------

def test_validate_checks_a_zone_box(tmp_path):
    r = CliRunner().invoke(main, ["validate", str(BOX)])
    assert r.exit_code == 0 and "valid" in r.output and "zone box demo-zones" in r.output
    text = BOX.read_text(encoding="utf-8").replace("ends: {0: A2,", "ends: {9: D1, 0: A2,", 1)
    text = text.replace("          G7: {env: rocks}\n", "          G7: {env: rocks}\n          A8: {env: forest}\n", 1)
    assert "9: D1" in text and "A8: {env: forest}" in text
    (tmp_path / "b.yaml").write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", str(tmp_path / "b.yaml")])
    assert r.exit_code == 0 and "end-unused" in r.output and "road end 9 has no road" in r.output
    assert "env-off-road" in r.output and "X-asphalt A8: forest" in r.output and "ART.8" in r.output
    r = CliRunner().invoke(main, ["analyze", str(tmp_path / "b.yaml")])
    assert r.exit_code == 2 and "zone box" in r.output and "validate" in r.output


def _snake_box(n: int, size: int = 20) -> str:
    cells = []
    for r in range(size):
        row = [f"{chr(65 + c)}{r + 1}" for c in range(size)]
        cells += row if r % 2 == 0 else row[::-1]
    cells = cells[:n]
    side = "E" if cells[-1][0] == chr(64 + size) else "W"
    return (f"system: classic\nbox: snake\nsize: {size}\nzones:\n  X:\n    faces:\n      asphalt: {{ends: "
            f"{{0: A1/N, 1: {cells[-1]}/{side}}}, roads: [{{ends: [0, 1], path: {' '.join(cells)}}}]}}\n")


def test_the_expected_time_of_a_very_long_course_is_refused_with_a_hint(tmp_path, monkeypatch):
    import time

    from designer.systems.classic.dice import expected as E

    (tmp_path / "snake.yaml").write_text(_snake_box(400))
    stage = "system: classic\nstage: S\nzones: snake.yaml\nshare: X0-1\n"
    monkeypatch.setattr(E, "MAX_CELLS", 300)               # the caps, lowered so the test stays quick
    monkeypatch.setattr(E, "MAX_CELLS_ATTACK", 100)
    t = time.process_time()
    r = _cli(tmp_path, "s.yaml", stage)
    assert r.exit_code == 2 and "402 cells" in r.output and "up to 300 cells" in r.output and "hint:" in r.output
    assert time.process_time() - t < 20                     # CPU seconds, so a loaded machine does not fail it
    (tmp_path / "snake.yaml").write_text(_snake_box(160))
    r = _cli(tmp_path, "s.yaml", stage.replace("snake.yaml", "snake.yaml\nbig_attack: true"))
    assert r.exit_code == 2 and "162 cells" in r.output and "with Big Attack" in r.output
    assert "without Big Attack" in r.output
