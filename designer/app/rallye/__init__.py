"""The Rallye pages of the app: open a demo stage or an upload, choose or draft the 12 cards, see the speed plans,
print the reconnaissance sheet, and enter one's own deck card by card.

Session state (keys prefixed ``rallye_``) holds the stage and the deck as the plain data their YAML files hold;
every rerun rebuilds them, so an edit shows its problems at once. Nothing is written on the server: edited
files leave as downloads.
"""
from __future__ import annotations

from typing import Callable

import streamlit as st

from designer.app import uploads
from designer.app.rallye import deck_page, stage_page
from designer.app.rallye.state import K, ensure, open_example, open_text, stage_examples
from designer.app.rallye.work import ADDRESS_PARAMS, address_work, open_address  # noqa: F401 (the shell's)

ss = st.session_state


def sidebar() -> None:
    ensure()
    st.sidebar.subheader("Rallye (12 cards)")
    examples = stage_examples()
    choice = st.sidebar.selectbox("Demo stage", [e.label for e in examples], key=K + "demo_choice")
    if st.sidebar.button("Open the example", key=K + "open_demo"):
        open_example(next(e.path for e in examples if e.label == choice))
    uploads.sidebar_upload(K, "Open a stage or deck (YAML)", open_text, what="a stage or deck file",
                           hint="upload the YAML file of one stage, rally or deck (a few kilobytes); "
                                "split a large rally into stage files")
    with st.sidebar.expander("New stage"):
        name = st.text_input("Name", "SS new", key=K + "new_name")
        if st.button("Start an empty stage", key=K + "new_stage"):
            ss[K + "stage"] = {"system": "rallye", "stage": name or "SS new",
                               "deck": str(ss[K + "deck"].get("deck", "rallye-demo")), "cards": []}
            ss[K + "result"] = None
            ss[K + "editor_version"] = ss.get(K + "editor_version", 0) + 1
            ss[K + "message"] = "new stage: choose 12 cards or draft them"
    uploads.show_message(K)


def tabs() -> list[tuple[str, Callable[[], None]]]:
    ensure()
    return [("Stage", stage_page.stage_tab), ("Analysis", stage_page.analysis_tab),
            ("Road book", stage_page.roadbook_tab), ("Deck editor", deck_page.deck_tab)]
