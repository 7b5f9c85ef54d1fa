"""The Playground's whole configuration as one immutable value, and the moves a user can make on it.

Everything the page shows is derived from a ``PlaygroundState``: the tokens from the sentence, the base vectors from
the example (or the seed), and the user's cell edits laid on top. That makes a state easy to compare, cache and put
into a share link. Moves never raise on bad input: they return the unchanged state and a message in plain words.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from attnviz.core.attention import AttentionResult, attention
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_DIM, MAX_SENTENCE_CHARS, MAX_TOKENS
from attnviz.core.numbers import format_number, parse_cells
from attnviz.core.presets import PRESETS
from attnviz.core.random import random_qkv
from attnviz.core.tokenize import tokenize

RANDOM = "random"
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


def set_dim(state: PlaygroundState, size: int, *, which: str) -> PlaygroundState:
    """A new d_k or d_v (``which``). Keeps the values, and the edits, in the columns that survive."""
    if not 1 <= size <= MAX_DIM:
        raise AttnvizInputError(f"Dimensions run from 1 to {MAX_DIM}.")
    return _fit(replace(state, **{which: int(size)}))


def describe_change(old: PlaygroundState | None, new: PlaygroundState) -> str:
    """One sentence on what the last change did to the weights, for the line under the charts."""
    if old is None or old == new:
        return "Change a control and the cells it changes are boxed in orange."
    if old.labels != new.labels:
        return "New tokens: every view is new."
    if (old.example, old.seed, old.d_k, old.d_v) != (new.example, new.seed, new.d_k, new.d_v):
        return "New vectors: every view is new."
    before, after = old.result().weights, new.result().weights
    delta = np.abs(after - before)  # (n, n)
    changed = int((delta > 1e-9).sum())
    if not changed:
        return "The last change left every weight as it was."
    i, j = np.unravel_index(int(delta.argmax()), delta.shape)
    where = "every weight" if changed == delta.size else f"{changed} of {delta.size} weights (boxed in orange)"
    return (
        f"The last change moved {where}; the largest move is {format_number(float(before[i, j]))} → "
        f"{format_number(float(after[i, j]))} for {new.labels[i]} → {new.labels[j]}."
    )


def apply_edits(state: PlaygroundState, matrix: str, typed: dict) -> tuple[PlaygroundState, list[str]]:
    """Merges typed cells ``{(row, column): raw}`` of ``matrix`` into the state. Bad cells keep their old value,
    each with a message."""
    width = state.d_v if matrix == "V" else state.d_k
    values, problems = parse_cells(
        typed, (state.n, width), lambda row, col: f"{matrix}[{row}: {state.tokens[row]}, dimension {col + 1}]"
    )
    edits = dict(state.edits) | {(matrix, row, col): value for (row, col), value in values.items()}
    return replace(state, edits=tuple(sorted(edits.items()))), problems


def example_note(state: PlaygroundState) -> str | None:
    """What to look at in the loaded example, and a warning once the student has changed it."""
    if state.example not in PRESETS:
        return None
    preset = PRESETS[state.example]
    changed = (
        state.tokens != preset.tokens or state.edits or (state.d_k, state.d_v) != (preset.Q.shape[1], preset.V.shape[1])
    )
    return preset.description + (
        " You have changed the example since loading it, so its numbers may no longer hold." if changed else ""
    )


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
