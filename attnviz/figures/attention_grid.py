"""The Playground's four attention views as plain data for the attention-grid component (attnviz/ui/attention_grid).

The component draws each view on a canvas and keeps it: a toggle sends new numbers and the browser repaints the
cells in place, the colours gliding to their new values. Everything a reader sees is decided here, in Python: the
cell text (one formatter, one minus sign, no "−0"), each cell's position on its view's fixed colour scale, the focus
row, and the cells the last change altered. The browser only lays the views out, maps positions to colours and
builds the hover sentence from the labels and numbers sent.

A view is a dict; every per-cell list is flat, in reading order (row by row):

- ``colour``: the position on the scale (0…1 for weights, −1…1 otherwise), or None for a masked cell;
- ``text``: what the cell says (empty when the view is too large for text; hover still names the number);
- ``numbers``: the number the hover sentence gives (4 significant digits, 3 above the text limit).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from attnviz.core.numbers import format_number, format_numbers
from attnviz.figures.attention_charts import (
    TEXT_LIMIT,
    Scale,
    boxes_changes,
    cell_labels,
    hover_digits,
    key_tokens,
    tick_font_size,
)


@dataclass(frozen=True)
class _Cells:
    """One view's cells as a reader gets them, in reading order."""

    colour: list  # positions on the view's scale; None where masked
    text: list  # what each cell says (empty above the text limit)
    numbers: list  # what the hover says
    said: np.ndarray  # (rows, cols) what a reader is told: text, or the hover number above the limit; mask text


@lru_cache(maxsize=32)  # a state's cells are computed once: now, and again as "before" for the next change
def _cells(state, drawn: str, masked: bool, scale: Scale) -> _Cells:
    result = state.result()
    z = getattr(result, drawn)  # (rows, cols)
    blocked = result.blocked if masked else np.zeros(z.shape, bool)
    show_text = max(z.shape) <= TEXT_LIMIT  # at any font size: the browser sizes numbers to their cells (layout.js)
    digits = hover_digits(show_text)
    shown = z[~blocked]
    colour = np.full(z.shape, np.nan)
    colour[~blocked] = np.round(scale.positions(shown), digits)
    numbers = np.full(z.shape, "", dtype=object)
    numbers[~blocked] = format_numbers(shown, digits=digits)
    said = np.full(z.shape, scale.masked_text, dtype=object)
    said[~blocked] = cell_labels(shown, scale) if show_text else numbers[~blocked]
    return _Cells(
        colour=[None if np.isnan(p) else p for p in colour.ravel().tolist()],
        text=said.ravel().tolist() if show_text else [],
        numbers=numbers.ravel().tolist(),
        said=said,
    )


def _view(state, previous, spec: tuple, font_size: int) -> dict:
    """One view of the state; cells whose shown value moved since ``previous`` are changed, and boxed in orange
    where ``boxes_changes`` allows (never every cell: the line under the views says so instead)."""
    name, title, drawn, scale, value_name, masked, columns = spec
    cells = _cells(state, drawn, masked, scale)
    rows, cols = cells.said.shape
    changed = np.zeros(cells.said.shape, bool)
    if previous is not None:
        before = _cells(previous, drawn, masked, scale).said
        changed = before != cells.said if before.shape == cells.said.shape else changed
    boxed = np.flatnonzero(changed).tolist() if boxes_changes(changed, bool(cells.text)) and not changed.all() else []
    return {
        "name": name,  # the PNG's name: attnviz-<name>.png
        "title": title,
        "rows": state.labels,  # hover: "4: good → 3: not"
        "ticks": key_tokens(columns),
        "cols": list(columns),
        "tick_font": tick_font_size(rows, cols, font_size),  # px, for the row and column labels
        "focus": state.focus if 0 <= state.focus < rows else None,
        "palette": scale.colours,
        "range": list(scale.range),
        "value_name": value_name,
        "colour": cells.colour,
        "text": cells.text,
        "numbers": cells.numbers,
        "changed": boxed,
        "changed_count": int(changed.sum()),  # for the line under the views, which says what the boxes show
    }


def playground_views(state, previous=None, *, font_size: int = 13, covers: dict[str, str] | None = None) -> list[dict]:
    """Raw scores, scaled and masked scores, weights and outputs of a PlaygroundState, in reading order.

    Raw and scaled scores share one colour scale fixed by the largest raw score, so toggling the scaling or the
    temperature changes the colours only as much as it changes the numbers. A cell is changed when what it shows a
    reader differs from ``previous`` (the state before the last change): one decision, which the boxes and the line
    under the views both use. ``covers`` names views to cover (predict mode), each with the words on its cover.
    """
    result, labels = state.result(), state.labels
    score_scale = Scale("signed", reach_of_scores(result))
    value_scale = Scale("signed", float(np.abs(state.matrices()[2]).max() or 1.0))  # the largest |v|
    dims = [f"d{j + 1}" for j in range(state.d_v)]
    views = (
        # name, title, the result's matrix drawn, scale, value name, masked cells shown, columns
        ("scores", "1. Raw scores QKᵀ", "scores", score_scale, "score", False, labels),
        ("scaled", scores_title(state), "scaled", score_scale, "score", True, labels),
        ("weights", "3. Weights: softmax of each row", "weights", Scale("weights"), "weight", True, labels),
        ("output", "4. Output: weights · V", "output", value_scale, "value", False, dims),
    )
    before = previous if _comparable(previous, state) else None
    covers = covers or {}
    return [_covered(_view(state, before, spec, font_size), covers.get(spec[0])) for spec in views]


def _covered(view: dict, cover: str | None) -> dict:
    """A view covered until the student predicts (predict mode): its labels, none of its numbers or colours."""
    if cover is None:
        return view
    blank = len(view["numbers"])
    return view | {"colour": [None] * blank, "text": [], "numbers": [""] * blank, "changed": [], "cover": cover}


def _comparable(previous, state) -> bool:
    """Whether the views before the last change are the same cells as now: the same tokens and sizes."""
    return previous is not None and (previous.labels, previous.d_v) == (state.labels, state.d_v)


def reach_of_scores(result) -> float:
    """The colour scale of both score views: the largest |raw score|, which no toggle changes."""
    finite = np.abs(result.scores)
    return float(finite.max()) if finite.size and finite.max() > 0 else 1.0


def scores_title(state) -> str:
    """View 2's title: what was done to the raw scores, and only that ("as they are" when nothing was)."""
    steps = (["÷ √d_k"] if state.scale else []) + (
        [f"÷ τ={format_number(state.temperature)}"] if state.temperature != 1 else []
    )
    masked = state.causal or bool(state.blocked_keys)
    if not steps:
        return "2. Scores, masked" if masked else "2. Scores as they are (no scaling, no mask)"
    return f"2. Scores QKᵀ {' '.join(steps)}" + (", masked" if masked else "")
