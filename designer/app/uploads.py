"""The sidebar's upload of a game's file, one way for the games that keep their message in the sidebar.

A file is read from memory (never written on the server), checked for size and text (:func:`files.upload_text`)
and handed to the game's opener. Whatever happens, the sidebar then shows one message, which replaces the one
before, and the uploader starts empty again (its key carries a number that changes after every upload), so that
neither files the app refused nor files the browser refused for their size pile up under it.

The uploader's own limit (``max_upload_size``) makes the browser refuse a larger file before sending it; the
server's limit (``--server.maxUploadSize``, set in :mod:`designer.app.serve`) is :data:`LARGEST_MB`.
"""
from __future__ import annotations

import logging
import os
from typing import Callable

import streamlit as st

from designer.core import files
from designer.core.errors import DesignerError

#: The largest file any page of the app takes, in MB: the classic zone editor's board photo. The YAML files of
#: stages, races, decks and boxes take 1 MB.
LARGEST_MB = 2

ss = st.session_state
log = logging.getLogger("designer.app")


def _take(prefix: str, key: str, limit_mb: int, what: str, hint: str, opener: Callable[[str, str], None]) -> None:
    up = ss.get(key)
    ss[prefix + "upload_n"] = ss.get(prefix + "upload_n", 0) + 1      # the next uploader starts empty
    if up is None:
        return
    ss.pop(prefix + "message", None)
    try:
        opener(files.upload_text(up.getvalue(), up.name, limit_mb, what, hint), up.name)
    except DesignerError as exc:
        ss[prefix + "message"] = f"error: {exc}"
        return
    except Exception as exc:  # noqa: BLE001 - a file must never take the page down
        if os.environ.get("RALLY_APP_RAISE"):
            raise
        log.error("opening the upload %s failed", up.name, exc_info=True)
        ss[prefix + "message"] = (f"error: {up.name} could not be opened ({type(exc).__name__}); the work before "
                                  "it is kept, and the details are in the server's log")
        return
    ss.setdefault(prefix + "message", f"opened {up.name}")


def sidebar_upload(prefix: str, label: str, opener: Callable[[str, str], None], *, limit_mb: int = 1,
                   what: str = "a stage file", hint: str = "upload the YAML file of one stage (a few kB)") -> None:
    """An uploader in the sidebar whose file ``opener(text, name)`` opens; ``prefix`` is the game's session prefix
    (the message is kept under ``prefix + "message"``)."""
    key = f"{prefix}upload_{ss.get(prefix + 'upload_n', 0)}"
    st.sidebar.file_uploader(label, type=["yaml", "yml"], key=key, max_upload_size=limit_mb,
                             on_change=_take, args=(prefix, key, limit_mb, what, hint, opener),
                             help=f"at most {limit_mb} MB")


def show_message(prefix: str) -> None:
    """The game's one sidebar message: an error in red, anything else as a note."""
    msg = ss.get(prefix + "message")
    if msg:
        (st.sidebar.error if msg.startswith("error") else st.sidebar.info)(msg)
