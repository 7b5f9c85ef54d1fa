"""Runs in the worker process: the same result as in this process, progress on the way, Stop, the queue, and helper
processes that never outlive (or re-run) the server that started them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_info

from attnviz import AttnvizInputError
from attnviz.train import TrainConfig, background, train

REPO = Path(__file__).resolve().parents[2]
SMALL = TrainConfig(samples=500, epochs=3, balanced=True, log_points=6)  # 48 steps
LONG = TrainConfig()  # 2,500 steps: several seconds, long enough to stop or to queue behind


def until(condition, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "not there in time"
        time.sleep(0.02)


def watched(run) -> list:
    """Every distinct progress the run reported while this test polled it, until it was over."""
    seen = []
    while not run.done:
        progress = run.poll()
        if progress is not None and (not seen or progress.step != seen[-1].step):
            seen.append(progress)
        time.sleep(0.01)
    return seen


def test_a_run_in_the_worker_is_the_run_in_this_process_and_reports_on_the_way():
    run = background.start(SMALL)
    seen = watched(run)
    result, message = run.outcome()
    here = train(SMALL)
    assert message is None and result.finished and result.steps == 48
    assert result.history == here.history
    for name in here.params:
        np.testing.assert_array_equal(result.params[name], here.params[name])
    last = run.poll()
    assert last.step == 48 and last.history == tuple(here.history)
    assert [p.step for p in seen] == sorted({p.step for p in seen})  # in order, never backwards
    assert {p.step for p in seen} <= {0, 8, 16, 24, 32, 40, 48}


def test_stop_ends_a_run_at_its_next_log_point_with_the_model_as_it_was():
    run = background.start(LONG)
    until(lambda: run.poll() is not None)
    run.stop()
    until(lambda: run.done, timeout_s=10)
    result, message = run.outcome()
    assert message is None and not result.finished
    assert result.steps < LONG.total_steps
    assert result.steps == (result.history[-1]["step"] if result.history else 0)  # it stopped at a log point


def test_a_second_run_waits_its_turn_and_stops_at_once_before_it_starts():
    first = background.start(LONG)
    until(lambda: first.poll() is not None)
    second = background.start(SMALL)
    assert second.runs_ahead() == 1 and first.runs_ahead() == 0
    assert second.poll() is None and not second.done
    second.stop()
    assert second.done  # no wait for the first run to end
    assert second.outcome() == (None, "Stopped before it started.")
    first.stop()
    until(lambda: first.done, timeout_s=10)
    third = background.start(SMALL)  # the stopped one is skipped: nothing ahead of this one
    assert third.runs_ahead() == 0
    watched(third)
    assert third.outcome()[0].finished


def stop_all(runs) -> None:
    for run in runs:
        run.stop()
    until(lambda: all(run.done for run in runs), timeout_s=30)


def test_a_second_run_of_the_same_owner_replaces_the_first():
    owner = background.Owner("one tab")
    first = background.start(LONG, owner)
    until(lambda: first.poll() is not None)
    second = background.start(SMALL, owner)  # Train pressed again, or sent again by a crafted message
    assert first.stopping
    until(lambda: first.done, timeout_s=10)
    watched(second)
    assert second.outcome()[0].finished and not first.outcome()[0].finished


def test_the_queue_is_capped_and_says_so():
    runs = [background.start(LONG, background.Owner(f"tab {i}")) for i in range(background.MAX_UNFINISHED_RUNS)]
    try:
        with pytest.raises(AttnvizInputError, match=r"^6 runs are already training or waiting, the most this server"):
            background.start(SMALL, background.Owner("one more tab"))
    finally:
        stop_all(runs)
    last = background.start(SMALL)  # room again once they are over
    watched(last)
    assert last.outcome()[0].finished


def test_a_run_whose_owner_has_gone_is_stopped_after_the_grace_and_a_waiting_one_never_starts():
    here = {"training": True, "waiting": True}
    training = background.start(LONG, background.Owner("training tab", present=lambda: here["training"]))
    until(lambda: training.poll() is not None)
    waiting = background.start(LONG, background.Owner("waiting tab", present=lambda: here["waiting"]))
    now = time.monotonic()
    here["training"] = here["waiting"] = False  # both tabs closed
    background.stop_abandoned_runs(now)
    assert not training.stopping and not waiting.stopping  # a reconnecting browser gets OWNER_GRACE_S
    background.stop_abandoned_runs(now + background.OWNER_GRACE_S)
    assert training.stopping and waiting.stopping
    assert waiting.done and waiting.outcome() == (None, "Stopped before it started.")
    until(lambda: training.done, timeout_s=10)
    assert not training.outcome()[0].finished


def test_a_run_whose_owner_has_gone_yields_at_once_to_a_new_run():
    here = {"present": True}
    gone = background.start(LONG, background.Owner("closed tab", present=lambda: here["present"]))
    until(lambda: gone.poll() is not None)
    here["present"] = False
    waiting = background.start(SMALL, background.Owner("next student"))
    assert gone.stopping and waiting.runs_ahead() <= 1
    watched(waiting)
    assert waiting.outcome()[0].finished


def test_an_owner_back_within_the_grace_keeps_the_run():
    here = {"present": False}
    run = background.start(LONG, background.Owner("blip", present=lambda: here["present"]))
    now = time.monotonic()
    background.stop_abandoned_runs(now)
    here["present"] = True  # reconnected
    background.stop_abandoned_runs(now + 1)
    background.stop_abandoned_runs(now + background.OWNER_GRACE_S + 1)
    assert not run.stopping
    stop_all([run])


def test_settings_the_core_refuses_are_refused_before_anything_is_queued():
    with pytest.raises(AttnvizInputError, match="number of samples must be between 1 and 20,000"):
        background.start(TrainConfig(samples=0))


def test_the_worker_uses_one_blas_thread():
    with background._lock:
        pool, _ = background._started_pool()
    blas = [library for library in pool.submit(threadpool_info).result() if library["user_api"] == "blas"]
    assert blas and all(library["num_threads"] == 1 for library in blas)


# A "server" with no main guard: if a spawned helper re-ran this file, it would print the marker again and start
# helpers of its own. It starts a run, prints its helpers' process ids, and is then killed without any clean-up.
SERVER = """
import multiprocessing, os, signal, time
from attnviz.train import TrainConfig, background
print("server script ran", flush=True)
run = background.start(TrainConfig())
while run.poll() is None:
    time.sleep(0.02)
print(" ".join(str(child.pid) for child in multiprocessing.active_children()), flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's exit status is left


def test_the_helpers_skip_the_main_script_and_end_when_the_server_is_killed(tmp_path):
    script = tmp_path / "server.py"  # a file: a spawned child re-runs its parent's main file, unless told not to
    script.write_text(SERVER)
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, str(script)], env=environment, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    marker, pids = done.stdout.splitlines()
    assert marker == "server script ran" and done.stdout.count("server script ran") == 1
    helpers = [int(pid) for pid in pids.split()]
    assert len(helpers) == 2  # the Manager and the worker
    try:
        until(lambda: not any(_alive(pid) for pid in helpers), timeout_s=20)
    finally:
        for pid in helpers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
