"""The map editor of The Great Race pages: click hexes (or name them) to paint cities, risk zones and off-board
hexes, edit the cities, transport lines and bag as tables, see the problems at once, download the YAML."""
from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from designer.app.greatrace.state import K, current_race, doc, ss, svg_image, tag
from designer.app.tables import editable
from designer.core.errors import DesignerError
from designer.core.hexgrid import to_pixel
from designer.systems.greatrace.files import edit
from designer.systems.greatrace.files.board import board_from_data, hex_of, label
from designer.systems.greatrace.book.draw import board_svg
from designer.systems.greatrace.driving.validate import validate_board, validate_race

HEX_SHAPE = "M1,0L0.5,0.866L-0.5,0.866L-1,0L-0.5,-0.866L0.5,-0.866Z"
KIND_COLOURS = {"open": "#f3ecd9", "risk": "#555555", "off": "#ffffff", "city": "#e0b341", "purple city": "#6b3fa0",
                "median slot": "#c7b3e0"}


def _kinds(data: dict) -> dict[str, str]:
    kinds = {}
    for h in data.get("risk", []):
        kinds[str(h).upper()] = "risk"
    for h in data.get("off", []):
        kinds[str(h).upper()] = "off"
    for c in data.get("cities", []):
        kinds[str(c["at"]).upper()] = "median slot" if c.get("median") else "purple city" if c.get("purple") else "city"
    return kinds


PPU = 20.0   # chart pixels per hex radius


def chart_layout(data: dict) -> dict:
    """Domains and size of the clickable hex chart: one hex radius is ``PPU`` pixels both ways."""
    cols, rows = int(data["columns"]), int(data["rows"])
    xs, ys = [], []
    for c in range(cols):
        for r in range(rows):
            x, y = to_pixel(hex_of(c, r), 1.0)
            xs.append(x)
            ys.append(-y)
    x_domain = [min(xs) - 1.0, max(xs) + 1.0]
    y_domain = [min(ys) - 1.0, max(ys) + 1.0]
    return {"x_domain": x_domain, "y_domain": y_domain, "width": round((x_domain[1] - x_domain[0]) * PPU),
            "height": round((y_domain[1] - y_domain[0]) * PPU)}


def _hex_chart(data: dict) -> alt.Chart:
    kinds = _kinds(data)
    names = {str(c["at"]).upper(): c["name"] for c in data.get("cities", [])}
    rows = []
    for c in range(int(data["columns"])):
        for r in range(int(data["rows"])):
            x, y = to_pixel(hex_of(c, r), 1.0)
            name = label(hex_of(c, r))
            rows.append({"hex": name, "x": x, "y": -y, "kind": kinds.get(name, "open"), "city": names.get(name, "")})
    df = pd.DataFrame(rows)
    lay = chart_layout(data)
    pick = alt.selection_point(name="pick", fields=["hex"], on="click", toggle=False)
    base = alt.Chart(df).encode(
        x=alt.X("x:Q", axis=None, scale=alt.Scale(domain=lay["x_domain"], zero=False, nice=False)),
        y=alt.Y("y:Q", axis=None, scale=alt.Scale(domain=lay["y_domain"], zero=False, nice=False)))
    hexes = base.mark_point(shape=HEX_SHAPE, filled=True, size=(2 * PPU * 0.96) ** 2, opacity=1, stroke="#777",
                            strokeWidth=0.7).encode(
        color=alt.Color("kind:N", scale=alt.Scale(domain=list(KIND_COLOURS), range=list(KIND_COLOURS.values())),
                        legend=alt.Legend(orient="bottom", title=None)),
        tooltip=["hex", "kind", "city"]).add_params(pick)
    labels = base.mark_text(fontSize=8, color="#333").encode(text="hex")
    return (hexes + labels).properties(width=lay["width"], height=lay["height"])


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
    event = st.altair_chart(_hex_chart(data), on_select="rerun", key=K + "hex_chart_" + tag(_kinds(data)),
                            selection_mode="pick")
    picked = [p.get("hex") for p in (getattr(event, "selection", {}) or {}).get("pick", []) if p.get("hex")]
    if picked and ss.get(K + "last_pick") != (tuple(picked), mode):
        ss[K + "last_pick"] = (tuple(picked), mode)
        if mode in edit.LINE_MODES:
            if not ss.get(K + "line_from"):
                ss[K + "line_from"] = picked[0]
                st.rerun()
            picked = [ss.pop(K + "line_from")] + picked[:1]
        _apply(picked, mode, city_name, fare)
        if not ss.get(K + "paint_error"):
            st.rerun()
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
