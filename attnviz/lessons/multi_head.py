"""The multi-head lesson as numbers and words: embeddings and projections from a seed, the heads, and the exercise.

Everything here is random from the seed, so a class that shares a seed sees the same numbers; only X can be edited.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from attnviz import MultiHeadResult, multi_head_attention
from attnviz.core.limits import EDITABLE_CELLS
from attnviz.core.numbers import format_cells, format_number
from attnviz.core.random import random_embeddings, random_projections
from attnviz.lessons.costs import head_width
from attnviz.lessons.questions import ChoiceQuestion

MAX_HEADS_DRAWN = 8  # beyond this the heatmaps get too small to read; the concatenation still shows every head


@dataclass(frozen=True)
class Setup:
    """What the page's controls chose."""

    d_model: int
    n_heads: int
    seed: int
    causal: bool = False
    tie_qk: bool = False

    @property
    def d_head(self) -> int:
        return head_width(self.d_model, self.n_heads)


def embeddings(n: int, setup: Setup) -> np.ndarray:  # (n, d_model)
    return random_embeddings(n, setup.d_model, setup.seed)


def x_is_editable(X) -> bool:
    """A small X is a table to type into; a larger one is drawn instead."""
    return np.asarray(X).size <= EDITABLE_CELLS


@dataclass(frozen=True)
class MultiHead:
    X: np.ndarray  # (n, d_model)
    W_q: np.ndarray  # (d_model, d_model), and so are W_k, W_v and W_o
    W_k: np.ndarray
    W_v: np.ndarray
    W_o: np.ndarray
    result: MultiHeadResult
    setup: Setup

    @property
    def asymmetries(self) -> np.ndarray:
        """(n_heads,) max |S − Sᵀ| of each head's score matrix: 0 exactly when each token's interest in another is
        returned."""
        return np.array([np.abs(head.scores - head.scores.T).max() for head in self.result.heads])

    @property
    def largest_asymmetry(self) -> float:
        return float(self.asymmetries.max())


def run(X, setup: Setup) -> MultiHead:
    """The layer on ``X`` with the seed's projections (W_K = W_Q when ``setup.tie_qk``)."""
    W_q, W_k, W_v, W_o = random_projections(setup.d_model, setup.seed, tie_qk=setup.tie_qk)
    result = multi_head_attention(X, W_q, W_k, W_v, W_o, setup.n_heads, causal=setup.causal)
    return MultiHead(np.asarray(X, dtype=float), W_q, W_k, W_v, W_o, result, setup)


def head_columns(h: int, d_head: int) -> tuple[int, int]:
    """The first and last dimension (counting from 1) of head ``h`` (counting from 0)."""
    return h * d_head + 1, (h + 1) * d_head


def head_title(h: int, d_head: int) -> str:
    first, last = head_columns(h, d_head)
    return f"head {h + 1} (dims {first}–{last})" if last > first else f"head {h + 1} (dim {first})"


def intro_text(n: int) -> str:
    """The page's first words: where Q, K and V come from in a real layer, and the n tokens used here."""
    return (
        "A real layer does not get Q, K and V handed to it. Each token starts as an **embedding** x (one row of X), "
        "and three learned matrices turn it into a query, a key and a value: Q = X W_Q, K = X W_K, V = X W_V. "
        "Multi-head attention then cuts those columns into n_heads slices and runs attention on each slice "
        "separately, so different heads can look for different things. The tokens are the Playground's sentence "
        f"({n} token{'s' if n != 1 else ''}); the numbers are random from the seed."
    )


def sizes_caption(d_model: int) -> str:
    """Why the heads' choices are what they are: the divisors of d_model."""
    return f"n_heads: divisors of d_model = {d_model} only, so every head gets the same width d_head."


def x_drawn_caption(n: int, d_model: int) -> str:
    """Said where X is drawn, not edited: its size worked out."""
    return f"X has {n}×{d_model} = {n * d_model} numbers: too many to edit by hand, so it is drawn instead."


def heads_drawn_caption(n_heads: int) -> str:
    """Said when not every head is drawn: the page says it only above MAX_HEADS_DRAWN heads."""
    return f"Showing the first {MAX_HEADS_DRAWN} of {n_heads} heads; all are in the concatenation below."


def heads_heading(setup: Setup) -> str:
    return f"2. {setup.n_heads} head{'s' if setup.n_heads > 1 else ''}, each d_head = {setup.d_head} wide"


def heads_text(setup: Setup) -> str:
    w = setup.d_head
    return (
        f"d_head = d_model / n_heads = {setup.d_model} / {setup.n_heads} = {w} is the width of one head: head h "
        f"(counting from 1) uses dimensions {w}·(h−1)+1 … {w}·h of Q, K and V, and divides its scores by "
        f"√d_head = √{w}. Each head has its own slice of the weights. Here the projections are random, so the heads "
        "have no roles yet: they weigh the tokens differently only by chance. Training shapes each slice, and in a "
        "trained model heads take on jobs of their own, such as looking at the previous token (see the Real model page)."
    )


TIE_CHOICES = (
    "S is symmetric: S[i, j] = S[j, i]",
    "S is diagonal: only S[i, i] is not 0",
    "Nothing in particular: S is as asymmetric as before",
)


def tie_question(X, setup: Setup) -> ChoiceQuestion:
    """The exercise's question, asked before the tie is switched: answered by the tied layer's own scores."""
    tied = run(X, replace(setup, tie_qk=True))
    scores = [head.scores for head in tied.result.heads]
    symmetric = all(np.allclose(S, S.T, rtol=1e-9, atol=1e-9) for S in scores)
    right = 0 if symmetric else 2  # what must be true: symmetric (a diagonal S, by chance, is symmetric too)
    why = f"Tied, the largest |S − Sᵀ| over all heads is {format_number(tied.largest_asymmetry)}."
    asked = "Predict first: with one matrix for queries and keys (W_K = W_Q), what must be true of the scores S?"
    return ChoiceQuestion("multi_head", "tie", asked, TIE_CHOICES, right, why)


def tie_text(lesson: MultiHead) -> str:
    """The exercise's sentence: what tying W_K = W_Q does to the scores, with the measured asymmetry."""
    if lesson.setup.tie_qk:
        return (
            "With W_K = W_Q every score is q_i·k_j = x_i W Wᵀ x_jᵀ = q_j·k_i, so each head's score matrix is "
            f"symmetric: the largest |S − Sᵀ| over all heads is {format_number(lesson.largest_asymmetry)}. The "
            "weights are still not symmetric, because softmax normalises each row on its own."
        )
    return (
        "Scores are not symmetric now: token i's interest in j differs from j's in i. In head 1's raw scores (the "
        f"chart beside), the largest |S − Sᵀ| is {_asymmetry_text(lesson.asymmetries)}. Tick **Tie W_K = W_Q** and "
        "predict what happens before you look."
    )


def _asymmetry_text(asymmetries: np.ndarray) -> str:
    """Head 1's largest |S − Sᵀ| (the matrix drawn) and, with several heads, where the largest of all is: to the
    precision the chart draws its scores in, so a student who subtracts two of its cells finds this number."""
    said, n_heads = format_cells(asymmetries, weights=False), len(asymmetries)
    first = said[0]
    if n_heads == 1:
        return first
    top = int(asymmetries.argmax())
    if top == 0:
        return f"{first}, the largest of the {n_heads} heads"
    return f"{first} (head {top + 1}'s is the largest of the {n_heads} heads: {said[top]})"
