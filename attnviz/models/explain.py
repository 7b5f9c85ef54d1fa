"""Is a head's attention an explanation? Three checks on any run of either model, in numpy.

- ``rollout``: attention rollout (Abnar & Zuidema, ACL 2020). One layer's map ignores that every layer mixes what
  the layers before it mixed; rollout multiplies each layer's head-averaged attention, the residual added as 0.5·I,
  through the layers.
- ``value_weighted``: α_ij · ‖f_h(x_j)‖ (Kobayashi et al., EMNLP 2020). A weight says how much is taken, not how much
  arrives: a key whose value vector, through the head's slice of the output projection, is near zero passes on
  little however large its weight (BERT's [CLS] and [SEP]).
- ``output_change``: what taking a token away (``run.without(index)``) did to the output: the decoder's next-token
  probabilities, the encoder's sentence embedding and final vectors.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnviz import AttnvizInputError
from attnviz.core.attention import softmax
from attnviz.models.runs import DecoderRun, ModelRun, NextTokens

TOP = 5  # next tokens shown before and after a token is taken away


def rollout(run: ModelRun) -> np.ndarray:
    """(layers, n, n): row i of layer l is how much token i's representation after layer l draws on each input token.

    Each layer's attention averaged over heads, with the residual connection as 0.5·I (half the vector stays where it
    was), rows renormalised, multiplied through the layers: R_l = Â_l R_(l−1). A decoder's stays lower triangular.
    """
    n = len(run.tokens)
    mixed = 0.5 * run.attention.mean(axis=1) + 0.5 * np.eye(n)  # (layers, n, n)
    mixed /= mixed.sum(axis=-1, keepdims=True)  # already 1 up to rounding; kept from the paper's definition
    rolled = np.empty_like(mixed)  # (layers, n, n)
    so_far = np.eye(n)  # (n, n): before layer 1 each token is itself
    for layer, step in enumerate(mixed):
        so_far = step @ so_far
        rolled[layer] = so_far
    return rolled


def value_weighted(run: ModelRun) -> np.ndarray:
    """(layers, heads, n, n): α_ij · ‖(x_j W_V^h + b_V^h) W_O^h‖, the size of what key j hands query i through head h.

    The decoder's query heads use their group's value head (``run.v`` holds it expanded), so its norms follow.
    """
    return run.attention * run.value_norms[:, :, None, :]  # (layers, heads, n, n)


def shares(values) -> np.ndarray:
    """(..., n, n) with each row divided by its sum, so that it can be read on the weights' 0-to-1 scale; a row of
    zeros stays zeros."""
    values = np.asarray(values, dtype=float)
    totals = values.sum(axis=-1, keepdims=True)  # (..., n, 1)
    return np.divide(values, totals, out=np.zeros_like(values), where=totals > 0)


def sink_share(view, sinks) -> float:
    """The share of a map's rows (n, n), on average over its queries, that lands on the sink tokens' columns."""
    rows = shares(view)
    return float(rows[:, list(sinks)].sum(axis=-1).mean())


@dataclass(frozen=True, eq=False)
class NextTokenChange:
    """A decoder's next-token prediction before and after a token was taken away."""

    removed: int
    before: NextTokens  # the top TOP before
    after: NextTokens  # the top TOP after
    total_variation: float  # ½ Σ |p − p'| over the whole vocabulary: 0 unchanged, 1 nothing in common

    @property
    def top_changed(self) -> bool:
        return int(self.before.ids[0]) != int(self.after.ids[0])


@dataclass(frozen=True, eq=False)
class EmbeddingChange:
    """An encoder's output before and after a token was taken away."""

    removed: int
    cosine: float  # of the mean-pooled sentence embeddings (the removed token's own vector left in both)
    largest: float  # the largest ‖h_i − h'_i‖ over the tokens' final vectors
    at: int  # the token whose final vector moved most
    size: float  # ‖h_at‖ before: what ``largest`` compares with


def output_change(before: ModelRun, after: ModelRun) -> NextTokenChange | EmbeddingChange:
    """What taking token ``after.removed`` away did to the output of ``before``, a run of the same sentence."""
    if after.removed is None or before.removed is not None or after.sentence != before.sentence:
        raise AttnvizInputError("Compare a sentence's run with the same sentence's run without one of its tokens.")
    if isinstance(before, DecoderRun):
        p = softmax(before.last_logits)  # (vocab,)
        q = softmax(after.last_logits)
        return NextTokenChange(
            removed=after.removed,
            before=before.next_token(top=TOP),
            after=after.next_token(top=TOP),
            total_variation=float(0.5 * np.abs(p - q).sum()),
        )
    h, g = before.hidden.astype(np.float64), after.hidden.astype(np.float64)  # (n, d_model)
    pooled, pooled_after = h.mean(axis=0), g.mean(axis=0)  # (d_model,)
    moved = np.linalg.norm(h - g, axis=-1)  # (n,)
    at = int(moved.argmax())
    return EmbeddingChange(
        removed=after.removed,
        cosine=float(pooled @ pooled_after / (np.linalg.norm(pooled) * np.linalg.norm(pooled_after))),
        largest=float(moved[at]),
        at=at,
        size=float(np.linalg.norm(h[at])),
    )
