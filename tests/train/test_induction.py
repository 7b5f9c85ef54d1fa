"""The induction experiment's promises, measured on fresh sequences: two layers copy the repeated half through an induction head,
one layer cannot, and knocking out the circuit's heads breaks the copying. Each model trains once for the module."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnviz import AttnvizInputError
from attnviz.train.induction import InductionConfig, train_induction, validate_induction
from attnviz.train.induction_data import SHORTEST_REPEAT, Repeats, head_scores, repeated_sequences

SEED = 0
PLAIN_SEED = 2026  # the plain [r; r] sequences: r always T long, as the page draws one


@pytest.fixture(scope="module")
def two_layers():
    return train_induction(InductionConfig(seed=SEED))


@pytest.fixture(scope="module")
def one_layer():
    return train_induction(InductionConfig(layers=1, seed=SEED))


def fresh_sets(result) -> list[Repeats]:
    """Sequences drawn as the training ones are (held out), and plain [r; r] with r T long."""
    return [result.held_out, result.fresh(500, PLAIN_SEED, length=result.seq_len)]


def test_two_layers_copy_the_repeated_half_through_a_last_layer_head(two_layers):
    for repeats in fresh_sets(two_layers):
        assert two_layers.copy_accuracy(repeats=repeats) >= 0.9
        prefix, _, _ = two_layers.head_scores(repeats)
        assert prefix[-1, two_layers.best_head] >= 0.5  # mean weight on the token after the earlier copy


def test_one_layer_cannot_copy(one_layer):
    for repeats in fresh_sets(one_layer):
        assert one_layer.copy_accuracy(repeats=repeats) <= 0.5


def test_knocking_out_the_induction_head_or_the_first_layer_breaks_copying(two_layers):
    first_layer = [(0, head) for head in range(two_layers.config.heads)]
    for repeats in fresh_sets(two_layers):
        assert two_layers.copy_accuracy([(1, two_layers.best_head)], repeats) <= 0.3
        assert two_layers.copy_accuracy(first_layer, repeats) <= 0.5


def test_the_result_api(two_layers):
    config = two_layers.config
    assert (two_layers.vocab_size, two_layers.seq_len) == (config.vocab_size, config.seq_len)
    assert two_layers.finished and two_layers.steps == config.steps and two_layers.seconds > 0
    points = config.log_points + 1  # step 0 too
    assert (
        two_layers.log_steps[0] == 0
        and two_layers.log_steps[-1] == config.steps
        and len(two_layers.log_steps) == points
    )
    assert two_layers.first_half_loss.shape == two_layers.repeated_half_loss.shape == (points,)
    assert two_layers.prefix_matching.shape == (points, config.layers, config.heads)
    # the repeated half's loss falls far below the first half's, which stays near a guess among V tokens
    assert two_layers.repeated_half_loss[-1] < 1.0 < np.log(config.vocab_size) - 0.5 < two_layers.first_half_loss[-1]
    tokens = two_layers.fresh(1, 7, length=config.seq_len).tokens[0]  # (2T,)
    weights = two_layers.attention(tokens)
    n = 2 * config.seq_len
    assert weights.shape == (config.layers, config.heads, n, n)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=1e-12)
    assert not np.triu(weights, k=1).any()  # causal: no weight on a later token
    predicted = two_layers.next_token(tokens)
    assert predicted.shape == (n,) and predicted.dtype.kind == "i"
    np.testing.assert_array_equal(two_layers.next_token(tokens[:5]), predicted[:5])  # causal: a prefix alone
    knocked = two_layers.next_token(tokens, knocked_out=[(1, two_layers.best_head)])
    assert (predicted[config.seq_len : -1] == tokens[config.seq_len + 1 :]).mean() > (
        knocked[config.seq_len : -1] == tokens[config.seq_len + 1 :]
    ).mean()


def test_a_run_stops_when_asked():
    seen = []
    result = train_induction(
        InductionConfig(steps=40, log_points=4), lambda progress: seen.append(progress.step) or len(seen) < 2
    )
    assert seen == [0, 10] and result.steps == 10 and not result.finished


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 12), st.integers(4, 30), st.integers(1, 6))
def test_repeated_sequences_end_in_r_twice(seed, seq_len, vocab_size, count):
    config = InductionConfig(seq_len=seq_len, vocab_size=vocab_size)
    repeats = repeated_sequences(np.random.default_rng(seed), count, config)
    n = 2 * seq_len
    assert repeats.tokens.shape == (count, n) and ((repeats.tokens >= 0) & (repeats.tokens < vocab_size)).all()
    assert ((repeats.lengths >= min(SHORTEST_REPEAT, seq_len)) & (repeats.lengths <= seq_len)).all()
    for tokens, m in zip(repeats.tokens, repeats.lengths, strict=True):
        np.testing.assert_array_equal(tokens[n - m :], tokens[n - 2 * m : n - m])
    copyable, unknowable = repeats.copyable(), repeats.unknowable()
    np.testing.assert_array_equal(copyable.sum(axis=1), repeats.lengths - 1)  # the second copy but its last
    np.testing.assert_array_equal(unknowable.sum(axis=1), n - repeats.lengths - 1)
    assert not (copyable & unknowable).any()  # the first token of the second copy is in neither: it is r's first


def test_head_scores_of_a_perfect_circuit():
    """Hand-made heads attending to the previous token, to the token after the earlier copy and to the earlier copy
    score 1 on their own score and 0 on the others."""
    repeats = Repeats(np.array([[5, 1, 2, 3, 1, 2, 3]]), np.array([3]))
    n = 7
    previous, induction = np.zeros((n, n)), np.zeros((n, n))
    duplicate = np.zeros((n, n))
    previous[0, 0] = induction[0, 0] = duplicate[0, 0] = 1.0
    for i in range(1, n):
        previous[i, i - 1] = 1.0
        induction[i, i - 2 if i >= 4 else i] = 1.0  # i - m + 1 in the second copy
        duplicate[i, i - 3 if i >= 4 else i] = 1.0  # i - m
    weights = np.stack([previous, induction, duplicate])[:, None, None]  # (L=3, N=1, H=1, n, n)
    prefix, previous_score, duplicate_score = head_scores(weights, repeats)
    np.testing.assert_allclose(prefix[:, 0], [0.0, 1.0, 0.0])
    np.testing.assert_allclose(previous_score[:, 0], [1.0, 0.0, 0.0])
    np.testing.assert_allclose(duplicate_score[:, 0], [0.0, 0.0, 1.0])


@pytest.mark.parametrize(
    "change, words",
    [
        ({"layers": 3}, "number of layers"),
        ({"heads": 3}, "split evenly"),  # d_model 32
        ({"vocab_size": 2}, "vocabulary size"),
        ({"steps": 10**6}, "number of steps"),
        ({"seq_len": True}, "whole number"),
        ({"learning_rate": float("nan")}, "learning rate"),
    ],
)
def test_settings_that_cannot_train_are_refused_in_words(change, words):
    with pytest.raises(AttnvizInputError, match=words):
        validate_induction(InductionConfig(**change))


def test_a_bad_sequence_or_head_is_refused(two_layers):
    with pytest.raises(AttnvizInputError, match="tokens are whole numbers"):
        two_layers.next_token([0, 1, two_layers.vocab_size])
    with pytest.raises(AttnvizInputError, match="2 to"):
        two_layers.attention(list(range(2 * two_layers.seq_len + 1)))
    with pytest.raises(AttnvizInputError, match="no head"):
        two_layers.next_token([0, 1, 2], knocked_out=[(2, 0)])
