"""What multi-head attention costs: parameters (fixed by the widths) and work (which grows with n²).

A multiply-add counts as 2 FLOPs, the usual convention. Only the matrix products are counted: the softmax adds a
few operations per score, which is small beside the d_head multiply-adds that made each score.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnviz.core.errors import AttnvizInputError


def divisors(n: int) -> list[int]:
    """The head counts that split d_model into equal widths."""
    return [h for h in range(1, n + 1) if n % h == 0]


def _check(d_model: int, n_heads: int) -> int:
    if d_model < 1:
        raise AttnvizInputError(f"d_model must be at least 1, not {d_model}.")
    if n_heads < 1 or d_model % n_heads:
        raise AttnvizInputError(
            f"The number of heads ({n_heads}) must divide d_model ({d_model}); try one of {divisors(d_model)}."
        )
    return d_model // n_heads


@dataclass(frozen=True)
class Parameters:
    per_head: int  # d (2 d_k + d_v): one head's W_Q, W_K and W_V columns
    qkv: int  # all heads' W_Q, W_K and W_V
    output: int  # W_O: (n_heads · d_v) × d_model
    d_model: int
    d_k: int
    d_v: int
    n_heads: int

    @property
    def total(self) -> int:
        return self.qkv + self.output


def parameters(d_model: int, n_heads: int, d_k: int | None = None, d_v: int | None = None) -> Parameters:
    """Weights in one attention layer, without biases. d_k and d_v default to d_model / n_heads."""
    d_head = _check(d_model, n_heads)
    d_k, d_v = d_k or d_head, d_v or d_head
    per_head = d_model * (2 * d_k + d_v)
    return Parameters(
        per_head=per_head,
        qkv=n_heads * per_head,
        output=n_heads * d_v * d_model,
        d_model=d_model,
        d_k=d_k,
        d_v=d_v,
        n_heads=n_heads,
    )


@dataclass(frozen=True)
class Flops:
    projections: int  # X W_Q, X W_K, X W_V: 3 · 2 n d²
    scores: int  # Q Kᵀ for every head: 2 n² d
    weighted_sum: int  # weights V for every head: 2 n² d
    output: int  # concat W_O: 2 n d²
    weights_stored: int  # n² per head: the attention matrices held in memory

    @property
    def linear_in_n(self) -> int:
        return self.projections + self.output

    @property
    def quadratic_in_n(self) -> int:
        return self.scores + self.weighted_sum

    @property
    def total(self) -> int:
        return self.linear_in_n + self.quadratic_in_n


def flops(n: int, d_model: int, n_heads: int) -> Flops:
    """Work for one pass of n tokens. Splitting into heads leaves the FLOPs unchanged: h heads of width d/h."""
    _check(d_model, n_heads)
    if n < 1:
        raise AttnvizInputError(f"The sequence needs at least one token, not {n}.")
    return Flops(
        projections=3 * 2 * n * d_model * d_model,
        scores=2 * n * n * d_model,
        weighted_sum=2 * n * n * d_model,
        output=2 * n * d_model * d_model,
        weights_stored=n_heads * n * n,
    )


def crossover_length(d_model: int) -> float:
    """The n where the n² part (4 n² d) catches up with the linear part (8 n d²): n = 2 d."""
    return 2.0 * d_model


def cost_curve(lengths, d_model: int, n_heads: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(lengths, linear FLOPs, quadratic FLOPs) for a plot of cost against n."""
    lengths = np.asarray(sorted(set(int(n) for n in lengths)))
    counts = [flops(int(n), d_model, n_heads) for n in lengths]
    return (
        lengths,
        np.array([c.linear_in_n for c in counts], dtype=float),
        np.array([c.quadratic_in_n for c in counts], dtype=float),
    )
