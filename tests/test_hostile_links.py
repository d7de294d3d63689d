"""Which game a file is, read from its YAML; links and uploads that name server files or nest absurdly deep.

In-process checks of the library functions the app and the command line call (the real-browser checks with the
server under strace are in test_hostile_browser.py)."""
from __future__ import annotations

import base64
import builtins
import json
import zlib

import pytest

from designer import systems
from designer.core.errors import DesignerError
from designer.core.offered import find, is_plain, plain_name


@pytest.mark.parametrize("text, name", [
    ('{system: classic, stage: x}', "classic"),                     # flow style
    ('"system": greatrace\nrace: x\n', "greatrace"),                 # a quoted key
    ("#" + "x" * 30_000 + "\nsystem: rallye\n", "rallye"),          # the key after long comments
    ("system: null\ntiles: [202a A]\n", "dirt"),                     # null: the default game
    ("stage: x\nnotes: |\n  written for\n  system: classic\ntiles: [202a A]\n", "dirt"),   # inside a text
    ("stage: x\nmeta:\n  system: classic\ntiles: []\n", "dirt"),     # nested
    ("RD1/dirt-core/202aA.210bC/name=x", "dirt"),                   # not YAML mapping: DIRT's own formats
])
def test_the_game_of_a_file_is_read_from_its_yaml(text, name):
    assert systems.system_of_text(text).name == name


def test_a_system_that_is_not_a_name_is_a_message():
    with pytest.raises(DesignerError, match=r"x.yaml:1: `system:` must be the name of a game"):
        systems.system_of_text("system: [classic]\n", "x.yaml")


def test_a_dirt_stage_says_system_null():
    from designer.systems.dirt.board.stage import loads_stage

    assert loads_stage("system: null\nstage: x\ntiles: [202a A, 203a A]\n").name == "x"


@pytest.mark.parametrize("name", ["/etc/passwd", "../x", "a/b", "..", "C:\\x", "x\\..\\y", "", " ", "a" * 200])
def test_paths_are_not_plain_names(name):
    assert not is_plain(name)
    with pytest.raises(DesignerError):
        plain_name(name, what="board", where="x.yaml:2")


@pytest.mark.parametrize("value", [None, 5, ["a"], {"a": 1}, True])
def test_names_that_are_not_text(value):
    with pytest.raises(DesignerError, match="must be named by a text"):
        plain_name(value, what="board", where="x.yaml:2")


def test_find_never_touches_a_path_for_an_upload(tmp_path, monkeypatch):
    secret = tmp_path / "secret.yaml"
    secret.write_text("a: 1\n")
    bundled = tmp_path / "bundled"
    bundled.mkdir()
    (bundled / "demo.yaml").write_text("a: 1\n")
    touched = []
    real_stat = __import__("os").stat

    def spy(path, *a, **k):
        touched.append(str(path))
        return real_stat(path, *a, **k)

    monkeypatch.setattr("os.stat", spy)
    for name in (str(secret), str(tmp_path / "secret"), "../secret", "../secret.yaml"):
        with pytest.raises(DesignerError, match="by name only"):
            find(name, what="board", where="upload", folders=[bundled], near=None)
    assert not any("secret" in t for t in touched)
    assert find("demo", what="board", where="upload", folders=[bundled]) == bundled / "demo.yaml"
    # a file read from disk may name a file beside it
    assert find("../secret", what="board", where="x", folders=[bundled], near=bundled) == bundled / "../secret.yaml"


def _code(data_text: str) -> str:
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = deflate.compress(data_text.encode()) + deflate.flush()
    return "d1." + base64.urlsafe_b64encode(packed).decode().rstrip("=")


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 30 + "1" + "}" * 30,
                                  json.dumps({"name": "x", "tiles": ["202a A"], "notes": [[[[[[[[[[["deep"]]]]]]]]]]]})])
def test_deeply_nested_links_are_a_message(text):
    from designer.app.dirt import links

    code = _code(text)
    for read in (links.read_stage_code, links.read_rally_code):
        with pytest.raises(DesignerError, match="levels deep"):
            read(code)


def test_a_dirt_upload_naming_a_tileset_path_reads_nothing(tmp_path, monkeypatch):
    from designer.app.dirt import sources

    planted = tmp_path / "planted.yaml"
    planted.write_text((__import__("designer.core.paths", fromlist=["TILESETS"]).TILESETS / "dirt-core.yaml")
                       .read_text())
    opened = []
    real_open = builtins.open

    def spy(file, *a, **k):
        opened.append(str(file))
        return real_open(file, *a, **k)

    monkeypatch.setattr(builtins, "open", spy)
    for name in (str(planted), str(planted.with_suffix("")), "../" * 10 + str(planted).lstrip("/")):
        loaded = sources.read_upload("x.yaml", f"stage: x\ntileset: {name}\ntiles: [202a A, 203a A]\n".encode())
        with pytest.raises(DesignerError):
            sources.offered_tileset(loaded.stage.tileset)
    assert not any("planted" in o for o in opened)
    assert sources.offered_tileset("dirt-core").name == "dirt-core"


def test_dirt_rallies_that_list_themselves_or_thousands_of_stages(tmp_path):
    from designer.systems.dirt.board.stage import MAX_RALLY_STAGES, load_rally

    (tmp_path / "self.yaml").write_text("rally: R\nstages: [self.yaml]\n")
    with pytest.raises(DesignerError, match="self.yaml:2: stage 1 names 'self.yaml', which is a rally"):
        load_rally(tmp_path / "self.yaml")
    (tmp_path / "big.yaml").write_text("rally: R\nstages:\n" + "  - s.yaml\n" * (MAX_RALLY_STAGES + 1))
    with pytest.raises(DesignerError, match=f"lists {MAX_RALLY_STAGES + 1} stages"):
        load_rally(tmp_path / "big.yaml")


def test_rally_uploads_and_links_are_capped():
    from designer.app.dirt import links, sources
    from designer.systems.dirt.board.stage import MAX_RALLY_STAGES, Stage

    many = "rally: R\nstages:\n" + "  - {stage: s, tiles: [202a A, 203a A]}\n" * (MAX_RALLY_STAGES + 1)
    with pytest.raises(DesignerError, match="at most"):
        sources.read_yaml_text(many, "up.yaml")
    stage = Stage(name="s", tiles=["202a A", "203a A"])
    with pytest.raises(DesignerError, match="at most"):
        links.read_rally_code(links.rally_code("R", [stage] * (MAX_RALLY_STAGES + 1)))
    assert len(links.read_rally_code(links.rally_code("R", [stage] * 3))[1]) == 3
