"""A class through two replicas behind nginx that share one store (deploy/two-replicas.sh): 120 students, 60 on each
replica, answer the teacher's question, then make Playground moves, with reconnects.

Shows that every answer is counted once on the teacher's screen whichever replica took it (a student who changes
their mind counts for their last answer), that both replicas serve, that every answer a session gets (page,
websocket, reconnect) comes from the same replica, and that after a reconnect the session is the same one with the
same numbers.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.class_question import answer, ask_the_class, bars, join
from bench.harness.server import REPO
from bench.load_class import Scenario, Tally, attempt, run_class
from bench.load_report import Sampler, latency_figures, rss_mb
from bench.st_client import Session, _http_get

SCRIPT = REPO / "deploy" / "two-replicas.sh"
PER_REPLICA = 60
SCENARIO = Scenario(2 * PER_REPLICA, 1.0, 60.0, reconnect_every=20, prefix="two replicas, one store, behind nginx: ")
KEYS = 5  # students answer with one of the first five keys (every step's sentence has them)
CHANGERS = 4  # every fourth student answers twice, changing their mind


def _start(app_dir: Path, state: str) -> tuple[str, dict[str, int]]:
    """Starts the store, the replicas and nginx; returns (proxy URL, {"127.0.0.1:port": pid})."""
    env = {**os.environ, "ATTNVIZ_REPLICAS_DIR": state, "ATTNVIZ_APP_DIR": str(app_dir)}
    done = subprocess.run([str(SCRIPT), "start"], env=env, capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise RuntimeError(f"{SCRIPT.name} start failed:\n{done.stdout}{done.stderr}")
    lines = dict(line.split("=", 1) for line in done.stdout.split() if "=" in line)
    replicas = {}
    for key, value in lines.items():
        if key.startswith("REPLICA_"):
            port, pid = value.split(":")
            replicas[f"127.0.0.1:{port}"] = int(pid)
    return lines["URL"], replicas


def _stop(state: str) -> None:
    subprocess.run([str(SCRIPT), "stop"], env={**os.environ, "ATTNVIZ_REPLICAS_DIR": state}, check=True, timeout=60)


def _seats(url: str, replicas: int) -> list[str]:
    """A cookie a student, PER_REPLICA on each replica: a browser without one is sent to a random replica, so the
    next is asked for until the class is split evenly (as a teacher's two sections of 60 would be)."""
    seated: Counter = Counter()
    cookies: list[str] = []
    for _ in range(100 * PER_REPLICA * replicas):
        cookie, replica = _http_get(f"{url}/_stcore/health", "")
        if seated[replica] < PER_REPLICA:
            seated[replica] += 1
            cookies.append(cookie)
        if len(cookies) == PER_REPLICA * replicas:
            return cookies
    raise RuntimeError(f"nginx split {dict(seated)}: could not seat {PER_REPLICA} students on each replica")


def _on(url: str, cookie: str) -> Session:
    session = Session(url)
    session.cookie = cookie
    return session


async def _answers(url: str, cookies: list[str], tally: Tally) -> dict:
    """The teacher asks; every student answers on their own replica (some twice); the bars must count each student
    once, for their last answer."""
    teacher = Session(url)
    _, query = await ask_the_class(teacher)
    final: dict[int, int] = {}
    times: list[float] = []

    async def student(index: int) -> None:
        rng, session = random.Random(index), _on(url, cookies[index])
        started = time.perf_counter()
        await join(session, query)
        if index % CHANGERS == 0:
            await answer(session, rng.randrange(KEYS))
        last = rng.randrange(KEYS)
        await answer(session, last)
        final[index] = last  # only an answer the page took is expected on the teacher's bars
        times.append((time.perf_counter() - started) * 1000)
        await session.close()

    await asyncio.gather(*(attempt(tally, "answer the class question", student(i)) for i in range(len(cookies))))
    shown, said = await bars(teacher)
    await teacher.close()
    want = Counter(final.values())
    counted = shown.voters if shown else 0
    wrong = abs(counted - len(final)) + sum(
        abs((shown.counts[k] if shown else 0) - want[k]) for k in range(KEYS)
    )  # each student missing, counted twice or under the wrong key is one wrong number
    if wrong:
        tally.wrong += wrong
        tally.failures.append(f"the teacher's bars: {shown} for {dict(want)} ({said[:200]})")
    return {"answered": len(final), "counted": counted, "answer_ms": latency_figures(times)}


async def run_replicas(app_dir: Path, shorten) -> dict:
    scenario = shorten(SCENARIO)
    with tempfile.TemporaryDirectory(prefix="attnviz-replicas-") as state:
        url, replicas = _start(app_dir, state)
        try:
            cookies = await asyncio.to_thread(_seats, url, len(replicas))
            answers_tally = Tally()
            answered = await _answers(url, cookies, answers_tally)
            row, tally = await run_class(
                url, scenario, Sampler(list(replicas.values())), session=lambda i: _on(url, cookies[i])
            )
            rss_each = {address: round(rss_mb(pid), 1) for address, pid in replicas.items()}
        finally:
            _stop(state)
    served = Counter(s.session.replicas[0] for s in tally.students if s.session.replicas)
    moved = sum(len(set(s.session.replicas)) > 1 for s in tally.students)
    reconnects = row["per_move"].get("reconnect", {}).get("count", 0)
    row |= {
        "errors": row["errors"] + answers_tally.errors,
        "wrong": row["wrong"] + answers_tally.wrong,
        "failures": answers_tally.failures + row["failures"],
        "class_question": answered,
        "sessions_per_replica": dict(served),
        "sessions_that_moved_replica": moved,
        "reconnects": reconnects,
        "rss_per_replica_mb": rss_each,
        # Its times are judged here too, though both replicas, nginx, the store and the load generator
        # share the same 2 cores, so a second replica adds no capacity here.
        "targets": "every answer counted once, both replicas serve 60, no session moves, p95 ≤ 1 s, 0 errors, 0 wrong",
    }
    row["met"] = bool(
        answered["answered"] == answered["counted"] == scenario.sessions
        and all(count == PER_REPLICA for count in served.values())
        and len(served) == len(replicas)
        and moved == 0
        and row["p95_ms"] is not None
        and row["p95_ms"] <= 1000
        and row["errors"] == 0
        and row["wrong"] == 0
    )
    row["notes"] = (
        f"class question: {answered['answered']} answered, {answered['counted']} counted, answer p95 "
        f"{answered['answer_ms']['p95_ms']} ms; sessions per replica {dict(served)}, {moved} moved replica, "
        f"{reconnects} reconnects kept their session; RSS per replica {rss_each} MB"
    )
    return row
