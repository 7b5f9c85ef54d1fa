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
    changed=None,
    font_size: int = 13,
) -> dict:
    """One view of ``matrix`` (rows × cols), row 0 at the top.

    ``blocked`` cells are masked: grey, saying "−∞" (scores) or "0" (weights), since a masked score has no colour to
    claim. ``changed`` (bool, same shape) marks the cells to box in orange.
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
    changed = np.zeros(z.shape, bool) if changed is None else np.asarray(changed, bool)
    boxed = np.flatnonzero(changed).tolist() if boxes_changes(changed, show_text) else []
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
    }


def playground_views(state, previous=None, *, font_size: int = 13) -> list[dict]:
    """Raw scores, scaled and masked scores, weights and outputs of a PlaygroundState, in reading order.

    Raw and scaled scores share one colour scale fixed by the largest raw score, so toggling the scaling or the
    temperature changes the colours only as much as it changes the numbers. Cells that differ from ``previous``
    (the state before the last change) are boxed in orange, unless every cell changed (the line under the views says
    so instead).
    """
    result, labels = state.result(), state.labels
    old = previous.result() if previous is not None and previous.labels == labels else None
    score_scale = Scale("signed", reach_of_scores(result))
    V = state.matrices()[2]
    dims = [f"d{j + 1}" for j in range(state.d_v)]
    views = (
        # name, title, what the cells show, what "changed" compares, scale, value name, masked cells, columns
        ("scores", "1. Raw scores QKᵀ", result.scores, "scores", score_scale, "score", None, labels),
        (
            "scaled",
            f"2. Scaled and masked scores: QKᵀ{_divisor_text(state)}",
            result.scaled,
            "masked",
            score_scale,
            "score",
            result.blocked,
            labels,
        ),
        (
            "weights",
            "3. Weights: softmax of each row",
            result.weights,
            "weights",
            Scale("weights"),
            "weight",
            result.blocked,
            labels,
        ),
        (
            "output",
            "4. Output: weights · V",
            result.output,
            "output",
            Scale("signed", float(np.abs(V).max() or 1.0)),
            "value",
            None,
            dims,
        ),
    )
    return [
        grid_view(
            matrix,
            labels,
            columns,
            name=name,
            title=title,
            scale=scale,
            value_name=value_name,
            blocked=blocked,
            focus_row=state.focus,
            changed=_changed(getattr(old, compared), getattr(result, compared)) if old is not None else None,
            font_size=font_size,
        )
        for name, title, matrix, compared, scale, value_name, blocked, columns in views
    ]


def _changed(before: np.ndarray, after: np.ndarray) -> np.ndarray | None:
    """The cells that differ (−∞ and −∞ are equal); None when the shapes differ, nothing changed or everything did."""
    if before.shape != after.shape:
        return None
    changed = ~np.isclose(before, after, rtol=1e-9, atol=1e-12, equal_nan=True) & ~(np.isinf(before) & np.isinf(after))
    return changed if changed.any() and not changed.all() else None


def reach_of_scores(result) -> float:
    """The colour scale of both score views: the largest |raw score|, which no toggle changes."""
    finite = np.abs(result.scores)
    return float(finite.max()) if finite.size and finite.max() > 0 else 1.0


def _divisor_text(state) -> str:
    parts = (["√d_k"] if state.scale else []) + (
        [f"τ={format_number(state.temperature)}"] if state.temperature != 1 else []
    )
    return " ÷ " + " ÷ ".join(parts) if parts else ""
