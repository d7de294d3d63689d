"""The Stage, Analysis and Road book tabs of the Rallye pages."""
from __future__ import annotations

import base64
import hashlib
import json

import pandas as pd
import streamlit as st

from designer.app import busy, layout
from designer.app.recent import Recent
from designer.core.errors import DesignerError
from designer.core.words import plural
from designer.systems.rallye.analyse import pace_note
from designer.systems.rallye.draw import stage_svg
from designer.systems.rallye.model.stage import POLICIES, dumps
from designer.systems.rallye.table.draft import draft
from designer.app.rallye.state import current_deck, current_stage
from designer.app.tables import editable
from designer.systems.rallye.system import SYSTEM

ss = st.session_state
K = "rallye_"


def card_label(s) -> str:
    return f"{s.id} · {pace_note(s)} · {s.width} {s.surface} · {s.safety}/{s.top}"


def show_svg(svg: str, caption: str = "") -> None:
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    st.markdown(f'<img src="data:image/svg+xml;base64,{data}" style="width:100%;max-width:1100px" '
                f'alt="{caption}"/>', unsafe_allow_html=True)


def _deck_and_stage():
    try:
        deck = current_deck()
    except DesignerError as exc:
        st.error(f"The deck in the editor has problems; fix them in the Deck editor tab.\n\n{exc}")
        return None, None
    try:
        stage = current_stage()
    except DesignerError as exc:
        st.error(str(exc))
        return deck, None
    return deck, stage


def _problems(problems) -> None:
    if not any(p.severity == "error" for p in problems):
        st.success("valid: 12 cards, all known, laid on the table")
    for p in problems:
        text = f"{p.message[:1].upper()}{p.message[1:]} ({p.where})" + (f"  \n_{p.hint}_" if p.hint else "")
        {"error": st.error, "warning": st.warning}.get(p.severity, st.info)(text)


def stage_tab() -> None:
    layout.roomy()
    deck, stage = _deck_and_stage()
    if deck is None or stage is None:
        return
    data = ss[K + "stage"]
    version = ss.get(K + "editor_version", 0)
    c1, c2 = st.columns([3, 1])
    data["stage"] = c1.text_input("Stage name", data.get("stage", ""), key=f"{K}name_{version}") or "stage"
    players = c2.number_input("Drivers", 1, 4, int(data.get("players") or 1), key=f"{K}players_{version}")
    data["players"] = int(players)
    labels = {str(cid): card_label(s) for cid, s in deck.sections.items()}
    by_label = {v: k for k, v in labels.items()}
    unknown = ss.get(K + "cards_unknown")
    if not unknown or unknown[0] != version:      # cards the deck lacks, as the stage was opened or drafted
        unknown = (version, [f"{c} · not in the deck" for c in data.get("cards") or [] if str(c) not in labels],
                   max(12, len(data.get("cards") or [])))
        ss[K + "cards_unknown"] = unknown
    st.markdown(f"**The 12 cards in driving order** (deck *{deck.name}*: {len(deck.sections)} cards)")

    def rows_of(cards: list) -> list[dict]:
        rows = [{"section": i + 1, "card": labels.get(str(c), f"{c} · not in the deck")} for i, c in enumerate(cards)]
        return rows + [{"section": len(rows) + i + 1, "card": None} for i in range(max(0, 12 - len(rows)))]

    def cards_of(rows: list[dict]) -> list:
        return [by_label.get(r["card"], r["card"].split(" · ")[0]) for r in rows
                if isinstance(r.get("card"), str) and r["card"]]

    data["cards"] = editable(
        f"{K}cards", version, data.get("cards") or [], ["section", "card"], to_rows=rows_of, from_rows=cards_of,
        height=35 * (unknown[2] + 2) + 3,
        column_config={"section": st.column_config.NumberColumn("#", disabled=True, width="small"),
                       "card": st.column_config.SelectboxColumn("card", options=list(labels.values()) + unknown[1],
                                                                width="large")})
    with st.expander("Draft the stage as the rules do (six face-up piles)"):
        d1, d2, d3 = st.columns(3)
        seed = d1.number_input("Seed", 0, 10 ** 6, 1, key=K + "draft_seed")
        dp = d2.number_input("Drivers drafting", 1, 4, int(players), key=K + "draft_players")
        policy = d3.selectbox("Drivers choose", POLICIES, key=K + "draft_policy",
                              help="random; fast: the highest safety speed; slow: the lowest")
        if st.button("Draft 12 cards", key=K + "draft"):
            try:
                result = draft(deck, int(dp), int(seed), policy)
                data["cards"] = [int(c) if c.isdigit() else c for c in result.cards]
                data["draft"] = {"seed": int(seed), "players": int(dp), "policy": policy}
                ss[K + "editor_version"] = ss.get(K + "editor_version", 0) + 1
                ss[K + "draft_log"] = result.log
                st.rerun()
            except DesignerError as exc:
                st.error(str(exc))
        if ss.get(K + "draft_log"):
            st.caption(" · ".join(ss[K + "draft_log"]))
    stage = current_stage()
    problems = SYSTEM.validate(stage, deck)
    _problems(problems)
    if stage.cards and not any(p.code == "unknown-card" for p in problems):
        result = SYSTEM.analyse(stage, deck, players=int(players), runs=0, table_races=0, partial=True)
        show_svg(stage_svg(result), "stage drawing")
    st.download_button("Download the stage (YAML)", dumps(stage), file_name=_file_name(stage.name, ".yaml"),
                       mime="text/yaml", key=K + "dl_stage")


