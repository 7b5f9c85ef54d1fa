"""Scaled dot-product attention, written out one step at a time.

Conventions follow PyTorch's ``scaled_dot_product_attention``: a boolean mask is an *allow* matrix
(True = may attend), the causal mask keeps the diagonal, and the default scale is 1/sqrt(d_k).
One deliberate difference: a query row with no allowed key gets zero weights and a zero output
instead of NaN, and is flagged in ``fully_masked``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnviz.core.errors import AttnvizInputError


def _readonly(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def as_matrix(name: str, values) -> np.ndarray:
    """``values`` as a finite 2-D float array with at least one row and one column."""
    try:
        matrix = np.array(values, dtype=float)
    except (TypeError, ValueError) as error:
        raise AttnvizInputError(f"{name} must contain only numbers.") from error
    if matrix.ndim != 2:
        raise AttnvizInputError(
            f"{name} must be a table of numbers (2-D: one row a token), but it has {matrix.ndim} dimension(s)."
        )
    rows, cols = matrix.shape
    if rows == 0:
        raise AttnvizInputError(f"{name} has no rows: attention needs at least one token.")
    if cols == 0:
        raise AttnvizInputError(f"{name} has no columns: each vector needs at least one number.")
    if not np.isfinite(matrix).all():
        row, col = np.argwhere(~np.isfinite(matrix))[0]
        raise AttnvizInputError(
            f"{name} has a value that is not a finite number (NaN or infinity) at row {row}, column {col}."
        )
    return matrix


def softmax(x, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax. A slice that is entirely -inf gives all zeros (nothing to attend to)."""
    x = np.asarray(x, dtype=float)
    peak = np.max(x, axis=axis, keepdims=True)
    peak = np.where(np.isfinite(peak), peak, 0.0)  # all -inf: leave as -inf so exp gives exactly 0
    # Subtracting the max keeps exp() <= 1; a huge gap (1e308 - -1e308) may round to -inf, whose exp is 0.
    with np.errstate(over="ignore", under="ignore"):
        exps = np.exp(x - peak)
    totals = exps.sum(axis=axis, keepdims=True)
    return np.divide(exps, totals, out=np.zeros_like(exps), where=totals > 0)


def causal_mask(n: int, n_k: int | None = None) -> np.ndarray:
    """Boolean allow-matrix (n, n_k), square unless ``n_k`` is given: query i may attend to keys 0..i (the lower
    triangle with the diagonal, PyTorch's ``ones(L, S).tril()``)."""
    if n < 1:
        raise AttnvizInputError("A causal mask needs at least one token.")
    return np.tril(np.ones((n, n if n_k is None else n_k), dtype=bool))


@dataclass(frozen=True)
class AttentionResult:
    """Every intermediate of one attention pass. Arrays are read-only."""

    scores: np.ndarray  # (n_q, n_k) raw Q Kᵀ
    scaled: np.ndarray  # (n_q, n_k) scores / sqrt(d_k) (if scaling) / temperature
    masked: np.ndarray  # (n_q, n_k) scaled, with blocked entries = -inf
    weights: np.ndarray  # (n_q, n_k) row softmax; blocked entries exactly 0
    output: np.ndarray  # (n_q, d_v) weights @ V
    blocked: np.ndarray  # (n_q, n_k) bool, True = this query may not see this key
    fully_masked: np.ndarray  # (n_q,) bool, True = the query sees no key at all
    scale_factor: float  # what the scores were divided by: sqrt(d_k) * temperature (or temperature)


def _allow_matrix(mask, causal: bool, n_q: int, n_k: int) -> np.ndarray:
    allowed = causal_mask(n_q, n_k) if causal else np.ones((n_q, n_k), dtype=bool)  # key j > query i is the future
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != bool:
            raise AttnvizInputError("The mask must hold True/False values (True = may attend).")
        if mask.shape != (n_q, n_k):
            raise AttnvizInputError(
                f"The mask has shape {mask.shape} but the scores have shape {(n_q, n_k)}: "
                "it needs one True/False per (query, key) pair."
            )
        allowed &= mask
    return allowed


