"""The component floor: the chart floor's checkbox and four 12 × 12 heatmaps with a number in every cell, drawn as
HTML grids by a Streamlit v2 component (inline JavaScript that updates the cells in place) instead of ECharts.

Not how the Playground draws. bench.browser times it beside the two other floors to show what drawing the views
another way would cost: the chart floor is already more than 3 × the one-checkbox floor (issue 10's target), and
this one is not.
"""

import numpy as np
import streamlit as st

from attnviz.core.numbers import format_fixed_numbers
from attnviz.figures.attention_charts import Scale

# Draws n × n cells once, then on every rerun changes only the cells whose text or colour changed.
JS = """
export default function (component) {
  const { data, parentElement } = component;
  let grid = parentElement.querySelector('.probe-grid');
  if (!grid) {
    grid = document.createElement('div');
    grid.className = 'probe-grid';
    parentElement.appendChild(grid);
  }
  const cells = data.text.length;
  if (grid.children.length !== cells) {
    grid.replaceChildren(...Array.from({length: cells}, () => document.createElement('div')));
    grid.style.gridTemplateColumns = `repeat(${data.n}, 1fr)`;
  }
  for (let k = 0; k < cells; k++) {
    const cell = grid.children[k];
    if (cell.textContent !== data.text[k]) cell.textContent = data.text[k];
    if (cell.style.background !== data.colour[k]) cell.style.background = data.colour[k];
  }
}
"""
CSS = """
.probe-grid { display: grid; height: 220px; font: 10px sans-serif; }
.probe-grid > div { display: flex; align-items: center; justify-content: center; }
"""
heatmap = st.components.v2.component("attnviz_probe_heatmap", js=JS, css=CSS, isolate_styles=False)


def rgb(position: float) -> str:
    """A blue–white–red colour for a position in [−1, 1]."""
    red, blue = (255, round(255 * (1 - position))) if position > 0 else (round(255 * (1 + position)), 255)
    return f"rgb({red},{min(red, blue)},{blue})"


n = 12
values = np.random.default_rng(0).standard_normal((n, n))
on = st.checkbox("Toggle", key="toggle")
shown = np.where(np.triu(np.ones((n, n), bool), 1), 0.0, values) if on else values
data = {
    "n": n,
    "text": format_fixed_numbers(shown, decimals=2),
    "colour": [rgb(p) for p in Scale("signed", 3.0).positions(shown).ravel().tolist()],
}
for row in range(2):
    for column, index in zip(st.columns(2), range(2 * row, 2 * row + 2), strict=True):
        with column:
            heatmap(key=f"floor{index}", data=data)
