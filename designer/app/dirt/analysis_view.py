"""The Analysis tab: the fastest and shortest lines over the map with the gear in each cell, the
headline figures, the speed profile along the distance and the turn-by-turn table."""
from __future__ import annotations

import streamlit as st

from designer.app.dirt import analysis, mapview, state
from designer.app.dirt.sources import Unavailable
from designer.systems.dirt.render import stage_svg
from designer.systems.dirt.stage import dumps_stage, loads_stage

ss = st.session_state

RISKS = (0.05, 0.1, 0.2, 0.3, 0.5, None)     # strictest first; "no limit" at the far end, after 50 %
SERIES_COLOURS = {"gear limit": "#d8342c", "highest gear to finish": "#ee8a1a", "line gear": "#1456c8"}


def risk_label(r) -> str:
    return "no limit" if r is None else f"{r:.0%} per turn"


@st.cache_data(show_spinner=False, max_entries=64)
def cached_analysis(stage_yaml: str, players: int, max_risk: float | None):
    """The analysis of a stage, cached on its YAML text, the players and the risk budget."""
    from designer.systems.dirt.track import assemble

    stage = loads_stage(stage_yaml, "<app>")
    track = assemble(stage, state.tileset_of(stage))
    return analysis.analyse(track, players=players, max_risk=max_risk)


@st.cache_data(show_spinner=False, max_entries=32)
def cached_expected(stage_yaml: str, leader: bool) -> dict:
    """The expected time under the dice of a stage, cached on its YAML text and the leader flag only (the
    risk slider and the number of players of a following car do not change it)."""
    from designer.systems.dirt.track import assemble

    stage = loads_stage(stage_yaml, "<app>")
    track = assemble(stage, state.tileset_of(stage))
    return analysis.expected_result(track, leader=leader)


def run(stage, track, players: int, max_risk: float | None) -> analysis.AnalysisView:
    return cached_analysis(dumps_stage(stage), int(players), max_risk)


def run_expected(stage, view, players: int) -> analysis.AnalysisView:
    """The view with the expected time (a car alone on the stage is the leader, p. 8)."""
    exp = cached_expected(dumps_stage(stage), int(players) == 1)
    return analysis.with_expected(view, exp, players)


def blocking_reason(track, problems) -> str | None:
    """Why the lines cannot be computed yet, or None."""
    errs = [p for p in problems if p.severity == "error"]
    if errs:
        return (f"The stage has {len(errs)} error{'s' if len(errs) != 1 else ''} (see the Design tab); "
                "the lines are computed once it is valid.")
    if not track.has_cells:
        return "Some tiles have no cell graph (only the DIRT core box has them), so no line can be computed."
    return None


def players_of(stage) -> int:
    return int(ss.get("stage_players_input") or stage.players or 4)


def render(ctx) -> None:
    stage, track, problems = ctx.stage, ctx.track, ctx.problems
    c1, c2, c3 = st.columns([1, 2, 2], vertical_alignment="bottom")
    ss.stage_players_input = stage.players or 4       # the stage holds the number of players
    c1.number_input("Players", min_value=1, max_value=6, step=1, key="stage_players_input",
                    on_change=state.on_players, help="Players at the table, 1 to 6 (the rulebook's table), "
                                                     "for the table time")
    ss.setdefault("max_risk", None)                  # no limit until the user sets one
    c2.select_slider("Risk budget", options=list(RISKS), format_func=risk_label, key="max_risk", persist_state="page",
                     help="Highest chance of a loss of control accepted in one turn: the fastest line then "
                          "uses no riskier turn ('no limit' takes any turn the rules allow)")
    c3.pills("Lines on the map", list(analysis.LINE_NAMES), selection_mode="multi", key="show_lines",
             persist_state="page",
             default=list(analysis.LINE_NAMES))
    reason = blocking_reason(track, problems)
    if reason:
        st.warning(reason, icon=":material/warning:")
        _plain_map(stage, track)
        return
    try:
        with st.spinner("Computing the fastest and the shortest line..."):
            view = run(stage, track, players_of(stage), ss.get("max_risk"))
    except Unavailable as exc:
        st.info(str(exc), icon=":material/info:")
        _plain_map(stage, track)
        return
    except analysis.AnalysisError as exc:
        st.error(f"No analysis for this stage: {exc}", icon=":material/error:")
        _plain_map(stage, track)
        return
    for note in view.notes:
        st.info(note, icon=":material/info:")
    headline = st.empty()                 # the lines' figures now, the expected time in their place once solved
    with headline.container():
        _summary(view)
    shown = [n for n in (ss.get("show_lines") or []) if n in view.lines]
    svg = stage_svg(track, lines=view.drawing_lines(shown), width_px=None, title=stage.name)
    st.image(svg, width=mapview.fit_width(svg, 900, 760),
             caption="The fastest line in blue, the shortest in green; the number in a cell is the car's gear there.")
    _profile(view, track)
    try:
        with st.spinner("Rolling the dice: the expected time under the best policy (can take a minute)..."):
            view = run_expected(stage, view, players_of(stage))
        with headline.container():
            _summary(view)
    except (Unavailable, analysis.AnalysisError) as exc:
        st.info(f"No expected time for this stage: {exc}", icon=":material/info:")
    _expected(view, track)
    _turns(view)


