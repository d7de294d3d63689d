"""The map editor of The Great Race pages: name the board, click hexes (or name them) to paint cities, risk zones
and off-board hexes, edit the cities, transport lines and bag as tables, see the problems at once, download the
YAML."""
from __future__ import annotations

import functools

import streamlit as st

from designer.app.greatrace import hexmap
from designer.app.greatrace.state import K, current_race, doc, ss, svg_image, tag
from designer.app.tables import editable
from designer.core import offered
from designer.core.errors import DesignerError
from designer.systems.greatrace.files import edit
from designer.systems.greatrace.files.board import board_from_data
from designer.systems.greatrace.book.draw import board_svg
from designer.systems.greatrace.driving.validate import validate_board, validate_race

def _kinds(data: dict) -> dict[str, str]:
    """Each painted hex and what it is (the map's key changes with it, so a click on a repainted map counts)."""
    return {p["hex"]: p["kind"] for p in hexmap.editor_points(data) if p["kind"] != "open"}


def _on_map(key: str) -> None:
    """A hex of the map was clicked: paint it as the Paint choice says, or take it as an end of a line."""
    h = hexmap.hex_from_event(ss.get(key))
    if h is None:
        return
    mode = ss.get(K + "paint_mode") or edit.MODES[0]
    name, fare = ss.get(K + "paint_name") or "", ss.get(K + "paint_fare") or 0
    if mode in edit.LINE_MODES:
        first = ss.get(K + "line_from")
        if not first:
            ss[K + "line_from"] = h
            return
        ss.pop(K + "line_from", None)
        if first != h:
            _apply([first, h], mode, name, fare)
        return
    ss.pop(K + "line_from", None)
    _apply([h], mode, name, fare)


def _on_name(part: str) -> None:
    """The board's name or title typed: kept when it is a plain name (the race follows its board's name)."""
    key = f"{K}board_{part}_{doc()}"
    value = str(ss.get(key, "")).strip()
    if not value or not offered.is_plain(value):
        ss[K + "name_error"] = (f"'{value}' cannot be the board's {part}: write letters, digits, spaces or - _ . + "
                                "(no folder)" if value else f"the board needs a {part}")
        return
    data = dict(ss[K + "board"])
    old = data.get("board")
    data["board" if part == "name" else "title"] = value
    ss[K + "board"] = data
    if part == "name" and (ss.get(K + "race") or {}).get("board") == old:
        ss[K + "race"] = {**ss[K + "race"], "board": value}
    ss[K + "result"] = None


def _apply(hexes: list[str], mode: str, city_name: str, fare: int) -> None:
    """Paint hexes, or join two cities with a line; a mistake is shown, the board kept as it was."""
    data = ss[K + "board"]
    try:
        if mode in edit.LINE_MODES:
            if len(hexes) != 2:
                raise ValueError("a transport line needs two city hexes, like A6 E10")
            data = edit.add_transport(data, hexes[0], hexes[1], mode.split()[0], int(fare))
        else:
            data = edit.paint(data, hexes, mode, city_name or None)
    except ValueError as exc:
        ss[K + "paint_error"] = str(exc)
        return
    ss[K + "board"] = data
    ss[K + "result"] = None


FLAGS = {"cities": ("purple", "median"), "bag": ("danger", "stop")}


def _rows(part: str, items: list[dict]) -> list[dict]:
    """A table's rows, its yes/no columns as ticks (a flag the file leaves out is not ticked)."""
    flags = FLAGS.get(part, ())
    return [{**r, **{f: bool(r.get(f)) for f in flags}} for r in items or []]


def _table(data: dict, part: str, columns: list[str], **options) -> dict:
    """The board with its ``part`` (cities, transport, bag) as edited in its table."""
    config = {f: st.column_config.CheckboxColumn() for f in FLAGS.get(part, ())}
    config.update(options.pop("column_config", {}))
    rows = editable(f"{K}{part}_table", doc(), data.get(part, []), columns, to_rows=lambda s: _rows(part, s),
                    from_rows=lambda rows: edit.set_table(data, part, rows)[part], column_config=config, **options)
    return {**data, part: rows}


