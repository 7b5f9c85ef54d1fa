"""What a teacher and a student read from the class tally, on the in-process tally and on a real store: the whole
message when the store is gone, and every one of the closed codes the tally remembers telling a late answer so."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from attnviz.classroom.redis_tally import RedisTally
from attnviz.classroom.tally import MAX_CLOSED_QUESTIONS, MemoryTally, TallyUnavailable
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_OPTIONS, MAX_SETUP_CHARS

T0 = 1_700_000_000.0
UNREACHABLE = (
    "The class's answers cannot be reached right now (their store is not answering): try again in a moment. "
    "Everything else on this page works."
)


@pytest.fixture(params=["memory", "store"])
def tally(request):
    if request.param == "memory":
        return MemoryTally()
    return RedisTally.from_url(request.getfixturevalue("redis_server").url)


def said(call) -> str:
    with pytest.raises(AttnvizInputError) as error:
        call()
    return str(error.value)


def unreachable(call) -> str:
    with pytest.raises(TallyUnavailable) as error:
        call()
    return str(error.value)


def test_a_stopped_store_says_the_whole_message_to_teacher_and_student(redis_server):
    tally = RedisTally.from_url(redis_server.url)
    code = tally.open("Which?", ("a", "b"), now=T0)
    redis_server.stop()
    assert unreachable(lambda: tally.counts(code, now=T0)) == UNREACHABLE  # the teacher's bars
    assert unreachable(lambda: tally.answer(code, "s1", 1, now=T0)) == UNREACHABLE  # a student's answer
    assert str(TallyUnavailable()) == UNREACHABLE


def test_each_of_the_last_two_thousand_closed_codes_still_says_closed(tally):
    codes = []
    for index in range(MAX_CLOSED_QUESTIONS + 1):
        codes.append(tally.open("Q?", ("a", "b"), now=T0 + index))
        tally.close(codes[-1], now=T0 + index)
    later = T0 + MAX_CLOSED_QUESTIONS + 1
    assert said(lambda: tally.answer(codes[1], "s1", 0, now=later)) == (
        f"The question {codes[1]} has closed: the teacher has moved on to the next step."
    )
    assert said(lambda: tally.answer(codes[0], "s1", 0, now=later)).startswith(
        f"No open question has the code {codes[0]}"
    )


@pytest.mark.parametrize(
    ("code", "shown"), [("K7P2Q", "you typed"), ("hello world", "you typed"), ("k7p2q0", "K7P2Q0")]
)
def test_a_code_that_cannot_be_one_is_told_how_long_codes_live(tally, code, shown):
    words = f"No open question has the code {shown}: check the code on the teacher's screen"
    assert said(lambda: tally.answer(code, "s1", 0, now=T0)) == f"{words} (it expires after 2 hours)."
    assert said(lambda: tally.counts(code, now=T0)) == f"{words} (it expires after 2 hours)."


def test_a_typo_in_a_code_is_said_at_once_even_while_the_store_is_down(redis_server):
    tally = RedisTally.from_url(redis_server.url)
    redis_server.stop()
    for typed in ("K7P2Q!", "K7P2QXY", "K7P2Q0"):  # a stray mark, a letter too many, a zero (no 0 in any code)
        assert said(lambda typed=typed: tally.answer(typed, "s1", 0, now=T0)).startswith(
            "No open question has the code"
        )
        assert said(lambda typed=typed: tally.counts(typed, now=T0)).startswith("No open question has the code")


def test_a_store_with_a_short_lifetime_says_that_lifetime(redis_server):
    tally = RedisTally.from_url(redis_server.url, ttl_s=90)
    for typed in ("K7P2Q!", "K7P2QX"):  # not a code at all, and a code no question has
        assert said(lambda typed=typed: tally.answer(typed, "s1", 0, now=T0)).endswith("(it expires after 90 seconds).")
        assert said(lambda typed=typed: tally.counts(typed, now=T0)).endswith("(it expires after 90 seconds).")


def test_a_store_restarted_between_two_questions_takes_the_second(redis_server):
    tally = RedisTally.from_url(redis_server.url)
    tally.open("Before?", ("a", "b"), now=T0)  # the client now holds a connection the restart will close
    redis_server.stop()
    redis_server.start()
    code = tally.open("After?", ("a", "b"), now=T0 + 1)
    assert tally.counts(code, now=T0 + 1).question == "After?"


def test_a_store_that_stops_answering_is_said_and_the_page_is_not_left_waiting(redis_server):
    tally = RedisTally.from_url(redis_server.url)
    code = tally.open("Which?", ("a", "b"), now=T0)
    outcome = []

    def read() -> None:
        try:
            tally.counts(code, now=T0)
        except TallyUnavailable as error:
            outcome.append(str(error))

    os.kill(redis_server.process.pid, signal.SIGSTOP)  # alive, connected, silent
    try:
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(60)  # the deadline only ends a broken run: the client's own timeout is 2 s
        assert not reader.is_alive(), "the teacher's page is still waiting for a store that does not answer"
    finally:
        os.kill(redis_server.process.pid, signal.SIGCONT)
    assert outcome == [UNREACHABLE]


def test_a_question_of_the_longest_sentence_and_setup_opens_and_one_more_is_refused(tally):
    options = [f"{i}: w{i}" for i in range(MAX_OPTIONS)]
    code = tally.open("Which key?", options, now=T0, setup="s" * MAX_SETUP_CHARS)
    counts = tally.counts(code, now=T0)
    assert counts.options == tuple(options) and len(counts.setup) == MAX_SETUP_CHARS
    assert said(lambda: tally.open("Which key?", [*options, "one more"], now=T0)) == (
        f"A class question takes 2 to {MAX_OPTIONS} answers ({MAX_OPTIONS + 1} here): "
        "use a sentence of at most 24 tokens to ask the class."
    )
    assert said(lambda: tally.open("Which key?", options, now=T0, setup="s" * (MAX_SETUP_CHARS + 1))).startswith(
        f"This setup is too large to ask the class ({MAX_SETUP_CHARS + 1:,} characters in its link; at most "
    )


def test_a_closed_code_is_forgotten_after_the_lifetime_while_other_questions_stay_open():
    tally = MemoryTally(ttl_s=100)
    closed = tally.open("First?", ("a", "b"), now=T0)
    tally.close(closed, now=T0)
    still_open = tally.open("Second?", ("a", "b"), now=T0 + 50)
    assert said(lambda: tally.answer(closed, "s1", 0, now=T0 + 99)).endswith(
        "has closed: the teacher has moved on to the next step."
    )
    assert said(lambda: tally.answer(closed, "s1", 0, now=T0 + 100)) == (
        f"No open question has the code {closed}: check the code on the teacher's screen (it expires after 100 seconds)."
    )
    assert tally.counts(still_open, now=T0 + 100).question == "Second?"
