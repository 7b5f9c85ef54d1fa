"""Backpropagation against central finite differences, in float64: every layer alone, then the whole model."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz.train import layers
from attnviz.train.config import VOCAB_SIZE
from attnviz.train.model import backward, forward
from tests.reference import naive_attention

TOLERANCE = 1e-6
STEP = 1e-6
B, N, D = 5, 7, 8


def numerical_gradient(objective, array: np.ndarray) -> np.ndarray:
    """d objective / d array, one entry at a time by central differences (the array is restored after each)."""
    gradient = np.zeros_like(array)
    for index in np.ndindex(array.shape):
        original = array[index]
        array[index] = original + STEP
        above = objective()
        array[index] = original - STEP
        below = objective()
        array[index] = original
        gradient[index] = (above - below) / (2 * STEP)
    return gradient


def relative_error(analytic: np.ndarray, numeric: np.ndarray) -> float:
    assert np.linalg.norm(analytic) > 1e-8, "a zero gradient would pass trivially"
    return float(np.linalg.norm(analytic - numeric) / (np.linalg.norm(analytic) + np.linalg.norm(numeric)))


def assert_gradients_match(objective, arrays: dict[str, np.ndarray], analytic: dict[str, np.ndarray]) -> None:
    errors = {
        name: relative_error(analytic[name], numerical_gradient(objective, array)) for name, array in arrays.items()
    }
    assert all(error <= TOLERANCE for error in errors.values()), errors


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def random_params(rng) -> dict[str, np.ndarray]:
    """Every parameter random and non-zero (the real initial W_q is zero, which would hide W_k's gradient)."""
    return {
        "token_embedding": rng.normal(0, 0.5, (VOCAB_SIZE, D)),
        "position_embedding": rng.normal(0, 0.5, (N, D)),
        "W_q": rng.normal(0, 0.5, (D, D)),
        "W_k": rng.normal(0, 0.5, (D, D)),
        "W_v": rng.normal(0, 0.5, (D, D)),
        "norm_gain": rng.normal(1, 0.2, D),
        "norm_bias": rng.normal(0, 0.2, D),
        "readout_weight": rng.normal(0, 0.5, D),
        "readout_bias": rng.normal(0, 0.2, 1),
    }


def test_embedding_backward(rng):
    tokens = rng.integers(0, 4, (B, N))  # few distinct ids, so a token repeats and its gradients must add up
    token_table, position_table = rng.normal(size=(VOCAB_SIZE, D)), rng.normal(size=(N, D))
    upstream = rng.normal(size=(B, N, D))

    def objective():
        X, _ = layers.embedding_forward(tokens, token_table, position_table)
        return float(np.sum(X * upstream))

    d_token, d_position = layers.embedding_backward(upstream, tokens, VOCAB_SIZE)
    used = np.unique(tokens)
    assert_gradients_match(
        objective,
        {"token table": token_table, "positions": position_table},
        {"token table": d_token, "positions": d_position},
    )
    assert not d_token[np.setdiff1d(np.arange(VOCAB_SIZE), used)].any()  # unseen tokens get no gradient


def test_attention_backward(rng):
    X = rng.normal(size=(B, N, D))
    W_q, W_k, W_v = (rng.normal(0, 0.5, (D, D)) for _ in range(3))
    upstream = rng.normal(size=(B, D))

    def objective():
        output, _, _ = layers.attention_forward(X, W_q, W_k, W_v)
        return float(np.sum(output * upstream))

    _, _, cache = layers.attention_forward(X, W_q, W_k, W_v)
    dX, dW_q, dW_k, dW_v = layers.attention_backward(upstream, cache, W_q, W_k, W_v)
    assert_gradients_match(
        objective, {"X": X, "W_q": W_q, "W_k": W_k, "W_v": W_v}, {"X": dX, "W_q": dW_q, "W_k": dW_k, "W_v": dW_v}
    )


def test_attention_forward_is_each_samples_own_cls_row(rng):
    """Batched over 70 samples (three attention() calls), each row equals that sample's naive [CLS] row alone."""
    X = rng.normal(size=(70, N, D))
    W_q, W_k, W_v = (rng.normal(0, 0.5, (D, D)) for _ in range(3))
    output, weights, _ = layers.attention_forward(X, W_q, W_k, W_v)
    for sample in (0, 31, 32, 69):
        Q, K, V = X[sample] @ W_q, X[sample] @ W_k, X[sample] @ W_v
        _, naive_weights, naive_output = naive_attention(Q.tolist(), K.tolist(), V.tolist())
        np.testing.assert_allclose(weights[sample], naive_weights[0], rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(output[sample], naive_output[0], rtol=1e-12, atol=1e-15)


def test_layernorm_backward(rng):
    x, gain, bias = rng.normal(size=(B, D)), rng.normal(1, 0.2, D), rng.normal(0, 0.2, D)
    upstream = rng.normal(size=(B, D))

    def objective():
        y, _ = layers.layernorm_forward(x, gain, bias)
        return float(np.sum(y * upstream))

    _, cache = layers.layernorm_forward(x, gain, bias)
    dx, d_gain, d_bias = layers.layernorm_backward(upstream, cache, gain)
    assert_gradients_match(objective, {"x": x, "gain": gain, "bias": bias}, {"x": dx, "gain": d_gain, "bias": d_bias})


def test_layernorm_forward_normalises_each_row(rng):
    x = rng.normal(3, 2, (B, D))
    y, _ = layers.layernorm_forward(x, np.full(D, 2.0), np.full(D, 0.5))
    np.testing.assert_allclose(y.mean(axis=1), 0.5, atol=1e-12)
    variance = x.var(axis=1)
    np.testing.assert_allclose(y.var(axis=1), 4 * variance / (variance + layers.LAYERNORM_EPSILON), rtol=1e-12)


def test_readout_backward(rng):
    h, w, b = rng.normal(size=(B, D)), rng.normal(size=D), rng.normal(size=1)
    labels = np.array([1.0, 0.0, 0.0, 1.0, 0.0])

    def objective():
        loss, _, _ = layers.readout_forward(h, w, b, labels)
        return loss

    _, _, cache = layers.readout_forward(h, w, b, labels)
    dh, dw, db = layers.readout_backward(cache, w)
    assert_gradients_match(objective, {"h": h, "w": w, "b": b}, {"h": dh, "w": dw, "b": db})


def test_readout_loss_is_binary_cross_entropy():
    h = np.array([[0.0, 2.0], [1.0, -1.0], [800.0, 0.0]])  # the last logit is huge: no overflow, no log(0)
    w, b = np.array([1.0, 0.5]), np.array([-0.25])
    loss, probabilities, _ = layers.readout_forward(h, w, b, np.array([1.0, 0.0, 0.0]))
    logits = [0.75, 0.25, 799.75]
    sigmoid = [1 / (1 + np.exp(-0.75)), 1 / (1 + np.exp(-0.25)), 1.0]
    np.testing.assert_allclose(probabilities, sigmoid, rtol=1e-15)
    expected = (-np.log(sigmoid[0]) - np.log(1 - sigmoid[1]) + logits[2]) / 3  # -log(1 - σ(z)) ≈ z for huge z
    assert loss == pytest.approx(expected, rel=1e-14)


def test_whole_model_gradient_for_every_parameter(rng):
    params = random_params(rng)
    tokens = rng.integers(1, VOCAB_SIZE, (B, N))
    tokens[:, 0] = 0
    tokens[1, 3] = tokens[1, 5]  # a repeated token inside one sample
    labels = np.array([1.0, 0.0, 1.0, 0.0, 0.0])

    def objective():
        loss, _, _, _ = forward(params, tokens, labels)
        return loss

    _, _, _, caches = forward(params, tokens, labels)
    grads = backward(params, caches)
    assert set(grads) == set(params)
    assert_gradients_match(objective, params, grads)
