"""Two app processes on one Redis-protocol store, as two replicas are: a question opened by a teacher on one is
answered by students on the other, each counted once (a changed answer replaces the first), and after its TTL both
processes say the code is no longer open. Driven over Streamlit's own protocol (bench.class_question); the store is
a real server (tests/support/redis_store.py). No step waits for a duration: each waits for a state."""

from __future__ import annotations

import asyncio
import time

from attnviz.ui.class_tally import TTL_SETTING, URL_SETTING
from bench.class_question import answer, ask_the_class, bars, join
from bench.st_client import Session
from tests.classroom.test_redis_tally import wait_until
from tests.load.test_load_protocol import run_apart
from tests.support.live import StreamlitServer

# The answers must come within the TTL: both servers are warm before the question is asked, so what follows is a
# few page loads and reruns of well under a second each, with room for both cores busy; the expiry is then waited
# for as a state. The test checks the question is still open when it counts.
TTL_S = 30
EXPIRED = "No open question has the code"


async def wait_for_expiry(
    teacher: Session, student: Session, code: str, query: str, deadline_s: float
) -> tuple[str, str]:
    """Polls both processes until each says the code is not open (the state), with a deadline for a broken run."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        shown, said = await bars(teacher)
        if shown is None and EXPIRED in said:
            late = await join(student, query)
            joined_said = "\n".join(late.alerts)
            assert EXPIRED in joined_said, joined_said
            return said, joined_said
        await asyncio.sleep(0.5)
    raise AssertionError(f"the question {code} was still open {deadline_s:.0f} s after it was asked")


async def one_class(teacher_url: str, student_url: str) -> None:
    for url in (teacher_url, student_url):  # each server's first session imports and caches what every page needs
        warm = Session(url)
        assert not (await warm.open()).exceptions
        await warm.close()
    teacher = Session(teacher_url)
    code, query = await ask_the_class(teacher)
    students = [Session(student_url) for _ in range(3)]
    for student in students:
        joined = await join(student, query)
        assert not joined.exceptions and not joined.alerts, joined.alerts
    await answer(students[0], 3)  # “not”
    await answer(students[1], 10)  # “amazing”
    await answer(students[2], 10)
    await answer(students[2], 3)  # changes their mind: counted once, for “not”
    await answer(students[1], 10)  # the same answer twice: counted once
    shown, said = await bars(teacher)
    assert shown is not None, f"the question expired before it was counted (TTL {TTL_S} s): {said}"
    assert shown.voters == 3
    assert shown.counts[3] == 2 and shown.counts[10] == 1 and sum(shown.counts) == 3
    teacher_said, student_said = await wait_for_expiry(teacher, Session(student_url), code, query, TTL_S + 60)
    assert f"{EXPIRED} {code}" in teacher_said and f"expires after {TTL_S} seconds" in teacher_said
    assert f"{EXPIRED} {code}" in student_said.replace("\\", "")
    for session in (teacher, *students):
        await session.close()


def test_two_processes_on_one_store_share_a_question_count_each_student_once_and_expire_it(redis_server):
    env = {URL_SETTING: redis_server.url, TTL_SETTING: str(TTL_S)}
    with StreamlitServer("app.py", env=env) as first, StreamlitServer("app.py", env=env) as second:
        run_apart(one_class(first.url, second.url))  # Playwright keeps a loop running in this thread
        for server in (first, second):
            assert "Traceback" not in server.output(), server.output()[-3000:]
    store = redis_server.client()
    wait_until(lambda: store.dbsize() == 0, what="every key had a TTL, and has expired")
