"""The class tally on a Redis-protocol store (Redis or Valkey), shared by every replica: a question opened on one
replica is answered on any, and the teacher's bars count every student once.

One hash per code, ``attnviz:tally:<code>``: the question, its options and one field per voter (``v:<voter>`` →
the option), with the question's TTL, so the store forgets a question by itself. A sorted set of the open codes by
opening time, ``attnviz:tally:open`` (TTL renewed on each opening), enforces the cap on open questions. Opening and
answering are Lua scripts, so each check and its write are one atomic step however many replicas answer at once:
an answer never recreates an expired question, and the voter cap cannot be passed by two students at the same time.
The scripts touch a hash named from the index, so the store must be one node (or a primary with replicas), not a
Redis Cluster.

The store's clock expires questions; ``now`` only dates entries of the open-questions index. A store that does not
answer raises ``TallyUnavailable``, which the pages show as a plain message.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence

from attnviz.classroom.tally import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_OPEN_QUESTIONS,
    MAX_OPTIONS,
    MAX_VOTERS,
    QUESTION_TTL_S,
    TallyCounts,
    TallyUnavailable,
    checked_option,
    checked_question,
    class_full,
    new_code,
    unknown_code,
)
from attnviz.core.errors import AttnvizInputError

PREFIX = "attnviz:tally:"
INDEX = PREFIX + "open"
VOTER = "v:"  # voter fields' prefix, apart from the question's own fields
QUESTION_FIELDS = 3  # question, options, n
CONNECT_TIMEOUT_S = 1.0  # a store that is gone is said within about a second, not after the page hangs
COMMAND_TIMEOUT_S = 2.0

# KEYS: the index, the new hash. ARGV: code, now, ttl, max open, prefix, question, options (JSON), option count.
# 0: the code is taken (draw another).
_OPEN = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[2]) - tonumber(ARGV[3]))
while redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) do
  local oldest = redis.call('ZPOPMIN', KEYS[1])
  redis.call('DEL', ARGV[5] .. oldest[1])
end
redis.call('HSET', KEYS[2], 'question', ARGV[6], 'options', ARGV[7], 'n', ARGV[8])
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""
# KEYS: the question's hash. ARGV: voter field, option, max voters, fields that are not voters.
# -1: no such question; -2: no such option; -3: the class is full; 1: counted (a voter's last answer replaces theirs).
_ANSWER = """
local n = redis.call('HGET', KEYS[1], 'n')
if not n then return -1 end
local option = tonumber(ARGV[2])
if option < 0 or option >= tonumber(n) then return -2 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0
   and redis.call('HLEN', KEYS[1]) - tonumber(ARGV[4]) >= tonumber(ARGV[3]) then return -3 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


@contextlib.contextmanager
def _reached() -> Iterator[None]:
    from redis.exceptions import RedisError

    try:
        yield
    except RedisError as error:  # refused, timed out, reset, read-only, out of memory: all one message
        raise TallyUnavailable() from error


def _code(code: str, ttl_s: int) -> str:
    """The typed code as stored (case-insensitive, trimmed); anything that cannot be a code is unknown at once, so
    no text a student pastes becomes a key."""
    code = code.strip().upper()
    if len(code) != CODE_LENGTH or not set(code) <= set(CODE_ALPHABET):
        raise unknown_code(code, ttl_s)
    return code


class RedisTally:
    """A ``Tally`` on a Redis-protocol store; thread-safe (the client keeps a pool of connections)."""

    def __init__(self, client, *, ttl_s: int = QUESTION_TTL_S) -> None:
        self.ttl_s = ttl_s
        self._client = client
        self._open = client.register_script(_OPEN)
        self._answer = client.register_script(_ANSWER)

    @classmethod
    def from_url(cls, url: str, *, ttl_s: int = QUESTION_TTL_S) -> RedisTally:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        client = redis.Redis.from_url(
            url,
            decode_responses=True,
            socket_connect_timeout=CONNECT_TIMEOUT_S,
            socket_timeout=COMMAND_TIMEOUT_S,
            retry=Retry(NoBackoff(), 1),  # one retry covers a pooled connection the store closed; no waiting
            health_check_interval=30,
        )
        return cls(client, ttl_s=ttl_s)

    def open(self, question: str, options: Sequence[str], *, now: float) -> str:
        question, cleaned = checked_question(question, options)
        with _reached():
            while True:  # a collision is one in millions; draw again rather than reuse an open code
                code = new_code()
                args = [code, now, self.ttl_s, MAX_OPEN_QUESTIONS, PREFIX, question, json.dumps(cleaned), len(cleaned)]
                if self._open(keys=[INDEX, PREFIX + code], args=args):
                    return code

    def answer(self, code: str, voter: str, option: int, *, now: float) -> None:
        code = _code(code, self.ttl_s)
        checked_option(option, MAX_OPTIONS)  # the type and sign here; the question's own count in the store
        with _reached():
            done = self._answer(keys=[PREFIX + code], args=[VOTER + voter, option, MAX_VOTERS, QUESTION_FIELDS])
        if done == -1:
            raise unknown_code(code, self.ttl_s)
        if done == -2:
            checked_option(option, 0)  # refused, in the same words as the in-process tally
        if done == -3:
            raise class_full()

    def counts(self, code: str, *, now: float) -> TallyCounts:
        code = _code(code, self.ttl_s)
        with _reached():
            fields = self._client.hgetall(PREFIX + code)
        if "options" not in fields:
            raise unknown_code(code, self.ttl_s)
        options = tuple(json.loads(fields["options"]))
        counts = [0] * len(options)
        votes = [int(value) for name, value in fields.items() if name.startswith(VOTER)]
        for option in votes:
            counts[option] += 1
        return TallyCounts(fields["question"], options, tuple(counts), len(votes))

    def close(self, code: str) -> None:
        with contextlib.suppress(AttnvizInputError):  # a code that is not open, or a store that is down: it expires
            code = _code(code, self.ttl_s)
            with _reached():
                self._client.delete(PREFIX + code)
                self._client.zrem(INDEX, code)
