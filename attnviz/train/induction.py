"""Induction heads: a small attention-only transformer learns to copy the repeated half of ``[r; r]``.

An induction head (Olsson et al. 2022) looks back for the earlier occurrence of the current token and copies the
token that followed it. It needs two layers: a first-layer head writes "the token before me" into each position,
and a last-layer head matches the current token against that. One layer can only match tokens, not what came
before them, so the one-layer control stays near chance on the repeated half.

>>> result = train_induction(InductionConfig(seed=0))
>>> result.copy_accuracy(), result.copy_accuracy(knocked_out=[(1, result.best_head)])

Never imports streamlit: a page drives ``InductionTraining(config).steps()`` as it does the first experiment's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from attnviz import AttnvizInputError
from attnviz.core.limits import (
    MAX_INDUCTION_BATCH,
    MAX_INDUCTION_D_MODEL,
    MAX_INDUCTION_HEADS,
    MAX_INDUCTION_LAYERS,
    MAX_INDUCTION_SEQ_LEN,
    MAX_INDUCTION_STEPS,
    MAX_INDUCTION_VOCAB,
    MAX_LOG_POINTS,
    MIN_INDUCTION_SEQ_LEN,
    MIN_INDUCTION_VOCAB,
)
from attnviz.train.config import _learning_rate, _whole_number
from attnviz.train.induction_data import Repeats, head_scores, repeated_sequences
from attnviz.train.induction_model import Params, forward, init_params, train_step
from attnviz.train.stepping import SteppedRun

HELD_OUT_SEQUENCES = 500  # fresh sequences, never trained on, for the verdict (copying, knock-outs, head scores)
PROBE_SEQUENCES = 64  # fresh sequences whose head scores are recorded at every log point


@dataclass(frozen=True)
class InductionConfig:
    """One run. The defaults train a two-layer model that copies in well under a minute on one core."""

    layers: int = 2
    heads: int = 1  # with two, both last-layer heads learn to copy, and knocking one out leaves the other
    d_model: int = 32
    vocab_size: int = 64
    seq_len: int = 10  # T: a sequence is 2T tokens ending in r then r again, r up to T long (induction_data)
    steps: int = 3000
    batch_size: int = 32
    learning_rate: float = 0.005  # Adam's step size: 7 of seeds 0-7 copy ≥ 0.9 in 3,000 steps (at 0.003, 3 of 0-4)
    seed: int = 0
    log_points: int = 100  # how many times the curves and the head scores are recorded


def validate_induction(config: InductionConfig) -> None:
    """Raise AttnvizInputError with a plain message for a setting that cannot (or should not) be trained."""
    _whole_number(config.layers, "number of layers", 1, MAX_INDUCTION_LAYERS, "")
    _whole_number(config.heads, "number of heads", 1, MAX_INDUCTION_HEADS, "")
    _whole_number(config.d_model, "model width d_model", config.heads, MAX_INDUCTION_D_MODEL, " (at least one a head)")
    if config.d_model % config.heads:
        raise AttnvizInputError(f"d_model ({config.d_model}) must split evenly into {config.heads} heads.")
    _whole_number(config.vocab_size, "vocabulary size", MIN_INDUCTION_VOCAB, MAX_INDUCTION_VOCAB, "")
    _whole_number(config.seq_len, "length of r", MIN_INDUCTION_SEQ_LEN, MAX_INDUCTION_SEQ_LEN, "")
    _whole_number(config.steps, "number of steps", 1, MAX_INDUCTION_STEPS, " on this server")
    _whole_number(config.batch_size, "batch size", 1, MAX_INDUCTION_BATCH, "")
    _learning_rate(config.learning_rate)
    _whole_number(config.seed, "seed", 0, 2**32 - 1, "")
    _whole_number(config.log_points, "number of log points", 1, MAX_LOG_POINTS, "")


def _head_on(layers: int, heads: int, knocked_out: Iterable[tuple[int, int]] = ()) -> np.ndarray:
    on = np.ones((layers, heads))  # (L, H)
    for layer, head in knocked_out:
        if not (0 <= layer < layers and 0 <= head < heads):
            raise AttnvizInputError(
                f"There is no head {head} in layer {layer} (layers 0-{layers - 1}, heads 0-{heads - 1})."
            )
        on[layer, head] = 0.0
    return on


@dataclass(frozen=True)
class InductionProgress:
    """What a page draws at a log point."""

    step: int  # optimiser steps done
    total_steps: int
    history: tuple[dict, ...]  # every entry logged so far, oldest first (see InductionTraining._log)

    @property
    def fraction(self) -> float:
        return self.step / self.total_steps


@dataclass(frozen=True)
class InductionResult:
    """A trained (or stopped) model, its curves, and fresh sequences to judge it on."""

    config: InductionConfig
    params: Params
    history: tuple[dict, ...]  # per log point: step, the halves' losses, prefix, previous and duplicate (L, H)
    steps: int
    finished: bool
    seconds: float  # wall clock, from drawing the data to the end of training
    held_out: Repeats  # fresh sequences drawn as the training ones are, never trained on

    vocab_size = property(lambda self: self.config.vocab_size)
    seq_len = property(lambda self: self.config.seq_len)
    log_steps = property(lambda self: np.array([entry["step"] for entry in self.history]))
    first_half_loss = property(lambda self: np.array([entry["first_half_loss"] for entry in self.history]))
    repeated_half_loss = property(lambda self: np.array([entry["repeated_half_loss"] for entry in self.history]))
    prefix_matching = property(lambda self: np.array([entry["prefix"] for entry in self.history]))  # (log points, L, H)

    def _run(self, tokens, knocked_out=()):
        sequences = check_sequences(tokens, self.config)  # (B, n)
        head_on = _head_on(self.config.layers, self.config.heads, knocked_out)
        _, _, logits, weights, _ = forward(self.params, sequences, head_on)
        return logits, weights  # (B, n, V), (L, B, H, n, n)

    def attention(self, tokens) -> np.ndarray:
        """One sequence (n,) -> every head's attention weights (L, H, n, n)."""
        return self._run(np.asarray(tokens)[None, :])[1][:, 0]

    def qkv(self, tokens, layer: int, head: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Q, K, V (n, e) of one head on one sequence: ``attention(Q, K, V, causal=True)`` gives its weights."""
        sequences = check_sequences(np.asarray(tokens)[None, :], self.config)
        layer_caches = forward(self.params, sequences, _head_on(self.config.layers, self.config.heads))[-1][1]
        _, Q, K, V, *_ = layer_caches[layer]  # (1, H, n, e) each
        return Q[0, head], K[0, head], V[0, head]

    def next_token(self, tokens, knocked_out: Iterable[tuple[int, int]] = ()) -> np.ndarray:
        """One sequence (n,) -> the most likely next token after each position (n,); ``knocked_out`` lists
        (layer, head) pairs whose output is zeroed."""
        return self._run(np.asarray(tokens)[None, :], knocked_out)[0][0].argmax(axis=-1)

    def fresh(self, count: int, seed: int, length: int | None = None) -> Repeats:
        """``count`` new sequences (see ``repeated_sequences``; ``length=seq_len``: the plain [r; r])."""
        return repeated_sequences(np.random.default_rng(seed), count, self.config, length)

    def copy_accuracy(self, knocked_out: Iterable[tuple[int, int]] = (), repeats: Repeats | None = None) -> float:
        """The share of the second copy's tokens (after its first) predicted right, on fresh sequences."""
        repeats = self.held_out if repeats is None else repeats
        logits, _ = self._run(repeats.tokens, knocked_out)
        right = logits[:, :-1].argmax(axis=-1) == repeats.tokens[:, 1:]  # (N, 2T-1): position i predicts i+1
        return float(right[repeats.copyable()].mean())

    def head_scores(self, repeats: Repeats | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Prefix-matching, previous-token and duplicate-token scores (L, H) on fresh sequences (``head_scores``)."""
        repeats = self.held_out if repeats is None else repeats
        return head_scores(self._run(repeats.tokens)[1], repeats)

    @property
    def best_head(self) -> int:
        """The last layer's head with the highest prefix-matching score on the held-out sequences."""
        return int(self.head_scores()[0][-1].argmax())


def check_sequences(tokens, config: InductionConfig) -> np.ndarray:
    """Sequences (B, n) of whole numbers from 0 to vocab_size - 1, 2 ≤ n ≤ 2T (the positions the model knows)."""
    sequences = np.asarray(tokens)
    if sequences.ndim != 2 or not np.issubdtype(sequences.dtype, np.integer):
        raise AttnvizInputError("A sequence must be a list of whole numbers.")
    if not 2 <= sequences.shape[1] <= 2 * config.seq_len:
        raise AttnvizInputError(f"A sequence must have 2 to {2 * config.seq_len} tokens; it has {sequences.shape[1]}.")
    if ((sequences < 0) | (sequences >= config.vocab_size)).any():
        raise AttnvizInputError(f"The tokens are whole numbers from 0 to {config.vocab_size - 1}.")
    return sequences


class InductionTraining(SteppedRun):
    """One run's model, optimiser and data streams. ``steps()`` trains; it can be stopped and resumed."""

    def __init__(self, config: InductionConfig):
        validate_induction(config)
        super().__init__(config.steps, config.log_points)
        self.config = config
        self.started = time.perf_counter()
        data_rng, held_out_rng, init_rng = (
            np.random.default_rng(s) for s in np.random.SeedSequence(config.seed).spawn(3)
        )
        self._data_rng = data_rng  # a fresh batch every step: the model never sees a sequence twice
        self.held_out = repeated_sequences(held_out_rng, HELD_OUT_SEQUENCES, config)
        self._probe = Repeats(self.held_out.tokens[:PROBE_SEQUENCES], self.held_out.lengths[:PROBE_SEQUENCES])
        self.params, self._adam = init_params(init_rng, config)
        self._head_on = _head_on(config.layers, config.heads)
        self._since_log: list[tuple[np.ndarray, Repeats]] = []  # each batch's losses (B, 2T-1) and sequences
        self._log()  # step 0: the untrained model's scores, and its losses on one batch

    def _train_step(self) -> None:
        batch = repeated_sequences(self._data_rng, self.config.batch_size, self.config)
        self._since_log.append((train_step(self.params, self._adam, batch.tokens, self._head_on), batch))

    def result(self) -> InductionResult:
        return InductionResult(
            config=self.config,
            params={name: value.copy() for name, value in self.params.items()},
            history=tuple(self.history),
            steps=self.step,
            finished=self.done,
            seconds=time.perf_counter() - self.started,
            held_out=self.held_out,
        )

    def _log(self) -> None:
        """One history entry: the mean loss of each half over the batches since the last log point (at step 0,
        of the first held-out sequences), and every head's scores on the probe sequences."""
        _, probe_losses, _, weights, _ = forward(self.params, self._probe.tokens, self._head_on)
        batches = self._since_log or [(probe_losses, self._probe)]
        losses = np.concatenate([batch_losses for batch_losses, _ in batches])  # (B, 2T-1)
        unknowable = np.concatenate([batch.unknowable() for _, batch in batches])  # (B, 2T-1)
        copyable = np.concatenate([batch.copyable() for _, batch in batches])  # (B, 2T-1)
        prefix, previous, duplicate = head_scores(weights, self._probe)
        self.history.append(
            {
                "step": self.step,
                "first_half_loss": float(losses[unknowable].mean()),  # tokens seen nowhere before: guesses
                "repeated_half_loss": float(losses[copyable].mean()),  # the second copy's: there to copy
                "prefix": prefix,
                "previous": previous,
                "duplicate": duplicate,
            }
        )
        self._since_log = []

    def _progress(self) -> InductionProgress:
        return InductionProgress(self.step, self.config.steps, tuple(self.history))


def train_induction(
    config: InductionConfig, on_progress: Callable[[InductionProgress], bool | None] | None = None
) -> InductionResult:
    """Train to the end. ``on_progress`` may return False to stop early."""
    return InductionTraining(config).train_to_end(on_progress)
