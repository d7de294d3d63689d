"""The Race and Analysis tabs of The Great Race pages."""
from __future__ import annotations

import functools

import pandas as pd
import streamlit as st

from designer.app import busy, layout
from designer.app.greatrace import hexmap
from designer.app.greatrace.state import K, current_board, current_race, doc, ss, svg_image, tag, wkey
from designer.app.tables import editable
from designer.core.errors import DesignerError
from designer.systems.greatrace.files.race import dumps_race
from designer.systems.greatrace.system import SYSTEM, race_title


def _show_problems(problems) -> bool:
    bad = False
    for p in problems:
        text = p.message[:1].upper() + p.message[1:] + (f" — {p.hint}" if p.hint else "")
        if p.severity == "error":
            st.error(text)
            bad = True
        elif p.severity == "warning":
            st.warning(text)
        else:
            st.caption(text)
    return bad


def _objects():
    try:
        board = current_board()
    except DesignerError as exc:
        st.error(f"The board has problems; fix them in the map editor.\n\n{exc}")
        return None, None
    try:
        race = current_race()
    except DesignerError as exc:
        st.error(str(exc))
        return board, None
    return board, race


def _name_follows(field: str) -> None:
    """A race name that names the old start or finish city is renamed with the new one, so titles follow."""
    old, new = (ss.get(K + "race") or {}).get(field), ss.get(wkey(field))
    name = ss.get(wkey("race_name"), (ss.get(K + "race") or {}).get("race", ""))
    if old and new and old != new and old in name:
        ss[wkey("race_name")] = name.replace(old, new)


def _laid_rows(laid: dict) -> list[dict]:
    """The table's rows: the tiles laid, then the rows still missing their hex or terrain (kept while the map
    lays other tiles)."""
    rows = [{"hex": h, "terrain": t} for h, t in laid.items()]
    return rows + [r for r in ss.get(wkey("laid_pending"), []) if str(r.get("hex") or "").strip().upper() not in laid]


def _laid_of(rows: list[dict]) -> dict:
    """The tiles laid from the table's rows (a row still missing its hex or its terrain is left out of the race
    and kept for the table)."""
    ss[wkey("laid_pending")] = [{"hex": r.get("hex"), "terrain": r.get("terrain")} for r in rows
                                if (r.get("hex") or r.get("terrain")) and not (r.get("hex") and r.get("terrain"))]
    return {str(r["hex"]).strip().upper(): r["terrain"] for r in rows if r.get("hex") and r.get("terrain")}


REMOVE = "(take the tile away)"


def _on_lay(key: str) -> None:
    """A hex of the race map was clicked: lay the chosen terrain there (or take its tile away)."""
    h = hexmap.hex_from_event(ss.get(key))
    if h is None:
        return
    race = dict(ss[K + "race"])
    point = next((p for p in hexmap.race_points(ss[K + "board"], race) if p["hex"] == h), None)
    if point is None or point["kind"] in ("city", "purple city"):
        ss[K + "lay_error"] = f"{h} is a city: tiles are laid on the spaces between cities"
        return
    laid = dict(race.get("laid") or {})
    terrain = ss.get(K + "lay_terrain")
    if terrain == REMOVE or terrain is None:
        laid.pop(h, None)
    else:
        laid[h] = terrain
    race["laid"] = laid
    ss[K + "race"] = race
    ss[K + "result"] = None


def _lay_map(board, data: dict) -> None:
    """The race's map: a click lays the terrain chosen above it (the table beside it follows)."""
    terrains = [k.terrain for k in board.bag] + [REMOVE]
    st.selectbox("A click on the map lays", terrains, key=K + "lay_terrain",
                 help="choose a terrain of the bag, then click the hexes where such tiles lie on the table")
    points = hexmap.race_points(ss[K + "board"], data)
    key = K + "race_map_" + tag((data.get("laid"), data.get("median"), ss[K + "board"].get("cities")))
    with st.container(key=K + "race_map_box"):
        st.vega_lite_chart(spec=hexmap.chart(points, hexmap.race_colours(ss[K + "board"], points), max_width=560),
                           key=key, on_select=functools.partial(_on_lay, key), selection_mode=hexmap.PARAM,
                           theme=None, width="content")
    if ss.get(K + "lay_error"):
        st.warning(ss.pop(K + "lay_error"))


