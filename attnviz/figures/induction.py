"""The induction experiment's two charts as Apache ECharts options, on one step axis: the loss of each half, and
every head's prefix-matching score, with the step where the score first passed the mark drawn on both."""

from __future__ import annotations

from attnviz.figures.colours import BLUE, ORANGE, SKY, VERMILION
from attnviz.figures.training import aria_data, chart_title, step_axis

HEAD_COLOURS = (BLUE, VERMILION, SKY, ORANGE, "#009E73", "#CC79A7", "#000000", "#E69F00")  # Okabe–Ito


def _phase_line(phase_step: int | None) -> dict:
    if phase_step is None:
        return {}
    return {
        "markLine": {
            "silent": True,
            "symbol": "none",
            "label": {"formatter": f"phase change, step {phase_step:,}", "position": "insideEndTop"},
            "lineStyle": {"color": "#555", "width": 2, "type": "solid"},
            "data": [{"xAxis": phase_step}],
        }
    }


def _chart(title: str, total_steps: int, series: list, y_axis: dict, items: int, font_size: int) -> dict:
    axis_font = {"fontSize": font_size - 1}
    return {
        "animation": False,
        "aria": aria_data(max(items, 1)),
        "title": chart_title(title, font_size),
        "tooltip": {"trigger": "axis"},
        "legend": {"top": font_size + 11, "left": 0, "itemGap": 14, "textStyle": axis_font},
        "grid": {
            "left": 4,
            "right": 2 * font_size,
            "top": 2 * font_size + 30,
            "bottom": font_size + 9,
            "containLabel": True,
        },
        "xAxis": step_axis(total_steps, font_size),
        "yAxis": y_axis | {"axisLabel": axis_font},
        "series": series,
    }


def _line(name: str, points: list, colour: str, dashed: bool = False) -> dict:
    return {
        "type": "line",
        "name": name,
        "data": points,
        "showSymbol": False,
        "lineStyle": {"width": 2, "type": "dashed" if dashed else "solid"},
        "itemStyle": {"color": colour},
    }


def losses_option(history, total_steps: int, phase_step: int | None, *, font_size: int = 13) -> dict:
    """The mean next-token loss on the repeated half (which can be copied) and on the first half (which cannot)."""
    series = [
        _line(name, [[e["step"], round(float(e[field]), 4)] for e in history], colour, dashed)
        for field, name, colour, dashed in (
            ("repeated_half_loss", "repeated half", VERMILION, False),
            ("first_half_loss", "first half", BLUE, True),
        )
    ]
    series[0] |= _phase_line(phase_step)
    y_axis = {"type": "value", "min": 0}
    return _chart("Loss on each half", total_steps, series, y_axis, 2 * len(history), font_size)


def prefix_scores_option(
    history, total_steps: int, phase_step: int | None, mark: float, *, font_size: int = 13
) -> dict:
    """Each head's prefix-matching score (0 to 1) over training, the last layer's solid, the first's dashed, with a
    dashed line at ``mark``."""
    if not history:
        return _chart(
            "Prefix-matching score of each head", total_steps, [], {"type": "value", "min": 0, "max": 1}, 1, font_size
        )
    layers, heads = history[0]["prefix"].shape
    series = []
    for layer in range(layers):
        for head in range(heads):
            points = [[e["step"], round(float(e["prefix"][layer, head]), 4)] for e in history]
            colour = HEAD_COLOURS[(layer * heads + head) % len(HEAD_COLOURS)]
            series.append(_line(f"layer {layer + 1}, head {head + 1}", points, colour, dashed=layer < layers - 1))
    series[-1] |= _phase_line(phase_step)
    series[-1].setdefault("markLine", {"silent": True, "symbol": "none", "data": []})
    series[-1]["markLine"]["data"] = [
        *series[-1]["markLine"]["data"],
        {"yAxis": mark, "label": {"formatter": f"{mark}"}},
    ]
    y_axis = {"type": "value", "min": 0, "max": 1}
    return _chart(
        "Prefix-matching score of each head", total_steps, series, y_axis, len(series) * len(history), font_size
    )
