"""One cell of each Step-by-step stage worked out in LaTeX, with the live numbers substituted.

Token subscripts are positions (from 0, as in the labels); dimension subscripts count from 1, as in "dim 1".
"""

from __future__ import annotations

import numpy as np

from attnviz.core import AttentionResult
from attnviz.core.numbers import latex_number

MAX_TERMS = 6  # a sum with more terms is shown as its first few, then "+ ⋯ (n more = their sum)"


def _sum(terms: list[str], values, *, per_line: int | None = None) -> str:
    """``terms`` joined by +, the first MAX_TERMS written out and the rest as their count and their sum (from
    ``values``, each term's number), so the terms on screen add up to the result. With ``per_line`` (inside
    ``_lines``), that many terms a line and the rest on a line of its own, so the sum fits a phone's width."""
    shown = terms[:MAX_TERMS]
    hidden = np.asarray(values, dtype=float)[MAX_TERMS:]
    if len(hidden):
        shown.append(rf"\cdots\ (\text{{{len(hidden)} more}} = {latex_number(float(hidden.sum()), bracket=False)})")
    per_line = per_line or len(shown)
    lines = [" + ".join(shown[k : k + per_line]) for k in range(0, len(shown), per_line)]
    return r" \\ &\quad + ".join(lines)


def _lines(lhs: str, *steps: str) -> str:
    """``lhs = step = step …``, one step a line, so a long sum stays on screen."""
    return rf"\begin{{aligned}} {lhs} &= " + r" \\ &= ".join(steps) + r" \end{aligned}"


def _products(a, b) -> str:
    """Two products a line: six in one line are 1,077 px wide, three times a phone's width."""
    terms = [rf"{latex_number(x)} \cdot {latex_number(y)}" for x, y in zip(a, b, strict=True)]
    return _sum(terms, np.asarray(a, dtype=float) * np.asarray(b, dtype=float), per_line=2)


def _result(x: float) -> str:
    return latex_number(x, bracket=False)


def project_formula(X: np.ndarray, W_q: np.ndarray, Q: np.ndarray, i: int, col: int) -> str:
    """Q[i, col] = Σ_m X[i, m] W_q[m, col]."""
    return _lines(
        rf"Q_{{{i},{col + 1}}}",
        rf"\sum_m X_{{{i},m}}\,W^Q_{{m,{col + 1}}}",
        rf"{_products(X[i], W_q[:, col])} = {_result(Q[i, col])}",
    )


def scores_formula(Q: np.ndarray, K: np.ndarray, scores: np.ndarray, i: int, j: int) -> str:
    """S[i, j] = q_i · k_j."""
    return _lines(
        rf"S_{{{i},{j}}}",
        rf"q_{{{i}}}\cdot k_{{{j}}}",
        rf"{_products(Q[i], K[j])} = {_result(scores[i, j])}",
    )


def scale_formula(r: AttentionResult, i: int, j: int, *, d_k: int, scale: bool, temperature: float) -> str:
    """S[i, j] ÷ (√d_k · τ), the divisor written as the Playground sets it."""
    divisor = rf"\sqrt{{{d_k}}}" if scale else "1"
    if temperature != 1.0:
        divisor += rf"\times {latex_number(temperature)}"
    return (
        rf"\frac{{S_{{{i},{j}}}}}{{{divisor}}} = \frac{{{latex_number(r.scores[i, j])}}}"
        rf"{{{latex_number(r.scale_factor)}}} = {_result(r.scaled[i, j])}"
    )


def mask_formula(r: AttentionResult, i: int, j: int, *, causal: bool) -> str:
    """M[i, j]: the scaled score where the key is allowed, −∞ (and why) where it is not."""
    if not r.blocked[i, j]:
        return rf"M_{{{i},{j}}} = {_result(r.scaled[i, j])} \quad \text{{(allowed: unchanged)}}"
    why = "key comes after the query (causal mask)" if causal and j > i else "key is blocked for every query"
    return rf"M_{{{i},{j}}} = -\infty \quad \text{{({why})}}"


def softmax_formula(r: AttentionResult, i: int, j: int) -> str:
    """w[i, j] = e^(M[i, j] − m) / Σ e^(M[i, ·] − m), m the row's largest allowed score. The sum is worked out on lines
    of its own, two terms a line (a fraction cannot break: written in it, twelve terms ran past a projector's edge)."""
    if r.fully_masked[i]:
        return rf"w_{{{i},{j}}} = 0 \quad \text{{(every key is masked for this query)}}"
    if r.blocked[i, j]:
        return rf"w_{{{i},{j}}} = \frac{{e^{{-\infty}}}}{{\cdots}} = 0"
    row = r.masked[i]  # (n_k,)
    peak = float(row[np.isfinite(row)].max())
    exps = np.exp(row - peak)  # masked entries give exp(−∞) = 0
    terms = [latex_number(e) for e in exps]
    total = rf"\textstyle\sum_{{j}} e^{{M_{{{i},j}} - m}}"
    return (
        rf"\begin{{aligned}} w_{{{i},{j}}} &= \frac{{e^{{M_{{{i},{j}}} - m}}}}{{\sum_{{j}} e^{{M_{{{i},j}} - m}}}}"
        rf" \\ m &= \max_j M_{{{i},j}} = {_result(peak)}"
        rf" \\ {total} &= {_sum(terms, exps, per_line=2)} = {_result(exps.sum())}"
        # exp(…) rather than a superscript: its numbers as large as the rest, for the back of a room
        rf" \\ w_{{{i},{j}}} &= \frac{{\exp({latex_number(row[j])} - {latex_number(peak)})}}{{{latex_number(exps.sum())}}}"
        rf" = \frac{{{latex_number(exps[j])}}}{{{latex_number(exps.sum())}}} = {_result(r.weights[i, j])} \end{{aligned}}"
    )


def output_formula(r: AttentionResult, V: np.ndarray, i: int, col: int) -> str:
    """out[i, col] = Σ_j w[i, j] V[j, col]."""
    return _lines(
        rf"\text{{out}}_{{{i},{col + 1}}}",
        rf"\sum_j w_{{{i},j}}\,V_{{j,{col + 1}}}",
        rf"{_products(r.weights[i], V[:, col])} = {_result(r.output[i, col])}",
    )
