"""The induction experiment's sentences, each checked against the numbers it is written from."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attnviz import AttnvizInputError
from attnviz.lessons import induction as words
from attnviz.lessons.training import percent
from attnviz.train.induction import InductionConfig
from tests.lessons.sentence_registry import covers

shares = st.floats(0, 1, allow_nan=False)
MANY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def shown(share: float) -> float:
    """A share as ``percent`` says it, read back: what a verdict beside it must agree with."""
    text = percent(share)
    return 99.95 if text.startswith(">") else 0.05 if text.startswith("<") else float(text.rstrip(" %"))


@given(arrays(float, st.tuples(st.integers(1, 12), st.integers(1, 2), st.integers(1, 3)), elements=shares))
def test_phase_step_is_the_first_step_the_last_layers_best_head_passes_the_mark(scores):
    steps = np.arange(len(scores)) * 10
    at = words.phase_step(steps, scores)
    passed = [step for step, score in zip(steps, scores, strict=True) if score[-1].max() >= words.PHASE_SCORE]
    assert at == (passed[0] if passed else None)


@MANY
@covers(words.phase_text)
@given(arrays(float, st.tuples(st.integers(2, 12), st.just(2), st.just(1)), elements=shares), st.integers(4, 128))
def test_phase_text_says_the_step_and_the_losses(scores, vocab_size):
    steps = np.arange(len(scores)) * 50
    first, repeated = np.linspace(5, 4.2, len(scores)), np.linspace(4.2, 0.3, len(scores))
    text = words.phase_text(steps, first, repeated, scores, vocab_size)
    at = words.phase_step(steps, scores)
    assert f"{first[-1]:.2f}" in text and f"{repeated[-1]:.2f}" in text and f"ln {vocab_size} = " in text
    assert (f"at step {at:,}" in text) if at is not None else ("no phase change" in text)


@MANY
@covers(words.circuit_text)
@given(shares, shares, shares, shares)
def test_circuit_text_names_the_heads_and_their_shares(accuracy, prefix, previous, duplicate):
    two = words.circuit_text(2, accuracy, np.array([[0.0], [prefix]]), np.array([[previous], [0.0]]),
                             np.array([[duplicate], [0.0]]))  # fmt: skip
    assert percent(accuracy) in two and percent(prefix) in two
    assert ("not yet an induction head" in two) == (shown(prefix) < 50)  # the verdict on the share as said
    assert percent(previous if shown(previous) >= shown(duplicate) else duplicate) in two
    one = words.circuit_text(1, accuracy, np.array([[prefix]]), np.array([[previous]]), np.array([[duplicate]]))
    assert "One layer cannot build an induction head" in one and percent(prefix) in one


@MANY
@covers(words.knockout_text)
@given(shares, shares)
def test_knockout_text_says_which_way_copying_went(accuracy_all, accuracy_knocked):
    text = words.knockout_text([(1, 0)], accuracy_all, accuracy_knocked)
    was, now = shown(accuracy_all), shown(accuracy_knocked)  # "falls from 83.3 % to 83.3 %"
    way = "falls" if now < was else "stays" if now == was else "rises"
    assert (
        "layer 2, head 1 off" in text
        and f"copying {way} from {percent(accuracy_all)} to {percent(accuracy_knocked)}" in text
    )
    assert percent(accuracy_all) in words.knockout_text([], accuracy_all, accuracy_all)


@MANY
@covers(words.example_text, words.challenge_text)
@given(st.lists(st.integers(0, 9), min_size=2, max_size=8), st.data())
def test_example_and_challenge_follow_the_predictions(r, data):
    tokens = np.array(r + r)
    m = len(r)
    predicted = np.array(data.draw(st.lists(st.integers(0, 9), min_size=2 * m, max_size=2 * m)))
    query = data.draw(st.integers(m, 2 * m - 2))
    weights = np.zeros(2 * m)
    weights[query - m + 1] = 0.75
    text = words.example_text(tokens, query, m, weights, predicted[query])
    assert f"position {query - m}, followed by {tokens[query - m + 1]}" in text and "75.0 %" in text
    assert ("copies it" in text) == (predicted[query] == tokens[query + 1])
    solved, said = words.challenge_text(tokens, predicted)
    wrong = int(np.sum(predicted[m : 2 * m - 1] != tokens[m + 1 :]))
    assert solved == (wrong > 0)
    assert (f"copies {wrong} of the second r's {m - 1} tokens wrongly" in said) if solved else ("all" in said)


@pytest.mark.parametrize("typed", ["1 2 x", "1", "1 ２", "64 1", " , "])
def test_a_typed_r_that_is_not_one_is_refused(typed):
    with pytest.raises(AttnvizInputError):
        words.parse_tokens(typed, 64, 10)


def test_a_typed_r_is_read():
    assert words.parse_tokens(" 3, 5 7 ", 64, 10) == [3, 5, 7]


@MANY
@covers(words.stale_note)
@given(st.integers(1, 2), st.integers(1, 4000), st.integers(0, 99), st.integers(1, 2), st.integers(1, 4000))
def test_the_stale_note_is_said_exactly_when_a_setting_differs(layers, steps, seed, chosen_layers, chosen_steps):
    trained = InductionConfig(layers=layers, steps=steps, seed=seed)
    chosen = InductionConfig(layers=chosen_layers, steps=chosen_steps, seed=seed)
    note = words.stale_note(trained, chosen)
    assert (note is None) == ((layers, steps) == (chosen_layers, chosen_steps))
    if note:
        assert f"{layers} layer" in note and f"{steps:,} steps" in note and f"seed {seed}" in note


def test_the_heads_drawn_are_the_last_layers_best_and_the_first_layers_it_reads_from():
    prefix = np.array([[0.1, 0.0, 0.2], [0.3, 0.9, 0.1]])
    previous, duplicate = np.array([[0.0, 0.6, 0.1], [0, 0, 0]]), np.array([[0.7, 0.0, 0.2], [0, 0, 0]])
    assert words.drawn_heads(prefix, previous, duplicate) == [0, 1]
    assert words.drawn_heads(prefix[:1], previous[:1], duplicate[:1]) == [2]
