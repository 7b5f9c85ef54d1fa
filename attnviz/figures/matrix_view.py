"""The one cell model: a matrix as the attention-grid component (attnviz/component) draws it, on every page.

Everything a reader sees is decided here, in Python: the cell text (one formatter, one minus sign, no "−0"), each
cell's position on its view's named colour scale, masked cells, the focus row, the cells a change altered, the cells a
formula reads, and the labels. The browser lays the view out, maps positions to colours, sizes the numbers to their
cells, and builds the hover sentence from the labels and numbers sent.

A view is a dict; every per-cell list is flat, in reading order (row by row):

- ``colour``: the position on the scale (0…1 for weights, −1…1 otherwise), or None for a masked cell; above the
  text limit packed into one base64 string of 16-bit codes (``packed_positions``): a list of thousands of floats is
  the slowest thing to turn into JSON, and a large view's colours are sent on every run;
- ``text``: what the cell says (empty when the view is too large for text; hover still names the number);
- ``numbers``: the number the hover sentence gives (4 significant digits, 3 above the text limit).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

import numpy as np

from attnviz.core.numbers import format_cells, format_numbers
from attnviz.figures.colours import BLUE_RED, VIRIDIS, reach_of, signed_log

TEXT_LIMIT = 24  # above this many rows or columns cell text is left out (hover stays): unreadable, and slow to send
CHANGED_LIMIT = 256  # above TEXT_LIMIT, more changed cells than this are not boxed: a box on every other cell of a
# 128 × 128 view says nothing and costs the browser more than the view itself; the line under the views says it


@dataclass(frozen=True)
class Scale:
    """How a matrix's values become colours: "weights" are 0 to 1 on Viridis; "signed" values are blue–red on a
    signed log scale that reaches full colour at ±reach."""

    kind: str  # "weights" or "signed"
    reach: float = 1.0
    decimals: int = 2  # of a signed value's cell text (attnviz.core.numbers.cell_decimals); weights always 2

    @classmethod
    def signed_of(cls, matrix) -> Scale:
        """A signed scale reaching full colour at the matrix's largest finite |value|."""
        return cls("signed", reach_of(matrix))  # cells to 2 decimals

    def positions(self, values: np.ndarray) -> np.ndarray:
        return np.clip(values, 0.0, 1.0) if self.kind == "weights" else signed_log(values, self.reach)

    @property
    def colours(self) -> list[str]:
        return VIRIDIS if self.kind == "weights" else BLUE_RED

    @property
    def range(self) -> tuple[float, float]:
        return (0.0, 1.0) if self.kind == "weights" else (-1.0, 1.0)

    @property
    def masked_text(self) -> str:
        """What a masked cell of this scale says (a masked score has no colour to claim)."""
        return MASKED[self.kind]


# The one rule for a masked cell: the mask makes its score −∞, so its weight exp(−∞) = 0. A cell says its own scale's;
# a hover on it says both, what the mask did to it.
MASKED = {"signed": "−∞", "weights": "0"}
MASKED_WORDS = f"masked, score {MASKED['signed']}, weight {MASKED['weights']}"
PACKED_STEPS = 65534  # a packed position's code: 0 masked, else 1 + its place on the scale in 65,534 steps


def packed_positions(positions: np.ndarray, masked: np.ndarray, scale_range: tuple[float, float]) -> str:
    """Positions (rows, cols) as base64 of little-endian uint16 codes, in reading order: 0 for a masked cell."""
    lo, hi = scale_range
    codes = np.zeros(positions.shape, "<u2")
    shown = np.clip(positions[~masked], lo, hi)
    codes[~masked] = 1 + np.rint((shown - lo) / (hi - lo) * PACKED_STEPS).astype("<u2")
    return base64.b64encode(codes.tobytes()).decode("ascii")


def colour_positions(view: dict) -> list[float | None]:
    """A view's colour positions in reading order (None where masked), packed or not: what the browser paints."""
    if not isinstance(view["colour"], str):
        return list(view["colour"])
    lo, hi = view["range"]
    codes = np.frombuffer(base64.b64decode(view["colour"]), "<u2")
    return [None if code == 0 else lo + (code - 1) / PACKED_STEPS * (hi - lo) for code in codes.tolist()]


