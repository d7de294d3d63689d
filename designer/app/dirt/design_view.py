"""The Design tab: the clickable map, the selected tile's actions and the live validation under it, and the tile
palette beside them."""
from __future__ import annotations

import functools

import streamlit as st

from designer.app.dirt import carried, checks, design_actions, editing, map_tiles, mapview, state, token_view
from designer.app.dirt.design_actions import laying_part
from designer.core.words import plural
from designer.systems.dirt.board.render import face_svg, svg_to_png
from designer.systems.dirt.board.validate import boxes_needed, footprint

ss = st.session_state

SEVERITY_ICON = {"error": ":red[:material/error:]", "warning": ":orange[:material/warning:]",
                 "info": ":blue[:material/info:]"}


@st.cache_data(show_spinner=False, max_entries=512)
def face_png(tileset_name: str, face_id: str) -> bytes:
    """A small drawing of one face for the palette (rendered once per face and server)."""
    from designer.systems.dirt.board.tileset import get_tileset

    face = get_tileset(tileset_name).face(face_id)
    return svg_to_png(face_svg(face, size=100.0, width_px=150))


def problems_by_tile(problems) -> dict[int, list]:
    out: dict[int, list] = {}
    for p in problems:
        if p.tile is not None:
            out.setdefault(p.tile, []).append(p)
    return out


MAP_SIZES = {"fit": (400, 600), "large": (760, 900), "huge": (1200, 1500)}     # largest map, in pixels
MAP_SIZE_LABELS = {"fit": "Fit", "large": "Large", "huge": "Huge"}
PALETTE_PAGE = 12           # cards drawn at first; "Show more" adds as many again (each card costs the browser)

# The map (with the selected tile and the checks under it) and the palette sit side by side down to a 1024 px
# window (the page's margins shrink there, see designer.app.layout); narrower (a tablet upright) they stack. The
# map scrolls inside its own box rather than spill over its neighbour. The palette's cards wrap: two a row at
# 1024 and 1280 px, three or four from 1600 px.
CSS = """<style>
.st-key-map_box { overflow: auto; max-width: 100%; }
.st-key-map_box [data-testid="stVegaLiteChart"] { min-width: max-content; }
@media (max-width: 860px) {
  .st-key-design_row > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] { flex-direction: column; }
  .st-key-design_row > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] > [data-testid="stColumn"] {
    width: 100% !important; flex: 1 1 100% !important; }
}
.st-key-palette_cards > div { justify-content: flex-start; }
.st-key-palette_grid [data-testid="stImage"] img { max-width: 150px; margin: 0 auto; }
</style>"""
CARD_PX = 132               # a palette card's width: two fit beside the map at 1024 px


def render(ctx) -> None:
    """The whole tab from one context (for callers that hold one); the app itself draws :func:`page`."""
    page()


def page() -> None:
    """The Design tab as four parts that redraw on their own: the header, the board (map, selected tile), the
    checks (validation, facts) under it and the palette beside them. An edit redraws the first three (and the palette only when it
    hides the tiles in the stage); a selection redraws the board alone; the palette's own controls redraw it."""
    from designer.app import layout

    layout.roomy()
    st.html(CSS)
    state.map_drawn_afresh()
    header_part()
    row = st.container(key="design_row")
    left, right = row.columns([5, 4], gap="small")
    with left:
        board_part()
        checks_part()
    with right:
        palette_part()


def current():
    """The edited stage assembled and checked, once per version of the stage (the parts share it)."""
    from designer.app.dirt.stage_context import context

    memo = ss.get("_design_ctx")
    if memo is None or memo[0] is not ss.stage:
        memo = (ss.stage, context())
        ss._design_ctx = memo
    return memo[1]


@st.fragment(key="dirt_header")
def header_part() -> None:
    from designer.app.dirt.panel import header

    header(current())
    state.sync_address()


@st.fragment(key="dirt_board")
def board_part() -> None:
    ctx = current()
    _map(ctx.track, ctx.problems)
    _selected_tile(ctx.stage, ctx.tileset, ctx.track)
    _carried(ctx.stage)
    state.show_flash()


@st.fragment(key="dirt_checks")
def checks_part() -> None:
    ctx = current()
    _validation(ctx.stage, ctx.track, ctx.problems)
    _facts(ctx.stage, ctx.track)
    state.show_flash()


@st.fragment(key="dirt_palette")
def palette_part() -> None:
    _palette(ss.stage, state.tileset_of(ss.stage))
    state.show_flash()


