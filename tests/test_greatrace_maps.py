"""The Great Race maps without a browser: the clickable map's scale, what a click can lay on, the drawings'
width (title and legend inside the picture)."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from designer.app.greatrace import hexmap
from designer.systems.greatrace.book.draw import PAD, board_svg, text_width
from designer.systems.greatrace.files import edit
from designer.systems.greatrace.files.board import board_from_data


@settings(max_examples=40, deadline=None)
@given(cols=st.integers(1, 26), rows=st.integers(1, 40), max_width=st.integers(200, 1200),
       max_height=st.integers(200, 900))
def test_the_map_has_one_scale_both_ways(cols, rows, max_width, max_height):
    points = hexmap.editor_points(edit.new_board("b", cols, rows))
    lay = hexmap.layout(points, max_width, max_height)
    across = lay["width"] / (lay["x_domain"][1] - lay["x_domain"][0])
    down = lay["height"] / (lay["y_domain"][1] - lay["y_domain"][0])
    assert abs(across - down) < 1e-6 and hexmap.MIN_PPU - 1e-9 <= across <= hexmap.MAX_PPU + 1e-9
    if across > hexmap.MIN_PPU:
        assert lay["width"] <= max_width + 1 and lay["height"] <= max_height + 1
    for p in points:                  # every hex inside the domains
        assert lay["x_domain"][0] + 0.9 < p["x"] < lay["x_domain"][1] - 0.9
        assert lay["y_domain"][0] + 0.8 < p["y"] < lay["y_domain"][1] - 0.8


def test_the_race_map_knows_cities_laid_tiles_and_unused_median_slots():
    data = edit.new_board("b", 5, 3)
    data = edit.paint(data, ["A1"], "purple city", "West")
    data = edit.paint(data, ["E3"], "purple city", "East")
    data = edit.paint(data, ["C2"], "median slot", "Mid")
    data = edit.paint(data, ["B3"], "off")
    data = edit.paint(data, ["D1"], "risk")
    points = {p["hex"]: p for p in hexmap.race_points(data, {"laid": {"B1": "plain", "D1": "plain"}})}
    assert "B3" not in points                                   # off the board
    assert points["A1"]["kind"] == "purple city" and points["C2"]["kind"] == "open space"
    assert points["B1"]["kind"] == "laid: plain" and "1 fuel" in points["B1"]["tip"]
    assert "risk zone +1 fuel" in points["D1"]["tip"] and points["D1"]["ink"] == "white"
    with_median = {p["hex"]: p for p in hexmap.race_points(data, {"median": "Mid"})}
    assert with_median["C2"]["kind"] == "purple city"
    colours = hexmap.race_colours(data, list(points.values()))
    assert colours["laid: plain"].startswith("#")


def test_a_click_is_read_from_every_shape_of_selection():
    assert hexmap.hex_from_event({"selection": {hexmap.PARAM: [{"hex": "C4"}]}}) == "C4"
    assert hexmap.hex_from_event({"selection": {hexmap.PARAM: {"hex": ["D2"]}}}) == "D2"
    assert hexmap.hex_from_event({"selection": {hexmap.PARAM: []}}) is None
    assert hexmap.hex_from_event({"selection": {}}) is None and hexmap.hex_from_event(None) is None


def test_the_chart_selects_hexes_on_its_top_layer():
    points = hexmap.editor_points(edit.new_board("b", 3, 2))
    spec = hexmap.chart(points, hexmap.EDITOR_COLOURS, picked="B1")
    top = spec["layer"][-1]
    assert top["params"][0]["name"] == hexmap.PARAM and top["params"][0]["select"]["fields"] == ["hex"]
    picked = [r for r in spec["datasets"]["hexes"] if r["stroke"] != "rgba(0,0,0,0)"]
    assert [r["hex"] for r in picked] == ["B1"]
    assert spec["width"] == hexmap.layout(points)["width"]


def _legend_and_title_fit(svg: str) -> None:
    width = float(re.search(r'<svg [^>]*width="([\d.]+)"', svg).group(1))
    height = float(re.search(r'<svg [^>]*height="([\d.]+)"', svg).group(1))
    title = re.search(r'<text x="[\d.]+" y="22" font-size="15" font-weight="bold">([^<]*)</text>', svg)
    if title:
        assert PAD + text_width(title.group(1), 15, bold=True) <= width
    legend = svg[svg.index('<g font-size="9">'):]
    for x, y, words in re.findall(r'<text x="([\d.]+)" y="([\d.]+)">([^<]*)</text>', legend):
        assert float(x) + text_width(words, 9) <= width + 0.5, words
        assert float(y) <= height


def test_small_boards_draw_their_whole_title_and_legend():
    for cols, rows in ((2, 1), (4, 3), (8, 6)):
        data = edit.paint(edit.new_board("a-board-with-a-long-name", cols, rows), ["A1"], "purple city", "West")
        board = board_from_data(data, {}, "t")
        svg = board_svg(board, title="A race with a long title · West → East on a small board",
                        routes={"fastest": [(0, 0)], "cheapest": [(0, 0)], "shortest": [(0, 0)]})
        _legend_and_title_fit(svg)
