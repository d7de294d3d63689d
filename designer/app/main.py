"""The stage designer in the browser: ``streamlit run designer/app/main.py`` (or ``rally-designer app``).

The shell shared by every game system: page set-up, the game chooser at the top of the sidebar (also the URL's
``?system=`` parameter), then the chosen system's own sidebar part and tabs from ``designer.app.<system>``. Each
system's pages module exposes ``sidebar()`` and ``tabs() -> [(label, draw)]``; only the open tab is drawn.
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

try:
    import designer  # noqa: F401
except ImportError:  # started from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import streamlit as st

from designer import systems
from designer.app import memory

ss = st.session_state


def available() -> list[str]:
    """Systems that have both a library package and app pages."""
    out = []
    for name in systems.names():
        try:
            if importlib.util.find_spec(f"designer.app.{name}") is not None and (
                    name == systems.DEFAULT or _has_pages(name)):
                out.append(name)
        except ModuleNotFoundError:
            pass
    return out


def _has_pages(name: str) -> bool:
    """A system's pages module is ready when it defines both entry points (others may be mid-way)."""
    try:
        module = importlib.import_module(f"designer.app.{name}")
    except ImportError:
        return False
    return callable(getattr(module, "sidebar", None)) and callable(getattr(module, "tabs", None))


def _choose_system(names: list[str]) -> str:
    asked = st.query_params.get("system")
    if "system" not in ss:
        ss.system = systems.canonical(asked) if asked and systems.canonical(asked) in names else names[0]
    if ss.system not in names:
        ss.system = names[0]
    titles = {n: systems.get(n).title for n in names}
    st.sidebar.title("Rally stage designer", anchor=False)
    st.sidebar.selectbox("Game", names, key="system", format_func=lambda n: titles[n], on_change=_forget_address)
    if st.query_params.get("system") != ss.system:
        st.query_params["system"] = ss.system
    return ss.system


def _forget_address() -> None:
    """Another game was chosen: the address's other parameters belonged to the one before (each system owns
    every query parameter but ``system`` while it is chosen)."""
    for key in list(st.query_params):
        if key != "system":
            del st.query_params[key]


def main() -> None:
    st.set_page_config(page_title="Rally stage designer", page_icon=":material/flag:", layout="wide")
    names = available()
    name = _choose_system(names)
    pages = importlib.import_module(f"designer.app.{name}")
    pages.sidebar()
    tabs = pages.tabs()
    widgets = st.tabs([label for label, _ in tabs], key=f"{name}_view", on_change="rerun")
    for widget, (_label, draw) in zip(widgets, tabs):
        if widget.open:
            with widget:
                draw()
    memory.settle()


main()
