"""Predict mode on the guided pages' matrices: a covered view's question is (page, view, row, the row's numbers), so
any change to what the row shows asks again; a click on a covered view (the component's event "guess", with the
view's name) is the student's prediction for that view's question. The Playground keeps its own (attnviz.ui.
playground_session), as its questions may ask about a switch."""

from __future__ import annotations

import numpy as np

from attnviz.figures.matrix_view import covered
from attnviz.lessons.predictions import row_cover, row_reveal
from attnviz.ui import state
from attnviz.ui.attention_grid import sent_event

KEPT = 50  # predictions remembered per session: the newest questions'


def question(page: str, view: str, row: int, values) -> tuple:
    """The question a covered view asks: which cell of ``row`` (its numbers ``values``) of ``view`` is the largest."""
    return (page, view, row, np.asarray(values, dtype=float).tobytes())


def predicted(asked: tuple) -> int | None:
    """The column clicked for ``asked``, or None while it is still asked."""
    return state.guided_prediction(asked)


def guess(component_key: str, questions: dict[str, tuple[tuple, int]]) -> None:
    """The component's "guess" callback: ``questions`` maps each covered view's name to (its question, its number of
    columns). A click elsewhere, or past the columns, is no prediction."""
    event = sent_event(component_key)
    sent = event.get("guess") if isinstance(event, dict) else None
    view, col = (sent.get("view"), sent.get("col")) if isinstance(sent, dict) else (None, None)
    # As sent by the browser: a crafted view may be a list or an object, which no question is keyed by.
    if not isinstance(view, str) or view not in questions or isinstance(col, bool) or not isinstance(col, int):
        return
    asked, columns = questions[view]
    if 0 <= col < columns:
        state.keep_guided_prediction(asked, col, kept=KEPT)


def ask_rows(page: str, views: list[dict], matrices: list[tuple], row: int) -> tuple[list[dict], dict, list[str]]:
    """Predict mode on ``views``, each drawn from (its matrix, its masked cells or None) in ``matrices``: each view is
    covered until the student clicks the cell of ``row`` they expect to be the largest. Returns the views, the
    questions for ``guess``, and what the predicted ones reveal."""
    shown, questions, said = [], {}, []
    for view, (matrix, blocked) in zip(views, matrices, strict=True):
        asked = question(page, view["name"], row, matrix[row])
        questions[view["name"]] = (asked, matrix.shape[1])
        made = predicted(asked)
        if made is None:
            shown.append(covered(view, row_cover(view["rows"][row], view["title"])))
        else:
            shown.append(view)
            weights = view["value_name"] == "weight"
            said.append(row_reveal(matrix, blocked, row, made, view["rows"], view["cols"], view["title"], weights=weights))
    return shown, questions, said
