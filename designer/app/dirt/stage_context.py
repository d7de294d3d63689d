"""The edited DIRT stage as every tab sees it: assembled and checked once per page run."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Context:
    """What every tab draws from: the stage, its tileset, the assembled track and its problems."""
    stage: object
    tileset: object
    track: object
    problems: list


def context() -> Context:
    """The edited stage, assembled and checked (once per page run)."""
    import streamlit as st

    from designer.app.dirt import state
    from designer.systems.dirt.track import assemble
    from designer.systems.dirt.validate import validate

    stage = st.session_state.stage
    tileset = state.tileset_of(stage)
    track = assemble(stage, tileset)
    return Context(stage, tileset, track, validate(stage, tileset, track))
