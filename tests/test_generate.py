"""The stage generator: valid by construction, constraints honoured, reproducible from its seed."""
from __future__ import annotations

from dataclasses import asdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from designer.core.errors import DesignerError
from designer.systems.dirt import generate as G
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.board.validate import footprint, validate


def _numbers(stage) -> list[str]:
    return [p.tile[:3] for p in stage.tiles]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), low=st.integers(6, 12), extra=st.integers(0, 3),
       reserved=st.sets(st.sampled_from([f"{n}" for n in range(204, 233)]), max_size=6),
       assistance=st.booleans())
def test_generated_stages_validate_and_honour_the_constraints(seed, low, extra, reserved, assistance):
    spec = G.Spec(tiles=(low, low + extra), seed=seed, candidates=3, reserved=tuple(sorted(reserved)),
                  assistance=assistance, table_cm=(200, 200))
    try:
        found = G.search(spec, jobs=1, keep=3)
    except DesignerError as exc:                     # a box this reserved may leave nothing that fits: a message
        assert "candidates" in str(exc)
        return
    ts = get_tileset("dirt-core")
    for cand in found:
        stage = cand.stage
        track = assemble(stage, ts)
        assert not [p for p in validate(stage, ts, track) if p.severity == "error"]
        road = len(track.road_tiles)
        assert low <= road <= low + extra
        numbers = _numbers(stage)
        assert len(numbers) == len(set(numbers))                       # one copy of the core box: each tile once
        assert not set(numbers) & set(reserved)
        assert track.has_assistance == assistance
        fp = footprint(track, spec.tile_cm)
        assert sorted((fp.width_cm, fp.height_cm)) <= sorted((200, 200)) or max(fp.width_cm, fp.height_cm) <= 200


def test_the_same_seed_gives_the_same_stage_whatever_the_processes():
    spec = G.Spec(tiles=(9, 11), seed=42, candidates=8, difficulty="medium")
    one = G.search(spec, jobs=1, keep=3)
    two = G.search(spec, jobs=2, keep=3)
    assert [c.stage for c in one] == [c.stage for c in two]
    other = G.search(G.Spec(tiles=(9, 11), seed=43, candidates=8, difficulty="medium"), jobs=1, keep=1)
    assert other[0].stage != one[0].stage or other[0].index != one[0].index


def test_table_size_and_two_copies():
    spec = G.Spec(tiles=(12, 12), seed=5, candidates=15, table_cm=(100, 90))
    for cand in G.search(spec, jobs=1, keep=3):
        w, h = cand.figures["width_cm"], cand.figures["height_cm"]
        assert (w <= 100 and h <= 90) or (w <= 90 and h <= 100)
    two = G.search(G.Spec(tiles=(20, 20), seed=1, candidates=20, copies=(("core", 2),)), jobs=1, keep=1)[0]
    counts = {n: _numbers(two.stage).count(n) for n in _numbers(two.stage)}
    assert max(counts.values()) <= 2


def test_targets_steer_the_search():
    easy = G.search(G.Spec(tiles=(12, 12), seed=2, candidates=20, targets=(("tight_corners", None, 1),)), jobs=1)[0]
    hard = G.search(G.Spec(tiles=(12, 12), seed=2, candidates=20, targets=(("tight_corners", 6, None),)), jobs=1)[0]
    assert easy.figures["tight_corners"] < hard.figures["tight_corners"]
    assert G.score({"tight_corners": 4}, G.Spec(targets=(("tight_corners", 3, 5),))) == 0
    assert G.score({"tight_corners": 8}, G.Spec(targets=(("tight_corners", 3, 5),))) > 0


def test_a_disjoint_rally_shares_no_tile():
    rally = G.generate_rally(G.Spec(tiles=(8, 9), seed=9, candidates=6, copies=(("core", 3),)), 3, disjoint=True)
    laid: dict = {}
    for cand in rally:
        for n in _numbers(cand.stage):
            laid[n] = laid.get(n, 0) + 1
    assert max(laid.values()) <= 3                   # never more copies on the table than the boxes hold
    one = G.generate_rally(G.Spec(tiles=(8, 9), seed=9, candidates=6), 2, disjoint=False)
    assert one[0].stage != one[1].stage


@pytest.mark.parametrize("spec,message", [
    (G.Spec(tiles=(2, 2)), "not possible"),
    (G.Spec(copies=(("gt", 1),)), "unknown box"),
    (G.Spec(difficulty="insane"), "difficulty"),
    (G.Spec(targets=(("fun", 1, 2),)), "target"),
    (G.Spec(reserved=("202",)), "start"),
    (G.Spec(tiles=(40, 40), candidates=2), "candidates"),
])
def test_impossible_asks_are_messages(spec, message):
    with pytest.raises(DesignerError, match=message):
        G.search(spec, jobs=1)


def _exhaustive(spec: G.Spec, keep: int) -> list[tuple]:
    """Every candidate fully measured and ranked (score, index): what the search stands for."""
    records = G.work({"spec": asdict(spec), "indices": list(range(spec.candidates))})
    return [(r["index"], tuple(r["tiles"])) for r in sorted(records, key=lambda r: (r["score"], r["index"]))[:keep]]


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), keep=st.integers(1, 3),
       ask=st.sampled_from([(), (("tight_corners", 4, None),), (("tight_corners", None, 0),),
                            (("ideal_seconds", 40, 60), ("tight_corners", 1, 3))]),
       difficulty=st.sampled_from([None, "easy", "hard"]))
def test_stopping_early_and_bounding_give_the_stages_an_exhaustive_search_ranks_first(seed, keep, ask, difficulty):
    spec = G.Spec(tiles=(6, 8), seed=seed, candidates=8, targets=ask, difficulty=difficulty)
    want = _exhaustive(spec, keep)
    if not want:
        return
    got = G.search(spec, jobs=1, keep=keep)
    assert [(c.index, tuple(p.short() for p in c.stage.tiles)) for c in got] == want
    assert [c.score for c in got] == sorted(c.score for c in got)


def test_the_score_bound_never_exceeds_the_score():
    spec = G.Spec(targets=(("tight_corners", 3, 5), ("ideal_seconds", 50, 70)), difficulty="medium")
    for figures in ({"tight_corners": 8, "ideal_seconds": 90, "tight_per_tile": 0.7, "loss_of_control": 0.99},
                    {"tight_corners": 4, "ideal_seconds": 60, "tight_per_tile": 0.3, "loss_of_control": 0.5}):
        cheap = {k: v for k, v in figures.items() if k in G.CHEAP}
        assert G.score(cheap, spec, bound=True) <= G.score(figures, spec)
    assert G.score({}, spec, bound=True) == 0 and G.score({}, spec) == 4


def test_best_examines_every_candidate_and_prefers_the_middle_of_the_ranges():
    spec = G.Spec(tiles=(8, 10), seed=4, candidates=10, targets=(("tight_corners", 1, 5),))
    first = G.search(spec, jobs=1, keep=1)[0]
    best = G.search(spec, jobs=1, keep=1, best=True)[0]
    assert first.score == best.score == 0
    everyone = G.work({"spec": asdict(spec), "indices": list(range(spec.candidates))})
    nearest = min(G.off_centre(r["figures"], spec) for r in everyone if r["score"] == 0)
    assert G.off_centre(best.figures, spec) == nearest <= G.off_centre(first.figures, spec)
