import math
import warnings

import numpy as np
import pytest

from attnviz import AttnvizInputError, random_qkv
from attnviz.lessons import scaling
from tests.reference import naive_attention


def test_variance_at_dk_64_is_near_64_raw_and_1_scaled():
    """Seed 0, 4,000 pairs: the sampling error of a variance is about √(2/4000) ≈ 2.2 %, so 10 % is ≥ 4 errors."""
    curve = scaling.score_variance([64], seed=0)
    assert curve.raw[0] == pytest.approx(64, rel=0.10)
    assert curve.scaled[0] == pytest.approx(1, rel=0.10)


def test_variance_grows_like_dk_across_the_grid():
    curve = scaling.score_variance(scaling.DK_GRID, seed=3)
    np.testing.assert_allclose(curve.raw / curve.dims, 1, rtol=0.12)
    np.testing.assert_allclose(curve.scaled, 1, rtol=0.12)


def test_variance_is_the_plain_variance_of_the_dot_products():
    """Against a loop over 300 pairs drawn as documented: dimension by dimension, q then k. The scaled variance is
    measured on the divided scores themselves, not derived from the raw one."""

    def variance(xs):
        mean = sum(xs) / len(xs)
        return sum((x - mean) ** 2 for x in xs) / len(xs)

    draw = np.random.default_rng(4).standard_normal((8, 2, 300))  # (dimension, q or k, pair)
    curve = scaling.score_variance([1, 3, 8], n_pairs=300, seed=4)
    for d_k in (1, 3, 8):
        scores = [sum(draw[t, 0, p] * draw[t, 1, p] for t in range(d_k)) for p in range(300)]
        assert curve.raw[scaling.position(curve.dims, d_k)] == pytest.approx(variance(scores), rel=1e-12)
        divided = [s / math.sqrt(d_k) for s in scores]
        assert curve.scaled[scaling.position(curve.dims, d_k)] == pytest.approx(variance(divided), rel=1e-12)


def test_one_draw_serves_every_width():
    """The variance at width 16 from a grid equals the one measured alone: widths share the same pairs."""
    alone = scaling.score_variance([16], seed=5).raw[0]
    in_grid = scaling.score_variance([4, 16, 256], seed=5).raw[1]
    assert alone == pytest.approx(in_grid)


def test_entropy_in_bits():
    np.testing.assert_allclose(scaling.entropy([[0.25] * 4, [1, 0, 0, 0], [0.5, 0.5, 0, 0]]), [2, 0, 1])
    np.testing.assert_array_equal(scaling.entropy([[1, 0], [0, 1]]), [0, 0])  # whole numbers work too


def test_zero_weights_count_as_zero_whatever_the_memory_held():
    """0·log 0 is taken as 0 by writing 0 where a weight is 0. Computing log2 only where the weight is positive,
    without that 0 written first, would leave those cells as whatever the memory held before; filling freed
    memory with NaN first makes such a slip visible."""
    for _ in range(20):
        leftovers = [np.full((3, 4), np.nan) for _ in range(8)]  # numpy keeps a few freed blocks of a size for reuse
        del leftovers
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # numpy also warns about `where` without `out`
            bits = scaling.entropy([[1.0, 0, 0, 0], [0.5, 0.5, 0, 0], [0.25] * 4])
        np.testing.assert_allclose(bits, [0, 1, 2])


def test_unscaled_softmax_saturates_and_scaled_does_not():
    curves = scaling.saturation([512, 1, 512], n_tokens=16, seed=0)
    np.testing.assert_array_equal(curves.dims, [1, 512])  # sorted, each once
    assert curves.entropy_raw[0] == curves.entropy_scaled[0]  # at d_k = 1 scaling divides by 1
    assert curves.entropy_raw[1] < 0.2 and curves.max_raw[1] > 0.95  # near one-hot
    assert curves.entropy_scaled[1] > 3.0 and curves.max_scaled[1] < 0.4  # log2 16 = 4 is uniform
    assert curves.uniform_entropy == 4.0


def test_one_row_matches_the_naive_reference():
    row = scaling.one_row(512, n_tokens=8, seed=1)
    Q, K, V = (M.tolist() for M in random_qkv(8, 512, 1, 1))
    np.testing.assert_allclose(row.scores, naive_attention(Q, K, V)[0][0], rtol=1e-12)
    np.testing.assert_allclose(row.scaled_weights, naive_attention(Q, K, V)[1][0], rtol=1e-9)
    np.testing.assert_allclose(row.raw_weights, naive_attention(Q, K, V, scale=False)[1][0], rtol=1e-9, atol=1e-300)
    assert row.raw_weights.max() > 0.99


def test_saturation_averages_every_row_like_a_loop():
    curves = scaling.saturation([4], n_tokens=5, seed=2)
    Q, K, V = (M.tolist() for M in random_qkv(5, 4, 1, 2))
    for scale, entropy, largest in (
        (True, curves.entropy_scaled, curves.max_scaled),
        (False, curves.entropy_raw, curves.max_raw),
    ):
        rows = naive_attention(Q, K, V, scale=scale)[1]
        bits = [-sum(w * math.log2(w) for w in row if w > 0) for row in rows]
        assert entropy[0] == pytest.approx(sum(bits) / 5, rel=1e-9)
        assert largest[0] == pytest.approx(sum(max(row) for row in rows) / 5, rel=1e-9)


@pytest.mark.parametrize("d_k", [0, 513])
def test_out_of_range_dk(d_k):
    with pytest.raises(AttnvizInputError, match="between 1 and 512"):
        scaling.score_variance([d_k])


@pytest.mark.parametrize("n_tokens", [1, 65])
def test_out_of_range_token_count(n_tokens):
    with pytest.raises(AttnvizInputError) as caught:
        scaling.saturation([1], n_tokens=n_tokens)
    assert str(caught.value) == f"The number of tokens must be between 2 and 64, not {n_tokens}."


@pytest.mark.parametrize("n_tokens", [2, 64])
def test_the_token_limits_themselves_are_allowed(n_tokens):
    curves = scaling.saturation([1], n_tokens=n_tokens)
    assert curves.n_tokens == n_tokens and curves.uniform_entropy == np.log2(n_tokens)


def test_page_words():
    assert scaling.uniform_text(16) == "log₂ 16 = 4.00 bits" and scaling.uniform_text(3) == "log₂ 3 = 1.58 bits"
    row = scaling.OneRow(scores=np.zeros(2), scaled_weights=np.array([0.6, 0.4]), raw_weights=np.array([0.99, 0.01]))
    assert scaling.row_text(row, 64) == (
        "Unscaled, query 0's largest weight is **0.990**; scaled, it is **0.600**. Slide d_k up and watch the "
        "unscaled row collapse onto one key."
    )
    assert scaling.row_text(row, 512).endswith("d_k = 512 is the slider's largest: slide it down and watch the "
                                                "unscaled row spread out again.")  # fmt: skip
    assert scaling.position(np.array([1, 2, 64, 100]), 64) == 2