def _plain_map(stage, track) -> None:
    svg = stage_svg(track, width_px=None, title=stage.name)
    st.image(svg, width=mapview.fit_width(svg, 900, 760))


def _summary(view) -> None:
    items = list(view.summary.items())
    if not items:
        return
    for row in (items[:6], items[6:12]):
        if not row:
            continue
        cols = st.columns(len(row))
        for col, (label, value) in zip(cols, row):
            col.metric(label, value, help=view.helps.get(label))


def _expected(view, track) -> None:
    """The best policy turn by turn and the tiles that cost the most expected time."""
    import pandas as pd

    exp = (view.raw or {}).get("expected")
    if not exp:
        return
    st.subheader("Under the dice: the best policy", anchor=False)
    rows = analysis.policy_rows(exp, track.graph)
    if rows:
        st.table(pd.DataFrame(rows).set_index("turn").style.format({analysis.POLICY_TO_FINISH: "{:.1f}"}))
        st.caption("The most likely run: at each turn the plan of dice, rolled one by one (stopping or securing "
                   "a die with seconds tokens when hazards ⚠ have shown) or all at once as a Big Attack for seconds "
                   "tokens. The last column is the expected seconds of the time cards still to come minus the "
                   "seconds tokens held at the finish (those in hand included): it goes below zero once the tokens "
                   "outweigh the cards left. The analysis JSON holds the decision at every turn boundary, to "
                   "replay it.")
    tiles = analysis.tile_rows(exp)
    if tiles:
        st.subheader("Tiles that cost the most expected time", anchor=False)
        st.table(pd.DataFrame(tiles[:8]).set_index("tile").style.format({"expected seconds": "{:.1f}"}))
        assumed = [k for k, v in (exp.get("assumed") or {}).items() if v.get("status") == "assumed"]
        st.caption("Expected seconds of the time cards of turns started on the tile (seconds tokens come off at the "
                   "finish). Values the rulebook does not print are assumed: " + ", ".join(assumed) + ".")


def profile_frame(view, graph, name: str):
    """Long-format rows for the chart: one per (cell, series) with a gear."""
    import pandas as pd

    rows = []
    for r in analysis.profile_rows(view, graph, name):
        for series in SERIES_COLOURS:
            if r.get(series) is not None:
                rows.append({"distance": r["distance"], "series": series, "gear": r[series], "tile": r["tile"],
                             "cell": r["cell"]})
    return pd.DataFrame(rows, columns=["distance", "series", "gear", "tile", "cell"])


def _profile(view, track) -> None:
    import altair as alt

    st.subheader("Speed profile", anchor=False)
    names = [n for n in analysis.LINE_NAMES if n in view.lines]
    if not names:
        return
    name = st.segmented_control("Along the", names, key="profile_line", default=names[0], required=True,
                                persist_state="page",
                                format_func=lambda n: f"{n} line") or names[0]
    df = profile_frame(view, track.graph, name)
    if df.empty:
        return
    series = [s for s in SERIES_COLOURS if s in set(df["series"])]
    top = analysis.top_gear(view) or int(df["gear"].max())
    colours = alt.Scale(domain=series, range=[SERIES_COLOURS[s] for s in series])
    chart = alt.Chart(df).mark_line(interpolate="step-after", point=True, strokeWidth=2).encode(
        x=alt.X("distance:Q", title=f"Distance along the {name} line (cells)",
                axis=alt.Axis(tickMinStep=1, format="d")),
        y=alt.Y("gear:Q", title="Gear", scale=alt.Scale(domain=[0, top]),
                axis=alt.Axis(values=list(range(top + 1)), labelOverlap=False)),
        color=alt.Color("series:N", scale=colours, title=None,
                        legend=alt.Legend(orient="top", symbolType="stroke", symbolStrokeWidth=3)),
        strokeDash=alt.StrokeDash("series:N", legend=None,
                                  scale=alt.Scale(domain=series, range=[[1, 0] if s == "line gear" else [5, 3]
                                                                         for s in series])),
        tooltip=["distance", "series", "gear", "tile", "cell"],
    ).properties(height=320)
    st.altair_chart(chart, width="stretch", key="profile_chart")
    st.caption("Gear limit: the highest gear allowed to enter the cell (printed on the tile, a cut's own limit on a "
               "cut; the top gear where nothing is printed). Highest gear "
               "to finish: the most a car can be in there and still drive the rest of the stage legally.")


def _turns(view) -> None:
    import pandas as pd

    rows = analysis.turn_rows(view, "fastest")
    if not rows:
        return
    st.subheader("Turn by turn (fastest line)", anchor=False)
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", height=min(460, 38 + 35 * len(rows)),
                 key="turns_table")
    st.caption("Dice in the order played: a number is the gear die, gas the white die, brake a red die played "
               "with the gear die before it. Seconds: the time card of the gear the turn ends in.")
