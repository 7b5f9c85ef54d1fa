"""The Playground's session on its own, with no host: every move the views can send, Undo, predict mode, and when a
run of the views alone must become a full run."""

from dataclasses import replace

import pytest

from attnviz.core.limits import MAX_UNDO
from attnviz.core.playground_state import apply_edits, randomise, set_sentence
from attnviz.lessons.playground import OPENING
from attnviz.lessons.table_words import UNREADABLE
from attnviz.playground.session import Said, Session, tables_differ


def control(field, value) -> dict:
    return {"control": field, "value": value}


def test_a_control_is_a_move_that_undo_takes_back_saying_what_came_back():
    session = Session().apply(control("causal", True)).apply(control("blocked_keys", [3, 1]))
    assert session.state == replace(OPENING, causal=True, blocked_keys=(1, 3))
    assert session.previous == replace(OPENING, causal=True) and session.undo_stack == (OPENING, session.previous)
    back = session.apply(control("undo", True))
    assert back.state == replace(OPENING, causal=True) and back.previous == session.state
    assert back.undo_stack == (OPENING,) and back.said.confirmation.startswith("Undone")
    assert not back.undone().undone().can_undo and back.undone().undone().state == OPENING


def test_undo_remembers_at_most_max_undo_moves():
    session = Session()
    for step in range(MAX_UNDO + 5):
        session = session.apply(control("temperature", 1 + (step + 1) / 100))
    assert len(session.undo_stack) == MAX_UNDO and session.undo_stack[-1].temperature == pytest.approx(1 + 54 / 100)


def test_a_click_on_a_cell_or_a_row_label_makes_its_row_the_focus():
    assert Session().apply({"cell": {"view": "weights", "row": 2, "col": 5}}).state.focus == 2
    assert Session().apply({"cell": {"view": "scores", "row": 3, "col": None}}).state.focus == 3


NOT_A_ROW = "the focus token must be a whole number from 0 to 11, not {}."


@pytest.mark.parametrize(
    ("event", "refused"),
    [
        (None, None),
        ([], None),
        ("causal", None),
        ({"causal": True}, None),  # the old trigger's shape: no such event
        ({"control": "sentence", "value": "typed"}, None),  # a field, but no control beside the views
        ({"control": "causal", "value": True, "extra": 1}, None),
        ({"cell": "2"}, NOT_A_ROW.format(None)),  # a cell event always names a row: a bad one is refused
        ({"cell": {"row": True}}, NOT_A_ROW.format(True)),
        ({"guess": {"row": 0, "col": 3}}, None),  # not in predict mode
    ],
)
def test_anything_else_changes_nothing(event, refused):
    after = Session().apply(event)
    assert after.state == OPENING and not after.can_undo and after.said == Said(refused=refused)


def test_a_refused_value_keeps_the_state_and_says_why_apart():
    session = Session().apply(control("focus", 12))  # a row past the sentence: from before it changed, or crafted
    assert session.state == OPENING and not session.can_undo
    assert session.said == Said(refused="the focus token must be a whole number from 0 to 11, not 12.")


def test_a_prediction_is_kept_for_the_state_it_was_asked_on_and_any_change_asks_again():
    asked = Session().apply(control("predict", "most"))
    assert asked.asked() is None
    answered = asked.apply({"guess": {"view": "weights", "row": asked.state.focus, "col": 3}})
    assert answered.asked() == (3, asked.state) and answered.last_prediction() == (3, asked.state)
    changed = answered.apply(control("temperature", 2.0))
    assert changed.asked() is None and changed.last_prediction() == (3, asked.state)


def test_the_mask_question_picks_keys_then_its_check_makes_the_change_it_asks_about():
    session = Session(state=replace(OPENING, predict="zeroed"))
    for col in (5, 6, 7, 7):  # a second click takes a key back
        session = session.apply({"guess": {"row": 4, "col": col}})
    assert session.current_picks() == (5, 6) and session.state == replace(OPENING, predict="zeroed")
    checked = session.apply({"guess": {"choice": 0}})
    assert checked.state.causal and checked.asked() == ((5, 6), session.state)
    assert checked.undone().state == session.state  # the reveal's change is a move like any other


def test_a_share_link_and_a_challenge_start_compare_with_nothing():
    moved = Session().apply(control("causal", True))
    linked = moved.started_from(randomise(OPENING, 7), "said")
    assert linked.previous is None and not linked.can_undo and linked.said.warnings == ("said",)
    started = moved.set_up(randomise(OPENING, 7))
    assert started.previous is None and started.undo_stack[-1] == moved.state


def test_a_run_of_the_views_alone_becomes_a_full_run_when_the_page_around_them_is_out_of_date():
    drawn = Session().drawn()
    assert not drawn.needs_full_run(open_tab_follows_views=True)  # nothing moved since the page was drawn
    toggled = drawn.apply(control("causal", True))
    assert toggled.needs_full_run(open_tab_follows_views=True)  # "One token up close" shows the toggle too
    assert not toggled.needs_full_run(open_tab_follows_views=False)  # the tables do not
    twice = toggled.apply(control("scale", False))
    assert twice.apply(control("undo", True)).needs_full_run(open_tab_follows_views=False)  # Undo says what it did
    new_words = drawn.moved(set_sentence(OPENING, "A new sentence.")[0])
    assert new_words.needs_full_run(open_tab_follows_views=False) and tables_differ(new_words.previous, new_words.state)


def test_new_numbers_in_the_tables_under_the_same_sentence_need_the_whole_page():
    """The tables behind the views are drawn again when their numbers change, though the sentence stays: here a typed
    cell taken back (the tables show what was typed, not what a move took away)."""
    typed, _ = apply_edits(OPENING, "Q", {(0, 0): "1.5"})
    drawn = Session().moved(typed).drawn()
    taken_back = drawn.moved(OPENING)
    assert taken_back.state.sentence == drawn.state.sentence and tables_differ(drawn.state, taken_back.state)
    assert taken_back.said == Said() and taken_back.needs_full_run(open_tab_follows_views=False)


def test_a_message_is_gone_at_the_next_move_even_one_the_views_make_alone():
    """ "Gone with this change: the focus on “good” (4) …" still on screen three toggles later, when Undo
    would undo something else: the page that says a move's words is drawn again at the next move, without them."""
    shortened = Session().moved(set_sentence(OPENING, "A cat.")[0], "Gone with this change: the focus …").drawn()
    assert not shortened.needs_full_run(open_tab_follows_views=False)  # the page shows the words: nothing to redraw
    toggled = shortened.apply(control("causal", True))
    assert toggled.said == Said() and toggled.needs_full_run(open_tab_follows_views=False)  # words to take away
    quiet = toggled.drawn().apply(control("scale", False))  # drawn without words: a toggle stays in the views
    assert not quiet.needs_full_run(open_tab_follows_views=False)
    undone = quiet.apply(control("undo", True)).drawn().apply(control("causal", False))  # Undo's words go too
    assert undone.needs_full_run(open_tab_follows_views=False)


def test_an_edit_no_honest_browser_sends_is_refused_and_still_echoed_so_the_next_edit_goes():
    ragged = {"view": "Q", "row": "0: The", "col": "q1", "cells": [["1"], ["2", "3"]], "id": "crafted-1"}
    after = Session().apply({"edit": ragged})
    assert after.state == Session().state
    assert after.said.at_tables == UNREADABLE
    assert after.last_edit == "crafted-1"  # the browser's queue waits for this id
    assert after.apply({"edit": ragged}) is after  # sent again: the same edit, nothing more
