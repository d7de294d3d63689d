"""The DIRT road book on faces with several roads (RX junctions and crossings) and on a tile the stage drives
twice: each pass is described from the road it drives, the tile is laid and picked once."""
import re
import shutil
import subprocess
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.systems.dirt.board.stage import Stage, load_stage
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.book.build import build_rows, pick_list, road_shape, several_roads, swaps, tile_kind
from designer.systems.dirt.book.roadbook import roadbook, stage_facts
from tests.conftest import ROOT

TWICE = ROOT / "stages/dirt/expansions/rx-crossing-twice-demo.yaml"
RX = ROOT / "stages/dirt/expansions/rx-circuit-demo.yaml"
needs_poppler = pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils is not installed")
MIRROR = {"left": "right", "right": "left"}


def _track(path):
    return stage_facts(load_stage(path), near=path.parent, lines=False).track


def _road_faces(tileset):
    """(face, entry, exit) of every road of every several-road face with cells, both ways."""
    out = []
    for face in tileset.tiles.values():
        if not face.roads:
            continue
        for road in face.road_faces():
            a, b = road.ends
            out += [(face.id, a, b), (face.id, b, a)]
    return sorted(out)


def test_each_pass_of_a_two_road_tile_is_described_from_its_own_road():
    track = _track(TWICE)
    twice = [t for t in track.tiles if t.tile == "412a"]
    assert len(twice) == 2 and twice[0].hex == twice[1].hex and twice[0].rotation == twice[1].rotation
    # The straight road first (in at the bottom, out at the top), the hairpin on the second pass.
    assert [tile_kind(t) for t in twice] == ["two roads: straight", "two roads: hairpin left"]
    rows = build_rows(track)
    first, second = (rows[t.index] for t in twice)
    assert first["again"] is None and second["again"] == twice[0].index + 1
    assert not first["either_way"]             # the second pass fixes how the tile lies
    assert "driven a second time" in second["attaches"]
    # The tile after the first pass attaches to it, by its first number.
    after = rows[twice[0].index + 1]
    assert f"tile {twice[0].index + 1} (412a)" in after["attaches"]


def test_a_tile_driven_twice_is_picked_and_counted_once():
    track = _track(TWICE)
    assert pick_list(track).count("412a") == 1
    assert len(pick_list(track)) == len(track.laid_tiles) == len(track.tiles) - 1
    facts = stage_facts(load_stage(TWICE), near=TWICE.parent, lines=False)
    assert facts.road_tiles == len({t.hex for t in track.road_tiles})


def test_the_track_lays_the_first_pass_of_each_place_and_lists_every_pass():
    track = _track(TWICE)
    twice = [t for t in track.tiles if len(track.passes(t.hex)) > 1]
    assert len(twice) == 2 and twice[0].hex == twice[1].hex and twice[0].index < twice[1].index
    laid = track.laid_tiles
    assert twice[0] in laid and twice[1] not in laid
    assert [t.index for t in laid] == sorted(t.index for t in laid)
    assert {t.hex for t in laid} == set(track.hexes())
    assert all(track.passes(t.hex) == [t] for t in track.tiles if t not in twice)
    # Swapping to the same stage changes nothing, the twice-driven tile included.
    change = swaps(track, track)
    assert sorted(change["keep"]) == sorted(pick_list(track))
    assert not (change["turn over"] or change["put away"] or change["take out"])


def test_junction_faces_are_described_by_the_road_driven():
    track = _track(RX)
    for t in track.tiles:
        kind = tile_kind(t)
        several = several_roads(t.face)
        if t.driven.role:
            continue
        if several:
            assert kind == f"{several}: {road_shape(t)}", t.tile
        assert kind != "junction" and kind != "two roads"


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_road_driven_the_other_way_turns_the_other_way(official, data):
    face_id, a, b = data.draw(st.sampled_from(_road_faces(official)))
    track = assemble(Stage(tiles=["202a A", f"{face_id} {a} {b}"]), official)
    tile = track.tiles[1]
    other = replace(tile, entry=b, exit=a)
    there, back = road_shape(tile), road_shape(other)
    word, _, side = there.partition(" ")
    assert back == (f"{word} {MIRROR[side]}" if side else there)


