"""The Playground's whole configuration as one immutable value, and the moves a user can make on it.

Everything the page shows is derived from a ``PlaygroundState``: the tokens from the sentence, the base vectors from
its one ``source`` (random by position or from the words, with the seed; a worked example; a real model's head), and
the user's cell edits laid on top. That makes a state easy to compare, cache and put into a share link. A move
refuses bad input in plain words: typed cells by returning the state with the bad cells unchanged and a message (the
student is typing), a sentence without a word or too long to tokenize, or an imported head that does not fit, by
raising AttnvizInputError. A field's type and bounds are checked before its move, in one table
(attnviz.playground.controls).

A head imported from a real model (``import_head``, called by a page, which shows its AttnvizInputError) is a source
too: its Q, K and V are the base vectors, and the model's own tokens stand in for the sentence's until the user types
a new sentence.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from attnviz.core.attention import AttentionResult, attention
from attnviz.core.class_cache import cached_for_a_class
from attnviz.core.errors import AttnvizInputError
from attnviz.core.imported_head import ImportedHead
from attnviz.core.limits import MAX_SENTENCE_CHARS, MAX_TOKEN_CHARS, MAX_TOKENS
from attnviz.core.numbers import cell_name, parse_cells
from attnviz.core.presets import PRESETS
from attnviz.core.random import random_qkv, word_qkv
from attnviz.core.tokenize import tokenize

RANDOM = "random"  # random vectors that belong to positions: row i is the same whatever word stands there
WORDS = "words"  # random vectors that belong to words: the same word gets the same vectors wherever it stands
IMPORTED = "imported"  # the example of a state whose vectors were imported from a real model's head
MATRICES = ("Q", "K", "V")

Edit = tuple[tuple[str, int, int], float]  # ((matrix, row, column), value)


@dataclass(frozen=True)
class PlaygroundState:
    sentence: str = "The movie was not good, but the soundtrack was amazing."
    source: str | ImportedHead = RANDOM  # where the base vectors come from: RANDOM, WORDS, a preset's key, or a head
    seed: int = 42
    d_k: int = 4
    d_v: int = 4
    causal: bool = False
    scale: bool = True
    temperature: float = 1.0
    blocked_keys: tuple[int, ...] = ()  # key positions no query may attend to
    focus: int = 4  # the query token explained in detail
    predict: str = ""  # predict mode's question (attnviz.lessons.predictions.KINDS); "" is off
    edits: tuple[Edit, ...] = ()  # sorted, one per cell
    model_tokens: tuple[str, ...] | None = None  # a real model's own tokens, shown instead of the sentence's

    @property
    def example(self) -> str:
        """The source as the Example box names it: RANDOM, WORDS, a preset's key, or IMPORTED."""
        return IMPORTED if isinstance(self.source, ImportedHead) else self.source

    @property
    def imported(self) -> ImportedHead | None:
        """The real model's head the vectors come from, if they do."""
        return self.source if isinstance(self.source, ImportedHead) else None

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.model_tokens if self.model_tokens is not None else _tokens(self.sentence)

    @property
    def n(self) -> int:
        return len(self.tokens)

    @property
    def labels(self) -> list[str]:
        """``position: token`` labels, unique even when a word repeats."""
        return [f"{i}: {token}" for i, token in enumerate(self.tokens)]

    def matrices(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Q (n, d_k), K (n, d_k), V (n, d_v): the example's or the seed's vectors with the user's edits on top."""
        tokens = self.tokens if self.example == WORDS else ()  # only word vectors depend on the words
        Q, K, V = (m.copy() for m in _base(self.source, self.seed, self.n, self.d_k, self.d_v, tokens))
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
def _base(
    source: str | ImportedHead, seed: int, n: int, d_k: int, d_v: int, tokens: tuple[str, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if source == WORDS:
        return word_qkv(tokens, d_k, d_v, seed, decimals=2)
    if isinstance(source, ImportedHead):
        sources = (source.Q, source.K, source.V)
    elif source in PRESETS:
        sources = (PRESETS[source].Q, PRESETS[source].K, PRESETS[source].V)
    else:
        return random_qkv(n, d_k, d_v, seed, decimals=2)
    base = []
    for source, width in zip(sources, (d_k, d_k, d_v), strict=True):
        matrix = np.zeros((n, width))  # extra columns are zero (no score changes); extra tokens get zero vectors
        rows, cols = min(n, source.shape[0]), min(width, source.shape[1])
        matrix[:rows, :cols] = source[:rows, :cols]
        base.append(matrix)
    return tuple(base)


@cached_for_a_class  # every session's state and the one before it: the views and their changed cells read both
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


def sentence_within_limit(sentence: str) -> str:
    """``sentence`` if it is at most MAX_SENTENCE_CHARS long, else AttnvizInputError: the rule for every way a sentence
    comes in (typed, a notebook, a share link, an imported head), checked before anything tokenizes it."""
    if len(sentence) > MAX_SENTENCE_CHARS:
        raise AttnvizInputError(
            f"the sentence is {len(sentence):,} characters long; the limit is {MAX_SENTENCE_CHARS:,}."
        )
    return sentence


def sentence_with_words(sentence: str) -> str:
    """``sentence`` if it has a word to attend over, else AttnvizInputError: the rule, in the same words, for every
    sentence whose own tokens are attended over (typed, a notebook, a share link). An imported head attends over its
    model's tokens, and a real model reads punctuation: neither is held to it."""
    _tokens_with_a_word(sentence)
    return sentence


def _tokens_with_a_word(sentence: str) -> list[str]:
    """The sentence's tokens, once it is known to have a word (``sentence_with_words``)."""
    tokens = tokenize(sentence)
    if not tokens:
        raise AttnvizInputError("the sentence has no words or punctuation to attend over; it needs at least one word.")
    if all(unicodedata.category(char).startswith("P") for token in tokens for char in token):
        raise AttnvizInputError("the sentence has only punctuation; it needs at least one word.")
    return tokens


def set_sentence(state: PlaygroundState, sentence: str) -> tuple[PlaygroundState, str | None]:
    """Keeps the vectors at the positions that remain. Returns (state, message for the user or None). A sentence too
    long to tokenize or without a word raises AttnvizInputError (``sentence_within_limit``, ``sentence_with_words``)."""
    sentence = sentence_within_limit(sentence or "")
    words = _tokens_with_a_word(sentence)  # tokenized once: a pasted sentence may be 5,000 characters
    new = _fit(replace(state, sentence=sentence, model_tokens=None))  # the sentence's own tokens from now on
    if len(words) > MAX_TOKENS:
        return new, f"The sentence has {len(words)} tokens; only the first {MAX_TOKENS} are used."
    return new, None


def load_example(state: PlaygroundState, key: str) -> PlaygroundState:
    if key == IMPORTED:  # the imported head again, without the edits made to it
        return replace(state, edits=()) if state.imported is not None else state
    if key in (RANDOM, WORDS):
        return replace(state, source=key, edits=())
    preset = PRESETS[key]
    return PlaygroundState(
        sentence=preset.sentence,
        source=key,
        seed=state.seed,
        d_k=preset.Q.shape[1],
        d_v=preset.V.shape[1],
        causal=preset.causal,
        scale=preset.scale,
        blocked_keys=preset.blocked_keys,
        focus=preset.focus,
    )


def randomise(state: PlaygroundState, seed: int) -> PlaygroundState:
    """Fresh random vectors for the current sentence and sizes; the same seed always gives the same vectors. Vectors
    from the words stay so; any other source becomes random vectors by position."""
    source = WORDS if state.example == WORDS else RANDOM
    return replace(state, source=source, seed=int(seed), edits=())


def set_dim(state: PlaygroundState, size: int, *, which: str) -> PlaygroundState:
    """A new d_k or d_v (``which``), from 1 to MAX_DIM as attnviz.playground.controls checks it. Keeps the values, and
    the edits, in the columns that survive."""
    return _fit(replace(state, **{which: int(size)}))


def same_source(old: PlaygroundState, new: PlaygroundState) -> bool:
    """Whether two states draw their base vectors from the same place: the same source, seed and sizes."""
    return (old.source, old.seed, old.d_k, old.d_v) == (new.source, new.seed, new.d_k, new.d_v)


def same_vectors(old: PlaygroundState, new: PlaygroundState) -> bool:
    """Whether two states' views compare cell by cell, the one test of "the vectors changed": the same tokens and the
    same source of vectors (edits and toggles aside)."""
    return old.labels == new.labels and same_source(old, new)


def column_names(matrix: str, width: int) -> list[str]:
    """The Q, K and V tables' column headings (q1, q2, …): what a typed cell is keyed by."""
    return [f"{matrix.lower()}{j + 1}" for j in range(width)]


def apply_edits(state: PlaygroundState, matrix: str, typed: dict) -> tuple[PlaygroundState, list[str]]:
    """Merges typed cells ``{(row, column): raw}`` of ``matrix`` into the state. Bad cells keep their old value,
    each with a message."""
    width = state.d_v if matrix == "V" else state.d_k
    values, problems = parse_cells(
        typed, (state.n, width), lambda row, col: cell_name(matrix, row, col, state.tokens[row])
    )
    edits = dict(state.edits) | {(matrix, row, col): value for (row, col), value in values.items()}
    return replace(state, edits=tuple(sorted(edits.items()))), problems


def import_head(
    state: PlaygroundState, tokens, Q, K, V, *, causal: bool, title: str, sentence: str | None = None
) -> PlaygroundState:
    """The Playground set up to take apart one head of a real model: the model's tokens, the head's Q, K and V
    (float32, up to MAX_DIM wide), its mask, and the model's own settings (scaled by √d_k, temperature 1, no key
    blocked). ``sentence`` is what the model read (the tokens joined, if not given). The seed and, where it still
    fits, the focus token are kept. A head the Playground can't hold raises AttnvizInputError in plain words."""
    head = ImportedHead(title, Q, K, V)
    tokens = tuple(str(token) for token in tokens)
    n = head.Q.shape[0]
    if len(tokens) != n:
        raise AttnvizInputError(f"The head has {n} rows of vectors but {len(tokens)} tokens; they must match.")
    if any(len(token) > MAX_TOKEN_CHARS for token in tokens):
        raise AttnvizInputError(f"A token is longer than {MAX_TOKEN_CHARS} characters, more than a token can be.")
    sentence = sentence_within_limit(" ".join(tokens) if sentence is None else sentence)
    return PlaygroundState(
        sentence=sentence,
        source=head,
        seed=state.seed,
        d_k=head.Q.shape[1],
        d_v=head.V.shape[1],
        causal=bool(causal),
        focus=min(state.focus, n - 1),
        model_tokens=tokens,
    )


def example_options(state: PlaygroundState) -> list[str]:
    """The Example selector's choices: random vectors (by position, from the words), every worked example, and the
    imported head if there is one."""
    return [RANDOM, WORDS, *PRESETS, *([IMPORTED] if state.imported is not None else [])]
