"""The Stage, Analysis and Rally tabs of the classic Rallyman pages."""
from __future__ import annotations

from contextlib import contextmanager

import pandas as pd
import streamlit as st

from designer.app import busy, layout
from designer.app.classic import rally_race
from designer.app.classic.state import K, box_for, current_stage, ss, stages
from designer.core.errors import DesignerError
from designer.core.svgkit import svg_to_png
from designer.core.words import plural
from designer.racing.course import format_time
from designer.systems.classic.files import notation
from designer.systems.classic.files import stage as S
from designer.systems.classic.analysis import build_steps, on_purpose_words, unanalysed
from designer.systems.classic.board.assembly import assemble
from designer.systems.classic.board.pacenotes import stage_notes
from designer.systems.classic.files.rally import link_stages
from designer.systems.classic.board.render import stage_svg
from designer.systems.classic.files.rules import TYRES, tyre_name
from designer.systems.classic.files.stage import Rally
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
        link_stages(doc.stages)
    else:
        ss[K + "doc"] = new
    ss[K + "analysis"] = {}
    ss.pop(K + "roadbook", None)


def _rally_buttons() -> None:
    """Build a rally in the app: add a stage (a copy of this one, to change), or remove this one."""
    doc, items = ss[K + "doc"], stages()
    i, stage = current_stage()
    b1, b2 = st.columns(2)
    if b1.button("Add a stage to the rally (a copy of this one)", key=K + "add_stage",
                 disabled=len(items) >= S.MAX_STAGES, help=f"a rally holds at most {S.MAX_STAGES} stages"):
        new = S.stage_from_data({**S.stage_to_data(stage), "stage": f"{stage.name} (2)"}, {}, stage.source,
                                near=stage.near)
        if isinstance(doc, Rally):
            doc.stages.insert(i + 1, new)
        else:
            ss[K + "doc"] = doc = Rally(name=f"Rally of {stage.name}", stages=[stage, new])
        ss[K + "stage_index"] = i + 1
        _relinked(doc)
    if b2.button("Remove this stage from the rally", key=K + "drop_stage", disabled=len(items) < 2):
        doc.stages.pop(i)
        ss[K + "stage_index"] = max(0, i - 1)
        _relinked(doc)


def _relinked(doc) -> None:
    link_stages(doc.stages)
    ss[K + "analysis"] = {}
    ss.pop(K + "roadbook", None)
    ss.pop(K + "route_text", None)
    st.rerun()


def _problems(stage, box) -> bool:
    problems = SYSTEM.validate(stage, box)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        st.error(f"{plural(len(errors), 'problem')}: this stage cannot be raced as it is")
    for p in problems:
        text = f"**{p.where}**: {p.message}" + (f"  \n_{p.hint}_" if p.hint else "")
        {"error": st.error, "warning": st.warning}.get(p.severity, st.caption)(text)
    return not errors


def stage_tab() -> None:
    layout.roomy()
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
        kept = f"no assistance before this stage: the {tyre_name(stage.tyres)} tyres of the stage before stay on " \
               "(ART.15.3)" if stage.tyre_change_refused else None
        tyres = c1.selectbox("Tyres", TYRES, index=TYRES.index(S.named_tyres(stage)), help=kept)
        weather = c2.selectbox("Weather", ("fixed", "variable"), index=("fixed", "variable").index(stage.weather))
        assistance = c3.checkbox("Assistance after this stage", stage.assistance)
        c4, c5, c6, c7 = st.columns(4)
        players = c4.number_input("Players", 1, 6, stage.players)
        leader = c5.checkbox("Opens the road (ART.20)", stage.leader)
        attack = c6.checkbox("Big Attack (ART.5)", stage.big_attack)
        sisu = c6.checkbox("SISU card held (ART.7.5)", stage.sisu)
        splits = c7.text_input("Split points (crossing:cell)", " ".join(f"{i + 1}:{c}" for i, c in stage.splits),
                               help="ART.16, e.g. 1:E4 2:D3")
        if st.form_submit_button("Apply"):
            ss[K + "route_text"] = route
            try:
                r = notation.parse_any(route, "route")
                data = {**S.stage_to_data(stage), "stage": name, "route": notation.sheet(r), "tyres": tyres,
                        "weather": weather, "assistance": assistance, "players": int(players), "leader": leader,
                        "big_attack": attack, "sisu": sisu,
                        "splits": splits.replace(",", " ").split() or None}
                _replace_stage(S.stage_from_data(data, {}, stage.source, near=stage.near))
                ss.pop(K + "route_text", None)
                st.rerun()
            except DesignerError as exc:
                st.error(str(exc).replace("\n", "  \n"))
    _rally_buttons()
    _, stage = current_stage()
    st.markdown(f"**Course sheet:** `{notation.sheet(stage.route)}`  **Share:** `{notation.share(stage.route)}`")
    ok = _problems(stage, box)
    st.image(svg_to_png(stage_svg(assemble(stage.route, box), title=stage.name)),
             caption="the boards as they lie on the table (those that join)")
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


