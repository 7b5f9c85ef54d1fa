"""The chart floor: one checkbox and four 12 × 12 heatmaps of the Playground's size, drawn the Playground's way.

bench.browser times a click here the same way as on the Playground, so the ratio between the two is what attnviz
itself adds on top of Streamlit and ECharts: the same number of charts, of the same size, updated in place.
"""

import numpy as np
import streamlit as st

from attnviz.figures.attention_charts import Scale, heatmap_option

n = 12
labels = [f"{i}: w{i}" for i in range(n)]
rng = np.random.default_rng(0)
values = rng.standard_normal((n, n))
on = st.checkbox("Toggle", key="toggle")
shown = np.where(np.triu(np.ones((n, n), bool), 1), 0.0, values) if on else values
for row in range(2):
    for column, index in zip(st.columns(2), range(2 * row, 2 * row + 2), strict=True):
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
