"""Why the scores are divided by √d_k: measured on random vectors, not just argued.

For q and k with d_k dimensions (d_k numbers each) and independent standard-normal entries, q·k is a sum of d_k
terms of variance 1, so its variance is d_k. Dividing by √d_k divides the variance by d_k and brings it back to 1,
whatever the number of dimensions. Without it the scores spread out as d_k grows and softmax puts nearly all the
weight on the largest one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attnviz.core import attention, random_qkv, softmax
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_LESSON_DK, MAX_ROW_TOKENS, MIN_ROW_TOKENS
from attnviz.core.numbers import format_fixed, format_number
from attnviz.lessons.questions import ChoiceQuestion

N_PAIRS = 4000  # enough pairs that the measured variance is within a few per cent of the true one
DK_GRID = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)  # the widths the curves are measured at


def _check_dk(d_k: int) -> None:
    if not (1 <= d_k <= MAX_LESSON_DK):
        raise AttnvizInputError(f"d_k must be between 1 and {MAX_LESSON_DK}, not {d_k}.")


def position(dims: np.ndarray, d_k: int) -> int:
    """Where ``d_k`` sits in a curve's ``dims`` (the page measures its chosen d_k along with the grid)."""
    return int(np.flatnonzero(dims == d_k)[0])


@dataclass(frozen=True)
class VarianceCurve:
    dims: np.ndarray  # (m,) the d_k values
    raw: np.ndarray  # (m,) measured Var(q·k)
    scaled: np.ndarray  # (m,) measured Var(q·k / √d_k)


def score_variance(dims, *, n_pairs: int = N_PAIRS, seed: int = 0) -> VarianceCurve:
    """Variance of q·k over ``n_pairs`` random (q, k) pairs, for every d_k in ``dims``.

    One draw at the widest d_k serves every width: the score at width d is the sum of the first d products,
    so a cumulative sum gives all widths at once, and a wider d_k only adds terms to the same pairs.
    """
    dims = np.array(sorted(set(int(d) for d in dims)))
    for d_k in dims:
        _check_dk(int(d_k))
    rng = np.random.default_rng(seed)
    # Drawn dimension by dimension, so the first d dimensions are the same whatever the widest d_k is.
    q, k = rng.standard_normal((dims.max(), 2, n_pairs)).transpose(1, 2, 0)  # each (n_pairs, d_max)
    scores_by_width = np.cumsum(q * k, axis=1)[:, dims - 1]  # (n_pairs, m): column i is q·k at width dims[i]
    raw = scores_by_width.var(axis=0)
    return VarianceCurve(dims=dims, raw=raw, scaled=raw / dims)  # Var(x / √d) = Var(x) / d


def entropy(weights, axis: int = -1) -> np.ndarray:
    """Shannon entropy in bits of each row of weights: log2(n) for uniform weights, 0 for one-hot."""
    weights = np.asarray(weights, dtype=float)
    logs = np.log2(weights, out=np.zeros_like(weights), where=weights > 0)  # 0·log 0 counts as 0
    return -(weights * logs).sum(axis=axis)


@dataclass(frozen=True)
class Saturation:
    dims: np.ndarray  # (m,)
    entropy_scaled: np.ndarray  # (m,) mean row entropy in bits
    entropy_raw: np.ndarray  # (m,)
    max_scaled: np.ndarray  # (m,) mean of each row's largest weight
    max_raw: np.ndarray  # (m,)
    n_tokens: int

    @property
    def uniform_entropy(self) -> float:
        return float(np.log2(self.n_tokens))


def _weights(d_k: int, n_tokens: int, seed: int, *, scale: bool) -> np.ndarray:  # (n_tokens, n_tokens)
    Q, K, V = random_qkv(n_tokens, d_k, 1, seed)  # V is unused: only the weights matter here
    return attention(Q, K, V, scale=scale).weights


