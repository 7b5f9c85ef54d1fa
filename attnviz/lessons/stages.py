"""The attention pipeline as separate stages, each with its matrix, what it changed and one cell worked out.

Stages: project (only when starting from embeddings X), scores, scale, mask, softmax, weighted sum. The numbers
come from one ``attention()`` call on the Playground's vectors, so the walkthrough always agrees with the Playground.
Formulas are LaTeX strings with the live numbers substituted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attnviz.core import AttentionResult, attention, causal_mask, project
from attnviz.core.playground_state import PlaygroundState
from attnviz.core.random import random_embeddings, random_projections

MAX_TERMS = 6  # a sum with more terms is shown as its first few, then "+ ⋯"

STAGE_TITLES = {
    "project": "Project: Q = X W_Q, K = X W_K, V = X W_V",
    "scores": "Scores: S = Q Kᵀ",
    "scale": "Scale: divide by √d_k",
    "mask": "Mask: hide what a token may not see",
    "softmax": "Softmax: each row becomes weights",
    "output": "Weighted sum: output = weights · V",
}


@dataclass(frozen=True)
class Panel:
    """One matrix to draw. ``changed`` marks the cells this stage altered (None: every cell is new)."""

    title: str
    matrix: np.ndarray  # (rows, cols)
    kind: str  # "scores", "weights" or "values", as attnviz.figures.matrix_heatmap expects
    row_labels: list[str]
    col_labels: list[str]
    blocked: np.ndarray | None = None  # (rows, cols) bool, drawn as −∞
    changed: np.ndarray | None = None  # (rows, cols) bool


@dataclass(frozen=True)
class Stage:
    key: str
    title: str
    panels: tuple[Panel, ...]
    columns_are: str  # "key" or "dimension": what the chosen cell's column indexes


def _num(x: float, *, bracket: bool = True) -> str:
    """A number for a formula: 4 significant digits; negatives in brackets where they follow an operator."""
    if math.isinf(x):
        return r"-\infty" if x < 0 else r"\infty"
    text = f"{x:.4g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = rf"{mantissa}\times 10^{{{int(exponent)}}}"
    return f"({text})" if x < 0 and bracket else text


def _sum(terms: list[str]) -> str:
    shown = terms[:MAX_TERMS]
    more = len(terms) - len(shown)
    return " + ".join(shown) + (rf" + \cdots\ (\text{{{more} more}})" if more else "")


def _lines(lhs: str, *steps: str) -> str:
    """``lhs = step = step …``, one step a line, so a long sum stays on screen."""
    return rf"\begin{{aligned}} {lhs} &= " + r" \\ &= ".join(steps) + r" \end{aligned}"


def _products(a, b) -> str:
    return _sum([rf"{_num(x)} \cdot {_num(y)}" for x, y in zip(a, b, strict=True)])


@dataclass(frozen=True)
class Walkthrough:
    labels: list[str]
    Q: np.ndarray  # (n, d_k)
    K: np.ndarray  # (n, d_k)
    V: np.ndarray  # (n, d_v)
    result: AttentionResult
    causal: bool
    scale: bool
    temperature: float
    blocked_keys: tuple[int, ...]
    X: np.ndarray | None = None  # (n, d_model), when starting from embeddings
    W_q: np.ndarray | None = None  # (d_model, d_k)
    W_k: np.ndarray | None = None  # (d_model, d_k)
    W_v: np.ndarray | None = None  # (d_model, d_v)

    @property
    def stage_keys(self) -> tuple[str, ...]:
        keys = ("scores", "scale", "mask", "softmax", "output")
        return keys if self.X is None else ("project", *keys)

    @property
    def d_k(self) -> int:
        return self.Q.shape[1]

    def _dims(self, width: int) -> list[str]:
        return [f"dim {c + 1}" for c in range(width)]

    def _why_blocked(self, i: int, j: int) -> str:
        if self.causal and j > i:
            return "key comes after the query (causal mask)"
        return "key is blocked for every query"

    def stage(self, key: str) -> Stage:
        r, labels = self.result, self.labels
        if key == "project":
            panels = tuple(
                Panel(f"{name} = X W_{name}", m, "values", labels, self._dims(m.shape[1]))
                for name, m in (("Q", self.Q), ("K", self.K), ("V", self.V))
            )
            return Stage(key, STAGE_TITLES[key], panels, "dimension")
        if key == "scores":
            return Stage(key, STAGE_TITLES[key], (Panel("S = Q Kᵀ", r.scores, "scores", labels, labels),), "key")
        if key == "scale":
            every = np.full(r.scaled.shape, r.scale_factor != 1.0)  # dividing by 1 changes nothing
            panel = Panel(f"S / {r.scale_factor:.4g}", r.scaled, "scores", labels, labels, changed=every)
            return Stage(key, STAGE_TITLES[key], (panel,), "key")
        if key == "mask":
            after = Panel("After the mask", r.masked, "scores", labels, labels, blocked=r.blocked, changed=r.blocked)
            # The other architecture, for comparison: an encoder sees every key, a decoder only the past.
            padding = np.zeros_like(r.blocked)  # keys the Playground blocks for every query stay blocked
            padding[:, list(self.blocked_keys)] = True
            other_blocked = padding if self.causal else padding | ~causal_mask(len(labels))
            other_title = "If it were an encoder (no causal mask)" if self.causal else "If it were a decoder (causal)"
            other = Panel(
                other_title,
                np.where(other_blocked, -np.inf, r.scaled),
                "scores",
                labels,
                labels,
                blocked=other_blocked,
                changed=other_blocked,
            )
            return Stage(key, STAGE_TITLES[key], (after, other), "key")
        if key == "softmax":
            panel = Panel("Weights", r.weights, "weights", labels, labels, blocked=r.blocked)
            return Stage(key, STAGE_TITLES[key], (panel,), "key")
        if key == "output":
            panel = Panel("Output = weights · V", r.output, "values", labels, self._dims(r.output.shape[1]))
            return Stage(key, STAGE_TITLES[key], (panel,), "dimension")
        raise KeyError(key)

    def formula(self, key: str, i: int, col: int) -> str:
        """LaTeX for cell (i, col) of the stage's main matrix, with the live numbers. Token subscripts are
        positions (from 0, as in the labels); dimension subscripts count from 1, as in "dim 1"."""
        r = self.result
        if key == "project":
            return _lines(
                rf"Q_{{{i},{col + 1}}}",
                rf"\sum_m X_{{{i},m}}\,W^Q_{{m,{col + 1}}}",
                rf"{_products(self.X[i], self.W_q[:, col])} = {_num(self.Q[i, col], bracket=False)}",
            )
        if key == "scores":
            return _lines(
                rf"S_{{{i},{col}}}",
                rf"q_{{{i}}}\cdot k_{{{col}}}",
                rf"{_products(self.Q[i], self.K[col])} = {_num(r.scores[i, col], bracket=False)}",
            )
        if key == "scale":
            divisor = rf"\sqrt{{{self.d_k}}}" if self.scale else "1"
            if self.temperature != 1.0:
                divisor += rf"\times {_num(self.temperature)}"
            return (
                rf"\frac{{S_{{{i},{col}}}}}{{{divisor}}} = \frac{{{_num(r.scores[i, col])}}}{{{_num(r.scale_factor)}}}"
                rf" = {_num(r.scaled[i, col], bracket=False)}"
            )
        if key == "mask":
            if r.blocked[i, col]:
                return rf"M_{{{i},{col}}} = -\infty \quad \text{{({self._why_blocked(i, col)})}}"
            return rf"M_{{{i},{col}}} = {_num(r.scaled[i, col], bracket=False)} \quad \text{{(allowed: unchanged)}}"
        if key == "softmax":
            if r.fully_masked[i]:
                return rf"w_{{{i},{col}}} = 0 \quad \text{{(every key is masked for this query)}}"
            if r.blocked[i, col]:
                return rf"w_{{{i},{col}}} = \frac{{e^{{-\infty}}}}{{\cdots}} = 0"
            row = r.masked[i]
            peak = float(row[np.isfinite(row)].max())
            exps = np.exp(row - peak)  # masked entries give exp(−∞) = 0
            return _lines(
                rf"w_{{{i},{col}}}",
                rf"\frac{{e^{{M_{{{i},{col}}} - m}}}}{{\sum_{{j}} e^{{M_{{{i},j}} - m}}}}"
                rf" \quad (m = \max_j M_{{{i},j}} = {_num(peak, bracket=False)})",
                rf"\frac{{e^{{{_num(row[col])} - {_num(peak)}}}}}{{{_sum([_num(e) for e in exps])}}}",
                rf"\frac{{{_num(exps[col])}}}{{{_num(exps.sum())}}} = {_num(r.weights[i, col])}",
            )
        if key == "output":
            return _lines(
                rf"\text{{out}}_{{{i},{col + 1}}}",
                rf"\sum_j w_{{{i},j}}\,V_{{j,{col + 1}}}",
                rf"{_products(r.weights[i], self.V[:, col])} = {_num(r.output[i, col], bracket=False)}",
            )
        raise KeyError(key)


def walkthrough(state: PlaygroundState, *, from_embeddings: bool = False, d_model: int = 4) -> Walkthrough:
    """The Playground's attention pass as stages. With ``from_embeddings`` Q, K and V are made by projecting
    random embeddings (seeded by the Playground's seed) instead of being the Playground's own vectors."""
    X = W_q = W_k = W_v = None
    if from_embeddings:
        X = random_embeddings(state.n, d_model, state.seed)  # (n, d_model)
        W_q, W_k, W_v, _ = random_projections(d_model, state.seed, d_k=state.d_k, d_v=state.d_v)
        Q, K, V = project(X, W_q, W_k, W_v)
        result = attention(
            Q, K, V, causal=state.causal, scale=state.scale, temperature=state.temperature, mask=state.allow_mask()
        )
    else:
        Q, K, V = state.matrices()
        result = state.result()  # the very numbers the Playground shows
    return Walkthrough(
        labels=state.labels,
        Q=Q,
        K=K,
        V=V,
        result=result,
        causal=state.causal,
        scale=state.scale,
        temperature=state.temperature,
        blocked_keys=state.blocked_keys,
        X=X,
        W_q=W_q,
        W_k=W_k,
        W_v=W_v,
    )
