"""Plotly figures for matrices and rows. Pure: they take numbers and labels, and return go.Figure objects."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.colors import get_colorscale

TEXT_LIMIT = 24  # above this many rows or columns, cell text is dropped (hover stays): it is slow and unreadable
# Spelled out as lists: figures skip plotly.py's validation, which is what turns a name like "RdBu_r" into colours.
WEIGHTS_SCALE = get_colorscale("Viridis")  # sequential and colour-blind safe
DIVERGING_SCALE = get_colorscale("RdBu_r")  # blue negative, red positive; safe for common colour-vision deficiencies
MASKED_GREY = "rgba(128,128,128,0.35)"

_KINDS = {
    # kind: (colour scale, value name in the hover, fixed range or None for a range centred on 0)
    "weights": (WEIGHTS_SCALE, "weight", (0.0, 1.0)),
    "scores": (DIVERGING_SCALE, "score", None),
    "values": (DIVERGING_SCALE, "value", None),
}


def _symmetric_range(values: np.ndarray) -> tuple[float, float]:
    finite = values[np.isfinite(values)]
    reach = float(np.abs(finite).max()) if finite.size else 1.0
    reach = reach or 1.0  # an all-zero matrix still needs a non-empty colour range
    return -reach, reach


def _cell_text(z: np.ndarray, kind: str, blocked) -> np.ndarray:
    """What each cell says: weights to 2 decimals; other values to 2 decimals, or whole from 100 up, so they fit.
    A masked cell says "−∞" in a score matrix and "0.00" in a weight matrix: its score is −∞, so its weight is 0."""

    def say(value: float) -> str:
        text = f"{value:.2f}" if kind == "weights" or abs(value) < 100 else f"{value:.0f}"
        return text.replace("-", "−")

    text = np.array([[say(value) for value in row] for row in z], dtype=object)  # (rows, cols)
    if blocked is not None:
        text[blocked] = "0.00" if kind == "weights" else "−∞"
    return text


def matrix_heatmap(
    matrix,
    row_labels: list[str],
    col_labels: list[str],
    *,
    kind: str,
    title: str,
    blocked=None,
    x_title: str = "key",
    y_title: str = "query",
    show_text: bool | None = None,
    height: int | None = None,
    font_size: int = 13,
    column_groups: int = 1,
) -> go.Figure:
    """A heatmap of ``matrix`` (rows × cols) read like a matrix: row 0 at the top.

    ``blocked`` (bool, same shape) marks masked cells: they are drawn grey instead of a colour, because a colour
    would claim a value they do not have, and say "−∞" (a score) or "0.00" (a weight).
    ``column_groups`` > 1 draws a line between that many equal groups of columns (the heads of a concatenation).
    """
    z = np.array(matrix, dtype=float)  # (rows, cols)
    rows, cols = z.shape
    scale, value_name, fixed = _KINDS[kind]
    if blocked is not None:
        blocked = np.asarray(blocked, dtype=bool)
        z = np.where(blocked, np.nan, z)  # JSON has no -inf; masked cells are drawn by their own trace
    zmin, zmax = fixed or _symmetric_range(z)
    if show_text is None:
        show_text = max(rows, cols) <= TEXT_LIMIT
    cell_font = font_size if cols <= 8 else max(8, font_size - (2 if cols <= 12 else 4))  # numbers must fit their cells
    gap = 1 if show_text else 0
    traces = [
        {
            "type": "heatmap",
            "z": z,
            "x": col_labels,
            "y": row_labels,
            "zmin": zmin,
            "zmax": zmax,
            "colorscale": scale,
            "colorbar": {"thickness": 12, "len": 0.9},
            "text": _cell_text(z, kind, blocked) if show_text else None,
            "texttemplate": "%{text}" if show_text else None,
            "textfont": {"size": cell_font},
            "hovertemplate": f"%{{y}} → %{{x}}: {value_name} %{{z:.4g}}<extra></extra>",
            "hoverongaps": False,
            "xgap": gap,
            "ygap": gap,
            "name": title,
        }
    ]
    if blocked is not None and blocked.any():
        traces.append(
            {
                "type": "heatmap",
                "z": np.where(blocked, 1.0, np.nan),
                "x": col_labels,
                "y": row_labels,
                "colorscale": [[0, MASKED_GREY], [1, MASKED_GREY]],
                "showscale": False,
                "hovertemplate": "%{y} → %{x}: masked (−∞), weight 0<extra></extra>",
                "hoverongaps": False,
                "xgap": gap,
                "ygap": gap,
                "name": "masked",
            }
        )
    per_row = (34 if show_text else 9) * font_size / 13  # bigger text needs bigger cells
    tick_font = {"size": font_size if max(rows, cols) <= TEXT_LIMIT else max(8, font_size - 4)}
    layout = {
        "title": {"text": title, "x": 0, "xanchor": "left", "font": {"size": font_size + 3}},
        "height": height or int(np.clip(120 + per_row * rows, 260, 720)),
        "margin": {"l": 10, "r": 10, "t": 50, "b": 10},
        "font": {"size": font_size},
        "xaxis": {
            "title": {"text": x_title},
            "type": "category",
            "tickfont": tick_font,
            "side": "bottom",
            "tickangle": -45,
        },
        "yaxis": {"title": {"text": y_title}, "type": "category", "tickfont": tick_font, "autorange": "reversed"},
        "shapes": _dividers(cols, column_groups),
    }
    return _figure(traces, layout)


def _dividers(cols: int, groups: int) -> list[dict]:
    """Lines between ``groups`` equal groups of columns, all in the layout at once: adding them one by one with
    ``Figure.add_vline`` validates and copies every shape so far, 150 ms for the 31 lines of 32 heads."""
    width = cols // groups if groups > 1 else cols
    line = {"type": "line", "xref": "x", "yref": "paper", "y0": 0, "y1": 1, "line": {"color": "black", "width": 2}}
    return [line | {"x0": g * width - 0.5, "x1": g * width - 0.5} for g in range(1, groups)]


def _figure(traces: list[dict], layout: dict) -> go.Figure:
    """A figure from plain dicts without plotly's per-property validation, which cost ~8 ms of every ~9 ms build.

    The dicts here are fixed by this module and checked by its tests and by the browser tests that draw them.
    """
    return go.Figure({"data": traces, "layout": layout}, _validate=False)


def weights_bar(weights_row, key_labels: list[str], *, title: str, blocked_row=None, font_size: int = 13) -> go.Figure:
    """One query's weights over every key, as bars (0 to 1)."""
    weights_row = np.asarray(weights_row, dtype=float)  # (n_k,)
    blocked_row = np.zeros(len(weights_row), bool) if blocked_row is None else np.asarray(blocked_row, bool)
    text = ["masked" if b else f"{w:.2f}" for w, b in zip(weights_row, blocked_row, strict=True)]
    bars = {
        "type": "bar",
        "x": key_labels,
        "y": weights_row,
        "text": text if len(weights_row) <= TEXT_LIMIT else None,
        "textposition": "outside",
        "marker": {"color": weights_row, "colorscale": WEIGHTS_SCALE, "cmin": 0, "cmax": 1},
        "hovertemplate": "→ %{x}: weight %{y:.4f}<extra></extra>",
    }
    layout = {
        "title": {"text": title, "x": 0, "xanchor": "left", "font": {"size": font_size + 3}},
        "height": 320,
        "margin": {"l": 10, "r": 10, "t": 50, "b": 10},
        "font": {"size": font_size},
        "yaxis": {"range": [0, 1.12], "title": {"text": "weight"}},
        "xaxis": {"type": "category", "title": {"text": "key"}, "tickangle": -45},
    }
    return _figure([bars], layout)
