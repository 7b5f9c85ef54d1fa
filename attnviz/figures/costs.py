"""The cost of attention against the sequence length."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attnviz.core.numbers import format_number
from attnviz.figures.colours import BLUE, GREEN, VERMILION
from attnviz.figures.layout import finish, marker


def cost_plot(lengths, linear, quadratic, current_n: int, crossover: float, *, height: int = 380) -> go.Figure:
    """FLOPs against sequence length n, split into the part linear in n and the part growing like n², with the
    current n and the ``crossover`` length where the two parts are equal."""
    lengths = np.asarray(lengths, dtype=float)
    figure = go.Figure()
    figure.add_trace(
        go.Scatter(x=lengths, y=linear, mode="lines", name="projections and W_O (∝ n)", line={"color": GREEN})
    )
    figure.add_trace(
        go.Scatter(
            x=lengths, y=quadratic, mode="lines", name="scores, softmax, weighted sum (∝ n²)", line={"color": VERMILION}
        )
    )
    figure.add_trace(
        go.Scatter(x=lengths, y=linear + quadratic, mode="lines", name="total", line={"color": "#333", "dash": "dash"})
    )
    span = (min(linear.min(), quadratic.min()), (linear + quadratic).max() * 3)
    marker(figure, current_n, span, f"now: n = {current_n}", BLUE)
    marker(figure, crossover, span, f"n = {format_number(crossover, digits=3)}", "#999", dash="dot", label_low=True)
    figure.update_xaxes(type="log", title="sequence length n", dtick=1)
    figure.update_yaxes(type="log", title="FLOPs", dtick=1, exponentformat="power")
    title = f"Cost against n: the n² part takes over past n = {format_number(crossover, digits=3)}"  # the same number as the page's text
    return finish(figure, title=title, height=height, legend_y=-0.25)
