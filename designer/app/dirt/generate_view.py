"""The Generate tab: stages made by the generator from the player's boxes, table and difficulty, opened in the
designer with one click. The search is the library's (the one ``rally-designer generate`` runs: candidates examined
in order, a cheap bound before the line search, stopped once enough meet every target), in the app's own process
(nothing is written on the server), with a progress box under the Generate button saying how many candidates have
been examined; its Cancel button (or any other click) stops it. The number of candidates is capped."""
from __future__ import annotations

import streamlit as st

from designer.app import busy, layout
from designer.app.dirt import state
from designer.core.errors import DesignerError
from designer.core.words import plural
from designer.systems.dirt import generate as G
from designer.systems.dirt.board.render import stage_svg
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble

ss = st.session_state
MAX_APP_CANDIDATES = 300
BOX_LABELS = {"core": "Core box (201-232)", "monte-carlo": "Monte Carlo / 110% (301-324)", "rx": "RX (401-415)",
              "climb": "The Climb (325, 326, 418, 419)"}


def _spec() -> G.Spec:
    copies = tuple((b, int(ss.get(f"gen_copies_{b}", 1))) for b in ss.get("gen_boxes", ["core"]))
    reserved = tuple(sorted(t.strip()[:3] for t in ss.get("gen_reserved", "").replace(",", " ").split() if t.strip()))
    table = (float(ss.gen_table_w), float(ss.gen_table_h)) if ss.get("gen_use_table") else None
    lo, hi = ss.get("gen_tiles", (10, 14))
    return G.Spec(tiles=(int(lo), int(hi)), copies=copies or (("core", 1),), reserved=reserved,
                  terrains=tuple(ss.get("gen_terrains") or ("gravel", "asphalt", "snow")), table_cm=table,
                  assistance=bool(ss.get("gen_assistance")),
                  difficulty=None if ss.get("gen_difficulty", "any") == "any" else ss.gen_difficulty,
                  seed=int(ss.get("gen_seed", 0)), candidates=int(ss.get("gen_candidates", 120)))


BUSY = "gen_busy"


def search(spec: G.Spec, keep: int = 3, progress=None) -> list:
    """The library's own search (:func:`designer.systems.dirt.generate.search`, what ``rally-designer generate``
    runs): candidates examined in order and only as far as needed, in this process. ``progress(done, total)`` is
    called after each wave of candidates (4, 8, 16...), so the progress box moves and a click stops the search."""
    return G.search(spec, jobs=1, keep=keep, progress=progress)


def on_generate() -> None:
    busy.start(BUSY)
    ss.gen_error = None


def on_cancel() -> None:
    busy.finished(BUSY)
    ss.gen_error = None
    ss.gen_note = "Generation stopped: the stages shown are from before."


def _generate(slot) -> None:
    """The search asked for by the Generate button, with its progress in ``slot``; the page is drawn again after."""
    try:
        spec = _spec()
        with busy.working(BUSY), busy.progress(slot, "Generating stages", total=spec.candidates,
                                                unit="candidates examined") as p:
            p.step(0)
            ss.gen_results = search(spec, keep=3, progress=lambda done, _total: p.step(done))
        ss.gen_error, ss.gen_note = None, None
    except DesignerError as exc:
        ss.gen_results, ss.gen_error = [], str(exc)
    st.rerun()


def on_open(k: int) -> None:
    cand = ss.gen_results[k]
    state.open_stage(cand.stage.model_copy(update={"name": f"Generated stage (seed {cand.seed}, #{cand.index})"}),
                     message="Generated stage opened: edit it in the Design tab.")
    ss.dirt_view = "Design"


def _drawing_width(svg: str, widest: int = 520, tallest: int = 380) -> int:
    """Pixels wide for a drawing so that it is at most ``widest`` wide and ``tallest`` high."""
    import re

    m = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"', svg)
    if not m:
        return widest
    w, h = float(m.group(1)), float(m.group(2))
    return max(120, min(widest, int(tallest * w / h))) if h > 0 else widest


