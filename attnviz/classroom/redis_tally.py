"""The class tally on a Redis-protocol store (Redis or Valkey), shared by every replica: a question opened on one
replica is answered on any, and the teacher's bars count every student once.

One hash per code, ``attnviz:tally:<code>``: the question, its options, the asked setup and one field per voter (``v:<voter>`` →
the option), with the question's TTL, so the store forgets a question by itself. A sorted set of the open codes by when their counts were last read, ``attnviz:tally:open``
(TTL renewed on each opening), enforces the cap on open questions without evicting one being shown; another, of the
closed codes by closing time, ``attnviz:tally:closed``, tells a late answer so. Opening, answering and closing are
Lua scripts, so each check and its write are one atomic step however many replicas answer at once:
an answer never recreates an expired question, and the voter cap cannot be passed by two students at the same time.
The scripts touch a hash named from the index, so the store must be one node (or a primary with replicas), not a
Redis Cluster.

The store's clock expires questions; ``now`` only dates entries of the open-questions index. A store that does not
answer raises ``TallyUnavailable`` (every call, closing too), which the pages show as one plain line; the server log
gets one line when the store stops answering and one when it answers again, never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Iterator, Sequence

from attnviz.classroom.tally import (
    CODE_ALPHABET,
    CODE_LENGTH,
    PRESENTED_WITHIN_S,
    QUESTION_TTL_S,
    TallyCounts,
    TallyUnavailable,
    checked_option,
    checked_question,
    checked_setup,
    class_full,
    new_code,
    question_closed,
    tally_full,
    unknown_code,
)
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_CLOSED_QUESTIONS, MAX_OPEN_QUESTIONS, MAX_OPTIONS, MAX_VOTERS

PREFIX = "attnviz:tally:"
INDEX = PREFIX + "open"
CLOSED = PREFIX + "closed"
VOTER = "v:"  # voter fields' prefix, apart from the question's own fields
QUESTION_FIELDS = 4  # question, options, n, setup
CONNECT_TIMEOUT_S = 1.0  # a store that is gone is said within about a second, not after the page hangs
COMMAND_TIMEOUT_S = 2.0
STOPPED_LINE = "the class tally's store is not answering (%s): the class's answers wait until it does"
BACK_LINE = "the class tally's store answers again"

log = logging.getLogger("attnviz.tally")

# KEYS: the index, the new hash, the closed codes. ARGV: code, now, ttl, max open, prefix, question, options (JSON),
# option count, presented within, setup. 0: the code is taken (draw another); -1: every open question is being shown.
_OPEN = """
if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('ZSCORE', KEYS[3], ARGV[1]) then return 0 end
local now = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[3]))
while redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) do
  local stalest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local gone = redis.call('EXISTS', ARGV[5] .. stalest[1]) == 0
  if not gone and now - tonumber(stalest[2]) < tonumber(ARGV[9]) then return -1 end
  redis.call('ZREM', KEYS[1], stalest[1])
  redis.call('DEL', ARGV[5] .. stalest[1])
