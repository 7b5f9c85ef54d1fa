"""Live class tally: counts, one answer per voter, codes, expiry, caps, plain-words errors, and thread safety."""

from __future__ import annotations

import re
import threading

import pytest

from attnviz.classroom.tally import (
    CODE_ALPHABET,
    MAX_OPEN_QUESTIONS,
    MAX_VOTERS,
    PRESENTED_WITHIN_S,
    QUESTION_TTL_S,
    MemoryTally,
    Tally,
    TallyCounts,
)
from attnviz.core.errors import AttnvizInputError
from attnviz.ui.class_tally import shared_tally

T0 = 1_700_000_000.0
OPTIONS = ("Keys", "Queries", "Values")


def opened(tally: MemoryTally | None = None) -> tuple[MemoryTally, str]:
    tally = tally or MemoryTally()
    return tally, tally.open("Which matrix is compared with the query?", OPTIONS, now=T0)


def test_several_voters_are_counted_per_option():
    tally, code = opened()
    for voter, option in [("s1", 0), ("s2", 0), ("s3", 2), ("s4", 0)]:
        tally.answer(code, voter, option, now=T0 + 1)
    assert tally.counts(code, now=T0 + 2) == TallyCounts(
        question="Which matrix is compared with the query?", options=OPTIONS, counts=(3, 0, 1), voters=4
    )


def test_a_voter_changing_their_answer_counts_once():
    tally, code = opened()
    tally.answer(code, "s1", 0, now=T0)
    tally.answer(code, "s1", 1, now=T0 + 5)
    result = tally.counts(code, now=T0 + 6)
    assert result.counts == (0, 1, 0)
    assert result.voters == 1


def test_codes_are_six_unambiguous_characters_and_unique():
    tally = MemoryTally()
    codes = [tally.open("Q?", ("a", "b"), now=T0 + index * PRESENTED_WITHIN_S) for index in range(1000)]
    assert len(set(codes)) == 1000
    assert all(len(code) == 6 and set(code) <= set(CODE_ALPHABET) for code in codes)
    assert len(CODE_ALPHABET) == 30
    assert not set("0O1IL") & set(CODE_ALPHABET)


def test_code_input_is_case_insensitive_and_trimmed():
    tally, code = opened()
    tally.answer(f"  {code.lower()} ", "s1", 1, now=T0)
    assert tally.counts(code.lower(), now=T0).counts == (0, 1, 0)


def test_a_question_expires_after_the_ttl():
    tally, code = opened()
    tally.answer(code, "s1", 0, now=T0 + QUESTION_TTL_S - 1)
    assert tally.counts(code, now=T0 + QUESTION_TTL_S - 1).voters == 1
    with pytest.raises(AttnvizInputError, match=f"No open question has the code {code}: check the code") as caught:
        tally.counts(code, now=T0 + QUESTION_TTL_S)
    assert "expires after 2 hours" in str(caught.value)
    with pytest.raises(AttnvizInputError, match="No open question"):
        tally.answer(code, "s2", 0, now=T0 + QUESTION_TTL_S)


def test_an_unknown_code_is_refused_without_echoing_long_input():
    tally, _ = opened()
    with pytest.raises(AttnvizInputError, match="No open question has the code ABC234"):
        tally.counts("abc234", now=T0)
    with pytest.raises(AttnvizInputError, match="the code you typed"):
        tally.counts("x" * 500, now=T0)


def test_the_voter_cap_refuses_a_new_voter_but_lets_existing_ones_change():
    tally, code = opened()
    for voter in range(MAX_VOTERS):
        tally.answer(code, f"s{voter}", voter % 3, now=T0)
    with pytest.raises(AttnvizInputError, match=re.escape("This question already has 300 answers: the class is full.")):
        tally.answer(code, "latecomer", 0, now=T0)
    tally.answer(code, "s0", 2, now=T0)
    assert tally.counts(code, now=T0).voters == MAX_VOTERS


