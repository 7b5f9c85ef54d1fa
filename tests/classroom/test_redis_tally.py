"""The shared class tally on a real Redis-protocol server (tests/support/redis_store.py): one hash per code, a TTL on
every key, an answer replacing the voter's last, the in-process tally's caps and words, expiry by the store's own
clock, and a plain message when the store is gone."""

from __future__ import annotations

import ast
import logging
import re
import threading
import time
from pathlib import Path

import pytest

from attnviz.classroom import redis_tally
from attnviz.classroom import tally as in_process
from attnviz.classroom.redis_tally import CLOSED, INDEX, PREFIX, RedisTally
from attnviz.classroom.tally import (
    CODE_ALPHABET,
    MAX_OPEN_QUESTIONS,
    MAX_VOTERS,
    QUESTION_TTL_S,
    TallyCounts,
    TallyUnavailable,
)
from attnviz.core.errors import AttnvizInputError

T0 = 1_700_000_000.0
OPTIONS = ("Keys", "Queries", "Values")
QUESTION = "Which matrix is compared with the query?"


def wait_until(state, *, what: str, timeout_s: float = 30.0):
    """Polls ``state()`` until it is true (a state, not a duration); the deadline only ends a broken run."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if found := state():
            return found
        time.sleep(0.05)
    raise AssertionError(f"not reached within {timeout_s:.0f} s: {what}")


@pytest.fixture
def tally(redis_server):
    return RedisTally.from_url(redis_server.url)


def imports(module) -> set[str]:
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    found = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    return found | {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}


def test_the_store_uses_the_tallys_rules_and_the_tally_imports_no_store():
    """One way, no import circle: tally.py holds the rules both tallies keep, redis_tally.py builds on them."""
    assert "attnviz.classroom.tally" in imports(redis_tally)
    assert not {name for name in imports(in_process) if "redis" in name}


def test_answers_are_counted_per_option_in_one_hash_and_every_key_has_a_ttl(tally, redis_server):
    code = tally.open(QUESTION, OPTIONS, now=T0)
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    for voter, option in [("s1", 0), ("s2", 0), ("s3", 2), ("s4", 0)]:
        tally.answer(code, voter, option, now=T0 + 1)
    assert tally.counts(code, now=T0 + 2) == TallyCounts(QUESTION, OPTIONS, (3, 0, 1), 4)
    store = redis_server.client()
    assert sorted(store.scan_iter("attnviz:*")) == sorted([INDEX, PREFIX + code])
    assert store.type(PREFIX + code) == "hash" and store.hget(PREFIX + code, "v:s3") == "2"
    for key in store.scan_iter("*"):
        assert 0 < store.ttl(key) <= QUESTION_TTL_S, key


def test_a_second_answer_replaces_the_first(tally):
    code = tally.open(QUESTION, OPTIONS, now=T0)
    tally.answer(code, "s1", 0, now=T0)
    tally.answer(code, "s1", 1, now=T0 + 5)
    assert tally.counts(code, now=T0 + 6).counts == (0, 1, 0)
    assert tally.counts(code, now=T0 + 6).voters == 1


def test_two_clients_on_one_store_share_a_question(redis_server):
    teacher, student = RedisTally.from_url(redis_server.url), RedisTally.from_url(redis_server.url)
    code = teacher.open(QUESTION, OPTIONS, now=T0)
    student.answer(f" {code.lower()} ", "s1", 2, now=T0)  # typed as read, in lower case
    assert teacher.counts(code, now=T0).counts == (0, 0, 1)


def test_a_question_expires_with_its_ttl_and_an_answer_does_not_bring_it_back(redis_server):
    short = RedisTally.from_url(redis_server.url, ttl_s=1)
    code = short.open(QUESTION, OPTIONS, now=T0)
    short.answer(code, "s1", 0, now=T0)
    assert short.counts(code, now=T0).voters == 1

    def expired() -> bool:
        try:
            short.counts(code, now=T0)
        except AttnvizInputError as error:
            return "No open question" in str(error)
        return False

    wait_until(expired, what="the question's hash expired in the store")
    with pytest.raises(AttnvizInputError, match=f"No open question has the code {code}: .*expires after 1 second"):
        short.answer(code, "s2", 0, now=T0)
    wait_until(lambda: not redis_server.client().exists(INDEX), what="the index expired too")
    assert redis_server.client().dbsize() == 0  # the refused answer wrote nothing: no key without a TTL


def test_the_voter_cap_refuses_a_new_voter_but_lets_existing_ones_change(tally):
    code = tally.open(QUESTION, OPTIONS, now=T0)
    for voter in range(MAX_VOTERS):
        tally.answer(code, f"s{voter}", voter % 3, now=T0)
    with pytest.raises(AttnvizInputError, match=re.escape("This question already has 300 answers: the class is full.")):
        tally.answer(code, "latecomer", 0, now=T0)
    tally.answer(code, "s0", 2, now=T0)
    counts = tally.counts(code, now=T0)
    assert counts.voters == MAX_VOTERS and counts.counts == (99, 100, 101)


def test_opening_beyond_the_cap_drops_the_oldest_question(tally, redis_server):
    codes = [tally.open(f"Q{index}?", ("a", "b"), now=T0 + index) for index in range(MAX_OPEN_QUESTIONS + 1)]
    with pytest.raises(AttnvizInputError, match="No open question"):
        tally.counts(codes[0], now=T0 + MAX_OPEN_QUESTIONS)
    assert tally.counts(codes[1], now=T0 + MAX_OPEN_QUESTIONS).question == "Q1?"
    assert tally.counts(codes[-1], now=T0 + MAX_OPEN_QUESTIONS).question == f"Q{MAX_OPEN_QUESTIONS}?"
    assert redis_server.client().zcard(INDEX) == MAX_OPEN_QUESTIONS
    assert len(set(codes)) == len(codes)


def test_questions_past_their_ttl_leave_the_index(redis_server):
    tally = RedisTally.from_url(redis_server.url, ttl_s=60)
    old = tally.open("Old?", ("a", "b"), now=T0)
    new = tally.open("New?", ("a", "b"), now=T0 + 60)  # the old one's hour is over: it leaves the open count
    assert redis_server.client().zrange(INDEX, 0, -1) == [new]
    assert old != new


@pytest.mark.parametrize("option", [3, -1, 5, True, "1"])
def test_a_bad_option_is_refused_in_the_in_process_tally_s_words(tally, option):
    code = tally.open(QUESTION, OPTIONS, now=T0)
    with pytest.raises(AttnvizInputError, match=re.escape(f"That question has no option {option}.")):
        tally.answer(code, "s1", option, now=T0)
    assert tally.counts(code, now=T0).voters == 0


def test_bad_text_is_refused_before_the_store(tally, redis_server):
    with pytest.raises(AttnvizInputError, match=re.escape("Write a question of 1 to 300 characters.")):
        tally.open("", OPTIONS, now=T0)
    with pytest.raises(AttnvizInputError, match=re.escape("A class question takes 2 to 25 answers (26 here)")):
        tally.open("Q?", tuple(f"k{i}" for i in range(26)), now=T0)
    with pytest.raises(AttnvizInputError, match="the code you typed"):
        tally.counts("x" * 500, now=T0)
    with pytest.raises(AttnvizInputError, match="No open question has the code ABC234"):
        tally.answer("abc234", "s1", 0, now=T0)
    assert redis_server.client().dbsize() == 0


def test_a_closed_question_says_so_and_leaves_only_its_code(tally, redis_server):
    code = tally.open(QUESTION, OPTIONS, now=T0)
    tally.answer(code, "s1", 0, now=T0)
    tally.close(code.lower(), now=T0)
    with pytest.raises(AttnvizInputError, match=f"The question {code} has closed"):
        tally.answer(code, "s1", 0, now=T0)
    tally.close(code, now=T0)  # closing twice is harmless
    store = redis_server.client()
    assert list(store.scan_iter("*")) == [CLOSED] and store.zrange(CLOSED, 0, -1) == [code]
    assert 0 < store.ttl(CLOSED) <= QUESTION_TTL_S


def test_concurrent_answers_from_many_clients_are_all_counted_once(redis_server):
    code = RedisTally.from_url(redis_server.url).open(QUESTION, OPTIONS, now=T0)
    start = threading.Barrier(6)

    def cast(thread: int) -> None:
        mine = RedisTally.from_url(redis_server.url)  # a replica of its own
        start.wait()
        for index in range(40):
            mine.answer(code, f"t{thread}-v{index % 30}", index % 3, now=T0)  # each voter answers up to twice

    threads = [threading.Thread(target=cast, args=(thread,)) for thread in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counts = RedisTally.from_url(redis_server.url).counts(code, now=T0)
    assert counts.voters == 180 and sum(counts.counts) == 180


def test_a_stopped_store_is_a_plain_message_of_its_own_and_one_log_line(tally, redis_server, caplog):
    code = tally.open(QUESTION, OPTIONS, now=T0)
    port = redis_server.port
    redis_server.stop()
    caplog.set_level(logging.WARNING, logger="attnviz.tally")
    for call in (
        lambda: tally.counts(code, now=T0),
        lambda: tally.answer(code, "s1", 0, now=T0),
        lambda: tally.open(QUESTION, OPTIONS, now=T0),
        lambda: tally.close(code, now=T0),  # never swallowed: the teacher is told the question was not closed
    ):
        with pytest.raises(TallyUnavailable, match=r"^The class's answers cannot be reached right now") as caught:
            call()
        assert not isinstance(caught.value, AttnvizInputError)  # the store, not what anyone typed
    lines = [(record.name, record.getMessage(), record.exc_info) for record in caplog.records]
    assert len(lines) == 1, lines  # one line for the outage, not one a call
    name, line, exc_info = lines[0]
    assert name == "attnviz.tally" and exc_info is None and "\n" not in line
    assert line.startswith("the class tally's store is not answering (ConnectionError: ")
    assert f"127.0.0.1:{port}" in line and line.endswith("the class's answers wait until it does")
    tally.close("K7P2Q!", now=T0)  # not a code: nothing to close, nothing asked of the store
    redis_server.start()
    code = tally.open(QUESTION, OPTIONS, now=T0)  # the same port: the same client reaches it again
    assert [record.getMessage() for record in caplog.records][1:] == ["the class tally's store answers again"]


def test_a_store_on_a_dead_port_is_the_same_message(caplog):
    from bench.harness.server import free_port

    tally = RedisTally.from_url(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    caplog.set_level(logging.WARNING, logger="attnviz.tally")
    with pytest.raises(TallyUnavailable, match=r"^The class's answers cannot be reached right now"):
        tally.answer("K7P2QX", "s1", 0, now=T0)
    assert len(caplog.records) == 1 and caplog.records[0].exc_info is None


def test_the_store_is_given_up_on_within_its_own_timeouts_not_redis_pys():
    """A store that is gone is said within a second and a stuck one within two, not after redis-py's own 5 s (its
    defaults for both): the client is made with the tally's timeouts. No server needed: the client connects lazily."""
    made = redis_tally.RedisTally.from_url("redis://127.0.0.1:1/0")
    settings = made._client.connection_pool.connection_kwargs
    assert settings["socket_connect_timeout"] == redis_tally.CONNECT_TIMEOUT_S == 1.0
    assert settings["socket_timeout"] == redis_tally.COMMAND_TIMEOUT_S == 2.0
