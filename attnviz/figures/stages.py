"""Step by step's matrices: a stage's heatmap with the cells it changed and the chosen cell boxed."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attnviz.figures.colours import YELLOW
from attnviz.figures.heatmaps import matrix_heatmap
from attnviz.lessons.stages import Panel


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
