"""The Playground's whole configuration as one immutable value, and the moves a user can make on it.

Everything the page shows is derived from a ``PlaygroundState``: the tokens from the sentence, the base vectors from
the example (or the seed), and the user's cell edits laid on top. That makes a state easy to compare, cache and put
into a share link. Moves never raise on bad input: they return the unchanged state and a message in plain words.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from attnviz.core import AttentionResult, attention, random_qkv
from attnviz.errors import AttnvizInputError
from attnviz.presets import PRESETS
from attnviz.tokenize import tokenize

RANDOM = "random"
MAX_TOKENS = 128
MAX_SENTENCE_CHARS = 5_000
MAX_DIM = 64
MAX_SEED = 2**31 - 1
MIN_TEMPERATURE, MAX_TEMPERATURE = 0.1, 5.0  # the slider's range; share links are held to it too
VALUE_LIMIT = 1_000.0  # keeps every score far from overflow and every table readable
MATRICES = ("Q", "K", "V")

Edit = tuple[tuple[str, int, int], float]  # ((matrix, row, column), value)


@dataclass(frozen=True)
class PlaygroundState:
    sentence: str = "The movie was not good, but the soundtrack was amazing."
    example: str = RANDOM  # a key of attnviz.PRESETS, or RANDOM
    seed: int = 42
    d_k: int = 4
    d_v: int = 4
    causal: bool = False
    scale: bool = True
    temperature: float = 1.0
    blocked_keys: tuple[int, ...] = ()  # key positions no query may attend to
    focus: int = 4  # the query token explained in detail
    edits: tuple[Edit, ...] = ()  # sorted, one per cell

    @property
    def tokens(self) -> tuple[str, ...]:
        return _tokens(self.sentence)

    @property
    def n(self) -> int:
        return len(self.tokens)

    @property
    def labels(self) -> list[str]:
        """``position: token`` labels, unique even when a word repeats."""
        return [f"{i}: {token}" for i, token in enumerate(self.tokens)]

    def matrices(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Q (n, d_k), K (n, d_k), V (n, d_v): the example's or the seed's vectors with the user's edits on top."""
        Q, K, V = (m.copy() for m in _base(self.example, self.seed, self.n, self.d_k, self.d_v))
        named = {"Q": Q, "K": K, "V": V}
        for (matrix, row, col), value in self.edits:
            named[matrix][row, col] = value
        return Q, K, V

    def allow_mask(self) -> np.ndarray:
        allowed = np.ones((self.n, self.n), dtype=bool)
        allowed[:, list(self.blocked_keys)] = False
        return allowed

    def result(self) -> AttentionResult:
        return _attend(self)


@lru_cache(maxsize=256)
def _tokens(sentence: str) -> tuple[str, ...]:
    return tuple(tokenize(sentence)[:MAX_TOKENS])


