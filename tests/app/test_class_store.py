"""The class question on a shared store (ATTNVIZ_TALLY_URL) through the app: answers counted in the store, and a store
stopped mid-question said in one plain line to the teacher and one to the student, whose pages keep working, whose
answer is sent again once the store answers, and one line in the server log."""

from __future__ import annotations

import json
import logging
import signal
import time

import pytest

from attnviz.classroom.redis_tally import RedisTally
from attnviz.classroom.tally import QUESTION_TTL_S, MemoryTally, TallyUnavailable
from attnviz.core.limits import CODE_GUESSES_BURST
from attnviz.ui.class_join import CLASS, STORE_DOWN_ANSWER, STORE_DOWN_CODE
from attnviz.ui.class_question import ASKING
from attnviz.ui.class_tally import TTL_SETTING, URL_SETTING, class_tally, tally_at
from bench.harness.triggers import trigger_state
from tests.app.test_lesson_plans import present_ready
from tests.app.test_playground import guess
from tests.support.apptest import answer_said, chart, open_app, texts, views

UNREACHABLE = "The class's answers cannot be reached right now"
TEACHER_LINE = str(TallyUnavailable())


@pytest.fixture
def on_store(redis_server, monkeypatch):
    monkeypatch.setenv(URL_SETTING, redis_server.url)
    return redis_server


def test_tally_at_gives_the_process_tally_without_a_url_and_the_store_with_one(redis_server):
    assert isinstance(tally_at(None), MemoryTally) and tally_at(None) is tally_at("")
    shared = tally_at(redis_server.url)
    assert isinstance(shared, RedisTally) and shared is tally_at(redis_server.url)
    assert shared.ttl_s == QUESTION_TTL_S


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
    return teacher, teacher.session_state[ASKING].code


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


def store_lines(at) -> list[str]:
    """Every line on the page about the class's answers being out of reach."""
    elements = [*at.caption, *at.warning, *at.markdown]
    return [said(e) for e in elements if "cannot be reached" in said(e) or "cannot be checked" in said(e)]


def logged(caplog) -> list[str]:
    assert all(record.exc_info is None for record in caplog.records)  # never a traceback
    return [record.getMessage() for record in caplog.records if record.name == "attnviz.tally"]


def test_a_store_stopped_mid_question_is_one_line_each_and_the_pages_keep_working(on_store, caplog):
    caplog.set_level(logging.WARNING, logger="attnviz.tally")
    teacher, code = asked_class()
    student = joined(code)
    on_store.stop()
    guess(student, 4, 3)
    assert not student.exception
    assert answer_said(student) == STORE_DOWN_ANSWER and store_lines(student) == []  # under the tapped view, once
    assert "cover" not in views(student)["weights"]  # the reveal is shown all the same
    teacher.run()
    assert not teacher.exception and store_lines(teacher) == [TEACHER_LINE]  # in place of the bars
    teacher.button(key="lesson.next").click().run()  # the lesson goes on: the answer, with no bars to keep
    assert not teacher.exception and "cover" not in views(teacher)["weights"]
    assert store_lines(teacher) == [TEACHER_LINE]  # Answer could neither read nor close the question: one line
    teacher.button(key="lesson.stop").click().run()
    assert not teacher.exception and store_lines(teacher) == []  # nothing more asked of the store
    (line,) = logged(caplog)  # one outage, one line, however many calls it refused
    assert line.startswith("the class tally's store is not answering (ConnectionError: ")


def test_stop_while_the_store_is_down_says_so_once(on_store, caplog):
    caplog.set_level(logging.WARNING, logger="attnviz.tally")
    teacher, _ = asked_class()
    on_store.stop()
    teacher.button(key="lesson.stop").click().run()  # closing the question: the store is not asked in silence
    assert not teacher.exception and store_lines(teacher) == [TEACHER_LINE]
    teacher.run()
    assert store_lines(teacher) == []  # said once
    assert len(logged(caplog)) == 1


def resend(at):
    """What the page's own timer sends a few seconds after a run that left an answer waiting (trigger "retry"); it
    fails if the page armed none."""
    (component,) = [c for c in at.get("bidi_component") if c.proto.component_name == "attnviz_class_resend"]
    assert json.loads(component.proto.json)["waiting"], "no answer waits: the page would not ask for a run"
    states = at._tree.get_widget_states()
    states.widgets.append(trigger_state(component.proto.id, "retry", 1))
    return at._run(states)


def waiting(at) -> bool:
    (component,) = [c for c in at.get("bidi_component") if c.proto.component_name == "attnviz_class_resend"]
    return bool(json.loads(component.proto.json)["waiting"])


def test_an_answer_the_store_refused_is_kept_and_sent_once_when_it_answers(on_store, caplog):
    caplog.set_level(logging.WARNING, logger="attnviz.tally")
    _, code = asked_class()
    student = joined(code)
    assert not waiting(student)
    on_store.refuse_clients()  # every client turned away at once; the question stays in the store
    guess(student, 4, 3)
    for _ in range(2):  # while it is down the page asks for a run every few seconds: each sends it again
        assert answer_said(student) == STORE_DOWN_ANSWER and waiting(student)
        student = resend(student)
    assert answer_said(student) == STORE_DOWN_ANSWER
    on_store.admit_clients()
    student = resend(student)  # no move from the student: the page's own run sends it, and the store takes it
    assert answer_said(student).startswith(f"Counted for the class question {code}: 3: not.")
    assert not waiting(student)  # the page stops asking
    student.run()
    student.run()
    assert on_store.scripts_run() == 1  # sent again once the store answered, and not again once counted
    assert answer_said(student).startswith(f"Counted for the class question {code}: 3: not.")
    counts = RedisTally.from_url(on_store.url).counts(code, now=time.time())
    assert counts.voters == 1 and counts.counts[3] == 1
    assert logged(caplog) == [logged(caplog)[0], "the class tally's store answers again"]
    assert logged(caplog)[0].startswith("the class tally's store is not answering (AuthenticationError: ")


def test_an_answer_the_store_missed_is_kept_and_sent_again_once_it_answers(on_store):
    _, code = asked_class()
    student = joined(code)
    on_store.process.send_signal(signal.SIGSTOP)  # the store hangs (a failover, a full disk): answers time out
    try:
        guess(student, 4, 3)
    finally:
        on_store.process.send_signal(signal.SIGCONT)
    assert answer_said(student) == STORE_DOWN_ANSWER
    student.run()  # the next move: the kept answer goes again, and the store answers
    assert answer_said(student).startswith(f"Counted for the class question {code}: 3: not.")
    assert RedisTally.from_url(on_store.url).counts(code, now=time.time()).counts[3] == 1


def test_a_code_the_store_could_not_check_is_tried_again_with_the_kept_answer(on_store):
    _, code = asked_class()
    on_store.refuse_clients()
    student = open_app(join=code)
    assert not student.exception and store_lines(student) == [STORE_DOWN_CODE]  # at the top, where a phone opens
    for _ in range(CODE_GUESSES_BURST + 1):  # each move checks it again: the same code, so never "too many codes"
        assert store_lines(student.run()) == [STORE_DOWN_CODE]
    on_store.admit_clients()
    student.run()
    assert store_lines(student) == [] and student.session_state[CLASS].code == code  # joined on the next move
    guess(student, 4, 3)
    assert answer_said(student).startswith(f"Counted for the class question {code}: 3: not.")
