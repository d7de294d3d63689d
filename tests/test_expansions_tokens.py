"""Tokens: read from .rgt and rekee files, kept on the stage, written back, and acting on the cells."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.core.errors import DesignerError
from designer.systems.dirt.board.stage import Stage, dumps_stage, loads_stage
from designer.systems.dirt.board.tokens import KINDS, Token, add_token, cells_for_tokens, remove_token, token_kinds
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.board.validate import validate
from designer.systems.dirt.driving.lines import fastest_line
from designer.systems.dirt.io import export_stage, import_file
from designer.systems.dirt.io import tokens as T
from designer.systems.dirt.io.rekee import export_rekee, import_rekee
from designer.systems.dirt.io.rgt import export_rgt, import_rgt

# A hand-made layout in the official editor's format: the start tile and a straight carrying one token of
# each terrain-printed kind, and a Climb marker and an RX arch on the finish.
RGT = {
    "Name": "Token test", "Author": "Test Author", "Orientation": "flat",
    "Tuiles": [
        {"X": 55, "Y": 52, "Orientation": 5, "TuileId": "202A"},
        {"X": 55, "Y": 53, "Orientation": 5, "TuileId": "205A", "Tokens": [
            {"X": 0.0, "Y": 0.0, "Orientation": 180.0, "TokenId": "dirt1"},
            {"X": -0.5715768, "Y": 0.0, "Orientation": 0.0, "TokenId": "asphalt2"},
            {"X": 0.5, "Y": 0.12, "Orientation": 60.0, "TokenId": "ice3"}]},
        {"X": 54, "Y": 54, "Orientation": 5, "TuileId": "204A", "Tokens": [
            {"X": 0.3, "Y": -0.12, "Orientation": 0.0, "TokenId": "dirt4"}]},
        {"X": 54, "Y": 55, "Orientation": 5, "TuileId": "203A", "Tokens": [
            {"X": 0.0, "Y": 0.0, "Orientation": 0.0, "TokenId": "climbm1"},
            {"X": 0.1, "Y": 0.0, "Orientation": 0.0, "TokenId": "whitedoor"},
            {"X": 0.0, "Y": 0.0, "Orientation": 0.0, "TokenId": "mystery9"}]},
    ],
}


def _tokens(stage):
    return [(i, t.kind, t.terrain) for i, p in enumerate(stage.tiles) for t in p.tokens]


def test_rgt_tokens_are_read_onto_their_tiles(official):
    stage = import_rgt(json.dumps(RGT), official)
    assert _tokens(stage) == [(1, "chicane-limit", "gravel"), (1, "chicane", "asphalt"), (1, "water", "snow"),
                              (2, "jump", "gravel"), (3, "climb-ascent", None), (3, "finish", None)]
    chicane = stage.tiles[1].tokens[1]
    assert chicane.at == (0.0, -0.5716) and chicane.dir == 0
    assert stage.tiles[1].tokens[0].dir == 3
    # The one id nobody knows is not lost: the notes list it and validation shows it.
    assert "mystery9" in stage.notes
    unread = [p for p in validate(stage, official) if p.code == "tokens-unread"]
    assert unread and "mystery9" in unread[0].message


def test_rgt_round_trip_keeps_every_token(official):
    stage = import_rgt(json.dumps(RGT), official)
    out = json.loads(export_rgt(stage, official))
    ids = [tok["TokenId"] for t in out["Tuiles"] for tok in t.get("Tokens", [])]
    assert ids == ["dirt1", "asphalt2", "ice3", "dirt4", "climbm1", "whitedoor"]
    again = import_rgt(json.dumps(out), official)
    assert [p.tokens for p in again.tiles] == [p.tokens for p in stage.tiles]


def test_rekee_round_trip_and_agreement_with_rgt(official):
    stage = import_rgt(json.dumps(RGT), official)
    text = export_rekee(stage, official)
    data = json.loads(text)
    ids = [tok["id"] for t in data["tiles"] for tok in t.get("tokens", [])]
    assert ids == ["chicane-limit-gravel", "chicane-asphalt", "water-snow", "jump-gravel", "climb-ascent", "finish"]
    # rekee's own example: the chicane 0.33 of a hex step towards edge A is the .rgt's X = -0.5716.
    chicane = data["tiles"][1]["tokens"][1]
    assert chicane["q"] == pytest.approx(0.33, abs=1e-3) and chicane["r"] == pytest.approx(0.0, abs=1e-4)
    again = import_rekee(text, official)
    for p, q in zip(stage.tiles, again.tiles):
        assert [(t.kind, t.terrain, t.dir) for t in p.tokens] == [(t.kind, t.terrain, t.dir) for t in q.tokens]
        for a, b in zip(p.tokens, q.tokens):
            assert a.at == pytest.approx(b.at, abs=1e-3)


@settings(max_examples=60, deadline=None)
@given(st.floats(-0.9, 0.9), st.floats(-0.9, 0.9), st.integers(0, 5))
def test_token_position_survives_both_formats(x, y, turn):
    tok = Token(kind="water", terrain="gravel", at=(round(x, 4), round(y, 4)), dir=turn)
    back = T.from_rgt(T.to_rgt(tok, tok.at, "gravel"))
    assert back.at == pytest.approx(tok.at, abs=1e-3) and back.dir == pytest.approx(turn)
    back = T.from_rekee(T.to_rekee(tok, tok.at))
    assert back.at == pytest.approx(tok.at, abs=1e-3) and back.kind == "water"


def test_yaml_keeps_tokens(official):
    stage = import_rgt(json.dumps(RGT), official)
    again = loads_stage(dumps_stage(stage))
    assert [p.tokens for p in again.tiles] == [p.tokens for p in stage.tiles]
    content, name, _ = export_stage(stage, "yaml")
    assert import_file(name, content).tiles == stage.tiles


def test_tokens_act_on_their_cells(dirt):
    plain = Stage(tiles=["202a A", "205a D", "203a A"])
    base = assemble(plain, dirt).graph
    cells = [c for c in cells_for_tokens(plain, 1, dirt)]
    assert cells
    stage = add_token(plain, 1, "water", cell=cells[0])
    stage = add_token(stage, 1, "chicane-limit", cell=cells[1], value=1)
    stage = add_token(stage, 1, "jump", cell=cells[2])
    stage = add_token(stage, 1, "chicane", cell=cells[3])
    g = assemble(stage, dirt).graph
    assert g.nodes[f"1:{cells[0]}"]["ford"] and not base.nodes[f"1:{cells[0]}"]["ford"]
    assert g.nodes[f"1:{cells[1]}"]["limit"] == 1
    assert g.nodes[f"1:{cells[2]}"]["jump"] == 3          # the default value of tilesets/dirt-token-rules.yaml
    assert f"1:{cells[3]}" not in g and f"1:{cells[3]}" in base
    log = {e["kind"]: e["cell"] for e in g.graph["tokens"]}
    assert log["water"] == cells[0]
    # Removing them gives the plain stage back.
    for _ in range(4):
        stage = remove_token(stage, 1, 0)
    assert stage == plain


def test_a_chicane_limit_slows_the_fastest_line(dirt):
    plain = Stage(tiles=["202a A", "205a D", "207a A", "203a A"])
    fast = fastest_line(assemble(plain, dirt))
    slowed = plain
    for cell in cells_for_tokens(plain, 2, dirt):
        slowed = add_token(slowed, 2, "chicane-limit", cell=cell, value=1)
    slow = fastest_line(assemble(slowed, dirt))
    assert slow.seconds > fast.seconds


def test_tokens_off_the_road_and_without_effect_are_reported(dirt):
    stage = add_token(Stage(tiles=["202a A", "205a D", "203a A"]), 2, "finish")
    codes = {p.code for p in validate(stage, dirt)}
    assert "token-not-modelled" in codes
    off = add_token(Stage(tiles=["202a A", "205a D", "203a A"]), 1, "water", at=(0.85, 0.0))
    assert "token-off-road" in {p.code for p in validate(off, dirt)}


def test_token_editing_errors_are_clear():
    stage = Stage(tiles=["202a A", "203a A"])
    with pytest.raises(DesignerError, match="no tile 5"):
        add_token(stage, 4, "water")
    with pytest.raises(DesignerError, match="no token 1"):
        remove_token(stage, 0, 0)
    with pytest.raises(ValueError):
        add_token(stage, 0, "banana")
    kinds = [k for k, _label, _what in token_kinds()]
    assert kinds == list(KINDS)


def test_share_code_keeps_tokens():
    from designer.systems.dirt.board.stage import from_share_code, share_code

    stage = add_token(Stage(tiles=["202a A", "205a D", "203a A"]), 1, "water", cell="a2", terrain="gravel")
    stage = add_token(stage, 1, "chicane-limit", at=(0.1, -0.2), value=2, dir=1.5)
    assert from_share_code(share_code(stage)) == stage
    broken = share_code(stage).replace("tok.1=%5B", "tok.1=%5D")
    with pytest.raises(DesignerError, match="tokens of tile 2"):
        from_share_code(broken)


def test_a_token_on_a_tile_driven_twice_acts_once_and_is_not_off_road(official):
    from designer.systems.dirt.board.stage import load_stage
    from tests.conftest import ROOT

    stage = load_stage(ROOT / "stages" / "dirt" / "expansions" / "rx-crossing-twice-demo.yaml")
    straight = cells_for_tokens(stage, 1, official)          # 412a's straight B-E, driven first
    stage = add_token(stage, 1, "water", cell=straight[0])
    problems = [p.code for p in validate(stage, official)]
    assert "token-off-road" not in problems
    g = assemble(stage, official).graph
    assert g.nodes[f"1:{straight[0]}"]["ford"]


# The twelve kinds rekee offers (its token list, src/token.rs) and the ids of the official editor (.rgt).
REKEE_IDS = ["chicane", "chicane-limit", "jump", "water", "climb-ascent", "climb-descent", "cloud", "oxygen-2",
             "joker-entrance", "joker-exit", "finish", "mud-spray"]
RGT_IDS = [f"{t}{n}" for t in ("asphalt", "dirt", "ice") for n in "1234"] + [
    "climbm1", "climbp1", "climbw", "climbr1", "climbr2", "climbr3", "greendoor", "reddoor", "whitedoor"]


def test_every_rekee_and_official_editor_token_is_read_drawn_and_written_back():
    from designer.systems.dirt.board.render import stage_svg
    from designer.systems.dirt.board.tileset import get_tileset

    official = get_tileset("official")
    data = {"title": "All tokens", "tiles": [{"q": 0, "r": 0, "id": "202a", "dir": 0},
                                             {"q": 0, "r": -1, "id": "205a", "dir": 0, "tokens": [
                                                 {"id": k, "q": 0.0, "r": 0.0, "dir": 0} for k in REKEE_IDS]},
                                             {"q": 0, "r": -2, "id": "203a", "dir": 0}]}
    stage = import_rekee(json.dumps(data), official)
    kinds = sorted(t.kind for p in stage.tiles for t in p.tokens)
    assert len(kinds) == 12 and set(kinds) == set(KINDS)
    svg = stage_svg(assemble(stage, official))
    assert svg.count("<circle") >= 12 and "mud spray" in svg
    again = import_rekee(export_rekee(stage, official), official)
    assert sorted(t.kind for p in again.tiles for t in p.tokens) == kinds
    for tid in RGT_IDS:
        assert T.from_rgt({"TokenId": tid, "X": 0.0, "Y": 0.0}) is not None, tid
    rgt = json.loads(export_rgt(stage, official))
    written = [t["TokenId"] for row in rgt["Tuiles"] for t in row.get("Tokens", [])]
    assert len(written) == 11 and "mud-spray" in rgt["Notes"]      # the official editor has no mud spray


def test_every_kind_has_a_documented_effect_with_status():
    from designer.systems.dirt.board.tokens import token_rules

    for kind, rule in token_rules().items():
        assert rule["status"] in ("rulebook", "reference", "assumed", "decided") and rule["source"], kind


def test_mud_spray_takes_one_off_every_corner_space_of_its_tile():
    stage = loads_stage("stage: m\ntiles: [202a A, 210b C, 205a D, 203a A]\n")
    plain = assemble(stage, _ts(stage))
    sprayed = assemble(add_token(stage, 1, "mud-spray", at=(0.0, 0.0)), _ts(stage))
    before = {n: d["limit"] for n, d in plain.graph.nodes(data=True) if n.startswith("1:") and d.get("corner")}
    after = {n: d["limit"] for n, d in sprayed.graph.nodes(data=True)}
    assert before
    for n, limit in before.items():
        assert (n not in after and limit == 1) or after[n] == limit - 1
    cuts = {n: d["limit"] for n, d in plain.graph.nodes(data=True) if d.get("cut")}
    assert all(sprayed.graph.nodes[n]["limit"] == v for n, v in cuts.items() if n in sprayed.graph)
    assert fastest_line(sprayed).seconds >= fastest_line(plain).seconds


def _ts(stage):
    from designer.systems.dirt.board.tileset import get_tileset
    return get_tileset(stage.tileset)