def packed_numbers(numbers: list[str]) -> dict | list[str]:
    """Hover numbers, in reading order, as their distinct texts ("words") and one code a cell (base64 of little-endian
    uint16 indexes into words): a head overview's 18,432 numbers, sent as a list, were three quarters of its 250 kB.
    More distinct texts than a code can number (no view here has that many cells) stay a list."""
    index: dict[str, int] = {}
    codes = [index.setdefault(text, len(index)) for text in numbers]
    if len(index) > 1 << 16:
        return numbers
    return {"words": list(index), "codes": base64.b64encode(np.array(codes, "<u2").tobytes()).decode("ascii")}


def hover_numbers(view: dict) -> list[str]:
    """A view's hover numbers in reading order, packed or not: what the browser shows."""
    numbers = view["numbers"]
    if isinstance(numbers, list):
        return list(numbers)
    return [numbers["words"][code] for code in np.frombuffer(base64.b64decode(numbers["codes"]), "<u2").tolist()]


@dataclass(frozen=True)
class Cells:
    """One matrix's cells as a reader gets them, in reading order."""

    colour: list | str  # positions on the view's scale, None where masked; packed above the text limit
    text: list  # what each cell says (empty above the text limit)
    numbers: list | dict  # what the hover says; packed above the text limit
    said: np.ndarray  # (rows, cols) what a reader is told: text, or the hover number above the limit; mask text


def hover_digits(with_text: bool) -> int:
    """Significant digits of a hover number (and decimals of a colour position). Above the text limit the hover is the
    only place a number shows: 3 digits there keep a 128 × 128 view's data about a tenth smaller."""
    return 4 if with_text else 3


def cells_of(z: np.ndarray, blocked: np.ndarray | None, scale: Scale) -> Cells:
    """The cells of ``z`` (rows, cols); ``blocked`` cells are masked: grey, saying "−∞" (scores) or "0" (weights).
    Built with numpy and the list formatters, not cell by cell: 128 tokens are 16,384 cells a view."""
    z = np.asarray(z, dtype=float)  # (rows, cols)
    blocked = np.zeros(z.shape, bool) if blocked is None else np.asarray(blocked, bool)
    show_text = max(z.shape) <= TEXT_LIMIT  # at any font size: the browser sizes numbers to their cells (layout.js)
    digits = hover_digits(show_text)
    shown = z[~blocked]
    colour = np.full(z.shape, np.nan)
    colour[~blocked] = scale.positions(shown)
    if show_text:  # sent as a list: rounded, which keeps its JSON short (a packed view's codes are short anyway)
        colour = np.round(colour, digits)
    numbers = np.full(z.shape, "", dtype=object)
    numbers[~blocked] = format_numbers(shown, digits=digits)
    said = np.full(z.shape, scale.masked_text, dtype=object)
    said[~blocked] = format_cells(shown, weights=scale.kind == "weights", decimals=scale.decimals) if show_text else numbers[~blocked]
    return Cells(
        colour=[None if np.isnan(p) else p for p in colour.ravel().tolist()]
        if show_text
        else packed_positions(colour, blocked, scale.range),
        text=said.ravel().tolist() if show_text else [],
        numbers=numbers.ravel().tolist() if show_text else packed_numbers(numbers.ravel().tolist()),
        said=said,
    )


def boxes_changes(changed: np.ndarray, with_text: bool) -> bool:
    """Whether the changed cells are boxed: some, at most half of them (a box on most cells says nothing: most is
    said in words instead), and above the text limit only up to CHANGED_LIMIT."""
    count = int(np.count_nonzero(changed))
    return count > 0 and 2 * count <= changed.size and (with_text or count <= CHANGED_LIMIT)


def tick_font_size(rows: int, cols: int, font_size: int) -> int:
    """The row and column labels' size: the chart's, up to 14 px, or smaller above the text limit, where they thin out."""
    return min(font_size, 14) if max(rows, cols) <= TEXT_LIMIT else max(8, font_size - 3)


def key_tokens(col_labels: list[str]) -> list[str]:
    """Under each column only the key's token ("3: not" → "not"); the hover gives the whole label."""
    return [label.split(": ", 1)[-1] for label in col_labels]


