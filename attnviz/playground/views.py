"""The Playground's four attention views as cell models (attnviz.figures.matrix_view) for the attention-grid component.

The component draws each view on a canvas and keeps it: a toggle sends new numbers and the browser repaints the
cells in place, the colours gliding to their new values. A state's cells are computed once (cached): now, and again
as "before" for the next change, which is what decides the changed cells.
"""

from __future__ import annotations

import numpy as np

from attnviz.component.data import component_data
from attnviz.core.class_cache import cached_for_a_class
from attnviz.core.numbers import cell_decimals, format_number
from attnviz.core.playground_state import same_vectors
from attnviz.core.text import plain
from attnviz.figures.lens import lens_of
from attnviz.figures.matrix_view import Cells, Scale, cells_of, covered, view_of
from attnviz.lessons import predictions
from attnviz.lessons.playground import words_around
from attnviz.playground.controls import ACTIONS, CONTROLS


@cached_for_a_class  # a state's cells are computed once: now, and again as "before" for the next change
def _cells(state, drawn: str, masked: bool, scale: Scale) -> Cells:
    result = state.result()
    return cells_of(getattr(result, drawn), result.blocked if masked else None, scale)


def _view(state, previous, spec: tuple, font_size: int) -> dict:
    """One view of the state; cells whose shown value moved since ``previous`` are changed, and boxed in orange
    where ``boxes_changes`` allows (never every cell: the line under the views says so instead)."""
    name, title, drawn, scale, value_name, masked, columns = spec
    cells = _cells(state, drawn, masked, scale)
    changed = None
    if previous is not None:
        before = _cells(previous, drawn, masked, scale).said
        changed = before != cells.said if before.shape == cells.said.shape else None
    return view_of(
        cells,
        state.labels,
        columns,
        name=name,
        title=title,
        scale=scale,
        value_name=value_name,
        font_size=font_size,
        focus=state.focus,
        changed=changed,
    )


def playground_views(
    state,
    previous=None,
    *,
    font_size: int = 13,
    covers: dict[str, str] | None = None,
    choices: list[str] = (),
    marks: list[tuple] = (),
) -> list[dict]:
    """Raw scores, scaled and masked scores, weights and outputs of a PlaygroundState, in reading order.

    Raw and scaled scores share one colour scale fixed by the largest raw score, so toggling the scaling or the
    temperature changes the colours only as much as it changes the numbers. A cell is changed when what it shows a
    reader differs from ``previous`` (the state before the last change): one decision, which the boxes and the line
    under the views both use. ``covers`` names views to cover (predict mode), each with the words on its cover;
    ``choices`` are buttons on the covered weights, where a prediction is not a cell; ``marks`` the weights' cells
    outlined as the student's prediction.
    """
    result, labels = state.result(), state.labels
    score_scale = Scale("signed", reach_of_scores(result))
    raw_scale = Scale("signed", score_scale.reach, cell_decimals(result.scale_factor))  # view 2 is view 1 ÷ this
    value_scale = Scale("signed", float(np.abs(state.matrices()[2]).max() or 1.0))  # the largest |v|
    dims = [f"d{j + 1}" for j in range(state.d_v)]
    views = (
        # name, title, the result's matrix drawn, scale, value name, masked cells shown, columns
        ("scores", "1. Raw scores QKᵀ", "scores", raw_scale, "score", False, labels),
        ("scaled", scores_title(state), "scaled", score_scale, "score", True, labels),
        ("weights", "3. Weights: softmax of each row", "weights", Scale("weights"), "weight", True, labels),
        ("output", "4. Output: weights · V", "output", value_scale, "value", False, dims),
    )
    # New vectors make every view new, which the line under the views says in words, boxing nothing.
    before = previous if previous is not None and same_vectors(previous, state) else None
    covers = covers or {}
    shown = [covered(_view(state, before, spec, font_size), covers.get(spec[0])) for spec in views]
    if "weights" in covers and choices:
        shown[2]["choices"] = list(choices)
    shown[2]["boxes"] = [list(mark) for mark in marks]
    return shown


def reach_of_scores(result) -> float:
    """The colour scale of both score views: the largest |raw score|, which no toggle changes."""
    finite = np.abs(result.scores)
    return float(finite.max()) if finite.size and finite.max() > 0 else 1.0


