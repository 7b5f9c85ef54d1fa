"""Attention matrices as Apache ECharts heatmap options (plain dicts, drawn by ``st.echarts_chart``): Step by step's
panels and the Real model's heads. The Playground draws the same cells, colours and text with its own component
(attention_grid), on the same scales and with the same limits.

ECharts, not plotly, because a chart with a fixed key keeps its instance and takes a new option in place.

Every cell carries five values: [column, row, colour position, cell text, hover sentence]. Cell text is written here
in Python (one formatter, one minus sign, no "−0"); the colour position is the value on the chart's fixed scale.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnviz.core.numbers import format_fixed_numbers, format_numbers
from attnviz.figures.colours import BLUE_RED, CHANGED, FOCUS, MASKED_GREY, VIRIDIS, signed_log

TEXT_LIMIT = 24  # above this many rows or columns cell text is left out (hover stays): unreadable, and slow
PRESENTER_TEXT_LIMIT = 8  # presenter-sized numbers need wide cells
CHANGED_LIMIT = 256  # above TEXT_LIMIT, more changed cells than this are not boxed: a box on every other cell of a
# 128 × 128 view says nothing and costs the browser more than the view itself; the line under the views says it
_LABEL = {"color": "#111", "textBorderColor": "rgba(255,255,255,0.85)", "textBorderWidth": 2}


@dataclass(frozen=True)
class Scale:
    """How a matrix's values become colours: "weights" are 0 to 1 on Viridis; "signed" values are blue–red on a
    signed log scale that reaches full colour at ±reach."""

    kind: str  # "weights" or "signed"
    reach: float = 1.0

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
        """What a masked cell says: a weight of 0, a score of −∞ (a masked score has no colour to claim)."""
        return "0" if self.kind == "weights" else "−∞"


def text_fits(rows: int, cols: int, font_size: int) -> bool:
    """Whether the cells carry their numbers: up to TEXT_LIMIT rows and columns, fewer at presenter sizes."""
    return max(rows, cols) <= (TEXT_LIMIT if font_size <= 13 else PRESENTER_TEXT_LIMIT)


def hover_digits(with_text: bool) -> int:
    """Significant digits of a hover number (and decimals of a colour position). Above the text limit the hover is the
    only place a number shows: 3 digits there keep a 128 × 128 view's data about a tenth smaller."""
    return 4 if with_text else 3


def boxes_changes(changed: np.ndarray, with_text: bool) -> bool:
    """Whether the changed cells are boxed: always where cells carry text; above that, only up to CHANGED_LIMIT."""
    return bool(changed.any()) and (with_text or np.count_nonzero(changed) <= CHANGED_LIMIT)


def tick_font_size(rows: int, cols: int, font_size: int) -> int:
    """The row and column labels' size: the chart's, up to 14 px, or smaller above the text limit, where they thin out."""
    return min(font_size, 14) if max(rows, cols) <= TEXT_LIMIT else max(8, font_size - 3)


def key_tokens(col_labels: list[str]) -> list[str]:
    """Under each column only the key's token ("3: not" → "not"); the hover gives the whole label."""
    return [label.split(": ", 1)[-1] for label in col_labels]


def cell_labels(values: np.ndarray, scale: Scale) -> list[str]:
    """What each cell says, in reading order: weights to 2 decimals; other values to 2 decimals, or 3 significant
    digits from 100 up."""
    labels = format_fixed_numbers(values, decimals=2)
    if scale.kind != "weights":
        wide = np.flatnonzero(np.abs(values) >= 100)
        for at, text in zip(wide.tolist(), format_numbers(np.ravel(values)[wide], digits=3), strict=True):
            labels[at] = text
    return labels


