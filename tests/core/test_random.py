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
