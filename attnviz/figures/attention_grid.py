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

import numpy as np

from attnviz.core.numbers import format_number, format_numbers
from attnviz.figures.attention_charts import (
    Scale,
    boxes_changes,
    cell_labels,
    hover_digits,
    key_tokens,
    text_fits,
    tick_font_size,
)


def grid_view(
    matrix,
    row_labels: list[str],
    col_labels: list[str],
    *,
    name: str,
    title: str,
    scale: Scale,
    value_name: str,
    blocked=None,
    focus_row: int | None = None,
    before=None,
    font_size: int = 13,
) -> dict:
    """One view of ``matrix`` (rows × cols), row 0 at the top.

    ``blocked`` cells are masked: grey, saying "−∞" (scores) or "0" (weights), since a masked score has no colour to
    claim. ``before`` is (matrix, blocked) before the last change: a cell whose shown value moved is changed, and
    boxed in orange where ``boxes_changes`` allows.
    """
    z = np.asarray(matrix, dtype=float)  # (rows, cols)
    rows, cols = z.shape
    blocked = np.zeros(z.shape, bool) if blocked is None else np.asarray(blocked, bool)
    show_text = text_fits(rows, cols, font_size)
    digits = hover_digits(show_text)
    shown = z[~blocked]
    colour = np.full(z.shape, np.nan)
    colour[~blocked] = np.round(scale.positions(shown), digits)
    numbers = np.full(z.shape, "", dtype=object)
    numbers[~blocked] = format_numbers(shown, digits=digits)
    text = np.full(z.shape, scale.masked_text, dtype=object)
    text[~blocked] = cell_labels(shown, scale) if show_text else ""
    changed = _changed(before, z, blocked, scale, show_text)
    # Every cell changed: the line under the views says so, and a box on each cell would hide the colours.
    boxed = np.flatnonzero(changed).tolist() if boxes_changes(changed, show_text) and not changed.all() else []
    return {
        "name": name,  # the PNG's name: attnviz-<name>.png
        "title": title,
        "rows": list(row_labels),  # hover: "4: good → 3: not"
        "ticks": key_tokens(col_labels),
        "cols": list(col_labels),
        "tick_font": tick_font_size(rows, cols, font_size),  # px, for the row and column labels
        "focus": focus_row if focus_row is not None and 0 <= focus_row < rows else None,
        "palette": scale.colours,
        "range": list(scale.range),
        "value_name": value_name,
        "colour": [None if np.isnan(p) else p for p in colour.ravel().tolist()],
        "text": text.ravel().tolist() if show_text else [],
        "numbers": numbers.ravel().tolist(),
        "changed": boxed,
        "changed_count": int(changed.sum()),  # for the line under the views, which says what the boxes show
    }


def shown_values(matrix, blocked, scale: Scale, show_text: bool) -> np.ndarray:
    """What each cell says to a reader (its text, or its hover number above the text limit; masked cells their
    mask text): the one thing a change is judged by, so a box never marks a cell whose shown value stayed."""
    z = np.asarray(matrix, dtype=float)
    blocked = np.asarray(blocked, bool)
    said = np.full(z.shape, scale.masked_text, dtype=object)
    said[~blocked] = (
        cell_labels(z[~blocked], scale) if show_text else format_numbers(z[~blocked], digits=hover_digits(False))
    )
    return said


def _changed(before, after: np.ndarray, blocked: np.ndarray, scale: Scale, show_text: bool) -> np.ndarray:
    """The cells whose shown value differs from ``before`` ((matrix, blocked or None) or None: nothing to compare)."""
    if before is None or np.shape(before[0]) != after.shape:
        return np.zeros(after.shape, bool)
    old, old_blocked = before
    old_blocked = np.zeros(after.shape, bool) if old_blocked is None else old_blocked
    return shown_values(old, old_blocked, scale, show_text) != shown_values(after, blocked, scale, show_text)


def playground_views(state, previous=None, *, font_size: int = 13) -> list[dict]:
    """Raw scores, scaled and masked scores, weights and outputs of a PlaygroundState, in reading order.

    Raw and scaled scores share one colour scale fixed by the largest raw score, so toggling the scaling or the
    temperature changes the colours only as much as it changes the numbers. Cells that differ from ``previous``
    (the state before the last change) are boxed in orange, unless every cell changed (the line under the views says
    so instead).
    """
    result, labels = state.result(), state.labels
    old = previous.result() if _comparable(previous, state) else None
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
    return [
        grid_view(
            getattr(result, drawn),
            labels,
            columns,
            name=name,
            title=title,
            scale=scale,
            value_name=value_name,
            blocked=_masked(result, masked),
            focus_row=state.focus,
            before=None if old is None else (getattr(old, drawn), _masked(old, masked)),
            font_size=font_size,
        )
        for name, title, drawn, scale, value_name, masked, columns in views
    ]


def _comparable(previous, state) -> bool:
    """Whether the views before the last change are the same cells as now: the same tokens and sizes."""
    return previous is not None and (previous.labels, previous.d_v) == (state.labels, state.d_v)


def _masked(result, masked_view: bool):
    return result.blocked if masked_view else None


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
