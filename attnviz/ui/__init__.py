"""Streamlit glue shared by the pages. Only app.py and pages/ import this package; the core never does. Importing it
changes nothing in Streamlit: app.py calls ``install()`` first, on every run, and it acts once a process."""

import gc

import pandas  # noqa: F401
import plotly.graph_objects
import plotly.io  # noqa: F401

from attnviz.ui.edge import guard_the_edge

# pandas and plotly are imported whole here, before any page: imported first by two sessions' runs at once (a cold
# server's first class), one run got a half-made module ("partially initialized module 'pandas'") and no views.
_installed = False


def install() -> None:
    """What the app changes in Streamlit, once a process:

    - ``gc.freeze()``: what is imported by now (Streamlit, numpy, pandas, plotly) lives as long as the server, and
      Python's full collections, which any session's click can trigger, stop scanning it again and again
      (bench/README.md: a 128-token toggle's CPU);
    - ``guard_the_edge()``: crafted values refused before Streamlit decodes them, its refusals one log line (edge.py).

    Streamlit's legacy pages/ mode, which a fresh server's first visit to a page's address meets before app.py has
    ever run, is left by each page's first step (attnviz.ui.routes.through_the_router)."""
    global _installed
    if not _installed:
        gc.freeze()
        guard_the_edge()
        _installed = True
