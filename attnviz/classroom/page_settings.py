"""The guided pages' settings a share link carries, each with the check a link's value must pass: so a teacher can
hand out "Why we scale at d_k = 512" or "Step by step at the mask, from embeddings". A value a page offers as a choice
(a stage, a token, a layer) is checked for its type here and falls back to the page's default when the page does not
offer it (``attnviz.ui.state.page_setting``); a slider's or a number box's value is checked against its range here,
since a widget refuses a value outside it. Watch it learn's run settings are carried, not its result: the link opens
the run set up, to train."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import (
    MAX_CHOICE,
    MAX_CHOICE_CHARS,
    MAX_D_MODEL,
    MAX_EPOCHS,
    MAX_LESSON_DK,
    MAX_ROW_TOKENS,
    MAX_SAMPLES,
    MIN_ROW_TOKENS,
    MIN_SAMPLES,
    VECTOR_LIMIT,
)
from attnviz.lessons.induction import EXPERIMENTS
from attnviz.models.base import check_sentence
from attnviz.models.hub import HUB_ID
from attnviz.models.registry import MODEL_NAMES
from attnviz.playground import fields as check
from attnviz.playground.fields import seed
from attnviz.train.config import LARGEST_TOKEN, SMALLEST_TOKEN


def _choice(value, what: str) -> Any:
    """A value the page offers as one of its choices: a whole number or a short text; the page checks it is one."""
    if isinstance(value, str):
        return check.text(value, what)[:MAX_CHOICE_CHARS]
    return check.whole(value, what, 0, MAX_CHOICE)


def _one_of(options, what: str, value) -> str:
    if value not in options:
        raise AttnvizInputError(f"{what} is not one of {', '.join(options)}.")
    return value


def _model(value) -> str:
    """A shipped model, or a model opened by its Hugging Face id; never a folder, which is one machine's own."""
    if value in MODEL_NAMES or (isinstance(value, str) and HUB_ID.fullmatch(value)):
        return value
    raise AttnvizInputError(f"the model is not one of {', '.join(MODEL_NAMES)}, nor a Hugging Face id.")


def _sentence(value) -> str:
    """The model's own check (attnviz.models.base), its words as a link's clause."""
    what = "the real model's sentence"
    return check_sentence(check.text(value, what), what)


def _coordinate(value, what: str) -> float:
    number = check.finite_number(value, what)
    if abs(number) > VECTOR_LIMIT:
        raise AttnvizInputError(f"{what} is {number:g}, outside −{VECTOR_LIMIT:g} to {VECTOR_LIMIT:g}.")
    return number


_Check = Callable[[Any], Any]
# Geometry's arrows: the query, three keys and three values, x and y each.
_ARROWS = ("query", "key0", "key1", "key2", "value0", "value1", "value2")
SHAREABLE: dict[str, dict[str, _Check]] = {
    "step_by_step": {
        "stage": partial(_choice, what="the stage"),
        "from_embeddings": partial(check.boolean, what="the embeddings switch"),
        "d_model": partial(check.whole, what="d_model", low=1, high=MAX_D_MODEL),
        "query": partial(_choice, what="the query token"),
        "key": partial(_choice, what="the key token"),
        "dimension": partial(_choice, what="the dimension"),
    },
    "geometry": {
        f"{arrow}_{axis}": partial(_coordinate, what=f"the {arrow}'s {axis}") for arrow in _ARROWS for axis in "xy"
    },
    "why_scale": {
        "d_k": partial(check.whole, what="d_k", low=1, high=MAX_LESSON_DK),
        "seed": seed,
        "tokens": partial(check.whole, what="the tokens in the row", low=MIN_ROW_TOKENS, high=MAX_ROW_TOKENS),
    },
    "multi_head": {
        "d_model": partial(check.whole, what="d_model", low=1, high=MAX_D_MODEL),
        "heads": partial(_choice, what="the number of heads"),
        "seed": seed,
        "causal": partial(check.boolean, what="the causal setting"),
        "tie": partial(check.boolean, what="the tie switch"),
    },
    "watch_it_learn": {
        "samples": partial(check.whole, what="the samples", low=MIN_SAMPLES, high=MAX_SAMPLES),
        "epochs": partial(check.whole, what="the epochs", low=1, high=MAX_EPOCHS),
        "learning_rate": partial(check.finite_number, what="the learning rate"),  # the page offers its choices
        "seed": seed,
        "target_position": partial(_choice, what="the target position"),
        "target_value": partial(check.whole, what="the target value", low=SMALLEST_TOKEN, high=LARGEST_TOKEN),
        "balanced": partial(check.boolean, what="the balanced switch"),
        "experiment": partial(_one_of, EXPERIMENTS, "the experiment"),
        "induction_layers": partial(_choice, what="the number of layers"),  # the page offers 1 and 2
        "induction_steps": partial(_choice, what="the number of steps"),
        "induction_seed": seed,
        "induction_query": partial(_choice, what="the query token"),
    },
    "real_model": {
        "sentence": _sentence,
        "model": _model,
        "hide_sinks": partial(check.boolean, what="the sink switch"),
        "layer": partial(_choice, what="the layer"),
        "head": partial(_choice, what="the head"),
        "query": partial(_choice, what="the query token"),
        "temperature": lambda value: check.temperature(value),
        "view": partial(_one_of, ("raw", "value", "rollout"), "the view"),
        "removed": partial(_choice, what="the token taken away"),
    },
}


def checked(page: str, settings) -> dict:
    """A link's settings for ``page``, each checked; AttnvizInputError for any the page does not share or that fails."""
    if not isinstance(settings, dict):
        raise AttnvizInputError("the page's settings are not a list of names and values.")
    shareable = SHAREABLE.get(page, {})
    unknown = sorted(set(settings) - set(shareable))
    if unknown:
        raise AttnvizInputError(f"the page has no setting called {str(unknown[0])[:20]!r}.")
    return {name: shareable[name](value) for name, value in settings.items()}
