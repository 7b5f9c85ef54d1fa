import numpy as np
import pytest

from attnviz import AttnvizInputError, attention, random_qkv
from attnviz.lessons import scaling


def test_variance_at_dk_64_is_near_64_raw_and_1_scaled():
    """Seed 0, 4,000 pairs: the sampling error of a variance is about √(2/4000) ≈ 2.2 %, so 10 % is ≥ 4 errors."""
    curve = scaling.score_variance([64], seed=0)
    assert curve.raw[0] == pytest.approx(64, rel=0.10)
    assert curve.scaled[0] == pytest.approx(1, rel=0.10)


def test_variance_grows_like_dk_across_the_grid():
    curve = scaling.score_variance(scaling.DK_GRID, seed=3)
    np.testing.assert_allclose(curve.raw / curve.dims, 1, rtol=0.12)
    np.testing.assert_allclose(curve.scaled, 1, rtol=0.12)
    np.testing.assert_allclose(curve.scaled, curve.raw / curve.dims)


def test_one_draw_serves_every_width():
    """The variance at width 16 from a grid equals the one measured alone: widths share the same pairs."""
    alone = scaling.score_variance([16], seed=5).raw[0]
    in_grid = scaling.score_variance([4, 16, 256], seed=5).raw[1]
    assert alone == pytest.approx(in_grid)


def test_entropy_in_bits():
    np.testing.assert_allclose(scaling.entropy([[0.25] * 4, [1, 0, 0, 0], [0.5, 0.5, 0, 0]]), [2, 0, 1])


def test_unscaled_softmax_saturates_and_scaled_does_not():
    curves = scaling.saturation([1, 512], n_tokens=16, seed=0)
    assert curves.entropy_raw[0] == curves.entropy_scaled[0]  # at d_k = 1 scaling divides by 1
    assert curves.entropy_raw[1] < 0.2 and curves.max_raw[1] > 0.95  # near one-hot
    assert curves.entropy_scaled[1] > 3.0 and curves.max_scaled[1] < 0.4  # log2 16 = 4 is uniform
    assert curves.uniform_entropy == 4.0


def test_one_row_matches_the_core():
    row = scaling.one_row(512, n_tokens=8, seed=1)
    Q, K, V = random_qkv(8, 512, 1, 1)
    np.testing.assert_allclose(row.scaled_weights, attention(Q, K, V).weights[0])
    np.testing.assert_allclose(row.raw_weights, attention(Q, K, V, scale=False).weights[0])
    assert row.raw_weights.max() > 0.99


@pytest.mark.parametrize("d_k", [0, 513])
def test_out_of_range_dk(d_k):
    with pytest.raises(AttnvizInputError, match="between 1 and 512"):
        scaling.score_variance([d_k])
