import numpy as np
import pytest

from attnviz import AttnvizInputError, multi_head_attention
from attnviz.core import random as heads


def test_same_seed_same_numbers_and_fan_in_scale():
    np.testing.assert_array_equal(heads.random_embeddings(3, 4, 7), heads.random_embeddings(3, 4, 7))
    W_q, W_k, W_v, W_o = heads.random_projections(32, 0)
    assert W_q.shape == W_o.shape == (32, 32) and not np.array_equal(W_q, W_k)
    assert np.std(W_q) == pytest.approx(1 / np.sqrt(32), rel=0.1)
    _, _, W_v, W_o = heads.random_projections(8, 0, d_k=3, d_v=5)
    assert W_v.shape == (8, 5) and W_o.shape == (5, 8)


def test_tied_query_and_key_projections_give_symmetric_scores():
    X = heads.random_embeddings(6, 8, 1)
    W_q, W_k, W_v, W_o = heads.random_projections(8, 1, tie_qk=True)
    assert W_k is W_q
    for n_heads in (1, 2, 4):
        for head in multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads).heads:
            np.testing.assert_allclose(head.scores, head.scores.T, atol=1e-12)
            assert not np.allclose(head.weights, head.weights.T)  # softmax normalises rows, not columns
    untied = multi_head_attention(X, *heads.random_projections(8, 1), 2)
    assert np.abs(untied.heads[0].scores - untied.heads[0].scores.T).max() > 0.1


def test_bad_sizes_and_seeds():
    with pytest.raises(AttnvizInputError, match="between 1 and 32"):
        heads.random_projections(33, 0)
    with pytest.raises(AttnvizInputError, match="seed"):
        heads.random_embeddings(2, 2, -1)


def test_rounded_embeddings_hold_no_negative_zero():
    """Rounding −0.004 gives −0.0, which an editable cell would print as "-0". Seed 0 has one at row 6, column 5."""
    X = heads.random_embeddings(12, 8, 0)
    assert X[6, 4] == 0 and not np.signbit(X[6, 4])
    for seed in range(20):
        X = heads.random_embeddings(12, 32, seed)
        assert not (np.signbit(X) & (X == 0)).any()


def test_rounded_random_vectors_hold_no_negative_zero():
    found = 0
    for seed in range(40):
        for M in heads.random_qkv(12, 8, 8, seed, decimals=2):
            assert not (np.signbit(M) & (M == 0)).any()
            found += int((M == 0).sum())
    assert found > 0  # rounding does make zeros here (from numbers in (−0.005, 0.005)): the test would see a −0