def heatmap_option(
    matrix,
    row_labels: list[str],
    col_labels: list[str],
    *,
    title: str,
    scale: Scale,
    value_name: str,
    chart_name: str,
    blocked=None,
    focus_row: int | None = None,
    changed=None,
    font_size: int = 12,
) -> dict:
    """An ECharts heatmap of ``matrix`` (rows × cols), row 0 at the top.

    ``blocked`` cells are grey and say "−∞" (scores) or "0" (weights): a masked score has no colour to claim.
    ``focus_row`` is boxed in black, and ``changed`` cells (bool, same shape) are boxed in orange.
    """
    z = np.asarray(matrix, dtype=float)  # (rows, cols)
    rows, cols = z.shape
    blocked = np.zeros(z.shape, bool) if blocked is None else np.asarray(blocked, bool)
    show_text = text_fits(rows, cols, font_size)
    # Built column by column with numpy and the list formatters, not cell by cell: 128 tokens are 16,384 cells a view.
    shown = ~blocked
    at_rows, at_cols = np.nonzero(shown)  # reading order
    digits = hover_digits(show_text)
    colour = np.round(scale.positions(z[shown]), digits).tolist()
    values = format_numbers(z[shown], digits=digits)
    if show_text:  # [column, row, colour, cell text, hover sentence]
        arrow = [f"{label} → " for label in row_labels]
        texts = cell_labels(z[shown], scale)
        cells = [
            [j, i, position, text, f"{arrow[i]}{col_labels[j]}: {value_name} {number}"]
            for i, j, position, text, number in zip(
                at_rows.tolist(), at_cols.tolist(), colour, texts, values, strict=True
            )
        ]
        masked = [
            [j, i, 0.0, scale.masked_text, f"{arrow[i]}{col_labels[j]}: masked, score −∞, weight 0"]
            for i, j in np.argwhere(blocked).tolist()
        ]
        tooltip = "{@[4]}"
    else:  # too many cells for text: [column, row, colour, value]; the hover names positions (about 4× less to send)
        cells = [
            [j, i, position, number]
            for i, j, position, number in zip(at_rows.tolist(), at_cols.tolist(), colour, values, strict=True)
        ]
        masked = []  # not sent: masked cells show the grid's grey background (half of a causal view's cells)
        tooltip = f"position {{@[1]}} → {{@[0]}}: {value_name} {{@[3]}}"
    label = {"show": show_text, "formatter": "{@[3]}", "fontSize": font_size - 1 if cols <= 6 else 9}
    series = [
        {
            "type": "heatmap",
            "name": chart_name,
            "data": cells,
            "label": label | _LABEL,
            "selectedMode": "single",
            "progressive": 0,
        },
        {
            "type": "heatmap",
            "name": "masked",
            "data": masked,
            "itemStyle": {"color": MASKED_GREY},
            "progressive": 0,
            "label": label | {"color": "#555"},
        },
    ]
    if focus_row is not None and 0 <= focus_row < rows:
        row = [[j, focus_row] for j in range(cols)]  # black with a white core: seen on light and dark themes alike
        series += [
            _outline("focus", row, FOCUS, "solid", width=3),
            _outline("focus core", row, "#ffffff", "solid", width=1),
        ]
    changed = None if changed is None else np.asarray(changed, bool)
    if changed is not None and boxes_changes(changed, show_text):
        series.append(_outline("changed", np.argwhere(changed)[:, ::-1].tolist(), CHANGED, "dashed"))
    tick_font = tick_font_size(rows, cols, font_size)
    y_labels = [
        {"value": name, "textStyle": {"fontWeight": "bold"}} if i == focus_row else name
        for i, name in enumerate(row_labels)
    ]
    return {
        # No animation: ECharts redraws a heatmap's cells without a transition (Streamlit applies each new option with
        # notMerge), so animation would only delay the first draw. What changed is boxed in orange instead.
        "animation": False,
        # A screen reader (and a browser test) reads every cell, "the data for <key> is x, y, colour, text, hover".
        "aria": {
            "enabled": True,
            "label": {"data": {"maxCount": min(rows * cols, 600), "separator": {"middle": "; ", "end": "."}}},
        },
        "title": {"text": title, "left": 0, "textStyle": {"fontSize": font_size + 1}},
        "tooltip": {"formatter": tooltip},
        "toolbox": {"feature": {"saveAsImage": {"name": f"attnviz-{chart_name}", "pixelRatio": 2, "title": "PNG"}}},
        "grid": {"left": 4, "right": 8, "top": 30, "bottom": 4, "containLabel": True}
        | ({} if show_text or not blocked.any() else {"show": True, "backgroundColor": MASKED_GREY, "borderWidth": 0}),
        "xAxis": {
            "type": "category",
            "data": key_tokens(col_labels),
            "axisLabel": {"rotate": 60 if cols > 4 else 0, "fontSize": tick_font - 1, "hideOverlap": True},
            "axisTick": {"show": False},
        },
        "yAxis": {
            "type": "category",
            "data": y_labels,
            "inverse": True,
            "axisLabel": {"fontSize": tick_font, "hideOverlap": True},
            "axisTick": {"show": False},
        },
        "visualMap": {
            "show": False,
            "dimension": 2,
            "seriesIndex": 0,
            "min": scale.range[0],
            "max": scale.range[1],
            "inRange": {"color": scale.colours},
        },
        "series": series,
    }


def _outline(name: str, cells: list[list[int]], colour: str, line: str, *, width: int = 2) -> dict:
    """Boxes drawn over cells: a transparent heatmap whose only ink is each cell's border."""
    return {
        "type": "heatmap",
        "name": name,
        "data": [[x, y, 0] for x, y in cells],
        "silent": True,
        "z": 3,
        "itemStyle": {"color": "rgba(0,0,0,0)", "borderColor": colour, "borderWidth": width, "borderType": line},
        "label": {"show": False},
        "progressive": 0,
    }
