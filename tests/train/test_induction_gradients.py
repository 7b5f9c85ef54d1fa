"""The induction model's backpropagation against central finite differences, in float64: each layer, then the whole."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz.train import induction_model as model
from attnviz.train.induction import InductionConfig
from tests.reference import naive_attention
from tests.train.test_gradients import assert_gradients_match

B, N, D, H = 3, 6, 4, 2  # d = 4 split into two heads of width 2
CONFIG = InductionConfig(layers=2, heads=H, d_model=D, vocab_size=5, seq_len=N // 2)


@pytest.fixture
def rng():
    return np.random.default_rng(55)


def random_layer(rng):
    return [rng.normal(0, 0.7, (H, D, D // H)) for _ in range(3)] + [rng.normal(0, 0.7, (H, D // H, D))]


@pytest.mark.parametrize("head_on", [(1.0, 1.0), (0.0, 1.0)], ids=["both heads", "head 0 knocked out"])
def test_attention_layer_backward(rng, head_on):
    X, weights, upstream = rng.normal(size=(B, N, D)), random_layer(rng), rng.normal(size=(B, N, D))
    head_on = np.array(head_on)

    def objective():
        Y, _, _ = model.attention_layer_forward(X, *weights, head_on)
        return float(np.sum(Y * upstream))

    _, _, cache = model.attention_layer_forward(X, *weights, head_on)
    dX, *d_weights = model.attention_layer_backward(upstream, cache, *weights)
    names = ["X", *model.HEAD_WEIGHTS]
    assert_gradients_match(
        objective, dict(zip(names, [X, *weights], strict=True)), dict(zip(names, [dX, *d_weights], strict=True))
    )
    for d_weight in d_weights:  # nothing flows into a knocked-out head, and the other head still learns
        assert d_weight[0].any() == bool(head_on[0]) and d_weight[1].any()


def test_attention_layer_forward_is_each_heads_causal_attention(rng):
    """Every head of every sequence equals the reference attention with the causal mask, plus the residual."""
    X, (W_q, W_k, W_v, W_o) = rng.normal(size=(B, N, D)), random_layer(rng)
    Y, weights, _ = model.attention_layer_forward(X, W_q, W_k, W_v, W_o, np.ones(H))
    for b in range(B):
        total = X[b].copy()
        for h in range(H):
            Q, K, V = X[b] @ W_q[h], X[b] @ W_k[h], X[b] @ W_v[h]
            _, naive_weights, naive_output = naive_attention(Q.tolist(), K.tolist(), V.tolist(), causal=True)
            np.testing.assert_allclose(weights[b, h], naive_weights, rtol=1e-12, atol=1e-15)
            total += np.asarray(naive_output) @ W_o[h]
        np.testing.assert_allclose(Y[b], total, rtol=1e-12)


def test_unembedding_backward(rng):
    X, W_u = rng.normal(size=(B, N, D)), rng.normal(size=(D, 5))
    tokens = rng.integers(0, 5, (B, N))

    def objective():
        return model.unembedding_forward(X, W_u, tokens)[0]

    *_, cache = model.unembedding_forward(X, W_u, tokens)
    dX, dW_u = model.unembedding_backward(cache, W_u)
    assert_gradients_match(objective, {"X": X, "W_u": W_u}, {"X": dX, "W_u": dW_u})
    assert not dX[:, -1].any()  # the last position predicts nothing


def test_unembedding_loss_is_cross_entropy_of_the_next_token():
    X = np.array([[[0.0, 1.0], [2.0, 0.0], [5.0, 5.0]]])  # (1, 3, 2)
    W_u = np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]])  # (2, 3)
    loss, losses, _, _ = model.unembedding_forward(X, W_u, np.array([[0, 2, 1]]))
    first = np.log(np.exp([0.0, 1.0, 0.0]).sum()) - 0.0  # logits (0, 1, 0), target 2
    second = np.log(np.exp([2.0, 0.0, -2.0]).sum()) - 0.0  # logits (2, 0, -2), target 1
    np.testing.assert_allclose(losses, [[first, second]], rtol=1e-14)
    assert loss == pytest.approx((first + second) / 2, rel=1e-14)


def test_whole_model_gradient_for_every_parameter(rng):
    params, _ = model.init_params(rng, CONFIG)
    params = {name: value + rng.normal(0, 0.3, value.shape) for name, value in params.items()}  # off the start
    tokens = rng.integers(0, CONFIG.vocab_size, (B, N))
    head_on = np.ones((CONFIG.layers, H))

    def objective():
        return model.forward(params, tokens, head_on)[0]

    grads = model.backward(params, model.forward(params, tokens, head_on)[-1])
    assert set(grads) == set(params)
    assert_gradients_match(objective, params, grads)