def test_opening_beyond_the_cap_drops_the_oldest_question():
    tally = MemoryTally()
    codes = [tally.open(f"Q{index}?", ("a", "b"), now=T0 + index) for index in range(MAX_OPEN_QUESTIONS + 1)]
    with pytest.raises(AttnvizInputError, match="No open question"):
        tally.counts(codes[0], now=T0 + MAX_OPEN_QUESTIONS)
    assert tally.counts(codes[1], now=T0 + MAX_OPEN_QUESTIONS).question == "Q1?"
    assert tally.counts(codes[-1], now=T0 + MAX_OPEN_QUESTIONS).question == f"Q{MAX_OPEN_QUESTIONS}?"


@pytest.mark.parametrize("option", [3, -1, 5, True])
def test_a_bad_option_index_is_refused(option):
    tally, code = opened()
    with pytest.raises(AttnvizInputError, match=re.escape(f"That question has no option {option}.")):
        tally.answer(code, "s1", option, now=T0)
    assert tally.counts(code, now=T0).voters == 0


@pytest.mark.parametrize(
    ("question", "options", "message"),
    [
        ("", OPTIONS, "Write a question of 1 to 300 characters."),
        ("q" * 301, OPTIONS, "Write a question of 1 to 300 characters."),
        ("Q?", ("only one",), "A class question takes 2 to 25 answers (1 here)"),
        ("Q?", tuple(f"key {i}" for i in range(26)), "A class question takes 2 to 25 answers (26 here)"),
        ("Q?", ("a", "b" * 81), "Each option needs 1 to 80 characters."),
        ("Q?", ("a", "  "), "Each option needs 1 to 80 characters."),
    ],
)
def test_bad_question_text_is_refused(question, options, message):
    with pytest.raises(AttnvizInputError, match=re.escape(message)):
        MemoryTally().open(question, options, now=T0)


def test_the_longest_allowed_question_is_accepted():
    code = MemoryTally().open("q" * 300, tuple("o" * 80 for _ in range(8)), now=T0)
    assert len(code) == 6


def test_a_closed_question_says_so():
    tally, code = opened()
    tally.close(code.lower(), now=T0)
    with pytest.raises(AttnvizInputError, match=f"The question {code} has closed"):
        tally.answer(code, "s1", 0, now=T0)
    tally.close(code, now=T0)  # closing twice is harmless


def test_concurrent_answers_are_all_counted():
    # 400 distinct voters exceed one question's cap of 300, so each thread alternates between two questions.
    tally = MemoryTally()
    codes = [tally.open(f"Q{index}?", OPTIONS, now=T0) for index in range(2)]
    start = threading.Barrier(8)

    def cast(thread: int) -> None:
        start.wait()
        for index in range(50):
            tally.answer(codes[index % 2], f"t{thread}-v{index}", index % 3, now=T0 + 1)

    threads = [threading.Thread(target=cast, args=(thread,)) for thread in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results = [tally.counts(code, now=T0 + 2) for code in codes]
    assert [result.voters for result in results] == [200, 200]
    assert sum(sum(result.counts) for result in results) == 400


def test_shared_tally_is_one_instance_that_satisfies_the_protocol():
    assert shared_tally() is shared_tally()
    tally: Tally = shared_tally()
    assert isinstance(tally, MemoryTally)


@pytest.mark.parametrize(("ttl_s", "said"), [(7200, "2 hours"), (3600, "1 hour"), (60, "1 minute"), (90, "90 seconds")])
def test_the_unknown_code_message_says_the_configured_lifetime(ttl_s, said):
    tally = MemoryTally(ttl_s=ttl_s)
    code = tally.open("Q?", ("a", "b"), now=T0)
    assert tally.counts(code, now=T0 + ttl_s - 1).voters == 0
    with pytest.raises(AttnvizInputError, match=re.escape(f"(it expires after {said}).")):
        tally.counts(code, now=T0 + ttl_s)
