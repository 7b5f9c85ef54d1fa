"""Figures of the "why we scale" page: the variance of the scores, softmax saturation, one row side by side."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attnviz.figures.colours import SCALED, UNSCALED
from attnviz.figures.layout import finish, marker, unscaled_and_scaled
from attnviz.lessons.scaling import OneRow, Saturation, VarianceCurve


def variance_plot(curve: VarianceCurve, chosen_dk: int, *, height: int = 380) -> go.Figure:
    """Measured variance of raw and scaled scores against d_k, on log–log axes, with the lines y = d_k and y = 1."""
    dims = curve.dims.astype(float)
    figure = go.Figure()
    figure.add_trace(
        go.Scatter(x=dims, y=dims, mode="lines", name="theory: d_k", line={"color": "#999", "dash": "dash"})
    )
    figure.add_trace(
        go.Scatter(x=dims, y=np.ones_like(dims), mode="lines", name="theory: 1", line={"color": "#999", "dash": "dot"})
    )
    figure.add_trace(
        go.Scatter(x=dims, y=curve.raw, mode="lines+markers", name="measured Var(q·k)", line={"color": UNSCALED})
    )
    figure.add_trace(
        go.Scatter(
            x=dims, y=curve.scaled, mode="lines+markers", name="measured Var(q·k / √d_k)", line={"color": SCALED}
        )
    )
    low, high = min(curve.scaled.min(), 1.0) * 0.7, max(curve.raw.max(), dims.max()) * 1.4
    marker(figure, chosen_dk, (low, high), f"d_k = {chosen_dk}", "#444")
    figure.update_xaxes(type="log", title="d_k", tickvals=list(dims), ticktext=[f"{d:g}" for d in dims])
    figure.update_yaxes(type="log", title="variance of the scores", dtick=1)  # ticks at powers of ten only
    # A variance is plotted: it grows like d_k, while the spread (its square root) grows like √d_k. Short enough
    # for a phone's width: a plotly title does not wrap.
    title = "Var(q·k) grows like d_k; ÷ √d_k, it stays near 1"
    return finish(figure, title=title, height=height, legend_y=-0.4)  # below the axis title, at presenter-sized text


def saturation_plot(curves: Saturation, chosen_dk: int, *, height: int = 380) -> go.Figure:
    """Mean row entropy (bits) and mean largest weight, with and without scaling, against d_k."""
    dims = curves.dims.astype(float)

    def line(values, name, colour, panel):
        return go.Scatter(
            x=dims,
            y=values,
            mode="lines+markers",
            name=name,
            line={"color": colour},
            legendgroup=name,
            showlegend=panel == 1,
        )

    panels = (
        ((curves.entropy_raw, "unscaled"), (curves.entropy_scaled, "divided by √d_k")),
        ((curves.max_raw, "unscaled"), (curves.max_scaled, "divided by √d_k")),
    )
    figure = unscaled_and_scaled(("Row entropy (bits)", "Largest weight in a row"), panels, line)
    figure.add_hline(
        y=curves.uniform_entropy,
        line={"color": "#999", "dash": "dot"},
        row=1,
        col=1,
        annotation_text=f"uniform: log₂ {curves.n_tokens}",
        annotation_position="bottom right",
    )
    figure.add_hline(
        y=1.0, line={"color": "#999", "dash": "dot"}, row=1, col=2, annotation_text="all weight on one key",
        annotation_position="bottom left",  # under the line, clear of the panel's title above it
    )  # fmt: skip
    for col, top in ((1, curves.uniform_entropy * 1.05), (2, 1.02)):  # labelled at the foot: the top has the lines' words
        marker(figure, chosen_dk, (0, top), f"d_k = {chosen_dk}", "#444", label_low=True, row=1, col=col)
    figure.update_xaxes(type="log", title="d_k", tickvals=list(dims), ticktext=[f"{d:g}" for d in dims])
    figure.update_yaxes(range=[0, curves.uniform_entropy * 1.1], row=1, col=1)
    figure.update_yaxes(range=[0, 1.05], row=1, col=2)
    return finish(figure, height=height, legend_y=-0.4)  # below the axis title, at presenter-sized text too


def row_weights_bars(row: OneRow, d_k: int, *, height: int = 340) -> go.Figure:
    """One query's weights over the keys: unscaled beside scaled."""
    keys = [f"key {j}" for j in range(len(row.scores))]
    figure = go.Figure()
    for weights, name, colour in (
        (row.raw_weights, "unscaled", UNSCALED),
        (row.scaled_weights, "divided by √d_k", SCALED),
    ):
        figure.add_trace(
            go.Bar(x=keys, y=weights, name=name, marker_color=colour, hovertemplate="%{x}: %{y:.4f}<extra></extra>")
        )
    figure.update_yaxes(range=[0, 1.05], title="weight")
    figure.update_xaxes(type="category", tickangle=-45)
    return finish(figure, title=f"Query 0's weights at d_k = {d_k}", barmode="group", height=height, legend_y=-0.3)
