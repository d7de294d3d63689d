"""The classic stage form sets every option of a stage (players, leader, Big Attack, split points) and builds
a rally stage by stage, through Streamlit's AppTest."""
from streamlit.testing.v1 import AppTest


def one_stage_pages():
    from designer.app.classic.state import K, open_path, ss
    from designer.core import paths
    from tests.test_classic_app import classic_pages

    if K + "doc" not in ss:
        open_path(paths.STAGES / "classic" / "es1-demo.yaml")
    classic_pages()


def test_the_stage_form_sets_every_option_and_builds_a_rally():
    at = AppTest.from_function(one_stage_pages, default_timeout=180).run()
    assert not at.exception, at.exception
    assert not at.session_state["classic_doc"].__class__.__name__ == "Rally"
    next(n for n in at.number_input if n.label == "Players").set_value(3)
    next(c for c in at.checkbox if c.label.startswith("Opens the road")).check()
    next(c for c in at.checkbox if c.label.startswith("Big Attack")).check()
    next(c for c in at.checkbox if c.label.startswith("Assistance")).uncheck()
    next(t for t in at.text_input if t.label.startswith("Split points")).set_value("1:E2")
    next(b for b in at.button if b.label == "Apply").click()
    at.run()
    assert not at.exception, at.exception
    stage = at.session_state["classic_doc"]
    assert (stage.players, stage.leader, stage.big_attack, stage.splits, stage.assistance) == \
        (3, True, True, [(0, "E2")], False)
    next(b for b in at.button if b.label.startswith("Add a stage")).click()
    at.run()
    assert not at.exception, at.exception
    rally = at.session_state["classic_doc"]
    assert len(rally.stages) == 2 and rally.stages[1].carried_from is rally.stages[0]   # no assistance between
    assert at.session_state["classic_stage_index"] == 1
