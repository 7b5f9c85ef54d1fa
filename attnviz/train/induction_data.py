"""The induction experiment's sequences, and the scores that say what each head does on them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SHORTEST_REPEAT = 4  # the shortest r


@dataclass(frozen=True)
class Repeats:
    """Sequences of 2T tokens ending in r then r again, r of ``lengths`` tokens (SHORTEST_REPEAT to T), random tokens before it.

    r's length varies from sequence to sequence so that the earlier copy is found only by its token: at a fixed
    length, one layer could copy by looking back T - 1 places, and would need no induction head."""

    tokens: np.ndarray  # (N, 2T) whole numbers from 0 to vocab_size - 1
    lengths: np.ndarray  # (N,) the length m of each sequence's r; the second copy is its last m tokens

    def copyable(self) -> np.ndarray:
        """(N, 2T-1) bool: position i predicts a token it can copy (i is in the second copy, before its end)."""
        n = self.tokens.shape[1]
        positions = np.arange(n - 1)[None, :]  # (1, 2T-1)
        return positions >= n - self.lengths[:, None]

    def unknowable(self) -> np.ndarray:
        """(N, 2T-1) bool: position i predicts a token seen nowhere before (the first copy and what comes before)."""
        n = self.tokens.shape[1]
        return np.arange(n - 1)[None, :] < n - self.lengths[:, None] - 1


def repeated_sequences(rng: np.random.Generator, count: int, config, length: int | None = None) -> Repeats:
    """``count`` fresh sequences; every token uniform (a token may occur twice). ``length``: every r that long
    (T: the plain [r; r]), else each r's length uniform from SHORTEST_REPEAT to T."""
    n, T = 2 * config.seq_len, config.seq_len
    lengths = np.full(count, length) if length else rng.integers(min(SHORTEST_REPEAT, T), T + 1, size=count)  # (N,)
    drawn = rng.integers(0, config.vocab_size, size=(count, n))  # (N, 2T)
    positions = np.arange(n)[None, :]  # (1, 2T)
    second_copy = positions >= n - lengths[:, None]  # (N, 2T)
    source = np.where(second_copy, positions - lengths[:, None], positions)  # (N, 2T) the second copy reads the first
    return Repeats(np.take_along_axis(drawn, source, axis=1), lengths)


def head_scores(weights: np.ndarray, repeats: Repeats) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """weights (L, N, H, 2T, 2T) on ``repeats`` -> prefix-matching, previous-token and duplicate-token scores (L, H).

    From each position i that can copy, prefix matching is the weight on the token after the earlier copy of its
    own token (i - m + 1) and duplicate token the weight on that earlier copy (i - m). Previous token: from every
    position i ≥ 1, the weight on i - 1."""
    sample, query = np.nonzero(repeats.copyable())  # (K,) each
    earlier = query - repeats.lengths[sample]  # (K,)
    prefix = weights[:, sample, :, query, earlier + 1].mean(axis=0)  # (L, H)
    duplicate = weights[:, sample, :, query, earlier].mean(axis=0)  # (L, H)
    later = np.arange(1, weights.shape[-1])
    previous = weights[:, :, :, later, later - 1].mean(axis=(1, 3))  # (L, H)
    return prefix, previous, duplicate
