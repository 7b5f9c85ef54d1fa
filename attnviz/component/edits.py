"""Typing into a view the component draws: what makes a view editable, and an edit event as the browser sends it.

A view carrying ``edit`` (``editable``) lets a student type into its cells (attnviz/component/editor.js): one typed
cell, or a pasted block filling down and right from the cell the keyboard is on. The browser sends it as the one
trigger "event" ``{"edit": {"view", "row", "col", "cells", "id"}}``: the cell by its row and column *names* (a rerun
between the typing and the sending cannot point it at another cell), the texts exactly as typed, rows of columns, and
an id the host echoes back in the data as ``edited`` once it has applied or refused the edit (the browser sends an
edit again until it is echoed, so none is lost). What a typed text means is the page's to decide: this knows no
page's fields.
"""

from __future__ import annotations

from dataclasses import dataclass

from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_CELL_CHARS, MAX_DIM, MAX_TOKENS
from attnviz.lessons.table_words import block_misfit, cell_gone

MAX_ID_CHARS = 64


@dataclass(frozen=True)
class TypedBlock:
    """Texts typed into a view: ``cells`` (rows of columns) from the cell named (``row``, ``col``) down and right."""

    view: str
    row: str
    col: str
    cells: tuple[tuple[str, ...], ...]
    id: str

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.cells), len(self.cells[0])


def editable(view: dict, *, name: str, col_names: list[str], texts: list[str]) -> dict:
    """``view`` (attnviz.figures.matrix_view) as one a student types into: each cell says ``texts`` (exactly, row by
    row: the number the student would type back), and the input over a cell is named "``name``, row <row>,
    <col_names[j]>" for screen readers."""
    return view | {"text": list(texts), "edit": {"name": name, "col_names": list(col_names)}}


def typed_block(sent) -> TypedBlock | None:
    """An edit as the browser sent it (``event["edit"]``), or None if it is not one an honest browser sends: a cell
    named by two texts, a rectangular block of at most MAX_TOKENS × MAX_DIM texts of at most MAX_CELL_CHARS, an id."""
    if not isinstance(sent, dict) or set(sent) != {"view", "row", "col", "cells", "id"}:
        return None
    names = [sent[part] for part in ("view", "row", "col", "id")]
    if (
        not all(isinstance(name, str) and len(name) <= MAX_ID_CHARS * 4 for name in names)
        or len(sent["id"]) > MAX_ID_CHARS
    ):
        return None
    cells = sent["cells"]
    if not (isinstance(cells, list) and 0 < len(cells) <= MAX_TOKENS):
        return None
    width = len(cells[0]) if isinstance(cells[0], list) else 0
    if not 0 < width <= MAX_DIM or any(not isinstance(row, list) or len(row) != width for row in cells):
        return None
    if any(not isinstance(text, str) or len(text) > MAX_CELL_CHARS for row in cells for text in row):
        return None
    return TypedBlock(sent["view"], sent["row"], sent["col"], tuple(tuple(row) for row in cells), sent["id"])


def placed(block: TypedBlock, rows: list[str], cols: list[str]) -> dict[tuple[int, int], str]:
    """The block's texts by (row, column) position in a view whose rows and columns are named ``rows`` and ``cols``.
    AttnvizInputError, in a student's words, if its first cell is no longer there or the block runs past the view."""
    if block.row not in rows or block.col not in cols:
        raise AttnvizInputError(cell_gone(block.view, block.row, block.col))
    top, left = rows.index(block.row), cols.index(block.col)
    height, width = block.shape
    if top + height > len(rows) or left + width > len(cols):
        raise AttnvizInputError(
            block_misfit(block.view, block.row, block.col, (height, width), (len(rows) - top, len(cols) - left))
        )
    return {(top + i, left + j): text for i, row in enumerate(block.cells) for j, text in enumerate(row)}
