"""The Playground's session (attnviz.playground.session), by what a student sees after each move: the state shown,
what Undo brings back, the line the page says, and the answers kept. The moves test_session.py leaves unchecked."""

from __future__ import annotations

from dataclasses import replace

import pytest

from attnviz.core.playground_state import randomise
from attnviz.lessons import predictions
from attnviz.lessons.playground import OPENING
from attnviz.playground.session import Said, Session


def control(field, value=True) -> dict:
    return {"control": field, "value": value}


def test_randomise_shows_the_new_vectors_says_so_and_undo_takes_them_back():
    drawn = randomise(OPENING, 7)
    session = Session().apply(control("causal", True)).confirmed(drawn, "New vectors, seed 7.")
    assert session.state == drawn and session.previous == replace(OPENING, causal=True)
    assert session.said == Said(confirmation="New vectors, seed 7.")
    assert session.can_undo and session.undone().state == replace(OPENING, causal=True)


def test_a_challenge_starts_on_its_own_state_which_undo_takes_back():
    moved = Session().apply(control("causal", True))
    started = moved.set_up(randomise(OPENING, 7))
    assert started.state == randomise(OPENING, 7) and started.previous is None
    assert started.undone().state == moved.state


def test_undo_with_nothing_to_undo_says_nothing_not_the_last_refusal():
    refused = Session().apply(control("focus", 99))
    assert refused.said.refused  # the refusal is said once...
    again = refused.apply(control("undo"))
    assert again.said == Said() and again.state == OPENING  # ...and not again after an Undo with nothing to undo
    assert not again.needs_full_run(open_tab_follows_views=False)


def test_undo_goes_back_one_move_at_a_time_and_the_boxes_compare_with_the_state_left():
    session = Session().apply(control("causal", True)).apply(control("scale", False)).apply(control("focus", 2))
    back = session.undone()
    assert back.state == replace(OPENING, causal=True, scale=False) and back.previous == session.state
    back = back.undone()
    assert back.state == replace(OPENING, causal=True) and len(back.undo_stack) == 1
    assert back.said.confirmation == "Undone: scaling is on again."


def test_a_guided_pages_answer_is_kept_beside_the_playgrounds_prediction():
    asked = Session().apply(control("predict", "most"))
    answered = asked.apply({"guess": {"view": "weights", "row": asked.state.focus, "col": 3}})
    key = ("step_by_step", "weights", 4, b"row")
    both = answered.answered(key, 6)
    assert both.answers.of(key) == 6 and both.state == answered.state
    assert both.last_prediction() == (3, asked.state) and both.asked() == (3, asked.state)  # the Playground's kept
    assert both.answered(key, 2).answers.of(key) == 2  # a new answer replaces it
    assert answered.answers.of(key) is None


def test_a_prediction_on_another_state_does_not_uncover_this_one():
    asked = Session().apply(control("predict", "sharper"))
    answered = asked.apply({"guess": {"choice": 0}})
    assert answered.asked() is not None and answered.state == predictions.outcome(asked.state)
    moved = answered.apply(control("focus", 1))
    assert moved.asked() is None and moved.last_prediction() == answered.last_prediction()


def refused_first() -> Session:
    session = Session().apply(control("focus", 99))
    assert session.said.refused == "the focus token must be a whole number from 0 to 11, not 99."
    return session


@pytest.mark.parametrize(
    "event",
    [
        control("causal", False),  # the value it already has: no move, nothing to say
        control("sentence", "typed"),  # no control beside the views
        {"causal": True},  # no such event
        {"guess": {"row": 4, "col": 3}},  # a click on a view that is not covered
    ],
)
def test_the_next_event_clears_a_refusal_whatever_it_does(event):
    after = refused_first().apply(event)
    assert after.said == Said() and after.state == OPENING
    assert not after.needs_full_run(open_tab_follows_views=True)


def test_a_key_picked_for_the_mask_question_clears_a_refusal():
    session = Session(state=replace(OPENING, predict="zeroed")).apply(control("focus", 99))
    assert session.said.refused
    picked = session.apply({"guess": {"row": 4, "col": 5}})
    assert picked.said == Said() and picked.current_picks() == (5,)


def test_a_click_on_uncovered_weights_is_no_prediction_and_nothing_a_class_could_count():
    clicked = Session().apply({"guess": {"view": "weights", "row": 4, "col": 3}})
    assert clicked.last_prediction() is None and clicked.answers.kept == ()


def test_a_share_link_opens_on_its_state_and_the_moves_after_it_undo_back_to_it():
    linked = Session().apply(control("causal", True)).started_from(randomise(OPENING, 7))
    assert linked.state == randomise(OPENING, 7) and not linked.can_undo and linked.said == Said()
    moved = linked.apply(control("scale", False))
    assert moved.undo_stack == (randomise(OPENING, 7),) and moved.undone().state == randomise(OPENING, 7)


def test_keys_picked_for_the_mask_question_are_dropped_by_any_change():
    session = Session(state=replace(OPENING, predict="zeroed")).apply({"guess": {"row": 4, "col": 5}})
    assert session.current_picks() == (5,)
    changed = session.apply(control("temperature", 2.0))
    assert changed.current_picks() == () and changed.question().picked({"row": 4, "col": 6}) == (6,)


@pytest.mark.parametrize("event", [None, {"control": "causal", "value": True, "extra": 1}])
def test_an_event_of_no_known_shape_clears_a_refusal(event):
    assert refused_first().apply(event).said == Said()
