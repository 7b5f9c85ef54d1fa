"""Editable tables of numbers, shared by the Playground's Q, K, V and Multi-head's X."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st


def cell_text(value: float) -> str:
    """The shortest text that reads back as exactly this number: 0.3, -1.04, 20, 0.11672673."""
    return np.format_float_positional(value, trim="-")


def number_editor(values, row_labels: list[str], column_names: list[str], *, key: str, height: int) -> None:
    """An editable table whose cells hold the numbers as text.

    Text, not number columns: Streamlit's number editor quietly drops the characters it does not expect, so "1e9"
    arrived as 19 and "1.5e-3" as -1.53, and it clamps to its bounds without a word. As text, the app receives
    exactly what was typed, and ``attnviz.playground.parse_cell`` accepts it or says why not.
    """
    frame = pd.DataFrame(
        [[cell_text(value) for value in row] for row in np.asarray(values, dtype=float)],
        index=row_labels,
        columns=column_names,
    )
    st.data_editor(
        frame,
        key=key,
        num_rows="fixed",
        height=height,
        column_config={name: st.column_config.TextColumn(name, max_chars=32) for name in column_names},
    )
