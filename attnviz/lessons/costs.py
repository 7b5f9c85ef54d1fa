"""What multi-head attention costs: parameters (fixed by the widths) and work (part of which grows with n²).

A multiply-add counts as 2 FLOPs, the usual convention. Softmax is counted too, as 5 operations per score: divide by
√d_head, subtract the row's largest score, e^x, add to the row's sum, divide by the sum (an e^x counts as one, though
hardware spends more on it). Each score took 2·d_head FLOPs to make, so softmax is the smaller part only for wide
heads: at d_head = 1 it costs more than the scores themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnviz.core.errors import AttnvizInputError
from attnviz.core.numbers import format_number

SOFTMAX_OPS_PER_SCORE = 5


def divisors(n: int) -> list[int]:
    """The head counts that split d_model into equal widths."""
    return [h for h in range(1, n + 1) if n % h == 0]


def head_width(d_model: int, n_heads: int) -> int:
    """d_head = d_model / n_heads, the width of one head's queries, keys and values; or a plain-words error."""
    if d_model < 1:
        raise AttnvizInputError(f"d_model must be at least 1, not {d_model}.")
    if n_heads < 1 or d_model % n_heads:
        raise AttnvizInputError(
            f"The number of heads ({n_heads}) must divide d_model ({d_model}); try one of {divisors(d_model)}."
        )
    return d_model // n_heads


@dataclass(frozen=True)
class Parameters:
    d_model: int
    n_heads: int
    d_head: int

    @property
    def per_head(self) -> int:  # one head's columns of W_Q, W_K and W_V: three d_model × d_head blocks
        return 3 * self.d_model * self.d_head

    @property
    def qkv(self) -> int:  # all heads: 3 · d_model · (n_heads · d_head) = 3 · d_model²
        return self.n_heads * self.per_head

    @property
    def output(self) -> int:  # W_O: (n_heads · d_head) × d_model = d_model²
        return self.n_heads * self.d_head * self.d_model

    @property
    def total(self) -> int:
        return self.qkv + self.output


def parameters(d_model: int, n_heads: int) -> Parameters:
    """Weights in one attention layer, without biases."""
    return Parameters(d_model, n_heads, head_width(d_model, n_heads))


@dataclass(frozen=True)
class Flops:
    projections: int  # X W_Q, X W_K, X W_V: 3 · 2 n d²
    scores: int  # Q Kᵀ for every head: h heads · n² scores · 2 d_head = 2 n² d
    softmax: int  # 5 operations per score: 5 n² h
    weighted_sum: int  # weights V for every head: 2 n² d
    output: int  # concat W_O: 2 n d²
    weights_stored: int  # n² per head: the attention matrices held in memory

    @property
    def linear_in_n(self) -> int:
        return self.projections + self.output

    @property
    def quadratic_in_n(self) -> int:
        return self.scores + self.softmax + self.weighted_sum

    @property
    def total(self) -> int:
        return self.linear_in_n + self.quadratic_in_n


def flops(n: int, d_model: int, n_heads: int) -> Flops:
    """Work for one pass of n tokens. The matrix products do not depend on the head count (h heads of width d/h);
    the softmax does: it runs once per score, and every head has its own n² scores."""
    head_width(d_model, n_heads)
    if n < 1:
        raise AttnvizInputError(f"The sequence needs at least one token, not {n}.")
    return Flops(
        projections=3 * 2 * n * d_model * d_model,
        scores=2 * n * n * d_model,
        softmax=SOFTMAX_OPS_PER_SCORE * n * n * n_heads,
        weighted_sum=2 * n * n * d_model,
        output=2 * n * d_model * d_model,
        weights_stored=n_heads * n * n,
    )


def crossover_length(d_model: int, n_heads: int) -> float:
    """The n where the n² part catches up with the linear part: 8 n d² = n² (4d + 5h), so n = 8d² / (4d + 5h).

    Without softmax this is n = 2d; softmax brings it earlier, most for narrow heads (many heads for one d)."""
    head_width(d_model, n_heads)
    return 8 * d_model**2 / (4 * d_model + SOFTMAX_OPS_PER_SCORE * n_heads)


def cost_curve(lengths, d_model: int, n_heads: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(lengths, linear FLOPs, quadratic FLOPs) for a plot of cost against n."""
    lengths = np.asarray(sorted(set(int(n) for n in lengths)))
    counts = [flops(int(n), d_model, n_heads) for n in lengths]
    return (
        lengths,
        np.array([c.linear_in_n for c in counts], dtype=float),
        np.array([c.quadratic_in_n for c in counts], dtype=float),
    )


# ----------------------------------------------------------------------------- what the page says


def parameters_text(params: Parameters) -> str:
    d, h, w = params.d_model, params.n_heads, params.d_head
    return (
        f"**Parameters** (no biases). One head reads queries, keys and values d_head = d_model / n_heads = {d} / {h} "
        f"= {w} numbers wide, so its columns of W_Q, W_K and W_V are three d_model × d_head blocks: "
        f"3·{d}·{w} = {params.per_head:,} weights. {h} head{'s' if h > 1 else ''} make{'' if h > 1 else 's'} "
        f"{params.qkv:,} = 3·d_model² = 3·{d}². W_O adds d_model² = {params.output:,}. Total **{params.total:,}**, "
        "the same whatever the number of heads: more heads means narrower ones."
    )


def flops_table(work: Flops) -> dict[str, list]:
    """The page's table of work, one row a step; columns step, FLOPs and how the step grows."""
    return {
        "step": [
            "X W_Q, X W_K, X W_V",
            "Q Kᵀ (all heads)",
            "softmax (all heads)",
            "weights · V (all heads)",
            "concat · W_O",
            "total",
        ],
        "FLOPs": [work.projections, work.scores, work.softmax, work.weighted_sum, work.output, work.total],
        "grows like": ["n d²", "n² d", "n² h", "n² d", "n d²", ""],
    }


def flops_caption(n: int, work: Flops) -> str:
    return (
        f"For n = {n} tokens, d = d_model and h = n_heads. A multiply-add counts as 2 FLOPs; softmax as "
        f"{SOFTMAX_OPS_PER_SCORE} per score (divide by √d_head, subtract the row's largest, e^x, add up, divide). "
        f"The attention matrices hold n²·h = {work.weights_stored:,} numbers."
    )


def crossover_text(d_model: int, n_heads: int) -> str:
    crossover = crossover_length(d_model, n_heads)
    return (
        "Doubling n doubles the projection work but quadruples the work on scores, softmax and the weighted sum. "
        f"Past n = 8d² / (4d + 5h) = {format_number(crossover, digits=3)} the n² part is the larger, which is why long contexts are "
        f"expensive. (The multiply-adds alone cross at n = 2·d_model = {2 * d_model}; softmax, done once per score "
        "in every head, brings the point earlier when the heads are narrow.)"
    )
