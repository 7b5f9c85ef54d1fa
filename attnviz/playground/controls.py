"""The one table of the Playground's fields and their checks. CONTROLS, beside the views: each field's kind, label,
help and check; the views component draws them from it (attnviz.ui.attention_grid). SETTINGS, above the views (the
sentence, the example, the sizes, the seed): each field's check and the move that sets it. A widget, a notebook trait,
a control and a share link all pass their values through ``set_field`` or the same checks (attnviz.classroom.share).
Actions (Undo) are not fields: they are listed apart."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from attnviz.core.limits import MAX_TEMPERATURE, MIN_TEMPERATURE
from attnviz.core.playground_state import (
    PlaygroundState,
    load_example,
    randomise,
    set_dim,
    set_sentence,
)
from attnviz.lessons import predictions
from attnviz.playground import fields


@dataclass(frozen=True)
class Control:
    field: str  # the PlaygroundState field it shows and sets
    kind: str  # "check", "range", "toggles" (one chip a token) or "choice" (one option a token, or ``options``)
    label: str
    help: str
    check: Callable[[Any, int], Any]  # (value as sent, number of tokens) → the field's value; AttnvizInputError if bad
    low: float = 0.0  # a range's bounds and step
    high: float = 1.0
    step: float = 1.0
    options: dict[str, str] | None = None  # a choice's own options (value: label), where they are not the tokens


CONTROLS: dict[str, Control] = {
    control.field: control
    for control in (
        Control(
            "predict",
            "choice",
            "Predict first",
            "Covers the weights and outputs until you click your prediction on them: the key the focus token attends "
            "to most, or what switching scaling or the mask will do to its row. Every change asks again.",
            lambda value, n: predictions.kind_of(value),
            options=predictions.KINDS,
        ),
        Control(
            "causal",
            "check",
            "Causal mask",
            "Each token sees only itself and earlier ones.",
            lambda value, n: fields.boolean(value, "the causal setting"),
        ),
        Control(
            "scale",
            "check",
            "Scale by 1/√d_k",
            "Divide every score by √d_k.",
            lambda value, n: fields.boolean(value, "the scaling setting"),
        ),
        Control(
            "temperature",
            "range",
            "Temperature τ",
            "Scores are divided by τ: below 1 sharpens the softmax, above 1 flattens it.",
            lambda value, n: fields.temperature(value),
            low=MIN_TEMPERATURE,
            high=MAX_TEMPERATURE,
            step=0.05,
        ),
        Control(
            "blocked_keys",
            "toggles",
            "Block keys (padding mask)",
            "A blocked key gets weight 0 from every query. Click a token to block it, again to unblock.",
            fields.blocked_keys,
        ),
        Control(
            "focus",
            "choice",
            "Focus token (query)",
            "Its row is outlined in every view. Clicking a cell or a row label of a view also chooses its row.",
            lambda value, n: fields.whole(value, "the focus token", 0, n - 1),
        ),
    )
}
ACTIONS = {"undo": "Undo"}  # buttons beside the controls: not fields, nothing to check


@dataclass(frozen=True)
class Setting:
    field: str  # the PlaygroundState field it sets
    check: Callable[[Any, PlaygroundState], Any]  # (value as sent, state) → the value the move takes
    move: Callable[[PlaygroundState, Any], PlaygroundState | tuple[PlaygroundState, str | None]]


SETTINGS: dict[str, Setting] = {
    setting.field: setting
    for setting in (
        Setting("seed", fields.seed, randomise),
        Setting("example", fields.example, load_example),
        Setting("sentence", fields.sentence_text, set_sentence),
        Setting("d_k", partial(fields.size, what="d_k (the query and key size)"), partial(set_dim, which="d_k")),
        Setting("d_v", partial(fields.size, what="d_v (the value size)"), partial(set_dim, which="d_v")),
    )
}


def set_field(state: PlaygroundState, field: str, value) -> tuple[PlaygroundState, str | None]:
    """The state with ``field`` set from ``value`` as any host sent it, by the field's check and move, and what to
    say (or None). AttnvizInputError, in words for a student, if the check refuses the value."""
    if field in CONTROLS:
        return _set_control(state, field, value), None
    setting = SETTINGS[field]
    new = setting.move(state, setting.check(value, state))
    return new if isinstance(new, tuple) else (new, None)


def _set_control(state, field: str, value):
    """The state with ``field`` set from ``value`` as a control sent it (checked by the field's control; blocked keys
    kept sorted), whichever host sent it. AttnvizInputError, in words for a student, if the value fails."""
    checked = CONTROLS[field].check(value, state.n)
    return replace(state, **{field: tuple(sorted(checked)) if field == "blocked_keys" else checked})
