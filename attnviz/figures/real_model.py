"""The Real model page's charts: the layers × heads overview, one head up close, its line view (ECharts options), and
the next-token probabilities (plotly).

Colours keep their meaning from the Playground: weights 0 to 1 on Viridis, masked cells grey.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from attnviz.figures.attention_charts import Scale, heatmap_option
from attnviz.figures.colours import BLUE, FOCUS, ORANGE, VIRIDIS
from attnviz.figures.layout import finish
from attnviz.lessons.real_model import PATTERNS, head_name, hover_sentence, pooled, visible_token

MAX_OVERVIEW_HEIGHT = 380
MIN_LINE_WEIGHT = 0.01  # lines fainter than this are not drawn (1% opacity is invisible, and 128² lines are heavy)


# ----------------------------------------------------------------------------- the overview


@dataclass(frozen=True)
class HeadMaps:
    """Every head of a run as a small map: the heavy part of the overview, the same whichever head is chosen, so a
    page can keep it while a student picks heads (``overview`` adds the frame and the axes)."""

    series: list[dict]  # one heatmap series a head, in ``heads`` order
    heads: list[tuple[int, int]]  # (layer, head) of each series
    shape: tuple[int, int]  # (layers, heads)
    side: int  # cells along each side of a small map
    layers_across: bool  # True: layers run left to right and heads top to bottom; False: the other way round


@dataclass(frozen=True)
class Overview:
    option: dict
    heads: list[tuple[int, int]]  # (layer, head) of each series, in series order: a click's series → its head
    side: int  # cells along each side of a small map
    layers_across: bool
    height: int  # pixels: about square cells in a chart some 850 px wide, at most MAX_OVERVIEW_HEIGHT

    def head_at(self, series: int) -> dict[str, int]:
        """The layer and head of the map a click landed on."""
        layer, head = self.heads[series]
        return {"layer": layer, "head": head}


def head_maps(attention, labels, *, side: int) -> HeadMaps:
    """Every head of ``attention`` (layers, heads, n, n) pooled to a ``side`` × ``side`` map, one series a head, named
    by its measured label (``labels`` (layers, heads): HeadStatistics.labels).

    The longer of layers and heads runs across, so 30 × 9 and 6 × 12 both fit a laptop screen."""
    n_layers, n_heads = attention.shape[:2]
    maps = np.round(pooled(attention, side), 3)  # (layers, heads, side, side)
    layers_across = n_layers >= n_heads
    block = side + 1  # a map and the empty cell before it; the chosen map's empty cells around it make its frame
    rows, cols = np.indices((side, side))  # (side, side) each: query group, key group
    series, heads = [], []
    for layer in range(n_layers):
        for head in range(n_heads):
            x, y = _corner((layer, head), block, layers_across)
            cells = np.stack([(x + cols).ravel(), (y + rows).ravel()], axis=1).tolist()  # (side², 2) as int lists
            for cell, share in zip(cells, maps[layer, head].ravel().tolist(), strict=True):
                cell.append(share)
            series.append(
                {
                    "type": "heatmap",
                    "name": f"{head_name(layer, head)}: {PATTERNS[str(labels[layer, head])]}",
                    "data": cells,
                    "selectedMode": "single",
                    "progressive": 0,
                    "emphasis": {"disabled": True},
                }
            )
            heads.append((layer, head))
    return HeadMaps(series, heads, (n_layers, n_heads), side, layers_across)


def overview(maps: HeadMaps, *, chosen: tuple[int, int], font_size: int = 12) -> Overview:
    """Every head's small map (``head_maps``), with ``chosen`` = (layer, head) boxed."""
    side, block = maps.side, maps.side + 1
    across, down = maps.shape if maps.layers_across else maps.shape[::-1]
    x, y = _corner(chosen, block, maps.layers_across)
    frame = [
        [x + i, y + j] for i in range(-1, side + 1) for j in range(-1, side + 1) if i in (-1, side) or j in (-1, side)
    ]
    chosen_frame = {
        "type": "heatmap",
        "name": "chosen",
        "data": [[i, j, 0] for i, j in frame],
        "itemStyle": {"color": FOCUS},
        "silent": True,
        "progressive": 0,
    }
    names = ("Layer", "Head") if maps.layers_across else ("Head", "Layer")
    option = {
        "animation": False,
        "tooltip": {"formatter": "{a}<br/>share of attention {@[2]}"},
        "grid": {"left": 22, "right": 4, "top": 40, "bottom": 4, "containLabel": True},
        "xAxis": _block_axis(across, block, names[0], font_size) | {"position": "top"},
        "yAxis": _block_axis(down, block, names[1], font_size) | {"inverse": True},
        "visualMap": {
            "show": False,
            "seriesIndex": list(range(len(maps.heads))),
            "dimension": 2,
            "min": 0.0,
            "max": 1.0,
            "inRange": {"color": VIRIDIS},
        },
        "series": [*maps.series, chosen_frame],
    }
    height = min(MAX_OVERVIEW_HEIGHT, 40 + round(850 * down / across))
    return Overview(option, maps.heads, side, maps.layers_across, height)


def _corner(at: tuple[int, int], block: int, layers_across: bool) -> tuple[int, int]:
    """The (x, y) cell where the small map of head ``at`` = (layer, head) starts."""
    column, row = at if layers_across else at[::-1]
    return 1 + column * block, 1 + row * block


