"""The induction experiment in the worker process: the same run as here, progress on the way, and one run a session
across both experiments."""

from __future__ import annotations

import numpy as np

from attnviz.train import TrainConfig, background
from attnviz.train.induction import InductionConfig, InductionProgress, train_induction
from tests.train.test_background import until, watched

SMALL = InductionConfig(steps=30, log_points=3)


def test_an_induction_run_in_the_worker_is_the_run_here_and_reports_on_the_way():
    run = background.start(SMALL)
    seen = watched(run)
    result, message = run.outcome()
    here = train_induction(SMALL)
    assert message is None and result.finished and result.steps == 30
    assert all(isinstance(progress, InductionProgress) for progress in seen)
    assert {progress.step for progress in seen} <= {0, 10, 20, 30}
    assert [entry["step"] for entry in result.history] == [0, 10, 20, 30]
    np.testing.assert_array_equal(result.repeated_half_loss, here.repeated_half_loss)
    for name in here.params:
        np.testing.assert_array_equal(result.params[name], here.params[name])


def test_an_induction_run_replaces_the_same_sessions_first_experiment():
    owner = background.Owner()
    first = background.start(TrainConfig(), owner)  # 2,500 steps: still going when the second starts
    until(lambda: first.poll() is not None)
    second = background.start(SMALL, owner)
    until(lambda: first.done)
    assert first.stopping
    until(lambda: second.done)
    result, message = second.outcome()
    assert message is None and result.finished
