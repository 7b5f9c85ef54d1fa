"""Watch it learn, in words and numbers: what a run is doing, how well it did, and where [CLS] ended up looking.

About 2 % of the samples are positive, so a model that always answers "no" is 98 % accurate: every verdict here
gives precision, recall and balanced accuracy beside accuracy, and says what the counts behind them are.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from attnviz.core.errors import AttnvizInputError
from attnviz.core.numbers import format_fixed, format_number
from attnviz.train import Progress, TrainConfig, Training, TrainResult
from attnviz.train.config import CLS_TOKEN, SEQUENCE_LENGTH, validate
from attnviz.train.run import ClassRows

POSITION_LABELS = ("[CLS]", *(str(position) for position in range(1, SEQUENCE_LENGTH)))
# The settings a student chooses on the page (the others keep TrainConfig's defaults: batch 32, d_model 8), and
# where they start: the reference text's run, whose Keras Adam steps 0.001 by default.
SETTINGS = ("samples", "epochs", "learning_rate", "seed", "target_position", "target_value", "balanced")
PAGE_DEFAULTS = replace(TrainConfig(), learning_rate=0.001)
LEARNING_RATES = (0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0)  # the page's choices: from too slow to wild
POSITIONS = tuple(range(1, SEQUENCE_LENGTH))  # the target positions: every token's, not [CLS]'s (0)
TASK_TEXT = (
    "Each sample is [CLS] and six random numbers from 1 to 50; its label is 1 when the number at the target position "
    "is the target value (about 2 % of samples). One attention head, trained here in numpy, must learn where to look."
)
IDLE_TEXT = (
    "Press Train: the curves fall, and [CLS]'s attention (right: before any training) moves to where it helps tell "
    "the labels apart, for the positive samples and for the negatives."
)
RATE_HELP = (
    "Adam's step size. 0.001 is Keras's default: the tiny model trained here was first trained with it, in Keras, for "
    "8,000 samples and 10 epochs (this page's defaults)."
)
BALANCED_HELP = "Half the training samples positive, instead of about 2 %. Held-out samples stay natural."
SETTINGS_HELP = f"Learning rate: {RATE_HELP} Balanced sampling: {BALANCED_HELP}"  # said under the settings
ROWS_TITLE = "[CLS]'s attention on held-out samples"


def config_problem(config: TrainConfig) -> str | None:
    """Why these settings can't be trained, in plain words (None when they can)."""
    try:
        validate(config)
    except AttnvizInputError as error:
        return str(error)
    return None


@lru_cache(maxsize=16)
def starting_rows(config: TrainConfig) -> ClassRows:
    """[CLS]'s mean attention rows over the probe samples, by label, before the first step, as the run will start."""
    return Training(config).snapshots[0].cls_rows


def percent(share: float) -> str:
    """A share as a percentage to one decimal, never rounded up to 100 % or down to 0 % (one mistake in 4,000
    samples is not 100.0 %)."""
    text = f"{share * 100:.1f} %"
    if text == "100.0 %" and share < 1:
        return "> 99.9 %"
    if text == "0.0 %" and share > 0:
        return "< 0.1 %"
    return text


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count:,} {one if count == 1 else (many or one + 's')}"


def queue_message(runs_ahead: int) -> str:
    """What a student whose run has not started yet reads."""
    if runs_ahead == 0:
        return "Starting… the first progress appears in a moment."
    return (
        f"{_plural(runs_ahead, 'run')} ahead of yours: this server trains one run at a time, so yours starts when "
        f"{'it ends' if runs_ahead == 1 else 'they end'}. You can stop it before it starts."
    )


def progress_text(progress: Progress, config: TrainConfig) -> str:
    """The progress bar's line, e.g. "Step 400 of 2,500 · epoch 2 of 10 · training loss 0.123"."""
    text = f"Step {progress.step:,} of {progress.total_steps:,} · epoch {max(progress.epoch, 1)} of {config.epochs}"
    if progress.history:
        text += f" · training loss {format_number(progress.history[-1]['loss'], digits=3)}"
    return text


@dataclass(frozen=True)
class Metric:
    label: str
    value: str
    help: str


def final_metrics(result: TrainResult) -> list[Metric]:
    """The held-out verdict: accuracy, precision, recall and balanced accuracy. (Where [CLS] looks is said by label,
    in the lesson: one mean over both labels would be the negatives' alone.)"""
    c = result.confusion
    called = c.true_positives + c.false_positives
    return [
        Metric(
            "Accuracy",
            percent(result.accuracy),
            f"Right answers out of {c.positives + c.negatives:,}. Always answering no would score "
            f"{percent(c.negatives / (c.positives + c.negatives))}.",
        ),
        Metric(
            "Precision",
            percent(result.precision) if called else "—",
            f"Of the {_plural(called, 'sample')} it called positive, {c.true_positives:,} are."
            if called
            else "It called no sample positive, so there is no share of them to be right.",
        ),
        Metric(
            "Recall",
            percent(result.recall),
            f"Of the {_plural(c.positives, 'positive sample')}, it found {c.true_positives:,}.",
        ),
        Metric(
            "Balanced accuracy",
            percent(result.balanced_accuracy),
            "The mean of the share of positives found and the share of negatives found: always no scores 50 %.",
        ),
    ]


def verdict_text(result: TrainResult) -> str:
    """The counts behind the numbers, in one sentence."""
    c = result.confusion
    run = (
        f"After all {result.steps:,} steps"
        if result.finished
        else f"Stopped after {result.steps:,} of {result.config.total_steps:,} steps"
    )
    return (
        f"{run}, judged on {c.positives + c.negatives:,} fresh samples it never trained on "
        f"({_plural(c.positives, 'positive')}): it called {c.true_positives + c.false_positives:,} positive, "
        f"{c.true_positives:,} rightly and {c.false_positives:,} wrongly, and missed {c.false_negatives:,}."
    )


