"""Training beside the server: each run in a worker process, one at a time, watched and stopped from a page.

Streamlit runs every session's script in the server's one process. Training in a thread there holds Python's GIL and
slows every other student's click; in a separate process it does not (bench/README.md). So a server has one worker
process (a 2-core machine keeps the other core for the sessions), and runs wait their turn in the order they were
started. Progress comes back through a queue and Stop goes out as an event, both held by a
multiprocessing Manager so they can travel with the run to the worker.

>>> run = start(TrainConfig(samples=2000, epochs=5, balanced=True), Owner("session id", present=lambda: True))
>>> run.poll()            # the latest Progress the worker has sent (None before the first one)
>>> run.stop()            # the worker stops at its next log point
>>> run.result()          # once run.done: the TrainResult (None if stopped before it began)

One browser must not hold up the class: each owner (a session) has one run at a time, a new one replacing the last;
at most MAX_UNFINISHED_RUNS are queued or training at once; and a run whose owner has gone (the tab closed, or
reconnected to another server) is stopped when someone else starts one, or after OWNER_GRACE_S anyway, so nobody
waits behind a run nobody watches.

The worker and the Manager are spawned (the server is multi-threaded, so no fork) on first use, and shut down
when the server's Python exits.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import sys
import threading
import time
import types
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.managers import SyncManager

from attnviz import AttnvizInputError
from attnviz.core.limits import MAX_UNFINISHED_RUNS
from attnviz.train.config import TrainConfig, validate
from attnviz.train.induction import InductionConfig, InductionResult, train_induction, validate_induction
from attnviz.train.run import Progress, TrainResult, train

# Each experiment's check and trainer; both kinds of run share the one worker, the queue and its limits.
_EXPERIMENTS = {TrainConfig: (validate, train), InductionConfig: (validate_induction, train_induction)}

OWNER_GRACE_S = 5.0  # a browser that reconnects after a blip is back well within this
_REAPER_INTERVAL_S = 1.0

_lock = threading.Lock()  # sessions start runs from their own threads
_pool: ProcessPoolExecutor | None = None
_manager: SyncManager | None = None  # holds each run's progress queue and stop event
_waiting: list[BackgroundRun] = []  # the runs not finished, in the order they were started
_reaper: threading.Thread | None = None


@dataclass(frozen=True)
class Owner:
    """Who started a run: an id (a session's), and whether they are still there to watch it."""

    id: str = field(default_factory=lambda: uuid.uuid4().hex)  # by default, an owner of its own
    present: Callable[[], bool] = lambda: True


def _end_with_the_server() -> None:
    """Both helpers' initializer: end this process when the server's ends, even when it was killed and had no
    chance to stop its helpers (they would otherwise wait for work forever)."""

    def wait_for_the_server() -> None:
        multiprocessing.parent_process().join()
        os._exit(0)

    threading.Thread(target=wait_for_the_server, name="end-with-the-server", daemon=True).start()


def _start_worker() -> None:
    """The worker's initializer; numpy's BLAS on one thread, so a run takes one core and never the server's."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")
    _end_with_the_server()


def _train_in_worker(config, progress_queue, stop_event) -> TrainResult | InductionResult | None:
    """Runs in the worker: every Progress goes to the queue; the event stops the run at its next log point."""
    if stop_event.is_set():  # stopped while it waited for its turn
        return None

    def report(progress: Progress) -> bool:
        progress_queue.put(progress)
        _pass_the_step_gate()
        return not stop_event.is_set()

    return _EXPERIMENTS[type(config)][1](config, report)


_step_gate = None  # the worker's end of ATTNVIZ_TRAIN_STEP_GATE, once opened


def _pass_the_step_gate() -> None:
    """Where ATTNVIZ_TRAIN_STEP_GATE names a FIFO (a browser test sets it), each log point waits for one byte from it,
    so the test sees every step it lets through however fast the machine is. Its writer closing opens the gate."""
    global _step_gate
    path = os.environ.get("ATTNVIZ_TRAIN_STEP_GATE")
    if not path:
        return
    if _step_gate is None:
        _step_gate = open(path, "rb", buffering=0)  # noqa: SIM115 (kept open for the worker's life)
    _step_gate.read(1)  # b"" once the writer has closed: no more waiting


@contextmanager
def _children_skip_the_main_script():
    """A spawned child first re-runs its parent's ``__main__`` file. Streamlit installs each script it runs as
    ``__main__`` (app.py), so a child would run the whole app. While the helpers start, ``__main__`` is an empty
    module without a file, which a child skips."""
    main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


def _started_pool() -> tuple[ProcessPoolExecutor, SyncManager]:
    """The Manager and the worker, started on first use (or again after the worker died). Hold _lock."""
    global _pool, _manager
    if _pool is None:
        spawn = multiprocessing.get_context("spawn")
        with _children_skip_the_main_script():
            if _manager is None:
                _manager = SyncManager(ctx=spawn)
                _manager.start(_end_with_the_server)
            _pool = ProcessPoolExecutor(max_workers=1, mp_context=spawn, initializer=_start_worker)
            _pool.submit(int)  # any task: the pool spawns its worker for the first, here and now
    return _pool, _manager


def warm_up() -> None:
    """Starts the worker now (spawning it and importing numpy takes a second or two) rather than at the first run."""
    with _lock:
        _started_pool()


def start(config: TrainConfig | InductionConfig, owner: Owner | None = None) -> BackgroundRun:
    """Queues a run (either experiment's) for ``owner``, stopping the owner's last run if it is still going. A
    setting the core refuses, or a full queue, raises AttnvizInputError here, before anything is queued."""
    global _pool
    _EXPERIMENTS[type(config)][0](config)
    owner = owner or Owner()
    with _lock:
        for run in _waiting:
            if run.owner.id == owner.id or not run.owner.present():
                run.stop()  # one run per owner (a second Train replaces the first); an absent owner's yields at once
        _waiting[:] = [run for run in _waiting if not run.done]
        if len(_waiting) >= MAX_UNFINISHED_RUNS:
            raise AttnvizInputError(
                f"{len(_waiting)} runs are already training or waiting, the most this server takes at once. "
                "Press Train again in a minute."
            )
        pool, manager = _started_pool()
        progress_queue, stop_event = manager.Queue(), manager.Event()
        try:
            future = pool.submit(_train_in_worker, config, progress_queue, stop_event)
        except BrokenProcessPool:  # the worker died (killed, out of memory): a new one for this and later runs
            _pool = None
            pool, _ = _started_pool()
            future = pool.submit(_train_in_worker, config, progress_queue, stop_event)
        run = BackgroundRun(config, future, progress_queue, stop_event, owner)
        _waiting.append(run)
        _start_reaper()
    return run


def _start_reaper() -> None:
    """A thread that stops the runs whose owner has gone. Hold _lock."""
    global _reaper
    if _reaper is None or not _reaper.is_alive():
        _reaper = threading.Thread(target=_reap_forever, name="attnviz-training-reaper", daemon=True)
        _reaper.start()


def _reap_forever() -> None:
    while True:
        time.sleep(_REAPER_INTERVAL_S)
        stop_abandoned_runs()


def stop_abandoned_runs(now: float | None = None) -> None:
    """Stops every unfinished run whose owner has been away for OWNER_GRACE_S."""
    now = time.monotonic() if now is None else now
    with _lock:
        runs = [run for run in _waiting if not run.done]
    for run in runs:
        if run.owner.present():
            run.absent_since = None
        elif run.absent_since is None:
            run.absent_since = now
        elif now - run.absent_since >= OWNER_GRACE_S:
            run.stop()


def shutdown() -> None:
    """Stops the worker and the Manager (Python also does this when it exits)."""
    global _pool, _manager
    with _lock:
        if _pool is not None:
            _pool.shutdown(wait=True, cancel_futures=True)
            _manager.shutdown()
        _pool = _manager = None
        _waiting.clear()


class BackgroundRun:
    """One session's run: its place in the queue, its latest progress, a way to stop it, and its result."""

    def __init__(self, config: TrainConfig, future: Future, progress_queue, stop_event, owner: Owner):
        self.config = config
        self.owner = owner
        self.absent_since: float | None = None  # when its owner was first found gone
        self._future = future
        self._queue = progress_queue
        self._stop = stop_event
        self.latest: Progress | None = None
        self.stopping = False  # Stop was pressed

    def poll(self) -> Progress | None:
        """The latest progress the worker has sent (reading everything it sent since the last poll)."""
        while True:
            try:
                self.latest = self._queue.get_nowait()
            except queue.Empty:
                return self.latest

    def runs_ahead(self) -> int:
        """How many runs of other students will train before this one starts (0 once it has started)."""
        with _lock:
            _waiting[:] = [run for run in _waiting if not run.done]
            if self.latest is not None or self not in _waiting:
                return 0
            return _waiting.index(self)

    @property
    def done(self) -> bool:
        """Over: trained, stopped, or stopped before it started (the worker will skip it)."""
        return self._future.done() or (self.stopping and self.latest is None)

    def stop(self) -> None:
        """Stops the run: at once if it has not started, else at the worker's next log point."""
        self.stopping = True
        self._stop.set()
        self._future.cancel()

    def result(self) -> TrainResult | InductionResult | None:
        """Once ``done``: the trained (or stopped) model's result; None if it was stopped before it started.
        Raises what the worker raised (``BrokenProcessPool`` if the worker died)."""
        if self._future.cancelled() or not self._future.done():
            return None
        return self._future.result()

    def outcome(self) -> tuple[TrainResult | InductionResult | None, str | None]:
        """Once ``done``: the result, or None and why there is none, in plain words."""
        try:
            result = self.result()
        except AttnvizInputError as error:
            return None, str(error)
        except BrokenProcessPool:
            return None, "The training process stopped unexpectedly. Press Train to start again."
        return result, None if result is not None else "Stopped before it started."
