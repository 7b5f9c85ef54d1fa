"""The checks a Playground field's value passes, whoever sent it (a control beside the views, a widget, a notebook
trait, a share link): its type, its range, valid text. The link's own values (a page's settings, an imported head, a
lesson's notes) use the same checks. Each raises AttnvizInputError with the part of a sentence that names what is
wrong ("the seed must be a whole number ...")."""

from __future__ import annotations

import math

from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_DIM, MAX_SEED, MAX_TEMPERATURE, MIN_TEMPERATURE, VALUE_LIMIT
from attnviz.core.playground_state import PlaygroundState, example_options, sentence_within_limit


def text(value, what: str) -> str:
    if not isinstance(value, str):
        raise AttnvizInputError(f"{what} is not text.")
    try:
        value.encode("utf-8")  # JSON can smuggle in lone surrogates, which no page could display
    except UnicodeEncodeError:
        raise AttnvizInputError(f"{what} is not valid text.") from None
    return value


def boolean(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise AttnvizInputError(f"{what} is not on or off.")
    return value


def whole(value, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise AttnvizInputError(f"{what} must be a whole number from {low} to {high:,}, not {str(value)[:20]}.")
    return value


def blocked_keys(value, n: int) -> tuple[int, ...]:
    """A list of distinct key positions, each from 0 to n − 1."""
    if not isinstance(value, list):
        raise AttnvizInputError("the blocked keys are not a list of positions.")
    blocked = tuple(whole(key, "a blocked key", 0, n - 1) for key in value)
    if len(set(blocked)) != len(blocked):
        raise AttnvizInputError("a key is blocked twice.")
    return blocked


def finite_number(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise AttnvizInputError(f"{what} is not a number.")
    try:
        number = float(value)
    except OverflowError:  # a JSON integer with hundreds of digits
        number = math.inf
    if not math.isfinite(number):
        raise AttnvizInputError(f"{what} is not a finite number.")
    return number


def cell_value(value, what: str) -> float:
    number = finite_number(value, what)
    if abs(number) > VALUE_LIMIT:
        raise AttnvizInputError(f"{what} is {number:g}, outside the allowed range −{VALUE_LIMIT:g} to {VALUE_LIMIT:g}.")
    return number


def temperature(value) -> float:
    number = finite_number(value, "the temperature")
    if not MIN_TEMPERATURE <= number <= MAX_TEMPERATURE:
        raise AttnvizInputError(
            f"the temperature must be from {MIN_TEMPERATURE:g} to {MAX_TEMPERATURE:g}, not {number:g}."
        )
    return number


def sentence_text(value, state=None) -> str:
    return sentence_within_limit(text(value, "the sentence"))


def size(value, state=None, *, what: str) -> int:
    return whole(value, what, 1, MAX_DIM)


def seed(value, state=None) -> int:
    return whole(value, "the seed", 0, MAX_SEED)


def example(value, state: PlaygroundState) -> str:
    options = example_options(state)
    if value not in options:
        raise AttnvizInputError(f"the example must be one of {', '.join(options)}, not {str(value)[:40]!r}.")
    return value
