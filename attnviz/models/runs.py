"""What one sentence through a real model gives back: frozen, with read-only arrays, safe to share across sessions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from attnviz import AttnvizInputError, softmax


def readonly(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


@dataclass(frozen=True, eq=False)
class ModelRun:
    """One sentence through one model, every head's attention computed by ``attnviz.attention``.

    ``q``, ``k``, ``v`` are exactly what went into ``attention`` for each head, so
    ``attnviz.attention(run.q[l, h], run.k[l, h], run.v[l, h], causal=run.causal).weights`` is ``run.attention[l, h]``.
    """

    model: str  # the name given to load_model
    sentence: str
    tokens: list[str]  # the text each token stands for, special tokens ([CLS], [SEP]) included
    token_ids: np.ndarray  # (n,) the tokenizer's ids
    attention: np.ndarray  # (layers, heads, n, n) float64; row i: how query token i spreads its attention, sums to 1
    q: np.ndarray  # (layers, heads, n, d_head) float32
    k: np.ndarray  # (layers, heads, n, d_head) float32
    v: np.ndarray  # (layers, heads, n, d_head) float32
    value_norms: np.ndarray  # (layers, heads, n) float32: ‖v_j W_O^h‖, how large a vector key j hands on through h
    hidden: np.ndarray  # (n, d_model) float32: the last hidden state (the model's output before any task head)
    sinks: tuple[int, ...]  # positions of the tokens heads park attention on: [CLS] and [SEP], or the first token
    causal: bool  # True for a decoder: a token sees only itself and the tokens before it
    removed: int | None = field(default=None, kw_only=True)  # the token taken away as a key everywhere, if any
    family: str = field(default="", kw_only=True)  # "bert", "gpt2", "llama" or "qwen2" (attnviz.models.families)
    # The model's run(sentence, removed): how ``without`` reruns the sentence (the model is shared, never copied).
    rerun: Callable[[str, int | None], ModelRun] | None = field(default=None, kw_only=True, repr=False)

    @property
    def n_layers(self) -> int:
        return self.attention.shape[0]

    @property
    def n_heads(self) -> int:
        return self.attention.shape[1]

    @property
    def nbytes(self) -> int:
        return sum(array.nbytes for array in (self.attention, self.q, self.k, self.v, self.value_norms, self.hidden))

    def without(self, index: int) -> ModelRun:
        """The same sentence, not re-tokenised, with token ``index`` taken away as a key in every layer and head: its
        ``attention`` gives key ``index`` weight 0 everywhere, each row still summing to 1 (attnviz.models.explain says
        what that changed in the output)."""
        if self.rerun is None:
            raise AttnvizInputError("This run was not made by a model, so it cannot be run again.")
        if self.removed is not None:
            raise AttnvizInputError("A token is already taken away from this run: take one away from the full run.")
        return self.rerun(self.sentence, index)


@dataclass(frozen=True, eq=False)
class NextTokens:
    """The most likely next tokens. ``probabilities.sum() + other`` is 1."""

    tokens: list[str]  # the text of each candidate, most likely first
    ids: np.ndarray  # (top,)
    probabilities: np.ndarray  # (top,)
    other: float  # the probability of every other token in the vocabulary together
    temperature: float


@dataclass(frozen=True, eq=False)
class DecoderRun(ModelRun):
    """A decoder's run also predicts the token after the sentence.

    A Llama or Qwen2 decoder may have fewer key/value heads than query heads (grouped-query attention: SmolLM2's 3
    serve its 9 query heads, key/value head j serving query heads 3j, 3j+1 and 3j+2). ``k`` and ``v`` hold them
    expanded to the query heads, as each query head used them, so every head has its own (n, d_head) Q, K and V.
    """

    last_logits: np.ndarray  # (vocab,) float32: a score for every possible next token
    token_text: Callable[[int], str] = field(repr=False)  # a token id -> its text

    @property
    def nbytes(self) -> int:
        return super().nbytes + self.last_logits.nbytes

    def next_token(self, temperature: float = 1.0, top: int = 10) -> NextTokens:
        """softmax(logits / temperature): the same softmax the lessons teach, over the whole vocabulary.

        A low temperature sharpens the distribution towards the most likely token; a high one flattens it.
        """
        if not (isinstance(temperature, (int, float, np.number)) and np.isfinite(temperature) and temperature > 0):
            raise AttnvizInputError(f"The temperature must be a positive number, not {temperature!r}.")
        if not (isinstance(top, (int, np.integer)) and 1 <= top <= self.last_logits.size):
            raise AttnvizInputError(f"The number of tokens to show must be between 1 and {self.last_logits.size}.")
        probabilities = softmax(self.last_logits.astype(np.float64) / temperature)  # (vocab,)
        ids = np.argsort(-probabilities, kind="stable")[:top]  # (top,), most likely first
        return NextTokens(
            tokens=[self.token_text(int(i)) for i in ids],
            ids=readonly(ids),
            probabilities=readonly(probabilities[ids]),
            other=float(np.delete(probabilities, ids).sum()),
            temperature=float(temperature),
        )
