"""Bystander: while one session repeats the heaviest move, how long does another student's click take?

One live ``streamlit run app.py``. The bystander is a load-test student (bench.load_moves.Student over
bench.st_client): it opens the Playground and ticks *Causal mask*, and every answer is checked against
``attnviz.attention``. Its time runs from sending the rerun to the last message of that run. It is measured on the
idle server and while a heavy session makes the heaviest move back to back, in alternating rounds, so that a change
in the machine's own load (other programs) falls on both. Target: the loaded median at most 1.5 × the idle one.

    python -m bench bystander                      # in make bench: every heavy move of HEAVY, and the control
    python -m bench.bystander --heavy playground   # one of them
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

from attnviz.core.limits import MAX_D_MODEL, MAX_DIM, MAX_TOKENS
from bench.harness.server import REPO, StreamlitServer
from bench.load_moves import VIEWS, Student
from bench.product import FIRST_SCREEN_TOKENS
from bench.st_client import Session
from bench.st_elements import user_key
from bench.worst_moves import long_sentence

TARGET_RATIO = 1.5
ROUNDS = 4  # idle and loaded rounds, alternating
CLICKS = 5  # bystander clicks a round


def _widget(session: Session, key: str):
    """The widget whose user key is ``key`` (ids change when a widget's options do, so look it up every time)."""
    for widget in session.widgets.values():
        if user_key(widget.id) == key:
            return widget
    raise LookupError(f"no widget {key!r} on the page; found {sorted(map(user_key, session.widgets))}")


async def _set(session: Session, key: str, page: str, **value):
    session.set_value(_widget(session, key), **value)
    result = await session.rerun(page=page)
    if result.exceptions:
        raise RuntimeError(f"{key} on {page}: the app raised {result.exceptions[0]}")
    return result


async def _at_limits(session: Session, page: str) -> None:
    """Opens the Playground at its limits (MAX_TOKENS tokens, d_k = d_v = MAX_DIM), then goes to ``page``."""
    from attnviz.ui.state import control_key

    await session.open()
    await _set(session, control_key("sentence"), "", string_value=long_sentence())
    for field in ("d_k", "d_v"):
        await _set(session, control_key(field), "", double_array_value={"data": [MAX_DIM]})
    if page:
        await session.rerun(page=page)


async def heavy_multi_head(session: Session):
    """Multi-head at MAX_TOKENS tokens, the largest d_model and as many heads; the move ticks and unticks its causal
    mask."""
    from attnviz.ui.state import setting_key

    page = "multi_head"
    await _at_limits(session, page)
    await _set(session, setting_key(page, "d_model"), page, double_array_value={"data": [MAX_D_MODEL]})
    await _set(session, setting_key(page, "heads"), page, string_value=str(MAX_D_MODEL))
    causal = [False]

    async def move():
        causal[0] = not causal[0]
        return await _set(session, setting_key(page, "causal"), page, bool_value=causal[0])

    return move


async def heavy_playground(session: Session):
    """The Playground at its limits; the move ticks and unticks Causal mask (a fragment rerun)."""
    await _at_limits(session, "")
    causal = [False]

    async def move():
        causal[0] = not causal[0]
        views = session.find(**VIEWS)
        session.trigger(views, "event", {"control": "causal", "value": causal[0]})
        return await session.rerun(fragment_id=views.fragment_id)

    return move


async def light_playground(session: Session):
    """The control: another student on the Playground's first screen ticking Causal mask back to back, the same move
    as the bystander's. What any busy neighbour costs, heavy or not."""
    student = Student(session, seed=1)
    await student.load()
    return student.toggle_causal


# One tab, which connects again after each drop: a tab for each frame, opened beforehand, ran out (80 of them) when a
# loaded machine slowed the bystander's clicks and the loop between them made more frames (make bench at 3efcd0e).
OVERSIZED_TABS = 1


async def oversized_frames(session: Session):
    """A hostile tab sends 9 MB table edits back to back; the server drops it at each, and it connects again to its
    session before the next (a move: the frame, its refusal and the new connection). The attacker is its own process
    (bench.attack), so that building and sending 9 MB costs its CPU, not this client's, which times the bystander; on
    one machine it still competes with the server and the bystander for the cores (bench/README.md)."""
    attacker = subprocess.Popen(
        [sys.executable, "-m", "bench.attack", "oversized", session.base_url, str(OVERSIZED_TABS)],
        cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    if await asyncio.to_thread(attacker.stdout.readline) != "ready\n":
        raise RuntimeError("the attacker did not open its tabs")

    async def move():
        started = time.perf_counter()
        attacker.stdin.write("go\n")
        attacker.stdin.flush()
        answer = await asyncio.to_thread(attacker.stdout.readline)
        if answer != "closed 1009\n":
            raise RuntimeError(f"an oversized frame was not closed from its size: {answer!r}")
        return SimpleNamespace(elapsed_ms=(time.perf_counter() - started) * 1000)

    move.close = attacker.kill
    return move


HEAVY = {
    "light": light_playground,
    "playground": heavy_playground,
    "multi_head": heavy_multi_head,
    "oversized": oversized_frames,
}
DOING = {
    "light": f"another student ticks it back to back ({FIRST_SCREEN_TOKENS} tokens: the control)",
    "playground": f"a session ticks it back to back at {MAX_TOKENS} tokens, d_k = d_v = {MAX_DIM}",
    "multi_head": f"a session ticks Multi-head's causal mask back to back ({MAX_TOKENS} tokens, {MAX_D_MODEL} heads)",
    "oversized": "a hostile tab sends 9 MB messages back to back, each closed by the server from its size",
}


async def _loop(move, stop: asyncio.Event, times: list[float]) -> None:
    while not stop.is_set():
        times.append((await move()).elapsed_ms)


async def _clicks(bystander: Student, count: int) -> list[float]:
    return [(await bystander.toggle_causal()).elapsed_ms for _ in range(count)]


def server_cpu_s(pid: int | None) -> float:
    """The CPU seconds the server's threads have used, to the nanosecond (Linux's schedstat; 0 elsewhere)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").glob("*") if pid else ():
        with contextlib.suppress(OSError):
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


async def measure(
    url: str, heavy: str = "multi_head", rounds: int = ROUNDS, clicks: int = CLICKS, pid: int | None = None
) -> dict:
    heavy_session = Session(url, timeout=300)
    move = await HEAVY[heavy](heavy_session)
    await move()  # warm: the heavy page's imports and caches
    bystander = Student(Session(url, timeout=300), seed=0)
    await bystander.load()
    await _clicks(bystander, 2)  # warm
    idle, loaded, heavy_ms, cpu = [], [], [], {"idle": 0.0, "loaded": 0.0}
    for _ in range(rounds):
        before = server_cpu_s(pid)
        idle += await _clicks(bystander, clicks)
        cpu["idle"] += server_cpu_s(pid) - before
        stop = asyncio.Event()
        before = server_cpu_s(pid)
        looping = asyncio.create_task(_loop(move, stop, heavy_ms))
        await asyncio.sleep(0.5)  # the heavy session is mid-move when the bystander clicks
        loaded += await _clicks(bystander, clicks)
        stop.set()
        await looping
        cpu["loaded"] += server_cpu_s(pid) - before
    getattr(move, "close", lambda: None)()
    await asyncio.gather(heavy_session.close(), bystander.session.close())
    click_cpu_ms = cpu["idle"] / len(idle) * 1000
    heavy_cpu_ms = (cpu["loaded"] * 1000 - click_cpu_ms * len(loaded)) / len(heavy_ms)
    return {"idle_ms": idle, "loaded_ms": loaded, "heavy_ms": heavy_ms, "click_cpu_ms": click_cpu_ms,
            "heavy_cpu_ms": heavy_cpu_ms}  # fmt: skip


def _row(heavy: str, figures: dict, load_before: float) -> dict:
    idle, loaded = statistics.median(figures["idle_ms"]), statistics.median(figures["loaded_ms"])
    ratio = loaded / idle
    return {
        "measure": f"bystander: Causal mask click while {DOING[heavy]}",
        "value": ratio,
        "unit": "× idle",
        "target": f"≤ {TARGET_RATIO:g}",
        "met": ratio <= TARGET_RATIO,
        "n": len(figures["loaded_ms"]),
        "detail": (
            f"click {loaded:.0f} ms loaded vs {idle:.0f} ms idle (medians; loaded max {max(figures['loaded_ms']):.0f} "
            f"ms); the heavy move took {statistics.median(figures['heavy_ms']):.0f} ms a time "
            f"({len(figures['heavy_ms'])} made); the server's CPU {figures['click_cpu_ms']:.1f} ms a click, "
            f"{figures['heavy_cpu_ms']:.1f} ms a heavy move; load average {load_before:.1f} before"
        ),
        "server_cpu_click_ms": figures["click_cpu_ms"],
        "server_cpu_heavy_move_ms": figures["heavy_cpu_ms"],
        "idle_ms": idle,
        "loaded_ms": loaded,
        "heavy_move_ms": statistics.median(figures["heavy_ms"]),
    }


def run(heavies=tuple(HEAVY)) -> list[dict]:
    """One row for each heavy move, each on a fresh server."""
    rows = []
    for heavy in heavies:
        load_before = os.getloadavg()[0]
        with StreamlitServer(REPO / "app.py") as server:
            rows.append(_row(heavy, asyncio.run(measure(server.url, heavy, pid=server.pid)), load_before))
    return rows


def main() -> None:
    from bench import report

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heavy", choices=sorted(HEAVY), nargs="*", default=list(HEAVY))
    args = parser.parse_args()
    started = time.perf_counter()
    with contextlib.suppress(KeyboardInterrupt):
        print(report.table(run(args.heavy)))
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
