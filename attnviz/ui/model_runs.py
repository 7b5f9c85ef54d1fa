"""How a page gets a real model's run without holding the server: the run happens in attnviz.models.background, and
the page shows what it is waiting for, refreshing itself, until the run is there."""

from __future__ import annotations

import html
import threading
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

from attnviz.figures.real_model import HeadMaps, head_maps
from attnviz.lessons.real_model import layer_table, model_label, overview_side, progress_text, sinks_said
from attnviz.models import MODEL_NAMES, HeadStatistics, ModelRun, background, head_statistics, hide_sinks
from attnviz.models.registry import opens_folders
from attnviz.ui import state
from attnviz.ui.lessons import explained_errors

OPENED = "models.opened"  # the models opened in Open a model: their one key in st.session_state, an Opened
OPEN = "models.open."  # prefix of a page's Open a model box: models.open.<page>
FIRST_WAIT_S = 0.4  # a cached or short run shows at once, without a flash of "waiting"
POLL_S = 0.5


@dataclass(frozen=True)
class Opened:
    """The model each page opened by its hub id or folder (or a share link named), kept while a shipped model is
    chosen, so it stays a choice of the selector."""

    by_page: Mapping[str, str] = field(default_factory=dict)


def _opened(page: str) -> str | None:
    return (st.session_state.get(OPENED) or Opened()).by_page.get(page)


def model_choice(page: str, column, open_column) -> str:
    """The Model selector, and under it Open a model: a Hugging Face id or a folder typed there becomes a choice of
    the selector (with the shipped two) and is chosen. It loads on the background worker like any run; a model that
    cannot be opened is refused in one line where the run would be, with these controls still there."""
    chosen = state.setting_value(page, "model")
    if chosen not in (None, *MODEL_NAMES):  # opened in the box below, or named by a share link
        by_page = (st.session_state.get(OPENED) or Opened()).by_page
        st.session_state[OPENED] = Opened({**by_page, page: chosen})
    opened = _opened(page)  # kept while a shipped model is chosen
    names = MODEL_NAMES if opened in (None, *MODEL_NAMES) else (*MODEL_NAMES, opened)
    model = column.selectbox(
        "Model", names, format_func=model_label, **state.page_setting(page, "model", MODEL_NAMES[0], options=names)
    )
    open_column.text_input(
        "Open a model",
        key=f"{OPEN}{page}",
        placeholder="a Hugging Face id, or a folder" if opens_folders(served=True) else "a Hugging Face id",
        on_change=_open,
        args=(page,),
    )
    return model


def _open(page: str) -> None:
    name = str(st.session_state.get(f"{OPEN}{page}", "")).strip()
    if name:
        state.set_setting(page, "model", name)  # a choice of the selector from now on
    st.session_state[f"{OPEN}{page}"] = ""  # the box empties: the selector names the model now


def model_run(model: str, sentence: str, removed: int | None = None) -> ModelRun:
    """The run of ``sentence`` through ``model`` (with token ``removed`` taken away). While it is being made, the page
    says what is happening and stops here; it reruns by itself once the run is ready. Bad input and a missing model
    show their message and stop."""
    job = background.submit(model, sentence, removed)
    if not job.wait(FIRST_WAIT_S):
        _progress(job)
        st.stop()
    with explained_errors():
        return job.result()


@st.fragment(run_every=POLL_S)
def _progress(job: background.Job) -> None:
    """Redrawn every POLL_S seconds on its own (the rest of the page waits); the whole page reruns when done."""
    if job.done:
        st.rerun()
    job.touch()  # still wanted: the worker skips jobs nobody asks for
    st.info(progress_text(job.model, job.stage, job.seconds(), background.ahead_of(job)), icon=":material/hourglass:")


@dataclass(frozen=True)
class ShownRun:
    """What the Real model page draws from a run, with or without the sinks: computed once per process and shared by
    every session showing that run (a class opens the teacher's sentence), not on every pick of a head."""

    attention: np.ndarray  # (layers, heads, n, n), sinks hidden or not
    stats: HeadStatistics
    maps: HeadMaps  # every head's small map for the overview


_shown_lock = threading.Lock()
_shown: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # run -> {hide: ShownRun}; gone with the run


def shown_run(run: ModelRun, *, hide: bool) -> ShownRun:
    with _shown_lock:
        found = _shown.get(run, {}).get(hide)
    if found is None:
        attention = hide_sinks(run.attention, run.sinks) if hide else run.attention
        stats = head_statistics(attention, run.sinks)
        side = overview_side(run.n_layers * run.n_heads, len(run.tokens))
        found = ShownRun(attention, stats, head_maps(attention, run.tokens, side=side))
        with _shown_lock:
            _shown.setdefault(run, {})[hide] = found
    return found


def overview_for_readers(stats: HeadStatistics) -> None:
    """The overview as a screen reader reads it: a table a layer, each head's measured shares and pattern (its picture
    is some 18,000 cells, which the view's own table would read one by one)."""
    tables = []
    for layer in range(stats.sinks.shape[0]):
        columns, rows = layer_table(stats, layer)
        head = "".join(f'<th scope="col">{html.escape(name)}</th>' for name in columns)
        body = "".join(
            f'<tr><th scope="row">{html.escape(row[0])}</th>{"".join(f"<td>{html.escape(c)}</td>" for c in row[1:])}</tr>'
            for row in rows
        )
        caption = f"Layer {layer + 1}: what each head does"
        tables.append(f"<table><caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    st.markdown(f'<div class="attnviz-unseen">{"".join(tables)}</div>', unsafe_allow_html=True)


def sinks_status(hide: bool, sinks: str) -> None:
    """What the sink switch did, in a live region drawn in both states (so a screen reader says each change); seen
    only while the sinks are hidden."""
    seen = "attnviz-status" if hide else "attnviz-unseen"
    st.markdown(f'<p role="status" class="{seen}">{html.escape(sinks_said(hide, sinks))}</p>', unsafe_allow_html=True)
