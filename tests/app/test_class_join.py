"""A student joining a class question through the app: the short address opens the asked setup with the
code in the box; a wrong code is said at once and the answer kept until the right one; only answers to the asked
setup are counted, and the way back to it is one button. The teacher's side shows the short address."""

from __future__ import annotations

import time
from dataclasses import replace

from attnviz.classroom.share import decode
from attnviz.lessons.playground import OPENING
from attnviz.ui.class_question import ASKING
from attnviz.ui.class_tally import shared_tally
from tests.app.test_lesson_plans import present_ready
from tests.app.test_playground import guess
from tests.support.apptest import answer_said, button, open_app, playground, texts, use_control, views

KEPT = "Your answer is kept: it is sent once the right code is typed."


def asked() -> tuple[str, object]:
    """A teacher presents "Attention in 15 minutes" and asks the class: (the code, the setup it asks about)."""
    teacher = present_ready("Attention in 15 minutes")
    teacher.button(key="lesson.ask").click().run()
    code = teacher.session_state[ASKING].code
    assert [c.value for c in teacher.code if "join=" in c.value] == [f"?join={code}"]
    return code, playground(teacher)


def counted(code: str) -> tuple[int, dict[int, int]]:
    """(students counted, {option: count} of the options some chose), as the teacher's bars show them."""
    counts = shared_tally().counts(code, now=time.time())
    return counts.voters, {option: n for option, n in enumerate(counts.counts) if n}


def said(elements) -> str:
    """What the elements say, as read on the page (markdown's escapes removed)."""
    return texts(elements).replace("\\", "")


def type_code(at, code: str):
    return at.text_input(key="class.join").input(code).run()


def test_the_short_address_opens_the_asked_setup_with_the_code_in_the_box():
    code, setup = asked()
    assert decode(shared_tally().counts(code, now=time.time()).setup).state == setup
    student = open_app(join=code)
    assert playground(student) == setup and views(student)["weights"]["cover"]
    assert student.text_input(key="class.join").value == code
    assert answer_said(student) == f"Your predictions count for the class question {code}."
    assert student.query_params["join"] == code  # a reload joins again


def test_a_wrong_code_is_said_at_once_and_the_answer_kept_is_sent_with_the_right_code():
    code, _ = asked()
    student = type_code(open_app(join=code), "ZZZ234")
    assert "No open question has the code ZZZ234: check the code on the teacher's screen" in said(student.warning)
    assert "join" not in student.query_params  # a reload would not join a code that was not accepted
    guess(student, 4, 3)
    assert answer_said(student) == KEPT and "cover" not in views(student)["weights"]  # shown, not counted
    assert counted(code) == (0, {})
    type_code(student, code.lower())
    assert counted(code) == (1, {3: 1}) and student.query_params["join"] == code
    assert answer_said(student).startswith(f"Counted for the class question {code}: 3: not.")
    student.run()  # a rerun sends nothing again
    assert counted(code) == (1, {3: 1}) and not student.exception


def test_an_unknown_code_in_the_address_is_said_at_the_top_and_the_first_screen_stays():
    student = open_app(join="zzz234")
    assert "No open question has the code ZZZ234" in said(student.warning)
    assert playground(student) == OPENING


def test_an_answer_on_another_setup_is_not_counted_and_the_way_back_is_one_button():
    code, setup = asked()
    student = open_app(join=code)
    guess(student, 4, 10)
    assert counted(code) == (1, {10: 1})
    use_control(student, "causal", True)  # "change anything": another setup, asked again
    assert f"This is not the setup the class question {code} asks about" in said(student.warning)
    guess(student, 4, 2)
    assert counted(code) == (1, {10: 1})  # the answer to the asked setup stands
    button(student, "Back to the class question").click().run()
    assert playground(student) == setup
    guess(student, 4, 3)
    assert counted(code) == (1, {3: 1})


def test_a_code_typed_on_another_setup_opens_the_asked_one():
    code, setup = asked()
    student = open_app()
    use_control(student, "predict", "most")
    use_control(student, "causal", True)
    assert playground(student) == replace(setup, causal=True)
    type_code(student, code)
    assert playground(student) == setup and counted(code) == (0, {})


def test_a_student_working_alone_is_told_nothing_about_a_class():
    """"Your answer is kept: type the class code …" followed every answer of a student working alone."""
    student = open_app()
    use_control(student, "predict", "most")
    guess(student, 4, 3)
    assert "cover" not in views(student)["weights"] and answer_said(student) == ""
    assert "class code" not in texts(student.caption).lower() and not student.warning
