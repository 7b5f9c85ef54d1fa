"""Training a run step by step, with progress a page can draw while it learns, and the held-out verdict at the end.

training = Training(TrainConfig(seed=0))
for progress in training.steps():   # stop iterating (or call training.stop()) to stop between two steps
    draw(progress.history, progress.cls_rows)
result = training.result()          # held-out metrics of the model as it is now
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from attnviz.train.config import TrainConfig, validate
from attnviz.train.data import make_samples
from attnviz.train.metrics import Confusion
from attnviz.train.model import Adam, Params, backward, forward, init_params, qkv
from attnviz.train.stepping import SteppedRun

HOLDOUT_SAMPLES = 4000  # fresh samples, never trained on, drawn as they come (about 2 % positive)
PROBE_PER_LABEL = 128  # the first held-out samples of each label (all the positives, about 80): drawn while training


@dataclass(frozen=True)
class ClassRows:
    """[CLS]'s mean attention row over samples of each label apart. A model may look in one place for a positive and
    in another for a negative, and one mean over both (98 % negatives) would hide where it looks for the positives."""

    positive: np.ndarray  # (n,) the mean over the positive samples (zeros when there is none)
    negative: np.ndarray  # (n,) the mean over the negative samples
    positives: int  # how many samples each row averages
    negatives: int

    @classmethod
    def of(cls, weights: np.ndarray, labels: np.ndarray) -> ClassRows:
        """From [CLS]'s rows (N, n) and the samples' labels (N,) of 0.0/1.0."""
        is_positive = labels == 1

        def mean(rows: np.ndarray) -> np.ndarray:
            row = rows.mean(axis=0) if len(rows) else np.zeros(weights.shape[1])
            row.flags.writeable = False  # shared by a Progress and a Snapshot
            return row

        return cls(
            mean(weights[is_positive]), mean(weights[~is_positive]), int(is_positive.sum()), int((~is_positive).sum())
        )


@dataclass(frozen=True)
class Snapshot:
    """[CLS]'s mean attention rows over the probe samples, by label, after ``step`` optimiser steps."""

    step: int
    cls_rows: ClassRows


@dataclass(frozen=True)
class Progress:
    """What a page draws at a log point: the curves so far and [CLS]'s attention now."""

    step: int  # optimiser steps done
    total_steps: int
    epoch: int  # the epoch under way, from 1 (0 before the first step)
    cls_rows: ClassRows  # over the probe samples
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
    cls_rows: ClassRows  # the same by label: where it looks for a positive, and for a negative
    params: Params
    holdout_tokens: np.ndarray  # (N, n)
    holdout_labels: np.ndarray  # (N,)

    def qkv(self, tokens) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Q, K, V (n, d_model) of one sample (seven ints, [CLS] = 0 first) in the trained head."""
        return qkv(self.params, tokens)

    def example(self, positive: bool = True) -> np.ndarray:
        """The first held-out sample (n,) with that label (else the first one), e.g. for the Playground."""
        matches = np.flatnonzero(self.holdout_labels == float(positive))
        return self.holdout_tokens[matches[0] if len(matches) else 0].copy()


class Training(SteppedRun):
    """One run's data, model and optimiser. ``steps()`` trains; it can be stopped and resumed."""

    def __init__(self, config: TrainConfig):
        validate(config)
        super().__init__(config.total_steps, config.log_points)
        self.config = config
        data_rng, holdout_rng, init_rng, self._shuffle_rng = (
            np.random.default_rng(seed) for seed in np.random.SeedSequence(config.seed).spawn(4)
        )
        task = (config.target_position, config.target_value)
        self.tokens, self.labels = make_samples(data_rng, config.samples, *task, balanced=config.balanced)
        self.holdout_tokens, self.holdout_labels = make_samples(holdout_rng, HOLDOUT_SAMPLES, *task, balanced=False)
        self.params = init_params(init_rng, config.d_model)
        by_label = (np.flatnonzero(self.holdout_labels == label)[:PROBE_PER_LABEL] for label in (1, 0))
        self._probe = np.concatenate(list(by_label))  # (≤ 2 · PROBE_PER_LABEL,) held-out sample indices
        self._adam = Adam(self.params, config.learning_rate)
        self.snapshots = [Snapshot(0, self._probe_rows())]
        self._order: np.ndarray | None = None  # this epoch's shuffled sample indices, drawn at its first step
        self._since_log: list[tuple[float, np.ndarray, np.ndarray]] = []  # (loss, labels, predicted) per batch

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
            cls_rows=ClassRows.of(weights, self.holdout_labels),
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
        self.snapshots.append(Snapshot(self.step, self._probe_rows()))

    def _probe_rows(self) -> ClassRows:
        labels = self.holdout_labels[self._probe]
        _, _, weights, _ = forward(self.params, self.holdout_tokens[self._probe], labels)
        return ClassRows.of(weights, labels)

    def _progress(self) -> Progress:
        return Progress(
            step=self.step,
            total_steps=self.config.total_steps,
            epoch=-(-self.step // self.config.steps_per_epoch),  # ceiling: step 1 is in epoch 1
            cls_rows=self.snapshots[-1].cls_rows,
            history=tuple(self.history),
        )


def train(config: TrainConfig, on_progress: Callable[[Progress], bool | None] | None = None) -> TrainResult:
    """Train to the end and judge on the held-out samples. ``on_progress`` may return False to stop early."""
    return Training(config).train_to_end(on_progress)
