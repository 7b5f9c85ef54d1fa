"""The background worker: runs beside the sessions, shared, in order, kept within bounds, failing in plain words.

Most tests give the worker a stand-in model (no wheels needed), whose runs wait on an event the test controls; the
last one runs the real encoder through it.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

import numpy as np
import pytest

from attnviz import AttnvizInputError
from attnviz.models import ModelUnavailableError
from attnviz.models import background as bg

TIMEOUT = 10


@dataclass
class FakeRun:
    sentence: str
    nbytes: int = 1_000


class FakeModel:
    """Runs a sentence once ``go`` is set, recording the order; "boom" raises a bug, "long" an input error."""

    def __init__(self):
        self.go = threading.Event()
        self.ran: list[str] = []

    def run(self, sentence: str):
        assert self.go.wait(TIMEOUT)
        self.ran.append(sentence)
        if sentence == "boom":
            raise ZeroDivisionError("a bug")
        if sentence == "long":
            raise AttnvizInputError("The sentence is 300 tokens long; the limit is 128 tokens.")
        return FakeRun(sentence, nbytes=60 * 2**20 if sentence.startswith("big") else 1_000)


@pytest.fixture
def fake():
    model, loaded = FakeModel(), []

    def load(name):
        loaded.append(name)
        return model

    worker = bg.Worker(load=load, loaded=lambda: tuple(loaded))
    yield worker, model
    model.go.set()  # let the thread finish whatever it holds


def test_a_job_waits_then_runs_and_every_session_shares_it(fake):
    worker, model = fake
    job = worker.submit("all-MiniLM-L6-v2", "The cat sat.")
    assert not job.wait(0.05) and job.stage in (bg.WAITING, bg.LOADING, bg.RUNNING)
    again = worker.submit("all-MiniLM-L6-v2", "The cat sat.")
    assert again is job  # a second session asking for the same sentence waits for the same run
    model.go.set()
    assert job.wait(TIMEOUT) and job.stage == bg.DONE and job.result().sentence == "The cat sat."
    assert worker.submit("all-MiniLM-L6-v2", "The cat sat.") is job and model.ran == ["The cat sat."]
    assert job.seconds() >= 0 and job.finished is not None


def test_jobs_run_one_at_a_time_in_the_order_asked(fake):
    worker, model = fake
    jobs = [worker.submit("SmolLM2-135M", f"sentence {i}") for i in range(4)]
    assert [worker.ahead_of(job) for job in jobs] == [0, 1, 2, 3]
    model.go.set()
    assert all(job.wait(TIMEOUT) for job in jobs)
    assert model.ran == [f"sentence {i}" for i in range(4)]
    assert jobs[0].stage == bg.DONE and worker.ahead_of(jobs[3]) == 0


def test_the_first_job_of_a_model_says_it_is_loading(fake):
    worker, model = fake
    job = worker.submit("SmolLM2-135M", "Hello")
    assert job.wait(0.2) is False and job.stage == bg.RUNNING  # loaded (by the stand-in at once), now running
    model.go.set()
    job.wait(TIMEOUT)
    loading = bg.Worker(load=lambda name: (_ for _ in ()).throw(ModelUnavailableError("run pip install x")))
    missing = loading.submit("SmolLM2-135M", "Hello")
    assert missing.wait(TIMEOUT) and missing.stage == bg.FAILED
    with pytest.raises(ModelUnavailableError, match="run pip install x"):
        missing.result()


@pytest.mark.parametrize(
    ("model", "sentence", "message"),
    [
        ("gpt 5?", "Hello", "There is no model called 'gpt 5?'"),  # neither a hub id nor a folder
        ("all-MiniLM-L6-v2", "   ", "The sentence is empty"),
        ("all-MiniLM-L6-v2", "a\x00b", "a control character (U+0000) at character 2"),
        ("all-MiniLM-L6-v2", None, "The sentence must be text"),
    ],
)
def test_bad_input_fails_at_once_without_a_model(fake, model, sentence, message):
    worker, loaded_model = fake
    job = worker.submit(model, sentence)
    assert job.done and job.stage == bg.FAILED
    with pytest.raises(AttnvizInputError, match=re.escape(message)):
        job.result()
    assert loaded_model.ran == []


def test_errors_found_while_running_are_kept_with_their_job(fake):
    worker, model = fake
    model.go.set()
    long, bug = worker.submit("all-MiniLM-L6-v2", "long"), worker.submit("all-MiniLM-L6-v2", "boom")
    assert long.wait(TIMEOUT) and bug.wait(TIMEOUT)
    with pytest.raises(AttnvizInputError, match="the limit is 128 tokens"):
        long.result()
    with pytest.raises(ZeroDivisionError) as first:  # a bug is not dressed up as bad input: the page shows it as one
        bug.result()
    with pytest.raises(ZeroDivisionError) as again:
        bug.result()
    assert len(again.traceback) == len(first.traceback) == 2  # re-raised without piling up old tracebacks
    assert worker.submit("all-MiniLM-L6-v2", "long") is long  # not run again


def test_a_job_nobody_asks_for_any_more_is_skipped(fake, monkeypatch):
    worker, model = fake
    first = worker.submit("all-MiniLM-L6-v2", "first")
    stale = worker.submit("all-MiniLM-L6-v2", "stale")
    stale.asked -= bg.STALE_S + 1  # its page has moved on
    model.go.set()
    assert stale.wait(TIMEOUT) and stale.stage == bg.SKIPPED and first.result().sentence == "first"
    assert model.ran == ["first"]
    fresh = worker.submit("all-MiniLM-L6-v2", "stale")
    assert fresh is not stale and fresh.wait(TIMEOUT) and fresh.result().sentence == "stale"


def test_finished_runs_are_kept_within_bounds_the_newest_always(fake, monkeypatch):
    worker, model = fake
    model.go.set()
    monkeypatch.setattr(bg, "KEEP_JOBS", 3)
    small = [worker.submit("all-MiniLM-L6-v2", f"small {i}") for i in range(5)]
    assert all(job.wait(TIMEOUT) for job in small)
    worker.submit("all-MiniLM-L6-v2", "small 4").wait(TIMEOUT)
    kept = [key[1] for key in worker._jobs]
    assert kept == ["small 2", "small 3", "small 4"]
    big = [worker.submit("all-MiniLM-L6-v2", f"big {i}") for i in range(3)]  # 60 MB each; KEEP_BYTES is 128 MB
    assert all(job.wait(TIMEOUT) for job in big)
    assert [key[1] for key in worker._jobs][-2:] == ["big 1", "big 2"]
    assert sum(job.run.nbytes for job in worker._jobs.values()) <= bg.KEEP_BYTES


def test_too_many_waiting_sentences_are_refused_in_plain_words(fake, monkeypatch):
    worker, _ = fake
    monkeypatch.setattr(bg, "MAX_WAITING", 2)
    worker.submit("all-MiniLM-L6-v2", "one"), worker.submit("all-MiniLM-L6-v2", "two")
    refused = worker.submit("all-MiniLM-L6-v2", "three")
    assert refused.stage == bg.FAILED and ("all-MiniLM-L6-v2", "three") not in worker._jobs  # asked again: queued
    with pytest.raises(AttnvizInputError, match="working through"):
        refused.result()


def test_the_real_encoder_runs_in_the_background(encoder):
    job = bg.submit("all-MiniLM-L6-v2", "Background runs keep the page free.")
    assert job.wait(120)
    run = job.result()
    assert run is encoder.run("Background runs keep the page free.")  # the model's own cached run, shared
    np.testing.assert_allclose(run.attention.sum(axis=-1), 1.0, rtol=1e-6)


def test_a_token_taken_away_is_its_own_job_with_its_own_run(encoder):
    worker = bg.Worker(load=lambda name: encoder, loaded=lambda: ("all-MiniLM-L6-v2",))
    full = worker.submit("all-MiniLM-L6-v2", "The cat sat.")
    without = worker.submit("all-MiniLM-L6-v2", "The cat sat.", 2)
    assert without is not full and worker.submit("all-MiniLM-L6-v2", "The cat sat.", 2) is without
    assert full.wait(TIMEOUT) and without.wait(TIMEOUT)
    assert full.result().removed is None and without.result().removed == 2
    assert (without.result().attention[..., 2] == 0).all() and (full.result().attention[..., 2] > 0).all()
    bad = worker.submit("all-MiniLM-L6-v2", "The cat sat.", 99)
    assert bad.wait(TIMEOUT) and bad.stage == bg.FAILED and "There is no token 99 to take away" in str(bad.error)


def test_the_runs_of_a_user_model_let_go_are_dropped(fake):
    worker, model = fake
    model.go.set()
    old = worker.submit("someone/old-model", "Hello")
    assert old.wait(TIMEOUT) and old.stage == bg.DONE
    assert worker.submit("someone/old-model", "Hello") is old  # kept while its model is loaded
    worker._loaded = lambda: ("someone/new-model",)  # the registry let the old model go for a new one
    new = worker.submit("someone/new-model", "Hello")
    assert new.wait(TIMEOUT) and new.stage == bg.DONE
    assert worker.submit("all-MiniLM-L6-v2", "Hello").wait(TIMEOUT)  # a shipped model's run is never dropped so
    assert worker.submit("someone/old-model", "Hello") is not old  # its run went, and with it the old model
