import os
import subprocess
import sys

import numpy as np
import pytest

from attnviz import AttnvizInputError, multi_head_attention
from attnviz.core import random as heads
from attnviz.core.random import random_qkv, word_qkv


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


def test_a_seed_makes_the_same_numbers_in_every_version():
    """A share link carries only the seed, so these numbers may never change: a link made today must show the same
    vectors after an upgrade. Q, K and V come from three different streams, and so do the four weights."""
    Q, K, V = heads.random_qkv(2, 3, 2, 42)
    np.testing.assert_allclose(Q[0], [0.30471707975443135, -1.0399841062404955, 0.7504511958064572], rtol=1e-14)
    np.testing.assert_allclose(K[0], [-0.37361989538310314, 1.046161179441355, 0.45588016397365483], rtol=1e-14)
    np.testing.assert_allclose(V[0], [-0.5809873101775992, -1.026723639668622], rtol=1e-14)
    assert not np.array_equal(heads.random_qkv(2, 2, 2, 42)[1], heads.random_qkv(2, 2, 2, 42)[2])  # K is not V
    np.testing.assert_array_equal(
        heads.random_embeddings(12, 8, 0)[0], [0.13, -0.13, 0.64, 0.1, -0.54, 0.36, 1.3, 0.95]
    )
    W_q, W_k, W_v, W_o = heads.random_projections(2, 7)
    np.testing.assert_allclose(
        W_q, [[0.24562186214474355, -1.6531139413152613], [-0.2396086715478151, -0.48301673629166536]], rtol=1e-14
    )
    np.testing.assert_allclose(W_k[0], [0.12382833050537137, -0.36112507705559577], rtol=1e-14)
    np.testing.assert_allclose(W_v[0], [-1.1789442882109198, 0.04516652462524103], rtol=1e-14)
    np.testing.assert_allclose(W_o[0], [0.8479896145350198, 0.21280168119632256], rtol=1e-14)
    for first, again in zip(heads.random_projections(3, 11), heads.random_projections(3, 11), strict=True):
        np.testing.assert_array_equal(first, again)


def test_one_token_and_one_dimension_are_enough():
    Q, K, V = heads.random_qkv(1, 1, 1, 0)
    assert Q.shape == K.shape == V.shape == (1, 1)
    assert heads.random_embeddings(1, 1, 0).shape == (1, 1)
    assert [W.shape for W in heads.random_projections(1, 0)] == [(1, 1)] * 4


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: heads.check_seed(True), "The seed must be a whole number 0 or above, not True."),
        (lambda: heads.check_seed(1.5), "The seed must be a whole number 0 or above, not 1.5."),
        (lambda: heads.check_seed("3"), "The seed must be a whole number 0 or above, not '3'."),
        (lambda: heads.random_qkv(2, 0, 2, 1), "Random vectors need at least one token and one dimension."),
        (lambda: heads.random_qkv(2, 2, 0, 1), "Random vectors need at least one token and one dimension."),
        (lambda: heads.random_embeddings(0, 2, 1), "Embeddings need at least one token and one dimension."),
        (lambda: heads.random_embeddings(2, 0, 1), "Embeddings need at least one token and one dimension."),
        (lambda: heads.random_projections(0, 1), "d_model must be between 1 and 32, not 0."),
    ],
)
def test_refusals_read_exactly(call, message):
    with pytest.raises(AttnvizInputError) as caught:
        call()
    assert str(caught.value) == message


def test_word_vectors_belong_to_the_words_not_to_their_positions():
    Q, K, V = word_qkv(("The", "cat", "saw", "the", "dog"), 3, 2, seed=42)
    np.testing.assert_array_equal(Q[0], Q[3])  # "The" and "the": one word, compared without case
    np.testing.assert_array_equal(V[0], V[3])
    assert not np.array_equal(Q[1], Q[4]) and not np.array_equal(Q[0], K[0])  # each word and matrix its own
    moved, _, _ = word_qkv(("dog", "The"), 3, 2, seed=42)
    np.testing.assert_array_equal(moved, Q[[4, 0]])  # a word keeps its vector wherever it stands
    assert not np.array_equal(word_qkv(("dog",), 3, 2, seed=7)[0][0], Q[4])  # another seed, other vectors
    by_position, _, _ = random_qkv(5, 3, 2, seed=42)
    assert not np.array_equal(Q, by_position)


def test_word_vectors_are_the_same_in_every_process():
    """Seeded by a digest of the text, never by Python's salted hash: a link opens with the same vectors anywhere."""
    code = "from attnviz.core.random import word_qkv; print(word_qkv(('attention', 'Dog'), 2, 1, seed=0)[0].tolist())"
    runs = {
        subprocess.run(
            [sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": salt}, capture_output=True, text=True
        ).stdout
        for salt in ("1", "2")
    }
    assert runs == {f"{word_qkv(('attention', 'Dog'), 2, 1, seed=0)[0].tolist()}\n"}
