"""The Analysis tab: the fastest and shortest lines over the map with the gear in each cell, the
headline figures, the speed profile along the distance and the turn-by-turn table."""
from __future__ import annotations

import streamlit as st

from designer.app import busy, layout
from designer.app.dirt import analysis, hover_map, mapview, profile_view, state
from designer.app.dirt.sources import Unavailable
from designer.app.recent import Recent
from designer.core.words import plural
from designer.systems.dirt.board.render import stage_svg
from designer.systems.dirt.board.stage import dumps_stage, loads_stage

ss = st.session_state

RISKS = (0.05, 0.1, 0.2, 0.3, 0.5, None)     # strictest first; "no limit" at the far end, after 50 %
#: The line on the map risks a loss of control at most this often in a turn until the player says otherwise: a
#: line a driver would plan (the ideal line risks 90 % and more over a stage); the expected time does not depend
#: on it, since the best policy under the dice weighs every risk itself.
DEFAULT_RISK = 0.3
RISK_HELP = ("Highest chance of a loss of control accepted in one turn by the line on the map (30 % unless you "
             "change it); 'no limit' shows the ideal line, which takes any turn the rules allow. The expected "
             "time and the table time do not change with it: the best policy under the dice weighs each risk "
             "itself.")


def risk_label(r) -> str:
    return "no limit (ideal line)" if r is None else f"{r:.0%} per turn"


def max_risk() -> float | None:
    """The risk budget chosen on the Analysis tab, or the default before the player has chosen one."""
    return ss["max_risk"] if "max_risk" in ss else DEFAULT_RISK


_SOLVED = Recent(256)               # keys of the analyses already made (no progress box for them)


@st.cache_data(show_spinner=False, max_entries=64)
def cached_analysis(stage_yaml: str, players: int, max_risk: float | None):
    """The analysis of a stage, cached on its YAML text, the players and the risk budget."""
    from designer.systems.dirt.board.track import assemble

    stage = loads_stage(stage_yaml, "<app>")
    track = assemble(stage, state.tileset_of(stage))
    return analysis.analyse(track, players=players, max_risk=max_risk)


@st.cache_data(show_spinner=False, max_entries=32)
def cached_expected(stage_yaml: str, leader: bool) -> dict:
    """The expected time under the dice of a stage, cached on its YAML text and the leader flag only (the
    risk slider and the number of players of a following car do not change it)."""
    from designer.systems.dirt.board.track import assemble

    stage = loads_stage(stage_yaml, "<app>")
    track = assemble(stage, state.tileset_of(stage))
    return analysis.expected_result(track, leader=leader)


def run(stage, track, players: int, max_risk: float | None) -> analysis.AnalysisView:
    key = (dumps_stage(stage), int(players), max_risk)
    view = cached_analysis(*key)
    _SOLVED.get(("lines",) + key, lambda: True)
    return view


def run_expected(stage, view, players: int) -> analysis.AnalysisView:
    """The view with the expected time (a car alone on the stage is the leader, p. 8)."""
    key = (dumps_stage(stage), int(players) == 1)
    exp = cached_expected(*key)
    _SOLVED.get(("expected",) + key, lambda: True)
    return analysis.with_expected(view, exp, players)


def lines_known(stage, players: int, risk) -> bool:
    """Are this stage's lines already computed (so no progress box is needed)?"""
    return ("lines", dumps_stage(stage), int(players), risk) in _SOLVED


def expected_known(stage, players: int) -> bool:
    return ("expected", dumps_stage(stage), int(players) == 1) in _SOLVED


def blocking_reason(track, problems) -> str | None:
    """Why the lines cannot be computed yet, or None."""
    errs = [p for p in problems if p.severity == "error"]
    if errs:
        return (f"The stage has {plural(len(errs), 'error')} (see the Design tab); "
                "the lines are computed once it is valid.")
    if not track.has_cells:
        return "Some tiles have no cell graph (only the DIRT core box has them), so no line can be computed."
    return None


def players_of(stage) -> int:
    return int(ss.get("stage_players_input") or stage.players or 4)


