"""Tokens on the selected tile (chicanes, water, jumps...): the ones laid there, and a small form to lay one
more. The stage changes only through :mod:`designer.systems.dirt.board.tokens` (each call returns a new stage)."""
from __future__ import annotations

import streamlit as st

from designer.app.dirt import design_actions
from designer.core.errors import DesignerError

ss = st.session_state
VALUED = design_actions.VALUED


def space_names(face) -> dict[str, str]:
    """A name a player reads for every space of a face a token may lie on, instead of its id (``a2``, ``k1o2``):
    its place along the road (the spaces counted from where the road's drawing starts, a space across the road
    and the spaces beside it sharing a number) and its lane: inside or outside in a corner, else lane 1 or 2."""
    out: dict[str, str] = {}
    for road in face.road_faces():
        cells = [c for c in road.cells or [] if not c.is_cut]
        starts = sorted({round(c.span[0], 2) for c in cells})
        lanes = {c.lane for c in cells}
        for c in cells:
            where = f"space {starts.index(round(c.span[0], 2)) + 1}"
            if len(lanes) > 1:
                if c.corner:
                    where += ", inside" if c.lane == min(lanes) else ", outside"
                else:
                    where += f", lane {sorted(lanes).index(c.lane) + 1}"
            out.setdefault(c.id, where)
    return out


def space_name(ts, tile: str, cell: str | None) -> str:
    """:func:`space_names` of one space of a tile's face, or '' (no space, or a face the box does not hold)."""
    if not cell:
        return ""
    try:
        return space_names(ts.face(tile)).get(cell, "a space of the tile")
    except (KeyError, ValueError, AttributeError):
        return "a space of the tile"


def space_name_map(ts, tile: str) -> dict[str, str]:
    try:
        return space_names(ts.face(tile))
    except (KeyError, ValueError, AttributeError):
        return {}


def render(stage, ts, sel: int) -> None:
    from designer.systems.dirt.board import tokens as T

    placed = stage.tiles[sel]
    with st.expander(f"Tokens on tile {sel + 1} ({len(placed.tokens)})", expanded=bool(placed.tokens)):
        for k, tok in enumerate(placed.tokens):
            row = st.container(horizontal=True, vertical_alignment="center", key=f"token_row_{k}")
            where = f" on {space_name(ts, placed.tile, tok.cell)}" if tok.cell else ""
            row.markdown(f"{tok.label()}{where}")
            row.button("", icon=":material/delete:", key=f"token_remove_{k}", on_click=design_actions.on_token_remove,
                       args=(k,), help="Take this token off the tile")
        try:
            kinds = T.token_kinds()
            cells = T.cells_for_tokens(stage, sel, ts)
        except DesignerError as exc:
            st.caption(f"Tokens cannot be laid here: {exc.message}")
            return
        if not cells:
            st.caption("This tile has no spaces to lay a token on (no cell graph).")
            return
        labels = {k: f"{label}: {what}" for k, label, what in kinds}
        c = st.columns([3, 2, 1], vertical_alignment="bottom")
        c[0].selectbox("Token", list(labels), format_func=labels.get, key="token_kind")
        names = space_name_map(ts, placed.tile)
        c[1].selectbox("Space", cells, key="token_cell", format_func=lambda c: names.get(c, c),
                       help="The space of the road the token lies on, counted along the road")
        if ss.get("token_kind") in VALUED:
            c[2].number_input("Value", min_value=0, max_value=9, value=3, step=1, key="token_value")
        st.button("Lay the token", icon=":material/add_location:", key="token_add", on_click=design_actions.on_token_add)
