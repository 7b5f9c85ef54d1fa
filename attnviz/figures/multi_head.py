"""The multi-head page's matrices as cell models (attnviz.figures.matrix_view): X, the projections, each head's
weights, the concatenation and W_O. Values are blue–red on a signed scale reaching full colour at each matrix's own
largest |value|; weights 0 to 1, masked cells grey and 0, as on every page."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnviz.figures.matrix_view import Scale, matrix_view
from attnviz.lessons.multi_head import MAX_HEADS_DRAWN, MultiHead, head_title


@dataclass(frozen=True)
class Sizes:
    """How big the page draws things, from the number of tokens n and the number of heads drawn."""

    token_rows_height: int  # tall enough that every token's label is shown
    heads_per_row: int
    head_height: int

    @classmethod
    def of(cls, n: int, n_heads: int) -> Sizes:
        return cls(
            token_rows_height=int(np.clip(100 + 26 * n, 260, 720)),
            heads_per_row=min(n_heads, MAX_HEADS_DRAWN, 4),
            head_height=int(np.clip(120 + 26 * n, 260, 560)),
        )


def _dims(width: int, prefix: str = "d") -> list[str]:
    return [f"{prefix}{c + 1}" for c in range(width)]


def _per_token(matrix, labels, name: str, title: str, *, groups: int = 1) -> dict:
    """One row per token, one column per dimension (with a line between every ``groups`` columns)."""
    return matrix_view(
        matrix,
        labels,
        _dims(np.shape(matrix)[1]),
        scale=Scale.signed_of(matrix),
        name=name,
        title=title,
        value_name="value",
        groups=(1, groups),
    )


def _weight_matrix(W, name: str) -> dict:
    """A d_model × d_model weight matrix: in-dimension rows, out-dimension columns."""
    width = len(W)
    return matrix_view(
        W,
        _dims(width, "in d"),
        _dims(width, "out d"),
        scale=Scale.signed_of(W),
        name=name,
        title=name,
        value_name="weight",
        ticks=_dims(width),
        row_ticks=_dims(width),
    )


def x_map(X, labels) -> dict:
    """X, for an X too large to edit."""
    return matrix_view(
        X, labels, _dims(np.shape(X)[1], "x"), scale=Scale.signed_of(X), name="X", title="X", value_name="value"
    )


def weight_maps(lesson: MultiHead) -> list[dict]:
    return [_weight_matrix(W, name) for name, W in (("W_Q", lesson.W_q), ("W_K", lesson.W_k), ("W_V", lesson.W_v))]


def projected_maps(lesson: MultiHead, labels) -> list[dict]:
    result = lesson.result
    return [
        _per_token(M, labels, name, f"{name} = X W_{name}")
        for name, M in (("Q", result.Q), ("K", result.K), ("V", result.V))
    ]


def head_maps(lesson: MultiHead, labels) -> list[dict]:
    """The weights of the first MAX_HEADS_DRAWN heads; masked cells grey and 0."""
    d_head = lesson.setup.d_head
    return [
        matrix_view(
            head.weights,
            labels,
            labels,
            scale=Scale("weights"),
            blocked=head.blocked,
            name=f"head{h + 1}",
            title=head_title(h, d_head),
            value_name="weight",
        )
        for h, head in enumerate(lesson.result.heads[:MAX_HEADS_DRAWN])
    ]


def mixing_maps(lesson: MultiHead, labels) -> list[dict]:
    """concat(heads) with a line at each head boundary, W_O, and the output concat W_O."""
    return [
        _per_token(lesson.result.concat, labels, "concat", "concat(heads)", groups=lesson.setup.d_head),
        _weight_matrix(lesson.W_o, "W_O"),
        _per_token(lesson.result.output, labels, "output", "output = concat W_O"),
    ]


def scores_map(lesson: MultiHead, labels) -> dict:
    """Head 1's raw scores, for the tie exercise."""
    scores = lesson.result.heads[0].scores
    return matrix_view(
        scores,
        labels,
        labels,
        scale=Scale.signed_of(scores),
        name="scores",
        title="head 1: raw scores Q Kᵀ",
        value_name="score",
    )