# -- the map ------------------------------------------------------------------------------

def map_drawing(track, errors: tuple[int, ...], overlaps: tuple[int, ...] = ()):
    """The stage's drawing for the map, tile by tile (:mod:`designer.app.dirt.map_tiles`): each tile's picture is
    kept by what it shows, so an edit draws only the tiles it changed, and selecting a tile or zooming draws none."""
    return map_tiles.tiled_drawing(track, errors, overlaps)


def _map(track, problems) -> None:
    by_tile = problems_by_tile(problems)
    errors = tuple(sorted(i for i, ps in by_tile.items() if any(p.severity == "error" for p in ps)))
    stacked = checks.shared_places(track)
    svg = map_drawing(track, errors, checks.overlapping(track, problems)) if track.tiles else mapview.blank_svg()
    key = state.map_key()
    # A tile picked on the chart is outlined by the chart's own selection, so picking another one sends the same
    # chart again (the browser keeps it as it is); a tile selected otherwise is outlined by its row.
    selected = ss.get("selected")
    outlined = None if selected is not None and ss.get("map_holds") == selected else selected
    points = mapview.map_points(track, selected=outlined, problems=by_tile)
    for p in points:
        if p["index"] in stacked:
            others = ", ".join(str(j + 1) for j in stacked[p["index"]])
            p["tip"] += f" - on the same place as tile {others} (select it with Previous / Next)"
    top = st.container(horizontal=True, vertical_alignment="center", key="map_tools")
    top.segmented_control("Map size", list(MAP_SIZES), key="map_size", default="fit", required=True,
                          persist_state="page", format_func=MAP_SIZE_LABELS.get, label_visibility="collapsed")
    top.caption("Click a tile to select it; the dashed hexagon is the open end.")
    max_w, max_h = MAP_SIZES.get(ss.get("map_size") or "fit", MAP_SIZES["fit"])
    spec = mapview.map_chart(svg, points, max_width=max_w, max_height=max_h)
    with st.container(key="map_box"):
        st.vega_lite_chart(spec=spec, key=key, on_select=functools.partial(state.on_map, key),
                           selection_mode=mapview.PARAM, theme=None, width="content")
    if not track.tiles:
        st.caption("An empty stage: the dashed hexagon is where the first tile goes. Add a start tile (202a or 202b) "
                   "from the palette.")


def ctx_title(track) -> str:
    return track.stage.name


def _selected_tile(stage, ts, track) -> None:
    n = len(stage.tiles)

    def label(i):
        return f"{i + 1} · {stage.tiles[i].tile}" if 0 <= i < len(stage.tiles) else str(i + 1)

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
                   "replace it, turn it over, drive it the other way or remove it.")
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
    row.button("Drive the other way", icon=":material/swap_horiz:", key="act_reverse", on_click=design_actions.on_reverse)
    other = design_actions.other_face(p.tile, ts)
    row.button(f"Turn over ({other or 'no other face'})", icon=":material/flip:", key="act_flip",
               on_click=design_actions.on_flip, disabled=other is None,
               help="Put the tile's other face up, on the same place")
    row.button("Remove", icon=":material/delete:", key="act_remove", on_click=design_actions.on_remove)
    row.button("Earlier", icon=":material/arrow_upward:", key="act_up", on_click=design_actions.on_move, args=(-1,),
               disabled=sel == 0)
    row.button("Later", icon=":material/arrow_downward:", key="act_down", on_click=design_actions.on_move, args=(1,),
               disabled=sel >= n - 1)
    row.button("Deselect", icon=":material/close:", key="act_deselect", on_click=state.on_select, args=(None,))
    if p.tile in ts:
        token_view.render(stage, ts, sel)


# -- validation ---------------------------------------------------------------------------

#: Problems listed at first (the tile just placed and errors first); a long list (a stage laid twice over) is there
#: on request, since every listed problem is redrawn on every edit.
PROBLEMS_LISTED = 12


