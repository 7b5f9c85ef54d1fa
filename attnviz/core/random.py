"""Random numbers a student can reproduce from a seed: Q, K and V, embeddings and projection weights.

Weights are drawn with standard deviation 1/√d_in (the fan-in form of Xavier/LeCun initialisation), so a
projection neither grows nor shrinks the typical size of a vector and the scores stay readable.
"""

from __future__ import annotations

import hashlib

import numpy as np

from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_D_MODEL

_STREAMS = {"X": 0, "W_Q": 1, "W_K": 2, "W_V": 3, "W_O": 4}  # each matrix has its own random stream


def check_seed(seed) -> None:
    """A seed is a whole number 0 or above (numpy's generators refuse negative ones)."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise AttnvizInputError(f"The seed must be a whole number 0 or above, not {seed!r}.")


def random_qkv(n: int, d_k: int, d_v: int, seed: int, *, decimals: int | None = None):
    """Standard-normal Q (n, d_k), K (n, d_k) and V (n, d_v), the same for the same seed.

    Each row has its own generator, so growing n or a dimension keeps every number already drawn:
    row i of Q is the same for any n > i, and its first d_k entries are the same for any larger d_k.
    """
    if min(n, d_k, d_v) < 1:
        raise AttnvizInputError("Random vectors need at least one token and one dimension.")
    check_seed(seed)

    def draw(which: int, width: int) -> np.ndarray:  # (n, width)
        rows = [np.random.default_rng([seed, which, i]).standard_normal(width) for i in range(n)]
        matrix = np.array(rows)
        return matrix if decimals is None else np.round(matrix, decimals) + 0.0  # + 0.0: never a −0

    return draw(0, d_k), draw(1, d_k), draw(2, d_v)


def word_qkv(tokens: tuple[str, ...], d_k: int, d_v: int, seed: int, *, decimals: int | None = None):
    """Standard-normal Q (n, d_k), K (n, d_k) and V (n, d_v) drawn from the words themselves: a word (compared without
    case) gets the same three vectors wherever it stands, so a repeated word scores exactly like itself, and a new
    sentence gives new vectors. A word's generator is seeded by a stable digest of its text, never by Python's
    per-process ``hash``."""
    if not tokens or min(d_k, d_v) < 1:
        raise AttnvizInputError("Random vectors need at least one token and one dimension.")
    check_seed(seed)

    def draw(which: int, width: int) -> np.ndarray:  # (n, width)
        rows = [np.random.default_rng([seed, which, _word_key(token)]).standard_normal(width) for token in tokens]
        matrix = np.array(rows)
        return matrix if decimals is None else np.round(matrix, decimals) + 0.0  # + 0.0: never a −0

    return draw(3, d_k), draw(4, d_k), draw(5, d_v)  # streams apart from random_qkv's 0, 1, 2


def _word_key(token: str) -> int:
    return int.from_bytes(hashlib.blake2b(token.casefold().encode("utf-8"), digest_size=8).digest(), "big")


def random_embeddings(n: int, d_model: int, seed: int, *, decimals: int = 2) -> np.ndarray:
    """X (n, d_model), standard normal, rounded so a student can read and edit it."""
    check_seed(seed)
    if n < 1 or d_model < 1:
        raise AttnvizInputError("Embeddings need at least one token and one dimension.")
    rng = np.random.default_rng([seed, _STREAMS["X"]])
    return np.round(rng.standard_normal((n, d_model)), decimals) + 0.0  # + 0.0: a −0.004 rounds to 0, not to −0


def random_weight(name: str, d_in: int, d_out: int, seed: int) -> np.ndarray:
    """One projection (d_in, d_out), the same for the same name, sizes and seed."""
    check_seed(seed)
    rng = np.random.default_rng([seed, _STREAMS[name]])
    return rng.standard_normal((d_in, d_out)) / np.sqrt(d_in)


def random_projections(
    d_model: int, seed: int, *, d_k: int | None = None, d_v: int | None = None, tie_qk: bool = False
):
    """W_Q, W_K (d_model, d_k), W_V (d_model, d_v) and W_O (d_v, d_model); d_k and d_v default to d_model.

    With ``tie_qk`` the key projection is the query projection, so every score q_i·k_j = x_i W Wᵀ x_j equals
    q_j·k_i and the score matrix is symmetric.
    """
    if not (1 <= d_model <= MAX_D_MODEL):
        raise AttnvizInputError(f"d_model must be between 1 and {MAX_D_MODEL}, not {d_model}.")
    d_k, d_v = d_k or d_model, d_v or d_model
    W_q = random_weight("W_Q", d_model, d_k, seed)
    W_k = W_q if tie_qk else random_weight("W_K", d_model, d_k, seed)
    return W_q, W_k, random_weight("W_V", d_model, d_v, seed), random_weight("W_O", d_v, d_model, seed)