def test_one_road_faces_agree_with_their_printed_turn(official):
    """The edges the road joins give the turn; for every one-road curve and hairpin both ways it is the
    turn the tileset gives the face (read from the tile pictures)."""
    checked = 0
    for face in official.tiles.values():
        if face.roads or face.role or not face.cells or face.kind not in ("curve", "hairpin"):
            continue
        a, b = face.ends
        for entry, exit_, turn in ((a, b, face.turn), (b, a, MIRROR.get(face.turn, face.turn))):
            tile = assemble(Stage(tiles=["202a A", f"{face.id} {entry}"]), official).tiles[1]
            if tile.exit != exit_:
                continue
            assert road_shape(tile) == f"{face.kind} {turn}", (face.id, entry)
            checked += 1
    assert checked > 40


@needs_poppler
def test_the_book_of_a_tile_driven_twice(tmp_path):
    out = tmp_path / "twice.pdf"
    roadbook(TWICE, out)
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert re.search(r"Pick list \(9\):\s+202a 203a 206a 211b 222b 225b 227a 231b 412a\n", text)
    assert "already laid as tile 2" in text and "9 road tiles" in text
    assert "two roads: straight" in text and "two roads: hairpin left" in text
    assert not re.search(r"\b(junction|two roads)\s{2,}", text)      # never the face's kind alone


# -- where the time goes, tile by tile ------------------------------------------------------------------

def test_ideal_seconds_by_tile_add_up_to_the_ideal_time(dirt):
    from designer.systems.dirt.board.stage import load_rally
    from designer.systems.dirt.book.notes import ideal_by_tile

    for stage in load_rally(ROOT / "stages/dirt/rally-1/rally.yaml").stages:
        facts = stage_facts(stage, near=ROOT / "stages/dirt/rally-1")
        line = facts.fastest
        by_tile = ideal_by_tile(facts.track, line)
        assert by_tile and sum(by_tile.values()) == pytest.approx(sum(t.seconds for t in line.turns))
        assert sum(by_tile.values()) == pytest.approx(line.game_seconds)
        assert set(by_tile) <= {t.index for t in facts.track.tiles}


@needs_poppler
def test_expected_seconds_by_tile_beside_the_ideal(tmp_path, dirt):
    """A short stage solved under the dice: the pace notes print each tile's expected seconds (the solver's own
    split of the expected time) beside its ideal seconds."""
    from designer.systems.dirt.analysis import analyze
    from designer.systems.dirt.book.roadbook import stage_roadbook

    stage = Stage(name="Demo short stage", tiles=["202a A", "227a B", "205a A", "203a A"])
    result = analyze(assemble(stage, dirt), players=4, expected=True)
    tiles = {row["index"]: row["expected_seconds"] for row in result["expected"]["tiles"]}
    # The time cards of the turns, tile by tile; the seconds tokens kept to the finish come off the total.
    assert sum(tiles.values()) >= result["expected"]["seconds"] - 0.05
    out = tmp_path / "short.pdf"
    stage_roadbook(stage, out, analysis=result)
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True,
                          check=True).stdout
    notes = text[text.index("Pace notes"):text.index("Line and times")]
    assert re.search(r"Ideal s\s+Exp\. s", notes)
    printed = {}
    for m in re.finditer(r"^\s*\d+\s+\+\d+\s+(\d+)\s+\d{3}[ab]\b.*?\s([\d.]+)\s*$", notes, re.M):
        printed[int(m.group(1)) - 1] = float(m.group(2))
    shown = {i: s for i, s in tiles.items() if i in printed}
    assert shown and all(printed[i] == pytest.approx(s, abs=0.051) for i, s in shown.items())


