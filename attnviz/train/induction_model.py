"""The induction experiment's attention-only transformer: its layers (each a forward and a backward function),
its starting weights and one training step.

Shapes: B sequences, n positions, d = d_model, H heads of width e = d_model / H, V tokens in the vocabulary. A
forward function returns its output and a cache; a backward function takes the gradient of the loss with respect
to the output and returns the gradients with respect to its inputs and parameters. There is no MLP and no
normalisation: what the model knows about earlier tokens reaches a position only through attention.

Parameters live in one dict of float64 arrays (``embedding.token``, ``layer0.W_q``, …, ``unembedding``), so the
optimiser (attnviz.train.model.Adam) and the gradient check walk over them by name.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from attnviz.core.attention import causal_mask, softmax
from attnviz.train import layers
from attnviz.train.model import Adam

Params = dict[str, np.ndarray]
HEAD_WEIGHTS = ("W_q", "W_k", "W_v", "W_o")


@lru_cache(maxsize=4)
def _future(n: int) -> np.ndarray:
    """(n, n) bool: True where key j comes after query i, which a causal head may not see."""
    future = ~causal_mask(n)
    future.flags.writeable = False
    return future


# ---------------------------------------------------------------- causal multi-head attention with its residual


def attention_layer_forward(X, W_q, W_k, W_v, W_o, head_on):
    """X (B, n, d); W_q, W_k, W_v (H, d, e); W_o (H, e, d); head_on (H,) 1.0 or 0.0 (knocked out: output zeroed).

    -> Y = X + Σ_h head_on[h] · softmax(mask(Q_h K_hᵀ / √e)) V_h W_o[h]   (B, n, d), weights (B, H, n, n), cache.
    """
    scale = np.sqrt(W_q.shape[-1])
    Xh = X[:, None, :, :]  # (B, 1, n, d) broadcast over heads
    Q, K, V = Xh @ W_q, Xh @ W_k, Xh @ W_v  # (B, H, n, e)
    scores = Q @ K.transpose(0, 1, 3, 2) / scale  # (B, H, n, n)
    weights = softmax(np.where(_future(X.shape[1]), -np.inf, scores))  # (B, H, n, n), 0 on the future
    Z = (weights @ V) * head_on[None, :, None, None]  # (B, H, n, e) a knocked-out head hands on nothing
    Y = X + (Z @ W_o).sum(axis=1)  # (B, n, d) the residual stream plus every head's output
    return Y, weights, (X, Q, K, V, weights, Z, head_on, scale)


def attention_layer_backward(dY, cache, W_q, W_k, W_v, W_o):
    """dY (B, n, d) -> dX (B, n, d), dW_q, dW_k, dW_v (H, d, e), dW_o (H, e, d)."""
    X, Q, K, V, weights, Z, head_on, scale = cache
    B, n, d = X.shape
    dZ = (dY[:, None, :, :] @ W_o.transpose(0, 2, 1)) * head_on[None, :, None, None]  # (B, H, n, e)
    dW_o = Z.transpose(1, 3, 0, 2).reshape(len(W_o), -1, B * n) @ dY.reshape(B * n, d)  # (H, e, d)
    d_weights = dZ @ V.transpose(0, 1, 3, 2)  # (B, H, n, n)
    dV = weights.transpose(0, 1, 3, 2) @ dZ  # (B, H, n, e)
    # softmax backward (ds_j = w_j (dw_j - Σ_k w_k dw_k)), then through the division by √e; the future's w is 0
    d_scores = weights * (d_weights - (d_weights * weights).sum(axis=-1, keepdims=True)) / scale  # (B, H, n, n)
    dQ = d_scores @ K  # (B, H, n, e)
    dK = d_scores.transpose(0, 1, 3, 2) @ Q  # (B, H, n, e)
    flat_X = X.reshape(B * n, d).T  # (d, B*n)

    def by_head(dA):  # (B, H, n, e) -> (H, B*n, e)
        return dA.transpose(1, 0, 2, 3).reshape(len(W_o), B * n, -1)

    dX = dY + sum(
        (dA @ W.transpose(0, 2, 1)).sum(axis=1) for dA, W in ((dQ, W_q), (dK, W_k), (dV, W_v))
    )  # (B, n, d) the residual path plus each projection's
    return dX, flat_X @ by_head(dQ), flat_X @ by_head(dK), flat_X @ by_head(dV), dW_o


# ---------------------------------------------------------------- unembedding and next-token cross-entropy


def unembedding_forward(X, W_u, tokens):
    """X (B, n, d), W_u (d, V), tokens (B, n) -> mean loss over every next-token prediction, the loss of each
    (B, n-1), logits (B, n, V), cache. Position i predicts token i+1; the last position predicts nothing."""
    logits = X @ W_u  # (B, n, V)
    predicting = logits[:, :-1, :]  # (B, n-1, V)
    peak = predicting.max(axis=-1, keepdims=True)
    log_total = peak[..., 0] + np.log(np.exp(predicting - peak).sum(axis=-1))  # (B, n-1) log Σ exp
    targets = tokens[:, 1:]  # (B, n-1)
    losses = log_total - np.take_along_axis(predicting, targets[..., None], axis=-1)[..., 0]  # (B, n-1)
    return float(losses.mean()), losses, logits, (X, predicting, targets)


def unembedding_backward(cache, W_u):
    """Gradient of the mean loss -> dX (B, n, d), dW_u (d, V)."""
    X, predicting, targets = cache
    d_logits = np.zeros((*X.shape[:2], W_u.shape[1]))  # (B, n, V) the last position gets none
    d_predicting = softmax(predicting)  # (B, n-1, V) softmax minus the one-hot target, per prediction
    np.put_along_axis(
        d_predicting, targets[..., None], np.take_along_axis(d_predicting, targets[..., None], -1) - 1, -1
    )
    d_logits[:, :-1, :] = d_predicting / targets.size
    d, B_n = X.shape[-1], X.shape[0] * X.shape[1]
    return d_logits @ W_u.T, X.reshape(B_n, d).T @ d_logits.reshape(B_n, -1)


# ---------------------------------------------------------------- the whole model


def layer_weights(params: Params, layer: int) -> tuple[np.ndarray, ...]:
    return tuple(params[f"layer{layer}.{name}"] for name in HEAD_WEIGHTS)


def forward(params: Params, tokens: np.ndarray, head_on: np.ndarray):
    """tokens (B, n), head_on (L, H) of 1.0/0.0 -> mean loss, losses (B, n-1), logits (B, n, V),
    attention weights (L, B, H, n, n), caches."""
    positions = params["embedding.position"][: tokens.shape[1]]  # (n, d) a shorter sequence takes the first n
    X, embedding_cache = layers.embedding_forward(tokens, params["embedding.token"], positions)
    every_weights, layer_caches = [], []
    for layer, heads_on in enumerate(head_on):
        X, weights, cache = attention_layer_forward(X, *layer_weights(params, layer), heads_on)  # (B, n, d)
        every_weights.append(weights)
        layer_caches.append(cache)
    loss, losses, logits, unembedding_cache = unembedding_forward(X, params["unembedding"], tokens)
    return loss, losses, logits, np.stack(every_weights), (embedding_cache, layer_caches, unembedding_cache)


def backward(params: Params, caches) -> Params:
    """The gradient of forward's mean loss with respect to every parameter, by name."""
    embedding_cache, layer_caches, unembedding_cache = caches
    dX, d_unembedding = unembedding_backward(unembedding_cache, params["unembedding"])
    grads = {"unembedding": d_unembedding}
    for layer in reversed(range(len(layer_caches))):
        dX, *d_weights = attention_layer_backward(dX, layer_caches[layer], *layer_weights(params, layer))
        grads.update({f"layer{layer}.{name}": d for name, d in zip(HEAD_WEIGHTS, d_weights, strict=True)})
    vocab_size = params["embedding.token"].shape[0]
    grads["embedding.token"], d_positions = layers.embedding_backward(dX, embedding_cache, vocab_size)
    grads["embedding.position"] = np.zeros_like(params["embedding.position"])  # (2T, d) the positions not used get 0
    grads["embedding.position"][: len(d_positions)] = d_positions
    return grads


