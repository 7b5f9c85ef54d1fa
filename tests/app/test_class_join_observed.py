"""The class join (attnviz.ui.class_join) by what a student sees and what the teacher's bars count: the box's
words, each warning's words and icon, where a code opens and what Undo then does, one answer a browser, and every way
an answer is refused (the store down, the question closed, too many answers or codes at once) said in plain words and
sent again where it can be. test_class_join.py follows a student through the common path."""

from __future__ import annotations

import json
import time
from dataclasses import replace

import pytest
from streamlit.testing.v1 import AppTest

from attnviz.classroom.tally import TallyUnavailable
from attnviz.core.limits import MAX_CODE_CHARS
from attnviz.lessons.playground import OPENING
from attnviz.ui.class_join import CLASS
from attnviz.ui.class_tally import shared_tally
from attnviz.ui.state import VISIT
from bench.harness.triggers import trigger_state
from tests.app.test_class_join import asked, counted, type_code
from tests.app.test_lesson_plans import spent
from tests.app.test_playground import guess, send_browser_voter
from tests.support.apptest import APP, answer_said, button, controls, open_app, playground, use_control

BROWSER = "0123456789abcdef" * 2  # a browser's id, as the voter script makes it (32 hex digits)


def browser_data(at) -> dict:
    """What the voter script was sent: {"heard": whether the server has its id}."""
    (component,) = [c for c in at.get("bidi_component") if c.proto.component_name == "attnviz_browser_voter"]
    return json.loads(component.proto.json)


def warnings(at) -> list[tuple[str, str]]:
    """(text, icon) of each warning on the page."""
    return [(w.value.replace("\\", ""), w.proto.icon) for w in at.warning]


def test_the_box_says_what_it_is_for_and_holds_the_code_joined():
    code, _ = asked()
    student = open_app()
    use_control(student, "predict", "most")
    box = student.text_input(key="class.join")
    assert box.label == "Class code (from the teacher's screen)" and box.placeholder == "e.g. K7P2QX"
    assert "Your prediction is added to the class's bars, without your name." in [c.value for c in student.caption]
    assert box.max_chars == MAX_CODE_CHARS and box.value == ""  # empty until a code is typed
    assert browser_data(student) == {"heard": False}  # the script is asked for the browser's id
    type_code(student, code)
    assert student.text_input(key="class.join").value == code and warnings(student) == []  # the asked setup: no warning
    send_browser_voter(student, BROWSER)
    assert browser_data(student) == {"heard": True}  # heard: the script stops sending it


def test_an_empty_box_sent_back_by_the_browser_keeps_the_class():
    code, _ = asked()
    student = open_app(join=code)
    type_code(student, "")
    assert warnings(student) == [] and answer_said(student) == f"Your predictions count for the class question {code}."
    guess(student, 4, 3)
    assert counted(code) == (1, {3: 1})


def test_a_refused_code_and_another_setup_are_each_said_with_their_icon_and_the_way_back_has_its_icon():
    code, setup = asked()
    student = type_code(open_app(join=code), "ZZZ234")
    ((text, icon),) = warnings(student)
    assert text.startswith("No open question has the code ZZZ234") and icon == ":material/error:"
    type_code(student, code)
    use_control(student, "causal", True)
    assert warnings(student) == [
        (
            f"This is not the setup the class question {code} asks about: answers here are not counted. "
            "Your answer to the asked setup stands.",
            ":material/info:",
        )
    ]
    back = button(student, "Back to the class question")
    assert back.proto.icon == ":material/undo:" and back.key == "class.back"
    back.click().run()
    assert playground(student) == setup and warnings(student) == []


def test_a_code_opened_from_the_address_leaves_nothing_to_undo_and_a_code_typed_can_be_undone():
    code, setup = asked()
    opened = open_app(join=code)
    assert playground(opened) == setup and controls(opened)["undo"]["disabled"] is True
    student = open_app()
    use_control(student, "predict", "most")
    use_control(student, "causal", True)
    type_code(student, code)
    assert playground(student) == setup and controls(student)["undo"]["disabled"] is False
    use_control(student, "undo")  # the student's own setup, as Undo brings back any move
    assert playground(student) == replace(setup, causal=True)


def test_the_address_opened_on_another_page_goes_to_the_playground_with_the_code():
    code, setup = asked()
    student = AppTest.from_file(APP, default_timeout=60)
    student.query_params["join"] = code
    student.switch_page("pages/lesson_plans.py").run()  # the address's page, here the lesson plans
    assert not student.exception and playground(student) == setup
    assert student.query_params["join"] == code and student.text_input(key="class.join").value == code


def test_a_code_typed_after_answering_the_asked_setup_sends_that_answer_where_the_student_is():
    code, setup = asked()
    student = open_app()
    use_control(student, "predict", "most")
    guess(student, 4, 3)  # the asked setup answered before the code was typed
    use_control(student, "causal", True)
    type_code(student, code)
    assert counted(code) == (1, {3: 1})
    assert playground(student) == replace(setup, causal=True)  # not sent back to a setup already answered