@lru_cache(maxsize=64)
def _base(example: str, seed: int, n: int, d_k: int, d_v: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if example not in PRESETS:
        return random_qkv(n, d_k, d_v, seed, decimals=2)
    preset = PRESETS[example]
    base = []
    for source, width in ((preset.Q, d_k), (preset.K, d_k), (preset.V, d_v)):
        matrix = np.zeros((n, width))  # extra columns are zero (no score changes); extra tokens get zero vectors
        rows, cols = min(n, source.shape[0]), min(width, source.shape[1])
        matrix[:rows, :cols] = source[:rows, :cols]
        base.append(matrix)
    return tuple(base)


@lru_cache(maxsize=64)
def _attend(state: PlaygroundState) -> AttentionResult:
    Q, K, V = state.matrices()
    return attention(
        Q, K, V, causal=state.causal, scale=state.scale, temperature=state.temperature, mask=state.allow_mask()
    )


# ----------------------------------------------------------------------------- moves


def _fit(state: PlaygroundState) -> PlaygroundState:
    """Drops edits, blocked keys and a focus that fall outside the current shape."""
    n, widths = state.n, {"Q": state.d_k, "K": state.d_k, "V": state.d_v}
    edits = tuple(e for e in state.edits if e[0][1] < n and e[0][2] < widths[e[0][0]])
    blocked = tuple(j for j in state.blocked_keys if j < n)
    return replace(state, edits=edits, blocked_keys=blocked, focus=min(state.focus, max(n - 1, 0)))


def set_sentence(state: PlaygroundState, sentence: str) -> tuple[PlaygroundState, str | None]:
    """Keeps the vectors at the positions that remain. Returns (state, message for the user or None)."""
    sentence = sentence or ""
    if len(sentence) > MAX_SENTENCE_CHARS:
        return (
            state,
            f"That text is {len(sentence):,} characters long; the limit is {MAX_SENTENCE_CHARS:,}. The previous sentence is kept.",
        )
    words = tokenize(sentence)
    if not words:
        return (
            state,
            "The sentence has no words or punctuation to attend over. Type at least one word; the previous sentence is kept.",
        )
    if all(unicodedata.category(char).startswith("P") for word in words for char in word):
        return state, "The sentence has only punctuation. Type at least one word; the previous sentence is kept."
    new = _fit(replace(state, sentence=sentence))
    if len(words) > MAX_TOKENS:
        return new, f"The sentence has {len(words)} tokens; only the first {MAX_TOKENS} are used."
    return new, None


def load_example(state: PlaygroundState, key: str) -> PlaygroundState:
    if key == RANDOM:
        return replace(state, example=RANDOM, edits=())
    preset = PRESETS[key]
    return PlaygroundState(
        sentence=preset.sentence,
        example=key,
        seed=state.seed,
        d_k=preset.Q.shape[1],
        d_v=preset.V.shape[1],
        causal=preset.causal,
        scale=preset.scale,
        blocked_keys=preset.blocked_keys,
        focus=preset.focus,
    )


def randomise(state: PlaygroundState, seed: int) -> PlaygroundState:
    """Fresh random vectors for the current sentence and sizes; the same seed always gives the same vectors."""
    return replace(state, example=RANDOM, seed=int(seed), edits=())


def set_dims(state: PlaygroundState, d_k: int, d_v: int) -> PlaygroundState:
    """Keeps the values (and edits) in the columns that survive."""
    if not (1 <= d_k <= MAX_DIM and 1 <= d_v <= MAX_DIM):
        raise AttnvizInputError(f"Dimensions run from 1 to {MAX_DIM}.")
    return _fit(replace(state, d_k=int(d_k), d_v=int(d_v)))


def parse_cell(raw) -> float:
    """A table cell as a number, or AttnvizInputError with the reason in plain words."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise AttnvizInputError("a cell was left empty")
    if isinstance(raw, bool):
        raise AttnvizInputError(f"{raw!r} is not a number")
    try:
        value = float(raw.strip().replace("−", "-") if isinstance(raw, str) else raw)
    except (TypeError, ValueError):
        hint = ": write decimals with a dot, like 1.5" if "," in str(raw) else ""
        raise AttnvizInputError(f"“{str(raw)[:20]}” is not a number{hint}") from None
    if not math.isfinite(value):
        raise AttnvizInputError(f"{raw} is not a finite number")
    if abs(value) > VALUE_LIMIT:
        raise AttnvizInputError(f"{value:g} is outside the allowed range −{VALUE_LIMIT:g} to {VALUE_LIMIT:g}")
    return value


def apply_edits(state: PlaygroundState, matrix: str, edited_rows: dict) -> tuple[PlaygroundState, list[str]]:
    """Merges ``{row_index: {column_index: value}}`` into the state. Bad cells are skipped, each with a message."""
    width = state.d_v if matrix == "V" else state.d_k
    edits = dict(state.edits)
    problems = []
    for row, cells in edited_rows.items():
        for col, raw in cells.items():
            if not (isinstance(row, int) and isinstance(col, int) and 0 <= row < state.n and 0 <= col < width):
                continue  # a stale edit from a table of another shape: it has no cell to land on
            try:
                edits[(matrix, row, col)] = parse_cell(raw)
            except AttnvizInputError as error:
                label = f"{matrix}[{row}: {state.tokens[row]}, dimension {col + 1}]"
                problems.append(f"{label}: {error}; the previous value is kept.")
    return replace(state, edits=tuple(sorted(edits.items()))), problems


def fully_masked_message(state: PlaygroundState) -> str | None:
    """Names the tokens whose every key is blocked, or None."""
    dead = np.flatnonzero(state.result().fully_masked)
    if not len(dead):
        return None
    names = ", ".join(f"“{state.tokens[i]}” ({i})" for i in dead[:10]) + (" …" if len(dead) > 10 else "")
    return (
        f"Every key is blocked for {names}, so there is nothing to attend to: "
        "their weights are all 0 and their outputs are zero vectors. Unblock a key to bring them back."
    )
