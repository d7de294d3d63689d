"""What the app's pages share on screen whatever the game: room for the page on a narrow window.

Streamlit's wide layout keeps 5 rem either side of the page and a 300 px sidebar: on a 1024 px window that leaves
about 560 px for a tab, too little for a map beside its palette or for a row of headline figures. Below 1280 px the
page's margins shrink to 1.5 rem and the sidebar to 244 px (the sidebar's own resize handle still works above that).
"""
from __future__ import annotations

import streamlit as st

CSS = """<style>
@media (max-width: 1279px) {
  [data-testid="stMainBlockContainer"] { padding-left: 1.5rem !important; padding-right: 1.5rem !important; }
  section[data-testid="stSidebar"] { width: 244px !important; min-width: 244px !important; }
}
</style>"""


def roomy() -> None:
    """Put the narrow-window rules on the page (once a run; drawing it twice costs nothing but an element)."""
    st.html(CSS)
