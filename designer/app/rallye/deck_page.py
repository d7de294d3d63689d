"""The Deck editor tab: enter one's own deck once, card by card, with the player aid's types to copy from.

The tables are edited in place; "Apply" checks the whole deck (every problem with its row) and makes it the
deck of the session; the deck leaves as a YAML download, never written on the server.
"""
from __future__ import annotations

import streamlit as st

from designer.app.rallye import deckedit
from designer.app.tables import editable
from designer.core.errors import DesignerError
from designer.systems.rallye.model.deck import DIRECTIONS, EXITS, OWNERS, SEVERITIES, deck_from_data

ss = st.session_state
K = "rallye_"


def deck_tab() -> None:
    data = ss[K + "deck"]
    version = ss.get(K + "editor_version", 0)
    st.markdown("Enter the cards of your own printed deck once; the demo deck is here to copy from. "
                "A card with a **type** takes its width, surface and severity from the player aid's line.")
    c1, c2, c3 = st.columns([1, 2, 1])
    name = c1.text_input("Deck name", str(data.get("deck", "my-deck")), key=f"{K}deck_name_{version}")
    title = c2.text_input("Title", str(data.get("title", "")), key=f"{K}deck_title_{version}")
    stress = c3.number_input("Stress cards", 0, 200, int((data.get("stress") or {}).get("count", 24)),
                             key=f"{K}deck_stress_{version}")
    widths, surfaces = list(data.get("widths") or []), list(data.get("surfaces") or [])
    st.caption(f"Widths: {', '.join(widths)} · surfaces: {', '.join(surfaces)} (the words of your cards; "
               "change them in the YAML)")

    st.markdown("**Player aid: section types** (safety and top speed ranges, km/h)")
    types = editable(f"{K}types", version, data.get("types"), deckedit.TYPE_COLUMNS, text=("type",),
                     to_rows=lambda part: deckedit.types_table({"types": part}),
                     column_config={"width": st.column_config.SelectboxColumn(options=widths),
                                    "surface": st.column_config.SelectboxColumn(options=surfaces),
                                    "severity": st.column_config.SelectboxColumn(options=list(SEVERITIES))})
    type_names = [str(t["type"]) for t in data.get("types") or [] if t.get("type")]   # the deck's, as applied
    new_types = [str(t["type"]).strip() for t in types if isinstance(t.get("type"), str) and t["type"].strip()]

    st.markdown("**Section cards** (a card's number may be a word, such as 12b; a type added above can be "
                "chosen here once the deck is applied)")
    st.caption("Rows copied from a spreadsheet paste into these tables: click a cell and paste (Ctrl+V / Cmd+V), "
               "the columns in the order shown (" + ", ".join(deckedit.SECTION_COLUMNS) + "); rows pasted below "
               "the last one are added. Many cards of one type: copy the type below, several at once.")
    with st.form(f"{K}add_card_{version}", border=False):
        a1, a2, a3, a4 = st.columns([2, 1, 1, 1])
        pick = a1.selectbox("Copy a type into new cards", new_types or ["(no type yet)"], key=K + "copy_type")
        direction = a2.selectbox("Direction", list(DIRECTIONS), key=K + "copy_dir")
        how_many = a3.number_input("How many", 1, 40, 1, key=K + "copy_count")
        add = a4.form_submit_button("Add cards", key=K + "add_card")
    sections = editable(
        f"{K}sections", version, data.get("sections"), deckedit.SECTION_COLUMNS, text=("id", "note"),
        to_rows=lambda part: deckedit.sections_table({"sections": part}),
        column_config={"type": st.column_config.SelectboxColumn(options=type_names),
                       "width": st.column_config.SelectboxColumn(options=widths),
                       "surface": st.column_config.SelectboxColumn(options=surfaces),
                       "severity": st.column_config.SelectboxColumn(options=list(SEVERITIES)),
                       "direction": st.column_config.SelectboxColumn(options=list(DIRECTIONS)),
                       "exit": st.column_config.SelectboxColumn(options=list(EXITS)),
                       "safety": st.column_config.NumberColumn(step=20, min_value=0, max_value=240),
                       "top": st.column_config.NumberColumn(step=20, min_value=0, max_value=240)})

    st.markdown("**Action cards** (steering: arrows such as `orange-left, red-left`; owner: start or pile)")
    actions = editable(
        f"{K}actions", version, data.get("actions"), deckedit.ACTION_COLUMNS, text=("id", "steering"),
        to_rows=lambda part: deckedit.actions_table({"actions": part}),
        column_config={"owner": st.column_config.SelectboxColumn(options=list(OWNERS)),
                       "acceleration": st.column_config.NumberColumn(step=20, min_value=20, max_value=240),
                       "count": st.column_config.NumberColumn(step=1, min_value=1)})

    edited = deckedit.tables_to_data({**data, "deck": name, "title": title}, types, sections, actions, int(stress))
    for label, rows in (("section cards", sections), ("action cards", actions)):
        lost = deckedit.rows_without_id(rows)
        if lost:
            st.warning(f"{lost} row(s) of the {label} have no id and are left out of the deck: give each row an id")
    if st.toggle("Edit the crossing tables (the backs of the cards)", key=K + "edit_tables"):
        edited = _crossing_tables(edited, version)
    if add and pick in new_types:
        edited = {**edited, "demo": False}
        new = deckedit.cards_from_type(edited, pick, int(how_many), direction)
        edited["sections"] = edited["sections"] + new
        _take(edited, f"{len(new)} card(s) added from the type {pick}: {', '.join(str(c['id']) for c in new)}")
        st.rerun()
    b1, b2 = st.columns(2)
    if b1.button("Apply to the session", key=K + "apply_deck", type="primary"):
        _take(edited, "deck applied")
        st.rerun()
    try:
        deck_from_data(edited, {}, "deck in the editor")
        st.success(f"the deck is complete: {len(edited['sections'])} section cards, "
                   f"{sum(a.get('count', 1) for a in edited['actions'])} action cards")
    except DesignerError as exc:
        st.error(str(exc))
    b2.download_button("Download the deck (YAML)", deckedit.dumps_deck(edited),
                       file_name=f"{name or 'deck'}.yaml", mime="text/yaml", key=K + "dl_deck")
    if ss.get(K + "deck_message"):
        st.caption(ss[K + "deck_message"])


