"""A run in the training worker as Watch it learn's experiments watch it: its progress bar (or its place in the
queue) and Stop while it goes, and its end."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from attnviz.lessons.training import queue_message
from attnviz.ui import state


def watched(run_key: str, result_key: str, progress_text: Callable, *, on_result=None, stop_key: str | None = None):
    """In a live fragment: draws the run's bar and Stop, and returns the run and its latest progress (None while it
    waits). When the run is over, it keeps the result under ``result_key`` (and hands it to ``on_result``) or says
    why there is none, forgets the run, and runs the whole page again: the result, and Train back."""
    run = state.kept(run_key)
    if run is None or run.done:
        if run is not None:
            result, message = run.outcome()
            state.say(message)
            if result is not None:
                state.keep(result_key, result)
                if on_result is not None:
                    on_result(result)
            state.keep(run_key, None)
        st.rerun()
    progress = run.poll()
    bar, stop = st.columns([5, 1], vertical_alignment="bottom")
    if progress is None:
        bar.info(queue_message(run.runs_ahead()), icon=":material/hourglass_top:")
    else:
        bar.progress(progress.fraction, text=progress_text(progress, run.config))
    stop.button("Stop", icon=":material/stop:", on_click=run.stop, disabled=run.stopping, width="stretch", key=stop_key)
    return run, progress