def _analysis_key(stage, box=None) -> str:
    """What an analysis depends on: the stage and its zone box, named as :func:`box_for` finds it (the user's own
    box text, else the box the stage names from where it was read), so the key is known before the box is read."""
    return S.dumps(stage) + "|" + (ss.get(K + "box_text") or f"{stage.zones}@{ss.get(K + 'near')}")


def analysed(stage, box=None) -> bool:
    """Is this stage's analysis already made (no progress box needed)?"""
    return _analysis_key(stage) in ss.get(K + "analysis", {})


def analysis_of(stage, box, progress: busy.Progress | None = None, step: int = 0, text: str = "") -> dict:
    """The stage's analysis, made once per stage and box; with ``progress``, made in view (the box counts the
    seconds at ``step``; a click meanwhile stops the page, and the analysis, finished in the background, is kept)."""
    key = _analysis_key(stage, box)
    cache = ss.setdefault(K + "analysis", {})
    if key not in cache:
        def make():
            cache[key] = result = SYSTEM.analyse(stage, box, players=stage.players)
            return result

        if progress is None:
            make()
        else:
            progress.wait_for(step, text or "the ideal line and the best policy under the dice", make)
    return cache[key]


def analysis_or_problems(stage, box, progress: busy.Progress | None = None, step: int = 0, text: str = "") -> dict:
    """The analysis, or for a stage whose boards do not join its route and problems (a row of the course sheet)."""
    try:
        return analysis_of(stage, box, progress, step, text)
    except DesignerError:
        course = assemble(stage.route, box)
        if course.ok:
            raise
        return unanalysed(stage, box, course.problems)


#: Words of the library's text that name a stage file's keys, as the app says them (its Stage tab has the boxes).
APP_WORDS = {"set big_attack: true in the stage": "tick Big Attack on the Stage tab"}


def in_words(text: str) -> str:
    """A line of the analysis with the stage file's keys it names said as the app's own controls."""
    for key, words in APP_WORDS.items():
        text = text.replace(key, words)
    return text


def analysis_tab() -> None:
    layout.roomy()
    _choose_stage("analysis")
    i, stage = current_stage()
    slot = st.empty()                   # the analysis' progress, at the top of the tab, while it is made
    try:
        if analysed(stage):
            box = box_for(stage)
            result = analysis_of(stage, box)
        else:
            with busy.progress(slot, f"Analysing ES{i + 1} · {stage.name}") as p:
                p.step(0, "reading the zones")
                box = box_for(stage)
                result = analysis_of(stage, box, p)
    except DesignerError as exc:
        st.error(str(exc).replace("\n", "  \n"))
        return
    if "ideal_line" not in result:
        st.error("; ".join(result.get("summary", [])))
        return
    ideal, exp = result["ideal_line"], result["expected"]
    c = st.columns(3)                   # the headline, whole at 1024 px; the rest once, in the details row
    purpose = on_purpose_words(exp.get("cards") or {})
    c[0].metric("Expected time", exp["time"], help="the best policy under the dice, losses of control counted"
                + (f"; {purpose}" if purpose else ""))
    c[1].metric("Spread", f"± {exp['sd_seconds']:.0f} s", help="standard deviation of the stage time under the "
                                                             "best policy")
    c[2].metric("Table time", f"{result['table']['minutes']:.0f} min",
                help=f"{plural(result['players'], 'player')}, "
                     f"{plural(result['table']['turns_per_player'], 'turn')} each")
    st.markdown(f"Ideal time **{ideal['time']}** &nbsp;·&nbsp; Length **{result['length_cells']} cells**",
                help="Ideal time: a shakedown, no hazard rolled (ART.17). Length: cells of the route.")
    with st.expander("The analysis in words"):
        st.markdown("\n".join("- " + in_words(line) for line in result["summary"]))
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
        st.table(pd.DataFrame([{"zone": c["zone"], "die": c["die"], "chance of snow": c["fraction"]}
                               for c in result["snow_chances"]]))
        table = result.get("weather_table")
        if table:
            st.table(pd.DataFrame([{"weather": r["weather"], "chance": r["fraction"],
                                    **{f"{tyre_name(t)} tyres": format_time(r["expected"][t]) for t in table["tyres"]},
                                    "best": tyre_name(r["best_tyres"])} for r in table["rows"]]))
            st.caption(table["text"][:1].upper() + table["text"][1:] + ". " + table["note"] + ".")
    st.caption("Not priced in the expected time: " + "; ".join(in_words(x) for x in exp["not_priced"]))


