"""Step by step's clicks on its pictures: a cell chooses the formula that reads it, and in predict mode a click on a
covered result is the student's prediction for this stage and query."""

from __future__ import annotations

import streamlit as st

from attnviz.figures.stages import chosen_by_click
from attnviz.lessons import predictions
from attnviz.ui import playground_session, state
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


def predicted(stage, query: int) -> int | None:
    """The column the student predicted for this stage and query of the Playground's state now, or None."""
    made = st.session_state.get(state.STAGE_PREDICTION)
    return made[1] if made is not None and made[0] == (playground_session.playground(), stage.key, query) else None


def guess(stage, query: int) -> None:
    """A click on a covered result: its column, in the query's row of the stage's first result, is the prediction."""
    sent = st.session_state.get(VIEWS, {}).get("guess")
    target = stage.panels[predictions.stage_target(stage)]
    col = sent.get("col") if isinstance(sent, dict) else None
    if isinstance(col, int) and not isinstance(col, bool) and 0 <= col < target.matrix.shape[1]:
        st.session_state[state.STAGE_PREDICTION] = ((playground_session.playground(), stage.key, query), col)
