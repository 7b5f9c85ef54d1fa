"""A class's answers to a question as bars: how many students chose each answer (plotly)."""

from __future__ import annotations

import plotly.graph_objects as go

from attnviz.core.text import chart_text
from attnviz.figures.colours import BLUE, GREEN
from attnviz.figures.layout import finish

BAR_PX = 19  # a bar's row: its label at 16 px fits, one under the other
RIGHT_MARK = "✓ "  # before the right answer's label once it is shown: the mark, not only its colour, says it


def tally_bars(counts, *, right: int | None = None, font_px: int = 16) -> go.Figure:
    """``counts`` (attnviz.classroom.tally.TallyCounts): one bar an answer, top to bottom in the question's order, every
    answer labelled in full and its count written beside it; ``right``: the right answer's position once it is shown
    (marked and green). The question and the answers come from a lesson's link: plotly shows them as text, never as
    its HTML (chart_text). The title is the count alone, whole at any width: the question is said above the chart."""
    labels = [(RIGHT_MARK if k == right else "") + chart_text(option) for k, option in enumerate(counts.options)]
    colours = [GREEN if k == right else BLUE for k in range(len(labels))]
    figure = go.Figure(
        go.Bar(y=labels, x=list(counts.counts), orientation="h", text=list(counts.counts), textposition="outside",
               marker_color=colours, cliponaxis=False, textfont={"size": font_px}, hovertemplate="%{y}: %{x} students<extra></extra>")
    )  # fmt: skip
    # Every label drawn (tickvals), none skipped for room; the first answer at the top, as the question lists them.
    figure.update_yaxes(
        type="category", tickvals=labels, ticktext=labels, autorange="reversed", automargin=True,
        tickfont={"size": font_px},
    )  # fmt: skip
    most = max(counts.counts, default=0)
    # No count axis: each bar's count is written beside it, and the room goes to the bars.
    figure.update_xaxes(rangemode="tozero", range=[0, max(1, most) * 1.25], showticklabels=False)
    height = 2 * font_px + 16 + BAR_PX * len(labels) * font_px // 16  # the title's room and the bars
    finish(figure, title=f"{counts.voters} answered", height=height, legend_y=-0.3, font={"size": font_px},
           uniformtext={"minsize": font_px, "mode": "show"})  # fmt: skip
    return figure.update_layout(margin={"t": 2 * font_px + 4, "b": 4})  # room for the title, and no more: the bars need it
