"""The edited DIRT stage as every tab sees it: assembled and checked once per version of the stage.

The assembled track and its problems depend on the stage's content alone, so they are kept by the stage's own
text for the last few stages seen: an undo, a redo, or a return to a stage another session opened costs no
assembly and no validation.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass


@dataclass
class Context:
    """What every tab draws from: the stage, its tileset, the assembled track and its problems."""
    stage: object
    tileset: object
    track: object
    problems: list


_KEPT = 24
_checked: "OrderedDict[tuple[str, str], tuple[object, list]]" = OrderedDict()     # (stage text, tileset) -> (track, problems)
_lock = threading.Lock()              # sessions run their scripts in threads of their own


def checked(stage, tileset) -> tuple[object, list]:
    """The stage assembled with its tileset and validated, from the last stages seen when it is one of them."""
    from designer.systems.dirt.track import assemble
    from designer.systems.dirt.validate import validate

    key = (stage.model_dump_json(), tileset.name)
    with _lock:
        hit = _checked.get(key)
        if hit is not None:
            _checked.move_to_end(key)
            return hit
    track = assemble(stage, tileset)
    value = (track, validate(stage, tileset, track))
    with _lock:
        _checked[key] = value
        while len(_checked) > _KEPT:
            _checked.popitem(last=False)
    return value


def context() -> Context:
    """The edited stage, assembled and checked."""
    import streamlit as st

    from designer.app.dirt import state

    stage = st.session_state.stage
    tileset = state.tileset_of(stage)
    track, problems = checked(stage, tileset)
    return Context(stage, tileset, track, problems)
