"""Streamlit glue shared by the pages. Only app.py and pages/ import this package; the core never does."""

import gc

import pandas  # noqa: F401
import plotly.graph_objects
import plotly.io  # noqa: F401
import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from attnviz.ui.edge import guard_the_edge

# pandas and plotly, imported whole here, before any page: imported first by two sessions' runs at once (a cold
# server's first class), one run got a half-made module ("partially initialized module 'pandas'") and no views.
# What is imported by now (Streamlit, numpy, pandas, plotly) lives as long as the server. Freezing it keeps Python's
# full collections, which any session's click can trigger, from scanning it again and again (bench: a 128-token
# toggle's CPU fell from 290 to 204 ms). Runs once a process, on the first import.
gc.freeze()

guard_the_edge()  # crafted values refused before Streamlit decodes them, its refusals one log line (ui/edge.py)

# Streamlit runs a project with a folder named pages/ as a legacy multipage app until app.py first calls
# st.navigation. So on a fresh server whose first visitor opens a sub-page link (/geometry), that page would run
# on its own, without the router: no share-link restore, a different menu. Every page imports this package, so
# the first such run switches the legacy mode off and starts again through app.py.
if PagesManager.uses_pages_directory:
    PagesManager.uses_pages_directory = False
    st.rerun()
