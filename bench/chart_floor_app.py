"""The chart floor: one checkbox and as many heatmaps as the Playground has views, of its first screen's size, each a
plain ECharts heatmap with a number in every cell (Streamlit's own chart element, nothing of attnviz's).

bench.browser times a click here the same way as on the Playground, so the ratio between the two is what attnviz's
component costs against Streamlit's own chart: the same number of matrices, of the same size, updated in place.
"""

import numpy as np
import streamlit as st

from attnviz.core.playground_state import PlaygroundState
from bench.product import FIRST_SCREEN_TOKENS, PLAYGROUND_VIEWS, one_word_tokens

n = FIRST_SCREEN_TOKENS
labels = PlaygroundState(sentence=one_word_tokens(n)).labels  # as the Playground labels the same sentence
rng = np.random.default_rng(0)
values = rng.standard_normal((n, n))
on = st.checkbox("Toggle", key="toggle")
shown = np.where(np.triu(np.ones((n, n), bool), 1), 0.0, values) if on else values
cells = [[j, i, round(float(shown[i, j]), 4), f"{shown[i, j]:.2f}"] for i in range(n) for j in range(n)]


def option(index: int) -> dict:
    return {
        "animation": False,
        "title": {"text": f"{index + 1}. floor", "textStyle": {"fontSize": 14}},
        "tooltip": {},
        "grid": {"left": 4, "right": 8, "top": 30, "bottom": 4, "containLabel": True},
        "xAxis": {"type": "category", "data": labels, "axisLabel": {"rotate": 60}},
        "yAxis": {"type": "category", "data": labels, "inverse": True},
        "visualMap": {
            "show": False,
            "dimension": 2,
            "min": -3.0,
            "max": 3.0,
            "inRange": {"color": ["#2166ac", "#f7f7f7", "#b2182b"]},
        },
        "series": [{"type": "heatmap", "data": cells, "label": {"show": True, "formatter": "{@[3]}", "fontSize": 11}}],
    }


for first in range(0, PLAYGROUND_VIEWS, 2):  # two views a row
    for column, index in zip(st.columns(2), range(first, min(first + 2, PLAYGROUND_VIEWS)), strict=False):
        column.echarts_chart(option(index), key=f"floor{index}", height=250)