def attention(
    Q, K, V, *, causal: bool = False, scale: bool = True, temperature: float = 1.0, mask=None
) -> AttentionResult:
    """softmax(Q Kᵀ / sqrt(d_k) / temperature + M) V, keeping every intermediate."""
    Q, K, V = as_matrix("Q", Q), as_matrix("K", K), as_matrix("V", V)
    (n_q, d_k), (n_k, d_k_keys) = Q.shape, K.shape
    if d_k != d_k_keys:
        raise AttnvizInputError(
            f"Q has {d_k} columns but K has {d_k_keys}: a query and a key must have the same length to take their dot product."
        )
    if V.shape[0] != n_k:
        raise AttnvizInputError(f"K has {n_k} rows but V has {V.shape[0]}: every key needs a value.")
    if not (isinstance(temperature, (int, float, np.number)) and np.isfinite(temperature) and temperature > 0):
        raise AttnvizInputError(f"The temperature must be a positive number, not {temperature!r}.")
    allowed = _allow_matrix(mask, causal, n_q, n_k)  # (n_q, n_k)

    with np.errstate(over="ignore", invalid="ignore"):
        scores = Q @ K.T  # (n_q, n_k)
        scale_factor = (np.sqrt(d_k) if scale else 1.0) * float(temperature)
        scaled = scores / scale_factor  # (n_q, n_k)
    if not (np.isfinite(scores).all() and np.isfinite(scaled).all()):
        raise AttnvizInputError(
            "Some scores are too large to compute (they overflow to infinity). Use smaller numbers in Q and K, "
            "or a higher temperature."
        )
    blocked = ~allowed
    masked = np.where(blocked, -np.inf, scaled)  # (n_q, n_k)
    weights = softmax(masked, axis=-1)  # (n_q, n_k); exp(-inf) = 0 exactly
    output = weights @ V  # (n_q, d_v)
    return AttentionResult(
        scores=_readonly(scores),
        scaled=_readonly(scaled),
        masked=_readonly(masked),
        weights=_readonly(weights),
        output=_readonly(output),
        blocked=_readonly(blocked),
        fully_masked=_readonly(~allowed.any(axis=1)),
        scale_factor=float(scale_factor),
    )


def project(X, W_q, W_k, W_v) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Q = X W_q, K = X W_k, V = X W_v (weights are (d_model, d_out), PyTorch's Linear weight transposed)."""
    X = as_matrix("X", X)
    projections = []
    for name, W in (("W_Q", W_q), ("W_K", W_k), ("W_V", W_v)):
        W = as_matrix(name, W)
        if W.shape[0] != X.shape[1]:
            raise AttnvizInputError(
                f"X has {X.shape[1]} columns but {name} has {W.shape[0]} rows: they must match to multiply."
            )
        projections.append(X @ W)  # (n, d_out)
    return tuple(projections)


@dataclass(frozen=True)
class MultiHeadResult:
    Q: np.ndarray  # (n, d_model)
    K: np.ndarray  # (n, d_model)
    V: np.ndarray  # (n, d_model)
    heads: tuple[AttentionResult, ...]  # one per head, each on d_head columns
    concat: np.ndarray  # (n, d_model) the heads' outputs side by side
    output: np.ndarray  # (n, d_model) concat @ W_o

    @property
    def weights(self) -> np.ndarray:  # (n_heads, n, n)
        return np.stack([head.weights for head in self.heads])

    @property
    def head_outputs(self) -> np.ndarray:  # (n_heads, n, d_head)
        return np.stack([head.output for head in self.heads])

    @property
    def mean_weights(self) -> np.ndarray:  # (n, n), what nn.MultiheadAttention returns by default
        return self.weights.mean(axis=0)


def multi_head_attention(
    X, W_q, W_k, W_v, W_o, n_heads: int, *, causal: bool = False, scale: bool = True
) -> MultiHeadResult:
    """Multi-head self-attention with PyTorch's nn.MultiheadAttention layout (weights transposed, no biases)."""
    X = as_matrix("X", X)
    d_model = X.shape[1]
    if not isinstance(n_heads, (int, np.integer)) or n_heads < 1 or d_model % n_heads:
        raise AttnvizInputError(
            f"The number of heads ({n_heads}) must divide d_model ({d_model}) so every head gets the same width."
        )
    weights = {name: as_matrix(name, W) for name, W in (("W_Q", W_q), ("W_K", W_k), ("W_V", W_v), ("W_O", W_o))}
    for name, W in weights.items():
        if W.shape != (d_model, d_model):
            raise AttnvizInputError(
                f"{name} must be {d_model}×{d_model} (d_model × d_model), but it is {W.shape[0]}×{W.shape[1]}."
            )
    Q, K, V = project(X, weights["W_Q"], weights["W_K"], weights["W_V"])  # each (n, d_model)
    d_head = d_model // n_heads
    heads = tuple(
        attention(Q[:, cols], K[:, cols], V[:, cols], causal=causal, scale=scale)  # scaling by sqrt(d_head)
        for cols in (slice(h * d_head, (h + 1) * d_head) for h in range(n_heads))
    )
    concat = np.concatenate([head.output for head in heads], axis=1)  # (n, d_model)
    return MultiHeadResult(Q=Q, K=K, V=V, heads=heads, concat=concat, output=concat @ weights["W_O"])