def render(ctx) -> None:
    layout.roomy()
    stage, track, problems = ctx.stage, ctx.track, ctx.problems
    c1, c2, c3 = st.columns([1, 2, 2], vertical_alignment="bottom")
    ss.stage_players_input = stage.players or 4       # the stage holds the number of players
    c1.number_input("Players", min_value=1, max_value=6, step=1, key="stage_players_input",
                    on_change=state.on_players, help="Players at the table, 1 to 6 (the rulebook's table), "
                                                     "for the table time")
    ss.setdefault("max_risk", DEFAULT_RISK)
    c2.select_slider("Risk budget", options=list(RISKS), format_func=risk_label, key="max_risk", persist_state="page",
                     help=RISK_HELP)
    c3.pills("Lines on the map", list(analysis.LINE_NAMES), selection_mode="multi", key="show_lines",
             persist_state="page",
             default=list(analysis.LINE_NAMES))
    reason = blocking_reason(track, problems)
    if reason:
        st.warning(reason, icon=":material/warning:")
        _plain_map(stage, track)
        return
    players, risk = players_of(stage), max_risk()
    slot = st.empty()                     # the progress of the work, at the top of the tab, while it runs
    try:
        if lines_known(stage, players, risk):
            view = run(stage, track, players, risk)
        else:
            with busy.progress(slot, "Analysing the stage", total=2) as p:
                p.step(0, "the fastest and the shortest line")
                view = run(stage, track, players, risk)
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
    solved = expected_known(stage, players)
    if solved:
        view = _with_expected(stage, view, players)
    else:                                 # the lines' figures below, the dice solved with the box in view
        progress = busy.Progress(slot, "Analysing the stage", total=2)
        progress.step(1, "rolling the dice: the best policy under the dice (a few seconds on a long stage, up to "
                         "15 s where a third or fourth damage token is tracked)")
    headline = st.empty()
    with headline.container():
        _summary(view)
    shown = [n for n in (ss.get("show_lines") or []) if n in view.lines]
    _line_map(stage, track, view, shown)
    profile_view.render(view, track)
    if not solved:
        try:
            view = _with_expected(stage, view, players)
        finally:
            progress.close()
        with headline.container():
            _summary(view)
    _expected(view, track)
    _turns(view)


def _with_expected(stage, view, players):
    try:
        return run_expected(stage, view, players)
    except (Unavailable, analysis.AnalysisError) as exc:
        st.info(f"No expected time for this stage: {exc}", icon=":material/info:")
        return view


def _plain_map(stage, track) -> None:
    svg = stage_svg(track, width_px=None, title=stage.name)
    st.image(svg, width=mapview.fit_width(svg, 900, 760))


def _summary(view) -> None:
    """The headline (three figures, whole at 1024 px) and a details row with every other figure once."""
    head, details = analysis.headline_and_details(view)
    if head:
        cols = st.columns(len(head))
        for col, label in zip(cols, head):
            col.metric(label, view.summary[label], help=view.helps.get(label))
    if details:
        st.markdown(" &nbsp;·&nbsp; ".join(f"{label} **{view.summary[label]}**" for label in details),
                    help=" ".join(f"{label}: {view.helps[label]}." for label in details if view.helps.get(label)))


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
        assumed = [ASSUMED_WORDS.get(k, k.replace("_", " ")) for k, v in (exp.get("assumed") or {}).items()
                   if v.get("status") == "assumed"]
        st.caption("Expected seconds of the time cards of turns started on the tile (seconds tokens come off at the "
                   "finish). Values the rulebook does not print are assumed: " + "; ".join(assumed) + ".")


#: The ruleset's parameters the rulebook does not print, named for a player (the analysis JSON keeps their keys).
ASSUMED_WORDS = {
    "time_card": "the seconds printed on each time card",
    "loss_of_control_seconds": "the seconds a loss of control costs",
    "dashboards": "the dice of each dashboard",
    "abandon_seconds": "the time of a car that abandons",
    "card_backs": "how many time cards show a spin, a crash or SISU on their back",
    "crash_damage_marks": "the damage marks of a crash",
    "cut_tokens": "the mix of cut tokens",
    "damage_tokens": "the mix of damage tokens",
    "sisu_card": "what the SISU card does",
    "spare_wheel_seconds": "the seconds a wheel change costs",
    "hazard_faces": "the hazard faces of each die",
    "hazard_limit": "the hazards that end a turn",
    "expected_bounds": "the limits of the solver (tokens held, dice secured, damage)",
}

_LINE_MAPS = Recent(8)                  # the last line maps drawn, by stage text, risk budget and lines shown


def line_map_html(stage, track, view, shown, max_risk) -> str:
    """The map with the lines as inline SVG with a hover title on every cell of a line, kept for the last few
    stages: a click on the tab that changes neither the stage, the risk budget nor the lines shown draws nothing."""
    def make():
        svg = stage_svg(track, lines=view.drawing_lines(shown), width_px=None, title=stage.name)
        svg = hover_map.with_cell_titles(svg, track, {n: view.lines[n] for n in shown})
        return hover_map.inline_svg(svg, mapview.fit_width(svg, 900, 760))

    return _LINE_MAPS.get((stage.model_dump_json(), max_risk, tuple(shown)), make)


def _line_map(stage, track, view, shown) -> None:
    """The map with the lines, inline in the page: hovering a cell of a line says its gear and turn."""
    with st.container(key="line_map"):
        st.markdown(line_map_html(stage, track, view, shown, max_risk()), unsafe_allow_html=True)
    st.caption("The fastest line in blue, the shortest in green; the number in a cell is the car's gear there. "
               "Hover a cell of a line to see its tile, gear and turn.")


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
