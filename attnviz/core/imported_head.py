"""A real model's attention head as the Playground's base vectors: Q, K and V, checked to fit the Playground."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_DIM, MAX_TITLE_CHARS, MAX_TOKENS, VALUE_LIMIT


@dataclass(frozen=True, eq=False)
class ImportedHead:
    """Q, K and V of one attention head of a real model, as the Playground's base vectors.

    The numbers are float32, as the models compute them (held as float64 so the user's edits stay exact); equal heads
    compare and hash equal by their numbers, so states holding them can be compared and cached.
    """

    title: str  # what the head is, e.g. "all-MiniLM-L6-v2, layer 3, head 5"
    Q: np.ndarray  # (rows, d_k)
    K: np.ndarray  # (rows, d_k)
    V: np.ndarray  # (rows, d_v)
    _identity: tuple = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.title, str) or len(self.title) > MAX_TITLE_CHARS:
            raise AttnvizInputError(f"The head's title must be text of at most {MAX_TITLE_CHARS} characters.")
        matrices = [_float32_matrix(name, m) for name, m in zip("QKV", (self.Q, self.K, self.V), strict=True)]
        rows, d_k, d_v = matrices[0].shape[0], matrices[0].shape[1], matrices[2].shape[1]
        if any(m.shape[0] != rows for m in matrices) or matrices[1].shape[1] != d_k:
            raise AttnvizInputError(
                f"Q, K and V need one row per token each, and Q and K the same width; got "
                f"{', '.join(str(m.shape) for m in matrices)}."
            )
        if not 1 <= rows <= MAX_TOKENS or not (1 <= d_k <= MAX_DIM and 1 <= d_v <= MAX_DIM):
            raise AttnvizInputError(
                f"The Playground holds 1 to {MAX_TOKENS} tokens and 1 to {MAX_DIM} dimensions; this head has "
                f"{rows} tokens, d_k {d_k} and d_v {d_v}."
            )
        digest = hashlib.sha256(b"".join(m.tobytes() for m in matrices)).digest()
        for name, matrix in zip("QKV", matrices, strict=True):
            object.__setattr__(self, name, matrix)
        object.__setattr__(self, "_identity", (self.title, rows, d_k, d_v, digest))

    def __eq__(self, other) -> bool:
        return isinstance(other, ImportedHead) and self._identity == other._identity

    def __hash__(self) -> int:
        return hash(self._identity)


def _float32_matrix(name: str, values) -> np.ndarray:
    """``values`` rounded to float32 as a read-only float64 (rows, columns) matrix, or a message in plain words."""
    try:
        matrix = np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise AttnvizInputError(f"{name} must be a table of numbers.") from None
    if matrix.ndim != 2:
        raise AttnvizInputError(f"{name} must be a table of numbers (rows × columns), not shape {matrix.shape}.")
    if not np.isfinite(matrix).all() or np.abs(matrix).max(initial=0.0) > VALUE_LIMIT:
        raise AttnvizInputError(
            f"{name} has a number that is not finite or is outside −{VALUE_LIMIT:g} to {VALUE_LIMIT:g}, "
            "which the Playground does not hold."
        )
    matrix = matrix.astype(np.float32).astype(np.float64)
    matrix.flags.writeable = False
    return matrix
