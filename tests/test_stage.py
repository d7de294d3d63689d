import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.core.errors import DesignerError, SchemaError
from designer.systems.dirt.board.stage import (Stage, dumps_stage, from_share_code, load_rally, load_stage, loads_stage,
                                               share_code)
from tests.conftest import ROOT, STAGE_FILES

faces = st.from_regex(r"2[0-3][0-9][ab]", fullmatch=True)
edges = st.sampled_from(list("ABCDEF"))
placements = st.one_of(
    st.builds(lambda t, e: f"{t} {e}", faces, edges),
    st.builds(lambda t, e, x: {"tile": t, "entry": e, "exit": x}, faces, edges, edges),
    st.builds(lambda t, q, r, k: {"tile": t, "at": (q, r), "rotation": k}, faces,
              st.integers(-9, 9), st.integers(-9, 9), st.integers(0, 5)),
)
names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=30)
stages = st.builds(
    lambda name, tiles, players, rally, assist, canon: Stage(
        name=name, tiles=tiles, players=players, options={"canon_start": canon},
        rally={"name": rally, "number": 2, "assistance_after": assist} if rally else None),
    names, st.lists(placements, max_size=20), st.one_of(st.none(), st.integers(1, 6)),
    st.one_of(st.none(), names), st.booleans(), st.booleans())


@settings(max_examples=150)
@given(stages)
def test_share_code_round_trips(stage):
    code = share_code(stage)
    assert "\n" not in code and " " not in code
    assert from_share_code(code) == stage


@settings(max_examples=150)
@given(stages)
def test_yaml_round_trips(stage):
    assert loads_stage(dumps_stage(stage)) == stage


def test_short_forms():
    s = Stage(tiles=["210b C", "210bC", "415a B D", "210b(C->D)", {"tile": "227A", "entry": "d"}])
    assert [p.entry for p in s.tiles] == ["C", "C", "B", "C", "D"]
    assert s.tiles[2].exit == "D" and s.tiles[4].tile == "227a"


def test_rulebook_stages_load():
    assert len(STAGE_FILES) == 18
    for f in STAGE_FILES:
        s = load_stage(f)
        assert s.tiles[0].tile.startswith("202")
        assert s.rally and s.rally.name


def test_rallies_group_the_stages():
    for n in range(1, 7):
        r = load_rally(ROOT / "stages" / "dirt" / f"rally-{n}" / "rally.yaml")
        assert [s.rally.number for s in r.stages] == [1, 2, 3]


def test_schema_errors_are_all_reported_with_lines(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("stage: x\nplayers: 9\ntiles:\n  - 202a A\n  - {tile: 205a, entry: Q}\nfoo: 1\n")
    with pytest.raises(SchemaError) as exc:
        load_stage(p)
    text = str(exc.value)
    assert f"{p}:2: players" in text
    assert f"{p}:5: tiles[1].entry" in text
    assert "foo" in text


def test_bad_share_codes():
    for code in ("", "hello", "RD1/dirt-core/202aA.zzz", "RD1"):
        with pytest.raises(DesignerError):
            from_share_code(code)


def test_not_a_mapping(tmp_path):
    p = tmp_path / "list.yaml"
    p.write_text("- 202a A\n")
    with pytest.raises(DesignerError, match="YAML mapping"):
        load_stage(p)


def test_unknown_key_or_option_gets_a_hint_about_keys_not_tiles():
    from designer.core.errors import DesignerError
    from designer.systems.dirt.board.stage import loads_stage
    with pytest.raises(DesignerError) as exc:
        loads_stage("stage: x\nlapz: 2\ntiles: [202a A, 203a A]\n")
    assert "laps" in exc.value.hint and "FACE EDGE" not in exc.value.hint
    with pytest.raises(DesignerError) as exc:
        loads_stage("stage: x\noptions: {leader: no}\ntiles: [202a A, 203a A]\n")
    assert "leader_dice" in exc.value.hint and "FACE EDGE" not in exc.value.hint
    with pytest.raises(DesignerError) as exc:
        loads_stage("stage: x\ntiles: [202a A, 7]\n")
    assert "FACE EDGE" in exc.value.hint