def editor_tab() -> None:
    data = ss[K + "board"]
    n1, n2 = st.columns([1, 2])
    n1.text_input("Board name", value=str(data.get("board", "")), key=f"{K}board_name_{doc()}",
                  on_change=_on_name, args=("name",), help="the name a race gives to race on this board")
    n2.text_input("Board title", value=str(data.get("title", data.get("board", ""))), key=f"{K}board_title_{doc()}",
                  on_change=_on_name, args=("title",))
    if ss.get(K + "name_error"):
        st.error(ss.pop(K + "name_error"))
    st.markdown("Paint hexes: choose what a hex becomes, then click hexes on the map (or name them and press "
                "Apply). For a transport line, click its two cities one after the other.")
    c1, c2, c3, c4 = st.columns([3, 2, 1, 1])
    mode = c1.radio("Paint", edit.MODES + edit.LINE_MODES, horizontal=True, key=K + "paint_mode")
    city_name = c2.text_input("City name (for one hex)", key=K + "paint_name")
    fare = c3.number_input("Fare (F)", 0, 1000, 50, step=10, key=K + "paint_fare")
    named = c4.text_input("Hexes (e.g. C4 D5)", key=K + "paint_hexes")
    if st.button("Apply", key=K + "paint_apply") and named.strip():
        _apply(named.replace(",", " ").split(), mode, city_name, fare)
        data = ss[K + "board"]
    pending = ss.get(K + "line_from")
    if mode in edit.LINE_MODES and pending:
        st.caption(f"line from {pending}: click the other city")
    points = hexmap.editor_points(data)
    key = K + "hex_map_" + tag((_kinds(data), pending))
    with st.container(key=K + "hex_map_box"):
        st.vega_lite_chart(spec=hexmap.chart(points, hexmap.EDITOR_COLOURS, picked=pending), key=key,
                           on_select=functools.partial(_on_map, key), selection_mode=hexmap.PARAM, theme=None,
                           width="content")
    if ss.get(K + "paint_error"):
        st.error(ss.pop(K + "paint_error"))
    data = ss[K + "board"]
    st.markdown("**Cities**")
    new = _table(data, "cities", ["name", "at", "cards", "purple", "median"])
    st.markdown("**Transport lines**")
    new = _table(new, "transport", ["from", "to", "mode", "fare"],
                 column_config={"mode": st.column_config.SelectboxColumn(options=["sea", "air"])})
    st.markdown("**The bag of terrain tiles**")
    new = _table(new, "bag", ["terrain", "count", "fuel", "mech", "danger", "stop"])
    width = st.number_input("Progression bands: columns per band", 1, 26, 2, key=K + "band_width")
    if st.button("Set the bands", key=K + "bands_apply"):
        new = edit.bands_every(new, width)
    if new != data:
        ss[K + "board"] = data = new
        ss[K + "result"] = None
    st.subheader("Checks")
    try:
        board = board_from_data(data, {}, "board in the editor", rules=ss.get(K + "board_rules"))
    except DesignerError as exc:
        st.error(str(exc))
        board = None
    if board is not None:
        problems = validate_board(board)
        try:
            problems = validate_race(current_race(), board)   # the board's checks and the race's on it
        except DesignerError:
            pass
        for p in problems:
            (st.error if p.severity == "error" else st.warning if p.severity == "warning" else st.caption)(
                f"**{p.code}** · {p.message}" + (f" — {p.hint}" if p.hint else ""))
        if not any(p.severity == "error" for p in problems):
            st.success(f"The board is valid: {len(board.cities)} {'city' if len(board.cities) == 1 else 'cities'}, "
                       f"{board.bag_size()} {'tile' if board.bag_size() == 1 else 'tiles'} in the bag.")
        svg_image(board_svg(board, title=board.title))
    st.download_button("Download the board (YAML)", edit.dumps(data), file_name=f"{data.get('board', 'board')}.yaml",
                       mime="text/yaml", key=K + "dl_board")
