"""The rules both class tallies keep, each test on the in-process tally and on a real store: a question being shown is
never evicted (a new one is refused instead), and a closed question tells a late answer so."""

from __future__ import annotations

import re

import pytest

from attnviz.classroom.redis_tally import RedisTally
from attnviz.classroom.tally import (
    MAX_CLOSED_QUESTIONS,
    MAX_OPEN_QUESTIONS,
    MAX_SETUP_CHARS,
    MAX_VOTERS,
    PRESENTED_WITHIN_S,
    MemoryTally,
)
from attnviz.core.errors import AttnvizInputError

T0 = 1_700_000_000.0
OPTIONS = ("Keys", "Queries", "Values")


@pytest.fixture(params=["memory", "store"])
def tally(request):
    if request.param == "memory":
        return MemoryTally()
    return RedisTally.from_url(request.getfixturevalue("redis_server").url)


def test_a_question_being_shown_survives_a_tab_opening_questions_in_a_loop(tally):
    shown = tally.open("Shown?", OPTIONS, now=T0)
    refused = set()
    for index in range(3 * MAX_OPEN_QUESTIONS):  # ten a second, for 150 s
        now = T0 + index / 10
        if index % 20 == 0:
            tally.counts(shown, now=now)  # the teacher's bars, every 2 s
        try:
            tally.open(f"Loop {index}?", ("a", "b"), now=now)
        except AttnvizInputError as error:  # a fresh question counts as shown for its first minute
            refused.add(str(error))
    assert tally.counts(shown, now=T0 + 150).question == "Shown?"
    assert refused == {
        f"{MAX_OPEN_QUESTIONS} class questions are open and being shown right now: try again in a minute."
    }


def test_when_every_open_question_is_shown_a_new_one_is_refused_until_one_is_not(tally):
    codes = [tally.open(f"Q{index}?", ("a", "b"), now=T0) for index in range(MAX_OPEN_QUESTIONS)]
    for code in codes:
        tally.counts(code, now=T0 + 1)
    with pytest.raises(AttnvizInputError, match=re.escape("500 class questions are open and being shown right now")):
        tally.open("One more?", ("a", "b"), now=T0 + 2)
    assert all(tally.counts(code, now=T0 + 2).voters == 0 for code in codes)  # all still open (and seen at T0 + 2)
    later = T0 + 2 + PRESENTED_WITHIN_S
    tally.open("One more?", ("a", "b"), now=later)  # none shown for a minute: one of the stalest makes room
    assert sum(not is_open(tally, code, later) for code in codes) == 1


def is_open(tally, code: str, now: float) -> bool:
    try:
        tally.counts(code, now=now)
    except AttnvizInputError as error:
        assert "No open question" in str(error)
        return False
    return True


def test_a_late_answer_to_a_closed_question_is_told_it_has_closed_and_not_counted(tally):
    code = tally.open("Which?", OPTIONS, now=T0)
    tally.answer(code, "s1", 0, now=T0 + 1)
    tally.close(code.lower(), now=T0 + 2)  # the teacher's Next
    closed = f"The question {code} has closed: the teacher has moved on to the next step."
    with pytest.raises(AttnvizInputError, match=re.escape(closed)):
        tally.answer(code, "s2", 1, now=T0 + 3)
    with pytest.raises(AttnvizInputError, match=re.escape(closed)):
        tally.counts(code, now=T0 + 3)  # a student typing the code
    tally.close(code, now=T0 + 4)  # closing twice is harmless
    with pytest.raises(AttnvizInputError, match="No open question has the code ABC234"):
        tally.answer("ABC234", "s2", 1, now=T0 + 3)  # a code never opened is still a wrong code


def test_closed_codes_are_remembered_up_to_a_cap(tally):
    codes = []
    for index in range(MAX_CLOSED_QUESTIONS + 1):
        codes.append(tally.open("Q?", ("a", "b"), now=T0 + index))
        tally.close(codes[-1], now=T0 + index)
    with pytest.raises(AttnvizInputError, match="No open question"):
        tally.answer(codes[0], "s1", 0, now=T0 + MAX_CLOSED_QUESTIONS + 1)
    with pytest.raises(AttnvizInputError, match="has closed"):
        tally.answer(codes[-1], "s1", 0, now=T0 + MAX_CLOSED_QUESTIONS + 1)


def test_a_question_keeps_the_setup_it_asks_about_so_the_code_alone_opens_it(tally):
    """A student who has only the code lands on the asked setup, so both stores keep its share link."""
    setup = "s=1." + "x" * 200
    code = tally.open("Which?", OPTIONS, now=T0, setup=setup)
    tally.answer(code, "s1", 2, now=T0)
    counts = tally.counts(code.lower(), now=T0)
    assert (counts.setup, counts.counts, counts.voters) == (setup, (0, 0, 1), 1)
    for voter in range(1, MAX_VOTERS):  # the setup is not a voter: the class still holds MAX_VOTERS
        tally.answer(code, f"v{voter}", 0, now=T0)
    assert tally.counts(code, now=T0).voters == MAX_VOTERS
    assert tally.counts(tally.open("No setup?", OPTIONS, now=T0), now=T0).setup == ""


def test_a_setup_too_large_to_ask_about_is_refused_in_words(tally):
    with pytest.raises(
        AttnvizInputError, match=re.escape("This setup is too large to ask the class (4,001 characters")
    ):
        tally.open("Which?", OPTIONS, now=T0, setup="s" * (MAX_SETUP_CHARS + 1))