def race_tab() -> None:
    layout.roomy()
    board, race = _objects()
    if board is None:
        return
    data = dict(ss[K + "race"])
    if wkey("race_name") not in ss:
        ss[wkey("race_name")] = data.get("race", "")
    st.text_input("Race name", key=wkey("race_name"))
    cities = list(board.cities)
    purple = board.purple() or cities
    c1, c2, c3, c4 = st.columns(4)
    start = c1.selectbox("Start", purple, index=purple.index(data["start"]) if data.get("start") in purple else 0,
                         key=wkey("start"), on_change=_name_follows, args=("start",))
    rest = [p for p in purple if p != start] or purple
    finish = c2.selectbox("Finish", rest, index=rest.index(data["finish"]) if data.get("finish") in rest else 0,
                          key=wkey("finish"), on_change=_name_follows, args=("finish",))
    slots = ["(none)"] + board.median_slots()
    median = c3.selectbox("Median city", slots, index=slots.index(data["median"]) if data.get("median") in slots else 0,
                          key=wkey("median"))
    players = c4.number_input("Players", 1, 5, int(data.get("players", 4)), key=wkey("players"))
    dash = data.get("dashboard", {})
    rules = board.rules
    g1, g2, g3, g4 = st.columns(4)
    fuel = g1.number_input("Fuel", 0, rules.gauge_max("fuel"), int(dash.get("fuel", rules.gauge_max("fuel"))),
                           key=wkey("fuel"))
    engine = g2.number_input("Engine", 0, rules.gauge_max("engine"),
                             int(dash.get("engine", rules.gauge_max("engine"))), key=wkey("engine"))
    chassis = g3.number_input("Chassis", 0, rules.gauge_max("chassis"),
                              int(dash.get("chassis", rules.gauge_max("chassis"))), key=wkey("chassis"))
    money = g4.number_input("Money (F)", 0, 5000, int(data.get("money", 80)), step=10, key=wkey("money"))
    cards = data.get("cards", {})
    h1, h2, h3 = st.columns(3)
    transport = h1.number_input("TRANSPORT cards", 0, 9, int(cards.get("transport", 0)), key=wkey("c_transport"))
    escort = h2.number_input("ESCORTE cards", 0, 9, int(cards.get("escort", 0)), key=wkey("c_escort"))
    guide = h3.number_input("GUIDE cards", 0, 9, int(cards.get("guide", 0)), key=wkey("c_guide"))
    st.markdown("**Tiles already laid**: click the map, or type a hex and choose its terrain in the table")
    left, right = st.columns([3, 2])
    with left:
        _lay_map(board, data)
    with right:
        laid = editable(K + "laid", doc(), data.get("laid") or {}, ["hex", "terrain"], to_rows=_laid_rows,
                        from_rows=_laid_of, column_config={"terrain": st.column_config.SelectboxColumn(
                            options=[k.terrain for k in board.bag])})
    new = {"system": "greatrace", "race": ss[wkey("race_name")], "board": board.name, "start": start, "finish": finish,
           "players": int(players), "dashboard": {"fuel": int(fuel), "engine": int(engine), "chassis": int(chassis)},
           "money": int(money), "cards": {"transport": int(transport), "escort": int(escort), "guide": int(guide)},
           "laid": laid}
    if median != "(none)":
        new["median"] = median
    if new != ss[K + "race"]:
        ss[K + "race"] = new
        ss[K + "result"] = None
    try:
        race = current_race()
    except DesignerError as exc:
        st.error(str(exc))
        return
    st.subheader("Checks")
    if not _show_problems(SYSTEM.validate(race, board)):
        st.success("The race is valid.")
    svg_image(SYSTEM.draw(race, board))
    st.download_button("Download the race (YAML)", dumps_race(race), file_name="race.yaml", mime="text/yaml",
                       key=K + "dl_race")