def saturation(dims, *, n_tokens: int = 16, seed: int = 0) -> Saturation:
    """Row entropy and largest weight, averaged over every query row, with and without the √d_k."""
    dims = np.array(sorted(set(int(d) for d in dims)))
    for d_k in dims:
        _check_dk(int(d_k))
    if not (MIN_ROW_TOKENS <= n_tokens <= MAX_ROW_TOKENS):
        raise AttnvizInputError(
            f"The number of tokens must be between {MIN_ROW_TOKENS} and {MAX_ROW_TOKENS}, not {n_tokens}."
        )
    scaled = [_weights(int(d), n_tokens, seed, scale=True) for d in dims]
    raw = [_weights(int(d), n_tokens, seed, scale=False) for d in dims]
    return Saturation(
        dims=dims,
        entropy_scaled=np.array([entropy(w).mean() for w in scaled]),
        entropy_raw=np.array([entropy(w).mean() for w in raw]),
        max_scaled=np.array([w.max(axis=1).mean() for w in scaled]),
        max_raw=np.array([w.max(axis=1).mean() for w in raw]),
        n_tokens=n_tokens,
    )


def one_hot_share(d_k: int, *, n_tokens: int = 16, seed: int = 0, scale: bool = False) -> float:
    """The share of query rows whose largest weight is at least 0.99: one-hot, for every purpose."""
    _check_dk(d_k)
    return float((_weights(d_k, n_tokens, seed, scale=scale).max(axis=1) >= 0.99).mean())


@dataclass(frozen=True)
class OneRow:
    scores: np.ndarray  # (n_tokens,) raw q·k for query 0
    scaled_weights: np.ndarray  # (n_tokens,)
    raw_weights: np.ndarray  # (n_tokens,)


def one_row(d_k: int, *, n_tokens: int = 16, seed: int = 0) -> OneRow:
    """The first query's scores and its weights with and without scaling."""
    _check_dk(d_k)
    Q, K, _ = random_qkv(n_tokens, d_k, 1, seed)  # the same vectors as saturation() uses
    scores = K @ Q[0]  # (n_tokens,)
    return OneRow(scores=scores, scaled_weights=softmax(scores / np.sqrt(d_k)), raw_weights=softmax(scores))


# ----------------------------------------------------------------------------- what the page says


def one_hot_text(d_k: int, *, n_tokens: int, seed: int) -> str:
    """How many rows are one-hot (largest weight ≥ 0.99), unscaled and scaled: the count the d_k challenge checks,
    beside the average largest weight, which may stay below 0.99 when most rows are one-hot."""
    counts = [int((_weights(d_k, n_tokens, seed, scale=scale).max(axis=1) >= 0.99).sum()) for scale in (False, True)]
    return (
        f"One-hot rows (largest weight ≥ 0.99) at d_k = {d_k}: **{counts[0]} of {n_tokens}** unscaled, "
        f"**{counts[1]} of {n_tokens}** scaled."
    )


def uniform_text(n_tokens: int) -> str:
    """The entropy of a row that gives every key the same weight, worked out."""
    return f"log₂ {n_tokens} = {format_fixed(float(np.log2(n_tokens)))} bits"


def softmax_text(n_tokens: int) -> str:
    """What a wide spread does to softmax, and the entropy of a uniform row of ``n_tokens`` worked out."""
    return (
        "Softmax turns gaps between scores into ratios of weights: a gap of g becomes a factor of eᵍ. When the "
        "scores spread out like √d_k, the top score pulls far ahead and takes almost all the weight. The row's "
        f"**entropy** measures how spread the weights are: {uniform_text(n_tokens)} when every key gets the "
        "same weight, 0 when one key gets it all. Such a row also hurts training. A model learns by nudging its "
        "scores and seeing how the weights change; when one weight is almost 1 and the rest almost 0, a small nudge "
        "to any score barely changes any weight, so the model gets almost no signal about which way to move, and "
        "learns slowly."
    )


def row_text(row: OneRow, d_k: int) -> str:
    """Query 0's largest weight both ways, and where the slider can go from ``d_k`` (never "up" at its maximum)."""
    slide = (
        "Slide d_k up and watch the unscaled row collapse onto one key."
        if d_k < MAX_LESSON_DK
        else f"d_k = {d_k} is the slider's largest: slide it down and watch the unscaled row spread out again."
    )
    return (
        f"Unscaled, query 0's largest weight is **{format_fixed(row.raw_weights.max(), decimals=3)}**; scaled, it is "
        f"**{format_fixed(row.scaled_weights.max(), decimals=3)}**. {slide}"
    )


