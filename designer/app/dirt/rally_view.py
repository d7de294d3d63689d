"""The Rally tab: several stages in order, assistance between them, the rally's totals, and the rally raced by
several cars at the table (:func:`designer.systems.dirt.dice.table_rally.race_rally`): per car totals, spread,
wins, chance of being blocked, turns, and the table time from the simulated turns, with a progress box under the
button that starts it."""
from __future__ import annotations

import streamlit as st

from designer.app import busy, layout
from designer.app.dirt import analysis, analysis_view, editing, sources, state
from designer.app.dirt.sources import Unavailable
from designer.core.errors import DesignerError
from designer.core.words import plural
from designer.systems.dirt.board.stage import Stage
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.board.validate import validate
from designer.systems.dirt.dice.table_rally import damage_carried_words, repaired_apart

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
           "valid": "yes" if not errors else plural(errors, "error"),
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
                      f"At the table for {plural(players, 'player')}: each stage's table time as on the Analysis tab"))
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
    table_section(stages, players)
    st.download_button("Download the rally (YAML)", sources.rally_yaml(ss.rally_name, stages),
                       file_name=f"{sources.slug(ss.rally_name)}.yaml", mime="application/x-yaml",
                       key="dl_rally", icon=":material/download:", on_click="ignore")


# -- the rally at the table: several cars raced over the stages ----------------------------------------------------

TABLE_BUSY = "rally_table_busy"
RUNS = (10, 2000, 200)                  # races: least, most, first offered (a rulebook rally: about 20 s for 200)


def table_key(stages: list[Stage], players: int, runs: int) -> str:
    """What a simulated table was raced on: the stages as written, the cars and the races."""
    import hashlib

    h = hashlib.sha256()
    for s in stages:
        h.update(s.model_dump_json().encode())
    return f"{h.hexdigest()[:20]}:{players}:{runs}"


def race(stages: list[Stage], players: int, runs: int, progress=None) -> dict:
    """The rally raced by ``players`` cars ``runs`` times (seeded: the same figures every time)."""
    from designer.systems.dirt.dice.table_rally import race_rally

    return race_rally(stages, state.tileset_of, players, runs, progress=progress)


def seat_rows(result: dict) -> list[dict]:
    """One row per car of a simulated rally, for the page's table."""
    rows = []
    for s in result["seats"]:
        row = {"car": s["seat"], "rally time": clock(s["expected_seconds"]), "sd (s)": round(s["sd"]),
               "p10-p90": f"{clock(s['p10_seconds'])}-{clock(s['p90_seconds'])}",
               "wins": f"{100 * s['win_chance']:.0f}%", "blocked": f"{100 * s['blocked_chance']:.0f}%",
               "turns": round(s["turns"], 1)}
        for k, sec in enumerate(s["stage_seconds"], start=1):
            row[f"SS{k}"] = clock(sec)
        rows.append(row)
    return rows


def on_race() -> None:
    busy.start(TABLE_BUSY)
    ss.rally_table_error = None


def _race(slot, stages: list[Stage], players: int, runs: int) -> None:
    """The races asked for by the button, with their progress in ``slot``; the page is drawn again after."""
    key = table_key(stages, players, runs)
    try:
        racing = f"Racing {plural(players, 'car')} over the rally {plural(runs, 'time')}"
        with busy.working(TABLE_BUSY), busy.progress(slot, racing, total=len(stages) + 1, unit="steps done") as p:
            p.step(0, "starting")
            result = race(stages, players, runs, progress=lambda done, _total, text: p.step(done, text))
        ss.rally_table = {"key": key, "result": result}
        ss.rally_table_error = None
    except DesignerError as exc:
        ss.rally_table_error = sources.message_of(exc)
    except (Unavailable, analysis.AnalysisError) as exc:
        ss.rally_table_error = f"The rally cannot be raced here: {sources.md_escape(str(exc))}"
    st.rerun()


def table_section(stages: list[Stage], players: int) -> None:
    """Cars and races to simulate, the button, its progress box, then the figures of the last race of this rally."""
    st.subheader("At the table: several cars over the rally", anchor=False)
    c = st.columns([1, 1, 2], vertical_alignment="bottom")
    c[0].number_input("Cars", 1, 6, value=players, step=1, key="rally_table_players", persist_state="page",
                      help="Cars at the table (the rulebook: 1 to 6)")
    c[1].number_input("Races", RUNS[0], RUNS[1], value=RUNS[2], step=50, key="rally_table_runs",
                      persist_state="page", help="Simulated rallies: more races, narrower intervals, longer wait")
    running = busy.running(TABLE_BUSY)
    c[2].button("Racing..." if running else "Race the rally", type="primary", icon=":material/sports_score:",
                key="rally_table_go", on_click=on_race, disabled=running,
                help="Every stage solved for the leader's and the others' dice, then the rally raced car by car")
    slot = st.empty()                   # the races' progress, under the button that started them (in view)
    cars, runs = int(ss.get("rally_table_players") or players), int(ss.get("rally_table_runs") or RUNS[2])
    if running:
        _race(slot, stages, cars, runs)
        return
    d = busy.kept_result(ss.get("rally_table_error"), ss.get("rally_table"), lambda: table_key(stages, cars, runs),
                         "Race the rally to see each car's total, spread, wins, how often it is blocked, its turns, "
                         "and the time at the table from the simulated turns of every car.")
    if d is None:
        return
    m = st.columns(4)
    m[0].metric("Table time (raced)", f"{d['table_minutes']:.0f} min",
                help="Setup, building each stage and every car's simulated turns at the seconds a turn takes "
                     "(tilesets/dirt-rules.yaml, table time)")
    m[1].metric("Turns at the table", f"{d['rally_table_turns']:.0f}", help="Every car's turns, all stages")
    m[2].metric("Single car alone", clock(d["single_car_expected_seconds"]),
                help="The stages' expected times added for one car with the dice it gets at this table, no other "
                     "car" + (", each stage started repaired (the damage carried between stages is in the cars' "
                              "figures above, not in this one)" if repaired_apart(d) else ""))
    m[3].metric("Races", f"{d['runs']}", help=f"Seeded ({d['seed']}): the same figures every time")
    with st.container(key="rally_table_seats"):
        st.dataframe(seat_rows(d), hide_index=True)
    kept_rules = [k for k, v in d.get("assumed", {}).items() if v.get("status") in ("assumed", "decided")]
    st.caption(f"Car 1 starts SS1 first (the others in turn); later stages start by the totals so far. "
               f"Blocked: the chance a car is stopped by another at least once in the rally. "
               f"Carried between stages: {d['carried_between_stages']}; {damage_carried_words(d)}. "
               f"Not in the rulebook "
               f"(tilesets/dirt-table-rules.yaml): {', '.join(kept_rules)}.")
