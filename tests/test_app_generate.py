"""The Generate tab of the DIRT pages through Streamlit's own test harness: ask, get valid stages, open one."""
from __future__ import annotations

from pathlib import Path

from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.validate import validate

ROOT = Path(__file__).resolve().parent.parent
MAIN = str(ROOT / "designer" / "app" / "main.py")


def test_generate_then_open_in_the_designer():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(MAIN, default_timeout=180)
    at.run()
    at.session_state["dirt_view"] = "Generate"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.number_input(key="gen_candidates").set_value(10)
    at.number_input(key="gen_seed").set_value(5)
    at.text_input(key="gen_reserved").set_value("210 215")
    next(b for b in at.button if b.label == "Generate").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    found = at.session_state["gen_results"]
    assert found and not at.session_state["gen_error"]
    ts = get_tileset("dirt-core")
    for cand in found:
        assert not [p for p in validate(cand.stage, ts) if p.severity == "error"]
        assert not {"210", "215"} & {p.tile[:3] for p in cand.stage.tiles}
    at.button(key="gen_open_0").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [p.tile for p in at.session_state["stage"].tiles] == [p.tile for p in found[0].stage.tiles]
    assert at.session_state["dirt_view"] == "Design"


def test_impossible_asks_show_a_message():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(MAIN, default_timeout=180)
    at.run()
    at.session_state["dirt_view"] = "Generate"
    at.run()
    at.text_input(key="gen_reserved").set_value("202")
    next(b for b in at.button if b.label == "Generate").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert "start" in at.session_state["gen_error"] and any("start" in e.value for e in at.error)


def test_the_app_search_is_the_library_search_with_progress():
    """The Generate tab runs the library's search (the CLI's): the same stages in the same order whether or not a
    progress is watched, and a progress that counts up in waves, never past the candidates."""
    from designer.app.dirt.generate_view import search
    from designer.systems.dirt import generate as G

    for spec in (G.Spec(tiles=(6, 8), candidates=7, seed=3), G.Spec(tiles=(8, 12), candidates=60, seed=11),
                 G.Spec(tiles=(10, 14), candidates=40, seed=2, difficulty="hard")):
        seen = []
        mine = search(spec, keep=3, progress=lambda done, total: seen.append((done, total)))
        theirs = G.search(spec, keep=3)
        assert [(c.index, c.score, [p.tile for p in c.stage.tiles]) for c in mine] == \
            [(c.index, c.score, [p.tile for p in c.stage.tiles]) for c in theirs]
        assert seen and all(total == spec.candidates for _, total in seen)
        done = [d for d, _ in seen]
        assert done == sorted(set(done)) and done[-1] <= spec.candidates
        assert done[0] == min(4, spec.candidates)


def test_the_app_search_says_what_the_library_says():
    import pytest

    from designer.app.dirt.generate_view import search
    from designer.core.errors import DesignerError
    from designer.systems.dirt import generate as G

    with pytest.raises(DesignerError, match="start"):
        search(G.Spec(tiles=(6, 8), candidates=4, reserved=("202",)))
