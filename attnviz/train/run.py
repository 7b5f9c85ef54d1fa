"""Training a run step by step, with progress a page can draw while it learns, and the held-out verdict at the end.

training = Training(TrainConfig(seed=0))
for progress in training.steps():   # stop iterating (or call training.stop()) to stop between two steps
    draw(progress.history, progress.cls_attention)
result = training.result()          # held-out metrics of the model as it is now
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from attnviz.train.config import TrainConfig, validate
from attnviz.train.data import make_samples
from attnviz.train.metrics import Confusion
from attnviz.train.model import Adam, Params, backward, forward, init_params, qkv

HOLDOUT_SAMPLES = 4000  # fresh samples, never trained on, drawn as they come (about 2 % positive)
PROBE_SAMPLES = 256  # the first held-out samples: the [CLS] row drawn during training is their mean


@dataclass(frozen=True)
class Snapshot:
    """The mean [CLS] attention row over the probe samples after ``step`` optimiser steps."""

    step: int
    cls_attention: np.ndarray  # (n,)


@dataclass(frozen=True)
class Progress:
    """What a page draws at a log point: the curves so far and [CLS]'s attention now."""

    step: int  # optimiser steps done
    total_steps: int
    epoch: int  # the epoch under way, from 1 (0 before the first step)
    cls_attention: np.ndarray  # (n,) mean [CLS] row over the probe samples
    history: tuple[dict, ...]  # every entry logged so far, oldest first

    @property
    def fraction(self) -> float:
        return self.step / self.total_steps


