"""A class of students on one server, over Streamlit's own protocol: the scenario, each student's loop of moves
(bench.load_moves), and what they measured. Used by the class and soak runs (bench.load) and by the replicas' run
(bench.load_replicas)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bench.load_moves import RECONNECT, Student, Wrong, pick_move
from bench.load_report import Sampler, cpu_figures, latency_figures
from bench.st_client import Session


@dataclass(frozen=True)
class Scenario:
    sessions: int
    move_every_s: float
    duration_s: float
    reconnect_every: int = 0  # every this many moves, a session reconnects and must find its state (0: never)
    prefix: str = ""
    bursts: int = 0  # > 0: a burst ("now everyone toggle"): every session moves once within BURST_WINDOW_S, this
    # many times, ``move_every_s`` apart, instead of moving every ``move_every_s`` for ``duration_s``

    @property
    def name(self) -> str:
        if self.bursts:
            return f"{self.prefix}burst: {self.sessions} sessions × 1 move within {BURST_WINDOW_S:g} s, {self.bursts}×"
        every = "s" if self.move_every_s == 1 else f"{self.move_every_s:g} s"
        return f"{self.prefix}{self.sessions} sessions × 1 move/{every} × {self.duration_s:g} s"

    def move_times(self, start: float, rng) -> list[float] | None:
        """A burst's moves for one session (monotonic times), each at a random moment of its window; None when the
        session moves every ``move_every_s`` instead."""
        if not self.bursts:
            return None
        return [start + k * self.move_every_s + rng.uniform(0, BURST_WINDOW_S) for k in range(self.bursts)]


BURST_WINDOW_S = 1.0


@dataclass
class Tally:
    """Everything the students of one scenario measured."""

    loads_ms: list[float] = field(default_factory=list)
    moves_ms: dict[str, list[float]] = field(default_factory=dict)
    errors: int = 0
    wrong: int = 0
    failures: list[str] = field(default_factory=list)  # the first few, word for word
    students: list[Student] = field(default_factory=list)
    loaded: asyncio.Event = field(default_factory=asyncio.Event)  # set when every session has loaded (or failed to)
    until: float = 0.0  # when moves stop: ``duration_s`` after the whole class is in
    moves_from: float = 0.0  # when the whole class was in: moves start

    def fail(self, what: str, error: BaseException, *, wrong: bool) -> None:
        if wrong:
            self.wrong += 1
        else:
            self.errors += 1
        if len(self.failures) < 5:
            self.failures.append(f"{what}: {type(error).__name__}: {error}")

    def all_moves(self) -> list[float]:
        """Every student move's time. Reconnects are a fault the test injects, not a move: reported on their own."""
        return [t for name, times in self.moves_ms.items() if name != RECONNECT[0] for t in times]


async def attempt(tally: Tally, what: str, action) -> bool:
    """Runs one move; a wrong answer or a broken session is counted and ends that student (its state is unknown)."""
    try:
        await action
    except Wrong as error:
        tally.fail(what, error, wrong=True)
        return False
    except Exception as error:  # any failure of a session is a load-test finding, never a crash
        tally.fail(what, error, wrong=False)
        return False
    return True


async def _student(session: Session, index: int, scenario: Scenario, tally: Tally):
    student = Student(session, seed=index)
    tally.students.append(student)

    async def load():
        tally.loads_ms.append((await student.load()).elapsed_ms)

    ok = await attempt(tally, "load", load())
    if len(tally.loads_ms) + tally.errors + tally.wrong >= scenario.sessions:
        tally.moves_from = time.monotonic()
        tally.until = tally.moves_from + (scenario.bursts * scenario.move_every_s or scenario.duration_s)
        tally.loaded.set()
    await tally.loaded.wait()  # moves start once the whole class is in, so opening is measured on its own
    burst = scenario.move_times(tally.moves_from, student.rng)
    next_at = burst.pop(0) if burst else time.monotonic() + student.rng.uniform(0, scenario.move_every_s)
    made = 0
    while ok:
        await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        if burst is None and time.monotonic() >= tally.until:
            break
        name, move = pick_move(student, reconnect_every=scenario.reconnect_every, made=made)

        async def timed(name=name, move=move):
            tally.moves_ms.setdefault(name, []).append((await move(student)).elapsed_ms)

        ok = await attempt(tally, name, timed())
        made += 1
        if burst is not None and not burst:
            break
        next_at = burst.pop(0) if burst else max(next_at + scenario.move_every_s, time.monotonic())
    await student.session.close()


