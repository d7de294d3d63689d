"""The Design tab: the clickable map, live validation beside it, the selected tile's actions and the
tile palette."""
from __future__ import annotations

import functools

import streamlit as st

from designer.app.dirt import editing, mapview, state
from designer.systems.dirt.render import face_svg, stage_svg, svg_to_png
from designer.systems.dirt.validate import boxes_needed, footprint

ss = st.session_state

SEVERITY_ICON = {"error": ":red[:material/error:]", "warning": ":orange[:material/warning:]",
                 "info": ":blue[:material/info:]"}
PALETTE_COLUMNS = 6
PALETTE_LIMIT = 72          # faces drawn at once (the official tileset has hundreds)


@st.cache_data(show_spinner=False, max_entries=512)
def face_png(tileset_name: str, face_id: str) -> bytes:
    """A small drawing of one face for the palette (rendered once per face and server)."""
    from designer.systems.dirt.tileset import get_tileset

    face = get_tileset(tileset_name).face(face_id)
    return svg_to_png(face_svg(face, size=100.0, width_px=150))


def problems_by_tile(problems) -> dict[int, list]:
    out: dict[int, list] = {}
    for p in problems:
        if p.tile is not None:
            out.setdefault(p.tile, []).append(p)
    return out


def render(ctx) -> None:
    stage, ts, track, problems = ctx.stage, ctx.tileset, ctx.track, ctx.problems
    left, right = st.columns([3, 2], gap="medium")
    with left:
        _map(track, problems)
        _selected_tile(stage, ts, track)
    with right:
        _validation(problems)
        _facts(stage, track)
    st.divider()
    _palette(stage, ts)


# -- the map ------------------------------------------------------------------------------

def _map(track, problems) -> None:
    by_tile = problems_by_tile(problems)
    errors = {i for i, ps in by_tile.items() if any(p.severity == "error" for p in ps)}
    svg = stage_svg(track, highlight=errors, width_px=None, title=ctx_title(track)) if track.tiles \
        else mapview.blank_svg()
    points = mapview.map_points(track, selected=ss.get("selected"), problems=by_tile)
    chart = mapview.map_chart(svg, points, max_width=680, max_height=600)
    key = f"map_{ss.get('map_nonce', 0)}"
    st.altair_chart(chart, key=key, on_select=functools.partial(state.on_map, key),
                    selection_mode=mapview.PARAM, theme=None, width="content")
    if not track.tiles:
        st.caption("An empty stage: the dashed hexagon is where the first tile goes. Add a start tile (202a or 202b) "
                   "from the palette below.")
    else:
        st.caption("Click a tile to select it (tiles with an error are outlined in red; the selected tile in blue). "
                   "The dashed hexagon is the open end, where the next tile goes.")


def ctx_title(track) -> str:
    return track.stage.name


def _selected_tile(stage, ts, track) -> None:
    n = len(stage.tiles)

    def label(i):
        return f"{i + 1} · {stage.tiles[i].tile}"

    sel = ss.get("selected")
    ss.sel_box = sel if sel is not None and 0 <= sel < n else None
    cols = st.columns([2, 1, 1], vertical_alignment="bottom")
    cols[0].selectbox("Selected tile", list(range(n)), format_func=label, key="sel_box", on_change=state.on_select_box,
                      placeholder="No tile selected")
    cols[1].button("Previous", icon=":material/chevron_left:", key="sel_prev", on_click=state.on_step_selection,
                   args=(-1,), width="stretch", disabled=n == 0)
    cols[2].button("Next", icon=":material/chevron_right:", key="sel_next", on_click=state.on_step_selection,
                   args=(1,), width="stretch", disabled=n == 0)
    sel = ss.get("selected")
    if sel is None or sel < 0 or sel >= n:
        st.caption("No tile selected: the palette adds at the open end. Select a tile to insert next to it, "
                   "replace it, turn it round or remove it.")
        return
    p = stage.tiles[sel]
    desc = ""
    if p.tile in ts:
        face = ts.face(p.tile)
        turn = editing.placement_turn(ts, p)
        exit_ = p.exit or (face.exit_for(p.entry)[0] if p.entry and face.exit_for(p.entry) else None)
        desc = (f"{editing.describe_face(face)}; enters by {p.entry or '?'}"
                + (f", leaves by {exit_}" if exit_ else "") + (f" ({turn})" if turn else ""))
    st.markdown(f"**Tile {sel + 1} · {p.tile}** &nbsp; {desc}")
    row = st.container(horizontal=True, key="tile_actions")
    row.button("Drive the other way", icon=":material/swap_horiz:", key="act_reverse", on_click=state.on_reverse)
    row.button("Remove", icon=":material/delete:", key="act_remove", on_click=state.on_remove)
    row.button("Earlier", icon=":material/arrow_upward:", key="act_up", on_click=state.on_move, args=(-1,),
               disabled=sel == 0)
    row.button("Later", icon=":material/arrow_downward:", key="act_down", on_click=state.on_move, args=(1,),
               disabled=sel >= n - 1)
    row.button("Deselect", icon=":material/close:", key="act_deselect", on_click=state.on_select, args=(None,))


