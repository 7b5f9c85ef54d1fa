"""Figures of the multi-head page: X, the projections, each head's weights, the concatenation and W_O."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from attnviz.figures.heatmaps import matrix_heatmap
from attnviz.lessons.multi_head import MAX_HEADS_DRAWN, MultiHead, head_title


@dataclass(frozen=True)
class Sizes:
    """How big the page draws things, from the number of tokens n, d_model and the number of heads drawn."""

    thirds_text: bool  # numbers inside the matrices drawn three a row: only while their cells are few
    token_rows_height: int  # tall enough that every token's label is shown
    heads_per_row: int
    head_text: bool  # numbers inside the head heatmaps

    @classmethod
    def of(cls, n: int, d_model: int, n_heads: int, *, large_text: bool = False) -> Sizes:
        """``large_text``: presenter mode, whose larger numbers need larger cells."""
        per_row = min(n_heads, MAX_HEADS_DRAWN, 4)
        return cls(
            thirds_text=d_model <= 4,
            token_rows_height=int(np.clip(140 + 26 * n, 300, 720)),
            heads_per_row=per_row,
            # Two heatmaps a row leave room for numbers in 12 × 12 cells, or 8 × 8 with presenter-sized text.
            head_text=per_row <= 2 and n <= (8 if large_text else 12),
        )


def _dims(d_model: int) -> list[str]:
    return [f"d{c + 1}" for c in range(d_model)]


def _per_token(matrix, labels, title: str, sizes: Sizes, *, column_groups: int = 1) -> go.Figure:
    """One row per token, one column per dimension (with a line between ``column_groups`` groups of columns)."""
    return matrix_heatmap(
        matrix,
        labels,
        _dims(np.shape(matrix)[1]),
        kind="values",
        title=title,
        x_title="dimension",
        show_text=sizes.thirds_text,
        height=sizes.token_rows_height,
        column_groups=column_groups,
    )


def _weight_matrix(W, title: str, sizes: Sizes) -> go.Figure:
    dims = _dims(len(W))
    return matrix_heatmap(
        W, dims, dims, kind="values", title=title, x_title="out", y_title="in", show_text=sizes.thirds_text
    )


def x_map(X, labels) -> go.Figure:
    """X as a heatmap, for an X too large to edit."""
    columns = [f"x{c + 1}" for c in range(np.shape(X)[1])]
    return matrix_heatmap(X, labels, columns, kind="values", title="X", x_title="dimension")


def weight_maps(lesson: MultiHead, sizes: Sizes) -> list[tuple[str, go.Figure]]:
    return [
        (name, _weight_matrix(W, name, sizes))
        for name, W in (("W_Q", lesson.W_q), ("W_K", lesson.W_k), ("W_V", lesson.W_v))
    ]


def projected_maps(lesson: MultiHead, labels, sizes: Sizes) -> list[tuple[str, go.Figure]]:
    result = lesson.result
    return [
        (name, _per_token(M, labels, f"{name} = X W_{name}", sizes))
        for name, M in (("Q", result.Q), ("K", result.K), ("V", result.V))
    ]


def head_maps(lesson: MultiHead, labels, sizes: Sizes) -> list[go.Figure]:
    """The weights of the first MAX_HEADS_DRAWN heads; masked cells grey and 0."""
    d_head = lesson.setup.d_head
    return [
        matrix_heatmap(
            head.weights,
            labels,
            labels,
            kind="weights",
            title=head_title(h, d_head),
            blocked=head.blocked,
            show_text=sizes.head_text,
        )
        for h, head in enumerate(lesson.result.heads[:MAX_HEADS_DRAWN])
    ]


def mixing_maps(lesson: MultiHead, labels, sizes: Sizes) -> list[tuple[str, go.Figure]]:
    """concat(heads) with a line at each head boundary, W_O, and the output concat W_O."""
    # One line at each head boundary, drawn as one list of shapes (32 add_vline calls cost ~150 ms).
    concat = _per_token(lesson.result.concat, labels, "concat(heads)", sizes, column_groups=lesson.setup.n_heads)
    return [
        ("concat", concat),
        ("W_O", _weight_matrix(lesson.W_o, "W_O", sizes)),
        ("output", _per_token(lesson.result.output, labels, "output = concat W_O", sizes)),
    ]


def scores_map(lesson: MultiHead, labels) -> go.Figure:
    """Head 1's raw scores, for the tie exercise."""
    return matrix_heatmap(lesson.result.heads[0].scores, labels, labels, kind="scores", title="head 1: raw scores Q Kᵀ")
