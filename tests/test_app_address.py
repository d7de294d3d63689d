"""The work in the page address: packing and its caps, and in every game a reload (a fresh session on the same
address) that opens the same work, the owner's own box included; a box too large for an address is said."""
from __future__ import annotations

import base64
import copy
import random
import string
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.app import address
from designer.core.errors import DesignerError
from tests.test_app_links import _app, _params

json_data = st.recursive(st.none() | st.booleans() | st.integers(-10 ** 9, 10 ** 9) | st.text(max_size=20),
                         lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                     max_size=4), max_leaves=30)


@settings(max_examples=150, deadline=None)
@given(json_data)
def test_what_is_packed_unpacks_the_same(data):
    if address.depth(data) <= address.MAX_DEPTH:
        assert address.unpack(address.pack(data)) == data


@pytest.mark.parametrize("code, words", [
    ("d1." + "A" * (address.MAX_CODE + 1), "characters long"),
    ("x1.abc", "not made by this app"),
    ("d1.!!!!", "damaged"),
    (address.pack({"a": 1})[:-4], "damaged"),
    ("d1." + base64.urlsafe_b64encode(zlib.compress(b"[" * 50 + b"]" * 50)[2:-4]).decode().rstrip("="), "levels deep"),
])
def test_bad_codes_are_messages(code, words):
    with pytest.raises(DesignerError, match=words):
        address.unpack(code, "the page address (stage=)")


def test_a_code_that_unpacks_to_a_flood_is_refused():
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    code = "d1." + base64.urlsafe_b64encode(deflate.compress(b" " * (8 * 1024 * 1024)) + deflate.flush()).decode()
    assert len(code) < address.MAX_CODE
    with pytest.raises(DesignerError, match="more data"):
        address.unpack(code)


def test_a_part_too_large_for_an_address_is_set_apart():
    noise = "".join(random.Random(1).choices(string.ascii_letters, k=60_000))
    fits, large = address.codes([address.Kept("stage", {"a": 1}, "stage"), address.Kept("box", {"n": noise}, "deck"),
                                 address.Kept("none", None, "nothing")])
    assert list(fits) == ["stage"] and [k.param for k in large] == ["box"]


# -- the app, in process: a reload is a new session on the same address ----------------------------------------

def _sidebar(at) -> str:
    return "\n".join(str(e.value) for e in list(at.sidebar.error) + list(at.sidebar.warning))


def test_great_race_keeps_the_race_and_the_owners_board():
    at = _app({"system": "greatrace"})
    assert set(_params(at)) == {"system", "race"}             # a bundled board is named, not carried
    at.number_input(key=f"greatrace_money_{at.session_state['greatrace_doc_n']}").set_value(400).run()
    board = copy.deepcopy(at.session_state["greatrace_board"])
    board["bag"][0]["count"] = 30
    at.session_state["greatrace_board"] = board
    at.run()
    params = _params(at)
    assert set(params) == {"system", "race", "box"}
    again = _app(params)
    assert again.session_state["greatrace_race"]["money"] == 400
    assert again.session_state["greatrace_board"]["bag"][0]["count"] == 30
    assert _params(again) == params


def test_great_race_refuses_a_board_named_by_a_path():
    race = {"system": "greatrace", "race": "x", "board": "/etc/passwd", "start": "A", "finish": "B"}
    at = _app({"system": "greatrace", "race": address.pack(race)})
    assert "could not be opened" in _sidebar(at) and "path" in _sidebar(at)
    assert at.session_state["greatrace_race"]["board"] == "demo-frontier"      # the demo opened instead


def test_classic_keeps_the_stage_in_view_the_box_and_the_zone_editor():
    at = _app({"system": "classic"})
    at.selectbox(key="classic_stage_pick_stage").select_index(1).run()
    assert at.session_state["classic_stage_index"] == 1
    params = _params(at)
    assert set(params) == {"system", "stage"}
    again = _app(params)
    assert again.session_state["classic_stage_index"] == 1
    from designer.systems.classic.system import SYSTEM

    assert SYSTEM.dumps(again.session_state["classic_doc"]) == SYSTEM.dumps(at.session_state["classic_doc"])
    from designer.core import paths

    box = (paths.TILESETS / "classic" / "demo-zones.yaml").read_text(encoding="utf-8").replace(
        "Demo zones X and Y", "My zones")
    again.session_state["classic_box_text"] = box
    again.run()
    params = _params(again)
    assert "box" in params
    third = _app(params)
    assert "My zones" in third.session_state["classic_box_text"]


def test_classic_damaged_address_is_a_message_and_the_demo_opens():
    at = _app({"system": "classic", "stage": "d1.cut-short"})
    assert "could not be opened" in _sidebar(at) and "damaged" in _sidebar(at)
    assert at.session_state["classic_doc"] is not None


def test_rallye_keeps_the_stage_and_the_owners_deck_and_says_when_a_deck_is_too_large():
    at = _app({"system": "rallye"})
    at.text_input(key=f"rallye_name_{at.session_state['rallye_editor_version']}").set_value("SS9 mine").run()
    deck = copy.deepcopy(at.session_state["rallye_deck"])
    deck["title"] = "My deck"
    at.session_state["rallye_deck"] = deck
    at.run()
    params = _params(at)
    assert set(params) == {"system", "stage", "box"}
    again = _app(params)
    assert again.session_state["rallye_stage"]["stage"] == "SS9 mine"
    assert again.session_state["rallye_deck"]["title"] == "My deck"
    deck["title"] = "".join(random.Random(2).choices(string.ascii_letters, k=60_000))
    again.session_state["rallye_deck"] = deck
    again.run()
    assert "box" not in _params(again) and "stage" in _params(again)
    assert "too large to keep in the page address" in _sidebar(again)
    assert any("Download the deck" in b.label for b in again.sidebar.get("download_button"))


def test_rallye_stage_whose_deck_stayed_out_of_the_address_opens_on_the_demo_deck():
    stage = {"system": "rallye", "stage": "SS7 on my deck", "deck": "my-big-deck", "cards": [1, 2, 3]}
    at = _app({"system": "rallye", "stage": address.pack(stage)})
    assert at.session_state["rallye_stage"]["stage"] == "SS7 on my deck"
    assert "not in this address" in at.session_state["rallye_message"]
    at = _app({"system": "rallye", "stage": address.pack({**stage, "deck": "../secret"})})
    assert "could not be opened" in _sidebar(at) and at.session_state["rallye_stage"]["stage"] != "SS7 on my deck"
