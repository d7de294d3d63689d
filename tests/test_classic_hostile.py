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
from designer.systems.classic import rules as R
from designer.systems.classic import stage as S
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
