"""The building blocks of every real model, in numpy and float32, as PyTorch computes them.

Weights are kept in the layout a matmul takes them, (d_in, d_out): ``x @ W`` (see families.py). Only attention
itself runs in float64, in the steps of ``attnviz.attention``, the function the lessons teach, on float32 queries,
keys and values (``attend_heads``): the weights lie in [0, 1] and agree with PyTorch's float32 to about 1e-6.
"""

from __future__ import annotations

import math

import numpy as np

from attnviz import softmax
from attnviz.core.attention import causal_mask


def linear(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    """x W + b: x (n, d_in), weight (d_in, d_out) -> (n, d_out), as ``torch.nn.functional.linear`` with Wᵀ."""
    y = x @ weight  # (n, d_out)
    return y if bias is None else y + bias


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    """BERT's LayerNorm over the last axis: (x - mean) / sqrt(variance + eps), then scale and shift."""
    mean = x.mean(axis=-1, keepdims=True)  # (n, 1)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)  # (n, 1), the biased variance, as PyTorch
    return (x - mean) / np.sqrt(variance + eps) * weight + bias  # (n, d)


def rms_norm(x: np.ndarray, weight: np.ndarray, eps: float) -> np.ndarray:
    """Llama's RMSNorm: x / sqrt(mean(x²) + eps), then scale. No mean is subtracted, no bias added."""
    mean_square = (x * x).mean(axis=-1, keepdims=True)  # (n, 1)
    return x / np.sqrt(mean_square + eps) * weight  # (n, d)


def erf(x: np.ndarray) -> np.ndarray:
    """The error function (numpy has none): Abramowitz & Stegun 7.1.26, |error| < 1.5e-7, in x's float type.

    erf(x) = sign(x) (1 − p(t) e^(−x²)), t = 1 / (1 + 0.3275911 |x|): Horner's rule, in place.
    """
    x = np.asarray(x)
    t = np.abs(x)  # (…) a new array, worked on in place from here
    t *= 0.3275911
    t += 1
    np.reciprocal(t, out=t)
    p = t * 1.061405429
    for coefficient in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        p += coefficient
        p *= t
    square = np.square(x)
    np.negative(square, out=square)
    p *= np.exp(square, out=square)  # p(t) e^(−x²)
    np.subtract(1, p, out=p)
    return np.copysign(p, x, out=p)


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's GELU in its exact form, x Φ(x) = x/2 (1 + erf(x/√2)); the tanh shortcut would be about 1e-3 off."""
    return (0.5 * x * (1.0 + erf(x / x.dtype.type(np.sqrt(2.0))))).astype(x.dtype)


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    """GPT-2's GELU, the tanh shortcut: x/2 (1 + tanh(√(2/π) (x + 0.044715 x³))), as ``gelu_new`` computes it."""
    return (0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))).astype(x.dtype)


def silu(x: np.ndarray) -> np.ndarray:
    """Llama's SiLU, x · sigmoid(x) = x / (1 + e^−x), as PyTorch computes it.

    For x below about −88, e^−x overflows float32 to infinity and x / inf is −0.0: the true value, rounded.
    """
    with np.errstate(over="ignore"):
        return x / (1.0 + np.exp(-x))


