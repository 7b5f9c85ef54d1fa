"""Multi-head's X as a table a student types into, drawn by the matrix component (when X is small enough:
attnviz.lessons.multi_head.x_is_editable), and what a cell typed or a block pasted into it does. Plain Python: the page
keeps a ``TypedX`` in its settings and hands it each event the browser sends.

A typed block lands whole or not at all, by the rule of the Playground's tables (attnviz.playground.tables): its cell
found by its row and column names (``placed``), each text a plain decimal of at most 1000 (``parse_number``), kept
exactly as typed (−0 too). Edits are kept per (seed, d_model): change either and back, and they return.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from attnviz.component.data import component_data
from attnviz.component.edits import editable, placed, typed_block
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_ID_CHARS
from attnviz.core.numbers import cell_text, parse_cells, with_cells
from attnviz.figures.multi_head import x_map
from attnviz.lessons.table_words import UNREADABLE, cell_gone, paste_refused

NAME = "X"
CAPTION = "X: one row per token. Small enough to edit: change a number and everything below follows."
ENTER = "Type a number, or press Enter, to edit the cell."

Where = tuple[int, int]  # (seed, d_model): the X the edits were typed into


@dataclass(frozen=True)
class TypedX:
    """The cells typed into X, by (seed, d_model), then by (row, column); the id of the last edit applied or refused
    (``edited``: the browser sends an edit again until it sees it), and why that edit was refused (``refused``)."""

    cells: dict[Where, dict[tuple[int, int], float]] = field(default_factory=dict)
    edited: str = ""
    refused: str = ""

    def on(self, base_X, where: Where) -> np.ndarray:
        """The X of ``where`` with the cells typed into it."""
        return with_cells(base_X, self.cells.get(where, {}))

    def after(self, event, where: Where, rows: list[str], cols: list[str]) -> TypedX:
        """What an event from X makes of the edits: a typed cell or a pasted block lands (every cell of it), or is
        refused whole and ``refused`` says why (an edit no honest browser sends too, echoed if it has an id). Another
        event, or an edit sent again, changes nothing."""
        if not (isinstance(event, dict) and set(event) == {"edit"}):
            return self
        sent = event["edit"]
        block, sent_id = typed_block(sent), sent.get("id") if isinstance(sent, dict) else None
        if sent_id == self.edited:
            return self
        if block is None:  # crafted: refused, and echoed if it has an id, so the browser sends the next edit
            echoed = sent_id if isinstance(sent_id, str) and len(sent_id) <= MAX_ID_CHARS else self.edited
            return replace(self, edited=echoed, refused=UNREADABLE)
        try:
            if block.view != NAME:
                raise AttnvizInputError(cell_gone(block.view, block.row, block.col))
            typed = placed(block, rows, cols)
            named = lambda row, col: f"X[{rows[row]}, dimension {col + 1}]"  # noqa: E731
            values, problems = parse_cells(typed, (len(rows), len(cols)), named)
            if problems:
                raise AttnvizInputError(problems[0] if len(typed) == 1 else paste_refused(problems, len(typed)))
        except AttnvizInputError as error:
            return replace(self, edited=block.id, refused=str(error))
        kept = self.cells.get(where, {})
        return replace(self, cells=self.cells | {where: kept | values}, edited=block.id, refused="")

    def said(self) -> TypedX:
        """Once its refusal is shown: it belongs to its edit, and is gone at the next run."""
        return replace(self, refused="")


def x_table(X, labels: list[str], *, edited: str, warning: str, height: int, font_size: int) -> dict:
    """X as the component takes it: a view each cell of which says its number exactly (what the student would type
    back), ``warning`` at it, and ``edited``, the id of the last edit applied or refused."""
    view = x_map(X, labels)
    dimensions = [f"dimension {j + 1}" for j in range(np.shape(X)[1])]
    texts = [cell_text(value) for value in np.asarray(X, dtype=float).ravel()]
    return component_data(
        [editable(view, name=NAME, col_names=dimensions, texts=texts)],
        caption=CAPTION,
        height=height,
        font_size=font_size,
        columns=[1.0],
        enter=ENTER,
        warning=warning,
    ) | {"edited": edited}
