"""The one way to put a plotly figure on a page: same toolbar, same PNG export, presenter-sized text."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from attnviz.ui.presenter import chart_font_size, presenting
from attnviz.ui.state import widget_value


def show_chart(figure: go.Figure, *, key: str, container=st) -> None:
    """Draws ``figure``; the toolbar's camera saves it as ``attnviz-<key>.png`` at twice the screen resolution."""
    if presenting():  # larger text everywhere in the figure, cell and bar labels included, for a projector
        figure.update_layout(font={"size": chart_font_size()})
        figure.update_traces(textfont={"size": chart_font_size()})
    container.plotly_chart(
        figure,
        width="stretch",
        key=key,
        config={
            "displaylogo": False,
            "modeBarButtonsToRemove": ["select2d", "lasso2d"],
            "toImageButtonOptions": {"format": "png", "filename": f"attnviz-{key}", "scale": 2},
        },
    )


def clicked_item(chart_key: str) -> tuple[int, int] | None:
    """(series index, data index) of the item just clicked in the ECharts chart ``chart_key``, or None. The selection
    arrives from the browser as sent, so anything but positions is no click (an index past the chart's items is the
    caller's to refuse)."""
    sent = widget_value(chart_key)
    selection = sent.get("selection") if isinstance(sent, dict) else None
    selected = selection.get("selected") if isinstance(selection, dict) else None
    for group in selected if isinstance(selected, list) else []:
        if not isinstance(group, dict):
            continue
        series, indices = group.get("series_index"), group.get("data_indices")
        if _position(series) and isinstance(indices, list) and indices and _position(indices[0]):
            return series, indices[0]
    return None


def _position(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