def init_params(rng: np.random.Generator, config) -> tuple[Params, Adam]:
    """Random starting weights for an InductionConfig, and the Adam optimiser that owns them."""
    d, H, V, n = config.d_model, config.heads, config.vocab_size, 2 * config.seq_len
    e = d // H
    params = {
        "embedding.token": rng.normal(0.0, 1.0, size=(V, d)),
        "embedding.position": rng.normal(0.0, 1.0, size=(n, d)),
        "unembedding": rng.normal(0.0, 1.0 / np.sqrt(d), size=(d, V)),
    }
    for layer in range(config.layers):
        for name in ("W_q", "W_k", "W_v"):
            params[f"layer{layer}.{name}"] = rng.normal(0.0, 1.0 / np.sqrt(d), size=(H, d, e))
        params[f"layer{layer}.W_o"] = rng.normal(0.0, 1.0 / np.sqrt(d), size=(H, e, d))
    return params, Adam(params, config.learning_rate)  # Adam turns every array into a view of its buffer


def train_step(params: Params, adam: Adam, batch: np.ndarray, head_on: np.ndarray) -> np.ndarray:
    """One optimiser step on a batch (B, n) -> each prediction's loss before the step (B, n-1)."""
    _, losses, _, _, caches = forward(params, batch, head_on)
    adam.update(backward(params, caches))
    return losses