def leg_rows(legs: list[dict]) -> list[dict]:
    """The legs of a route for a table read by a player: readable headers, the STOP chance in percent."""
    return [{"leg": f"{leg['start']} → {leg['end']}", "by": leg["via"], "spaces": leg["spaces"],
             "risk spaces": leg["risk_spaces"], "open spaces": leg["open_spaces"], "tiles laid": leg["laid_tiles"],
             "STOP tiles": leg["stops"], "STOP chance": f"{100 * leg['stop_chance']:.0f}%",
             "fuel": f"{leg['fuel']:.1f} / {leg['worst_fuel']}", "mechanic": f"{leg['mech']:.1f} / {leg['worst_mech']}",
             "fare (F)": leg["fare"], "paid (F)": leg["francs"], "hexes": " ".join(leg["hexes"]),
             "bands": " ".join(leg["bands"])} for leg in legs]


def direction_rows(directions: dict) -> list[dict]:
    """Both directions of the race side by side, with readable headers."""
    rows = []
    for d in directions.values():
        if not d:
            continue
        row = {"direction": f"{d['start']} → {d['finish']}"}
        if d.get("reachable"):
            row.update({"shortest (spaces)": d["shortest_spaces"], "fastest (actions)": d["fastest_actions"],
                        "fastest price (F)": d["fastest_francs"], "cheapest price (F)": d["cheapest_francs"],
                        "cheapest (actions)": d["cheapest_actions"], "fuel, fastest (exp)": f"{d['expected_fuel']:.1f}",
                        "risk spaces, fastest": d["risk_spaces"]})
        else:
            row["shortest (spaces)"] = "no route"
        rows.append(row)
    return rows


def _analyse(board, race, runs: int, transport: bool, slot=None) -> dict:
    """The race's analysis, made once per race, board and settings; with ``slot``, made with a progress box there."""
    key = (repr(ss[K + "race"]), repr(ss[K + "board"]), runs, transport)
    if ss.get(K + "result_key") != key or ss.get(K + "result") is None:
        if slot is None:
            result = SYSTEM.analyse(race, board, runs=runs, transport=transport)
        else:
            with busy.progress(slot, f"Analysing {race_title(race)}") as p:
                result = p.wait_for(0, f"the shortest, fastest and cheapest routes, then {runs} runs over the bag",
                                    SYSTEM.analyse, race, board, runs=runs, transport=transport)
        ss[K + "result"], ss[K + "result_key"] = result, key
    return ss[K + "result"]


