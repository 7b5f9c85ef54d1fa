"""The settings of one training run, and the limits that keep a run short on a shared classroom server."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attnviz import AttnvizInputError
from attnviz.core.limits import (
    MAX_BATCH_SIZE,
    MAX_D_MODEL,
    MAX_EPOCHS,
    MAX_LEARNING_RATE,
    MAX_LOG_POINTS,
    MAX_SAMPLE_PASSES,
    MAX_SAMPLES,
    MAX_TRAIN_STEPS,
    MIN_D_MODEL,
    MIN_LEARNING_RATE,
)

SEQUENCE_LENGTH = 7  # [CLS] followed by six tokens
CLS_TOKEN = 0
SMALLEST_TOKEN, LARGEST_TOKEN = 1, 50
VOCAB_SIZE = LARGEST_TOKEN + 1  # ids 0..50, 0 being [CLS]



@dataclass(frozen=True)
class TrainConfig:
    """One run. The defaults are the reference text's setting: 8,000 samples, 10 epochs, batch 32, d_model 8."""

    samples: int = 8000  # training samples, drawn once and shuffled every epoch
    epochs: int = 10
    batch_size: int = 32
    learning_rate: float = 0.01  # Adam's step size
    d_model: int = 8
    target_position: int = 4  # index in the sequence, [CLS] being index 0
    target_value: int = 42  # the label is 1 when the token at target_position equals this
    balanced: bool = False  # True: half the training samples are positives (naturally about 2 % are)
    seed: int = 0
    log_points: int = 100  # how many times the history and the [CLS] attention are recorded

    @property
    def steps_per_epoch(self) -> int:
        return math.ceil(self.samples / self.batch_size)

    @property
    def total_steps(self) -> int:
        return self.steps_per_epoch * self.epochs


def _whole_number(value, name: str, low: int, high: int, why: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise AttnvizInputError(f"The {name} must be a whole number, not {value!r}.")
    if not low <= value <= high:
        raise AttnvizInputError(f"The {name} must be between {low:,} and {high:,}{why}; it is {value:,}.")


def _learning_rate(value) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or math.isnan(value):
        raise AttnvizInputError(f"The learning rate must be a number, not {value!r}.")
    if not MIN_LEARNING_RATE <= value <= MAX_LEARNING_RATE:
        raise AttnvizInputError(
            f"The learning rate must be between {MIN_LEARNING_RATE:g} and {MAX_LEARNING_RATE:g} "
            f"(Adam usually learns well near 0.001 to 0.01); it is {value:g}."
        )


def _run_size(config: TrainConfig) -> None:
    passes = config.samples * config.epochs
    if passes > MAX_SAMPLE_PASSES:
        raise AttnvizInputError(
            f"{config.samples:,} samples × {config.epochs} epochs is {passes:,} sample passes; this server allows "
            f"{MAX_SAMPLE_PASSES:,} so a run stays short. Use fewer samples or fewer epochs."
        )
    if config.total_steps > MAX_TRAIN_STEPS:
        raise AttnvizInputError(
            f"A batch size of {config.batch_size} makes {config.total_steps:,} training steps; this server allows "
            f"{MAX_TRAIN_STEPS:,}. Use a larger batch, fewer samples or fewer epochs."
        )


def validate(config: TrainConfig) -> None:
    """Raise AttnvizInputError with a plain message for a setting that cannot (or should not) be trained."""
    _whole_number(config.samples, "number of samples", 1, MAX_SAMPLES, " on this server")
    _whole_number(config.epochs, "number of epochs", 1, MAX_EPOCHS, " on this server")
    _whole_number(config.batch_size, "batch size", 1, MAX_BATCH_SIZE, "")
    _learning_rate(config.learning_rate)
    _whole_number(config.d_model, "model width d_model", MIN_D_MODEL, MAX_D_MODEL, "")
    _whole_number(
        config.target_position, "target position", 1, SEQUENCE_LENGTH - 1, " (index 0 is [CLS], 1 to 6 the tokens)"
    )
    _whole_number(config.target_value, "target value", SMALLEST_TOKEN, LARGEST_TOKEN, " (the tokens are 1 to 50)")
    if not isinstance(config.balanced, (bool, np.bool_)):
        raise AttnvizInputError(f"Balanced sampling must be on or off (True or False), not {config.balanced!r}.")
    _whole_number(config.seed, "seed", 0, 2**32 - 1, "")
    _whole_number(config.log_points, "number of log points", 1, MAX_LOG_POINTS, "")
    _run_size(config)