def _crossing_tables(edited: dict, version: int) -> dict:
    """The crossing tables of the card backs: the deck's own (every card without tables of its own), or one
    card's. Edited here, checked with the rest of the deck when applied."""
    st.caption("The two tables on the back of the cards: die faces 1 to 6, for each step of 20 km/h over the "
               "safety speed; seconds of penalty or `spin`. Rows may be pasted from a spreadsheet too.")
    ids = [str(c.get("id")) for c in edited.get("sections") or []]
    which = st.selectbox("Tables of", ["the whole deck"] + [f"card {i}" for i in ids], key=f"{K}tables_of_{version}")
    if which == "the whole deck":
        res = edited.get("resolution") or {}
        current = res.get("value") if isinstance(res, dict) else None
        if current is None:
            from designer.systems.rallye.model.rules import get_ruleset

            current = get_ruleset(None).tables.to_data()
    else:
        card = next(c for c in edited["sections"] if str(c.get("id")) == which[len("card "):])
        current = card.get("tables")
        st.caption("A card without tables of its own uses the deck's; leave the table empty to keep it that way.")
    tables = editable(f"{K}crossing_{which}", version, current, deckedit.TABLE_COLUMNS, text=("wheel",),
                      to_rows=deckedit.crossing_rows, from_rows=deckedit.rows_to_crossing,
                      column_config={"wheel": st.column_config.SelectboxColumn(options=["right", "wrong"])})
    if tables == deckedit.rows_to_crossing(deckedit.crossing_rows(current)):
        return edited                                             # nothing changed here
    out = {**edited, "sections": [dict(c) for c in edited["sections"]]}
    if which == "the whole deck":
        status = (edited.get("resolution") or {}).get("status", "assumed")
        out["resolution"] = {"value": tables, "status": status,
                             "source": (edited.get("resolution") or {}).get("source", "entered in the deck editor")}
    else:
        card = next(c for c in out["sections"] if str(c.get("id")) == which[len("card "):])
        if tables["wheel_right"] or tables["wheel_wrong"]:
            card["tables"] = tables
        else:
            card.pop("tables", None)
    return out


def _take(data: dict, message: str) -> None:
    try:
        deck_from_data(data, {}, "deck in the editor")
    except DesignerError as exc:
        ss[K + "deck_message"] = f"not applied: {exc}"
        return
    ss[K + "deck"] = data
    ss[K + "stage"]["deck"] = str(data.get("deck"))
    ss[K + "result"] = None
    ss[K + "editor_version"] = ss.get(K + "editor_version", 0) + 1
    ss[K + "deck_message"] = message
