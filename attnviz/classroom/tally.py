"""Live class questions: a teacher opens a question under a short code, students answer anonymously, and the
teacher's screen shows the counts before the reveal.

``Tally`` is the interface the pages use (attnviz.ui.class_tally picks one). ``MemoryTally`` keeps everything in
this process, which is right for a single Streamlit process (Community Cloud). Replicas share a Redis-protocol store
instead (attnviz.classroom.redis_tally, which uses the rules here), so a question opened on one replica is answered
on any. A voter is an opaque id (random, one a session: attnviz.ui.state.name_voter): it is only used to count one
answer per student and is never shown.

The rules both stores keep: a question whose counts were read in the last ``PRESENTED_WITHIN_S`` (the
teacher's bars refresh every 2 s) is being presented and is never evicted: when every open question is, a new one is
refused instead. A closed question is remembered as closed (at most ``MAX_CLOSED_QUESTIONS`` of them, for the TTL),
so a late answer is told the question has closed rather than that its code is wrong.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import (
    MAX_CLOSED_QUESTIONS,
    MAX_OPEN_QUESTIONS,
    MAX_OPTION_CHARS,
    MAX_OPTIONS,
    MAX_QUESTION_CHARS,
    MAX_SETUP_CHARS,
    MAX_VOTERS,
    MIN_OPTIONS,
)

# No 0/O, 1/I/L (misread on a projector) and no U (avoids accidental words): 30 symbols, 30**6 ≈ 7e8 codes.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 6
QUESTION_TTL_S = 2 * 3600
PRESENTED_WITHIN_S = 60  # counts read this recently: a teacher is showing the question, so it is never evicted


@dataclass(frozen=True)
class TallyCounts:
    """What the teacher's screen shows: ``counts[i]`` students chose ``options[i]``; ``voters`` is their total."""

    question: str
    options: tuple[str, ...]
    counts: tuple[int, ...]
    voters: int
    setup: str = ""  # the asked setup's share link, which the code alone opens for a student ("" if none was given)


class TallyUnavailable(Exception):
    """The shared store did not answer. Not bad input (nothing the teacher or student typed is wrong): each page says
    it in one plain line and goes on without the class's answers; a student's answer is kept and sent again."""

    def __init__(self) -> None:
        super().__init__(
            "The class's answers cannot be reached right now (their store is not answering): try again in a moment. "
            "Everything else on this page works."
        )


class Tally(Protocol):
    """A store of open questions and their answers. ``now`` is the time in seconds (``time.time()``)."""

    def open(self, question: str, options: Sequence[str], *, now: float, setup: str = "") -> str: ...

    def answer(self, code: str, voter: str, option: int, *, now: float) -> None: ...

    def counts(self, code: str, *, now: float) -> TallyCounts: ...

    def close(self, code: str, *, now: float) -> None: ...


@dataclass
class _OpenQuestion:
    question: str
    options: tuple[str, ...]
    opened_at: float
    seen_at: float  # when its counts were last read
    setup: str
    answer_by_voter: dict[str, int] = field(default_factory=dict)