def render(ctx) -> None:
    layout.roomy()
    st.caption("Stages valid by construction from the boxes you own: legal joins, no overlap, each tile no more "
               "often than your boxes hold it, start and finish tiles, assistance if asked. The best of the "
               "candidates for the difficulty you ask is shown first.")
    left, right = st.columns([1.5, 2], gap="large")
    with left:
        st.slider("Road tiles (start and finish included)", 4, 30, (10, 14), key="gen_tiles")
        st.multiselect("Boxes you own", list(BOX_LABELS), default=["core"], key="gen_boxes",
                       format_func=BOX_LABELS.get)
        for b in ss.get("gen_boxes", ["core"]):
            st.number_input(f"Copies of {BOX_LABELS[b]}", 1, 4, 1, key=f"gen_copies_{b}")
        st.text_input("Tiles kept for other stages", key="gen_reserved", placeholder="e.g. 210 215 221")
        st.checkbox("Fit a table", key="gen_use_table")
        if ss.get("gen_use_table"):
            c = st.columns(2)
            c[0].number_input("Width (cm)", 40, 400, 120, key="gen_table_w")
            c[1].number_input("Depth (cm)", 40, 400, 80, key="gen_table_h")
        st.multiselect("Surfaces", ["gravel", "asphalt", "snow"], default=["gravel", "asphalt", "snow"],
                       key="gen_terrains")
        st.checkbox("End at the assistance tile", key="gen_assistance")
        st.segmented_control("Difficulty", ["any", "easy", "medium", "hard"], default="medium", key="gen_difficulty",
                             help="In the analysis' own terms: corners under gear 3 per tile, and the chance of a "
                                  "loss of control on the fastest line.")
        c = st.columns(2)
        c[0].number_input("Seed", 0, 10**9, 0, key="gen_seed", help="The same seed gives the same stages.")
        c[1].number_input("Candidates", 10, MAX_APP_CANDIDATES, 120, step=10, key="gen_candidates")
        running = busy.running(BUSY)
        go, stop = st.columns([2, 1])      # the same elements idle and busy (none is left over, stale, meanwhile)
        go.button("Generating..." if running else "Generate", type="primary", icon=":material/casino:",
                  key="gen_go", on_click=on_generate, width="stretch", disabled=running)
        stop.button("Cancel", key="gen_cancel", on_click=on_cancel,
                    width="stretch", disabled=not running, help="Stop the search; the stages shown before stay")
        slot = st.empty()               # the search's progress, under the button that started it (in view)
    with right:
        if ss.get("gen_error"):
            st.error(ss.gen_error)
        elif ss.get("gen_note"):
            st.info(ss.gen_note, icon=":material/info:")
        results = ss.get("gen_results") or []
        if not results:
            st.info("Set your boxes and constraints, then Generate.")
        for k, cand in enumerate(results):
            f = cand.figures
            with st.container(border=True):
                st.markdown(f"**Candidate {k + 1}** &nbsp; {plural(f['tiles'], 'road tile')} · ideal "
                            f"{f['ideal_seconds']} s · {plural(f['tight_corners'], 'corner')} under gear 3 · "
                            f"{f['width_cm']:.0f} x {f['height_cm']:.0f} cm"
                            f" · {'every target met' if cand.score == 0 else f'off target by {cand.score:.2f}'}")
                track = assemble(cand.stage, get_tileset(cand.stage.tileset))
                svg = stage_svg(track, title=None, width_px=None)
                st.image(svg, width=_drawing_width(svg))
                st.caption(" ".join(p.short().replace(" ", "") for p in cand.stage.tiles))
                st.button("Open in the designer", key=f"gen_open_{k}", on_click=on_open, args=(k,),
                          icon=":material/edit:")
    if busy.running(BUSY):
        _generate(slot)
