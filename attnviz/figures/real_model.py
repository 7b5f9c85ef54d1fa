"""The Real model page's pictures: the layers × heads overview and one head up close as cell models
(attnviz.figures.matrix_view), its line view (an ECharts option), and the next-token probabilities (plotly).

Colours keep their meaning from the Playground: weights 0 to 1 on Viridis, masked cells grey.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from attnviz.figures.colours import BLUE, ORANGE
from attnviz.figures.layout import finish
from attnviz.figures.matrix_view import Cells, Scale, cells_of, matrix_view, veiled, view_of
from attnviz.lessons.real_model import group_names, pooled, visible_token

MAX_OVERVIEW_HEIGHT = 380
MIN_LINE_WEIGHT = 0.01  # lines fainter than this are not drawn (1% opacity is invisible, and 128² lines are heavy)
# Raising the other queries' cut-off a step at a time keeps their lines under MAX_LINES_DRAWN: rasterising 5,000
# lines across a 2,000 px canvas was most of the decoder switch's second (bench/README.md).
LINE_CUTOFFS = (MIN_LINE_WEIGHT, 0.02, 0.05, 0.1, 0.2, 0.5)
MAX_LINES_DRAWN = 1_000


# ----------------------------------------------------------------------------- the overview


@dataclass(frozen=True)
class HeadMaps:
    """Every head of a run as a small map, laid out as one matrix of maps: the heavy part of the overview, the same
    whichever head is chosen, so a page keeps it while a student picks heads (``overview`` adds the chosen frame)."""

    cells: Cells  # the matrix of maps: (down · side, across · side)
    rows: list[str]  # "head 3, query 2: cat" (or "layer 3, …"): what each row of cells stands for
    cols: list[str]
    shape: tuple[int, int]  # (layers, heads)
    side: int  # cells along each side of a small map
    layers_across: bool  # True: layers run left to right and heads top to bottom; False: the other way round

    def head_at(self, row: int, col: int) -> dict[str, int] | None:
        """The layer and head of the map a cell belongs to (None past the maps)."""
        down, across = divmod(row, self.side)[0], divmod(col, self.side)[0]
        layer, head = (across, down) if self.layers_across else (down, across)
        return {"layer": layer, "head": head} if layer < self.shape[0] and head < self.shape[1] else None


def head_maps(attention, tokens: list[str], *, side: int) -> HeadMaps:
    """Every head of ``attention`` (layers, heads, n, n) pooled to a ``side`` × ``side`` map, the maps side by side
    with the longer of layers and heads running across, so 30 × 9 and 6 × 12 both fit a laptop screen."""
    n_layers, n_heads = attention.shape[:2]
    maps = pooled(attention, side)  # (layers, heads, side, side)
    layers_across = n_layers >= n_heads
    if layers_across:  # (heads · side, layers · side): head h's maps in block row h
        grid = maps.transpose(1, 2, 0, 3).reshape(n_heads * side, n_layers * side)
    else:  # (layers · side, heads · side)
        grid = maps.transpose(0, 2, 1, 3).reshape(n_layers * side, n_heads * side)
    down_name, across_name = ("head", "layer") if layers_across else ("layer", "head")
    down, across = grid.shape[0] // side, grid.shape[1] // side
    groups = group_names(tokens, side)
    # A hover reads "layer 1, query 7: the → key 7: the, head 3": the arrow from the query to its key, each part
    # saying what it is (a layer and a head on either side of it, never the arrow between a query and a head).
    rows = [f"{down_name} {k + 1}, query {name}" for k in range(down) for name in groups]
    cols = [f"key {name}, {across_name} {k + 1}" for k in range(across) for name in groups]
    return HeadMaps(cells_of(grid, None, Scale("weights")), rows, cols, (n_layers, n_heads), side, layers_across)


def overview(maps: HeadMaps, *, chosen: tuple[int, int], font_size: int = 12, asking: bool = False) -> tuple[dict, int]:
    """Every head's small map (``head_maps``), with ``chosen`` = (layer, head) outlined, and hidden while predict mode
    ``asking`` about it (its map is the answer, small); and its height in pixels, about square cells some 850 px wide,
    at most MAX_OVERVIEW_HEIGHT."""
    side = maps.side
    down, across = maps.cells.said.shape[0] // side, maps.cells.said.shape[1] // side
    at_row, at_col = chosen[::-1] if maps.layers_across else chosen

    def numbered(count: int) -> list[str]:  # each map's number at its middle, once
        return [str(k + 1) if i == (side - 1) // 2 else "" for k in range(count) for i in range(side)]

    order = "layers across, heads down" if maps.layers_across else "heads across, layers down"
    view = view_of(
        maps.cells,
        maps.rows,
        maps.cols,
        name="heads",
        title="Every head (the chosen one: predict first)" if asking else f"Every head ({order})",
        scale=Scale("weights"),
        value_name="share of attention",
        font_size=font_size,
        groups=(side, side),
        boxes=[(at_row * side, at_col * side, side, side)],
        ticks=numbered(across),
        row_ticks=numbered(down),
    )
    if asking:
        view = veiled(view, (at_row * side, at_col * side, side, side), "the chosen head: hidden until you predict")
    # Read by layer beside it (attnviz.ui.model_runs.overview_for_readers), not as one table of every cell.
    return view | {"reader": False}, min(MAX_OVERVIEW_HEIGHT, 60 + round(850 * down / across))


# ----------------------------------------------------------------------------- one head up close


def head_map_height(n: int, *, presenting: bool) -> int:
    """The least height of one head's map of ``n`` tokens (px): a row a token, up to a laptop's room; presenting,
    less, so that a projector's 720 px hold it under the lesson's bar, the switch above it and the sinks' share
    below (tests/e2e/test_explanation_lesson.py)."""
    return min(360 if presenting else 620, 140 + 24 * n)


def head_map(
    weights, tokens: list[str], *, causal: bool, query: int, title: str, font_size: int = 12, name: str = "head"
) -> dict:
    """One head's weights (n, n) with its tokens on both axes, the query's row outlined, the future grey (also any
    other map on the weights' 0-to-1 scale, such as attnviz.models.explain's, as view ``name``)."""
    n = len(tokens)
    labels = [f"{i}: {visible_token(token)}" for i, token in enumerate(tokens)]
    hidden = np.triu(np.ones((n, n), bool), 1) if causal else None
    return matrix_view(
        weights,
        labels,
        labels,
        scale=Scale("weights"),
        blocked=hidden,
        name=name,
        title=title,
        value_name="weight" if name == "head" else "share",
        font_size=font_size,
        focus=query,
    )


def line_view(weights, tokens: list[str], *, focus: int, title: str, font_size: int = 12) -> dict:
    """The head view BertViz made familiar: queries on the left, keys on the right, one line a (query, key) pair
    whose opacity is its weight. The ``focus`` query's lines are orange, drawn on top, each at its own weight; the
    others are grouped by their weight rounded (``line_opacity``), one series a group, so ECharts draws each group
    as one path rather than building a model for each of 128² lines."""
    n = len(tokens)
    names = [visible_token(token) for token in tokens]
    weights = np.asarray(weights)  # (n, n)
    drawn = weights >= others_cutoff(weights, focus)
    drawn[focus] = weights[focus] >= MIN_LINE_WEIGHT
    focus_lines, groups = [], {}
    for i, j in zip(*(axis.tolist() for axis in np.nonzero(drawn)), strict=True):
        weight = float(weights[i, j])
        if i == focus:
            focus_lines.append({"coords": [[0, i], [1, j]], "lineStyle": {"opacity": round(weight, 4)}})
        else:
            groups.setdefault(line_opacity(weight), []).append({"coords": [[0, i], [1, j]]})

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

    def bundle(name: str, data: list, colour: str, width: float, opacity: float | None = None) -> dict:
        style = {"color": colour, "width": width, "curveness": 0} | ({} if opacity is None else {"opacity": opacity})
        return {
            "type": "lines",
            "name": name,
            "coordinateSystem": "cartesian2d",
            "data": data,
            "lineStyle": style,
            "silent": True,
            "progressive": 0,
            "z": 2 if name == "focus" else 1,
        } | ({} if opacity is None else {"large": True, "largeThreshold": 0})

    axis = {"show": False, "min": 0, "max": 1}
    return {
        # Its name and text alternative, whole: the title and the lines in words. ECharts' own would go on to list
        # every series and point (about 1,800 characters, "NaN" among them), which no reader can follow.
        "aria": {"enabled": True, "label": {"description": line_view_words(weights, names, focus, title=title)}},
        "animation": False,
        "title": {"text": title, "left": 0, "textStyle": {"fontSize": font_size + 1}},
        "tooltip": {},
        "grid": {"left": 90, "right": 90, "top": 34, "bottom": 8},
        "xAxis": {"type": "value", **axis},
        "yAxis": {"type": "value", "show": False, "inverse": True, "min": -0.5, "max": n - 0.5},
        "series": [
            column(0, "left"),
            column(1, "right"),
            bundle("focus", focus_lines, ORANGE, 3.5),
            *(bundle("lines", data, BLUE, 1, opacity) for opacity, data in sorted(groups.items())),
        ],
    }


def others_cutoff(weights, focus: int) -> float:
    """The weight below which a line of a query other than ``focus`` is not drawn: the first of LINE_CUTOFFS that
    leaves at most MAX_LINES_DRAWN of them (a row sums to 1, so at 0.5 each query keeps two lines at most)."""
    others = np.delete(np.asarray(weights), focus, axis=0)  # (n - 1, n)
    return next((cut for cut in LINE_CUTOFFS if np.count_nonzero(others >= cut) <= MAX_LINES_DRAWN), LINE_CUTOFFS[-1])


def lines_not_drawn(weights, focus: int) -> str:
    """Which lines the line view leaves out, in words: the page's caption and the chart's text alternative."""
    cutoff = others_cutoff(weights, focus)
    if cutoff == MIN_LINE_WEIGHT:
        return f"below {MIN_LINE_WEIGHT:.0%}: not drawn"
    return (
        f"below {MIN_LINE_WEIGHT:.0%} for the orange query and below {cutoff:.0%} for the others: not drawn, so that "
        f"at most {MAX_LINES_DRAWN:,} lines are"
    )


def line_opacity(weight: float) -> float:
    """The opacity a line other than the focus query's is drawn with: its weight to 0.01 below 0.1, and to 0.1 above
    (a difference the eye cannot see on a thin line)."""
    return round(weight, 2) if weight < 0.095 else round(weight, 1)


def line_view_words(weights, names: list[str], focus: int, *, title: str, keys: int = 3) -> str:
    """The line view in words, the chart's whole text alternative: its title, what it draws, and the ``keys`` keys
    the focus query looks at most, with their weights."""
    row = np.asarray(weights, dtype=float)[focus]
    top = [j for j in np.argsort(-row, kind="stable")[:keys].tolist() if row[j] > 0]
    most = ", ".join(f"{j}: {names[j]} ({row[j]:.2f})" for j in top) or "no key"
    return (
        f"{title}: every query on the left joined to the keys on the right, a line's opacity its weight "
        f"({lines_not_drawn(weights, focus)}). Query {focus}: {names[focus]} looks most at {most}."
    )


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