def checked_question(question: str, options: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    question = question.strip()
    if not question or len(question) > MAX_QUESTION_CHARS:
        raise AttnvizInputError(f"Write a question of 1 to {MAX_QUESTION_CHARS} characters.")
    cleaned = tuple(option.strip() for option in options)
    if not MIN_OPTIONS <= len(cleaned) <= MAX_OPTIONS:
        raise AttnvizInputError(
            f"A class question takes {MIN_OPTIONS} to {MAX_OPTIONS} answers ({len(cleaned)} here): "
            "use a sentence of at most 24 tokens to ask the class."
        )
    if any(not option or len(option) > MAX_OPTION_CHARS for option in cleaned):
        raise AttnvizInputError(f"Each option needs 1 to {MAX_OPTION_CHARS} characters.")
    return question, cleaned


def checked_setup(setup: str) -> str:
    if len(setup) > MAX_SETUP_CHARS:
        raise AttnvizInputError(
            f"This setup is too large to ask the class ({len(setup):,} characters in its link; at most "
            f"{MAX_SETUP_CHARS:,}): use a shorter sentence or fewer typed cells."
        )
    return setup


def _lifetime(ttl_s: int) -> str:
    """A question's lifetime in the largest whole unit: "2 hours", "90 seconds"."""
    unit, seconds = next((u, s) for u, s in (("hour", 3600), ("minute", 60), ("second", 1)) if ttl_s % s == 0)
    count = ttl_s // seconds
    return f"{count} {unit}{'' if count == 1 else 's'}"


def unknown_code(code: str, ttl_s: int = QUESTION_TTL_S) -> AttnvizInputError:
    # Echo the code only when it looks like one, so a pasted paragraph is not repeated back.
    shown = code if len(code) == CODE_LENGTH and code.isalnum() else "you typed"
    return AttnvizInputError(
        f"No open question has the code {shown}: check the code on the teacher's screen "
        f"(it expires after {_lifetime(ttl_s)})."
    )


def new_code() -> str:
    """A fresh code, drawn with ``secrets`` so that no code can be guessed from the ones seen before."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def checked_option(option: int, options: int) -> None:
    if isinstance(option, bool) or not isinstance(option, int) or not 0 <= option < options:
        raise AttnvizInputError(f"That question has no option {option}.")


def class_full() -> AttnvizInputError:
    return AttnvizInputError(f"This question already has {MAX_VOTERS} answers: the class is full.")


def question_closed(code: str) -> AttnvizInputError:
    return AttnvizInputError(f"The question {code} has closed: the teacher has moved on to the next step.")


def tally_full() -> AttnvizInputError:
    return AttnvizInputError(
        f"{MAX_OPEN_QUESTIONS} class questions are open and being shown right now: try again in a minute."
    )


class MemoryTally:
    """A ``Tally`` for one process: thread-safe, and bounded in questions, voters and text so memory stays small."""

    def __init__(self, *, ttl_s: int = QUESTION_TTL_S) -> None:
        self.ttl_s = ttl_s
        self._lock = threading.Lock()
        # Insertion order is opening order, so the oldest (and the first to expire) question is always first.
        self._questions: dict[str, _OpenQuestion] = {}
        self._closed: dict[str, float] = {}  # code → when it closed, oldest first

    def open(self, question: str, options: Sequence[str], *, now: float, setup: str = "") -> str:
        question, cleaned = checked_question(question, options)
        setup = checked_setup(setup)
        with self._lock:
            self._drop_expired(now)
            if len(self._questions) >= MAX_OPEN_QUESTIONS:
                self._evict(now)
            code = self._new_code()
            self._questions[code] = _OpenQuestion(question, cleaned, now, now, setup)
            return code

    def _evict(self, now: float) -> None:
        """Makes room by dropping the oldest question nobody is showing; refuses if everyone is."""
        unseen = next((c for c, q in self._questions.items() if now - q.seen_at >= PRESENTED_WITHIN_S), None)
        if unseen is None:
            raise tally_full()
        del self._questions[unseen]

    def answer(self, code: str, voter: str, option: int, *, now: float) -> None:
        with self._lock:
            asked = self._find(code, now)
            checked_option(option, len(asked.options))
            if voter not in asked.answer_by_voter and len(asked.answer_by_voter) >= MAX_VOTERS:
                raise class_full()
            asked.answer_by_voter[voter] = option  # a second answer replaces the first

    def counts(self, code: str, *, now: float) -> TallyCounts:
        with self._lock:
            asked = self._find(code, now)
            asked.seen_at = now
            counts = [0] * len(asked.options)
            for option in asked.answer_by_voter.values():
                counts[option] += 1
            voters = len(asked.answer_by_voter)
            return TallyCounts(asked.question, asked.options, tuple(counts), voters, asked.setup)

    def close(self, code: str, *, now: float) -> None:
        code = code.strip().upper()
        with self._lock:
            if self._questions.pop(code, None) is None:
                return
            self._closed[code] = now
            while len(self._closed) > MAX_CLOSED_QUESTIONS:
                del self._closed[next(iter(self._closed))]

    def _find(self, code: str, now: float) -> _OpenQuestion:
        self._drop_expired(now)
        code = code.strip().upper()  # codes are case-insensitive on input
        asked = self._questions.get(code)
        if asked is None:
            raise question_closed(code) if code in self._closed else unknown_code(code, self.ttl_s)
        return asked

    def _drop_expired(self, now: float) -> None:
        # Questions are in opening order, so the expired ones are at the front.
        while self._questions:
            oldest_code, oldest = next(iter(self._questions.items()))
            if now - oldest.opened_at < self.ttl_s:
                break
            del self._questions[oldest_code]
        while self._closed and now - next(iter(self._closed.values())) >= self.ttl_s:
            del self._closed[next(iter(self._closed))]

    def _new_code(self) -> str:
        while True:  # a collision is one in millions; draw again rather than reuse an open code
            code = new_code()
            if code not in self._questions and code not in self._closed:
                return code
