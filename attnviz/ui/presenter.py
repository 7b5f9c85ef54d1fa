"""Presenter mode: one switch, shared by every page, for a classroom projector."""

from __future__ import annotations

import streamlit as st

NORMAL_FONT, PRESENTER_FONT = 13, 18
PRESENTER = "presenter"  # the switch's key: presenter mode, on every page

# The switch sits in the top bar, right of the page menu, so it costs no line of the page.
_SWITCH_CSS = """
.st-key-presenter_switch { position: fixed; top: 0.6rem; right: 3.5rem; z-index: 1000000; width: auto !important; }
"""
_PRESENTER_CSS = """
html { font-size: 20px; }
[data-testid="stMainBlockContainer"] { padding-top: 3.6rem; max-width: 100%; }
h1 { font-size: 2rem !important; padding-top: 0 !important; }
.st-key-stage_formula .katex { font-size: 1.55em; } /* Step by step's formula: digits 20 px tall, as the lens's */
"""


def presenter_switch() -> None:
    """The switch itself; app.py draws it once, so it keeps its state on every page."""
    with st.container(key="presenter_switch"):
        # "session": the value outlives a page switch a script makes (a lesson's step on another page), which drops a
        # widget's value otherwise, presenter mode with it, until the next click.
        st.toggle("Presenter mode", key=PRESENTER, help="Larger text and charts for a projector.",
                  persist_state="session")  # fmt: skip


def presenting() -> bool:
    return bool(st.session_state.get(PRESENTER, False))


def set_presenting(on: bool) -> None:
    """For a share link or a lesson that opens in presenter mode (before the switch is drawn)."""
    st.session_state[PRESENTER] = bool(on)


def presenter_css() -> str:
    """The switch's place in the top bar and larger text while presenting: for app.py's one style element."""
    return _SWITCH_CSS + (_PRESENTER_CSS if presenting() else "")


def chart_font_size() -> int:
    return PRESENTER_FONT if presenting() else NORMAL_FONT
