"""Open in Playground: one head of a real (or a trained) model handed to the Playground, which then shows it."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from attnviz.core.playground_state import import_head
from attnviz.lessons.app_words import head_imported
from attnviz.pages import page_named
from attnviz.ui import playground_host, state
from attnviz.ui.lessons import explained_errors


def open_in_playground(
    tokens, Q, K, V, *, causal: bool, title: str, sentence: str | None = None, focus: int | None = None
) -> None:
    """Puts the head's tokens and its Q, K and V (n, d) into the Playground and switches to it. Call it from the
    script (``if st.button(...): open_in_playground(...)``), not from a callback: a callback can't switch pages.

    ``focus`` is the row to open on (by default, the Playground's own focus where it fits). Undo on the Playground
    brings back what was there before. A head the Playground can't hold shows why, here."""
    with explained_errors():
        new = import_head(
            playground_host.playground(), tokens, Q, K, V, causal=causal, title=title, sentence=sentence
        )
    playground_host.set_playground(new if focus is None else replace(new, focus=focus))
    state.confirm(head_imported(title))
    st.switch_page(page_named("playground").file)