def view_of(
    cells: Cells,
    row_labels: list[str],
    col_labels: list[str],
    *,
    name: str,
    title: str,
    scale: Scale,
    value_name: str,
    font_size: int = 13,
    focus: int | None = None,
    changed: np.ndarray | None = None,
    boxes: list[tuple[int, int, int, int]] = (),
    groups: tuple[int, int] = (1, 1),
    ticks: list[str] | None = None,
    row_ticks: list[str] | None = None,
) -> dict:
    """The view the component draws from ``cells`` (``cells_of``).

    ``focus`` is a row boxed and labelled in bold; ``changed`` (bool, the cells' shape) the cells the last change
    altered, boxed in orange where ``boxes_changes`` allows; ``boxes`` rectangles (first row, first column, rows,
    columns) outlined dark (the cells a formula reads, a chosen head); ``groups`` (rows, columns) a line between every
    that many rows and columns (heads side by side); ``ticks`` and ``row_ticks`` the column and row labels drawn (the
    keys' tokens and the row labels by default; an empty one is not drawn).
    """
    rows, cols = cells.said.shape
    changed = np.zeros((rows, cols), bool) if changed is None else np.asarray(changed, bool)
    boxed = np.flatnonzero(changed).tolist() if boxes_changes(changed, bool(cells.text)) else []
    return {
        "name": name,  # the PNG's name: attnviz-<name>.png
        "title": title,
        "rows": list(row_labels),  # hover: "4: good → 3: not"
        "ticks": key_tokens(col_labels) if ticks is None else list(ticks),
        "row_ticks": list(row_labels if row_ticks is None else row_ticks),
        "cols": list(col_labels),
        "tick_font": tick_font_size(rows, cols, font_size),  # px, for the row and column labels
        "focus": focus if focus is not None and 0 <= focus < rows else None,
        "palette": scale.colours,
        "range": list(scale.range),
        "value_name": value_name,
        "masked_words": MASKED_WORDS,
        "colour": cells.colour,
        "text": cells.text,
        "numbers": cells.numbers,
        "changed": boxed,
        "changed_count": int(changed.sum()),  # for the line under the views, which says what the boxes show
        "boxes": [list(box) for box in boxes],
        "groups": list(groups),
    }


def matrix_view(matrix, row_labels: list[str], col_labels: list[str], *, scale: Scale, blocked=None, **view) -> dict:
    """``matrix`` (rows, cols) as a view: ``cells_of`` then ``view_of`` (which takes the rest by name)."""
    return view_of(cells_of(matrix, blocked, scale), row_labels, col_labels, scale=scale, **view)


def covered(view: dict, cover: str | None) -> dict:
    """A view covered until the student predicts (predict mode): its labels, none of its numbers or colours."""
    if cover is None:
        return view
    blank = len(view["rows"]) * len(view["cols"])
    return view | {"colour": [None] * blank, "text": [], "numbers": [""] * blank, "changed": [], "cover": cover}


def veiled(view: dict, block: tuple[int, int, int, int], words: str) -> dict:
    """``view`` with the cells of ``block`` (first row, first column, rows, columns) hidden: no colour, text or number
    sent, and a hover that says ``words``. For a view with no masked cell, whose hover words these replace."""
    top, left, height, width = block
    shape = (len(view["rows"]), len(view["cols"]))
    hidden = np.zeros(shape, bool)
    hidden[top : top + height, left : left + width] = True
    positions = np.array([np.nan if p is None else p for p in colour_positions(view)], float).reshape(shape)
    positions[hidden] = np.nan
    numbers = np.array(hover_numbers(view), dtype=object).reshape(shape)
    numbers[hidden] = ""
    if isinstance(view["colour"], str):  # packed, as sent above the text limit
        colour, packed = packed_positions(positions, np.isnan(positions), tuple(view["range"])), True
    else:
        colour, packed = [None if np.isnan(p) else p for p in positions.ravel().tolist()], False
    text = np.array(view["text"], dtype=object).reshape(shape) if view["text"] else None
    if text is not None:
        text[hidden] = ""
    return view | {
        "colour": colour,
        "text": [] if text is None else text.ravel().tolist(),
        "numbers": packed_numbers(numbers.ravel().tolist()) if packed else numbers.ravel().tolist(),
        "masked_words": words,
    }
