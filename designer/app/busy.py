"""Long work on a page, said in view: what is being done and how far it is, and the button that started it
disabled until it ends.

Every game's pages use the same two pieces:

- :class:`Progress`: an ``st.status`` box in a slot the page keeps at the top of its tab, with a bar and a line
  saying the step (``"Stage 2 of 3: ..."``); it is gone once the work is done. The work runs in the page's own
  script, so that any click during it (the box's *Cancel* button or any other widget) stops it at its next step:
  Streamlit ends a run at the next element it draws when a newer run is asked for.
- :func:`start` / :func:`running` / :func:`finished`: a button that starts long work sets a flag with its
  ``on_click``; the page draws the button disabled while the flag is set, does the work, and clears the flag
  (also when the work is stopped or fails), then draws itself again.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import streamlit as st

ss = st.session_state


class Progress:
    """One piece of long work shown in a slot (``st.empty()``) near the top of a tab.

    ``total`` steps (stages, candidates...); :meth:`step` moves the bar and says what is being done. With
    ``cancel`` set to a key, a *Cancel* button is drawn in the box: its click stops the work (the page's
    ``on_cancel`` callback, if given, runs first)."""

    def __init__(self, slot, label: str, total: int = 1, cancel: str | None = None, on_cancel=None,
                 unit: str = "steps done"):
        self.slot, self.label, self.total, self.unit = slot, label, max(1, int(total)), unit
        self.started = time.monotonic()
        self._box = slot.status(label, expanded=True, state="running")
        # (children are added without ``with``: leaving a status block marks it complete)
        self._bar = self._box.progress(0.0, text="Starting...")
        if cancel:
            self._box.button("Cancel", key=cancel, icon=":material/stop_circle:", on_click=on_cancel,
                             help="Stop this work; what was there before stays")

    def step(self, done: int, text: str = "") -> None:
        """``done`` of ``total`` steps finished; ``text`` says what is being done now."""
        done = max(0, min(int(done), self.total))
        elapsed = time.monotonic() - self.started
        count = [] if self.total == 1 else [f"{done} of {self.total} {self.unit}"]     # one step: no count
        words = " · ".join(count + ([text] if text else []) + [f"{elapsed:.0f} s"])
        self._bar.progress(done / self.total, text=words)

    def close(self) -> None:
        self.slot.empty()

    def wait_for(self, done: int, text: str, fn, *args, **kwargs):
        """``fn(*args, **kwargs)`` in a worker thread while the box counts the seconds (step ``done``, ``text``);
        its result, or its exception raised here. A library call gives no steps of its own: the box still moves,
        and a click meanwhile stops the page at once (the call ends in the background; ``fn`` may keep its result
        where the next run finds it)."""
        out: dict = {}

        def work():
            try:
                out["value"] = fn(*args, **kwargs)
            except BaseException as exc:  # noqa: BLE001 - handed to the page's own thread
                out["error"] = exc

        worker = threading.Thread(target=work, name="rally-designer-work", daemon=True)
        worker.start()
        while worker.is_alive():
            self.step(done, text)
            worker.join(0.3)
        if "error" in out:
            raise out["error"]
        return out["value"]


@contextmanager
def progress(slot, label: str, total: int = 1, cancel: str | None = None, on_cancel=None, unit: str = "steps done"):
    """:class:`Progress` for the time of a ``with`` block; the box is taken away after it, whatever happens."""
    p = Progress(slot, label, total, cancel, on_cancel, unit)
    try:
        yield p
    finally:
        p.close()


def start(flag: str) -> None:
    """``on_click`` of a button that starts long work: the work is asked for."""
    ss[flag] = True


def running(flag: str) -> bool:
    """Is the work behind ``flag`` asked for and not ended yet (draw its button disabled)?"""
    return bool(ss.get(flag))


def finished(flag: str) -> None:
    ss[flag] = False


@contextmanager
def working(flag: str):
    """The work behind ``flag``: the flag is cleared when it ends, is stopped by another click, or fails."""
    try:
        yield
    finally:
        finished(flag)


def kept_result(error: str | None, kept: dict | None, key_now, first_time: str) -> dict | None:
    """The figures a long run left (``kept``: {"key", "result"}) when they are of what the page shows now
    (``key_now()``); otherwise None, after saying why: the run's error, ``first_time`` (never run) or "changed"."""
    if error:
        st.error(error)
    if not kept:
        st.caption(first_time)
        return None
    if kept["key"] != key_now():
        st.info("The rally, the cars or the races changed since the last race: race again for figures of this one.",
                icon=":material/info:")
        return None
    return kept["result"]
