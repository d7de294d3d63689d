"""The speed profile of the Analysis tab: the gears along a line, the tiles where each starts (numbered above the
chart as on the map), the cells a jump flies over (shaded), and the length of the line the chart follows beside
the shortest line's.

:func:`profile_chart` is a plain function of the profile rows (:func:`designer.app.dirt.analysis.profile_rows`);
:func:`render` draws it with its line chooser.
"""
from __future__ import annotations

from designer.app.dirt import analysis

SERIES_COLOURS = {"gear limit": "#d8342c", "highest gear to finish": "#ee8a1a", "line gear": "#1456c8"}
JUMP_FILL = "#6b6b6b"
HEIGHT = 440                # the whole chart, legend and axis titles included (Streamlit fits it)


def long_rows(rows: list[dict]) -> list[dict]:
    """One row per (cell, series) with a gear: what the lines of the chart are drawn from."""
    out = []
    for r in rows:
        for series in SERIES_COLOURS:
            if r.get(series) is not None:
                out.append({"distance": r["distance"], "series": series, "gear": r[series], "tile": r["tile"],
                            "cell": r["cell"], "turn": r.get("turn"),
                            "jump": "flown over" if r.get("flown") else ""})
    return out


def jump_rows(rows: list[dict]) -> list[dict]:
    """The cells flown over by a jump, each as a band one cell wide."""
    return [{"distance": r["distance"], "end": r["distance"] + 1, "mid": r["distance"] + 0.5, "cell": r["cell"],
             "tile": r["tile"],
             "what": f"flown over by a jump (tile {r['tile']}, cell {r['cell']})"} for r in rows if r.get("flown")]


def profile_chart(rows: list[dict], name: str, top: int):
    """The profile as an Altair layer chart: jump bands, tile starts (rules and numbered circles above the plot),
    then one stepped line per series."""
    import altair as alt

    data = long_rows(rows)
    series = [s for s in SERIES_COLOURS if any(d["series"] == s for d in data)]
    end = max((r["distance"] for r in rows), default=0) + 1
    x_scale = alt.Scale(domain=[0, end], nice=False, zero=True)
    y_scale = alt.Scale(domain=[0, top + 0.6], nice=False)
    x = alt.X("distance:Q", scale=x_scale, title=f"Distance along the {name} line (cells); above: the tile where "
                                                 "each starts",
              axis=alt.Axis(tickMinStep=1, format="d"))
    colours = alt.Scale(domain=series, range=[SERIES_COLOURS[s] for s in series])
    lines = alt.Chart(alt.Data(values=data)).mark_line(interpolate="step-after", point=True, strokeWidth=2).encode(
        x=x,
        y=alt.Y("gear:Q", title="Gear", scale=y_scale, axis=alt.Axis(values=list(range(top + 1)), labelOverlap=False)),
        color=alt.Color("series:N", scale=colours, title=None,
                        legend=alt.Legend(orient="bottom", symbolType="stroke", symbolStrokeWidth=3)),
        strokeDash=alt.StrokeDash("series:N", legend=None,
                                  scale=alt.Scale(domain=series, range=[[1, 0] if s == "line gear" else [5, 3]
                                                                         for s in series])),
        tooltip=["distance:Q", "series:N", "gear:Q", "tile:Q", "turn:Q", "cell:N", "jump:N"],
    )
    layers = []
    jumps = jump_rows(rows)
    if jumps:
        band = alt.Chart(alt.Data(values=jumps))
        layers.append(band.mark_rect(fill=JUMP_FILL, opacity=0.22).encode(
            x=alt.X("distance:Q", scale=x_scale), x2="end:Q", tooltip=[alt.Tooltip("what:N", title="Jump")]))
        layers.append(band.mark_text(text="jump", align="left", angle=270, baseline="middle", fontSize=11,
                                     fontWeight="bold", color="#333333").encode(
            x=alt.X("mid:Q", scale=x_scale), y=alt.datum(0.15)))
    starts = [dict(s, label=str(s["tile"])) for s in analysis.tile_starts(rows)]
    if starts:
        tiles = alt.Chart(alt.Data(values=starts))
        layers.append(tiles.mark_rule(color="#9a9a9a", strokeDash=[2, 3]).encode(
            x=alt.X("distance:Q", scale=x_scale), tooltip=[alt.Tooltip("tile:Q", title="Tile starts")]))
        layers.append(tiles.mark_circle(size=260, color="#222222", opacity=1).encode(
            x=alt.X("distance:Q", scale=x_scale), y=alt.value(-16), tooltip=[alt.Tooltip("tile:Q", title="Tile")]))
        layers.append(tiles.mark_text(color="white", fontSize=10, fontWeight="bold").encode(
            x=alt.X("distance:Q", scale=x_scale), y=alt.value(-16), text="label:N"))
    return alt.layer(*layers, lines).properties(height=HEIGHT, padding={"top": 30, "left": 5, "right": 5,
                                                                        "bottom": 5})


def length_caption(view, name: str) -> str:
    """The length of the line the chart follows, and the shortest line's when that is another line."""
    length = analysis.line_length(view, name)
    short = analysis.line_length(view, "shortest")
    text = f"The {name} line drives {length} cells"
    if name != "shortest" and short is not None:
        text += f"; the shortest line {short} cells (the Length above)"
    return text + "."


def render(view, track) -> None:
    """The profile with its line chooser; choosing another line redraws this part alone (a fragment)."""
    import streamlit as st

    st.subheader("Speed profile", anchor=False)
    st.fragment(_chart)(view, track)


def _chart(view, track) -> None:
    import streamlit as st

    names = [n for n in analysis.LINE_NAMES if n in view.lines]
    if not names:
        return
    name = st.segmented_control("Along the", names, key="profile_line", default=names[0], required=True,
                                persist_state="page",
                                format_func=lambda n: f"{n} line") or names[0]
    rows = analysis.profile_rows(view, track.graph, name)
    if not rows:
        return
    top = analysis.top_gear(view) or max(r["gear limit"] or 0 for r in rows)
    st.caption(length_caption(view, name))
    st.altair_chart(profile_chart(rows, name, top), width="stretch", key="profile_chart")
    st.caption("Gear limit: the highest gear allowed to enter the cell (printed on the tile, a cut's own limit on a "
               "cut; the top gear where nothing is printed). Highest gear to finish: the most a car can be in there "
               "and still drive the rest of the stage legally. Grey bands: cells the car flies over on a jump "
               "(it never touches them). The numbered circles above the chart: where each tile starts.")
