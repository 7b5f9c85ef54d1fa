"""The model's four layers, each a forward function and its backward function, on a batch of B samples.

Shapes: B samples, n = 7 positions, d = d_model, V = vocabulary size (51). A forward function returns its output and
a cache (what the backward function needs); a backward function takes the gradient of the loss with respect to the
output and returns the gradients with respect to the inputs and the parameters.

Only [CLS]'s vector reaches the loss, so the attention layer computes [CLS]'s row of the attention matrix and nothing
else: the other six rows would be computed and thrown away. The full 7×7 matrix of one sample is
``attention(*model.qkv(tokens))``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from attnviz import attention

LAYERNORM_EPSILON = 1e-5
ATTENTION_CHUNK = 32  # samples per attention() call; its block mask grows with the square of this


# ---------------------------------------------------------------- embedding: token + position


def embedding_forward(tokens, token_table, position_table):
    """tokens (B, n) ints, token_table (V, d), position_table (n, d) -> X (B, n, d)."""
    X = token_table[tokens] + position_table[None, :, :]  # (B, n, d)
    return X, tokens


def embedding_backward(dX, tokens, vocab_size):
    """dX (B, n, d) -> d_token_table (V, d), d_position_table (n, d)."""
    d_token_table = np.zeros((vocab_size, dX.shape[-1]))  # (V, d)
    np.add.at(d_token_table, tokens, dX)  # a token seen twice collects both gradients
    d_position_table = dX.sum(axis=0)  # (n, d)
    return d_token_table, d_position_table


# ---------------------------------------------------------------- one attention head, [CLS]'s row


@lru_cache(maxsize=8)
def _own_sample_mask(samples: int, positions: int) -> np.ndarray:
    """(samples, samples * positions) bool: query i may see only the keys of sample i."""
    mask = np.repeat(np.eye(samples, dtype=bool), positions, axis=1)
    mask.flags.writeable = False
    return mask


def cls_attention_row(q, K, V):
    """q (B, d) [CLS] queries, K (B, n, d), V (B, n, d) -> weights (B, n), output (B, d), scale factor.

    Computed by attnviz.attention: a chunk of samples is one call, its [CLS] queries against all of its keys, with a
    mask that lets each query see only its own sample's keys. Blocked weights are exactly 0, so each output row is
    that sample's own weighted sum of values.
    """
    B, n, d = K.shape
    weights, output = np.empty((B, n)), np.empty((B, d))
    for start in range(0, B, ATTENTION_CHUNK):
        rows = slice(start, min(start + ATTENTION_CHUNK, B))
        chunk = rows.stop - rows.start
        own_sample = _own_sample_mask(chunk, n)  # (chunk, chunk * n)
        result = attention(q[rows], K[rows].reshape(chunk * n, d), V[rows].reshape(chunk * n, d), mask=own_sample)
        weights[rows] = result.weights[own_sample].reshape(chunk, n)  # (chunk, n)
        output[rows] = result.output  # (chunk, d)
    return weights, output, result.scale_factor  # sqrt(d), the same for every chunk


def attention_forward(X, W_q, W_k, W_v):
    """X (B, n, d), W_q/W_k/W_v (d, d) -> [CLS]'s attention output (B, d), its weights (B, n), cache."""
    q = X[:, 0, :] @ W_q  # (B, d) only [CLS] asks a question
    K = X @ W_k  # (B, n, d)
    V = X @ W_v  # (B, n, d)
    weights, output, scale_factor = cls_attention_row(q, K, V)
    return output, weights, (X, q, K, V, weights, scale_factor)


def attention_backward(d_output, cache, W_q, W_k, W_v):
    """d_output (B, d) -> dX (B, n, d), dW_q, dW_k, dW_v (d, d)."""
    X, q, K, V, weights, scale_factor = cache
    d = X.shape[-1]
    dV = weights[:, :, None] * d_output[:, None, :]  # (B, n, d) output = Σ_j weights_j V_j
    d_weights = np.einsum("bd,bnd->bn", d_output, V)  # (B, n)
    # softmax backward: ds_j = w_j (dw_j - Σ_k w_k dw_k); then through the division by sqrt(d)
    d_scores = weights * (d_weights - (d_weights * weights).sum(axis=1, keepdims=True)) / scale_factor  # (B, n)
    dq = np.einsum("bn,bnd->bd", d_scores, K)  # (B, d)
    dK = d_scores[:, :, None] * q[:, None, :]  # (B, n, d)
    flat_X = X.reshape(-1, d)  # (B*n, d)
    dW_q = X[:, 0, :].T @ dq  # (d, d)
    dW_k = flat_X.T @ dK.reshape(-1, d)  # (d, d)
    dW_v = flat_X.T @ dV.reshape(-1, d)  # (d, d)
    dX = dK @ W_k.T + dV @ W_v.T  # (B, n, d)
    dX[:, 0, :] += dq @ W_q.T
    return dX, dW_q, dW_k, dW_v


# ---------------------------------------------------------------- layer normalisation of [CLS]'s vector


def layernorm_forward(x, gain, bias):
    """x (B, d), gain (d,), bias (d,) -> y (B, d): each row to mean 0 and variance 1, then scaled and shifted."""
    mean = x.mean(axis=1, keepdims=True)  # (B, 1)
    inverse_std = 1.0 / np.sqrt(x.var(axis=1, keepdims=True) + LAYERNORM_EPSILON)  # (B, 1)
    normalised = (x - mean) * inverse_std  # (B, d)
    return normalised * gain + bias, (normalised, inverse_std)


def layernorm_backward(dy, cache, gain):
    """dy (B, d) -> dx (B, d), d_gain (d,), d_bias (d,)."""
    normalised, inverse_std = cache
    d_normalised = dy * gain  # (B, d)
    dx = inverse_std * (
        d_normalised
        - d_normalised.mean(axis=1, keepdims=True)
        - normalised * (d_normalised * normalised).mean(axis=1, keepdims=True)
    )  # (B, d)
    return dx, (dy * normalised).sum(axis=0), dy.sum(axis=0)


# ---------------------------------------------------------------- read-out: one sigmoid unit, binary cross-entropy


def readout_forward(h, w, b, labels):
    """h (B, d), w (d,), b (1,), labels (B,) of 0/1 -> mean loss, probabilities (B,), cache.

    From the logit z the loss is log(1 + e^z) - y z, which never takes the log of a rounded-off 0.
    """
    logits = h @ w + b  # (B,)
    probabilities = np.exp(-np.logaddexp(0.0, -logits))  # (B,) sigmoid without overflow
    loss = float(np.mean(np.logaddexp(0.0, logits) - labels * logits))
    return loss, probabilities, (h, probabilities, labels)


def readout_backward(cache, w):
    """Gradient of the mean loss -> dh (B, d), dw (d,), db (1,)."""
    h, probabilities, labels = cache
    d_logits = (probabilities - labels) / len(labels)  # (B,) sigmoid and cross-entropy together
    return d_logits[:, None] * w[None, :], h.T @ d_logits, d_logits.sum(keepdims=True)