def _validation(stage, track, problems) -> None:
    errs = [p for p in problems if p.severity == "error"]
    warns = [p for p in problems if p.severity == "warning"]
    shown = checks.ordered(problems, ss.get("last_edited"))
    status = checks.status(problems, len(stage.tiles))
    with st.container(key="validation"):
        if status == "valid":
            st.success("Valid stage" + (f" ({plural(len(warns), 'warning')})" if warns else ""),
                       icon=":material/check_circle:")
        elif status == "incomplete":
            st.info("Incomplete: " + ("add a start tile (202a or 202b) from the palette" if not stage.tiles else
                                      "the road goes on from the dashed hexagon; add tiles up to a finish tile "
                                      "(203a or 203b)"), icon=":material/construction:")
            shown = [p for p in shown if p.severity != "error"]
        else:
            st.error(plural(len(errs), "error") + (f", {plural(len(warns), 'warning')}" if warns else ""),
                     icon=":material/cancel:")
        if shown:
            listed = shown if ss.get("all_problems") else shown[:PROBLEMS_LISTED]
            box = st.container(key="problems", height=210 if len(shown) > 2 else "content")
            with box:
                for k, p in enumerate(listed):
                    _problem(k, p)
            if len(shown) > PROBLEMS_LISTED:
                st.toggle(f"List all {len(shown)} problems (the first {PROBLEMS_LISTED} are listed)",
                          key="all_problems", help="Each problem listed costs the page a little on every edit")


def _problem(k: int, p) -> None:
    """One listed problem: its text and, for a tile's problem, a button that shows the tile. One row of two elements
    (not a box holding two columns): every element listed is drawn again by the browser on every edit."""
    where = f"**{p.where[0].upper() + p.where[1:]}**"
    text = f"{SEVERITY_ICON[p.severity]} {where}: {p.message}"
    if p.tile is not None and p.tile == ss.get("last_edited"):
        text = ":blue-badge[just placed] " + text
    if p.hint:
        text += f"  \n:gray[{checks.web_hint(p.hint)}]"
    row = st.container(border=True, horizontal=True, wrap=False, vertical_alignment="center", key=f"problem_{k}")
    row.markdown(text, width="stretch")
    if p.tile is not None:
        row.button("", icon=":material/my_location:", key=f"show_{k}", on_click=design_actions.on_show,
                   args=(p.tile,), help=f"Show tile {p.tile + 1} on the map")


def _facts(stage, track) -> None:
    road = track.laid_road_tiles
    fp = footprint(track)
    boxes = boxes_needed(stage)
    facts = [f"{len(road)} road tiles" + (f", {track.graph.number_of_nodes()} cells" if track.has_cells else "")]
    if fp.tiles:
        facts.append(f"Table space: {fp.width_cm:.0f} × {fp.height_cm:.0f} cm ({fp.tiles} hexes; tiles of "
                     f"{fp.tile_cm:g} cm across the flats, an assumed size)")
    facts.append(("Boxes: " + ", ".join(boxes)) if boxes else "No tiles yet.")
    st.caption("  \n".join(facts))
    ss.assist_toggle = editing.has_assistance(stage, track.tileset)
    st.toggle("Assistance after this stage", key="assist_toggle", on_change=design_actions.on_assistance,
              help="Adds the assistance tile (201) after the finish; cars are repaired between stages")


def _carried(stage) -> None:
    """What the stage's file carried beyond the road: notes, and the tokens laid on its tiles."""
    ts = state.tileset_of(stage)
    words = carried.carried_words(stage)
    if not words:
        return
    tokens = [(i, t) for i, p in enumerate(stage.tiles) for t in p.tokens]
    with st.expander(f"Carried by the stage file: {words}", expanded=False):
        if stage.notes:
            st.text(stage.notes)
        if tokens:
            st.caption("Tokens lie on the stage's tiles (chicanes, water, jumps); the validation says which ones "
                       "the timing uses. They are kept in every download and share link.")
            st.dataframe([{"tile": f"{i + 1} · {stage.tiles[i].tile}", "token": t.label(),
                           "space": token_view.space_name(ts, stage.tiles[i].tile, t.cell),
                           "value": "" if t.value is None else t.value}
                          for i, t in tokens], hide_index=True, width="stretch")


# -- palette ------------------------------------------------------------------------------

def option_labels(face) -> list[tuple[object, str]]:
    """Each way through a face with a label a player reads: the turn's arrow and name (no edge letters)."""
    out, seen = [], set()
    for opt in editing.entry_options(face):
        label = f"{opt.arrow} {opt.turn}"
        if label in seen:
            label += " (other way)"
        seen.add(label)
        out.append((opt, label))
    return out


