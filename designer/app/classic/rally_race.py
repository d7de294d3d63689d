"""The classic rally raced at the table, on the Rally tab: several cars over the rally's stages
(:func:`designer.systems.classic.dice.rally_table.simulate_rally_table`), with the time control (ART.22) and the
start order by the standings (ART.3.2). Boxes for the cars and the races, the button (disabled while it runs),
a progress box under it, then one row per seat. The figures are kept with what they were raced on: after the
rally, its zone box or the counts change, the page asks to race again instead of showing them."""
from __future__ import annotations

import hashlib

import streamlit as st

from designer.app import busy
from designer.app.classic.state import K, box_for, ss
from designer.core.errors import DesignerError
from designer.core.words import plural
from designer.racing.course import format_time
from designer.systems.classic.files import stage as S

BUSY = K + "race_busy"
CARS = K + "race_cars"
RUNS_KEY = K + "race_runs"
RUNS = (1, 2000, 20)            # races: least, most, first offered (the demo rally: about 15 s for 20)


def race_key(rally, cars: int, runs: int) -> str:
    """What a race was run on: the stages as written, the zone box in use, the cars and the races."""
    h = hashlib.sha256()
    for stage in rally.stages:
        h.update(S.dumps(stage).encode())
    h.update((ss.get(K + "box_text") or f"@{ss.get(K + 'near')}").encode())
    return f"{h.hexdigest()[:20]}:{cars}:{runs}"


def race(rally, cars: int, runs: int) -> dict:
    """The rally raced ``runs`` times by ``cars`` cars on the zones the page uses (seeded: the same figures every
    time); a stage whose boards do not join is a :class:`DesignerError` naming it."""
    from designer.systems import get

    return get("classic").simulate_rally(rally, players=cars, runs=runs, box_of=box_for,
                                         hint="fix its route on the Stage tab")


def seat_rows(result: dict) -> list[dict]:
    """One row per seat: total time, spread, 95% interval of the mean, penalties, each stage's mean."""
    rows = []
    for s in result["seats"]:
        lo, hi = s["ci95"]
        row = {"car": s["seat"], "rally time": format_time(s["rally_seconds"]), "sd (s)": round(s["sd"], 1),
               "95% interval (s)": f"{lo:.1f}-{hi:.1f}",
               "penalties (s)": round(s["penalty_seconds"], 1)}
        for k, sec in enumerate(s["stage_seconds"], start=1):
            row[f"ES{k}"] = format_time(sec)
        rows.append(row)
    return rows


def _race(slot, rally, cars: int, runs: int) -> None:
    """The races asked for by the button, in view in ``slot``; the page is drawn again after."""
    key = race_key(rally, cars, runs)
    try:
        with busy.working(BUSY), busy.progress(slot, f"Racing {plural(cars, 'car')} over the rally "
                                                     + plural(runs, "time")) as p:
            result = p.wait_for(0, f"{plural(len(rally.stages), 'stage')}: each car's policy, then the races",
                                race, rally, cars, runs)
        ss[K + "race"] = {"key": key, "result": result}
        ss.pop(K + "race_error", None)
    except DesignerError as exc:
        ss[K + "race_error"] = str(exc).replace("\n", "  \n")
    st.rerun()


def section(rally) -> None:
    """Cars and races, the button and its progress box, then the figures of the last race of this rally."""
    st.subheader("At the table: several cars over the rally", anchor=False)
    first = rally.stages[0].players if rally.stages else 4
    c = st.columns([1, 1, 2], vertical_alignment="bottom")
    c[0].number_input("Cars", 1, 6, value=int(first), step=1, key=CARS, persist_state="page",
                      help="Cars at the table (the rulebook: 1 to 6)")
    c[1].number_input("Races", RUNS[0], RUNS[1], value=RUNS[2], step=10, key=RUNS_KEY, persist_state="page",
                      help="Simulated rallies: more races, a narrower interval, a longer wait (about 0.1 s a race "
                           "of three stages and four cars, after the stages' policies are made)")
    running = busy.running(BUSY)
    c[2].button("Racing..." if running else "Race the rally", type="primary", icon=":material/sports_score:",
                key=K + "race_go", on_click=busy.start, args=(BUSY,), disabled=running,
                help="Each stage's policy for the car opening the road and for the others, then the rally raced "
                     "car by car with the time control between stages")
    slot = st.empty()                   # the races' progress, under the button that started them (in view)
    cars, runs = int(ss.get(CARS) or first), int(ss.get(RUNS_KEY) or RUNS[2])
    if running:
        _race(slot, rally, cars, runs)
        return
    d = busy.kept_result(ss.get(K + "race_error"), ss.get(K + "race"), lambda: race_key(rally, cars, runs),
                         "Race the rally to see each car's total time, its spread and interval, the penalties it "
                         "takes at the time controls and its mean on each stage.")
    if d is None:
        return
    if d.get("table_minutes") is not None:
        st.metric("Table time (raced)", f"{d['table_minutes']:.0f} min")
    with st.container(key=K + "race_seats"):
        st.dataframe(seat_rows(d), hide_index=True)
    st.caption(f"{plural(d['players'], 'car')}, {plural(d['runs'], 'race')} (seeded {d['seed']}: the same figures "
               f"every time). Car 1 starts ES1 first, the others in turn; later stages start in the order of the "
               f"standings (ART.3.2). "
               f"Time-control bids (ART.22): {d['time_control_bid']}; opening the road costs "
               + ", ".join(f"{c:.1f} s" for c in d["opening_cost_seconds"]) + " by stage. The 95% interval is the "
               "mean rally time's.")