def attention_lesson(result: TrainResult) -> str:
    """What [CLS] learned, by label, on the held-out samples: where it looks when the target position holds the
    target value and when it does not. It need not look at the answer: looking elsewhere for one label is a signal too.
    """
    target, value, rows = result.config.target_position, result.config.target_value, result.cls_rows
    positive, negative = rows.positive, rows.negative
    measured = (
        f"On the {rows.positives + rows.negatives:,} held-out samples, [CLS] puts {format_fixed(positive[target])} of "
        f"its attention on position {target} when the number there is {value} ({_plural(rows.positives, 'sample')}) "
        f"and {format_fixed(negative[target])} when it is not ({_plural(rows.negatives, 'sample')})."
    )
    top_positive, top_negative = _top(positive), _top(negative)  # None: no one position shows the largest
    if top_positive == top_negative == target:
        learned = (
            f"Either way it looks mostly at position {target}: it learned where the answer is, and the classifier "
            f"reads whether the number there is {value}."
        )
    elif top_positive == target:
        learned = (
            f"A {value} there draws its attention; otherwise it looks mostly at {_mostly(negative, top_negative)}. "
            "Where [CLS] looks is itself the answer the classifier reads."
        )
    elif top_negative == target:
        learned = (
            f"When the number there is {value}, it looks away, mostly at {_mostly(positive, top_positive)}: it "
            f"learned to look at position {target} and to turn away from a {value} there, and the classifier reads "
            "that turn as a yes."
        )
    else:
        where = (
            f"either way at {_where(top_positive)} ({format_fixed(positive[top_positive])} and "
            f"{format_fixed(negative[top_negative])})"
            if top_positive == top_negative is not None
            else f"at {_mostly(positive, top_positive)} for a positive and at {_mostly(negative, top_negative)} for "
            "a negative"
        )
        learned = f"It looks mostly {where}, not at position {target}: train longer, or with balanced sampling."
    return f"{measured} {learned} Choose another target position, train again, and see where it looks then."


def _top(row: np.ndarray) -> int | None:
    """Where a row looks most, as its two decimals show it; None when several positions show the largest (no
    ranking where the digits show none)."""
    shown = [format_fixed(w) for w in row]
    best = [i for i, text in enumerate(shown) if text == max(shown, key=float)]
    return best[0] if len(best) == 1 else None


def _mostly(row: np.ndarray, top: int | None) -> str:
    """"position 3 (0.15)", or, with a tie as shown, "no single position (positions 3 and 4 show 0.15 each)"."""
    if top is not None:
        return f"{_where(top)} ({format_fixed(row[top])})"
    shown = [format_fixed(w) for w in row]
    best = max(shown, key=float)
    tied = [str(i) for i, text in enumerate(shown) if text == best]
    return f"no single position (positions {', '.join(tied[:-1])} and {tied[-1]} show {best} each)"


def _where(position: int) -> str:
    return "[CLS] itself" if position == CLS_TOKEN else f"position {position}"


def stale_note(result: TrainResult, config: TrainConfig) -> str | None:
    """When the settings no longer match the run shown, which of them changed (the charts show the last run)."""
    changed = [name.replace("_", " ") for name in SETTINGS if getattr(result.config, name) != getattr(config, name)]
    if not changed:
        return None
    return f"Shown: the last run. You have since changed the {', '.join(changed)}: press Train to see the difference."


def snapshot_text(result: TrainResult, index: int) -> str:
    """The numbers of snapshot ``index``: step 0 (before training) or the log point at the same step."""
    snapshot, target = result.snapshots[index], result.config.target_position
    rows = snapshot.cls_rows
    everyone = result.cls_rows.positives + result.cls_rows.negatives
    weight = (
        f"[CLS]'s weight on position {target}, on held-out samples: {format_fixed(rows.positive[target])} on "
        f"{_plural(rows.positives, 'positive')}, {format_fixed(rows.negative[target])} on "
        f"{_plural(rows.negatives, 'negative')} (the same few at every step; the lesson below uses all {everyone:,})."
    )
    if index == 0:
        return f"Before the first step. {weight}"
    entry = result.history[index - 1]  # logged with this snapshot
    return (
        f"After {snapshot.step:,} of {result.config.total_steps:,} steps (epoch {format_number(entry['epoch'], digits=3)}), "
        f"on the training batches since the last point: loss {format_number(entry['loss'], digits=3)}, accuracy "
        f"{percent(entry['accuracy'])}, balanced accuracy {percent(entry['balanced_accuracy'])}. {weight}"
    )


def sample_help(config: TrainConfig) -> str:
    """What the "A positive sample" switch picks for Open in Playground."""
    return (
        f"On: a held-out sample with {config.target_value} at position {config.target_position} (label 1). Off: "
        "label 0."
    )


def sample_labels(tokens) -> tuple[str, ...]:
    """A sample's tokens as the Playground's labels: "[CLS]" then the numbers."""
    return tuple("[CLS]" if token == CLS_TOKEN else str(int(token)) for token in tokens)


def sample_title(config: TrainConfig, tokens) -> str:
    """The Playground's name for the trained head reading one sample."""
    target, value = config.target_position, config.target_value
    label = int(tokens[target] == value)
    return f"The head trained on Watch it learn ({value} at position {target} means 1), one sample: label {label}"
