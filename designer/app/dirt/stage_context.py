"""The edited DIRT stage as every tab sees it: assembled and checked once per version of the stage.

The assembled track and its problems depend on the stage's content alone, so they are kept by the stage's own
text for the last few stages seen: an undo, a redo, or a return to a stage another session opened costs no
assembly and no validation.
"""
from __future__ import annotations

from dataclasses import dataclass

from designer.app.recent import Recent


@dataclass
class Context:
    """What every tab draws from: the stage, its tileset, the assembled track and its problems."""
    stage: object
    tileset: object
    track: object
    problems: list


_CHECKED = Recent(24)                 # (stage text, tileset) -> (track, problems)


def checked(stage, tileset) -> tuple[object, list]:
    """The stage assembled with its tileset and validated, from the last stages seen when it is one of them."""
    from designer.systems.dirt.board.track import assemble
    from designer.systems.dirt.board.validate import validate

    def make():
        track = assemble(stage, tileset)
        return track, validate(stage, tileset, track)

    return _CHECKED.get((stage.model_dump_json(), tileset.name), make)


def context() -> Context:
    """The edited stage, assembled and checked."""
    import streamlit as st

    from designer.app.dirt import state

    stage = st.session_state.stage
    tileset = state.tileset_of(stage)
    track, problems = checked(stage, tileset)
    return Context(stage, tileset, track, problems)