def test_the_rally_needs_each_physical_tile_once_whatever_face_is_up():
    from designer.systems.dirt.board.stage import load_rally
    from designer.systems.dirt.book.rally import rally_tiles

    folder = ROOT / "stages/dirt/rally-1"
    facts = [stage_facts(s, near=folder, lines=False) for s in load_rally(folder / "rally.yaml").stages]
    need, faces = rally_tiles(facts)
    assert need["202"] == 1 and faces["202"] == ["a", "b"]          # turned over between SS2 and SS3
    assert list(need) == sorted(need, key=int)
    for f in facts:
        for face in set(pick_list(f.track)):
            number = face[:3]
            assert face[3:] in faces[number]
            assert sum(1 for x in pick_list(f.track) if x[:3] == number) <= need[number]


# -- tokens on the build sheet --------------------------------------------------------------------------

def test_every_token_is_on_its_tiles_card_with_its_place():
    from designer.systems.dirt.book.build import token_count, token_lines

    path = ROOT / "stages/dirt/expansions/tokens-demo.yaml"
    stage = load_stage(path)
    track = _track(path)
    lines = token_lines(track)
    laid = {t.index: len(t.tokens) for t in track.tiles if t.tokens}
    assert {i: len(v) for i, v in lines.items()} == laid
    assert sum(token_count(track).values()) == sum(len(t.tokens) for t in stage.tiles if hasattr(t, "tokens"))
    assert token_count(track, lines) == token_count(track)
    for text in (x for v in lines.values() for x in v):
        assert re.search(r": (left|right) lane, space \d of \d$", text), text
    # The chicane closes its space (no car may stop there), the book still says where it goes.
    chicane = [x for x in lines[1] if x.startswith("chicane (")]
    assert chicane and "left lane, space 1 of 3" in chicane[0]


def test_space_words_agree_with_the_line_table(dirt):
    """The build sheet's place of a space (read from the face) is the line table's (read from the graph)."""
    from designer.systems.dirt.book.build import _space_words
    from designer.systems.dirt.book.line import cell_words
    from tests.conftest import STAGE_FILES

    checked = 0
    for path in STAGE_FILES[:12]:
        track = assemble(load_stage(path), dirt)
        tiles = {t.index: t for t in track.tiles}
        for node, d in track.graph.nodes(data=True):
            if d.get("slide") or d.get("cut") is not None or d.get("width", 1) > 1:
                continue
            tile = tiles[d["index"]]
            if tile.node_index is not None or tile.driven.lanes > 3:
                continue
            ours = _space_words(tile, d["cell"])
            theirs = cell_words(track, node).split(": ", 1)[1].split(", limit")[0].split(" (")[0]
            theirs = theirs.split(", just past")[0]
            assert ours == theirs, (path.name, node)
            checked += 1
    assert checked > 200


@needs_poppler
def test_a_circuit_counts_its_first_tile_once(tmp_path):
    """On a circuit the first tile comes back as the finish: its line figures print once, so the ideal seconds
    of the pace notes still add up to the ideal time."""
    path = ROOT / "stages/dirt/expansions/ice-circuit-demo.yaml"
    out = tmp_path / "ice.pdf"
    roadbook(path, out)
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True,
                          check=True).stdout
    notes = text[text.index("Pace notes"):text.index("Line and times")]
    column = [float(m.group(1)) for m in re.finditer(r"\d(?:→ ?\d)*→?\s{2,}(\d+(?:\.\d)?)\s*$", notes, re.M)]
    facts = stage_facts(load_stage(path), near=path.parent)
    assert column and sum(column) == pytest.approx(facts.fastest.game_seconds)
    first = facts.track.tiles[0].tile
    rows = re.findall(rf"^\s*\d+\s+\+\d+\s+1\s+{first}\b.*$", notes, re.M)
    assert len(rows) == 2 and "→" in rows[0] and "→" not in rows[1]
