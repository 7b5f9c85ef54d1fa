"""The Playground's "One token up close" tab: the focus token's row worked out, from scores to its output."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from attnviz.core.playground_state import PlaygroundState
from attnviz.lessons.app_words import blend_heading, weights_heading
from attnviz.lessons.predictions import UP_CLOSE_WAITS
from attnviz.lessons.row_arithmetic import (
    arithmetic_columns,
    blend_columns,
    formula_latex,
    mask_explanation,
    row_summary,
)
from attnviz.ui.text import literal, named_table


def one_token_up_close(playground: PlaygroundState, *, asking: bool = False) -> None:
    """The focus row worked out; while predict mode ``asking`` waits for the guess, only what the tab waits for."""
    if asking:
        st.info(UP_CLOSE_WAITS, icon=":material/visibility_off:")
        return
    i, result = playground.focus, playground.result()
    has_blocked_keys = bool(playground.blocked_keys)
    st.latex(
        formula_latex(
            causal=playground.causal,
            scale=playground.scale,
            temperature=playground.temperature,
            has_blocked_keys=has_blocked_keys,
        )
    )
    st.caption(mask_explanation(causal=playground.causal, has_blocked_keys=has_blocked_keys))
    Q, K, V = playground.matrices()
    st.markdown(weights_heading(literal(playground.tokens[i])))
    columns = arithmetic_columns(
        Q, K, result, playground.labels, i, scale=playground.scale, temperature=playground.temperature
    )
    with named_table(f"From scores to weights for {playground.tokens[i]}, one row a key", "up-close-weights"):
        st.dataframe(pd.DataFrame(columns), hide_index=True, width="stretch", height=38 + 35 * min(playground.n, 12))
    st.caption(row_summary(result, i))
    st.markdown(blend_heading(literal(playground.tokens[i])))
    with named_table(f"The output of {playground.tokens[i]}: the values blended, one row a key", "up-close-blend"):
        st.dataframe(
            pd.DataFrame(blend_columns(result, V, playground.labels, i)),
            hide_index=True,
            width="stretch",
            height=38 + 35 * (min(playground.n, 12) + 1),  # every key and the sum, without an inner scroll
        )