def rope_tables(n: int, d_head: int, base: float) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin of the rotary angles, (n, d_head) each, in Hugging Face's half-split layout, computed in float32
    as transformers does (its angles are float32 whatever the model's dtype).

    Position p turns pair i (dimension i with dimension i + d_head/2) by the angle p / base^(2i/d_head).
    """
    exponents = np.arange(0, d_head, 2).astype(np.float32) / np.float32(d_head)  # (d_head/2,)
    inverse_frequency = np.float32(1.0) / np.float32(base) ** exponents  # (d_head/2,)
    angles = np.arange(n, dtype=np.float32)[:, None] * inverse_frequency  # (n, d_head/2)
    angles = np.concatenate([angles, angles], axis=-1)  # (n, d_head)
    return np.cos(angles), np.sin(angles)


def rotate(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """Apply rotary position embedding to queries or keys (heads, n, d_head): x cos + rotate_half(x) sin."""
    first, second = np.split(x, 2, axis=-1)  # (heads, n, d_head/2) each
    rotated_half = np.concatenate([-second, first], axis=-1)  # (heads, n, d_head)
    return x * cos + rotated_half * sin


def split_heads(x: np.ndarray, n_heads: int) -> np.ndarray:
    """(n, n_heads · d_head) -> (n_heads, n, d_head): each head gets its own slice of the columns."""
    n, width = x.shape
    return x.reshape(n, n_heads, width // n_heads).transpose(1, 0, 2)


def merge_heads(x: np.ndarray) -> np.ndarray:
    """(n_heads, n, d_head) -> (n, n_heads · d_head): the heads' outputs side by side, as concatenation."""
    n_heads, n, d_head = x.shape
    return x.transpose(1, 0, 2).reshape(n, n_heads * d_head)


def attend_heads(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, *, causal: bool, mask: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Every head at once, in the very steps of ``attnviz.attention``, the function the lessons teach: the same float64
    scores, 1/√d_head scaling, mask and softmax, so each head's weights are bit for bit what ``attention`` gives on
    that head's q, k and v (tests/models/test_layers.py), and Open in Playground shows the same numbers. One call a
    layer instead of one a head: a head's own call cost about 76 µs, 5.5 ms of MiniLM's 20 ms pass at 32 tokens.

    q, k, v: (heads, n, d_head); ``mask`` (n, n), True where a query may attend to a key (``removed_key``), the same
    for every head. Returns the weights (heads, n, n), float64 as ``attention`` gives them, and the outputs
    (heads, n, d_head) in float32, as the forward pass goes on.
    """
    _, n, d_head = q.shape
    allowed = causal_mask(n) if causal else np.ones((n, n), dtype=bool)  # (n, n)
    if mask is not None:
        allowed &= mask
    q, k, v = q.astype(np.float64), k.astype(np.float64), v.astype(np.float64)  # as attention's as_matrix
    scaled = (q @ k.transpose(0, 2, 1)) / (np.sqrt(d_head) * 1.0)  # (heads, n, n), the scale attention divides by
    weights = softmax(np.where(~allowed, -np.inf, scaled), axis=-1)  # (heads, n, n); exp(-inf) = 0 exactly
    return weights, (weights @ v).astype(np.float32)  # (heads, n, d_head)


def removed_key(n: int, removed: int | None) -> np.ndarray | None:
    """The allow mask (n, n) that takes token ``removed`` away as a key from every query (None: nothing removed)."""
    if removed is None:
        return None
    mask = np.ones((n, n), dtype=bool)
    mask[:, removed] = False
    return mask


def out_grams(out_weight: np.ndarray, heads: int) -> np.ndarray:
    """Each head's slice of the output projection times its own transpose, W_O^h W_O^hᵀ, in float64: (heads, d_head,
    d_head). Made once, when a model loads, so that value_norms costs d_head² a key instead of d_head · d_model.

    out_weight: (heads · d_head, d_model), whose rows h·d_head … (h+1)·d_head take head h's output.
    """
    per_head = out_weight.reshape(heads, -1, out_weight.shape[1]).astype(np.float64)  # (heads, d_head, d_model)
    return per_head @ per_head.transpose(0, 2, 1)  # (heads, d_head, d_head)


def value_norms(v: np.ndarray, grams: np.ndarray) -> np.ndarray:
    """‖v_j W_O^h‖ for every head h and key j (Kobayashi et al. 2020): how large a vector key j hands on through h.

    v: (heads, n, d_head), what went into attention; grams: out_grams of the output projection. ‖v W‖² = v (W Wᵀ) vᵀ,
    in float64. Returns (heads, n), float32.
    """
    v = v.astype(np.float64)  # (heads, n, d_head)
    squares = np.einsum("hnd,hnd->hn", v @ grams, v)  # (heads, n)
    return np.sqrt(np.maximum(squares, 0.0)).astype(np.float32)


def stack_layers(per_layer: list[tuple[np.ndarray, ...]]) -> dict[str, np.ndarray]:
    """[(weights, q, k, v, value_norms) of each layer] -> {"attention", "q", "k", "v", "value_norms"}, each
    (layers, heads, ...)."""
    names = ("attention", "q", "k", "v", "value_norms")
    return {name: np.stack(arrays) for name, arrays in zip(names, zip(*per_layer, strict=True), strict=True)}
