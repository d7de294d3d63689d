"""The Stage, Analysis and Rally tabs of the classic Rallyman pages."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from designer.app.classic.state import K, box_for, current_stage, ss, stages
from designer.core.errors import DesignerError
from designer.core.svgkit import svg_to_png
from designer.systems.classic import notation
from designer.systems.classic import stage as S
from designer.systems.classic.analysis import build_steps, unanalysed
from designer.systems.classic.assembly import assemble
from designer.systems.classic.pacenotes import stage_notes
from designer.systems.classic.rules import TYRES
from designer.systems.classic.stage import Rally
from designer.systems.classic.system import SYSTEM


def _choose_stage(tab: str) -> None:
    items = stages()
    if len(items) > 1:
        names = [f"ES{i + 1} - {s.name}" for i, s in enumerate(items)]
        i = st.selectbox("Stage", range(len(items)), format_func=lambda i: names[i],
                         index=min(ss.get(K + "stage_index", 0), len(items) - 1), key=K + "stage_pick_" + tab)
        if i != ss.get(K + "stage_index"):
            ss[K + "stage_index"] = i
            ss.pop(K + "route_text", None)


def _replace_stage(new) -> None:
    doc = ss[K + "doc"]
    if isinstance(doc, Rally):
        i, _ = current_stage()
        doc.stages[i] = new
    else:
        ss[K + "doc"] = new
    ss[K + "analysis"] = {}
    ss.pop(K + "roadbook", None)


def _problems(stage, box) -> bool:
    problems = SYSTEM.validate(stage, box)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        st.error(f"{len(errors)} problem{'s' if len(errors) > 1 else ''}: this stage cannot be raced as it is")
    for p in problems:
        text = f"**{p.where}**: {p.message}" + (f"  \n_{p.hint}_" if p.hint else "")
        {"error": st.error, "warning": st.warning}.get(p.severity, st.caption)(text)
    return not errors


def stage_tab() -> None:
    _choose_stage("stage")
    _, stage = current_stage()
    try:
        box = box_for(stage)
    except DesignerError as exc:
        st.error(str(exc).replace("\n", "  \n"))
        return
    demo = box.demo and "demonstration" not in (box.title or "").lower()
    st.caption(f"Zones: {box.title or box.name}" + (" - demonstration boards, not the official ones" if demo else ""))
    with st.form(K + "stage_form"):
        name = st.text_input("Stage name", stage.name)
        route = st.text_input("Route: START | joins | FINISH, or the share form (L0-1/C7-6*)",
                              ss.get(K + "route_text") or notation.sheet(stage.route))
        c1, c2, c3 = st.columns(3)
        tyres = c1.selectbox("Tyres", TYRES, index=TYRES.index(stage.tyres))
        weather = c2.selectbox("Weather", ("fixed", "variable"), index=("fixed", "variable").index(stage.weather))
        assistance = c3.checkbox("Assistance after this stage", stage.assistance)
        if st.form_submit_button("Apply"):
            ss[K + "route_text"] = route
            try:
                r = notation.parse_any(route, "route")
                data = {**S.stage_to_data(stage), "stage": name, "route": notation.sheet(r), "tyres": tyres,
                        "weather": weather, "assistance": assistance}
                _replace_stage(S.stage_from_data(data, {}, stage.source, near=stage.near))
                ss.pop(K + "route_text", None)
                st.rerun()
            except DesignerError as exc:
                st.error(str(exc).replace("\n", "  \n"))
    _, stage = current_stage()
    st.markdown(f"**Course sheet:** `{notation.sheet(stage.route)}`  **Share:** `{notation.share(stage.route)}`")
    ok = _problems(stage, box)
    st.image(svg_to_png(SYSTEM.draw(stage, box)), caption="the boards as they lie on the table")
    if ok:
        course = assemble(stage.route, box)
        st.markdown("**Building the stage**")
        for i, line in enumerate(build_steps(course), start=1):
            st.markdown(f"{i}. {line}")
        st.markdown("**Pace notes** (straights in cells; corner inside/drift/K; ^ bump, ~ ford, // half-cells, "
                    "+ crossroads)")
        for label, notes in stage_notes(course):
            st.markdown(f"`{label}`  {notes}")
    st.download_button("Download the stage or rally (YAML)", SYSTEM.dumps(ss[K + "doc"]),
                       file_name="classic-stage.yaml", mime="text/yaml", key=K + "dl_yaml")


def analysis_of(stage, box) -> dict:
    key = S.dumps(stage) + "|" + (ss.get(K + "box_text") or box.path)
    cache = ss.setdefault(K + "analysis", {})
    if key not in cache:
        cache[key] = SYSTEM.analyse(stage, box, players=stage.players)
    return cache[key]


def analysis_or_problems(stage, box) -> dict:
    """The analysis, or for a stage whose boards do not join its route and problems (a row of the course sheet)."""
    try:
        return analysis_of(stage, box)
    except DesignerError:
        course = assemble(stage.route, box)
        if course.ok:
            raise
        return unanalysed(stage, box, course.problems)


def analysis_tab() -> None:
    _choose_stage("analysis")
    _, stage = current_stage()
    try:
        box = box_for(stage)
        result = analysis_of(stage, box)
    except DesignerError as exc:
        st.error(str(exc).replace("\n", "  \n"))
        return
    if "ideal_line" not in result:
        st.error("; ".join(result.get("summary", [])))
        return
    ideal, exp = result["ideal_line"], result["expected"]
    c = st.columns(4)
    c[0].metric("Length", f"{result['length_cells']} cells")
    c[1].metric("Ideal time", ideal["time"], help="a shakedown: no hazard rolled (ART.17)")
    c[2].metric("Expected time", exp["time"], help="the best policy under the dice, losses of control counted")
    c[3].metric("Table time", f"{result['table']['minutes']:.0f} min", help=f"{result['players']} players")
    for line in result["summary"]:
        st.write("- " + line)
    st.image(svg_to_png(SYSTEM.draw(stage, box, result)), caption="the ideal line; circles: gear at the end of each turn")
    st.subheader("Ideal line, turn by turn")
    st.dataframe(pd.DataFrame([{"turn": k, "dice": " ".join("gas" if d == "gas" else d[4:] for d in t["dice"]),
                                "cells": " ".join(x.split(":", 1)[-1] for x in t["cells"]), "gear": t["gear"],
                                "card (s)": t["card"]} for k, t in enumerate(ideal["turns"], start=1)]),
                 hide_index=True)
    st.subheader("Gear-limit profile")
    prof = pd.DataFrame([{"step": i, "cell": p["cell"].split(":", 1)[-1], "limit": p["limit"] or 5,
                          "gear": p["gear"]} for i, p in enumerate(result["profile"])])
    if not prof.empty:
        st.line_chart(prof.set_index("step")[["limit", "gear"]])
    if result.get("splits"):
        st.subheader("Split times on the ideal line (ART.16)")
        st.table(pd.DataFrame(result["splits"]))
    if stage.weather == "variable":
        st.subheader("Variable weather (ART.15.2)")
        st.table(pd.DataFrame(result["snow_chances"]))
        table = result.get("weather_table")
        if table:
            st.table(pd.DataFrame([{"weather": r["weather"], "chance": r["fraction"],
                                    **{f"{t} tyres": r["expected"][t] for t in table["tyres"]},
                                    "best": r["best_tyres"]} for r in table["rows"]]))
            st.caption(table["text"] + "; " + table["note"])
    st.caption("Not priced in the expected time: " + ", ".join(exp["not_priced"]))


def rally_tab() -> None:
    doc = ss[K + "doc"]
    rally = doc if isinstance(doc, Rally) else Rally(name=doc.name, stages=[doc])
    st.subheader(f"P.C. COURSE - {rally.name}")
    rows = []
    try:
        for i, stage in enumerate(rally.stages, start=1):
            box = box_for(stage)
            start, joins, finish = notation.sheet_parts(stage.route)
            res = analysis_or_problems(stage, box)
            rows.append({"result": res, "ES": f"ES{i}", "START": start, "joins": " ".join(joins) or "-", "FINISH": finish,
                         "assistance": "yes" if stage.assistance else "no", "cells": res.get("length_cells"),
                         "ideal": (res.get("ideal_line") or {}).get("time", "-"),
                         "expected": (res.get("expected") or {}).get("time", "-")})
    except DesignerError as exc:
        st.error(str(exc).replace("\n", "  \n"))
        return
    st.dataframe(pd.DataFrame([{k: v for k, v in r.items() if k != "result"} for r in rows]), hide_index=True)
    cells = sum(r['cells'] or 0 for r in rows)
    st.write(f"Rally length: {cells} cell{'' if cells == 1 else 's'} over {len(rows)} "
             f"stage{'' if len(rows) == 1 else 's'}")
    if st.button("Prepare the road book (PDF)", key=K + "make_rb"):
        try:
            from designer.systems.classic.roadbook import roadbook
            made = [r["result"] for r in rows]
            ss[K + "roadbook"] = roadbook(doc, box_for, results=made)
        except DesignerError as exc:
            st.error(str(exc).replace("\n", "  \n"))
    if ss.get(K + "roadbook"):
        st.download_button("Download the road book", ss[K + "roadbook"], file_name="classic-roadbook.pdf",
                           mime="application/pdf", key=K + "dl_rb")