# -- validation ---------------------------------------------------------------------------

def _validation(problems) -> None:
    errs = [p for p in problems if p.severity == "error"]
    warns = [p for p in problems if p.severity == "warning"]
    st.subheader("Validation", anchor=False)
    if not errs:
        st.success("Valid stage" + (f" ({len(warns)} warning{'s' if len(warns) != 1 else ''})" if warns else ""),
                   icon=":material/check_circle:")
    else:
        st.error(f"{len(errs)} error{'s' if len(errs) != 1 else ''}"
                 + (f", {len(warns)} warning{'s' if len(warns) != 1 else ''}" if warns else ""),
                 icon=":material/cancel:")
    box = st.container(key="problems", height=360 if len(problems) > 5 else "content")
    with box:
        for k, p in enumerate(problems):
            with st.container(border=True, key=f"problem_{k}"):
                where = f"**{p.where[0].upper() + p.where[1:]}**"
                text = f"{SEVERITY_ICON[p.severity]} {where}: {p.message}"
                if p.hint:
                    text += f"  \n:gray[{p.hint}]"
                if p.tile is None:
                    st.markdown(text)
                    continue
                c1, c2 = st.columns([6, 1], vertical_alignment="center")
                c1.markdown(text)
                c2.button("", icon=":material/my_location:", key=f"show_{k}", on_click=state.on_select,
                          args=(p.tile,), help=f"Show tile {p.tile + 1} on the map")


def _facts(stage, track) -> None:
    st.subheader("Stage", anchor=False)
    road = track.road_tiles
    fp = footprint(track)
    c1, c2 = st.columns(2)
    c1.metric("Road tiles", len(road))
    c2.metric("Cells", track.graph.number_of_nodes() if track.has_cells else "-")
    boxes = boxes_needed(stage)
    facts = []
    if fp.tiles:
        facts.append(f"Table space: {fp.width_cm:.0f} × {fp.height_cm:.0f} cm ({fp.tiles} hexes; tiles of "
                     f"{fp.tile_cm:g} cm across the flats, an assumed size)")
    facts.append(("Boxes: " + ", ".join(boxes)) if boxes else "No tiles yet.")
    st.caption("  \n".join(facts))
    ss.assist_toggle = editing.has_assistance(stage, track.tileset)
    st.toggle("Assistance after this stage", key="assist_toggle", on_change=state.on_assistance,
              help="Adds the assistance tile (201) after the finish; cars are repaired between stages")


# -- palette ------------------------------------------------------------------------------

