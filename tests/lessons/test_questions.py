"""Predict mode's one question object (attnviz/lessons/questions.py), as each asker builds it: the Playground's three
questions and a guided page's row of a matrix. Each: its cover, its answer from a click as the browser sends it (and
from crafted ones), its reveal's numbers against numbers worked out here; and the one store of a student's answers."""

from dataclasses import replace

import numpy as np
import pytest

from attnviz.core.limits import MAX_ANSWERS_KEPT
from attnviz.lessons.playground import OPENING
from attnviz.lessons.predictions import PlaygroundQuestion, outcome
from attnviz.lessons.questions import Answers, RowQuestion, stage_question
from attnviz.lessons.stages import walkthrough
from attnviz.playground.session import Session
from tests.reference import naive_attention

CRAFTED = [None, 3, "3", [3], {"col": True}, {"col": 3.0}, {"col": "3"}, {"col": -1}, {"col": [3]}, {"choice": True}]


def weights_of(state) -> np.ndarray:
    Q, K, V = state.matrices()
    return np.array(naive_attention(Q.tolist(), K.tolist(), V.tolist(), causal=state.causal, scale=state.scale)[1])


def bits(row) -> float:
    row = row[row > 0]
    return float(-(row * np.log2(row)).sum())


def test_the_most_question_is_answered_by_a_key_of_the_focus_row():
    question = PlaygroundQuestion(replace(OPENING, predict="most"))  # “good” (4)
    assert question.key == ("playground", question.state) and outcome(question.state) == question.state
    assert question.cover() == "Which key will “good” attend to most? Click its cell in the outlined row."
    assert question.answer({"view": "weights", "row": 4, "col": 11}) == 11
    for sent in [*CRAFTED, {"col": 12}, {"choice": 0}]:
        assert question.answer(sent) is None, sent
    row = weights_of(question.state)[4]
    best, wrong = int(np.argmax(row)), int(np.argmin(row))
    said = question.reveal(wrong)
    assert said.startswith(f"Not this time: you predicted “{OPENING.tokens[wrong]}” ({wrong}), outlined in view 3.")
    assert f"attends most to “{OPENING.tokens[best]}” ({best}), weight {row[best]:.2f}, because" in said
    assert question.reveal(best).startswith("Right:")


def test_the_sharper_question_is_answered_by_a_button_and_reveals_the_rows_spread():
    question = PlaygroundQuestion(replace(OPENING, predict="sharper"))
    assert question.cover() == (
        "If scaling were switched off (÷ √d_k = ÷ 1.41), would “good”'s row get sharper or flatter?"
    )
    assert [question.answer({"choice": c}) for c in range(3)] == [0, 1, 2]
    for sent in [*CRAFTED, {"choice": 3}, {"choice": -1}, {"row": 4, "col": 3}]:
        assert question.answer(sent) is None, sent
    before, after = weights_of(question.state)[4], weights_of(outcome(question.state))[4]
    top = int(np.argmax(after))
    said = question.reveal(1)
    assert outcome(question.state).scale is False and said.startswith("You predicted flatter: not this time.")
    assert f"“{OPENING.tokens[top]}” {before[top]:.2f} → {after[top]:.2f}" in said
    assert f"(entropy) {bits(before):.2f} → {bits(after):.2f} bits" in said
    right = 0 if bits(after) < bits(before) else 1  # no scaling: the scores √2 further apart
    assert question.reveal(right).startswith(f"You predicted {['sharper', 'flatter'][right]}: right.")


def test_the_mask_question_picks_keys_then_is_answered_by_its_check():
    question = PlaygroundQuestion(replace(OPENING, predict="zeroed"), picks=(6, 7))
    assert question.cover().startswith("If the causal mask were switched on, which keys would it set to 0 in “good”'s")
    assert question.picked({"row": 4, "col": 8}) == (6, 7, 8) and question.picked({"col": 6}) == (7,)
    for sent in [*CRAFTED, {"col": 12}]:
        assert question.picked(sent) is None, sent
    assert question.answer({"choice": 0}) == (6, 7)  # the keys picked, checked
    assert question.answer({"choice": 1}) is None and question.answer({"col": 8}) is None
    before, after = weights_of(question.state)[4], weights_of(outcome(question.state))[4]
    zeroed = [j for j in range(OPENING.n) if before[j] > 0 and after[j] == 0]
    assert zeroed == list(range(5, 12))
    said = question.reveal((6, 7))
    assert said.startswith("You predicted “but” (6), “the” (7) (outlined in view 3): not this time.")
    assert "all 7 at once" in said and "Your set left out “,” (5), “soundtrack” (8)" in said
    assert ": right." in question.reveal(tuple(zeroed))