def rally_tab() -> None:
    layout.roomy()
    doc = ss[K + "doc"]
    rally = doc if isinstance(doc, Rally) else Rally(name=doc.name, stages=[doc])
    st.subheader(f"P.C. COURSE - {rally.name}")
    rows = []
    slot = st.empty()                   # the stages' progress, at the top of the tab, while they are analysed
    try:
        todo = [s for s in rally.stages if not analysed(s)]
        with busy.progress(slot, "Analysing the rally's stages", total=len(rally.stages),
                           unit="stages analysed") if todo \
                else _nothing() as p:
            for i, stage in enumerate(rally.stages, start=1):
                box = box_for(stage)
                start, joins, finish = notation.sheet_parts(stage.route)
                res = analysis_or_problems(stage, box, p, i - 1, f"ES{i} · {stage.name}")
                rows.append({"result": res, "ES": f"ES{i}", "START": start, "joins": " ".join(joins) or "-",
                             "FINISH": finish, "assistance": "yes" if stage.assistance else "no",
                             "cells": res.get("length_cells"), "ideal": (res.get("ideal_line") or {}).get("time", "-"),
                             "expected": (res.get("expected") or {}).get("time", "-")})
    except DesignerError as exc:
        st.error(str(exc).replace("\n", "  \n"))
        return
    st.dataframe(pd.DataFrame([{k: v for k, v in r.items() if k != "result"} for r in rows]), hide_index=True)
    cells = sum(r['cells'] or 0 for r in rows)
    st.write(f"Rally length: {cells} cell{'' if cells == 1 else 's'} over {len(rows)} "
             f"stage{'' if len(rows) == 1 else 's'}")
    rally_race.section(rally)
    busy_flag = K + "rb_busy"
    st.button("Prepare the road book (PDF)", key=K + "make_rb", on_click=busy.start, args=(busy_flag,),
              disabled=busy.running(busy_flag))
    if busy.running(busy_flag):
        try:
            with busy.working(busy_flag), busy.progress(st.empty(), "Writing the road book") as p:
                from designer.systems.classic.roadbook import roadbook
                made = [r["result"] for r in rows]
                p.step(0, f"{len(rows)} stage{'' if len(rows) == 1 else 's'}: sheets, maps and pace notes")
                ss[K + "roadbook"] = roadbook(doc, box_for, results=made)
            ss.pop(K + "rb_error", None)
        except DesignerError as exc:
            ss[K + "rb_error"] = str(exc).replace("\n", "  \n")
        st.rerun()                      # the button enabled again, the download or the message under it
    if ss.get(K + "rb_error"):
        st.error(ss[K + "rb_error"])
    if ss.get(K + "roadbook"):
        st.download_button("Download the road book (PDF)", ss[K + "roadbook"], file_name="classic-roadbook.pdf",
                           mime="application/pdf", key=K + "dl_rb")


@contextmanager
def _nothing():
    """No progress box (every stage is analysed already)."""
    yield None