end
redis.call('HSET', KEYS[2], 'question', ARGV[6], 'options', ARGV[7], 'n', ARGV[8], 'setup', ARGV[10])
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""
# KEYS: the question's hash, the closed codes. ARGV: voter field, option, max voters, fields that are not voters,
# code. -1: no such question; -2: no such option; -3: the class is full; -4: the question has closed; 1: counted (a
# voter's last answer replaces theirs).
_ANSWER = """
local n = redis.call('HGET', KEYS[1], 'n')
if not n then
  if redis.call('ZSCORE', KEYS[2], ARGV[5]) then return -4 end
  return -1
end
local option = tonumber(ARGV[2])
if option < 0 or option >= tonumber(n) then return -2 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0
   and redis.call('HLEN', KEYS[1]) - tonumber(ARGV[4]) >= tonumber(ARGV[3]) then return -3 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""
# KEYS: the question's hash, the index, the closed codes. ARGV: code, now, ttl, max closed.
_CLOSE = """
if redis.call('DEL', KEYS[1]) == 0 then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', tonumber(ARGV[2]) - tonumber(ARGV[3]))
redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -tonumber(ARGV[4]) - 1)
redis.call('EXPIRE', KEYS[3], ARGV[3])
return 1
"""


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
        self._close = client.register_script(_CLOSE)
        self._lock = threading.Lock()
        self._down = False  # the last call found the store not answering (logged once an outage)

    @contextlib.contextmanager
    def _reached(self) -> Iterator[None]:
        from redis.exceptions import RedisError

        try:
            yield
        except RedisError as error:  # refused, timed out, reset, read-only, out of memory: all one message
            self._note(down=True, why=f"{type(error).__name__}: {error}")
            raise TallyUnavailable() from error
        self._note(down=False)

    def _note(self, *, down: bool, why: str = "") -> None:
        """One log line when the store stops answering, one when it answers again; none for each call between."""
        with self._lock:
            changed, self._down = down != self._down, down
        if changed and down:
            log.warning(STOPPED_LINE, " ".join(why.split())[:200])
        elif changed:
            log.warning(BACK_LINE)

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

    def open(self, question: str, options: Sequence[str], *, now: float, setup: str = "") -> str:
        question, cleaned = checked_question(question, options)
        setup = checked_setup(setup)
        with self._reached():
            while True:  # a collision is one in millions; draw again rather than reuse an open code
                code = new_code()
                args = [code, now, self.ttl_s, MAX_OPEN_QUESTIONS, PREFIX, question, json.dumps(cleaned), len(cleaned),
                        PRESENTED_WITHIN_S, setup]  # fmt: skip
                opened = self._open(keys=[INDEX, PREFIX + code, CLOSED], args=args)
                if opened == -1:
                    raise tally_full()
                if opened:
                    return code

    def answer(self, code: str, voter: str, option: int, *, now: float) -> None:
        code = _code(code, self.ttl_s)
        checked_option(option, MAX_OPTIONS)  # the type and sign here; the question's own count in the store
        keys = [PREFIX + code, CLOSED]
        args = [VOTER + voter, option, MAX_VOTERS, QUESTION_FIELDS, code]
        with self._reached():
            done = self._answer(keys=keys, args=args)
        if done == -1:
            raise unknown_code(code, self.ttl_s)
        if done == -4:
            raise question_closed(code)
        if done == -2:
            checked_option(option, 0)  # refused, in the same words as the in-process tally
        if done == -3:
            raise class_full()

    def counts(self, code: str, *, now: float) -> TallyCounts:
        code = _code(code, self.ttl_s)
        with self._reached():
            read = self._client.pipeline(transaction=False)
            read.hgetall(PREFIX + code).zscore(CLOSED, code)
            read.zadd(INDEX, {code: now}, xx=True)  # its counts were read: shown, so not evicted
            fields, closed, _ = read.execute()
        if "options" not in fields:
            raise question_closed(code) if closed is not None else unknown_code(code, self.ttl_s)
        options = tuple(json.loads(fields["options"]))
        counts = [0] * len(options)
        votes = [int(value) for name, value in fields.items() if name.startswith(VOTER)]
        for option in votes:
            counts[option] += 1
        return TallyCounts(fields["question"], options, tuple(counts), len(votes), fields.get("setup", ""))

    def close(self, code: str, *, now: float) -> None:
        """Closes ``code``; a code that cannot be one is not open, so nothing is done. A store that does not answer
        raises TallyUnavailable (the question then expires by its TTL, and a late answer hears it is unknown)."""
        try:
            code = _code(code, self.ttl_s)
        except AttnvizInputError:
            return
        with self._reached():
            keys = [PREFIX + code, INDEX, CLOSED]
            self._close(keys=keys, args=[code, now, self.ttl_s, MAX_CLOSED_QUESTIONS])
