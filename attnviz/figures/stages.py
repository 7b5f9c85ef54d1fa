"""Step by step's pictures: a stage's panels side by side as ECharts heatmaps, drawn like the Playground's views.

Same cells and colours as the Playground (attention_charts.heatmap_option): scores blue–red on one signed-log scale
fixed by the largest |raw score|, weights 0 to 1, masked cells grey ("−∞" as a score, "0" as a weight). On top: the
cells a stage changed, outlined in orange as one series, and the cells the chosen formula reads, boxed.

ECharts, not plotly: a chart with a fixed key keeps its instance, so Back, Next or another chosen cell repaint the
cells in place instead of re-creating every chart.
"""

from __future__ import annotations

import numpy as np

from attnviz.core.numbers import format_number
from attnviz.figures.attention_charts import Scale, heatmap_option
from attnviz.figures.colours import FOCUS, reach_of
from attnviz.lessons.stages import Panel, Stage

OUTLINE_MIN_PX = 14  # a narrower cell is too small for an outline: a dense mask would turn the picture orange
CHART_AREA_PX = 860  # the width the panels share on a 1280-px screen, beside the control rail
LABEL_COLUMNS = 2  # the width units the first panel's row labels take
NUMBER_WIDTH, MASKED_WIDTH = 3.3, 1.8  # how many font sizes wide a cell must be for "−0.37", and for "−∞"
_VALUE_NAME = {"scores": "score", "weights": "weight", "values": "value"}
# The chosen cells: a box that stands out from the panel's darkest colours (dark purple on weights, dark blue on
# scores and values).
_CHOSEN = {"weights": {"borderColor": "#ffffff", "borderWidth": 3}, "other": {"borderColor": FOCUS, "borderWidth": 3}}


def scale_of(panel: Panel) -> Scale:
    return Scale("weights") if panel.kind == "weights" else Scale("signed", reach_of(panel.reach_of))


def outlined(panel: Panel, cell_px: float) -> np.ndarray | None:
    """The changed cells worth outlining: only when some changed (all or none is said in words), and only while a
    cell is big enough for an outline to be seen."""
    return panel.changed if _partly_changed(panel) and cell_px >= OUTLINE_MIN_PX else None


def _partly_changed(panel: Panel) -> bool:
    return panel.changed is not None and bool(panel.changed.any()) and not panel.changed.all()


def picked_cells(panel: Panel, query: int, column: int) -> list[tuple[int, int]]:
    """The (row, col) cells of ``panel`` that the formula for (query, column) of the stage's result reads."""
    rows, cols = panel.matrix.shape
    match panel.picks:
        case "cell":
            return [(query, column)]
        case "row":
            return [(query, c) for c in range(cols)]
        case "key_row":  # K's row j: the key of the chosen column
            return [(column, c) for c in range(cols)]
        case "column":
            return [(r, column) for r in range(rows)]
    return []


def panel_widths(stage: Stage) -> list[int]:
    """Width units of the panels side by side: by number of columns (a square score matrix gets more room than a
    narrow Q), within 3 to 12, and the first also holds the row labels the panels share."""
    return [min(max(p.matrix.shape[1], 3), 12) + (LABEL_COLUMNS if k == 0 else 0) for k, p in enumerate(stage.panels)]


def cell_widths(stage: Stage) -> list[float]:
    """About how many pixels wide each panel's cells are on a 1280-px screen."""
    widths = panel_widths(stage)
    return [
        CHART_AREA_PX * (width - (LABEL_COLUMNS if k == 0 else 0)) / sum(widths) / panel.matrix.shape[1]
        for k, (panel, width) in enumerate(zip(stage.panels, widths, strict=True))
    ]


def numbers_fit(stage: Stage, font_size: int) -> list[bool]:
    """Whether each panel's cells are wide enough for a number like "−0.37" at the label size heatmap_option uses."""
    return [cell_px >= NUMBER_WIDTH * _label_px(font_size) for cell_px in cell_widths(stage)]


def _label_px(font_size: int) -> int:
    return max(8, font_size - 3)


def stage_options(stage: Stage, chosen: tuple[int, int] | None = None, *, font_size: int = 12) -> list[dict]:
    """The ECharts option of each panel of ``stage``; ``chosen`` (query, column) boxes the cells its formula reads."""
    options = []
    for k, (panel, cell_px) in enumerate(zip(stage.panels, cell_widths(stage), strict=True)):
        option = heatmap_option(
            panel.matrix,
            panel.row_labels,
            panel.col_labels,
            title=panel.title,
            scale=scale_of(panel),
            value_name=_VALUE_NAME[panel.kind],
            chart_name=f"{stage.key}-{k}",
            blocked=panel.blocked,
            changed=outlined(panel, cell_px),
            font_size=font_size,
        )
        option["yAxis"]["axisLabel"]["show"] = k == 0  # the panels share their rows: one set of labels
        cells, masked = option["series"][:2]
        cells["label"]["show"] &= cell_px >= NUMBER_WIDTH * _label_px(font_size)
        masked["label"]["show"] &= cell_px >= MASKED_WIDTH * _label_px(font_size)  # "−∞" fits where "−0.37" may not
        if chosen is not None:
            _box(option, set(picked_cells(panel, *chosen)), _CHOSEN.get(panel.kind, _CHOSEN["other"]))
        options.append(option)
    return options


def _box(option: dict, cells: set[tuple[int, int]], style: dict) -> None:
    """Gives the chosen cells a border of their own (an item style on the cell itself, so nothing is drawn twice)."""
    for series in option["series"][:2]:  # the coloured cells and the masked ones
        series["data"] = [
            {"value": item, "itemStyle": style} if (item[1], item[0]) in cells else item for item in series["data"]
        ]


def stage_notes(stage: Stage, font_size: int) -> str:
    """How to read the colours of this stage's pictures, and what is left out at this size."""
    notes = []
    scores = [p for p in stage.panels if p.kind == "scores"]
    if scores:
        reach = format_number(reach_of(scores[0].reach_of))
        notes.append(
            f"Scores: blue below 0, red above, one scale for every score picture (full colour at ±{reach}, the largest "
            "raw score; log-compressed, so one big score does not wash out the rest)."
        )
    if any(p.kind == "weights" for p in stage.panels):
        notes.append("Weights: 0 (dark) to 1 (yellow).")
    partly = [(p, px) for p, px in zip(stage.panels, cell_widths(stage), strict=True) if _partly_changed(p)]
    if any(outlined(p, px) is not None for p, px in partly):
        notes.append("Outlined in orange: the cells this stage changed.")
    elif partly:
        notes.append("The cells are too small to outline: the changed ones are the grey, masked cells.")
    if not all(numbers_fit(stage, font_size)):
        notes.append("Numbers that do not fit their cells are left out: hover a cell to read it.")
    return " ".join(notes)
