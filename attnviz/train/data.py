"""The reference text's task: [CLS] then six tokens from 1 to 50; is the token at the target position the target value?"""

from __future__ import annotations

import numpy as np

from attnviz.train.config import CLS_TOKEN, LARGEST_TOKEN, SEQUENCE_LENGTH, SMALLEST_TOKEN


def make_samples(
    rng: np.random.Generator, count: int, target_position: int, target_value: int, *, balanced: bool
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` sequences (count, 7) of ints and their labels (count,) of 0.0/1.0.

    Unbalanced, every token is uniform on 1..50, so about 1 in 50 samples is positive. Balanced, exactly half the
    samples (in random order) get the target value at the target position and the other half a different value
    there; the other positions stay uniform, so the target value still turns up elsewhere in negatives.
    """
    tokens = rng.integers(SMALLEST_TOKEN, LARGEST_TOKEN + 1, size=(count, SEQUENCE_LENGTH))  # (count, 7)
    tokens[:, 0] = CLS_TOKEN
    if balanced:
        positive = rng.permutation(count) < count // 2  # (count,)
        others = rng.integers(SMALLEST_TOKEN, LARGEST_TOKEN, size=count)  # 1..49, then shifted past the target
        others[others >= target_value] += 1
        tokens[:, target_position] = np.where(positive, target_value, others)
    labels = (tokens[:, target_position] == target_value).astype(float)  # (count,)
    return tokens, labels
