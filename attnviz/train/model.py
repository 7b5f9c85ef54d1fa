"""The reference text's tiny transformer: embeddings, one attention head, residual + LayerNorm, a sigmoid on [CLS].

Parameters live in a dict of float64 arrays, so the optimiser and the gradient check can walk over them by name.
"""

from __future__ import annotations

import numpy as np

from attnviz import AttnvizInputError
from attnviz.train import layers
from attnviz.train.config import CLS_TOKEN, LARGEST_TOKEN, SEQUENCE_LENGTH, VOCAB_SIZE

Params = dict[str, np.ndarray]


def init_params(rng: np.random.Generator, d_model: int) -> Params:
    """Random starting weights, chosen so [CLS] starts by looking at every position equally.

    W_q starts at zero, so every score is 0 and [CLS]'s first attention row is uniform (1/7 each): whatever focus it
    ends with was learned. Position embeddings start ten times larger than token embeddings, so where a token sits
    is easier to attend to than what it is. With balanced sampling and the text's setting otherwise, [CLS] then puts
    half its weight or more on the target position in 38 of 48 runs (seeds 0-7, positions 1-6); the other runs are
    right too, but split the weight between the target and a neighbour that happens to work as well.
    """
    d = d_model
    projection_scale = 1.0 / np.sqrt(d)  # keeps X W about as large as X
    return {
        "token_embedding": rng.normal(0.0, 0.1, size=(VOCAB_SIZE, d)),
        "position_embedding": rng.normal(0.0, 1.0, size=(SEQUENCE_LENGTH, d)),
        "W_q": np.zeros((d, d)),
        "W_k": rng.normal(0.0, projection_scale, size=(d, d)),
        "W_v": rng.normal(0.0, projection_scale, size=(d, d)),
        "norm_gain": np.ones(d),
        "norm_bias": np.zeros(d),
        "readout_weight": rng.normal(0.0, projection_scale, size=d),
        "readout_bias": np.zeros(1),
    }


def forward(params: Params, tokens: np.ndarray, labels: np.ndarray):
    """tokens (B, n), labels (B,) -> mean loss, probabilities (B,), [CLS] attention weights (B, n), caches."""
    p = params
    X, embedding_cache = layers.embedding_forward(tokens, p["token_embedding"], p["position_embedding"])  # (B, n, d)
    attended, weights, attention_cache = layers.attention_forward(X, p["W_q"], p["W_k"], p["W_v"])  # (B, d), (B, n)
    h, norm_cache = layers.layernorm_forward(X[:, 0, :] + attended, p["norm_gain"], p["norm_bias"])  # (B, d)
    loss, probabilities, readout_cache = layers.readout_forward(h, p["readout_weight"], p["readout_bias"], labels)
    return loss, probabilities, weights, (embedding_cache, attention_cache, norm_cache, readout_cache)


def backward(params: Params, caches) -> Params:
    """The gradient of forward's mean loss with respect to every parameter, by name."""
    p = params
    embedding_cache, attention_cache, norm_cache, readout_cache = caches
    dh, d_readout_weight, d_readout_bias = layers.readout_backward(readout_cache, p["readout_weight"])
    d_residual, d_gain, d_bias = layers.layernorm_backward(dh, norm_cache, p["norm_gain"])  # (B, d)
    dX, dW_q, dW_k, dW_v = layers.attention_backward(d_residual, attention_cache, p["W_q"], p["W_k"], p["W_v"])
    dX[:, 0, :] += d_residual  # the residual path: [CLS]'s own embedding goes straight into the sum
    d_token, d_position = layers.embedding_backward(dX, embedding_cache, VOCAB_SIZE)
    return {
        "token_embedding": d_token,
        "position_embedding": d_position,
        "W_q": dW_q,
        "W_k": dW_k,
        "W_v": dW_v,
        "norm_gain": d_gain,
        "norm_bias": d_bias,
        "readout_weight": d_readout_weight,
        "readout_bias": d_readout_bias,
    }


def check_tokens(tokens) -> np.ndarray:
    """One sample as a (7,) int array: [CLS] (0) first, then six tokens from 1 to 50."""
    try:
        sample = np.asarray(tokens)
    except (TypeError, ValueError) as error:
        raise AttnvizInputError("A sample must be a list of seven whole numbers.") from error
    if sample.shape != (SEQUENCE_LENGTH,) or not np.issubdtype(sample.dtype, np.integer):
        raise AttnvizInputError(
            f"A sample must be {SEQUENCE_LENGTH} whole numbers: [CLS] (0) then six tokens from 1 to {LARGEST_TOKEN}."
        )
    if sample[0] != CLS_TOKEN or not ((sample[1:] >= 1) & (sample[1:] <= LARGEST_TOKEN)).all():
        raise AttnvizInputError(
            f"A sample starts with [CLS] (0) and continues with six tokens from 1 to {LARGEST_TOKEN}; got {sample.tolist()}."
        )
    return sample


def qkv(params: Params, tokens) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Q, K, V (n, d) of one sample in the trained head: ``attention(Q, K, V)`` gives its full attention matrix."""
    sample = check_tokens(tokens)
    X, _ = layers.embedding_forward(sample[None, :], params["token_embedding"], params["position_embedding"])
    X = X[0]  # (n, d)
    return X @ params["W_q"], X @ params["W_k"], X @ params["W_v"]


class Adam:
    """Adam with bias correction.

    It keeps every parameter in one flat buffer and turns the arrays in ``params`` into views of it, so a step is a
    dozen whole-buffer operations instead of a dozen per parameter (the step costs a fifth as much).
    """

    def __init__(self, params: Params, learning_rate: float, beta1: float = 0.9, beta2: float = 0.999):
        self.learning_rate, self.beta1, self.beta2, self.epsilon = learning_rate, beta1, beta2, 1e-8
        self.names = list(params)
        self.flat = np.concatenate([params[name].ravel() for name in self.names])  # (P,) every parameter
        offset = 0
        for name in self.names:
            shape, size = params[name].shape, params[name].size
            params[name] = self.flat[offset : offset + size].reshape(shape)  # a view: updating flat updates it
            offset += size
        self.first = np.zeros_like(self.flat)  # (P,) running mean of the gradient
        self.second = np.zeros_like(self.flat)  # (P,) running mean of its square
        self.steps = 0

    def update(self, grads: Params) -> None:
        """Move every parameter one step, in place."""
        grad = np.concatenate([grads[name].ravel() for name in self.names])  # (P,)
        self.steps += 1
        step_size = self.learning_rate * np.sqrt(1 - self.beta2**self.steps) / (1 - self.beta1**self.steps)
        self.first *= self.beta1
        self.first += (1 - self.beta1) * grad
        self.second *= self.beta2
        self.second += (1 - self.beta2) * grad * grad
        self.flat -= step_size * self.first / (np.sqrt(self.second) + self.epsilon)
