"""What a head does, measured from its attention: statistics for labels, and a view without the attention sinks.

Many heads have nothing useful to look at for most tokens and park their attention on a "sink": [CLS] or [SEP] in
BERT, the first token in a decoder. Hiding the sinks and renormalising shows where the rest of the attention goes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnviz import AttnvizInputError

LABEL_THRESHOLD = 0.5  # a head is labelled with a pattern when, on average, half its attention follows it


def _check(attention, sinks) -> tuple[np.ndarray, np.ndarray]:
    attention = np.asarray(attention, dtype=float)
    if attention.ndim < 2 or attention.shape[-1] != attention.shape[-2] or attention.shape[-1] == 0:
        raise AttnvizInputError(f"Attention must be square matrices (..., n, n), not shape {attention.shape}.")
    n = attention.shape[-1]
    sinks = np.asarray(sinks, dtype=int).reshape(-1)
    if ((sinks < 0) | (sinks >= n)).any():
        raise AttnvizInputError(f"Sink positions must be between 0 and {n - 1}, not {sinks.tolist()}.")
    return attention, sinks


@dataclass(frozen=True, eq=False)
class HeadStatistics:
    """Share of the attention, per head (layers, heads), each from 0 to 1: the parts ``previous``, ``next``,
    ``sinks``, ``itself`` and ``elsewhere`` split all of it, each cell counted once (a sink first, then the query's own
    token, then the token before it, then the one after), so they add up to 1 and can be said as percentages of one
    whole: the attention of the sentence's tokens, the sinks' own rows aside (unless every token is a sink)."""

    previous: np.ndarray  # on the token just before the query, when that is not a sink
    next: np.ndarray  # on the token just after it, when not a sink (always 0 in a decoder, which cannot see it)
    first: np.ndarray  # on the first token ([CLS] in BERT): not a part, it overlaps the sinks
    sinks: np.ndarray  # on the sink tokens together ([CLS] and [SEP], or the first token)
    itself: np.ndarray  # on the query's own token, when not a sink
    elsewhere: np.ndarray  # on every other token

    def labels(self, threshold: float = LABEL_THRESHOLD) -> np.ndarray:
        """Per head, the pattern that takes at least ``threshold`` of its attention: "previous token", "next token",
        "sinks" or "itself" (the largest if several do), else "" (the head spreads its attention)."""
        names = np.array(["previous token", "next token", "sinks", "itself", ""])
        shares = np.stack([self.previous, self.next, self.sinks, self.itself])  # (4, ...)
        strongest = shares.argmax(axis=0)
        return np.where(shares.max(axis=0) >= threshold, names[strongest], names[-1])


def head_statistics(attention, sinks=(0,)) -> HeadStatistics:
    """Statistics of every head in ``attention`` (..., n, n), e.g. a run's (layers, heads, n, n) and its ``sinks``."""
    attention, sinks = _check(attention, sinks)
    n = attention.shape[-1]
    rows, cols = np.indices((n, n))
    taken = [np.isin(cols, sinks), cols == rows, cols == rows - 1, cols == rows + 1]  # sinks, itself, previous, next
    part = np.full((n, n), len(taken))  # elsewhere
    for code in reversed(range(len(taken))):  # a cell two parts claim is the first one's
        part[taken[code]] = code
    asking = ~np.isin(rows, sinks) if not np.isin(np.arange(n), sinks).all() else np.ones((n, n), bool)
    counted = np.where(asking, attention, 0.0)  # the sentence's tokens' rows: a sink's own row is not a token's
    total = counted.sum(axis=(-2, -1))
    whole = np.where(total > 0, total, 1.0)
    sinks_, itself, previous, after, elsewhere = (
        np.where(part == code, counted, 0.0).sum(axis=(-2, -1)) / whole for code in range(5)
    )
    return HeadStatistics(
        previous=previous,
        next=after,
        first=attention[..., :, 0].mean(axis=-1),
        sinks=sinks_,
        itself=itself,
        elsewhere=elsewhere,
    )


def hide_sinks(attention, sinks) -> np.ndarray:
    """``attention`` (..., n, n) with the sink tokens' columns set to 0 and each row renormalised to sum to 1.

    A row that gave all its attention to sinks (in a decoder, the first token's own row) is left all zeros: there is
    nothing else it attended to. The sink rows themselves are kept.
    """
    attention, sinks = _check(attention, sinks)
    kept = attention.copy()
    kept[..., :, sinks] = 0.0
    totals = kept.sum(axis=-1, keepdims=True)  # (..., n, 1)
    return np.divide(kept, totals, out=np.zeros_like(kept), where=totals > 0)
