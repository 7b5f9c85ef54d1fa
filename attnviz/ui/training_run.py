"""A run in the training worker as Watch it learn's experiments watch it: its progress bar (or its place in the
queue) and Stop while it goes, and its end."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from attnviz.lessons.training import queue_message
from attnviz.ui import state


def watched(run_key: str, finish: Callable, progress_text: Callable, *, stop_key: str | None = None):
    """In a live fragment: draws the run's bar and Stop, and returns the run and its latest progress (None while it
    waits). When the run is over, ``finish(run)`` and the whole page runs again: the result, and Train back."""
    run = state.kept(run_key)
    if run is None or run.done:
        if run is not None:
            finish(run)
        st.rerun()
    progress = run.poll()
    bar, stop = st.columns([5, 1], vertical_alignment="bottom")
    if progress is None:
        bar.info(queue_message(run.runs_ahead()), icon=":material/hourglass_top:")
    else:
        bar.progress(progress.fraction, text=progress_text(progress, run.config))
    stop.button("Stop", icon=":material/stop:", on_click=run.stop, disabled=run.stopping, width="stretch", key=stop_key)
    return run, progress