def _file_name(name: str, ext: str) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name.lower()).strip("-") or "stage"
    return safe[:60] + ext


RACES = 100         # races of the drivers at the table, for each seat's time and the table time


def analysis_key(stage, deck_data, players: int, runs: int, stress: int = 0) -> str:
    """What an analysis depends on: the stage as its file says it, the deck's data and the three inputs."""
    return hashlib.sha1(json.dumps([dumps(stage), deck_data, players, runs, stress], sort_keys=True, default=str)
                        .encode("utf-8")).hexdigest()


@st.cache_data(show_spinner=False, max_entries=64)
def _analysed(key: str, _stage, _deck, players: int, runs: int, stress: int) -> dict:
    """The analysis, kept per stage and inputs (``key``) for every visit and every session."""
    return SYSTEM.analyse(_stage, _deck, players=players, runs=runs, extra_stress=stress, partial=True,
                          race_runs=RACES if players > 1 else 0)


_MADE = Recent(256)             # keys of the analyses made in this server (no progress box for them)


def _analysis(stage, deck, players: int, runs: int, stress: int = 0, slot=None) -> dict:
    """The analysis of the stage; made with a progress box in ``slot`` when it is not made yet."""
    key = analysis_key(stage, ss[K + "deck"], players, runs, stress)
    cached = ss.get(K + "result")
    if cached and cached[0] == key:
        return cached[1]
    if slot is None or key in _MADE:
        result = _analysed(key, stage, deck, players, runs, stress)
    else:
        with busy.progress(slot, f"Analysing {stage.name}") as p:
            result = p.wait_for(0, f"the speed plans, then {runs} solo runs with real hands and the races at the "
                                "table", _analysed,
                                key, stage, deck, players, runs, stress)
    _MADE.get(key, lambda: True)
    ss[K + "result"] = (key, result)
    return result


