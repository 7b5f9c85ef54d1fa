"""The class question on a shared store (ATTNVIZ_TALLY_URL) through the app: answers counted in the store, and a store
stopped mid-question said in plain words to the teacher and the student, whose pages keep working."""

from __future__ import annotations

import signal
import time

import pytest

from attnviz.classroom.redis_tally import RedisTally
from attnviz.classroom.tally import QUESTION_TTL_S, MemoryTally
from attnviz.ui.class_tally import TTL_SETTING, URL_SETTING, class_tally
from tests.app.test_lesson_plans import present_ready
from tests.app.test_playground import guess
from tests.support.apptest import answer_said, chart, open_app, texts, views

UNREACHABLE = "The class's answers cannot be reached right now"


@pytest.fixture
def on_store(redis_server, monkeypatch):
    monkeypatch.setenv(URL_SETTING, redis_server.url)
    return redis_server


def test_the_tally_follows_the_setting(redis_server, monkeypatch):
    monkeypatch.delenv(URL_SETTING, raising=False)
    monkeypatch.delenv(TTL_SETTING, raising=False)
    assert isinstance(class_tally(), MemoryTally) and class_tally().ttl_s == QUESTION_TTL_S
    monkeypatch.setenv(URL_SETTING, redis_server.url)
    assert isinstance(class_tally(), RedisTally) and class_tally() is class_tally()
    monkeypatch.setenv(TTL_SETTING, "20")
    assert class_tally().ttl_s == 20
    for unusable in ("0", "-5", "two hours"):  # the 2 hours stand rather than a question that never lives
        monkeypatch.setenv(TTL_SETTING, unusable)
        assert class_tally().ttl_s == QUESTION_TTL_S


def said(elements) -> str:
    """What the elements say, as read on the page (user text is shown literally: markdown's escapes removed)."""
    return texts(elements).replace("\\", "")


def asked_class():
    teacher = present_ready("Attention in 15 minutes")  # step 1 asks which word “good” attends to most
    teacher.button(key="lesson.ask").click().run()
    return teacher, teacher.session_state["lesson.class_question"]


def joined(code: str):
    student = open_app(join=code)
    assert not student.exception and UNREACHABLE not in said(student.warning)
    return student


def test_answers_go_to_the_store_and_the_teacher_reads_them_there(on_store):
    teacher, code = asked_class()
    for key in (3, 3, 10):
        guess(joined(code), 4, key)
    counts = RedisTally.from_url(on_store.url).counts(code, now=time.time())  # what any replica reads
    assert counts.voters == 3 and counts.counts[3] == 2 and counts.counts[10] == 1
    teacher.run()
    assert "3 answered" in chart(teacher, "lesson.tally")["layout"]["title"]["text"]


def test_a_store_stopped_mid_question_is_a_message_and_the_pages_keep_working(on_store):
    teacher, code = asked_class()
    student = joined(code)
    on_store.stop()
    guess(student, 4, 3)
    assert not student.exception
    assert f"Your answer was not counted for the class yet: {UNREACHABLE}" in answer_said(student)
    assert "cover" not in views(student)["weights"]  # the reveal is shown all the same
    teacher.run()
    assert not teacher.exception
    assert UNREACHABLE in said(teacher.caption)
    teacher.button(key="lesson.next").click().run()  # the lesson goes on: the answer
    assert not teacher.exception and "cover" not in views(teacher)["weights"]


def test_an_answer_the_store_missed_is_kept_and_sent_again_once_it_answers(on_store):
    _, code = asked_class()
    student = joined(code)
    on_store.process.send_signal(signal.SIGSTOP)  # the store hangs (a failover, a full disk): answers time out
    try:
        guess(student, 4, 3)
    finally:
        on_store.process.send_signal(signal.SIGCONT)
    assert answer_said(student).startswith(f"Your answer was not counted for the class yet: {UNREACHABLE}")
    assert "It is sent again with your next move." in answer_said(student)
    student.run()  # the next move: the kept answer goes again, and the store answers
    assert answer_said(student).startswith(f"Counted for the class question {code}: 3: not.")
    assert RedisTally.from_url(on_store.url).counts(code, now=time.time()).counts[3] == 1
