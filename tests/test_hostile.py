"""Hostile, malformed and extreme input through the real command line, one process per case.

Each case must end with the expected exit code and a one-line `error:` message that says where, within a time
and memory budget, without a traceback, and must leave every file that existed before it intact.
"""
from __future__ import annotations

import hashlib
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SS1 = ROOT / "stages" / "dirt" / "rally-1" / "ss1.yaml"
TIME_BUDGET = 30.0                   # CPU seconds per case (CPU, not wall time: a loaded machine must not fail it)
WALL_TIMEOUT = 300                   # wall seconds before a hung process is killed
MEMORY_BUDGET = 1536 * 1024 * 1024   # address space per process


def _limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BUDGET, MEMORY_BUDGET))


def _children_cpu() -> float:
    """CPU seconds used so far by this process's finished children."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _snapshot(folder: Path) -> dict[str, str]:
    out = {}
    for p in folder.rglob("*"):
        if p.is_file() and not p.is_symlink():
            out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def cli(tmp: Path, *args, expect=(2,), message: str | None = None, creates: str | None = None) -> str:
    before = _snapshot(tmp)
    t = _children_cpu()
    proc = subprocess.run([sys.executable, "-m", "designer", *map(str, args)], cwd=tmp, capture_output=True,
                          text=True, timeout=WALL_TIMEOUT, preexec_fn=_limit_memory,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    took = _children_cpu() - t
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out, out
    assert proc.returncode in expect, (proc.returncode, out)
    if 2 in expect and proc.returncode == 2:
        assert proc.stderr.startswith(("error: ", "Usage: ")), out
    if message:
        assert message.lower() in out.lower(), out
    assert took < TIME_BUDGET
    after = _snapshot(tmp)
    for path, digest in before.items():
        assert after.get(path) == digest, f"{path} was changed or removed"
    if creates:
        assert (tmp / creates).is_file()
    return out


@pytest.fixture
def tmp(tmp_path):
    (tmp_path / "ss1.yaml").write_text(SS1.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def write(tmp: Path, name: str, text: str | bytes) -> Path:
    p = tmp / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefgh", "bcdefghi")) \
    + "tiles: [*i]\n"


# -- YAML that attacks the parser ----------------------------------------------------------------------------------

def test_alias_bomb(tmp):
    write(tmp, "bomb.yaml", BOMB)
    cli(tmp, "validate", "bomb.yaml", message="aliases")


def test_deep_nesting(tmp):
    write(tmp, "deep.yaml", "tiles: " + "[" * 5000 + "]" * 5000 + "\n")
    cli(tmp, "validate", "deep.yaml", message="nested too deeply")


@pytest.mark.parametrize("tag", ["!!python/name:os.system", "!!python/object/apply:os.system ['true']",
                                 "!!binary aGVsbG8=", "!custom x"])
def test_foreign_tags(tmp, tag):
    write(tmp, "tag.yaml", f"stage: x\nname: {tag}\ntiles: [202a A]\n")
    cli(tmp, "validate", "tag.yaml", message="tag.yaml:")


def test_duplicate_key(tmp):
    write(tmp, "dup.yaml", "stage: x\ntiles: [202a A]\ntiles: [203a A]\n")
    cli(tmp, "validate", "dup.yaml", message="dup.yaml:3")


@pytest.mark.parametrize("content,message", [
    (b"\x89PNG\r\n\x1a\n\x00\x00binary", "binary"),
    (b"stage: caf\xe9\ntiles: []\n", "UTF-8"),
    (b"", "tiles"),
    (b"- just\n- a list\n", "mapping"),
    (b"stage: x\ntiles: [202a A\n", "not valid YAML"),
    (b"stage: x\ntiles: 5\n", "tiles"),
])
def test_broken_files(tmp, content, message):
    write(tmp, "bad.yaml", content)
    cli(tmp, "validate", "bad.yaml", message=message)


# -- sizes -------------------------------------------------------------------------------------------------------

def test_thousands_of_tiles_are_refused_at_once(tmp):
    write(tmp, "long.yaml", "stage: x\ntiles: [" + ", ".join(["205a A"] * 5000) + "]\n")
    cli(tmp, "analyze", "long.yaml", message="at most 150 tiles")


def test_huge_file(tmp):
    write(tmp, "huge.yaml", "stage: x\nnotes: '" + "x" * (6 * 1024 * 1024) + "'\ntiles: []\n")
    cli(tmp, "validate", "huge.yaml", message="MB")


def test_far_coordinates(tmp):
    write(tmp, "far.yaml", "stage: x\ntiles:\n- {tile: 202a, at: [1e40, 0], rotation: 0}\n")
    cli(tmp, "validate", "far.yaml", message="far.yaml:")


@pytest.mark.parametrize("value", ["nan", "-5", "0", "inf"])
def test_nonsense_tile_size(tmp, value):
    cli(tmp, "info", "ss1.yaml", "--tile-cm", value, message="tile")


def test_png_of_a_long_stage_is_scaled_to_fit(tmp):
    write(tmp, "long.yaml", "stage: long\ntiles: [202a A, " + ", ".join(["205a A"] * 140) + ", 203a A]\n")
    cli(tmp, "render", "long.yaml", "-o", "long.png", expect=(0,), creates="long.png")


# -- files that are not files -------------------------------------------------------------------------------------

def test_fifo_does_not_hang(tmp):
    os.mkfifo(tmp / "pipe.yaml")
    cli(tmp, "validate", "pipe.yaml", message="not a regular file")


def test_link_to_dev_zero(tmp):
    os.symlink("/dev/zero", tmp / "zero.yaml")
    cli(tmp, "analyze", "zero.yaml", message="not a regular file")


def test_usage_errors_are_click_messages(tmp):
    out = cli(tmp, "validate", "ss1.yaml", "-o", "x", message="no such option")
    assert "internal error" not in out
    cli(tmp, "analyze", message="missing argument")


def test_missing_file_and_folders(tmp):
    cli(tmp, "validate", "nothere.yaml", message="no such")
    (tmp / "empty").mkdir()
    cli(tmp, "validate", "empty", message="no stage files")
    cli(tmp, "analyze", "empty", message="no stage files")
    cli(tmp, "render", "empty", "-o", "x.svg", message="folder")


# -- outputs ---------------------------------------------------------------------------------------------------------

def test_no_command_writes_over_its_own_input(tmp):
    cli(tmp, "roadbook", "ss1.yaml", "-o", "ss1.yaml", message=".pdf")
    write(tmp, "book.pdf", "not a pdf, but a file the user keeps")
    os.symlink(tmp / "ss1.yaml", tmp / "alias.pdf")
    cli(tmp, "roadbook", "alias.pdf", "-o", "alias.pdf", message="own input")
    cli(tmp, "export", "ss1.yaml", "--to", "yaml", "-o", "ss1.yaml", message="own input")


@pytest.mark.parametrize("args,message", [
    (("render", "ss1.yaml", "-o", "drawing.txt"), ".svg"),
    (("render", "ss1.yaml", "-o", "no/such/folder/x.svg"), "folder does not exist"),
    (("render", "ss1.yaml", "-o", "ss1.yaml/x.svg"), "ss1.yaml"),
    (("render", "ss1.yaml", "-o", ""), ".svg"),
    (("export", "ss1.yaml", "--to", "rgt", "-o", "x.json"), ".rgt"),
    (("roadbook", "ss1.yaml", "-o", "missing/book.pdf"), "folder does not exist"),
    (("tiles", "--sheet", "sheet.gif"), ".svg"),
    (("import", "nothere.rgt", "-o", "out.yaml"), "no such"),
])
def test_output_errors_are_messages(tmp, args, message):
    cli(tmp, *args, message=message)


def test_outputs_are_written_whole(tmp):
    cli(tmp, "render", "ss1.yaml", "-o", "d.svg", expect=(0,), creates="d.svg")
    assert (tmp / "d.svg").read_text(encoding="utf-8").rstrip().endswith("</svg>")
    assert not [p for p in tmp.iterdir() if p.name.endswith(".tmp")]


def test_control_characters_in_a_name_give_valid_drawings(tmp):
    import xml.dom.minidom

    write(tmp, "ctl.yaml", SS1.read_text(encoding="utf-8").replace("stage: Rally 1 - SS1", 'stage: "SS\\x01\\x1b[31m one"'))
    cli(tmp, "render", "ctl.yaml", "-o", "ctl.svg", expect=(0,), creates="ctl.svg")
    xml.dom.minidom.parse(str(tmp / "ctl.svg"))
    cli(tmp, "render", "ctl.yaml", "-o", "ctl.png", expect=(0,), creates="ctl.png")


# -- tilesets and rallies -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("include,message", [
    ("[loop.yaml]", "loop"),
    ("5", "include"),
    ("[../../etc/passwd]", "same folder"),
])
def test_tileset_includes(tmp, include, message):
    write(tmp, "loop.yaml", f"tileset: loop\ninclude: {include}\ntiles: {{}}\n")
    write(tmp, "st.yaml", "stage: x\ntileset: loop.yaml\ntiles: [202a A]\n")
    cli(tmp, "validate", "st.yaml", message=message)


def test_a_face_whose_road_ends_where_it_starts(tmp):
    write(tmp, "odd.yaml", "tileset: odd\ntiles:\n  '900a': {edges: {A: 2}, links: [[A, A]], ends: [A, A]}\n")
    write(tmp, "st.yaml", "stage: x\ntileset: odd.yaml\ntiles: [900a A]\n")
    cli(tmp, "validate", "st.yaml", message="odd.yaml:3")


def test_mutual_include_loop(tmp):
    write(tmp, "one.yaml", "tileset: one\ninclude: [two.yaml]\ntiles: {}\n")
    write(tmp, "two.yaml", "tileset: two\ninclude: [one.yaml]\ntiles: {}\n")
    write(tmp, "st.yaml", "stage: x\ntileset: one.yaml\ntiles: [202a A]\n")
    cli(tmp, "validate", "st.yaml", message="loop")


@pytest.mark.parametrize("stages,message", [("5", "list"), ("[nothere.yaml]", "no such"), ("[[1, 2]]", "stage 1")])
def test_broken_rallies(tmp, stages, message):
    write(tmp, "rally.yaml", f"rally: R\nstages: {stages}\n")
    cli(tmp, "roadbook", "rally.yaml", "-o", "r.pdf", message=message)


def test_unknown_pieces_and_impossible_stages(tmp):
    write(tmp, "unk.yaml", "stage: x\ntiles: [202a A, 999z D]\n")
    cli(tmp, "validate", "unk.yaml", expect=(1,), message="999z")
    cli(tmp, "analyze", "unk.yaml", message="999z")
    write(tmp, "ts.yaml", "stage: x\ntileset: no-such-box\ntiles: [202a A]\n")
    cli(tmp, "validate", "ts.yaml", message="no tileset named")
    write(tmp, "nofinish.yaml", "stage: x\ntiles: [202a A, 205a D]\n")
    cli(tmp, "analyze", "nofinish.yaml", message="finish")
    write(tmp, "other.yaml", "system: monopoly\nstage: x\n")
    cli(tmp, "validate", "other.yaml", message="unknown game system")


def test_share_codes_have_a_length_limit():
    from designer.core.errors import DesignerError
    from designer.systems.dirt.board.stage import from_share_code

    with pytest.raises(DesignerError, match="long"):
        from_share_code("RD1/dirt-core/" + "205aA." * 5000)


# -- the app's upload path (the same library, reached from a browser) ---------------------------------------------------

@pytest.mark.parametrize("name,data,message", [
    ("bomb.yaml", BOMB.encode(), "aliases"),
    ("deep.yaml", ("tiles: " + "[" * 5000 + "]" * 5000).encode(), "nested"),
    ("long.yaml", ("stage: x\ntiles: [" + ", ".join(["205a A"] * 5000) + "]\n").encode(), "150 tiles"),
    ("big.yaml", b"x" * (2 * 1024 * 1024), "limit"),
    ("evil.yaml", b"stage: x\ntileset: /etc/passwd\ntiles: [202a A]\n", None),
    ("tag.yaml", b"stage: !!python/name:os.system x\ntiles: []\n", "tag"),
    ("rally.yaml", b"rally: R\nstages: [../../../etc/passwd]\n", "upload"),
    ("rally5.yaml", b"rally: R\nstages: 5\n", "list"),
])
def test_uploads_are_refused_quickly_and_read_nothing_else(name, data, message):
    from designer.app.dirt import sources
    from designer.core.errors import DesignerError

    t = time.process_time()
    if message is None:                      # accepted as a stage, but the app will not load that tileset
        loaded = sources.read_upload(name, data)
        assert loaded.stages[0].tileset == "/etc/passwd"
        assert "/etc/passwd" not in sources.tileset_names()
    else:
        with pytest.raises(DesignerError, match=message):
            sources.read_upload(name, data)
    assert time.process_time() - t < 5      # CPU seconds: refused without heavy work, whatever the load


# -- the other games' files get the same defences ----------------------------------------------------------------------

GAMES = ("classic", "greatrace", "rallye")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("body,message", [
    (BOMB, "aliases"),
    ("tiles: " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    ("name: !!python/name:os.system x\n", "tag"),
    ("name: a\nname: b\n", "twice"),
    ("- a list\n", None),
    ("cards: [1, 2\n", "not valid YAML"),
])
def test_other_games_files(tmp, game, body, message):
    write(tmp, "g.yaml", f"system: {game}\n" + body)
    cli(tmp, "validate", "g.yaml", expect=(1, 2), message=message)
    cli(tmp, "analyze", "g.yaml", expect=(2,), message=message)


@pytest.mark.parametrize("game", GAMES)
def test_other_games_boxes_that_are_not_files(tmp, game):
    os.mkfifo(tmp / "pipe.yaml")
    cli(tmp, "validate", "pipe.yaml", message="not a regular file")
    from designer import systems

    example = next(e.path for e in systems.get(game).examples() if e.kind == "stage")
    write(tmp, "stage.yaml", example.read_text(encoding="utf-8"))
    cli(tmp, "roadbook", "stage.yaml", "-o", "stage.yaml", message=".pdf")
    cli(tmp, "render", "stage.yaml", "-o", "stage.yaml", message=".svg")