def _palette(stage, ts) -> None:
    st.subheader("Tile palette", anchor=False)
    st.segmented_control("Palette buttons", list(state.PALETTE_MODES), key="palette_mode", required=True,
                         persist_state="page", label_visibility="collapsed",
                         format_func=lambda m: {"end": "At the end", "before": "Before",
                                                "after": "After", "replace": "Replace", "free": "Free place"}[m],
                         help="Where a palette button puts its tile: at the open end, before or after the "
                              "selected tile, in its place, or at a free place beside any road end (a joker "
                              "route, a road brought back onto a junction)")
    if (ss.get("palette_mode") or "end") == "free":
        laying_part(stage, ts)
    st.text_input("Find a tile", key="flt_text", persist_state="page", placeholder="229, 229b, hairpin, jump, snow…",
                  help="A tile number (all or part of it, with or without its side) or words of what the tile is: "
                       "its shape (start, finish, straight, kink, curve, hairpin, junction), a feature (cut, jump, "
                       "ford), a danger colour or a surface. Every word must match.")
    with st.expander("Filters", expanded=False):
        flt = _filters(stage, ts)
    faces = editing.palette(ts, flt, stage)
    total = len(faces)
    shown = max(PALETTE_PAGE, int(ss.get("pal_shown") or PALETTE_PAGE))
    faces = faces[:shown]
    mode = ss.get("palette_mode") or "end"
    target = {"end": "at the open end (the dashed hexagon)", "before": "before the selected tile",
              "after": "after the selected tile", "replace": "in place of the selected tile",
              "free": "at the free place chosen above"}[mode]
    verb = {"end": "Add", "before": "Insert", "after": "Insert", "replace": "Put", "free": "Lay"}[mode]
    if not faces:
        st.info("No tile matches: try a tile number such as 229, or fewer words and filters.",
                icon=":material/search_off:")
    grid = st.container(key="palette_grid", height=560)
    cards = grid.container(horizontal=True, gap="small", key="palette_cards")
    for face in faces:
        with cards.container(border=True, key=f"card_{face.id}", width=CARD_PX):
            st.image(face_png(ts.name, face.id), width="stretch")
            st.markdown(f"**{face.id}** :gray[{editing.describe_face(face)}]")
            for opt, label in option_labels(face):
                st.button(label, key=f"pal_{face.id}_{opt.entry}{opt.exit or ''}", width="stretch",
                          help=f"{verb} {face.id} {target}: the road enters by edge {opt.entry}"
                               + (f" and leaves by edge {opt.exit}" if opt.exit else ""),
                          on_click=design_actions.on_palette, args=(face.id, opt.entry, opt.exit))
    if total > len(faces):
        grid.button(f"Show more ({len(faces)} of {total} faces shown)", key="pal_more", width="stretch",
                    on_click=design_actions.on_palette_more, args=(PALETTE_PAGE,))
    st.caption(f"Each button puts its tile {target}, driven the way its arrow shows. The cards never move "
               "while you build; the validation says when a tile is used twice.")


def _filters(stage, ts) -> editing.PaletteFilter:
    left = editing.tiles_in_box(stage, ts)
    numbers_total = len({f[:3] for f in ts.tiles})
    numbers_left = len({f[:3] for f in left})
    st.toggle(f"Hide tiles already in the stage ({numbers_left} of {numbers_total} tiles left in the box)",
              value=False, key="flt_in_box", persist_state="page")
    shapes_present = [s for s in editing.SHAPES if any(editing.shape_of(f) == s for f in ts.tiles.values())]
    limits_present = sorted({x for f in ts.tiles.values() for x in f.features.limits})
    terrains_present = sorted({f.terrain for f in ts.tiles.values() if f.terrain})
    shapes = st.pills("Shape", shapes_present, selection_mode="multi", key="flt_shape", persist_state="page")
    dangers = st.pills("Danger", ["yellow", "orange", "red"], selection_mode="multi", key="flt_danger",
                       persist_state="page")
    limits = st.pills("Speed limit", limits_present, selection_mode="multi", key="flt_limit", persist_state="page")
    feats = st.pills("Features", ["cut", "jump", "ford"], selection_mode="multi", key="flt_feat", persist_state="page")
    terrains = st.pills("Terrain", terrains_present, selection_mode="multi", key="flt_terrain", persist_state="page")
    text = ss.get("flt_text") or ""
    return editing.PaletteFilter(shapes=tuple(shapes or ()), terrains=tuple(terrains or ()),
                                 dangers=tuple(dangers or ()), limits=tuple(limits or ()),
                                 cut="cut" in (feats or ()), jump="jump" in (feats or ()),
                                 ford="ford" in (feats or ()), in_box_only=bool(ss.get("flt_in_box", False)),
                                 text=text or "")
