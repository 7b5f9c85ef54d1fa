"""Words and formulas for one query row: the arithmetic a student would do by hand."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnviz.core.attention import AttentionResult
from attnviz.core.numbers import format_number as number
from attnviz.core.numbers import format_vector as vector_text

WRITE_OUT_LIMIT = 4  # write q·k out term by term up to this many dimensions; beyond, it is a wall of numbers


def _factor(x: float) -> str:
    return f"({number(x)})" if x < 0 else number(x)


def formula_latex(*, causal: bool, scale: bool, temperature: float, has_blocked_keys: bool) -> str:
    """The attention formula for the current settings: the mask term and √d_k appear only when they are on."""
    divisor = [r"\sqrt{d_k}"] if scale else []
    if temperature != 1:
        divisor.append(rf"{number(temperature)}")  # the temperature τ, written as its value
    inside = r"Q K^\top"
    if divisor:
        joined = r" \cdot ".join(divisor)
        inside = rf"\frac{{{inside}}}{{{joined}}}"
    if causal or has_blocked_keys:
        inside += " + M"
    return rf"\mathrm{{Attention}}(Q, K, V) = \mathrm{{softmax}}\left({inside}\right) V"


def mask_explanation(*, causal: bool, has_blocked_keys: bool) -> str:
    places = []
    if causal:
        places.append("where the key comes after the query (the causal mask)")
    if has_blocked_keys:
        places.append("in the columns of blocked keys")
    if not places:
        return "No mask: every query may attend to every key (as in an encoder)."
    return f"M is −∞ {' and '.join(places)}, and 0 elsewhere. Since exp(−∞) = 0, those keys get weight 0."


@dataclass(frozen=True)
class KeyStep:
    key: str
    product: str  # q·k written out, or "" for wide vectors
    score: float
    scaled: float
    blocked: bool
    shifted_exp: float  # e^(scaled − max); 0 for a blocked key
    weight: float


@dataclass(frozen=True)
class RowArithmetic:
    query: str
    steps: list[KeyStep]
    divisor: float  # √d_k · temperature, or temperature alone
    row_max: float  # the max over unblocked scaled scores, subtracted before exp for stability
    exp_sum: float
    output: np.ndarray  # (d_v,)


def row_arithmetic(Q, K, result: AttentionResult, labels: list[str], i: int) -> RowArithmetic:
    """Every number between query ``i`` and its output, key by key."""
    q = np.asarray(Q)[i]  # (d_k,)
    allowed = ~result.blocked[i]  # (n_k,)
    row_max = float(result.scaled[i][allowed].max()) if allowed.any() else 0.0
    shifted = np.where(allowed, np.exp(result.scaled[i] - row_max, where=allowed, out=np.zeros(len(allowed))), 0.0)
    steps = []
    for j, key in enumerate(labels):
        k = np.asarray(K)[j]  # (d_k,)
        product = ""
        if len(q) <= WRITE_OUT_LIMIT:
            product = " + ".join(f"{_factor(a)}×{_factor(b)}" for a, b in zip(q, k, strict=True))
        steps.append(
            KeyStep(
                key=key,
                product=product,
                score=float(result.scores[i, j]),
                scaled=float(result.scaled[i, j]),
                blocked=bool(result.blocked[i, j]),
                shifted_exp=float(shifted[j]),
                weight=float(result.weights[i, j]),
            )
        )
    return RowArithmetic(
        query=labels[i],
        steps=steps,
        divisor=result.scale_factor,
        row_max=row_max,
        exp_sum=float(shifted.sum()),
        output=result.output[i],
    )


@dataclass(frozen=True)
class BlendTerm:
    key: str
    weight: float
    value: np.ndarray  # (d_v,) v_j
    contribution: np.ndarray  # (d_v,) w_j · v_j


def weighted_sum_terms(weights_row, V, labels: list[str]) -> list[BlendTerm]:
    """The terms of output = Σ_j w_j v_j, largest weight first; keys with weight exactly 0 add nothing and are left out."""
    weights_row, V = np.asarray(weights_row), np.asarray(V)  # (n_k,), (n_k, d_v)
    order = [j for j in np.argsort(-weights_row, kind="stable") if weights_row[j] > 0]
    return [BlendTerm(labels[j], float(weights_row[j]), V[j], weights_row[j] * V[j]) for j in order]


def divisor_text(result: AttentionResult, d_k: int, scale: bool, temperature: float) -> str:
    """What the scores were divided by, said with where it comes from: "√4 = 2", "√4 × τ = √4 × 0.5 = 1", "τ = 2",
    "1" (never a number said equal to itself)."""
    if not scale:
        return f"τ = {number(temperature)}" if temperature != 1 else "1"
    if temperature == 1:
        return f"√{d_k} = {number(result.scale_factor)}"
    return f"√{d_k} × τ = √{d_k} × {number(temperature)} = {number(result.scale_factor)}"


def arithmetic_columns(Q, K, result: AttentionResult, labels: list[str], i: int, *, scale: bool, temperature: float):
    """The focus table: for each key, q·k (then its terms), s = q·k ÷ divisor, e^(s − max s) and the weight, as text
    columns."""
    row = row_arithmetic(Q, K, result, labels, i)
    divisor = divisor_text(result, np.asarray(Q).shape[1], scale, temperature)
    return {
        "key": [s.key for s in row.steps],
        # the score first: a narrow column cuts the end of its text, and the terms are what may go
        "q·k": [number(s.score) + (f" = {s.product}" if s.product else "") for s in row.steps],
        f"s = q·k ÷ ({divisor})": ["−∞ (masked)" if s.blocked else number(s.scaled) for s in row.steps],
        "e^(s − max s)": [number(s.shifted_exp) for s in row.steps],
        "weight": [number(s.weight) for s in row.steps],
    }


def row_summary(result: AttentionResult, i: int) -> str:
    """The sentence under the focus table: the row's largest s, the sum of the exponentials."""
    if result.fully_masked[i]:
        return "Every key is blocked for this query, so all its weights are 0 and its output is zero."
    allowed = ~result.blocked[i]
    peak = float(result.scaled[i][allowed].max())
    total = float(np.exp(result.scaled[i][allowed] - peak).sum())
    return (
        f"The largest s in this row is {number(peak)}. Subtracting it before taking e^s avoids overflow and leaves "
        f"every weight unchanged. The e^(s − max s) column sums to {number(total)}, and each weight is its entry "
        "divided by that sum."
    )


def blend_columns(result: AttentionResult, V, labels: list[str], i: int):
    """The weighted-sum table: each key with weight > 0, its value and its contribution, largest weight first."""
    terms = weighted_sum_terms(result.weights[i], V, labels)
    return {
        "key": [t.key for t in terms] + ["output (the sum)"],
        "weight wⱼ": [number(t.weight) for t in terms] + [""],
        "value vⱼ": [vector_text(t.value) for t in terms] + [""],
        "wⱼ · vⱼ": [vector_text(t.contribution) for t in terms] + [vector_text(result.output[i])],
    }
