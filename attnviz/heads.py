"""Random embeddings and projection weights for the multi-head and step-by-step lessons.

Weights are drawn with standard deviation 1/√d_in (the fan-in form of Xavier/LeCun initialisation), so a
projection neither grows nor shrinks the typical size of a vector and the scores stay readable.
"""

from __future__ import annotations

import numpy as np

from attnviz.core import check_seed
from attnviz.errors import AttnvizInputError
from attnviz.playground import parse_cell

MAX_D_MODEL = 32
EDITABLE_CELLS = 96  # an X up to this many numbers is shown as an editable table (12 tokens × 8 dimensions)
_STREAMS = {"X": 0, "W_Q": 1, "W_K": 2, "W_V": 3, "W_O": 4}  # each matrix has its own random stream


def random_embeddings(n: int, d_model: int, seed: int, *, decimals: int = 2) -> np.ndarray:
    """X (n, d_model), standard normal, rounded so a student can read and edit it."""
    check_seed(seed)
    if n < 1 or d_model < 1:
        raise AttnvizInputError("Embeddings need at least one token and one dimension.")
    rng = np.random.default_rng([seed, _STREAMS["X"]])
    return np.round(rng.standard_normal((n, d_model)), decimals)


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


def with_edits(base: np.ndarray, edited_rows: dict) -> tuple[np.ndarray, list[str]]:
    """``base`` with ``{row: {column index: raw value}}`` laid on top. A bad cell keeps its old value and
    gives a message saying which cell and why."""
    matrix = base.copy()
    problems = []
    for row, cells in edited_rows.items():
        for col, raw in cells.items():
            if not (0 <= row < matrix.shape[0] and 0 <= col < matrix.shape[1]):
                continue
            try:
                matrix[row, col] = parse_cell(raw)
            except AttnvizInputError as error:
                problems.append(f"X[{row}, dimension {col + 1}]: {error}; the previous value is kept.")
    return matrix, problems