def analysis_tab() -> None:
    layout.roomy()
    deck, stage = _deck_and_stage()
    if deck is None or stage is None:
        return
    errors = [p for p in SYSTEM.validate(stage, deck) if p.severity == "error"]
    if errors:
        st.warning(f"The stage has {plural(len(errors), 'error')} (see the Stage tab); the analysis covers the cards it has.")
    if not stage.cards or any(p.code == "unknown-card" for p in errors):
        st.info("Choose the cards of the stage first.")
        return
    c1, c2, c3 = st.columns(3)
    players = int(c1.number_input("Drivers at the table", 1, 4, int(stage.players or 1), key=K + "an_players"))
    runs = int(c2.selectbox("Simulated solo runs", [100, 300, 1000], index=1, key=K + "an_runs"))
    stress = int(c3.number_input("Stress cards in the starting set", 0, 3, 0, key=K + "an_stress",
                                 help="the rules' handicap for experienced drivers: 1 to 3 stress cards"))
    slot = st.empty()                   # the analysis' progress, near the top of the tab, while it is made
    result = _analysis(stage, deck, players, runs, stress, slot)
    sim = (result.get("simulation") or {}).get("fastest") or {}
    m = st.columns(4)
    full = result.get("full_information") or {}
    m[0].metric("Cautious plan", f"{result['cautious_solo_seconds']:.1f} s",
                help=f"chosen from the cards' fronts; {full.get('cautious_solo_seconds', '-')} s if you knew every back")
    m[1].metric("Fastest plan", f"{result['best_solo_seconds']:.1f} s", f"-{result['fastest_gain_seconds']:.1f} s",
                delta_color="inverse",
                help=f"chosen from the cards' fronts; {full.get('best_solo_seconds', '-')} s if you knew every back")
    spin = sim.get("spin_stage_chance")
    m[2].metric("With real hands", f"{sim.get('mean_seconds', '-')} s",
                f"spin in {100 * spin:.1f}% of runs" if spin is not None else None, delta_color="off",
                help=("the driver plays its own hand, deciding from the cards it holds and may draw; 95% interval "
                      f"of the mean {sim['mean_ci95'][0]:.1f}-{sim['mean_ci95'][1]:.1f} s, of the spin rate "
                      f"{100 * max(0.0, sim['spin_ci95'][0]):.1f}-{100 * sim['spin_ci95'][1]:.1f}%")
                if sim.get("mean_ci95") else None)
    table = result["table_time"]
    m[3].metric("Table time", f"{table['minutes']} min",
                help=f"counted from {table.get('races', '-')} simulated races of {plural(players, 'driver')}: "
                     f"{table.get('rounds', '-')} rounds, {table.get('cards_laid_per_round', '-')} cards laid a "
                     f"round (p10 {table.get('p10_minutes', '-')}, p90 {table.get('p90_minutes', '-')} min)")
    raced = result.get("race")
    if raced:
        st.markdown(f"**A race of {plural(players, 'driver')}** ({raced['runs']} races, each seat's own hand)")
        st.dataframe(pd.DataFrame([{"seat": x["seat"], "solo-scale s": x["solo_seconds"], "± s": x["solo_stdev"],
                                    "behind the winner s": x["mean_behind_seconds"], "p90 behind": x["p90"],
                                    "wins": x["wins"], "spins": x["spins_per_stage"]} for x in raced["seats"]]),
                     hide_index=True, width="stretch")
    for line in result["summary"]:
        st.markdown(f"- {line}")
    show_svg(stage_svg(result, parts=("profile",)), "speed profile")
    st.markdown("**Reconnaissance notes**")
    rows = [{"#": r["section"], "card": r["card"], "call": r["note"], "width": r["width"], "surface": r["surface"],
             "safety": r["safety"], "top": r["top"], "cautious": r["cautious_speed"], "planned": r["planned_speed"],
             "next hard": f"in {r['next_hard']['in']} → {r['next_hard']['note']}" if r["next_hard"] else "—"}
            for r in result["recon"]]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    with st.expander("Both plans, section by section (expected seconds with the best hand every section)"):
        legs = zip(result["plans"]["cautious"]["legs"], result["plans"]["fastest"]["legs"])
        st.dataframe(pd.DataFrame([{"#": a["section"], "cautious km/h": a["speed"], "cautious s": a["seconds"],
                                    "fastest km/h": b["speed"], "fastest s": b["seconds"],
                                    "expected die penalty s": b["penalty"],
                                    "spin chance (best hand)": b["spin_chance"]}
                                   for a, b in legs]), hide_index=True, width="stretch")
    if sim.get("histogram"):
        st.markdown(f"**Solo times with real hands** ({sim['runs']} runs of the fastest plan)")
        hist = pd.DataFrame({"seconds": [int(k) for k in sim["histogram"]], "runs": list(sim["histogram"].values())})
        st.bar_chart(hist, x="seconds", y="runs")
    st.download_button("Download the analysis (JSON)", json.dumps(result, indent=2, default=str),
                       file_name=_file_name(stage.name, "-analysis.json"), mime="application/json", key=K + "dl_json")


def roadbook_tab() -> None:
    layout.roomy()
    deck, stage = _deck_and_stage()
    if deck is None or stage is None:
        return
    if not stage.cards:
        st.info("Choose the cards of the stage first.")
        return
    st.markdown("The reconnaissance sheet: per section the call, width and surface, safety and top speed, "
                "the planned speed and the distance to the next tight corner; the strip, the speed profile, "
                "the cards on the table and the solo targets.")
    paper = st.selectbox("Paper", ["A4", "Letter"], key=K + "paper")
    flag = K + "rb_busy"
    st.button("Prepare the road book (PDF)", key=K + "build_rb", on_click=busy.start, args=(flag,),
              disabled=busy.running(flag))
    if busy.running(flag):
        from designer.systems.rallye.roadbook import stage_pdf

        try:
            with busy.working(flag), busy.progress(st.empty(), "Writing the road book") as p:
                ss[K + "roadbook"] = p.wait_for(0, "the sheet, the strip, the speed profile and 200 solo runs",
                                                stage_pdf, stage, deck, paper=paper, players=stage.players, runs=200)
            ss.pop(K + "rb_error", None)
        except DesignerError as exc:
            ss[K + "rb_error"] = str(exc)
        st.rerun()                      # the button enabled again, the download or the message under it
    if ss.get(K + "rb_error"):
        st.error(ss[K + "rb_error"])
    if ss.get(K + "roadbook"):
        st.download_button("Download the road book (PDF)", ss[K + "roadbook"],
                           file_name=_file_name(stage.name, ".pdf"), mime="application/pdf", key=K + "dl_pdf")
