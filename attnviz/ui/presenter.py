"""Presenter mode: one switch, shared by every page, for a classroom projector."""

from __future__ import annotations

import streamlit as st

from attnviz.ui import state

NORMAL_FONT, PRESENTER_FONT = 13, 18

# The switch sits in the top bar, right of the page menu, so it costs no line of the page.
_SWITCH_CSS = """
<style>
.st-key-presenter_switch { position: fixed; top: 0.6rem; right: 3.5rem; z-index: 1000000; width: auto !important; }
</style>
"""
_PRESENTER_CSS = """
<style>
html { font-size: 20px; }
[data-testid="stMainBlockContainer"] { padding-top: 3.6rem; max-width: 100%; }
h1 { font-size: 2rem !important; padding-top: 0 !important; }
</style>
"""


def presenter_switch() -> None:
    """The switch itself; app.py draws it once, so it keeps its state on every page."""
    st.markdown(_SWITCH_CSS, unsafe_allow_html=True)
    with st.container(key="presenter_switch"):
        st.toggle("Presenter mode", key=state.presenter_key(), help="Larger text and charts for a projector.")
    if state.presenting():
        st.markdown(_PRESENTER_CSS, unsafe_allow_html=True)


def chart_font_size() -> int:
    return PRESENTER_FONT if state.presenting() else NORMAL_FONT
