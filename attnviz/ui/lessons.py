"""Streamlit pieces the guided pages share: bad-input messages and vector inputs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from attnviz.errors import AttnvizInputError


@contextmanager
def explained_errors() -> Iterator[None]:
    """Shows bad input as a plain message and stops the page there, instead of a traceback."""
    try:
        yield
    except AttnvizInputError as error:
        st.error(str(error), icon="✋")
        st.stop()


def vector_input(label: str, key: str, default, *, limit: float) -> tuple[float, float]:
    """Two number inputs (x, y) side by side, kept in [−limit, limit]."""
    st.markdown(f"**{label}**")
    x_col, y_col = st.columns(2)
    for axis, col, value in (("x", x_col, default[0]), ("y", y_col, default[1])):
        if f"{key}_{axis}" not in st.session_state:
            st.session_state[f"{key}_{axis}"] = float(value)
        col.number_input(axis, min_value=-limit, max_value=limit, step=0.5, key=f"{key}_{axis}", format="%.2f")
    return st.session_state[f"{key}_x"], st.session_state[f"{key}_y"]


def reset_vectors(defaults: dict[str, tuple[float, float]]) -> None:
    """A button callback: puts every vector input named in ``defaults`` back to its default."""
    for key, (x, y) in defaults.items():
        st.session_state[f"{key}_x"], st.session_state[f"{key}_y"] = float(x), float(y)


# The guided pages' settings (sliders, inputs, toggles), by widget key. Buttons and tables are left out: Streamlit
# refuses to have their values written.
_LESSON_SETTINGS = re.compile(
    r"steps_(from_embeddings|d_model|query_\d+|key_\d+|dim_\d+)"
    r"|geometry_(query|key\d+|value\d+)_[xy]"
    r"|why_(dk|seed|tokens)"
    r"|mh_(d_model|heads_\d+|seed|causal|tie)"
)


def keep_lesson_settings() -> None:
    """Streamlit forgets a widget's value once its page is not shown. Writing each value back as plain session
    state on every run keeps a student's settings while they visit other pages."""
    for key in list(st.session_state.keys()):
        if _LESSON_SETTINGS.fullmatch(key):
            st.session_state[key] = st.session_state[key]
