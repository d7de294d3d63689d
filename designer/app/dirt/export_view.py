"""The Export tab: YAML, share code, SVG, PNG, .rgt, rekee JSON and the PDF road book."""
from __future__ import annotations

import urllib.parse

import streamlit as st

from designer.app import busy, layout
from designer.app.dirt import analysis_view, links, sources
from designer.app.dirt.analysis import AnalysisError
from designer.app.dirt.sources import Unavailable
from designer.core.errors import DesignerError
from designer.core.words import plural
from designer.systems.dirt.board.render import stage_svg, svg_to_png

ss = st.session_state


@st.cache_data(show_spinner=False, max_entries=16)
def png_of(svg: str) -> bytes:
    return svg_to_png(svg, scale=1.5)


def page_address() -> str:
    """The app's address as the browser sees it, without its query (the local address when unknown)."""
    try:
        url = st.context.url or ""
    except Exception:  # older Streamlit, or no browser (tests)
        url = ""
    return url.split("?", 1)[0].split("#", 1)[0] or "http://localhost:8501/"


def render(ctx) -> None:
    layout.roomy()
    stage, track, problems = ctx.stage, ctx.track, ctx.problems
    stem = sources.slug(stage.name)
    st.subheader("Stage file", anchor=False)
    c = st.container(horizontal=True, vertical_alignment="center")
    c.download_button("Download the stage (YAML)", sources.stage_yaml(stage), file_name=f"{stem}.yaml",
                      mime="application/x-yaml", key="dl_yaml", icon=":material/download:", type="primary",
                      on_click="ignore")
    c.caption("The stage file, saved by your browser: open it again here (sidebar, Upload) or with "
              "`rally-designer`. Nothing is written on the machine running the app.")

    st.subheader("Share link", anchor=False)
    base = page_address()
    with st.container(key="share_link"):
        st.code(links.share_url(base, stage), language=None, wrap_lines=True)
    st.caption("Opens this stage in the app, in any browser that reaches it (the page's own address holds the same "
               "stage, so a reload keeps it). It can also be pasted in the sidebar (Open, Share link).")
    if ss.get("rally_stages"):
        query = links.query(stage, (ss.rally_name, list(ss.rally_stages), ss.get("rally_slot")))
        with st.container(key="rally_link"):
            st.code(f"{base}?{urllib.parse.urlencode(query)}", language=None, wrap_lines=True)
        st.caption(f"Opens the rally {sources.md_escape(ss.rally_name)} ({plural(len(ss.rally_stages), 'stage')}) with "
                   "this stage being edited.")
    with st.expander("Older share code (RD1)"):
        st.code(sources.stage_share_code(stage), language=None, wrap_lines=True)
        st.caption("The one-line code of earlier versions, still read by the sidebar; it does not carry tokens.")

    st.subheader("Drawing", anchor=False)
    lines = None
    errs = [p for p in problems if p.severity == "error"]
    want = st.toggle("Draw the fastest and shortest lines", key="export_lines", value=False, persist_state="page",
                     disabled=bool(errs) or not track.has_cells)
    if want and not errs and track.has_cells:
        try:
            view = analysis_view.run(stage, track, int(stage.players or 4), analysis_view.max_risk())
            lines = view.drawing_lines()
        except Unavailable as exc:
            st.caption(str(exc))
    svg = stage_svg(track, lines=lines, title=stage.name)
    c = st.columns(2)
    c[0].download_button("Download SVG", svg.encode("utf-8"), file_name=f"{stem}.svg", mime="image/svg+xml",
                         key="dl_svg", icon=":material/image:", width="stretch", on_click="ignore")
    c[1].download_button("Download PNG", lambda: png_of(svg), file_name=f"{stem}.png", mime="image/png",
                         key="dl_png", icon=":material/image:", width="stretch", on_click="ignore")

    st.subheader("Other track editors", anchor=False)
    if sources.foreign_available():
        c = st.columns(2)
        for col, fmt, label in ((c[0], "rgt", "Rallyman Track Editor (.rgt)"), (c[1], "rekee", "rekee (.json)")):
            try:
                data, name, mime = sources.export_foreign(stage, fmt)
                col.download_button(f"Download {label}", data, file_name=name, mime=mime, key=f"dl_{fmt}",
                                    icon=":material/download:", width="stretch", on_click="ignore")
            except (DesignerError, Unavailable) as exc:
                col.warning(f"{label}: {exc}")
    else:
        st.info("Export to .rgt and rekee JSON is not available in this version (designer.systems.dirt.io is missing).")

    st.subheader("Road book", anchor=False)
    if not sources.roadbook_available():
        st.info("The PDF road book is not available in this version yet "
                "(designer.systems.dirt.book.roadbook is missing).",
                icon=":material/info:")
        return
    paper = st.segmented_control("Paper", ["A4", "Letter"], key="paper", default="A4", required=True,
                                 persist_state="page")
    what = st.segmented_control("Road book of", ["this stage", "the rally"], key="roadbook_scope", persist_state="page",
                                default="this stage", required=True)
    c = st.columns(2)
    with_lines = c[0].toggle("The line and the times", value=True, key="roadbook_lines", persist_state="page",
                             help="Off: a book for competitive play (map, build sheet and pace notes; no line, "
                                  "no times)")
    one_stage = what != "the rally" or not ss.get("rally_stages")
    with_expected = c[1].toggle("With the expected time under the dice", value=False, key="roadbook_expected",
                                persist_state="page", disabled=not (with_lines and one_stage and not errs),
                                help="The headline of the line page becomes the expected time of the best policy, "
                                     "with the ideal time beside it and the expected seconds of each tile (worked "
                                     "out once per stage, as on the Analysis tab; up to several seconds for a long "
                                     "stage). For one stage.")
    if analysis_view.max_risk() is not None and with_lines:
        st.caption("The book prints the ideal line and, when asked, the expected time of the best policy; the "
                   "risk budget of the Analysis tab applies to that tab only.")
    fingerprint = (sources.stage_share_code(stage), what, paper, with_lines, with_expected,
                   tuple(sources.stage_share_code(s) for s in ss.get("rally_stages", []))
                   if what == "the rally" else ())
    st.button("Prepare the road book (PDF)", key="make_pdf", icon=":material/picture_as_pdf:",
              on_click=busy.start, args=("pdf_busy",), disabled=busy.running("pdf_busy"))
    if busy.running("pdf_busy"):
        steps = len(ss.rally_stages) if not one_stage else 1 + bool(with_expected and with_lines)
        try:
            with busy.working("pdf_busy"), busy.progress(st.empty(), "Writing the road book", total=steps) as p:
                if not one_stage:
                    p.step(0, f"the maps, lines and pace notes of {plural(len(ss.rally_stages), 'stage')}")
                    pdf = sources.roadbook_pdf(list(ss.rally_stages), rally_name=ss.rally_name, paper=paper or "A4",
                                               lines=with_lines)
                    ss.pdf = (pdf, f"{sources.slug(ss.rally_name)}-roadbook.pdf", fingerprint)
                else:
                    result = None
                    if with_lines and with_expected and not errs and track.has_cells:
                        p.step(0, "rolling the dice: the expected time under the best policy")
                        players = int(stage.players or 4)
                        view = analysis_view.run(stage, track, players, None)
                        result = analysis_view.run_expected(stage, view, players).raw
                    p.step(steps - 1, "the map, the line and the pace notes")
                    pdf = sources.roadbook_pdf([stage], paper=paper or "A4", lines=with_lines, analysis=result)
                    ss.pdf = (pdf, f"{stem}-roadbook.pdf", fingerprint)
            ss.pop("pdf_error", None)
        except (DesignerError, Unavailable, AnalysisError) as exc:
            ss.pdf_error = (f"The road book could not be written: {exc}", fingerprint)
        st.rerun()                  # the button enabled again, the download or the message below it
    if ss.get("pdf_error") and ss.pdf_error[1] == fingerprint:
        st.error(ss.pdf_error[0])
    if ss.get("pdf") and ss.pdf[2] == fingerprint:
        data, name, _ = ss.pdf
        st.download_button("Download the road book (PDF)", data, file_name=name, mime="application/pdf",
                           key="dl_pdf", icon=":material/download:", type="primary", on_click="ignore",
                           help=f"Saved by your browser as {name}")
