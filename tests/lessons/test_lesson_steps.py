"""Steps in the lesson editor are told apart by their labels: two setups that differ in anything a lesson can vary
(a switch, τ, sizes, blocked keys, typed values, the focus, the question, a page setting) get different labels."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from attnviz.classroom import lesson_plan as plans
from attnviz.classroom.share import encode
from attnviz.lessons.lesson_steps import ready_line, step_heading, step_label
from attnviz.lessons.playground import OPENING
from tests.lessons.sentence_registry import covers

setups = st.builds(
    lambda causal, scale, temperature, d_k, blocked, focus, predict: replace(
        OPENING, causal=causal, scale=scale, temperature=temperature, d_k=d_k, d_v=d_k,
        blocked_keys=blocked, focus=focus, predict=predict,
    ),
    st.booleans(), st.booleans(), st.sampled_from([0.5, 1.0, 2.0]), st.integers(1, 4),
    st.sampled_from([(), (3,), (3, 10)]), st.integers(0, 11), st.sampled_from(["", "most", "sharper", "zeroed"]),
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@covers(step_label, ready_line, step_heading)
@given(setups, setups)  # the movie review has "was" twice (2 and 9): focus on either is told apart
def test_two_steps_on_one_page_with_different_setups_have_different_labels(one, other):
    first, second = plans.Step(encode(one)), plans.Step(encode(other))
    assert (step_label(first) == step_label(second)) == (first.view.state == second.view.state)
    assert step_label(first).startswith("Playground · “The movie was not good, but the soundtr…” · ")
    said = step_label(first)  # each setting it names is the state's
    assert ("causal mask on" in said) == one.causal and ("no ÷ √d_k" in said) == (not one.scale)
    assert f"focus “{one.labels[one.focus]}”" in said and ("keys blocked" in said) == bool(one.blocked_keys)
    steps = one.focus + 1
    assert ready_line("A lesson", steps) == f"**A lesson**: {steps} step{'s' if steps != 1 else ''}"
    assert step_heading(one.focus, "label") == f"**Step {one.focus + 1}**: label"


def test_a_page_setting_and_the_page_are_in_the_label():
    high, low = (plans.Step(encode(OPENING, "why_scale", {"d_k": d_k})) for d_k in (512, 4))
    assert step_label(high).endswith("d_k = 512") and step_label(low).endswith("d_k = 4")
    assert step_label(high).startswith("Why we scale · ")


def test_a_word_that_comes_twice_is_told_apart_by_its_position():
    first, second = (plans.Step(encode(replace(OPENING, focus=focus))) for focus in (2, 9))
    assert "focus “2: was”" in step_label(first) and "focus “9: was”" in step_label(second)
