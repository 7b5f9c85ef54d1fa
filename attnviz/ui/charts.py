"""The one way to put a plotly figure on a page: same toolbar, same PNG export, presenter-sized text."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from attnviz.ui.presenter import chart_font_size
from attnviz.ui.state import presenting


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
