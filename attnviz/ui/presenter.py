"""Presenter mode: one switch, shared by every page, for a classroom projector."""

from __future__ import annotations

import streamlit as st

_KEY = "presenter"
NORMAL_FONT, PRESENTER_FONT = 13, 18

_PRESENTER_CSS = """
<style>
html { font-size: 20px; }
[data-testid="stMainBlockContainer"] { padding-top: 3.5rem; max-width: 100%; }
h1 { font-size: 2rem !important; padding-top: 0 !important; }
</style>
"""


def presenter_switch() -> None:
    """The switch itself; app.py draws it once, so it keeps its state on every page."""
    st.toggle("Presenter mode", key=_KEY, help="Larger text and charts for a projector; hides the editing tables.")
    if presenting():
        st.markdown(_PRESENTER_CSS, unsafe_allow_html=True)


def presenting() -> bool:
    return bool(st.session_state.get(_KEY, False))


def chart_font_size() -> int:
    return PRESENTER_FONT if presenting() else NORMAL_FONT
