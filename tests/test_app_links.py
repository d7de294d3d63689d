"""Share links: the stage and the rally in the page address, read back after a reload or in another browser."""
from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.app.dirt import links, sources
from designer.core.errors import DesignerError
from designer.systems.dirt.board.stage import Placement, Stage, share_code
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.tokens import Token

MAIN = str(Path(__file__).resolve().parent.parent / "designer" / "app" / "main.py")
FACES = sorted(get_tileset("dirt-core").tiles)
CONTROL = {i: None for i in range(32) if i not in (9, 10)}     # what a stage cleans out of its notes


placements = st.builds(lambda face, edge, exit_: Placement(tile=face, entry=edge, exit=exit_),
                       st.sampled_from(FACES), st.sampled_from("ABCDEF"), st.none() | st.sampled_from("ABCDEF"))
stages = st.builds(
    lambda name, tiles, surface, players, notes: Stage(name=name, tiles=tiles, surface=surface, players=players,
                                                       notes=notes),
    st.text(min_size=1, max_size=40).filter(lambda s: s.strip()),
    st.lists(placements, max_size=40),
    st.none() | st.sampled_from(["gravel", "asphalt", "snow"]),
    st.none() | st.integers(1, 6),
    st.none() | st.text(min_size=1, max_size=200).filter(lambda t: t.translate(CONTROL)))


@settings(max_examples=50, deadline=None)
@given(stages)
def test_a_stage_survives_its_link(stage):
    code = links.stage_code(stage)
    assert code.startswith(links.PREFIX)
    assert all(c.isalnum() or c in "-_." for c in code)        # nothing to escape in an address
    assert links.read_stage_code(code) == stage


def test_link_is_shorter_than_the_old_code_once_escaped_and_keeps_tokens():
    from urllib.parse import quote

    new = old = 0
    for b in sources.bundled_stages():
        stage = sources.load_bundled(b.key)
        code = len(links.stage_code(stage))
        assert code < 400                               # the old code of a rulebook stage was 500 characters
        new, old = new + code, old + len(quote(share_code(stage), safe=""))
    assert new < 0.8 * old
    stage = Stage(name="Demo tokens", tiles=[Placement(tile="202a", entry="A"),
                                             Placement(tile="205a", entry="D",
                                                       tokens=[Token(kind="water", cell="a2")])])
    back = links.read_stage_code(links.stage_code(stage))
    assert back.tiles[1].tokens == stage.tiles[1].tokens       # the old code could not carry tokens


def test_old_codes_and_whole_addresses_are_read():
    stage = Stage(name="Shared", tiles=["202a A", "206a D", "203a A"])
    assert links.read_stage_code(share_code(stage)) == stage
    url = links.share_url("http://127.0.0.1:8501/?system=dirt", stage)
    assert url.startswith("http://127.0.0.1:8501/?system=dirt&stage=d1.")
    assert links.read_stage_code(url) == stage
    assert links.share_url("http://127.0.0.1:8501", stage).startswith("http://127.0.0.1:8501/?system=dirt&stage=")
    assert links.read_stage_code("  " + url.split("stage=")[1] + "\n") == stage


@pytest.mark.parametrize("text, words", [
    ("", "paste a share link"),
    ("hello", "not a stage link"),
    ("d1.!!!!", "damaged"),
    ("d1.eNo", "damaged"),
    ("http://x/?system=dirt&rally=d1.abc", "holds no stage"),
    ("d1." + "A" * 40_000, "characters long"),
])
def test_bad_links_are_messages(text, words):
    with pytest.raises(DesignerError, match=words):
        links.read_stage_code(text)


def test_a_link_that_unpacks_to_a_flood_is_refused():
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb = deflate.compress(b" " * (20 * 1024 * 1024)) + deflate.flush()
    code = links.PREFIX + base64.urlsafe_b64encode(bomb).decode().rstrip("=")
    assert len(code) < links.MAX_CODE
    with pytest.raises(DesignerError, match="more data"):
        links.read_stage_code(code)
    with pytest.raises(DesignerError, match="holds no stage"):
        links.read_stage_code(links.pack([1, 2, 3]))
    with pytest.raises(DesignerError, match="problem"):
        links.read_stage_code(links.pack({"stage": "x", "tiles": ["999z Q"]}))


def test_rally_link_round_trip():
    stages = [sources.load_bundled(b.key) for b in sources.bundled_rallies()["Rally 2"]]
    name, back, slot = links.read_rally_code(links.rally_code("Rally 2", stages, 1))
    assert (name, back, slot) == ("Rally 2", stages, 1)
    assert links.read_rally_code(links.pack({"rally": "R", "stages": [], "slot": 5}))[2] is None
    with pytest.raises(DesignerError, match="no rally"):
        links.read_rally_code(links.pack({"rally": "R"}))
    with pytest.raises(DesignerError, match="stage 1 of the rally"):
        links.read_rally_code(links.pack({"rally": "R", "stages": ["x"]}))
    assert json.loads(json.dumps(links.query(stages[0], ("Rally 2", stages, 0))))["system"] == "dirt"


# -- the app: the address follows the work, and a reload reads it back --------------------------

def _app(params: dict | None = None):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(MAIN, default_timeout=120)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _params(at) -> dict:
    return {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def test_the_address_follows_edits_and_a_reload_restores_them():
    at = _app()
    qp = _params(at)
    assert qp["system"] == "dirt"
    assert links.read_stage_code(qp["stage"]) == at.session_state["stage"]
    name, stages, slot = links.read_rally_code(qp["rally"])
    assert name == "Rally 1" and len(stages) == 3 and slot == 0
    at.text_input(key="stage_name_input").set_value("Col de Turini")
    at.run()
    edited = at.session_state["stage"]
    qp = _params(at)
    assert links.read_stage_code(qp["stage"]) == edited and edited.name == "Col de Turini"
    # A reload is a new session opened on the same address: the same stage, the same rally, a fresh undo history.
    again = _app(qp)
    assert again.session_state["stage"] == edited
    assert again.session_state["rally_stages"][0] == edited
    assert again.session_state["rally_slot"] == 0
    assert not again.session_state["history"].can_undo


def test_a_share_link_opens_its_stage_directly():
    stage = Stage(name="Shared demo", tiles=["202a A", "206a D", "203a A"])
    at = _app({"system": "dirt", "stage": links.stage_code(stage)})
    assert at.session_state["stage"] == stage
    assert at.session_state["rally_stages"] == []
    assert "rally" not in _params(at)
    assert "Shared demo" in at.markdown[0].value


def test_a_broken_link_says_so_and_opens_the_rulebook_stage():
    at = _app({"system": "dirt", "stage": "d1.broken"})
    assert any("could not be opened" in t.value for t in at.toast)
    assert at.session_state["stage"].name == "Rally 1 - SS1"
    assert links.read_stage_code(_params(at)["stage"]).name == "Rally 1 - SS1"


def test_choosing_another_game_forgets_the_dirt_address():
    dirt = links.stage_code(Stage(name="Shared demo", tiles=["202a A"]))
    at = _app({"system": "dirt", "stage": dirt})
    from designer import systems

    shown = at.selectbox(key="system").options                  # the games' titles
    others = [n for n in systems.names() if n != "dirt" and systems.get(n).title in shown]
    if not others:
        pytest.skip("no other game system has pages yet")
    at.selectbox(key="system").set_value(others[0])
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    params = _params(at)
    assert params.get("system") == others[0] and params.get("stage") != dirt and "rally" not in params