MATRIX = np.array([[0.1, 0.7, 0.2], [0.5, 0.25, 0.25]])
MASKED = np.array([[False, False, False], [False, False, True]])


def row_question(row: int = 0, blocked=None) -> RowQuestion:
    return RowQuestion("multi_head", "head1", row, MATRIX, blocked, ["0: a", "1: b"], ["0: a", "1: b", "2: c"],
                       "Head 1: weights", weights=True)  # fmt: skip


def test_a_row_question_is_answered_by_a_cell_of_its_own_view_only():
    question = row_question()
    assert (
        question.cover() == "Predict first: which cell of row 0: a will be the largest in “Head 1: weights”? Click it."
    )
    assert question.answer({"view": "head1", "row": 0, "col": 2}) == 2
    for sent in [*CRAFTED, {"view": "head2", "col": 1}, {"view": ["head1"], "col": 1}, {"view": {"head1": 1}, "col": 1},
                 {"view": "head1", "col": 3}, {"view": "head1", "col": True}, {"col": 1}]:  # fmt: skip
        assert question.answer(sent) is None, sent


def test_a_row_questions_reveal_quotes_both_cells_and_never_names_a_masked_one_the_largest():
    assert row_question().reveal(2) == (
        "Not this time: you predicted 2: c (0.20); the largest in row 0: a of “Head 1: weights” is 1: b: 0.70. A change "
        "asks again."
    )
    assert row_question().reveal(1).startswith("Right: you predicted 1: b (0.70)")
    masked = row_question(1, MASKED)
    assert masked.reveal(2) == (
        "Not this time: you predicted 2: c (masked); the largest in row 1: b of “Head 1: weights” is 0: a: 0.50. A "
        "change asks again."
    )
    everything = row_question(1, np.ones((2, 3), bool))
    assert everything.reveal(0).startswith(
        "Every cell of row 1: b of “Head 1: weights” is masked, so none is the largest"
    )


def test_a_row_question_is_new_when_the_numbers_its_row_shows_change():
    same = row_question()
    assert same.key == row_question().key == ("multi_head", "head1", 0, MATRIX[0].tobytes())
    moved = replace(same, matrix=MATRIX + np.array([[0, 0, 0], [0.1, 0, 0]]))  # another row moved: the same question
    assert moved.key == same.key and replace(same, matrix=MATRIX[::-1]).key != same.key


def test_a_stages_question_is_about_its_first_result_as_the_picture_names_it():
    softmax = next(stage for stage in walkthrough(OPENING).stages if stage.key == "softmax")
    question = stage_question("step_by_step", softmax, 4)
    assert (question.view, question.title, question.weights) == ("softmax-1", "After: weights", True)
    assert question.answer({"view": "softmax-1", "col": 10}) == 10 and question.answer({"view": "softmax-0"}) is None
    best = int(np.argmax(weights_of(OPENING)[4]))
    assert f"is {OPENING.labels[best]}: {weights_of(OPENING)[4][best]:.2f}. A change asks again." in question.reveal(0)


def test_the_store_keeps_the_newest_answers_of_each_page_and_replaces_an_answer_given_again():
    answers = Answers().with_answer(("playground", OPENING), 3)
    for k in range(MAX_ANSWERS_KEPT + 10):
        answers = answers.with_answer(("step_by_step", "softmax-1", 4, bytes([k])), k)
    assert answers.newest("playground") == (("playground", OPENING), 3)  # a page's many answers keep the other's
    assert answers.of(("step_by_step", "softmax-1", 4, bytes([9]))) is None
    assert answers.of(("step_by_step", "softmax-1", 4, bytes([10]))) == 10 and len(answers.kept) == MAX_ANSWERS_KEPT + 1
    again = answers.with_answer(("playground", OPENING), 5)
    assert again.of(("playground", OPENING)) == 5 and len(again.kept) == MAX_ANSWERS_KEPT + 1
    assert again.kept[-1] == (("playground", OPENING), 5)


def test_a_guided_pages_answer_is_kept_in_the_session_and_leaves_the_playgrounds_alone():
    asked = Session(state=replace(OPENING, predict="most"))
    answered = asked.apply({"guess": {"view": "weights", "row": 4, "col": 3}})
    question = row_question()
    both = answered.answered(question.key, 1)
    assert both.answers.of(question.key) == 1 and both.state == answered.state
    assert both.asked() == answered.asked() == (3, asked.state) and both.last_prediction() == (3, asked.state)


@pytest.mark.parametrize("kind", ["sharper", "zeroed"])
def test_the_playgrounds_answer_shows_on_the_state_its_change_made_and_only_there(kind):
    session = Session(state=replace(OPENING, predict=kind))
    answered = session.apply({"guess": {"choice": 0}})
    assert answered.state == outcome(session.state) != session.state
    assert answered.asked() is not None and answered.undone().asked() is None
