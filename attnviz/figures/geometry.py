"""Figures of the geometry page: the query and keys as arrows, scores and weights as bars, the blend of values."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from attnviz.figures.colours import BLUE, GREEN, ORANGE, PURPLE, SKY, VERMILION
from attnviz.figures.layout import finish, unscaled_and_scaled
from attnviz.lessons.geometry import GeometryResult, angle_text

KEY_COLOURS = (ORANGE, GREEN, PURPLE, SKY, VERMILION)
_LABEL_BACKGROUND = "rgba(128,128,128,0.18)"  # a faint box that reads on the light and the dark theme


def _three_places(x: float) -> str:
    return f"{round(float(x), 3) + 0.0:.3f}"  # + 0.0 turns a rounded −0 into 0


def _arrow(
    figure: go.Figure, start, end, colour: str, label: str, *, width: float = 3, dash: str | None = None, col=None
):
    """An arrow from ``start`` to ``end``: a line trace (for the legend and hover) plus an arrowhead annotation; in
    panel ``col`` of a figure of panels side by side.

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
        ),
        row=col and 1,
        col=col,
    )
    axes = "" if col in (None, 1) else str(col)
    if dash is None and not pointless:
        figure.add_annotation(
            x=x1,
            y=y1,
            ax=x0,
            ay=y0,
            xref=f"x{axes}",
            yref=f"y{axes}",
            axref=f"x{axes}",
            ayref=f"y{axes}",
            showarrow=True,
            arrowhead=3,
            arrowsize=3.6 / width,  # heads of about the same size whatever the line width
            arrowwidth=width,
            arrowcolor=colour,
            text="",
        )


def _square_axes(figure: go.Figure, points: np.ndarray, *, col: int | None = None) -> float:
    """Equal scales on x and y (angles look like angles), with the origin and every point in view (in panel ``col``
    of a figure of panels). Returns the half-width of the range."""
    reach = float(np.abs(points).max()) if points.size else 1.0
    reach = max(reach, 1.0) * 1.25
    _equal_axes(figure, np.zeros(2), reach, col)
    return reach


def _equal_axes(figure: go.Figure, middle, half: float, col: int | None) -> None:
    """Both axes of panel ``col`` (the only one: None) ``half`` either side of ``middle`` (x, y), on one scale."""
    anchor = "x" if col in (None, 1) else f"x{col}"
    figure.update_xaxes(range=[middle[0] - half, middle[0] + half], zeroline=True, zerolinecolor="#888", col=col)
    figure.update_yaxes(
        range=[middle[1] - half, middle[1] + half], zeroline=True, zerolinecolor="#888", col=col, scaleanchor=anchor
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
        # Towards the middle from the tip: a label beyond a tip in the plot's right half ran off a phone's 390 px
        # (the plot is square, so on a phone a unit is a few pixels and a label several units wide).
        right = tip[0] < 0
        figure.add_annotation(
            x=tip[0],
            y=tip[1],
            text=text,
            showarrow=False,
            xanchor="left" if right else "right",
            yanchor="bottom",
            xshift=6 if right else -6,
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
    """Left, each value from the origin; right, the weighted pieces w_j v_j laid tip to tail from the origin and their
    sum, zoomed to them. Two panels, so no value lies under its own piece (the first piece runs along its value)."""
    figure = make_subplots(cols=2, subplot_titles=("Values vⱼ", "Pieces wⱼ vⱼ and their sum"))
    for j, (value, label) in enumerate(zip(result.values, key_labels, strict=True)):
        _arrow(figure, (0, 0), value, KEY_COLOURS[j % len(KEY_COLOURS)], f"value “{label}”", width=2, dash="dot", col=1)
    tip, chain = np.zeros(2), [np.zeros(2)]
    for j, (value, weight, label) in enumerate(zip(result.values, result.weights, key_labels, strict=True)):
        piece = weight * value  # (2,)
        colour = KEY_COLOURS[j % len(KEY_COLOURS)]
        _arrow(figure, tip, tip + piece, colour, f"{weight:.3f} × value “{label}”", width=6, col=2)
        tip = tip + piece
        chain.append(tip)
    # Over the pieces and thinner than them: where the sum runs along a piece (parallel values), both still show.
    _arrow(figure, (0, 0), result.context, BLUE, "context vector Σ w_j v_j", width=3, col=2)
    figure.add_annotation(
        x=result.context[0],
        y=result.context[1],
        xref="x2",
        yref="y2",
        text=f"<b>context</b> ({_three_places(result.context[0])}, {_three_places(result.context[1])})",
        showarrow=False,
        xanchor="right" if result.context[0] > 0 else "left",  # towards the middle of its panel
        yanchor="bottom",  # above the tip: below it, the box would hide a piece's head
        xshift=-6 if result.context[0] > 0 else 6,
        font={"color": BLUE, "size": 12},
        bgcolor=_LABEL_BACKGROUND,
    )
    _square_axes(figure, np.vstack([result.values, result.context]), col=1)
    _fitted_axes(figure, np.vstack(chain), col=2)
    return finish(figure, title="Values in V-space and their weighted sum", height=height, legend_y=-0.08)


def _fitted_axes(figure: go.Figure, points: np.ndarray, *, col: int) -> None:
    """Equal scales on x and y around ``points`` (with the origin), a quarter of their span spare on every side: a
    short piece is drawn as large as the panel allows."""
    low, high = np.minimum(points.min(axis=0), 0), np.maximum(points.max(axis=0), 0)  # (2,) each
    _equal_axes(figure, (low + high) / 2, max(float((high - low).max()) / 2 * 1.25, 0.05), col)
