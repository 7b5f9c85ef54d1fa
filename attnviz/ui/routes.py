"""The router's pages, made once per process: st.Page resolves its file on disk, which cost 6 % of the server's CPU
under a class's load (issue 27) when app.py made ten of them on every run."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path

import streamlit as st
from streamlit.navigation.page import StreamlitPage

from attnviz.pages import DEFAULT_PAGE, PAGES

REPO = Path(__file__).resolve().parents[2]  # where app.py and pages/ are


@cache
def _made_once() -> tuple[StreamlitPage, ...]:
    return tuple(
        st.Page(REPO / page.file, title=page.title, icon=page.icon, default=page.name == DEFAULT_PAGE)
        for page in PAGES
    )


def routes() -> dict[str, StreamlitPage]:
    """Page name -> a fresh copy of its st.Page: st.navigation marks the chosen one runnable for this run only, so
    sessions running at once must not share one object."""
    return {page.name: copy.copy(made) for page, made in zip(PAGES, _made_once(), strict=True)}
