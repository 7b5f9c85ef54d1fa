"""The attention pipeline as a list of stages, each carrying its pictures, words and one cell worked out.

Stages: project (only when starting from embeddings X), scores, scale, mask, softmax, weighted sum. The numbers
come from one ``attention()`` call on the Playground's vectors, so the walkthrough always agrees with the Playground.
Every sentence is built from the live numbers, so it says what this divisor or this mask actually did.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from attnviz.core import AttentionResult, attention, causal_mask, project
from attnviz.core.numbers import CELL_DECIMALS, cell_decimals, format_number, shown_values
from attnviz.core.playground_state import PlaygroundState
from attnviz.core.random import random_embeddings, random_projections
from attnviz.lessons.scaling import scale_explanation
from attnviz.lessons.stage_formulas import (
    mask_formula,
    output_formula,
    project_formula,
    scale_formula,
    scores_formula,
    softmax_formula,
)
from attnviz.lessons.step_words import mask_caption, scale_caption

# Above this many tokens the mask stage leaves out the other architecture's picture: a third n × n picture is the
# stage's heaviest part (bench/README.md).
COMPARISON_LIMIT = 48
# key: (name in the list of stages, title, what the chosen cell's column indexes)
_ABOUT = {
    "project": ("Project", "Project: Q = X W_Q, K = X W_K, V = X W_V", "dimension"),
    "scores": ("Scores", "Scores: S = Q Kᵀ", "key"),
    "scale": ("Scale", "Scale: divide by √d_k · τ", "key"),
    "mask": ("Mask", "Mask: hide what a token may not see", "key"),
    "softmax": ("Softmax", "Softmax: each row becomes weights", "key"),
    "output": ("Weighted sum", "Weighted sum: output = weights · V", "dimension"),
}


@dataclass(frozen=True)
class Panel:
    """One matrix to draw.

    ``reach_of`` is the matrix whose largest |value| gets full colour: every score panel passes the raw scores, so
    scaling visibly lowers the contrast; V and the outputs share V's (an output is a blend of V's rows). ``changed``
    marks the cells this stage altered in its input (None: an input, or a matrix that is new here). ``picks`` says
    which cells the chosen (query, column) uses here: "cell", "row" (the query's row), "key_row" (row j of K),
    "column" or "none"."""

    title: str
    matrix: np.ndarray  # (rows, cols)
    kind: str  # "scores", "weights" or "values"
    row_labels: list[str]
    col_labels: list[str]
    reach_of: np.ndarray | None = None  # None for weights: always 0 to 1
    blocked: np.ndarray | None = None  # (rows, cols) bool: masked, −∞ as a score and 0 as a weight
    changed: np.ndarray | None = None  # (rows, cols) bool
    picks: str = "cell"
    decimals: int = 2  # its cells' (attnviz.core.numbers.cell_decimals): more where the next picture divides them

    @property
    def is_input(self) -> bool:
        """An input of its stage ("Before: …"), not what the stage computes: predict mode never covers one."""
        return self.title.startswith("Before")


@dataclass(frozen=True)
class Stage:
    """One stage: its pictures (inputs first, its result last), what it does, what changed, and a cell in numbers."""

    key: str
    name: str  # short, for the list of stages
    title: str
    panels: tuple[Panel, ...]
    explanation: str  # markdown, no user text
    caption: str  # what changed between the input and the result, from the numbers
    columns_are: str  # "key" or "dimension": what the chosen cell's column indexes
    formula: Callable[[int, int], str]  # LaTeX for cell (query, column) of the result, with the live numbers

    @property
    def result(self) -> Panel:
        return self.panels[-1]

    @property
    def worked_out(self) -> Panel:
        """The picture whose cells ``formula`` works out: the first result (Q at the projection stage, where K and V
        beside it are made the same way and may be wider or narrower; the Playground's mask before the other one)."""
        return next(panel for panel in self.panels if not panel.is_input)


@dataclass(frozen=True)
class Walkthrough:
    state: PlaygroundState  # the sentence and settings
    Q: np.ndarray  # (n, d_k)
    K: np.ndarray  # (n, d_k)
    V: np.ndarray  # (n, d_v)
    result: AttentionResult
    X: np.ndarray | None = None  # (n, d_model), when starting from embeddings
    W_q: np.ndarray | None = None  # (d_model, d_k)

    @property
    def stages(self) -> tuple[Stage, ...]:
        builders = (_scores, _scale, _mask, _softmax, _output)
        return tuple(build(self) for build in ((_project, *builders) if self.X is not None else builders))

    @property
    def d_k(self) -> int:
        return self.Q.shape[1]

    @property
    def labels(self) -> list[str]:
        return self.state.labels

    def dims(self, width: int) -> list[str]:
        return [f"dim {c + 1}" for c in range(width)]

    def scores_panel(self, title: str, matrix: np.ndarray, **marks) -> Panel:
        """A score matrix on the one colour scale every score panel shares: the raw scores'."""
        return Panel(title, matrix, "scores", self.labels, self.labels, reach_of=self.result.scores, **marks)


# ----------------------------------------------------------------------------- the stages


def _stage(key: str, panels, explanation: str, caption: str, formula: Callable[[int, int], str]) -> Stage:
    name, title, columns_are = _ABOUT[key]
    return Stage(key, name, title, panels, explanation, caption, columns_are, formula)


def _project(w: Walkthrough) -> Stage:
    n, d_model = w.X.shape
    both = np.concatenate([w.Q, w.K])  # Q and K on one scale: their products are the scores
    panels = (
        Panel("Before: X (embeddings)", w.X, "values", w.labels, w.dims(d_model), reach_of=w.X, picks="row"),
        Panel("After: Q", w.Q, "values", w.labels, w.dims(w.d_k), reach_of=both),
        Panel("After: K", w.K, "values", w.labels, w.dims(w.d_k), reach_of=both, picks="none"),
        Panel("After: V", w.V, "values", w.labels, w.dims(w.V.shape[1]), reach_of=w.V, picks="none"),
    )
    explanation = (
        f"Each token starts as an embedding, one row of X ({n} × {d_model}). Three matrices turn it into a query "
        f"(what it looks for), a key (what it offers) and a value (what it passes on). In a trained model they are "
        f"learned; here they are random from the Playground's seed ({w.state.seed})."
    )
    caption = "Q, K and V are new at this stage: each row is that token's row of X times a matrix."
    return _stage("project", panels, explanation, caption, partial(project_formula, w.X, w.W_q, w.Q))


def _scores(w: Walkthrough) -> Stage:
    both = np.concatenate([w.Q, w.K])
    panels = (
        Panel("Before: Q", w.Q, "values", w.labels, w.dims(w.d_k), reach_of=both, picks="row"),
        Panel("Before: K", w.K, "values", w.labels, w.dims(w.d_k), reach_of=both, picks="key_row"),
        w.scores_panel("After: S = Q Kᵀ", w.result.scores),
    )
    explanation = (
        "Cell (i, j) is query i's dot product with key j: large when what token i looks for matches what token j "
        "offers. Row i lists everything token i could attend to."
    )
    caption = "Every score is new at this stage: one dot product for each query and key."
    return _stage("scores", panels, explanation, caption, partial(scores_formula, w.Q, w.K, w.result.scores))


def _scale(w: Walkthrough) -> Stage:
    r = w.result
    decimals = cell_decimals(r.scale_factor)  # S ÷ 0.1 worked out from S's digits needs a third decimal
    before, after = (shown_values(m, d) for m, d in ((r.scores, decimals), (r.scaled, CELL_DECIMALS)))
    changed = before != after  # the cells a reader sees change (0.00 ÷ 1.414 is still 0.00; "0.000" is "0.00")
    panels = (
        w.scores_panel("Before: S", r.scores, decimals=decimals),
        w.scores_panel(f"After: S ÷ {format_number(r.scale_factor)}", r.scaled, changed=changed),
    )
    caption = scale_caption(r.scale_factor, changed)
    explanation = scale_explanation(scale=w.state.scale, d_k=w.d_k, temperature=w.state.temperature)
    return _stage(
        "scale",
        panels,
        explanation,
        caption,
        partial(scale_formula, r, d_k=w.d_k, scale=w.state.scale, temperature=w.state.temperature),
    )


def _other_architecture(w: Walkthrough) -> Panel:
    """The mask the other choice would set: an encoder sees every key, a decoder only the past. Keys the Playground
    blocks for every query stay blocked."""
    r = w.result
    other_blocked = np.zeros_like(r.blocked)
    other_blocked[:, list(w.state.blocked_keys)] = True
    if not w.state.causal:
        other_blocked |= ~causal_mask(len(w.labels))
    return w.scores_panel(
        "If it were an encoder (no causal mask)" if w.state.causal else "If it were a decoder (causal)",
        np.where(other_blocked, -np.inf, r.scaled),
        blocked=other_blocked,
    )  # not boxed: the boxes are this stage's changes, and the other choice's masked cells are grey already


def _mask(w: Walkthrough) -> Stage:
    r = w.result
    panels = (
        w.scores_panel("Before: scaled scores", r.scaled),
        w.scores_panel("After: the Playground's mask", r.masked, blocked=r.blocked, changed=r.blocked),
    )
    if len(w.labels) <= COMPARISON_LIMIT:
        panels += (_other_architecture(w),)
        other = "; the third picture shows the other choice."
    else:
        other = f". (Above {COMPARISON_LIMIT} tokens the other choice is not drawn, to keep the page quick.)"
    blocks = ", ".join(map(str, w.state.blocked_keys))
    also = f", and also blocks key{'s' if len(w.state.blocked_keys) > 1 else ''} {blocks} for every query" if blocks else ""
    explanation = (
        "The mask sets the scores a query may not use to −∞, so the softmax gives them exactly 0. An **encoder** "
        "(BERT) has no *causal* mask: every token sees every token, before and after it. It masks only padding, the "
        "filler tokens that make a batch's shorter sentences as long as its longest; the Playground's blocked keys "
        "work the same way. A **decoder** (GPT) writes one token after another, so it "
        f"has a *causal* mask: token i sees only tokens 0…i. The Playground is set up as "
        f"{'a decoder' if w.state.causal else 'an encoder'}{also}{other}"
    )
    return _stage("mask", panels, explanation, mask_caption(r.blocked), partial(mask_formula, r, causal=w.state.causal))


def _softmax(w: Walkthrough) -> Stage:
    r = w.result
    panels = (
        w.scores_panel("Before: masked scores", r.masked, blocked=r.blocked, picks="row"),
        Panel("After: weights", r.weights, "weights", w.labels, w.labels, blocked=r.blocked),
    )
    caption = (
        "Every cell changed: each row became weights from 0 to 1 that add up to 1 (weights have their own 0-to-1 "
        "colours). A masked cell's weight is exactly 0."
    )
    if r.fully_masked.any():
        caption += " A row whose keys are all blocked has no weights: it stays all 0."
    explanation = (
        "Each row is exponentiated and divided by its sum, so it becomes positive weights that add up to 1. "
        "Subtracting the row's largest score m first changes nothing in the result but keeps eˣ from overflowing."
    )
    return _stage("softmax", panels, explanation, caption, partial(softmax_formula, r))


def _output(w: Walkthrough) -> Stage:
    r, d_v = w.result, w.V.shape[1]
    panels = (
        Panel("Before: weights", r.weights, "weights", w.labels, w.labels, blocked=r.blocked, picks="row"),
        Panel("Before: V", w.V, "values", w.labels, w.dims(d_v), reach_of=w.V, picks="column"),
        Panel("After: output", r.output, "values", w.labels, w.dims(d_v), reach_of=w.V),
    )
    explanation = (
        "Each token's output is a blend of all the value rows, mixed in the proportions of its weights. A token that "
        "put 0.9 on one key gets mostly that key's value."
    )
    caption = "Every output is new: row i blends V's rows by row i of the weights (V and the outputs share colours)."
    return _stage("output", panels, explanation, caption, partial(output_formula, r, w.V))


def walkthrough(state: PlaygroundState, *, from_embeddings: bool = False, d_model: int = 4) -> Walkthrough:
    """The Playground's attention pass as stages. With ``from_embeddings`` Q, K and V are made by projecting
    random embeddings (seeded by the Playground's seed) instead of being the Playground's own vectors."""
    X = W_q = None
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
    return Walkthrough(state, Q, K, V, result, X, W_q)