def analysis_tab() -> None:
    layout.roomy()
    board, race = _objects()
    if board is None or race is None:
        return
    c1, c2 = st.columns(2)
    runs = c1.select_slider("Monte Carlo runs", [100, 300, 1000, 3000], value=300, key=K + "runs")
    transport = c2.toggle("Use transport lines", value=True, key=K + "transport")
    slot = st.empty()                   # the analysis' progress, at the top of the tab, while it is made
    try:
        result = _analyse(board, race, runs, transport, slot)
    except DesignerError as exc:
        st.error(f"{exc.message}: fix the race first.\n\n" + "\n\n".join(exc.details))
        return
    if not result.get("reachable"):
        for line in result.get("summary", []):
            st.error(line)
        return
    st.subheader(race_title(race))
    rows = []
    for name in ("shortest", "fastest", "cheapest"):
        p = result[name]
        rows.append({"route": name, "spaces": p["spaces"], "risk spaces": p["risk_spaces"],
                     "actions": p["actions"], "of which pilot": p.get("pilot_actions", p["actions"]),
                     "expected actions": f"{p['expected_actions']:g}",
                     "fuel (exp)": f"{p['fuel']:.1f}", "mechanic (exp)": f"{p['mech']:.1f}", "price (F)": p["francs"],
                     "path": " - ".join(p["path"])})
    st.table(pd.DataFrame(rows), hide_index=True)
    svg_image(SYSTEM.draw(race, board, result))
    st.markdown("**Trade-off** (no other way is better on actions, price, fuel and mechanic at once; actions are "
                "the assistants that move or mend the car)")
    if result.get("pareto_slack") is not None or not result.get("search_complete", True):
        st.caption("Not the whole set on this board: " + next(
            (line for line in result["summary"] if "trade-off set holds" in line or "too large" in line), ""))
    st.table(pd.DataFrame([{"actions": p["actions"], "price (F)": p["francs"], "fuel": p.get("fuel"),
                            "mechanic": p.get("mech"), "prestige (without arrival)": p.get("prestige"),
                            "spaces": p["spaces"], "rounds": p["rounds"], "path": " - ".join(p["path"])}
                           for p in result["pareto"]]), hide_index=True)
    scores = result.get("scoring") or {}
    if scores:
        st.markdown("**Prestige at the finish** (arrival 5/3/1, 1 a level of engine and chassis, 1 per 50 F)")
        st.table(pd.DataFrame([{"route": name, **{f"arriving {k}": v for k, v in sc["prestige_by_arrival_rank"].items()},
                                "engine": sc["engine"], "chassis": sc["chassis"], "francs left": sc["money_left"],
                                "bonus up to (F)": sc["progression_bonus"]["at_most"]}
                               for name, sc in scores.items()]), hide_index=True)
        st.caption("Not modelled: " + "; ".join(result.get("not_modelled", [])))
    st.markdown("**Legs of the fastest route** (fuel and mechanic: expected / worst)")
    st.table(pd.DataFrame(leg_rows(result["fastest"]["legs"])), hide_index=True)
    st.markdown("**Monte Carlo over the bag** (mean, 10-90%; what is paid during the race with the bag's draws, "
                "as the price counts it)")
    mc_rows = []
    for name, mc in result["montecarlo"].items():
        row = {"route": name, "runs": mc["runs"], "stranded": f"{100 * mc['stranded_chance']:.1f}%",
               "needs funding": f"{100 * mc['funding_chance']:.1f}%"}
        for k, head in (("fuel", "fuel"), ("mech", "mechanic"), ("actions", "actions"), ("rounds", "rounds"),
                        ("francs", "paid during the race, F")):
            v = mc.get(k)
            row[head] = f"{v['mean']} ({v['p10']}-{v['p90']})" if v else "-"
        mc_rows.append(row)
    st.table(pd.DataFrame(mc_rows), hide_index=True)
    st.markdown("**Both directions**")
    st.table(pd.DataFrame(direction_rows(result["directions"])), hide_index=True)
    st.markdown("**Summary**")
    st.code("\n".join(result["summary"]), language=None, wrap_lines=True)
    flag = K + "rb_busy"
    st.button("Prepare the road book (PDF)", key=K + "build_rb", on_click=busy.start, args=(flag,),
              disabled=busy.running(flag))
    if busy.running(flag):
        from designer.systems.greatrace.book.roadbook import roadbook

        with busy.working(flag), busy.progress(st.empty(), "Writing the road book") as p:
            ss[K + "roadbook"] = p.wait_for(0, "the map, the routes, the legs and the odds of the bag", roadbook,
                                            race, board, result, SYSTEM.draw(race, board, result))
        st.rerun()                      # the button enabled again, the download under it
    if ss.get(K + "roadbook"):
        st.download_button("Download the road book (PDF)", ss[K + "roadbook"], file_name="roadbook.pdf",
                           mime="application/pdf", key=K + "dl_rb")
