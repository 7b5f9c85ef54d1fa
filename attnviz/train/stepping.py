"""What both live training runs share (the class-token model of attnviz.train.run and the induction model of
attnviz.train.induction): a step counter, the steps at which the run logs, Stop and resume, and one loop that yields
progress before the first step and at every log step. Each run says how it takes one step, logs and reports."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np


class SteppedRun(ABC):
    """A run of ``total_steps`` steps, logged at ``log_points`` evenly spread steps (the last always among them)."""

    def __init__(self, total_steps: int, log_points: int):
        self.step = 0
        self.total_steps = total_steps
        self.history: list[dict] = []
        log_steps = np.linspace(0, total_steps, min(log_points, total_steps) + 1)
        self._log_steps = set(np.round(log_steps[1:]).astype(int).tolist())
        self._stop_requested = False

    @property
    def done(self) -> bool:
        return self.step >= self.total_steps

    def stop(self) -> None:
        """Make ``steps()`` end before its next training step (from a callback or another thread)."""
        self._stop_requested = True

    def steps(self) -> Iterator[Any]:
        """Train, yielding progress before the first step and at every log step. Calling it again resumes."""
        self._stop_requested = False
        if self.step == 0:
            yield self._progress()
        while not self.done and not self._stop_requested:
            self._train_step()
            self.step += 1
            if self.step in self._log_steps:
                self._log()
                yield self._progress()

    def train_to_end(self, on_progress: Callable[[Any], bool | None] | None = None) -> Any:
        """Train to the end and return the result; ``on_progress`` may return False to stop early."""
        for progress in self.steps():
            if on_progress is not None and on_progress(progress) is False:
                break
        return self.result()

    @abstractmethod
    def _train_step(self) -> None:
        """One optimiser step at ``self.step`` (the loop counts it)."""

    @abstractmethod
    def _log(self) -> None:
        """Add what the run measures at this log step to ``self.history``."""

    @abstractmethod
    def _progress(self) -> Any:
        """What ``steps()`` yields now."""

    @abstractmethod
    def result(self) -> Any:
        """The model as it is now, finished or not."""
