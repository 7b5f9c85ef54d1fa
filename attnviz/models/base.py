"""What both real models share: the checks on a sentence, the token cap, and a small cache of recent runs."""

from __future__ import annotations

import threading
import unicodedata
from collections import OrderedDict

import numpy as np

from attnviz import AttnvizInputError
from attnviz.core.limits import (
    MAX_MODEL_SENTENCE_CHARS,
    MAX_TOKENS,  # one limit: a run, special tokens included, fits the Playground
)
from attnviz.models.runs import ModelRun, readonly

RUN_CACHE_BYTES = 64 * 2**20  # per model: seven decoder runs of 32 tokens (9 MB each), or one of 128 tokens
_ALLOWED_CONTROLS = {"\t", "\n", "\r"}
_ODD_CATEGORIES = {
    "Cc": "a control character",
    "Cs": "half of a broken character (a lone surrogate)",
    "Co": "a private-use character",
    "Cn": "a code point that is not a character",
}


def check_sentence(sentence, what: str = "The sentence") -> str:
    """The sentence, NFC-normalised, if a model can read it; else an AttnvizInputError in plain words, which name it
    ``what`` (a share link's check says which of its settings)."""
    if not isinstance(sentence, str):
        raise AttnvizInputError(f"{what} must be text, not {type(sentence).__name__}.")
    if not sentence.strip():
        raise AttnvizInputError(f"{what} is empty: type a few words.")
    if len(sentence) > MAX_MODEL_SENTENCE_CHARS:
        raise AttnvizInputError(
            f"{what} is {len(sentence):,} characters long; the limit is {MAX_MODEL_SENTENCE_CHARS:,} characters "
            f"(and {MAX_TOKENS} tokens). Use a shorter sentence."
        )
    for position, char in enumerate(sentence):
        kind = _ODD_CATEGORIES.get(unicodedata.category(char))
        if kind and char not in _ALLOWED_CONTROLS:
            raise AttnvizInputError(
                f"{what} has {kind} (U+{ord(char):04X}) at character {position + 1}, which a model cannot "
                "read. Remove it or retype the sentence."
            )
    return unicodedata.normalize("NFC", sentence)


def check_length(n_tokens: int) -> None:
    if n_tokens > MAX_TOKENS:
        raise AttnvizInputError(
            f"The sentence is {n_tokens} tokens long; the limit is {MAX_TOKENS} tokens (about 90 words). "
            "Use a shorter sentence."
        )


def _whole(index) -> bool:
    return isinstance(index, (int, np.integer)) and not isinstance(index, bool)


def check_removed(index, n: int, causal: bool) -> int | None:
    """The token to take away, if a run can lose it; else an AttnvizInputError in plain words."""
    if index is None:
        return None
    if not _whole(index) or not 0 <= index < n:
        raise AttnvizInputError(f"There is no token {index!r} to take away: choose one from 0 to {n - 1}.")
    if causal and index == 0:  # the first token is all the first token sees: its row would have nothing left
        raise AttnvizInputError("The first token cannot be taken away: it is the only token the first token sees.")
    return int(index)


class Model:
    """A loaded model, shared by every session: ``run`` is safe to call from many threads at once.

    Subclasses set the names below and implement ``tokenize`` and ``forward``.
    """

    name: str
    n_layers: int
    n_heads: int
    d_head: int
    causal: bool
    run_class: type[ModelRun] = ModelRun  # what run() returns

    def __init__(self) -> None:
        # Recent runs by (sentence, token taken away or None), least recent first.
        self._runs: OrderedDict[tuple[str, int | None], ModelRun] = OrderedDict()
        self._runs_lock = threading.Lock()

    def tokenize(self, sentence: str) -> tuple[list[int], list[str], tuple[int, ...]]:
        """The token ids, the text each stands for, and the positions of the attention sinks."""
        raise NotImplementedError

    def forward(self, ids: np.ndarray, removed: int | None = None) -> dict[str, np.ndarray]:
        """attention, q, k, v, value_norms, hidden (and for a decoder last_logits) for token ids (n,), with token
        ``removed`` taken away as a key from every query in every layer and head."""
        raise NotImplementedError

    def run_extras(self) -> dict:
        """Fields a subclass's run_class has beyond ModelRun's and the forward pass's arrays."""
        return {}

    def run(self, sentence: str, removed: int | None = None) -> ModelRun:
        """The sentence through the model (with token ``removed`` taken away as a key, see ModelRun.without).
        Recent runs are kept (RUN_CACHE_BYTES per model) and shared."""
        sentence = check_sentence(sentence)
        key = (sentence, int(removed) if _whole(removed) else None)
        with self._runs_lock:
            if key in self._runs and (removed is None or key[1] is not None):
                self._runs.move_to_end(key)
                return self._runs[key]
        ids, tokens, sinks = self.tokenize(sentence)
        check_length(len(ids))
        removed = check_removed(removed, len(ids), self.causal)
        arrays = self.forward(np.asarray(ids, dtype=np.int64), removed)
        arrays = {name: readonly(array) for name, array in arrays.items()}
        run = self.run_class(
            model=self.name,
            sentence=sentence,
            tokens=tokens,
            token_ids=readonly(np.asarray(ids, dtype=np.int64)),
            sinks=sinks,
            causal=self.causal,
            removed=removed,
            rerun=self.run,
            **arrays,
            **self.run_extras(),
        )
        self._remember((sentence, removed), run)
        return run

    def _remember(self, key: tuple[str, int | None], run: ModelRun) -> None:
        with self._runs_lock:
            self._runs[key] = run
            while len(self._runs) > 1 and sum(kept.nbytes for kept in self._runs.values()) > RUN_CACHE_BYTES:
                self._runs.popitem(last=False)  # the least recently used; the newest run always stays
