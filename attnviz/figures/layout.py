"""The layout every lesson chart shares: a title at the left, fixed margins, a legend below, marker lines."""

from __future__ import annotations

from collections.abc import Callable

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from attnviz.figures.colours import SCALED, UNSCALED

MARGIN = {"l": 10, "r": 10, "t": 50, "b": 10}


def left_title(text: str) -> dict:
    return {"text": text, "x": 0, "xanchor": "left"}


def finish(figure: go.Figure, *, height: int, legend_y: float, title: str | None = None, **layout) -> go.Figure:
    """The layout every lesson chart shares: a title at the left, fixed margins, a horizontal legend below."""
    if title is not None:
        layout["title"] = left_title(title)
    figure.update_layout(height=height, margin=MARGIN, legend={"orientation": "h", "y": legend_y}, **layout)
    return figure


def marker(
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


def unscaled_and_scaled(titles: tuple[str, str], panels, trace: Callable[..., go.BaseTraceType]) -> go.Figure:
    """Two charts side by side, each comparing an unscaled series (in UNSCALED's colour) with a scaled one (SCALED).

    ``panels`` holds per chart ((values, name) unscaled, (values, name) scaled); ``trace(values, name, colour,
    panel)`` draws one series (a bar, a line) for chart ``panel`` (1 or 2)."""
    figure = make_subplots(cols=2, subplot_titles=titles)
    for panel, pair in enumerate(panels, start=1):
        for (values, name), colour in zip(pair, (UNSCALED, SCALED), strict=True):
            figure.add_trace(trace(values, name, colour, panel), row=1, col=panel)
    return figure
