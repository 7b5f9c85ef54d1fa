"""The Playground state in Streamlit's session, shared by every page."""

from __future__ import annotations

import streamlit as st

from attnviz.playground import PlaygroundState

_KEY = "playground"


def get_state() -> PlaygroundState:
    """The current Playground state (the defaults on a first visit)."""
    if _KEY not in st.session_state:
        st.session_state[_KEY] = PlaygroundState()
    return st.session_state[_KEY]


def set_state(state: PlaygroundState) -> None:
    st.session_state[_KEY] = state
