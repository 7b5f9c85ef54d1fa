"""What both real models share: the checks on a sentence, the token cap, and a small cache of recent runs."""

from __future__ import annotations

import threading
import unicodedata
from collections import OrderedDict

import numpy as np

from attnviz import AttnvizInputError
from attnviz.core.limits import MAX_TOKENS  # one limit: a run, special tokens included, fits the Playground
from attnviz.models.runs import ModelRun, readonly

MAX_CHARACTERS = 2_000  # a longer paste is refused before it is tokenized
RUN_CACHE_BYTES = 64 * 2**20  # per model: about 16 decoder runs of 32 tokens, or one of 128 tokens
_ALLOWED_CONTROLS = {"\t", "\n", "\r"}
_ODD_CATEGORIES = {
    "Cc": "a control character",
    "Cs": "half of a broken character (a lone surrogate)",
    "Co": "a private-use character",
    "Cn": "a code point that is not a character",
}


def check_sentence(sentence) -> str:
    """The sentence, NFC-normalised, if a model can read it; else an AttnvizInputError in plain words."""
    if not isinstance(sentence, str):
        raise AttnvizInputError(f"The sentence must be text, not {type(sentence).__name__}.")
    if not sentence.strip():
        raise AttnvizInputError("The sentence is empty: type a few words.")
    if len(sentence) > MAX_CHARACTERS:
        raise AttnvizInputError(
            f"The sentence is {len(sentence):,} characters long; the limit is {MAX_CHARACTERS:,} characters "
            f"(and {MAX_TOKENS} tokens). Use a shorter sentence."
        )
    for position, char in enumerate(sentence):
        kind = _ODD_CATEGORIES.get(unicodedata.category(char))
        if kind and char not in _ALLOWED_CONTROLS:
            raise AttnvizInputError(
                f"The sentence has {kind} (U+{ord(char):04X}) at character {position + 1}, which a model cannot "
                "read. Remove it or retype the sentence."
            )
    return unicodedata.normalize("NFC", sentence)


def check_length(n_tokens: int) -> None:
    if n_tokens > MAX_TOKENS:
        raise AttnvizInputError(
            f"The sentence is {n_tokens} tokens long; the limit is {MAX_TOKENS} tokens (about 90 words). "
            "Use a shorter sentence."
        )


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
        self._runs: OrderedDict[str, ModelRun] = OrderedDict()  # recent runs by sentence, least recent first
        self._runs_lock = threading.Lock()

    def tokenize(self, sentence: str) -> tuple[list[int], list[str], tuple[int, ...]]:
        """The token ids, the text each stands for, and the positions of the attention sinks."""
        raise NotImplementedError

    def forward(self, ids: np.ndarray) -> dict[str, np.ndarray]:
        """attention, q, k, v, hidden (and for a decoder last_logits) for token ids (n,)."""
        raise NotImplementedError

    def run_extras(self) -> dict:
        """Fields a subclass's run_class has beyond ModelRun's and the forward pass's arrays."""
        return {}

    def run(self, sentence: str) -> ModelRun:
        """The sentence through the model. Recent runs are kept (RUN_CACHE_BYTES per model) and shared."""
        sentence = check_sentence(sentence)
        with self._runs_lock:
            if sentence in self._runs:
                self._runs.move_to_end(sentence)
                return self._runs[sentence]
        ids, tokens, sinks = self.tokenize(sentence)
        check_length(len(ids))
        arrays = self.forward(np.asarray(ids, dtype=np.int64))
        arrays = {name: readonly(array) for name, array in arrays.items()}
        run = self.run_class(
            model=self.name,
            sentence=sentence,
            tokens=tokens,
            token_ids=readonly(np.asarray(ids, dtype=np.int64)),
            sinks=sinks,
            causal=self.causal,
            **arrays,
            **self.run_extras(),
        )
        self._remember(sentence, run)
        return run

    def _remember(self, sentence: str, run: ModelRun) -> None:
        with self._runs_lock:
            self._runs[sentence] = run
            while len(self._runs) > 1 and sum(kept.nbytes for kept in self._runs.values()) > RUN_CACHE_BYTES:
                self._runs.popitem(last=False)  # the least recently used; the newest run always stays
