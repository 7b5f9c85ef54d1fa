"""Watch it learn's two charts as Apache ECharts options: the training curves, and [CLS]'s rows of attention weights.

ECharts, as on the Playground: a chart with a fixed key takes each new option in place, so the curves grow and the
bars move twice a second while a run trains, without the chart being re-created.
"""

from __future__ import annotations

from attnviz.core.numbers import format_fixed_numbers
from attnviz.figures.colours import BLUE, ORANGE, SKY, VERMILION
from attnviz.train.run import ClassRows

CURVES = (  # history field, legend name, colour, y axis (0: loss, 1: accuracy)
    ("loss", "loss (left axis)", VERMILION, 0),
    ("accuracy", "accuracy", SKY, 1),
    ("balanced_accuracy", "balanced accuracy", BLUE, 1),
)


def aria_data(items: int) -> dict:
    """A screen reader (and a browser test) reads every point: "the data for <series> is x; y; …"."""
    return {"enabled": True, "label": {"data": {"maxCount": items, "separator": {"middle": "; ", "end": "."}}}}


def chart_title(text: str, font_size: int) -> dict:
    return {"text": text, "left": 0, "textStyle": {"fontSize": font_size + 1}}


def step_axis(total_steps: int, font_size: int) -> dict:
    """The training step from 0 to the run's last, whatever has been trained so far: the curves grow left to right."""
    axis_font = {"fontSize": font_size - 1}
    return {
        "type": "value",
        "min": 0,
        "max": total_steps,
        "name": "training step",
        "nameLocation": "middle",
        "nameGap": font_size + 9,
        "nameTextStyle": axis_font,
        "axisLabel": axis_font,
    }


def curves_option(history, total_steps: int, *, at_step: int | None = None, font_size: int = 13) -> dict:
    """Loss (left axis, logarithmic: it keeps falling long after the answers are right) and accuracy and balanced
    accuracy (right axis, 0 to 1) of the training batches, against the step. The step axis always spans the whole
    run, so the curves grow from left to right. ``at_step`` draws a vertical line there (the snapshot chosen after
    training)."""
    series = []
    for field, name, colour, axis in CURVES:
        series.append(
            {
                "type": "line",
                "name": name,
                "yAxisIndex": axis,
                "data": [[entry["step"], round(float(entry[field]), 4)] for entry in history],
                "showSymbol": False,
                "lineStyle": {"width": 2, "type": "dashed" if field == "accuracy" else "solid"},
                "itemStyle": {"color": colour},
            }
        )
    if at_step is not None:
        series[0]["markLine"] = {
            "silent": True,
            "symbol": "none",
            "label": {"formatter": f"step {at_step:,}", "position": "insideEndTop"},
            "lineStyle": {"color": ORANGE, "width": 2, "type": "solid"},
            "data": [{"xAxis": at_step}],
        }
    axis_font = {"fontSize": font_size - 1}
    return {
        "animation": False,
        "aria": aria_data(3 * max(len(history), 1)),
        "title": chart_title("Training loss and accuracy", font_size),
        "tooltip": {"trigger": "axis"},
        "legend": {"top": font_size + 11, "left": 0, "itemGap": 14, "textStyle": axis_font},
        "grid": {"left": 4, "right": 8, "top": 2 * font_size + 30, "bottom": font_size + 9, "containLabel": True},
        "xAxis": step_axis(total_steps, font_size),
        "yAxis": [
            {"type": "log", "axisLabel": axis_font | {"color": VERMILION}, "splitLine": {"show": False}},
            {"type": "value", "min": 0, "max": 1, "axisLabel": axis_font},
        ],
        "series": series,
    }


def cls_rows_option(rows: ClassRows, target_position: int, labels, *, title: str, font_size: int = 13) -> dict:
    """[CLS]'s attention weights on every position (a row of the attention matrix), as bars from 0 to 1: one series for
    the positive samples and one for the negatives, side by side, and a dashed line at 1/n (labelled at its right
    end), where every bar stands when [CLS] has no preference. The target position's label says so."""
    n = len(rows.positive)
    series = []
    for weights, count, name, colour in (
        (rows.positive, rows.positives, "positive", ORANGE),
        (rows.negative, rows.negatives, "negative", BLUE),
    ):
        texts = format_fixed_numbers(weights, decimals=2)
        series.append(
            {
                "type": "bar",
                "name": f"{name} samples ({count:,})",
                "data": [[j, round(float(w), 4), text] for j, (w, text) in enumerate(zip(weights, texts, strict=True))],
                "encode": {"x": 0, "y": 1},
                "itemStyle": {"color": colour},
                # Upright numbers above 14 narrow bars would run into each other: each reads up its own bar.
                "label": {
                    "show": True,
                    "position": "top",
                    "rotate": 90,
                    "align": "left",
                    "verticalAlign": "middle",
                    "formatter": "{@[2]}",
                    "fontSize": font_size - 2,
                },
            }
        )
    series[0]["markLine"] = {
        "silent": True,
        "symbol": "none",
        "label": {"formatter": f"1/{n}", "position": "end", "fontSize": font_size - 2},
        "lineStyle": {"color": "#888", "type": "dashed"},
        "data": [{"yAxis": round(1 / n, 4)}],
    }
    axis_labels = [f"{label}\n(target)" if j == target_position else label for j, label in enumerate(labels)]
    return {
        "animation": True,  # the bars glide to their new heights as training moves them
        "animationDuration": 0,
        "animationDurationUpdate": 300,
        "aria": aria_data(2 * n),
        "title": chart_title(title, font_size),
        "tooltip": {"trigger": "axis"},
        "legend": {"top": font_size + 11, "left": 0, "itemGap": 14, "textStyle": {"fontSize": font_size - 1}},
        "grid": {"left": 4, "right": 2 * font_size + 6, "top": 2 * font_size + 34, "bottom": 4, "containLabel": True},
        "xAxis": {
            "type": "category",
            "data": axis_labels,
            "axisLabel": {"fontSize": font_size - 1, "interval": 0},
            "axisTick": {"show": False},
        },
        "yAxis": {"type": "value", "min": 0, "max": 1, "axisLabel": {"fontSize": font_size - 1}},
        "series": series,
    }
