"""The ready lessons' notes quote weights: each number is the core's, for the step's own setup."""

import numpy as np

from attnviz.classroom.lesson_plan import READY
from attnviz.core.numbers import format_fixed


def weight_said(step, key: str) -> str:
    state = step.view.state
    row = state.result().weights[state.focus]  # (n,)
    return format_fixed(float(row[state.tokens.index(key)]))


def test_the_notes_weights_are_what_the_core_computes_for_their_steps():
    first, _, _, pronoun, *_ = READY["Attention in 15 minutes"].steps
    assert [weight_said(first, "not"), weight_said(first, "amazing")] == ["0.67", "0.33"]
    assert "(0.67)" in first.note and "(0.33)" in first.note
    assert weight_said(pronoun, "animal") == "0.87" and "0.87" in pronoun.note
    wide, narrow = READY["Why the mask and the scale exist"].steps[3:5]
    spread = {step: np.sqrt(dict(step.view.settings)["d_k"]) for step in (wide, narrow)}  # the scores' spread, √d_k
    assert f"√512 ≈ {round(spread[wide])}" in wide.note and f"about {spread[narrow]:g}" in narrow.note
