"""The Real model page's check of its chosen head: the same map raw, value-weighted or rolled out (one switch, one
0-to-1 scale, the sinks' share as numbers), and *Take this token away*, with what the output did. The numbers come
from attnviz.models.explain; the words from attnviz.lessons.explanations."""

from __future__ import annotations

import threading
import weakref
from functools import partial

import numpy as np
import streamlit as st

from attnviz.figures.real_model import head_map, head_map_height
from attnviz.lessons import explanations as words
from attnviz.lessons.real_model import sink_words, visible_token
from attnviz.models import ModelRun
from attnviz.models.explain import output_change, rollout
from attnviz.ui import state
from attnviz.ui.attention_grid import clicked_cell, show_matrices
from attnviz.ui.model_runs import model_run
from attnviz.ui.presenter import presenting
from attnviz.ui.text import literal

PAGE = "real_model"
KEY = "rm.explain"

_rolled_lock = threading.Lock()
_rolled: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # run -> its rollout; gone with the run


def rolled_out(run: ModelRun) -> np.ndarray:
    """``rollout(run)`` (layers, n, n), made once per process and shared by every session showing the run."""
    with _rolled_lock:
        found = _rolled.get(run)
    if found is None:
        found = rollout(run)
        found.flags.writeable = False
        with _rolled_lock:
            _rolled[run] = found
    return found


def explain_views(run: ModelRun, layer: int, head: int, query: int, font: int, *, asking: bool = False) -> None:
    """Beside the chosen head's map: the same head raw, value-weighted or rolled out, the switch right above the map it
    changes (with it on a projector's screen), the sinks' share in each view below. ``asking``: predict mode's
    question on the head's map is open, and these views, which would answer it, wait."""
    if asking:
        st.info(words.EXPLAIN_WAIT, icon=":material/visibility_off:")
        return
    with st.container(key="rm_explain"):  # its row keeps the head's map first on a phone (attnviz.ui.text)
        view = st.radio(
            "Show the chosen head as",
            list(words.VIEWS),
            format_func=words.VIEWS.get,
            horizontal=True,
            label_visibility="collapsed",  # the subheader above the columns says what for; a screen reader hears it
            **state.page_setting(PAGE, "view", "raw", options=list(words.VIEWS)),
        )
        rolled = rolled_out(run)
        matrices = {name: words.view_matrix(run, rolled, name, layer, head) for name in words.VIEWS}  # (n, n) each
        title = words.view_title(view, layer, head)
        figure = head_map(matrices[view], run.tokens, causal=run.causal, query=query, title=title, font_size=font,
                          name="explain")  # fmt: skip
        n = len(run.tokens)
        show_matrices([figure], key=KEY, height=head_map_height(n, presenting=presenting()), font_size=font,
                      on_cell=partial(_choose_query, n), enter="Enter makes its row the query.")  # fmt: skip
        shared = words.sink_shares(matrices, run.sinks)  # right under the map, with it on a lesson's screen
        st.markdown(literal(words.sinks_line(shared, sink_words(run.tokens, run.sinks))))
        st.markdown(literal(words.sinks_verdict(shared)))
    st.markdown(literal(words.row_line(matrices, run.tokens, query, view)))
    st.caption(words.VIEW_HELP[view])
    if state.setting_value(PAGE, "hide_sinks", False):
        st.caption("The sinks stay in these views (the switch above hides them only in the maps above): how much "
                   "they take and hand on is part of the answer.")  # fmt: skip


def _choose_query(n: int) -> None:
    cell = clicked_cell(KEY)
    if cell is not None and cell[1] < n:  # a query past the sentence: only a crafted message names one
        state.set_setting(PAGE, "query", cell[1])


def take_away(run: ModelRun) -> None:
    """*Take this token away* and what the output did. Last on the page: the run without the token is made on the
    background worker, and while it is the page stops here."""
    n = len(run.tokens)
    options = [words.NONE, *words.removable(n, run.causal)]
    removed = st.selectbox(
        "Take this token away",
        options,
        format_func=partial(_token_name, run.tokens),
        **state.page_setting(PAGE, "removed", words.NONE, options=options),
    )
    st.caption(words.take_away_caption(run.causal))
    if removed == words.NONE:
        return
    without = model_run(run.model, run.sentence, removed)
    change = output_change(run, without)
    with st.container(key="rm_change"):
        st.markdown(literal(words.change_text(change, run.tokens)))
        if run.causal:
            st.table(words.top_five(change), hide_index=True)


def _token_name(tokens: list[str], choice) -> str:
    return "nothing" if choice == words.NONE else f"{choice}: {visible_token(tokens[choice])}"