def _palette(stage, ts) -> None:
    st.subheader("Tile palette", anchor=False)
    top = st.columns([3, 2], vertical_alignment="bottom")
    top[0].segmented_control("Palette buttons", list(state.PALETTE_MODES), key="palette_mode", required=True,
                             persist_state="page",
                             format_func=lambda m: {"end": "Add at the open end", "before": "Insert before",
                                                    "after": "Insert after", "replace": "Replace"}[m])
    left = editing.tiles_in_box(stage, ts)
    numbers_total = len({f[:3] for f in ts.tiles})
    numbers_left = len({f[:3] for f in left})
    top[1].toggle(f"Only tiles still in the box ({numbers_left} of {numbers_total})", value=True, key="flt_in_box",
                  persist_state="page")
    shapes_present = [s for s in editing.SHAPES if any(editing.shape_of(f) == s for f in ts.tiles.values())]
    limits_present = sorted({x for f in ts.tiles.values() for x in f.features.limits})
    terrains_present = sorted({f.terrain for f in ts.tiles.values() if f.terrain})
    shapes = st.pills("Shape", shapes_present, selection_mode="multi", key="flt_shape", persist_state="page")
    f2, f3, f4 = st.columns([2, 3, 2])
    dangers = f2.pills("Danger", ["yellow", "orange", "red"], selection_mode="multi", key="flt_danger",
                       persist_state="page")
    limits = f3.pills("Speed limit", limits_present, selection_mode="multi", key="flt_limit", persist_state="page")
    feats = f4.pills("Features", ["cut", "jump", "ford"], selection_mode="multi", key="flt_feat", persist_state="page")
    f5, f6 = st.columns([2, 5], vertical_alignment="bottom")
    terrains = f5.pills("Terrain", terrains_present, selection_mode="multi", key="flt_terrain", persist_state="page")
    text = f6.text_input("Find a face", key="flt_text", placeholder="e.g. 21 or 210b",
                        persist_state="page")
    flt = editing.PaletteFilter(shapes=tuple(shapes or ()), terrains=tuple(terrains or ()),
                                dangers=tuple(dangers or ()), limits=tuple(limits or ()),
                                cut="cut" in (feats or ()), jump="jump" in (feats or ()), ford="ford" in (feats or ()),
                                in_box_only=bool(ss.get("flt_in_box", True)), text=text or "")
    faces = editing.palette(ts, flt, stage)
    total = len(faces)
    if total > PALETTE_LIMIT and not ss.get("flt_all"):
        faces = faces[:PALETTE_LIMIT]
    mode = ss.get("palette_mode") or "end"
    sel = ss.get("selected")
    target = {"end": "at the open end", "before": f"before tile {sel + 1}" if sel is not None and sel >= 0 else None,
              "after": f"after tile {sel + 1}" if sel is not None and sel >= 0 else None,
              "replace": f"in place of tile {sel + 1}" if sel is not None and sel >= 0 else None}[mode]
    verb = {"end": "Add", "before": "Insert", "after": "Insert", "replace": "Put"}[mode]
    if target is None:
        st.info("Select a tile on the map to insert next to it or replace it.", icon=":material/touch_app:")
    if total > PALETTE_LIMIT:
        st.toggle(f"Show all {total} faces (the first {PALETTE_LIMIT} are shown; the filters narrow the list)",
                  key="flt_all", persist_state="page")
    st.caption(f"{total} face{'s' if total != 1 else ''}. Each button places the tile "
               f"{target or 'next to the selected tile'}, driven the way its arrow shows "
               "(↑ straight, ↰ ↱ curve, ⤺ ⤻ hairpin; the letter is the edge the road enters by).")
    used = editing.used_numbers(stage)
    grid = st.container(key="palette_grid")
    for start in range(0, len(faces), PALETTE_COLUMNS):
        cols = grid.columns(PALETTE_COLUMNS)
        for col, face in zip(cols, faces[start:start + PALETTE_COLUMNS]):
            with col.container(border=True, key=f"card_{face.id}"):
                st.image(face_png(ts.name, face.id), width="stretch")
                where = used.get(face.number)
                note = f"  \n:orange[in the stage: tile {', '.join(str(i + 1) for i in where)}]" if where else ""
                st.markdown(f"**{face.id}** :gray[{editing.describe_face(face)}]{note}")
                buttons = st.container(horizontal=True, gap="small")
                for opt in editing.entry_options(face):
                    buttons.button(f"{opt.arrow} {opt.entry}", key=f"pal_{face.id}_{opt.entry}{opt.exit or ''}",
                                   help=f"{verb} {face.id} {target or ''}: enters by {opt.entry}"
                                        + (f", leaves by {opt.exit}" if opt.exit else "") + f" ({opt.turn})",
                                   on_click=state.on_palette, args=(face.id, opt.entry, opt.exit))
