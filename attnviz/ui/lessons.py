"""Streamlit pieces the guided pages share: bad-input messages and 2-D vector inputs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from attnviz.core.errors import AttnvizInputError
from attnviz.ui import state
from attnviz.ui.text import literal


@contextmanager
def explained_errors() -> Iterator[None]:
    """Shows bad input as a plain message and stops the page there, instead of a traceback."""
    try:
        yield
    except AttnvizInputError as error:
        st.error(literal(str(error)), icon="✋")
        st.stop()


def vector_input(page: str, label: str, name: str, default, *, limit: float) -> tuple[float, float]:
    """Two number inputs (x, y) side by side, kept in [−limit, limit]; they keep their values across pages."""
    st.markdown(f"**{literal(label)}**")
    values = []
    for axis, column, start in zip("xy", st.columns(2), default, strict=True):
        values.append(
            column.number_input(
                axis, -limit, limit, step=0.5, format="%.2f", **state.page_setting(page, f"{name}_{axis}", float(start))
            )
        )
    return values[0], values[1]


def reset_vectors(page: str, defaults: dict[str, tuple[float, float]]) -> None:
    """A button callback: puts every vector input named in ``defaults`` back to its default."""
    for name, point in defaults.items():
        for axis, value in zip("xy", point, strict=True):
            state.set_setting(page, f"{name}_{axis}", float(value))