def test_an_answer_waits_for_the_browser_s_id_and_one_browser_is_one_student():
    code, _ = asked()
    first = open_app(join=code)
    (component,) = [c for c in first.get("bidi_component") if c.proto.component_name == "attnviz_attention_views"]
    states = first._tree.get_widget_states()
    states.widgets.append(trigger_state(component.proto.id, "event", {"guess": {"row": 4, "col": 3}}))
    first = first._run(states)  # answered before the browser sent its id
    assert counted(code) == (0, {}) and answer_said(first).startswith(
        f"Sending your answer to the class question {code}"
    )
    send_browser_voter(first, BROWSER)
    assert counted(code) == (1, {3: 1}) and first.session_state[VISIT].voter == BROWSER
    tab = open_app(join=code)  # the same browser again (another tab, a reload): the same student
    send_browser_voter(tab, BROWSER)
    guess(tab, 4, 10)
    assert counted(code) == (1, {10: 1})
    other = open_app(join=code)  # another browser, its own id
    send_browser_voter(other, "fedcba9876543210" * 2)
    guess(other, 4, 3)
    assert counted(code) == (2, {3: 1, 10: 1})


def test_ids_the_script_never_makes_leave_each_session_its_own_student():
    code, _ = asked()
    for crafted in ("x" * 32, "x" * 32, {"ID": BROWSER}, {"id": BROWSER.upper()}):
        student = open_app(join=code)
        send_browser_voter(student, crafted)
        guess(student, 4, 3)
        assert not student.exception and student.session_state[VISIT].voter != BROWSER
    assert counted(code) == (4, {3: 4})


def test_two_students_without_stored_ids_are_two_answers():
    code, _ = asked()
    for key in (3, 10):
        guess(open_app(join=code), 4, key)
    assert counted(code) == (2, {3: 1, 10: 1})


def test_a_counted_answer_stays_counted_when_the_question_closes_and_is_not_sent_again():
    code, _ = asked()
    student = open_app(join=code)
    guess(student, 4, 3)
    assert answer_said(student).startswith(f"Counted for the class question {code}: 3: not.")
    shared_tally().close(code, now=time.time())  # the teacher moved on
    student.run()
    assert answer_said(student).startswith(f"Counted for the class question {code}: 3: not.")


def test_an_answer_to_a_closed_question_is_said_not_counted_and_not_sent_again():
    code, _ = asked()
    student = open_app(join=code)
    shared_tally().close(code, now=time.time())
    guess(student, 4, 3)
    refusal = (
        f"Your answer was not counted for the class: The question {code} has closed: the teacher has moved on to the "
        "next step."
    )
    assert answer_said(student) == refusal
    student.run()
    assert answer_said(student) == refusal


def test_a_store_that_fails_an_answer_is_said_and_the_answer_is_sent_again_on_the_next_run(monkeypatch):
    code, _ = asked()
    student = open_app(join=code)
    tally = shared_tally()

    def down(*args, **kwargs):
        raise TallyUnavailable()

    monkeypatch.setattr(tally, "answer", down)
    guess(student, 4, 3)
    assert answer_said(student) == (
        "Your answer was not counted for the class yet: the class's answers cannot be reached right now. It is kept "
        "and sent again every few seconds until they can."
    )
    monkeypatch.undo()
    student.run()
    assert counted(code) == (1, {3: 1}) and answer_said(student).startswith(f"Counted for the class question {code}")


def test_too_many_answers_at_once_are_said_and_the_answer_is_sent_again_once_the_rate_allows():
    code, _ = asked()
    student = spent(open_app(join=code), "answer")
    guess(student, 4, 3)
    assert answer_said(student) == (
        "Your answer was not counted for the class yet: too many answers at once. It is sent again in a few seconds."
    )
    assert counted(code) == (0, {})
    student.session_state[CLASS] = replace(student.session_state[CLASS], rates={})
    student.run()
    assert counted(code) == (1, {3: 1})


def test_too_many_codes_at_once_are_said_under_the_box():
    code, _ = asked()
    student = spent(open_app(), "code")
    use_control(student, "predict", "most")
    type_code(student, code)
    assert warnings(student) == [
        ("Too many codes tried at once: wait a few seconds, then type it again.", ":material/error:")
    ]


@pytest.mark.parametrize("where", ["address", "box"])
def test_a_question_asked_of_any_setup_counts_the_answer_on_the_setup_the_student_has(where):
    """A question opened without a setup (its link empty) takes an answer on whatever the student shows."""
    code = shared_tally().open("Which key?", [str(k) for k in range(12)], now=time.time())
    if where == "address":
        student = open_app(join=code)
        assert playground(student) == OPENING and not student.exception  # no setup to open: the first screen stays
        use_control(student, "predict", "most")
    else:
        student = open_app()
        use_control(student, "predict", "most")
        type_code(student, code)
        assert playground(student) == replace(OPENING, predict="most") and not student.exception
    use_control(student, "causal", True)
    guess(student, 4, 3)
    assert counted(code) == (1, {3: 1}) and warnings(student) == []
    assert answer_said(student).startswith(f"Counted for the class question {code}: 3")
