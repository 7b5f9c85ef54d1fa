"""The chart floor: one checkbox and as many heatmaps as the Playground has views, of its first screen's size, drawn the
Playground's way.

bench.browser times a click here the same way as on the Playground, so the ratio between the two is what attnviz
itself adds on top of Streamlit and ECharts: the same number of charts, of the same size, updated in place.
"""

import numpy as np
import streamlit as st

from attnviz.core.playground_state import PlaygroundState
from attnviz.figures.attention_charts import Scale, heatmap_option
from bench.product import FIRST_SCREEN_TOKENS, PLAYGROUND_VIEWS, one_word_tokens

n = FIRST_SCREEN_TOKENS
labels = PlaygroundState(sentence=one_word_tokens(n)).labels  # as the Playground labels the same sentence
rng = np.random.default_rng(0)
values = rng.standard_normal((n, n))
on = st.checkbox("Toggle", key="toggle")
shown = np.where(np.triu(np.ones((n, n), bool), 1), 0.0, values) if on else values
for first in range(0, PLAYGROUND_VIEWS, 2):  # two views a row
    for column, index in zip(st.columns(2), range(first, min(first + 2, PLAYGROUND_VIEWS)), strict=False):
        with column:
            option = heatmap_option(
                shown,
                labels,
                labels,
                title=f"{index + 1}. floor",
                scale=Scale("signed", 3.0),
                value_name="value",
                chart_name=f"floor{index}",
            )
            st.echarts_chart(option, key=f"floor{index}", height=250)
