"""Worst moves: every page's heaviest move at the limits its widgets and share links allow, as server time.

Streamlit runs every session's script in one process, so one slow move is every student's slow move. Each move is
made in AppTest: the whole page script, as the server runs it for that click (a fragment rerun on a live server, such
as the Playground's toggles, costs less). Each row is the median of 5 moves after a warm-up: the wall time of the
rerun, and in the detail the CPU time of the thread that ran the script, which is what the move takes from the other
sessions. On a loaded machine the wall time also holds the wait for a core, so the floor, the lightest real move
(Causal mask on the Playground's first screen), is measured first in the same run, and every row says how many
floors it costs; the floor's row gives the machine's load average.

    python -m bench worst                # this table only
    python -m bench worst bystander      # and a second session's click while the heaviest move loops
"""

from __future__ import annotations

import itertools
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from unittest import mock

from bench.harness.apptest import RouterAlreadyRan, open_app
from bench.worst_moves import PENDING, SAMPLES, TIMEOUT_S, Move, moves

TARGET_S = 1.0


# ----------------------------------------------------------------------------- timing a script run


@dataclass
class Run:
    wall_s: float
    cpu_s: float


class ScriptClock:
    """While entered, times every script run in the thread that runs it: its wall time and that thread's CPU time."""

    def __init__(self):
        self.runs: list[Run] = []

    def __enter__(self) -> ScriptClock:
        from streamlit.runtime.scriptrunner import script_runner

        original = script_runner.ScriptRunner._run_script
        runs = self.runs

        def timed(runner, rerun_data):
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return original(runner, rerun_data)
            finally:
                runs.append(Run(time.perf_counter() - wall, time.thread_time() - cpu))

        self._patch = mock.patch.object(script_runner.ScriptRunner, "_run_script", timed)
        self._patch.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self._patch.__exit__(*exc)


def _made(at, clock: ScriptClock, move: Move, act: Callable) -> Run:
    """Makes one move (``act`` changes a widget or a setting and ``run()`` sends it, or ``act`` runs the move itself and
    returns the AppTest) and times its script runs; ``move.before_each`` first, untimed."""
    if move.before_each:
        move.before_each(at)
    before = len(clock.runs)
    started = time.perf_counter()
    if act(at) is not at:
        at.run(timeout=TIMEOUT_S)
    wall = time.perf_counter() - started
    if at.exception:
        raise RuntimeError(f"the page raised: {at.exception[0].message}")
    runs = clock.runs[before:]  # a callback's st.rerun() makes two script runs of one move
    return Run(wall, sum(r.cpu_s for r in runs))


# ----------------------------------------------------------------------------- measuring


def measure(move: Move, samples: int = SAMPLES) -> tuple[list[Run], dict[str, list[Run]]]:
    """The timed runs of ``move`` after one warm-up, and the same runs split by ``move.split_by`` if it has one."""
    from streamlit.testing.v1 import app_test as app_test_module

    with mock.patch.object(app_test_module, "PagesManager", RouterAlreadyRan), ScriptClock() as clock:
        at = open_app(None if move.page == "playground" else move.page)
        move.setup(at)
        parts: dict[str, list[Run]] = {}
        runs: list[Run] = []
        acts = itertools.cycle(move.acts)
        _made(at, clock, move, next(acts))  # warm-up: imports, caches, the first chart of each kind
        while len(runs) < samples or (parts and min(map(len, parts.values())) < samples):
            run = _made(at, clock, move, next(acts))
            runs.append(run)
            if move.split_by:
                parts.setdefault(move.split_by(at), []).append(run)
    return runs, parts


def _row(move: Move, label: str, runs: list[Run], floor_s: float | None) -> dict:
    wall = statistics.median(r.wall_s for r in runs)
    cpu = statistics.median(r.cpu_s for r in runs)
    detail = f"{move.limits}; script CPU {cpu:.2f} s; min {min(r.wall_s for r in runs):.2f}, max {max(r.wall_s for r in runs):.2f} s"
    if move.floor:
        detail += f"; the floor; load average {os.getloadavg()[0]:.1f}"
    elif floor_s:
        detail += f"; {wall / floor_s:.0f}× the floor"
    return {
        "measure": f"worst: {label}" + (" (floor)" if move.floor else ""),
        "value": wall,
        "unit": "s",
        "target": None if move.floor else f"≤ {TARGET_S:g}",
        "met": None if move.floor else wall <= TARGET_S,
        "n": len(runs),
        "detail": detail,
        "cpu_s": cpu,
        "page": move.page,
    }


def _failed(move: Move, label: str, error: Exception) -> dict:
    return {
        "measure": f"worst: {label}",
        "value": None,
        "unit": "s",
        "target": f"≤ {TARGET_S:g}",
        "met": False,
        "n": 0,
        "detail": f"FAILED at {move.limits}: {type(error).__name__}: {str(error)[:200]}",
        "page": move.page,
    }


def _pending() -> list[dict]:
    return [
        {
            "measure": f"worst: {what}",
            "value": None,
            "unit": "s",
            "target": f"≤ {TARGET_S:g}",
            "met": None,
            "n": 0,
            "detail": f"not measured yet: fill in {hook.__module__}.{hook.__name__} when the page exists",
        }
        for what, hook in PENDING.items()
        if not hook()
    ]


def run(samples: int = SAMPLES) -> list[dict]:
    rows: list[dict] = []
    floor_s = None
    for move in moves():
        label = f"{move.page}: {move.name}"
        try:
            runs, parts = measure(move, samples)
        except Exception as error:  # one page failing (or too slow) must not hide the others
            rows.append(_failed(move, label, error))
            continue
        if move.floor:
            floor_s = statistics.median(r.wall_s for r in runs)
        if parts:
            rows += [_row(move, f"{label}: {part}", part_runs, floor_s) for part, part_runs in parts.items()]
        else:
            rows.append(_row(move, label, runs, floor_s))
    return rows + _pending()


if __name__ == "__main__":
    from bench import report

    print(report.table(run()))
