"""The Rally tab: several stages in order, assistance between them, and the rally's totals."""
from __future__ import annotations

import streamlit as st

from designer.app import busy, layout
from designer.app.dirt import analysis, analysis_view, editing, sources, state
from designer.app.dirt.sources import Unavailable
from designer.systems.dirt.board.stage import Stage
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.board.validate import validate

ss = st.session_state


def stage_row(i: int, stage: Stage, players: int, max_risk, with_times: bool, with_expected: bool = True) -> dict:
    """One line of the rally table: tiles, validity and, when the lines are available, the length and times
    (with ``with_expected``, the expected time and the table time from the expected turns, the same figures as
    the Analysis tab's)."""
    ts = state.tileset_of(stage)
    track = assemble(stage, ts)
    problems = validate(stage, ts, track)
    errors = sum(p.severity == "error" for p in problems)
    row = {"#": i + 1, "stage": stage.name, "road tiles": len(track.laid_road_tiles),
           "valid": "yes" if not errors else f"{errors} error{'s' if errors != 1 else ''}",
           "assistance after": editing.has_assistance(stage, ts)}
    if with_times and not errors and track.has_cells:
        try:
            view = analysis_view.run(stage, track, players, max_risk)
            if with_expected:
                try:
                    view = analysis_view.run_expected(stage, view, players)
                except (Unavailable, analysis.AnalysisError):
                    pass
            for label in ("Expected time", "Length", "Ideal time", "Table time"):
                if label in view.summary:
                    row[label.lower()] = view.summary[label]
            row["_figures"] = view.figures
        except (Unavailable, analysis.AnalysisError):
            pass
    return row


def _solved(stage: Stage, players: int) -> bool:
    try:
        return analysis_view.expected_known(stage, players)
    except Exception:  # noqa: BLE001 - a stage that cannot be written out is timed (and reported) by stage_row
        return False


def rows_of(stages: list[Stage], players: int, max_risk, with_times: bool) -> list[dict]:
    """The rally's rows; the stages not solved yet are solved with a progress box in view at the top of the tab
    (stage by stage; a click meanwhile stops it, the stages solved so far are kept)."""
    todo = [i for i, s in enumerate(stages) if with_times and not _solved(s, players)]
    if not todo:
        return [stage_row(i, s, players, max_risk, with_times) for i, s in enumerate(stages)]
    rows: list[dict] = []
    with busy.progress(st.empty(), "Timing the rally's stages under the dice", total=len(stages),
                       unit="stages timed") as p:
        for i, s in enumerate(stages):
            p.step(i, f"SS{i + 1} · {s.name}")
            rows.append(stage_row(i, s, players, max_risk, with_times))
    return rows


def totals(rows: list[dict]) -> dict:
    """Sums over the stages of the numeric figures of their summaries (and of the road tiles)."""
    out = {"stages": len(rows), "road tiles": sum(r["road tiles"] for r in rows),
           "assistance stops": sum(1 for r in rows[:-1] if r["assistance after"])}
    sums: dict[str, float] = {}
    timed = [r["_figures"] for r in rows if r.get("_figures")]
    for k in ("length_cells", "game_seconds", "ideal_seconds", "turns", "table_minutes", "expected_seconds",
              "expected_turns"):
        vals = [f.get(k) for f in timed]
        if vals and all(isinstance(v, (int, float)) for v in vals):
            sums[k] = sum(vals)
    out["sums"] = sums
    out["timed"] = len(timed)
    return out


def clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}"


