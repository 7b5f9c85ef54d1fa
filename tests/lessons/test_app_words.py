"""The sentences of attnviz.lessons.app_words over generated states: each says the number, name or text it was given,
exactly once and as given, in one grammatical form for one and for many."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attnviz.lessons import app_words as words
from tests.lessons.sentence_registry import covers

MANY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# What a student or teacher writes (already made safe for markdown by the caller): any words, user text included.
TEXTS = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=60)
CODES = st.text("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", min_size=6, max_size=6)


def numbers_in(said: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", said)]


@MANY
@covers(words.challenge_bar_line, words.not_yet_line)
@given(TEXTS, TEXTS, st.booleans())
def test_a_challenges_bar_says_its_goal_and_hint_and_solved_only_when_solved(goal, hint, solved):
    said = words.challenge_bar_line(goal, solved)
    assert said.startswith(f"**Challenge:** {goal}")
    assert ("Solved!" in said.removeprefix(f"**Challenge:** {goal}")) == solved
    assert words.not_yet_line(hint) == f"Not yet. Hint: {hint}"


@MANY
@covers(words.shown_moves_line)
@given(st.lists(st.text("abcdefgh =[],0123456789", min_size=1, max_size=20), min_size=1, max_size=8), st.booleans())
def test_show_me_lists_the_moves_played_in_order_and_ends_as_it_is(played, more):
    said = words.shown_moves_line(played, more)
    assert said.removeprefix("Show me: ").removesuffix("…" if more else ".").split("; then ") == played
    assert said.endswith("…") == more and said.endswith(".") != more


@MANY
@covers(words.not_the_asked_setup, words.class_code_line, words.right_answer_line)
@given(CODES, TEXTS)
def test_the_class_boxes_name_the_code_and_the_right_option(code, option):
    assert code in words.not_the_asked_setup(code) and "not counted" in words.not_the_asked_setup(code)
    assert words.class_code_line(code) == f"Class code **{code}**"
    assert words.right_answer_line(option) == f"Right answer: **{option}** (✓ in the bars)."


@MANY
@covers(words.lesson_end, words.step_added)
@given(TEXTS, st.integers(1, 40))
def test_a_lessons_end_and_a_new_step_count_the_steps_as_they_are(title, steps):
    said = words.lesson_end(title, steps)
    assert said.startswith(f"**{title}** · the end: ")
    rest = said.removeprefix(f"**{title}** · the end: ")
    assert numbers_in(rest) == ([] if steps == 1 else [steps])
    assert ("one step" in rest) == (steps == 1) and "1 steps" not in rest.replace(f"{steps} steps", "")
    added = words.step_added(steps)
    assert numbers_in(added) == [steps] and added.startswith(f"Added as step {steps} of")


@MANY
@covers(words.link_refused, words.randomised, words.head_imported)
@given(TEXTS, st.integers(0, 2**31 - 1))
def test_a_refused_link_a_new_seed_and_an_imported_head_are_named_as_given(text, seed):
    assert words.link_refused(text) == f"{text} The default settings are shown instead."
    said = words.randomised(seed)
    assert numbers_in(said) == [seed] and "Undo brings back" in said
    assert words.head_imported(text).startswith(f"{text} is on the Playground: ")


@MANY
@covers(words.weights_heading, words.blend_heading)
@given(TEXTS)
def test_one_token_up_close_headings_quote_the_token(token):
    assert words.weights_heading(token) == f"**From scores to weights for “{token}”**"
    assert words.blend_heading(token).startswith(f"**The output of “{token}” blends the values")


@MANY
@covers(words.not_a_choice)
@given(TEXTS)
def test_a_value_not_offered_is_quoted_and_said_ignored(sent):
    assert words.not_a_choice(sent) == f"“{sent}” is not one of the choices offered, so it was ignored."
