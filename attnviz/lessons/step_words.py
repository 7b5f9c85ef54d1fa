"""Step by step's words around its stages, each from the live numbers: the introduction (every setting that shapes
the numbers, the blocked keys included), what the Scale and Mask stages changed as their pictures show it, and what
predict mode keeps back (attnviz.lessons.stages builds the stages)."""

from __future__ import annotations

import math

import numpy as np

from attnviz.core.numbers import format_number
from attnviz.core.playground_state import PlaygroundState


def scale_caption(factor: float, changed: np.ndarray) -> str:
    """What dividing by ``factor`` did to the cells as shown: ``changed`` (bool) the cells whose digits moved."""
    count, total = int(changed.sum()), changed.size
    if math.isclose(factor, 1.0, rel_tol=1e-12):
        return "No cell changed: dividing by 1 leaves every score as it was, so both pictures are the same."
    divided = f"each score was divided by {format_number(factor)}"
    if count == 0:
        return f"No cell's digits changed: {divided}, and every score is small enough to show the same digits after."
    paler = "paler" if factor > 1 else "stronger"
    colours = f"Both pictures share one colour scale, so the {paler} colours on the right are the change."
    if count == total:
        return f"Every cell changed: {divided}. {colours}"
    return (
        f"{count} of {total} cells changed: {divided}; the other {total - count} show the same digits before and "
        f"after. {colours}"
    )


def mask_caption(blocked: np.ndarray) -> str:
    count = int(blocked.sum())
    if count == 0:
        return "No cell changed: no key is masked, so both pictures are the same."
    if count == blocked.size:
        return "Every cell changed: every key is blocked for every query, so every score is now −∞ (grey)."
    return f"{count} cells changed: this stage set them to −∞ (grey)."


FORMULA_WAITS = "The chosen cell's formula shows once you have predicted: its numbers would give the answer away."


def first_key(state: PlaygroundState) -> int:
    """The key column Step by step starts on: the one the focus token attends to most, but in predict mode the first
    (preselecting the row's largest would answer the question before it is asked)."""
    return 0 if state.predict else int(state.result().weights[state.focus].argmax())


def stage_heading(position: int, count: int, title: str) -> str:
    """The stage's heading: where it sits in the walk (counting from 1) and what it does."""
    return f"Stage {position + 1} of {count}. {title}"


def stage_reading(caption: str, notes: str) -> str:
    """Under a stage's pictures: what changed (its ``caption``), what the outlines are, how to read the colours."""
    return f"{caption} Outlined: the chosen cell and the cells its formula reads. {notes}"


def setup_words(state: PlaygroundState) -> str:
    """The Playground's settings as Step by step's introduction says them: every one that shapes the numbers, the
    blocked keys included, by position ("12 tokens, d_k = 2, causal mask, key 3 blocked, scaling on, τ = 1")."""
    mask = "causal mask" if state.causal else "no causal mask"
    keys = state.blocked_keys
    if keys:
        named = ", ".join(map(str, keys))  # positions only: markdown, and no user text in it
        mask += f", key{'s' if len(keys) > 1 else ''} {named} blocked"
    elif not state.causal:
        mask = "no mask"
    return (
        f"{state.n} tokens, d_k = {state.d_k}, {mask}, scaling {'on' if state.scale else 'off'}, "
        f"τ = {format_number(state.temperature)}"
    )


def introduction(state: PlaygroundState, quoted: str) -> str:
    """Step by step's first sentence; ``quoted`` is the sentence as markdown shows it (escaped by the page)."""
    return (
        f"The **Playground's** “{quoted}” ({setup_words(state)}), one stage at a time. The Scale and Mask stages "
        "switch their setting beside the pictures; the Playground keeps it."
    )
