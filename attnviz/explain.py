"""Words and formulas for one query row: the arithmetic a student would do by hand."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnviz.core import AttentionResult

WRITE_OUT_LIMIT = 4  # write q·k out term by term up to this many dimensions; beyond, it is a wall of numbers


def number(x: float) -> str:
    """Compact, honest formatting: 4 significant digits and a real minus sign."""
    if x == 0:
        return "0"
    text = f"{x:.4g}"
    return text.replace("-", "−")


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
    return f"M is −∞ {' and '.join(places)}, and 0 elsewhere. Since e^−∞ = 0, those keys get weight 0."


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


def vector_text(v) -> str:
    return "[" + ", ".join(number(x) for x in v) + "]"


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
