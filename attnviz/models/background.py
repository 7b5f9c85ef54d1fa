"""Model runs beside the app's sessions: one worker thread per process loads the models and runs sentences in turn.

A Streamlit server runs every session's script in one process, so a script that sits in a forward pass for seconds
(the decoder's first conversion, a 128-token sentence) keeps its student staring at a frozen page. Instead
a page calls ``submit(model, sentence)``, gets a ``Job`` at once, and shows what the job is doing until it is done.

Jobs are shared: every session that asks for the same model and sentence gets the same job and so the same run.
A page asks again (``Job.touch``) while it waits; a job nobody has asked for in STALE_S seconds (the student typed
another sentence, or left) is skipped, so the worker never works through sentences nobody is looking at. Finished
jobs are kept, oldest dropped first, up to KEEP_BYTES of runs (the newest is always kept), so a page finds its run on
its next script run; the models keep their own cache of runs too (attnviz.models.base).
"""

from __future__ import annotations

import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from attnviz import AttnvizInputError
from attnviz.core.limits import MAX_WAITING
from attnviz.models.base import Model, check_sentence
from attnviz.models.registry import MODEL_NAMES, check_model_name, load_model, loaded_models
from attnviz.models.runs import ModelRun

WAITING, LOADING, RUNNING, DONE, FAILED, SKIPPED = "waiting", "loading", "running", "done", "failed", "skipped"
KEEP_BYTES = 128 * 2**20  # finished runs kept for the pages (two 128-token decoder runs)
KEEP_JOBS = 64  # and at most this many finished jobs
STALE_S = 10.0  # a waiting job nobody has asked for in this long is skipped
BUSY = (
    f"The server is already working through {MAX_WAITING} sentences for other students. "
    "Wait a few seconds, then try again."
)


@dataclass(eq=False)
class Job:
    """One model run, as the page sees it: its stage now, and when it is done its run or its error."""

    model: str
    sentence: str
    removed: int | None = None  # the token taken away as a key (ModelRun.without), if any
    stage: str = WAITING
    run: ModelRun | None = None
    error: Exception | None = None
    submitted: float = field(default_factory=time.monotonic)
    asked: float = field(default_factory=time.monotonic)  # the last time a page asked for it
    started: float | None = None  # when the worker took it up
    finished: float | None = None
    _done: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def touch(self) -> None:
        """A page still wants this job (see STALE_S)."""
        self.asked = time.monotonic()

    def wait(self, timeout: float) -> bool:
        """Waits up to ``timeout`` seconds (without holding the interpreter); True once the job is done."""
        return self._done.wait(timeout)

    def seconds(self) -> float:
        """How long the worker has been at it (0 while the job waits its turn)."""
        if self.started is None:
            return 0.0
        return (self.finished or time.monotonic()) - self.started

    def result(self) -> ModelRun:
        """The run; raises the job's error (an AttnvizInputError for bad input or a missing model) if it failed."""
        if not self.done:
            raise RuntimeError("the job is not done yet")
        if self.error is not None:
            raise self.error.with_traceback(None)  # shared by every session: never a growing traceback
        return self.run

    def _finish(self, stage: str, run: ModelRun | None = None, error: Exception | None = None) -> None:
        self.stage, self.run, self.error, self.finished = stage, run, error, time.monotonic()
        self._done.set()


def failed(model: str, sentence: str, error: Exception, removed: int | None = None) -> Job:
    job = Job(model, str(sentence), removed)
    job._finish(FAILED, error=error)
    return job


def load_served(name: str) -> Model:
    """A model as the app's visitors may name it (registry.SERVED_FOLDERS)."""
    return load_model(name, served=True)


class Worker:
    """A queue of jobs and the one thread that works through it, started on the first job."""

    def __init__(self, load: Callable[[str], Model] = load_served, loaded: Callable[[], tuple] = loaded_models):
        self._load, self._loaded = load, loaded
        self._jobs: OrderedDict[tuple, Job] = OrderedDict()  # by (model, sentence, removed), oldest first
        self._queue: queue.Queue[Job] = queue.Queue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def submit(self, model: str, sentence: str, removed: int | None = None) -> Job:
        """The job for ``sentence`` through ``model`` (with token ``removed`` taken away): a finished one if there is
        one, else the one waiting or running, else a new one. Bad input that needs no model (a name, an empty
        sentence) fails at once; a bad ``removed`` fails in the worker, which knows the sentence's tokens."""
        try:
            check_model_name(model, served=True)
            sentence = check_sentence(sentence)
        except AttnvizInputError as error:
            return failed(model, sentence, error, removed)
        key = _key(model, sentence, removed)
        with self._lock:
            if key in self._jobs:
                self._jobs.move_to_end(key)
                self._jobs[key].touch()
                return self._jobs[key]
            if self._waiting() >= MAX_WAITING:
                return failed(model, sentence, AttnvizInputError(BUSY), removed)
            job = self._jobs[key] = Job(model, sentence, removed)
            self._queue.put(job)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._work, name="attnviz-model-runs", daemon=True)
                self._thread.start()
            return job

    def _waiting(self) -> int:
        """Jobs submitted and not yet done, the one running included."""
        return sum(not job.done for job in self._jobs.values())

    def ahead_of(self, job: Job) -> int:
        """How many jobs the worker will finish before it takes up ``job``."""
        with self._lock:
            return sum(not other.done and other.submitted < job.submitted for other in self._jobs.values())

    def _work(self) -> None:
        while True:
            job = self._queue.get()
            if time.monotonic() - job.asked > STALE_S:
                with self._lock:
                    self._jobs.pop(_key(job.model, job.sentence, job.removed), None)
                job._finish(SKIPPED)  # asked for again later, it is a new job
                continue
            job.started = time.monotonic()
            try:
                job.stage = RUNNING if job.model in self._loaded() else LOADING
                model = self._load(job.model)
                job.stage = RUNNING
                run = model.run(job.sentence) if job.removed is None else model.run(job.sentence, job.removed)
                job._finish(DONE, run=run)
            except Exception as error:  # the page shows it: a message for bad input, else the error itself
                job._finish(FAILED, error=error)
            with self._lock:
                self._forget_old()

    def _forget_old(self) -> None:
        """Drops the least recently asked-for finished jobs beyond KEEP_JOBS or KEEP_BYTES; waiting ones and the
        newest finished one stay. Runs of a user's model that has since been let go (attnviz.models.registry keeps
        one) are dropped too: each holds its model, which would otherwise stay in memory beside the new one."""
        gone = [
            k for k, job in self._jobs.items() if job.done and k[0] not in MODEL_NAMES and k[0] not in self._loaded()
        ]
        for key in gone:
            del self._jobs[key]
        finished = [key for key, job in self._jobs.items() if job.done]
        sizes = {key: self._jobs[key].run.nbytes if self._jobs[key].run is not None else 0 for key in finished}
        total = sum(sizes.values())
        while len(finished) > 1 and (len(finished) > KEEP_JOBS or total > KEEP_BYTES):
            key = finished.pop(0)
            total -= sizes[key]
            del self._jobs[key]


def _key(model: str, sentence: str, removed) -> tuple:
    return (model, sentence, removed if removed is None or isinstance(removed, int) else repr(removed))  # hashable


_worker = Worker()


def submit(model: str, sentence: str, removed: int | None = None) -> Job:
    """The shared job for ``sentence`` through ``model`` (see Worker.submit), from this process's one worker."""
    return _worker.submit(model, sentence, removed)


def ahead_of(job: Job) -> int:
    return _worker.ahead_of(job)
