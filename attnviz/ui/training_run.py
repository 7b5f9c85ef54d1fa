"""Watch it learn's runs in the training worker, kept as one object under one key (``Runs``, read by ``runs`` and
written by ``keep_runs``), and a run as both experiments watch it: its progress bar (or its place in the queue) and
Stop while it goes, and its end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from attnviz.lessons.training import queue_message
from attnviz.ui import state

RUNS = "training"  # Watch it learn's one key in st.session_state: its Runs


@dataclass(frozen=True)
class Runs:
    """Each experiment's run in the worker (None unless it trains or waits) and its last result (None before one)."""

    run: Any = None  # the classification run (attnviz.train.background), its result a TrainResult
    result: Any = None
    induction_run: Any = None  # the induction experiment's, its result an InductionResult
    induction_result: Any = None


def runs() -> Runs:
    return st.session_state.get(RUNS) or Runs()


def keep_runs(**changes) -> None:
    """Keeps ``runs()`` with ``changes`` (fields of Runs) made."""
    st.session_state[RUNS] = replace(runs(), **changes)


def watched(run_field: str, result_field: str, progress_text: Callable, *, on_result=None, stop_key=None):
    """In a live fragment: draws the run's bar and Stop, and returns the run (``run_field`` of Runs) and its latest
    progress (None while it waits). When the run is over, it keeps the result as ``result_field`` (and hands it to
    ``on_result``) or says why there is none, forgets the run, and runs the whole page again: the result, and Train
    back."""
    run = getattr(runs(), run_field)
    if run is None or run.done:
        if run is not None:
            result, message = run.outcome()
            state.say(message)
            if result is not None:
                keep_runs(**{result_field: result})
                if on_result is not None:
                    on_result(result)
            keep_runs(**{run_field: None})
        st.rerun()
    progress = run.poll()
    bar, stop = st.columns([5, 1], vertical_alignment="bottom")
    if progress is None:
        bar.info(queue_message(run.runs_ahead()), icon=":material/hourglass_top:")
    else:
        bar.progress(progress.fraction, text=progress_text(progress, run.config))
    stop.button("Stop", icon=":material/stop:", on_click=run.stop, disabled=run.stopping, width="stretch", key=stop_key)
    return run, progress
