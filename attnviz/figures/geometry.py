"""Figures of the geometry page: the query and keys as arrows, scores and weights as bars, the blend of values."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attnviz.figures.colours import BLUE, GREEN, ORANGE, PURPLE, SKY, VERMILION
from attnviz.figures.layout import finish, unscaled_and_scaled
from attnviz.lessons.geometry import GeometryResult, angle_text

KEY_COLOURS = (ORANGE, GREEN, PURPLE, SKY, VERMILION)
_LABEL_BACKGROUND = "rgba(128,128,128,0.18)"  # a faint box that reads on the light and the dark theme


def _three_places(x: float) -> str:
    return f"{round(float(x), 3) + 0.0:.3f}"  # + 0.0 turns a rounded −0 into 0


def _arrow(figure: go.Figure, start, end, colour: str, label: str, *, width: float = 3, dash: str | None = None):
    """An arrow from ``start`` to ``end``: a line trace (for the legend and hover) plus an arrowhead annotation.

    A dashed arrow gets its head as a marker on the line instead: an annotation's head brings its own solid shaft,
    which would cover the dashes."""
    (x0, y0), (x1, y1) = start, end
    pointless = (x0, y0) == (x1, y1)  # a zero-length arrow has no direction to point its head in
    head = {"symbol": "arrow", "angleref": "previous", "size": [0, 0 if pointless else 4 * width + 4], "color": colour}
    figure.add_trace(
        go.Scatter(
            x=[x0, x1],
            y=[y0, y1],
            mode="lines" if dash is None else "lines+markers",
            line={"color": colour, "width": width, "dash": dash},
            marker=None if dash is None else head,
            name=label,
            hovertemplate=f"{label}<br>end ({x1:.3g}, {y1:.3g})<extra></extra>",
        )
    )
    if dash is None and not pointless:
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
    return finish(figure, title="Query and keys in Q–K space", height=height, legend_y=-0.08)


def score_bars(result: GeometryResult, key_labels, *, height: int = 340) -> go.Figure:
    """Left: raw and scaled scores. Right: the softmax weights with and without the √2."""
    labels = list(key_labels)

    def bars(values, name, colour, panel):
        return go.Bar(
            x=labels,
            y=values,
            name=name,
            marker_color=colour,
            text=[f"{v:.4f}" if panel == 2 else f"{v:.2f}" for v in values],
            textposition="outside",
            legendgroup=name,
            showlegend=True,
            cliponaxis=False,
        )

    panels = (
        ((result.scores, "raw q·k"), (result.scaled, "scaled q·k / √2")),
        ((result.unscaled_weights, "softmax of raw"), (result.weights, "softmax of scaled")),
    )
    figure = unscaled_and_scaled(("Scores: q·k and q·k / √2", "Softmax weights"), panels, bars)
    figure.update_yaxes(range=[0, 1.15], title="weight", row=1, col=2)
    return finish(figure, barmode="group", height=height, legend_y=-0.15)


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
        yanchor="bottom",  # above the tip: below it, the box would hide a value's head along the x axis
        xshift=6,
        font={"color": BLUE, "size": 12},
        bgcolor=_LABEL_BACKGROUND,
    )
    _square_axes(figure, np.vstack([result.values, result.context]))
    figure.update_yaxes(scaleanchor="x", scaleratio=1)
    return finish(figure, title="Values in V-space and their weighted sum", height=height, legend_y=-0.08)
