"""A class's answers to a question as bars: how many students chose each answer (plotly)."""

from __future__ import annotations

import plotly.graph_objects as go

from attnviz.core.text import chart_text
from attnviz.figures.colours import BLUE
from attnviz.figures.layout import finish


def tally_bars(counts, *, height: int = 300) -> go.Figure:
    """``counts`` (attnviz.classroom.tally.TallyCounts): one bar an answer, its count written on it. The question and
    the answers come from a lesson's link: plotly shows them as text, never as its HTML (chart_text)."""
    answers = [chart_text(option) for option in counts.options]
    figure = go.Figure(
        go.Bar(x=answers, y=list(counts.counts), text=list(counts.counts), marker_color=BLUE,
               hovertemplate="%{x}: %{y} students<extra></extra>")
    )  # fmt: skip
    figure.update_xaxes(type="category", tickangle=-45)
    figure.update_yaxes(title="students", rangemode="tozero", dtick=1 if max(counts.counts, default=0) < 10 else None)
    title = f"{counts.voters} answered: {chart_text(counts.question)}"
    return finish(figure, title=title, height=height, legend_y=-0.3)
