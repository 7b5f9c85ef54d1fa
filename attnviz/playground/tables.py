"""The Q, K and V tables: drawn by the one matrix component as views a student types into, for either host (a page,
a notebook widget), and the move a typed cell or a pasted block makes (attnviz.playground.session applies it)."""

from __future__ import annotations

from attnviz.component.data import component_data
from attnviz.component.edits import TypedBlock, editable, placed
from attnviz.core.errors import AttnvizInputError
from attnviz.core.numbers import cell_text
from attnviz.core.playground_state import MATRICES, PlaygroundState, apply_edits, column_names
from attnviz.figures.matrix_view import Scale, matrix_view
from attnviz.lessons.playground import TYPING_HELP, matrix_heading
from attnviz.lessons.table_words import cell_gone, paste_refused

ENTER = "Type a number, or press Enter, to edit the cell."


def typed_into(state: PlaygroundState, block: TypedBlock) -> PlaygroundState:
    """``state`` with the block's texts in the cells it names, a move as one (Undo takes it back whole).
    AttnvizInputError, in a student's words, if any of its cells cannot land: nothing is changed then."""
    if block.view not in MATRICES:
        raise AttnvizInputError(cell_gone(block.view, block.row, block.col))
    width = state.d_v if block.view == "V" else state.d_k
    typed = placed(block, state.labels, column_names(block.view, width))
    new, problems = apply_edits(state, block.view, typed)
    if problems:
        raise AttnvizInputError(problems[0] if len(typed) == 1 else paste_refused(problems, len(typed)))
    return new


def table_views(state: PlaygroundState, font_size: int = 13) -> list[dict]:
    """Q (n, d_k), K (n, d_k) and V (n, d_v) as views a student types into: each cell says its number exactly."""
    views = []
    for matrix, values in zip(MATRICES, state.matrices(), strict=True):
        columns = column_names(matrix, values.shape[1])
        view = matrix_view(
            values,
            state.labels,
            columns,
            scale=Scale.signed_of(values),
            name=matrix,
            title=matrix_heading(matrix, read=True),
            value_name="value",
            font_size=font_size,
            ticks=columns,
        )
        dimensions = [f"dimension {j + 1}" for j in range(values.shape[1])]
        views.append(editable(view, name=matrix, col_names=dimensions, texts=[cell_text(v) for v in values.ravel()]))
    return views


def tables_data(state: PlaygroundState, *, edited: str, warning: str, font_size: int, height: int) -> dict:
    """The tables as the component takes them: side by side (only Q labels the rows they share), ``warning`` at
    them (why the last edit was refused), and ``edited``, the id of the last edit applied or refused."""
    return component_data(
        table_views(state, font_size),
        caption=TYPING_HELP,
        height=height,
        font_size=font_size,
        columns=[float(state.d_k), float(state.d_k), float(state.d_v)],
        enter=ENTER,
        warning=warning,
        labels_first=True,
    ) | {"edited": edited}
