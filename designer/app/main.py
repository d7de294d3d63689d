"""The stage designer in the browser: ``streamlit run designer/app/main.py`` (or ``rally-designer app``).

The shell shared by every game system: page set-up, the game chooser at the top of the sidebar (also the URL's
``?system=`` parameter), then the chosen system's own sidebar part and tabs from ``designer.app.<system>``. Each
system's pages module exposes ``sidebar()`` and ``tabs() -> [(label, draw)]``; only the open tab is drawn. A pages
module that keeps its work in the page address also offers ``ADDRESS_PARAMS``, ``address_work()`` and
``open_address(found)`` (see :mod:`designer.app.address`): the shell reads the address on a session's first run
and writes the work back after every run.
"""
from __future__ import annotations

import importlib
import logging
import os
import sys
from pathlib import Path

try:
    import designer  # noqa: F401
except ImportError:  # started from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import streamlit as st

from designer import systems
from designer.app import address, layout, memory
from designer.core.errors import DesignerError

ss = st.session_state
log = logging.getLogger("designer.app")


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


def guarded(part: str, draw, *args):
    """Run one part of the page; a failure there is a message in words, never a traceback in the browser.

    A :class:`DesignerError` says what was wrong with the user's input; anything else is logged with its
    traceback on the server's console only. The session's work is left as it was before the failing step.
    Streamlit's own reruns and stops are not exceptions of this kind and pass through. With the environment
    variable ``RALLY_APP_RAISE`` set (the test suite's in-process page runs), an unexpected error is raised.
    """
    try:
        return draw(*args)
    except DesignerError as exc:
        st.error(f"**{part}:** {exc}".replace("\n", "  \n"))
    except Exception as exc:  # noqa: BLE001 - the page must stay up whatever a part does
        if os.environ.get("RALLY_APP_RAISE"):       # the test suite's in-process pages: show the bug itself
            raise
        log.error("%s failed", part, exc_info=True)
        st.error(f"**{part} stopped on an unexpected problem** ({type(exc).__name__}). Your work is kept: "
                 "undo the last change or open another stage; the details are in the server's log.")
    return None


def main() -> None:
    st.set_page_config(page_title="Rally stage designer", page_icon=":material/flag:", layout="wide")
    layout.roomy()                  # room for a tab on a narrow window, whichever game and tab
    names = available()
    name = _choose_system(names)
    pages = importlib.import_module(f"designer.app.{name}")
    guarded("The page address", address.restore, name, pages)
    guarded("The sidebar", pages.sidebar)
    tabs = guarded("This page", pages.tabs) or []
    if tabs:
        widgets = st.tabs([label for label, _ in tabs], key=f"{name}_view", on_change="rerun")
        for widget, (label, draw) in zip(widgets, tabs):
            if widget.open:
                with widget:
                    guarded(f"The {label} tab", draw)
    guarded("The page address", address.keep, name, pages)
    memory.settle()


main()