@dataclass(frozen=True)
class TrainResult:
    """A trained (or stopped) model judged on the held-out samples."""

    config: TrainConfig
    history: list[dict]  # per log point: step, epoch, loss, accuracy, balanced_accuracy of the batches since the last
    snapshots: tuple[Snapshot, ...]  # from step 0, one per log point
    steps: int
    finished: bool  # False when training stopped early
    loss: float  # mean binary cross-entropy on the held-out samples
    confusion: Confusion  # held-out, predicting positive when the probability is 0.5 or more
    accuracy: float  # these four from the confusion counts
    precision: float
    recall: float
    balanced_accuracy: float
    cls_attention: np.ndarray  # (n,) mean weight from [CLS] to each position over the held-out samples
    params: Params
    holdout_tokens: np.ndarray  # (N, n)
    holdout_labels: np.ndarray  # (N,)

    @property
    def target_weight(self) -> float:
        """[CLS]'s mean weight on the position that decides the label."""
        return float(self.cls_attention[self.config.target_position])

    def qkv(self, tokens) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Q, K, V (n, d_model) of one sample (seven ints, [CLS] = 0 first) in the trained head."""
        return qkv(self.params, tokens)

    def example(self, positive: bool = True) -> np.ndarray:
        """The first held-out sample (n,) with that label (else the first one), e.g. for the Playground."""
        matches = np.flatnonzero(self.holdout_labels == float(positive))
        return self.holdout_tokens[matches[0] if len(matches) else 0].copy()


class Training:
    """One run's data, model and optimiser. ``steps()`` trains; it can be stopped and resumed."""

    def __init__(self, config: TrainConfig):
        validate(config)
        self.config = config
        data_rng, holdout_rng, init_rng, self._shuffle_rng = (
            np.random.default_rng(seed) for seed in np.random.SeedSequence(config.seed).spawn(4)
        )
        task = (config.target_position, config.target_value)
        self.tokens, self.labels = make_samples(data_rng, config.samples, *task, balanced=config.balanced)
        self.holdout_tokens, self.holdout_labels = make_samples(holdout_rng, HOLDOUT_SAMPLES, *task, balanced=False)
        self.params = init_params(init_rng, config.d_model)
        self._adam = Adam(self.params, config.learning_rate)
        self.step = 0
        self.history: list[dict] = []
        self.snapshots = [Snapshot(0, self._probe_attention())]
        log_steps = np.linspace(0, config.total_steps, min(config.log_points, config.total_steps) + 1)
        self._log_steps = set(np.round(log_steps[1:]).astype(int).tolist())  # always includes the last step
        self._order: np.ndarray | None = None  # this epoch's shuffled sample indices, drawn at its first step
        self._since_log: list[tuple[float, np.ndarray, np.ndarray]] = []  # (loss, labels, predicted) per batch
        self._stop_requested = False

    @property
    def done(self) -> bool:
        return self.step >= self.config.total_steps

    def stop(self) -> None:
        """Make ``steps()`` end before its next training step (e.g. from a callback or another thread)."""
        self._stop_requested = True

    def steps(self) -> Iterator[Progress]:
        """Train, yielding a Progress before the first step and at every log point. Calling it again resumes."""
        self._stop_requested = False
        if self.step == 0:
            yield self._progress()
        while not self.done and not self._stop_requested:
            self._train_step()
            if self.step in self._log_steps:
                self._log()
                yield self._progress()

    def result(self) -> TrainResult:
        """The model as it is now (finished or not), judged on the held-out samples."""
        loss, probabilities, weights, _ = forward(self.params, self.holdout_tokens, self.holdout_labels)
        confusion = Confusion.count(self.holdout_labels, probabilities >= 0.5)
        return TrainResult(
            config=self.config,
            history=list(self.history),
            snapshots=tuple(self.snapshots),
            steps=self.step,
            finished=self.done,
            loss=loss,
            confusion=confusion,
            accuracy=confusion.accuracy,
            precision=confusion.precision,
            recall=confusion.recall,
            balanced_accuracy=confusion.balanced_accuracy,
            cls_attention=weights.mean(axis=0),  # (n,)
            params={name: value.copy() for name, value in self.params.items()},
            holdout_tokens=self.holdout_tokens,
            holdout_labels=self.holdout_labels,
        )

    def _train_step(self) -> None:
        steps_per_epoch, batch_size = self.config.steps_per_epoch, self.config.batch_size
        step_in_epoch = self.step % steps_per_epoch
        if step_in_epoch == 0:
            self._order = self._shuffle_rng.permutation(self.config.samples)
        batch = self._order[step_in_epoch * batch_size : (step_in_epoch + 1) * batch_size]
        labels = self.labels[batch]
        loss, probabilities, _, caches = forward(self.params, self.tokens[batch], labels)
        self._adam.update(backward(self.params, caches))
        self.step += 1
        self._since_log.append((loss, labels, probabilities >= 0.5))

    def _log(self) -> None:
        """One history entry from the training batches since the last log point, and one snapshot."""
        losses, labels, predicted = zip(*self._since_log, strict=True)
        sizes = [len(batch_labels) for batch_labels in labels]
        confusion = Confusion.count(np.concatenate(labels), np.concatenate(predicted))
        self.history.append(
            {
                "step": self.step,
                "epoch": self.step / self.config.steps_per_epoch,
                "loss": float(np.average(losses, weights=sizes)),
                "accuracy": confusion.accuracy,
                "balanced_accuracy": confusion.balanced_accuracy,
            }
        )
        self._since_log = []
        self.snapshots.append(Snapshot(self.step, self._probe_attention()))

    def _probe_attention(self) -> np.ndarray:
        probe = slice(0, PROBE_SAMPLES)
        _, _, weights, _ = forward(self.params, self.holdout_tokens[probe], self.holdout_labels[probe])
        mean_row = weights.mean(axis=0)  # (n,)
        mean_row.flags.writeable = False  # shared by a Progress and a Snapshot
        return mean_row

    def _progress(self) -> Progress:
        return Progress(
            step=self.step,
            total_steps=self.config.total_steps,
            epoch=-(-self.step // self.config.steps_per_epoch),  # ceiling: step 1 is in epoch 1
            cls_attention=self.snapshots[-1].cls_attention,
            history=tuple(self.history),
        )


def train(config: TrainConfig, on_progress: Callable[[Progress], bool | None] | None = None) -> TrainResult:
    """Train to the end and judge on the held-out samples. ``on_progress`` may return False to stop early."""
    training = Training(config)
    for progress in training.steps():
        if on_progress is not None and on_progress(progress) is False:
            break
    return training.result()