async def run_class(
    url: str, scenario: Scenario, sampler: Sampler, session: Callable[[int], Session] | None = None
) -> tuple[dict, Tally]:
    """Opens ``scenario.sessions`` sessions at once, then each makes a move every ``move_every_s`` until the end.
    ``session(i)`` makes student i's session (default: a fresh one on ``url``)."""
    session = session or (lambda _: Session(url))
    tally = Tally()
    rss_before, load_before, client_before = sampler.rss_now(), os.getloadavg()[0], os.times()
    sampler.start()
    started = time.monotonic()
    tasks = [asyncio.create_task(_student(session(i), i, scenario, tally)) for i in range(scenario.sessions)]
    await tally.loaded.wait()
    opened_s, cpu_at_moves = time.monotonic() - started, sampler.cpu_now()
    await asyncio.gather(*tasks)
    cpu_on_moves = sampler.cpu_now() - cpu_at_moves  # the server's CPU from the first move to the last answer
    await sampler.stop()
    client = os.times()
    elapsed = time.monotonic() - started
    row = {
        "name": scenario.name,
        "sessions": scenario.sessions,
        "moves": len(tally.all_moves()),
        **latency_figures(tally.all_moves()),
        "errors": tally.errors,
        "wrong": tally.wrong,
        "rss_mb": round(max(sampler.rss or [sampler.rss_now()]), 1),
        "rss_before_mb": round(rss_before, 1),
        "rss_after_mb": round(sampler.rss_now(), 1),
        **cpu_figures(sampler),
        "server_cpu_ms_per_move": round(1000 * cpu_on_moves / max(1, len(tally.all_moves())), 1),
        "slowest_ms": round(max(tally.all_moves(), default=0.0), 1),
        "client_cpu_pct_mean": round(
            100 * (client.user + client.system - client_before.user - client_before.system) / elapsed, 1
        ),
        "sessions_opened_per_s": round(scenario.sessions / opened_s, 2),
        "opened_in_s": round(opened_s, 2),
        "load": latency_figures(tally.loads_ms),
        "per_move": {name: latency_figures(times) | {"count": len(times)} for name, times in tally.moves_ms.items()},
        "move_every_s": scenario.move_every_s,
        "duration_s": scenario.duration_s,
        "loadavg_1min_before": round(load_before, 2),
        "loadavg_1min_after": round(os.getloadavg()[0], 2),  # the machine's load, other work included
        "failures": tally.failures,
    }
    return row, tally


# ----------------------------------------------------------------------------- a class joining a question at once
JOINING_PHONES = 40


async def join_at_once(url: str, phones: int = JOINING_PHONES) -> dict:
    """The teacher asks; ``phones`` sessions open the join address (``?join=<code>``) at the same moment, and each
    answers once as soon as its page is in. Every answer the page took must be on the teacher's bars, once."""
    from bench.class_question import answer, ask_the_class, bars, join

    teacher = Session(url)
    _, query = await ask_the_class(teacher)
    tally, final, times = Tally(), {}, []

    async def phone(index: int) -> None:
        session, started = Session(url), time.perf_counter()
        await join(session, query)
        await answer(session, index % 12)
        final[index] = index % 12
        times.append((time.perf_counter() - started) * 1000)
        await session.close()

    await asyncio.gather(*(attempt(tally, "join and answer", phone(i)) for i in range(phones)))
    shown, said = await bars(teacher)
    await teacher.close()
    want = [sum(1 for key in final.values() if key == k) for k in range(12)]
    counted = shown.voters if shown else 0
    if shown is None or list(shown.counts) != want:
        tally.failures.append(f"the teacher's bars: {shown} for {want} ({said[:200]})")
    return {
        "phones": phones,
        "answered": len(final),
        "counted": counted,
        "errors": tally.errors + tally.wrong,
        "join_and_answer": latency_figures(times),
        "failures": tally.failures,
    }


def main() -> None:
    """``python -m bench.load_class [PHONES]``: a server of its own, then ``join_at_once``; prints what it found and
    fails unless every phone's answer was counted, with no error."""
    import json
    import sys

    from bench.harness.server import StreamlitServer

    phones = int(sys.argv[1]) if len(sys.argv) > 1 else JOINING_PHONES
    with StreamlitServer("app.py") as server:
        found = asyncio.run(join_at_once(server.url, phones))
    print(json.dumps(found, indent=2))
    sys.exit(0 if found["counted"] == phones and not found["errors"] and not found["failures"] else 1)


if __name__ == "__main__":
    main()
