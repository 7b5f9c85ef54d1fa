"""The numpy building blocks, each against an independent statement of what it should compute."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnviz import attention
from attnviz.models.gguf_convert import unpermute_rows
from attnviz.models.layers import (
    attend_heads,
    erf,
    gelu,
    merge_heads,
    removed_key,
    rope_tables,
    rotate,
    silu,
    split_heads,
)


def test_erf_is_within_2e_7_of_math_erf():
    x = np.linspace(-6, 6, 2001)
    assert np.abs(erf(x) - np.array([math.erf(v) for v in x])).max() < 2e-7


def test_gelu_is_the_exact_form_in_float32():
    x = np.linspace(-8, 8, 1001).astype(np.float32)
    expected = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x.astype(float)])
    assert gelu(x).dtype == np.float32
    np.testing.assert_allclose(gelu(x), expected, atol=1e-6)


def test_silu_does_not_overflow():
    x = np.array([-1e4, -20.0, 0.0, 1.0, 20.0, 1e4], dtype=np.float32)
    expected = [v / (1 + math.exp(-v)) if v > -700 else 0.0 for v in x.astype(float)]
    np.testing.assert_allclose(silu(x), expected, rtol=1e-6, atol=1e-37)
    assert silu(x).dtype == np.float32


def llama_cpp_permute(weight: np.ndarray, n_heads: int) -> np.ndarray:
    """What llama.cpp's convert_hf_to_gguf.py does to q_proj and k_proj, restated."""
    return (
        weight.reshape(n_heads, 2, weight.shape[0] // n_heads // 2, *weight.shape[1:])
        .swapaxes(1, 2)
        .reshape(weight.shape)
    )


@pytest.mark.parametrize("n_heads", [1, 3, 9])
def test_unpermute_undoes_llama_cpp(n_heads):
    weight = np.random.default_rng(n_heads).standard_normal((n_heads * 8, 5))
    np.testing.assert_array_equal(unpermute_rows(llama_cpp_permute(weight, n_heads), n_heads), weight)


def test_unpermute_puts_each_pair_back_into_two_halves():
    stored = np.arange(8.0)[:, None]  # one head of width 8, as llama.cpp orders it: pairs (0, 4), (1, 5), ...
    np.testing.assert_array_equal(unpermute_rows(stored, 1)[:, 0], [0, 2, 4, 6, 1, 3, 5, 7])


def test_rope_turns_pairs_without_changing_lengths():
    cos, sin = rope_tables(6, 8, base=100.0)
    x = np.random.default_rng(0).standard_normal((2, 6, 8)).astype(np.float32)  # (heads, n, d_head)
    turned = rotate(x, cos, sin)
    np.testing.assert_array_equal(turned[:, 0], x[:, 0])  # position 0 is not turned
    pair_lengths = lambda y: np.hypot(y[..., :4], y[..., 4:])  # noqa: E731
    np.testing.assert_allclose(pair_lengths(turned), pair_lengths(x), rtol=1e-5)
    # Pair 0 turns by one radian per position: position 2 by 2 radians.
    angle = np.arctan2(turned[0, 2, 4], turned[0, 2, 0]) - np.arctan2(x[0, 2, 4], x[0, 2, 0])
    assert math.remainder(angle - 2.0, 2 * math.pi) == pytest.approx(0.0, abs=1e-5)


def test_rope_scores_depend_only_on_the_distance():
    cos, sin = rope_tables(10, 8, base=100.0)
    q, k = np.random.default_rng(1).standard_normal((2, 1, 1, 8)).astype(np.float32)
    at = lambda v, p: rotate(np.repeat(v, 10, axis=1), cos, sin)[0, p]  # noqa: E731
    assert at(q, 5) @ at(k, 2) == pytest.approx(at(q, 8) @ at(k, 5), rel=1e-4)


def test_split_and_merge_heads_are_inverse():
    x = np.arange(24.0).reshape(2, 12)  # (n, heads · d_head)
    heads = split_heads(x, 3)  # (3, 2, 4)
    np.testing.assert_array_equal(heads[1], [[4, 5, 6, 7], [16, 17, 18, 19]])
    np.testing.assert_array_equal(merge_heads(heads), x)


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("removed", [None, 0, 3])
@pytest.mark.parametrize(("n", "d_head"), [(5, 6), (1, 8), (32, 64)])
def test_attend_heads_is_attention_head_by_head_bit_for_bit(causal, removed, n, d_head):
    rng = np.random.default_rng(n + d_head)
    q, k, v = (rng.standard_normal((4, n, d_head)).astype(np.float32) * 4 for _ in range(3))  # (heads, n, d_head)
    mask = removed_key(n, removed if removed is None or removed < n else None)
    weights, outputs = attend_heads(q, k, v, causal=causal, mask=mask)
    for head in range(4):
        result = attention(q[head], k[head], v[head], causal=causal, mask=mask)
        np.testing.assert_array_equal(weights[head], result.weights)
        np.testing.assert_array_equal(outputs[head], result.output.astype(np.float32))  # as the pass goes on
