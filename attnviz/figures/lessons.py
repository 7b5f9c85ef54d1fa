"""Plotly figures for the guided pages (arrows, bars and curves). Matrices use attnviz.figures.matrix_heatmap.

Colours come from the Okabe–Ito palette, which stays distinguishable for the common colour-vision deficiencies.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from attnviz.figures.heatmaps import matrix_heatmap
from attnviz.lessons.geometry import GeometryResult, angle_text
from attnviz.lessons.scaling import OneRow, Saturation, VarianceCurve
from attnviz.lessons.stages import Panel

BLUE, ORANGE, GREEN, VERMILION, PURPLE, SKY, YELLOW = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#CC79A7",
    "#56B4E9",
    "#F0E442",
)
KEY_COLOURS = (ORANGE, GREEN, PURPLE, SKY, VERMILION)
UNSCALED, SCALED = VERMILION, BLUE
_MARGIN = {"l": 10, "r": 10, "t": 50, "b": 10}


def _title(text: str) -> dict:
    return {"text": text, "x": 0, "xanchor": "left"}


_LABEL_BACKGROUND = "rgba(128,128,128,0.18)"  # a faint box that reads on the light and the dark theme


def _three_places(x: float) -> str:
    return f"{round(float(x), 3) + 0.0:.3f}"  # + 0.0 turns a rounded −0 into 0


def _finish(figure: go.Figure, *, height: int, legend_y: float, title: str | None = None, **layout) -> go.Figure:
    """The layout every lesson chart shares: a title at the left, fixed margins, a horizontal legend below."""
    if title is not None:
        layout["title"] = _title(title)
    figure.update_layout(height=height, margin=_MARGIN, legend={"orientation": "h", "y": legend_y}, **layout)
    return figure


def _arrow(figure: go.Figure, start, end, colour: str, label: str, *, width: float = 3, dash: str | None = None):
    """An arrow from ``start`` to ``end``: a line trace (for the legend and hover) plus an arrowhead annotation."""
    (x0, y0), (x1, y1) = start, end
    figure.add_trace(
        go.Scatter(
            x=[x0, x1],
            y=[y0, y1],
            mode="lines",
            line={"color": colour, "width": width, "dash": dash},
            name=label,
            hovertemplate=f"{label}<br>end ({x1:.3g}, {y1:.3g})<extra></extra>",
        )
    )
    if (x0, y0) != (x1, y1):  # a zero-length arrow has no direction to point its head in
        figure.add_annotation(
            x=x1,
            y=y1,
            ax=x0,
            ay=y0,
            xref="x",
            yref="y",
            axref="x",
            ayref="y",
            showarrow=True,
            arrowhead=3,
            arrowsize=3.6 / width,  # heads of about the same size whatever the line width
            arrowwidth=width,
            arrowcolor=colour,
            text="",
        )


def _square_axes(figure: go.Figure, points: np.ndarray) -> float:
    """Equal scales on x and y (angles look like angles), with the origin and every point in view.
    Returns the half-width of the range."""
    reach = float(np.abs(points).max()) if points.size else 1.0
    reach = max(reach, 1.0) * 1.25
    figure.update_xaxes(range=[-reach, reach], zeroline=True, zerolinecolor="#888")
    figure.update_yaxes(range=[-reach, reach], zeroline=True, zerolinecolor="#888")
    return reach


def _marker(
    figure: go.Figure, x: float, y_span, label: str, colour: str, *, dash=None, label_low=False, row=None, col=None
) -> None:
    """A vertical line at ``x`` drawn as a trace, in data coordinates. (On log axes plotly places shapes and
    annotations in different coordinates, so add_vline's line and its label would land in different places.)"""
    figure.add_trace(
        go.Scatter(
            x=[x, x],
            y=list(y_span),
            mode="lines+text",
            text=[label, ""] if label_low else ["", label],  # low: at the foot, clear of a label at the top
            textposition="top right" if label_low else "bottom right",
            line={"color": colour, "width": 1.5, "dash": dash},
            showlegend=False,
            hoverinfo="skip",
            name=label,
        ),
        row=row,
        col=col,
    )


def _label_shifts(points: np.ndarray, px_per_unit: float, box=(180, 52)) -> list[int]:
    """Pixel shifts down that stop labels at nearby arrow tips (e.g. two keys in one direction) covering each other."""
    placed: list[tuple[float, float]] = []  # (x, y) of each label's box in pixels
    shifts = []
    for x, y in points * px_per_unit:
        shift = 0
        while any(abs(x - px) < box[0] and abs(y - shift - py) < box[1] for px, py in placed):
            shift += box[1]
        placed.append((x, y - shift))
        shifts.append(-shift)
    return shifts


def query_key_arrows(result: GeometryResult, query_label: str, key_labels, *, height: int = 480) -> go.Figure:
    """The query and each key from the origin; each key's end says its dot product, angle and cos θ.

    The query is drawn first and wider, so a key that points the same way still leaves a blue edge showing.
    """
    figure = go.Figure()
    _arrow(figure, (0, 0), result.query, BLUE, f"query “{query_label}”", width=7)
    labels = [(result.query, f"<b>query “{query_label}”</b>", BLUE)]
    for j, (key, label, comparison) in enumerate(zip(result.keys, key_labels, result.comparisons, strict=True)):
        colour = KEY_COLOURS[j % len(KEY_COLOURS)]
        _arrow(figure, (0, 0), key, colour, f"key “{label}”")
        labels.append((key, f"<b>{label}</b><br>q·k = {comparison.dot:.2f}<br>{angle_text(comparison)}", colour))
    points = np.vstack([result.query, result.keys])  # (1 + n, 2)
    reach = _square_axes(figure, points)
    shifts = _label_shifts(points, px_per_unit=(height - 110) / (2 * reach))
    for (tip, text, colour), shift in zip(labels, shifts, strict=True):
        figure.add_annotation(
            x=tip[0],
            y=tip[1],
            text=text,
            showarrow=False,
            xanchor="left" if tip[0] >= 0 else "right",
            yanchor="bottom",
            xshift=6 if tip[0] >= 0 else -6,
            yshift=shift,
            font={"color": colour, "size": 12},
            align="left",
            bgcolor=_LABEL_BACKGROUND,
        )
    figure.update_yaxes(scaleanchor="x", scaleratio=1)
    return _finish(figure, title="Query and keys in Q–K space", height=height, legend_y=-0.08)


def score_bars(result: GeometryResult, key_labels, *, height: int = 340) -> go.Figure:
    """Left: raw and scaled scores. Right: the softmax weights with and without the √2."""
    figure = make_subplots(cols=2, subplot_titles=("Scores: q·k and q·k / √2", "Softmax weights"))
    labels = list(key_labels)
    for values, name, colour, col in (
        (result.scores, "raw q·k", UNSCALED, 1),
        (result.scaled, "scaled q·k / √2", SCALED, 1),
        (result.unscaled_weights, "softmax of raw", UNSCALED, 2),
        (result.weights, "softmax of scaled", SCALED, 2),
    ):
        figure.add_trace(
            go.Bar(
                x=labels,
                y=values,
                name=name,
                marker_color=colour,
                text=[f"{v:.4f}" if col == 2 else f"{v:.2f}" for v in values],
                textposition="outside",
                legendgroup=name,
                showlegend=True,
                cliponaxis=False,
            ),
            row=1,
            col=col,
        )
    figure.update_yaxes(range=[0, 1.15], title="weight", row=1, col=2)
    return _finish(figure, barmode="group", height=height, legend_y=-0.15)


def value_blend(result: GeometryResult, key_labels, *, height: int = 460) -> go.Figure:
    """Each value from the origin (faint), the weighted pieces w_j v_j laid tip to tail, and their sum."""
    figure = go.Figure()
    for j, (value, label) in enumerate(zip(result.values, key_labels, strict=True)):
        _arrow(figure, (0, 0), value, KEY_COLOURS[j % len(KEY_COLOURS)], f"value “{label}”", width=2, dash="dot")
    tip = np.zeros(2)
    for j, (value, weight, label) in enumerate(zip(result.values, result.weights, key_labels, strict=True)):
        piece = weight * value  # (2,)
        _arrow(figure, tip, tip + piece, KEY_COLOURS[j % len(KEY_COLOURS)], f"{weight:.3f} × value “{label}”", width=4)
        tip = tip + piece
    _arrow(figure, (0, 0), result.context, BLUE, "context vector Σ w_j v_j", width=5)
    figure.add_annotation(
        x=result.context[0],
        y=result.context[1],
        text=f"<b>context</b> ({_three_places(result.context[0])}, {_three_places(result.context[1])})",
        showarrow=False,
        xanchor="left",
        yanchor="top",
        xshift=6,
        font={"color": BLUE, "size": 12},
        bgcolor=_LABEL_BACKGROUND,
    )
    _square_axes(figure, np.vstack([result.values, result.context]))
    figure.update_yaxes(scaleanchor="x", scaleratio=1)
    return _finish(figure, title="Values in V-space and their weighted sum", height=height, legend_y=-0.08)


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
    _marker(figure, chosen_dk, (low, high), f"d_k = {chosen_dk}", "#444")
    figure.update_xaxes(type="log", title="d_k", tickvals=list(dims), ticktext=[f"{d:g}" for d in dims])
    figure.update_yaxes(type="log", title="variance of the scores", dtick=1)  # ticks at powers of ten only
    return _finish(
        figure, title="Raw scores spread out like d_k; scaled scores stay near 1", height=height, legend_y=-0.25
    )


def saturation_plot(curves: Saturation, chosen_dk: int, *, height: int = 380) -> go.Figure:
    """Mean row entropy (bits) and mean largest weight, with and without scaling, against d_k."""
    dims = curves.dims.astype(float)
    figure = make_subplots(cols=2, subplot_titles=("Row entropy (bits)", "Largest weight in a row"))
    for y, name, colour, col in (
        (curves.entropy_raw, "unscaled", UNSCALED, 1),
        (curves.entropy_scaled, "scaled by √d_k", SCALED, 1),
        (curves.max_raw, "unscaled", UNSCALED, 2),
        (curves.max_scaled, "scaled by √d_k", SCALED, 2),
    ):
        figure.add_trace(
            go.Scatter(
                x=dims,
                y=y,
                mode="lines+markers",
                name=name,
                line={"color": colour},
                legendgroup=name,
                showlegend=col == 1,
            ),
            row=1,
            col=col,
        )
    figure.add_hline(
        y=curves.uniform_entropy,
        line={"color": "#999", "dash": "dot"},
        row=1,
        col=1,
        annotation_text=f"uniform: log₂ {curves.n_tokens}",
        annotation_position="bottom right",
    )
    figure.add_hline(y=1.0, line={"color": "#999", "dash": "dot"}, row=1, col=2, annotation_text="one-hot")
    for col, top in ((1, curves.uniform_entropy * 1.05), (2, 1.02)):
        _marker(figure, chosen_dk, (0, top), f"d_k = {chosen_dk}", "#444", row=1, col=col)
    figure.update_xaxes(type="log", title="d_k", tickvals=list(dims), ticktext=[f"{d:g}" for d in dims])
    figure.update_yaxes(range=[0, curves.uniform_entropy * 1.1], row=1, col=1)
    figure.update_yaxes(range=[0, 1.05], row=1, col=2)
    return _finish(figure, height=height, legend_y=-0.25)


def row_weights_bars(row: OneRow, d_k: int, *, height: int = 340) -> go.Figure:
    """One query's weights over the keys: unscaled beside scaled."""
    keys = [f"key {j}" for j in range(len(row.scores))]
    figure = go.Figure()
    for weights, name, colour in (
        (row.raw_weights, "unscaled", UNSCALED),
        (row.scaled_weights, "scaled by √d_k", SCALED),
    ):
        figure.add_trace(
            go.Bar(x=keys, y=weights, name=name, marker_color=colour, hovertemplate="%{x}: %{y:.4f}<extra></extra>")
        )
    figure.update_yaxes(range=[0, 1.05], title="weight")
    figure.update_xaxes(type="category", tickangle=-45)
    return _finish(figure, title=f"Query 0's weights at d_k = {d_k}", barmode="group", height=height, legend_y=-0.3)


def outline_cells(figure: go.Figure, cells, *, colour: str = YELLOW, width: float = 3) -> go.Figure:
    """Draws a box round each (row, col) of a matrix_heatmap (category axes: cell centres sit at integers)."""
    for row, col in cells:
        figure.add_shape(
            type="rect",
            x0=col - 0.5,
            x1=col + 0.5,
            y0=row - 0.5,
            y1=row + 0.5,
            line={"color": colour, "width": width},
            fillcolor="rgba(0,0,0,0)",
        )
    return figure


def cost_plot(lengths, linear, quadratic, current_n: int, crossover: float, *, height: int = 380) -> go.Figure:
    """FLOPs against sequence length n, split into the part linear in n and the part growing like n²."""
    lengths = np.asarray(lengths, dtype=float)
    figure = go.Figure()
    figure.add_trace(go.Scatter(x=lengths, y=linear, mode="lines", name="projections (∝ n)", line={"color": GREEN}))
    figure.add_trace(
        go.Scatter(x=lengths, y=quadratic, mode="lines", name="scores + weighted sum (∝ n²)", line={"color": VERMILION})
    )
    figure.add_trace(
        go.Scatter(x=lengths, y=linear + quadratic, mode="lines", name="total", line={"color": "#333", "dash": "dash"})
    )
    span = (min(linear.min(), quadratic.min()), (linear + quadratic).max() * 3)
    _marker(figure, current_n, span, f"now: n = {current_n}", BLUE)
    _marker(figure, crossover, span, f"n = 2d = {crossover:g}", "#999", dash="dot", label_low=True)
    figure.update_xaxes(type="log", title="sequence length n", dtick=1)
    figure.update_yaxes(type="log", title="FLOPs", dtick=1, exponentformat="power")
    return _finish(figure, title="Cost against n: the n² part takes over past n = 2d", height=height, legend_y=-0.25)


def panel_figure(panel: Panel, chosen_cell: tuple[int, int] | None = None, *, height: int | None = None) -> go.Figure:
    """A step's matrix as a heatmap: the cells the step changed boxed in yellow (when only some changed),
    and the cell whose formula is shown boxed in black and white."""
    figure = matrix_heatmap(
        panel.matrix,
        panel.row_labels,
        panel.col_labels,
        kind=panel.kind,
        title=panel.title,
        blocked=panel.blocked,
        x_title="key" if panel.kind != "values" else "dimension",
        height=height,
    )
    if panel.changed is not None and 0 < panel.changed.sum() < panel.changed.size:
        outline_cells(figure, np.argwhere(panel.changed), colour=YELLOW, width=3)
    if chosen_cell is not None:  # black with a white core: visible on dark and light cells alike
        outline_cells(figure, [chosen_cell], colour="black", width=5)
        outline_cells(figure, [chosen_cell], colour="white", width=2)
    return figure
