"""What a table a student types into says when a typed cell or a pasted block cannot land: each sentence from the
edit itself (the cell it was aimed at, the block's size, the room left), so it names what the student did."""

from __future__ import annotations

UNREADABLE = "What reached the tables could not be read as numbers typed into their cells. Nothing was changed."


def cell_gone(view: str, row: str, col: str) -> str:
    """A cell typed into a table that has since lost it (a shorter sentence, a smaller d_k arrived first)."""
    return (
        f"The cell typed into ({view}, row {row}, column {col}) is no longer in the table: the sentence or its size "
        "changed first. Nothing was changed."
    )


def block_misfit(view: str, row: str, col: str, block: tuple[int, int], room: tuple[int, int]) -> str:
    """A pasted block larger than the table from the cell it was pasted into."""
    return (
        f"The pasted block is {_size(block)}, but from {view}, row {row}, column {col} the table has room for "
        f"{_size(room)}. Nothing was pasted."
    )


def paste_refused(problems: list[str], cells: int) -> str:
    """A pasted block with cells that are not numbers the table takes: refused whole, the first such cell said."""
    first = problems[0].removesuffix("; the previous value is kept.")
    more = f" ({len(problems)} of its {cells} cells are not numbers the table takes)" if len(problems) > 1 else ""
    return f"Nothing was pasted{more}: {first}."


def _size(shape: tuple[int, int]) -> str:
    rows, cols = shape
    return f"{rows} {'row' if rows == 1 else 'rows'} × {cols} {'column' if cols == 1 else 'columns'}"