def scores_title(state) -> str:
    """View 2's title: what was done to the raw scores, and only that ("as they are" when nothing was)."""
    steps = (["÷ √d_k"] if state.scale else []) + (
        [f"÷ τ={format_number(state.temperature)}"] if state.temperature != 1 else []
    )
    masked = state.causal or bool(state.blocked_keys)
    if not steps:
        return "2. Scores, masked" if masked else "2. Scores as they are (no scaling, no mask)"
    return f"2. Scores QKᵀ {' '.join(steps)}" + (", masked" if masked else "")


READING = (
    " Colours keep their scale while you toggle. Read a cell by hovering it, or tab to a view and use the arrow keys."
)
# On a touch-only screen (no hover, no keys): what a tap does there (attnviz/component/view.js).
TOUCH_READING = (
    " Colours keep their scale while you toggle. Tap a cell to read it; tap a row's label to make it the focus token."
)


def playground_data(
    state,
    previous,
    made,
    *,
    font_size: int,
    height: int,
    can_undo: bool,
    warning: str | None = None,
    picks: tuple[int, ...] = (),
    lens: bool = False,
    answer_line: tuple[str, str] | None = None,
    question: str = "",
) -> dict:
    """The Playground's instrument as the component takes it, for either host (a page, a notebook widget): its
    controls in a rail beside the four views, the example's note, a warning (``warning``, else a fully masked row's)
    and the line saying what moved. ``made`` is predict mode's (prediction, state it was asked on), None until the
    student clicks one: until then the weights and outputs are covered (the mask question's ``picks`` outlined on
    them), and after it the prediction is outlined on the weights. ``lens``: presenter mode's focus row, large
    (attnviz.figures.lens), hidden while the weights are covered (the focus row would answer the question).
    ``answer_line``: where a class answer stands, (words, tone), under the weights a student answers on.
    ``question``: a lesson's own question, said on the cover instead of predict mode's."""
    covered_ = bool(state.predict) and made is None
    asked = "" if not covered_ else predictions.cover_asking(state, question) if question else None
    if asked is None:  # predict mode's own question, asked on the cover
        asked = predictions.PlaygroundQuestion(state, picks).cover()
    covers = {"weights": asked, "output": predictions.COVERED_OUTPUT} if covered_ else None
    marks = predictions.marked(state, None, picks) if covered_ else predictions.marked(made[1], made[0]) if made else []
    choices = predictions.choices(state, picks) if state.predict else []  # predict mode's buttons, only when it is on
    views = playground_views(state, previous, font_size=font_size, covers=covers, choices=choices, marks=marks)
    prompt = (f"Predict first: {asked}" if question else predictions.prompt(state)) if covered_ else ""
    words = words_around(previous, state, views, made=made, prompt=prompt)
    data = component_data(
        views,
        controls=controls_of(state, can_undo=can_undo),
        note=words.note,
        warning=warning or words.warning,
        caption=words.said + READING,
        touch_caption=words.said + TOUCH_READING,
        height=height,
        font_size=font_size,
        columns=[1, 1],
        enter="Enter makes its row the focus token.",
        lines={"weights": answer_line} if answer_line else None,
    )
    return data | {"lens": lens_of(views) if lens and not covered_ else None}


def controls_of(playground, *, can_undo: bool) -> list[dict]:
    """Each control of the table (attnviz.playground.controls) as the rail draws it, with its field's current value (a
    tuple as a list) and its user text (token labels) made plain; then the actions (Undo, off when ``can_undo`` is
    not)."""
    shown = []
    for control in CONTROLS.values():
        spec = {"kind": control.kind, "field": control.field, "label": control.label, "help": control.help}
        if control.kind == "range":
            spec |= {"min": control.low, "max": control.high, "step": control.step}
        elif control.options:  # a choice of its own options: shown by label, sent back as its value
            spec |= {"options": list(control.options.values()), "values": list(control.options)}
        elif control.kind in ("toggles", "choice"):  # a chip per token; an option per position: token label
            spec["options"] = [
                plain(option) for option in (playground.tokens if control.kind == "toggles" else playground.labels)
            ]
            spec |= {"values": list(range(len(spec["options"])))} if control.kind == "choice" else {}
        value = getattr(playground, control.field)
        shown.append(spec | {"value": list(value) if isinstance(value, tuple) else value})
    return shown + [
        {"kind": "button", "field": action, "label": label, "disabled": not can_undo}
        for action, label in ACTIONS.items()
    ]