def variance_readings(curve: VarianceCurve, d_k: int) -> tuple[tuple[str, str], tuple[str, str]]:
    """The two variances at ``d_k`` as (label, value), to the same digits: at d_k = 1 dividing by √1 changes nothing,
    and the two read the same."""
    at = position(curve.dims, d_k)
    return (
        (f"Var(q·k) at d_k = {d_k}", format_fixed(curve.raw[at], decimals=3)),
        (f"Var(q·k / √d_k) at d_k = {d_k}", format_fixed(curve.scaled[at], decimals=3)),
    )


def rows_caption(n_tokens: int) -> str:
    """What the softmax numbers average over: "both" rows of two, "all n" of more."""
    rows = "both query rows" if n_tokens == 2 else f"all {n_tokens} query rows"
    return f"Averaged over {rows} of one random Q and K at each d_k."


SPREAD_KEY = ("why_scale", "spread")  # the question's key: one guess a session, whatever the seed
SPREAD_CHOICES = (
    "Scores spread out; the top weight nears 1",
    "Scores spread out; the top weight shrinks",
    "Both stay about the same",
)


def spread_question(curve: VarianceCurve, curves: Saturation) -> ChoiceQuestion:
    """The page's question, asked before d_k moves, answered by the page's own curves from the smallest d_k to the
    largest."""
    grows = curve.raw[-1] > 2 * curve.raw[0]
    heavier = curves.max_raw[-1] > curves.max_raw[0]
    right = 2 if not grows else 0 if heavier else 1
    low, high = int(curve.dims[0]), int(curve.dims[-1])
    why = (
        f"From d_k = {low} to d_k = {high}, Var(q·k) goes from {format_fixed(curve.raw[0], decimals=3)} to "
        f"{format_fixed(curve.raw[-1], decimals=3)}, and the largest unscaled weight, averaged over the rows, from "
        f"{format_fixed(curves.max_raw[0], decimals=3)} to {format_fixed(curves.max_raw[-1], decimals=3)}. Now move d_k."
    )
    asked = "Predict first: as d_k grows, what happens to the raw scores q·k and to the largest softmax weight?"
    return ChoiceQuestion(*SPREAD_KEY, asked, SPREAD_CHOICES, right, why)


# ----------------------------------------------------------------------------- the divisor in words (Step by step)


def divisor_words(*, scale: bool, d_k: int, temperature: float) -> str:
    """What the scores are divided by, written out: "√d_k · τ = √4 · 0.5 = 1"."""
    divisor = (math.sqrt(d_k) if scale else 1.0) * temperature
    if not scale:
        return f"τ = {format_number(divisor)} (scaling is off, so only the temperature divides)"
    return f"√d_k · τ = √{d_k} · {format_number(temperature)} = {format_number(divisor)}"


def scale_explanation(*, scale: bool, d_k: int, temperature: float) -> str:
    """What dividing by this divisor does: nothing at 1, flatter rows above 1, sharper rows below 1."""
    divisor = (math.sqrt(d_k) if scale else 1.0) * temperature
    written = divisor_words(scale=scale, d_k=d_k, temperature=temperature)
    if math.isclose(divisor, 1.0, rel_tol=1e-12):
        return f"Every score is divided by {written} here, so the scores pass through unchanged."
    if divisor > 1:
        return (
            f"Every score is divided by {written}. The order within a row stays the same, but the gaps between "
            "scores shrink, so the softmax that follows is less extreme. This is why attention divides by √d_k: "
            "with many dimensions, raw scores lie so far apart that one key takes all the weight."
        )
    return (
        f"Every score is divided by {written}. A divisor below 1 makes every score bigger: the order within a row "
        "stays the same, but the gaps between scores grow, so the softmax that follows gets sharper."
    )
