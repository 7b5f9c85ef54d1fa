"""Editable tables of numbers, shared by the Playground's Q, K, V and Multi-head's X."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from attnviz.core.limits import MAX_CELL_CHARS
from attnviz.core.numbers import cell_text
from attnviz.ui import edge, state
from attnviz.ui.text import named_table


def number_table(
    values, row_labels: list[str], column_names: list[str], *, name: str, said: str
) -> dict[tuple[int, int], object]:
    """An editable table whose cells hold the numbers as text, named ``said`` for screen readers; returns what the user
    typed, by (row, column). It is as tall as its rows, up to 12 of them; more scroll inside it.

    Text, not number columns: Streamlit's number editor quietly drops the characters it does not expect, so "1e9"
    arrived as 19 and "1.5e-3" as -1.53, and it clamps to its bounds without a word. As text, the app receives
    exactly what was typed, and ``attnviz.core.numbers.parse_number`` accepts it or says why not.
    """
    # Plain Python strings (object dtype), not pandas' Arrow-backed ones: the editor hashes the labels, checks the
    # column names and applies edits on every run, far dearer on Arrow strings under a class's load (bench/README.md).
    frame = pd.DataFrame(
        [[cell_text(value) for value in row] for row in np.asarray(values, dtype=float)],
        index=pd.Index(row_labels, dtype=object, name="token"),  # a named index column: its header is not empty
        columns=pd.Index(column_names, dtype=object),
        dtype=object,
    )
    settings = {
        "num_rows": "fixed",
        "height": min(38 + 35 * len(row_labels), 460),
        "column_config": {
            # The row labels name the tokens: read-only, else a number typed there (a click a little left, or an
            # arrow key the grid had not taken yet) was silently dropped, since it is no cell of the matrix.
            "_index": st.column_config.TextColumn(disabled=True),
            **{column: st.column_config.TextColumn(column, max_chars=MAX_CELL_CHARS) for column in column_names},
        },
    }
    key = state.table_key(name)
    with named_table(said, name):
        try:
            st.data_editor(frame, key=key, **settings)
        except (KeyError, IndexError) as error:  # an edit of a column or row this table lacks (the edge checked the rest)
            edge.refused(f"table {name}", error)
            state.renew_tables()  # a new key: the table again, without the refused edits
            key = state.table_key(name)
            st.data_editor(frame, key=key, **settings)
            st.warning(edge.take_refusal(), icon="✋")  # at the table it came from
    return typed_cells(key, column_names)


def typed_cells(key: str, column_names: list[str]) -> dict[tuple[int, int], Any]:
    """What the user typed into the table ``key`` so far, by (row, column index)."""
    pending = state.widget_value(key) or {}
    column_of = {name: j for j, name in enumerate(column_names)}
    return {
        (int(row), column_of[name]): value
        for row, cells in (pending.get("edited_rows") or {}).items()
        if str(row).isdigit()
        for name, value in cells.items()
        if name in column_of
    }