def render(ctx) -> None:
    layout.roomy()
    stages = list(ss.get("rally_stages", []))
    top = st.columns([2, 2, 1], vertical_alignment="bottom")
    if ss.get("rally_name_input") != ss.get("rally_name"):
        ss.rally_name_input = ss.get("rally_name", "My rally")
    top[0].text_input("Rally name", key="rally_name_input", on_change=state.on_rally_rename)
    rallies = list(sources.bundled_rallies())
    if rallies:
        top[1].selectbox("Bundled rallies", rallies, key="bundled_rally_choice", persist_state="page")
        top[2].button("Open rally", key="rally_open", on_click=state.on_rally_open_bundled, width="stretch")
    b = st.container(horizontal=True)
    b.button("Add the stage being edited", icon=":material/add:", key="rally_add", on_click=state.on_rally_add_current)
    b.button("New empty rally", icon=":material/note_add:", key="rally_new", on_click=state.on_rally_new)
    if not stages:
        st.info("This rally has no stages yet.", icon=":material/info:")
        return
    players = int(ss.get("stage_players_input") or ctx.stage.players or 4)
    with_times = analysis.available()
    rows = rows_of(stages, players, analysis_view.max_risk(), with_times)
    for i, (stage, row) in enumerate(zip(stages, rows)):
        with st.container(border=True, key=f"rally_stage_{i}"):
            c = st.columns([3, 4, 3, 3], vertical_alignment="center")
            editing_now = ss.get("rally_slot") == i
            c[0].markdown(f"**SS{i + 1} · {sources.md_escape(stage.name)}**"
                          + ("  \n:blue[being edited]" if editing_now else ""))
            facts = [f"{row['road tiles']} road tiles", f"valid: {row['valid']}"]
            for k, v in row.items():
                if k not in ("#", "stage", "road tiles", "valid", "assistance after") and not k.startswith("_"):
                    facts.append(f"{k}: {v}")
            c[1].caption(" · ".join(facts))
            ss[f"rally_assist_{i}"] = row["assistance after"]
            c[2].toggle("Assistance after", key=f"rally_assist_{i}", on_change=state.on_rally_assistance, args=(i,))
            acts = c[3].container(horizontal=True, gap="small")
            acts.button("Edit", key=f"rally_edit_{i}", on_click=state.on_rally_edit, args=(i,), disabled=editing_now)
            acts.button("", icon=":material/arrow_upward:", key=f"rally_up_{i}", on_click=state.on_rally_move,
                        args=(i, -1), disabled=i == 0, help="Earlier in the rally")
            acts.button("", icon=":material/arrow_downward:", key=f"rally_down_{i}", on_click=state.on_rally_move,
                        args=(i, 1), disabled=i == len(stages) - 1, help="Later in the rally")
            acts.button("", icon=":material/delete:", key=f"rally_remove_{i}", on_click=state.on_rally_remove,
                        args=(i,), help="Take this stage out of the rally")
        if i < len(stages) - 1:
            st.caption((":material/build: Assistance: cars are repaired before the next stage"
                        if row["assistance after"] else
                        ":material/arrow_downward: No assistance: damage carries over to the next stage"))
    tot = totals(rows)
    st.subheader("Rally totals", anchor=False)
    sums = tot["sums"]
    items = [("Stages", tot["stages"], None)]           # at most four figures: whole at 1024 px
    if "expected_seconds" in sums:
        items.append(("Expected time", clock(sums["expected_seconds"]),
                      "Sum of the stages' expected times under the dice (best policy)"))
    if "table_minutes" in sums:
        items.append(("Table time", f"{sums['table_minutes']:.0f} min",
                      f"At the table for {players} players: each stage's table time as on the Analysis tab"))
    if "length_cells" in sums:
        items.append(("Length", f"{sums['length_cells']:.0f} cells", "Sum of the shortest lines"))
    cols = st.columns(len(items))
    for col, (label, value, help_) in zip(cols, items):
        col.metric(label, value, help=help_)
    details = [f"Road tiles **{tot['road tiles']}**", f"Assistance stops **{tot['assistance stops']}**"]
    if "ideal_seconds" in sums:
        details.append(f"Ideal time **{clock(sums['ideal_seconds'])}**")
    st.markdown(" &nbsp;·&nbsp; ".join(details),
                help="Assistance stops: between stages (after the last one it does not count). Ideal time: the "
                     "stages' shakedowns added up (time cards of the fastest lines, hazards never rolled).")
    if tot["timed"] < tot["stages"]:
        st.caption("Length and times count only the valid stages with cell graphs"
                   + ("" if with_times else " (the analysis of lines is not available)") + ".")
    st.download_button("Download the rally (YAML)", sources.rally_yaml(ss.rally_name, stages),
                       file_name=f"{sources.slug(ss.rally_name)}.yaml", mime="application/x-yaml",
                       key="dl_rally", icon=":material/download:", on_click="ignore")
