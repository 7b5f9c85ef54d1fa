"""Step by step's clicks on its pictures: a cell chooses the formula that reads it (predict mode's clicks on covered
results: attnviz.ui.predict)."""

from __future__ import annotations

from attnviz.figures.stages import chosen_by_click
from attnviz.ui import state
from attnviz.ui.attention_grid import clicked_cell

PAGE = "step_by_step"
VIEWS = "steps.views"  # the component that draws a stage's pictures


def choose_cell(stage) -> None:
    """A click on a panel's cell chooses the query and column whose formula reads it."""
    clicked = clicked_cell(VIEWS)
    names = [f"{stage.key}-{k}" for k in range(len(stage.panels))]
    if clicked is None or clicked[0] not in names:
        return
    panel = stage.panels[names.index(clicked[0])]
    rows, cols = panel.matrix.shape
    if clicked[1] < rows and (clicked[2] is None or clicked[2] < cols):
        column_setting = "key" if stage.columns_are == "key" else "dimension"
        for name, value in chosen_by_click(panel, clicked[1], clicked[2]).items():
            state.set_setting(PAGE, "query" if name == "query" else column_setting, value)
