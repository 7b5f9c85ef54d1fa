"""The router's pages, the run gate the tests hold a run at, and this session as the owner of its training run.
The pages are made once per process: st.Page resolves its file on disk, too dear to do for every page on every run
under a class's load (bench/README.md)."""

from __future__ import annotations

import copy
import os
import time
from functools import cache
from pathlib import Path

import streamlit as st
from streamlit import runtime
from streamlit.navigation.page import StreamlitPage
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner import get_script_run_ctx

from attnviz.pages import DEFAULT_PAGE, PAGES
from attnviz.train import background

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


def pass_the_run_gate(where: str) -> None:
    """Where ATTNVIZ_RUN_GATE names a folder (a browser test sets it) holding a file ``held`` whose text is ``where``
    ("start" or "end" of a run), the run waits there until the file is gone, having written ``arrived``: the test
    presses keys while a rerun is in flight however fast the machine is (tests/e2e/test_keyboard_in_flight.py)."""
    folder = os.environ.get("ATTNVIZ_RUN_GATE")
    if not folder:
        return
    held = Path(folder) / "held"
    try:
        if held.read_text() != where:
            return
    except FileNotFoundError:
        return
    (Path(folder) / "arrived").write_text(where)
    while held.exists():
        time.sleep(0.02)


def training_owner() -> background.Owner:
    """This session as the owner of its training run: present while its browser is connected to this server."""
    context = get_script_run_ctx()
    if context is None or not runtime.exists():  # AppTest: no server, no connection to lose
        return background.Owner()
    session_id, server = context.session_id, runtime.get_instance()
    return background.Owner(session_id, present=lambda: server.is_active_session(session_id))


def through_the_router() -> None:
    """A page's first step. Streamlit runs a project with a folder named pages/ as a legacy multipage app until app.py
    first calls st.navigation, so on a fresh server whose first visitor opens a page's address (/geometry), the page
    runs alone, without the router: no share-link restore, another menu. This leaves that mode and starts the run
    again through app.py; on every later run it does nothing."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
