"""One way to put a plotly figure on a page, so every chart exports alike from its toolbar."""

from __future__ import annotations

import streamlit as st


def show_chart(figure, *, name: str, container=st) -> None:
    """Draws ``figure``; the toolbar's camera saves it as ``attnviz-<name>.png`` at twice the screen resolution."""
    container.plotly_chart(
        figure,
        width="stretch",
        key=f"chart_{name}",
        config={
            "displaylogo": False,
            "toImageButtonOptions": {"format": "png", "filename": f"attnviz-{name}", "scale": 2},
        },
    )
