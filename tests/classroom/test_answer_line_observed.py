"""The line a student reads under the view they answer on (attnviz.classroom.join.answer_line), in every state of a
class answer: kept until the right code, not counted on another setup, asking, on its way, refused, counted."""

from __future__ import annotations

from dataclasses import replace

import pytest

from attnviz.classroom.join import AnswerLine, answer_line
from attnviz.lessons.playground import OPENING

CODE = "K7P2QX"
MOST = replace(OPENING, predict="most")
SHARPER = replace(OPENING, predict="sharper")
KEPT = (MOST, 10)  # "good" (row 4) attends most to key 10, “amazing”
HERE = {"code": CODE, "refused": False, "kept": KEPT, "answers_asked": True, "on_asked": True, "heard": True}


def line(**changes) -> AnswerLine | None:
    return answer_line(**({"sent": (CODE, KEPT, None)} | HERE | changes))


def test_an_answer_counted_says_so_with_the_option_chosen():
    assert line() == AnswerLine(
        f"Counted for the class question {CODE}: 10: amazing. A new answer here replaces it.", "ok"
    )
    sharper = (SHARPER, 0)
    counted = line(kept=sharper, sent=(CODE, sharper, None))
    assert counted == AnswerLine(
        f"Counted for the class question {CODE}: Sharper. A new answer here replaces it.", "ok"
    )


def test_an_answer_the_tally_refused_says_why():
    assert line(sent=(CODE, KEPT, "The question K7P2QX has closed.")) == AnswerLine(
        "The question K7P2QX has closed.", "warn"
    )


@pytest.mark.parametrize(
    "changes",
    [{"heard": False}, {"sent": None}, {"sent": ("ZZZ234", KEPT, None)}, {"sent": (CODE, (MOST, 3), None)}],
)
def test_an_answer_not_yet_sent_for_this_code_and_this_prediction_is_on_its_way(changes):
    assert line(**changes) == AnswerLine(f"Sending your answer to the class question {CODE}…", "info")


@pytest.mark.parametrize("changes", [{"kept": None}, {"answers_asked": False}])
def test_with_no_answer_to_this_question_yet_the_line_says_predictions_count(changes):
    assert line(**changes) == AnswerLine(f"Your predictions count for the class question {CODE}.", "info")


def test_on_another_setup_nothing_is_counted_and_the_line_says_so():
    assert line(on_asked=False) == AnswerLine(
        f"Not counted: this is not the setup the class question {CODE} asks about.", "warn"
    )


@pytest.mark.parametrize("changes", [{"refused": True}, {"code": None}])
def test_before_the_right_code_an_answer_is_kept_and_without_one_nothing_is_said(changes):
    assert line(**changes) == AnswerLine("Your answer is kept: it is sent once the right code is typed.", "warn")
    assert line(**changes, kept=None) is None