def _block_axis(count: int, block: int, name: str, font_size: int) -> dict:
    """A category axis of ``count`` blocks of ``block`` cells (and one empty cell before them all, for the frame),
    numbered once a block at its middle; the axis's name says what it counts."""
    labels = [""] * (1 + count * block)
    for k in range(count):
        labels[1 + k * block + (block - 1) // 2] = str(k + 1)
    return {
        "type": "category",
        "data": labels,
        "name": name,
        "nameLocation": "middle",
        "nameGap": font_size + 6,
        "nameTextStyle": {"fontSize": font_size - 1, "fontWeight": "bold"},
        "axisLabel": {"interval": 0, "fontSize": font_size - 2},
        "axisTick": {"show": False},
        "axisLine": {"show": False},
        "splitLine": {"show": False},
    }


# ----------------------------------------------------------------------------- one head up close


def head_map(weights, tokens: list[str], *, causal: bool, title: str, font_size: int = 12) -> dict:
    """One head's weights (n, n) with its tokens on both axes and each cell's hover in words (up to the Playground's
    TEXT_LIMIT tokens; above it, positions and the weight); the future grey."""
    n = len(tokens)
    labels = [f"{i}: {visible_token(token)}" for i, token in enumerate(tokens)]
    hidden = np.triu(np.ones((n, n), bool), 1) if causal else None
    option = heatmap_option(
        weights,
        labels,
        labels,
        title=title,
        scale=Scale("weights"),
        value_name="weight",
        chart_name="head",
        blocked=hidden,
        font_size=font_size,
    )
    for series, masked in zip(option["series"][:2], (False, True), strict=True):
        for cell in series["data"]:  # [key, query, colour, text, hover]; above TEXT_LIMIT tokens [key, query, colour,
            if len(cell) == 5:  # value] only, with a hover naming positions: a sentence a cell is too much to send
                key, query = cell[0], cell[1]
                cell[4] = hover_sentence(labels[query], labels[key], float(weights[query, key]), hidden=masked)
    return option


def line_view(weights, tokens: list[str], *, focus: int, title: str, font_size: int = 12) -> dict:
    """The head view BertViz made familiar: queries on the left, keys on the right, one line a (query, key) pair
    whose opacity is its weight. The ``focus`` query's lines are orange and drawn on top."""
    n = len(tokens)
    names = [visible_token(token) for token in tokens]
    queries, keys = np.nonzero(np.asarray(weights) >= MIN_LINE_WEIGHT)
    lines = {True: [], False: []}
    for i, j in zip(queries.tolist(), keys.tolist(), strict=True):
        weight = round(float(weights[i, j]), 4)
        lines[i == focus].append({"coords": [[0, i], [1, j]], "lineStyle": {"opacity": weight}, "value": weight})

    def column(x: int, side: str) -> dict:
        return {
            "type": "scatter",
            "name": "queries" if x == 0 else "keys",
            "symbolSize": 6,
            "itemStyle": {"color": "#888"},
            "data": [{"value": [x, i], "name": names[i]} for i in range(n)],
            "label": {"show": True, "position": side, "formatter": "{b}", "fontSize": font_size - 1},
            "selectedMode": "single" if x == 0 else False,
            "tooltip": {"formatter": "{b}"},
            "z": 3,
        }

    def bundle(name: str, data: list, colour: str, width: float) -> dict:
        style = {"color": colour, "width": width, "curveness": 0}
        return {
            "type": "lines",
            "name": name,
            "coordinateSystem": "cartesian2d",
            "data": data,
            "lineStyle": style,
            "silent": True,
            "progressive": 0,
            "z": 2 if name == "focus" else 1,
        }

    axis = {"show": False, "min": 0, "max": 1}
    return {
        "animation": False,
        "title": {"text": title, "left": 0, "textStyle": {"fontSize": font_size + 1}},
        "tooltip": {},
        "grid": {"left": 90, "right": 90, "top": 34, "bottom": 8},
        "xAxis": {"type": "value", **axis},
        "yAxis": {"type": "value", "show": False, "inverse": True, "min": -0.5, "max": n - 0.5},
        "series": [
            column(0, "left"),
            column(1, "right"),
            bundle("lines", lines[False], BLUE, 1),
            bundle("focus", lines[True], ORANGE, 3.5),
        ],
    }


# ----------------------------------------------------------------------------- next token


def next_token_bars(labels: list[str], probabilities: list[float], *, temperature: float) -> go.Figure:
    """The most likely next tokens and, last, every other token together: bars that add up to 1."""
    figure = go.Figure(
        go.Bar(
            x=probabilities,
            y=labels,
            orientation="h",
            marker_color=[BLUE] * (len(labels) - 1) + ["#bbbbbb"],
            text=[f"{p:.1%}" for p in probabilities],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{y}: probability %{x:.4f}<extra></extra>",
        )
    )
    return finish(
        figure,
        height=60 + 24 * len(labels),
        legend_y=-0.2,
        title=f"Next token: softmax(logits / τ), τ = {temperature:g}",
        xaxis={"range": [0, 1.15], "tickformat": ".0%", "title": None},
        yaxis={"autorange": "reversed"},
        showlegend=False,
    )
