"""Watch it learn's words and numbers, checked against the counts and the snapshots they come from."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from attnviz.lessons import training as words
from attnviz.train import Confusion, TrainConfig, Training, train

SMALL = TrainConfig(samples=500, epochs=3, balanced=True, log_points=6)  # 48 steps, learns position 4


@pytest.fixture(scope="module")
def result():
    return train(SMALL)


@pytest.mark.parametrize(
    ("share", "text"),
    [(1.0, "100.0 %"), (0.9999, "> 99.9 %"), (0.5, "50.0 %"), (0.98125, "98.1 %"), (0.0001, "< 0.1 %"), (0.0, "0.0 %")],
)
def test_percent_never_rounds_a_mistake_away(share, text):
    assert words.percent(share) == text


def test_the_queue_message_counts_the_runs_ahead():
    assert words.queue_message(1).startswith("1 run ahead of yours: ")
    assert "yours starts when it ends" in words.queue_message(1)
    assert words.queue_message(3).startswith("3 runs ahead of yours: ")
    assert "when they end" in words.queue_message(3)
    assert words.queue_message(0).startswith("Starting")


def test_the_metrics_are_the_ratios_of_the_confusion_counts(result):
    c = result.confusion
    total = c.true_positives + c.false_positives + c.false_negatives + c.true_negatives
    metrics = {m.label: m for m in words.final_metrics(result)}
    assert list(metrics) == ["Accuracy", "Precision", "Recall", "Balanced accuracy", "Weight on position 4"]
    assert metrics["Accuracy"].value == f"{100 * (c.true_positives + c.true_negatives) / total:.1f} %"
    assert metrics["Precision"].value == f"{100 * c.true_positives / (c.true_positives + c.false_positives):.1f} %"
    assert metrics["Recall"].value == f"{100 * c.true_positives / (c.true_positives + c.false_negatives):.1f} %"
    specificity = c.true_negatives / (c.true_negatives + c.false_positives)
    recall = c.true_positives / (c.true_positives + c.false_negatives)
    assert metrics["Balanced accuracy"].value == f"{100 * (recall + specificity) / 2:.1f} %"
    assert metrics["Weight on position 4"].value == f"{result.cls_attention[4]:.2f}"
    negatives = c.true_negatives + c.false_positives
    assert f"Always answering no would score {100 * negatives / total:.1f} %." in metrics["Accuracy"].help


def test_a_model_that_never_says_yes_has_no_precision_to_show(result):
    silent = replace(result, confusion=Confusion(0, 0, 75, 3925), accuracy=3925 / 4000, precision=0.0, recall=0.0)
    metrics = {m.label: m for m in words.final_metrics(silent)}
    assert metrics["Precision"].value == "—" and "called no sample positive" in metrics["Precision"].help
    assert metrics["Accuracy"].value == "98.1 %" and metrics["Recall"].value == "0.0 %"
    assert "it called 0 positive, 0 rightly and 0 wrongly, and missed 75." in words.verdict_text(silent)


def test_the_verdict_says_whether_the_run_finished(result):
    c = result.confusion
    assert words.verdict_text(result).startswith(
        f"After all 48 steps, judged on 4,000 fresh samples it never trained on ({c.positives} positives): "
    )
    stopped = replace(result, finished=False, steps=16)
    assert words.verdict_text(stopped).startswith("Stopped after 16 of 48 steps, judged on 4,000 fresh samples")


def test_the_lesson_says_where_cls_looks_and_whether_that_is_the_target(result):
    assert words.attention_lesson(result).startswith(
        f"[CLS] learned to look at position 4, the only one that decides the label (is it 42?): it puts "
        f"{result.cls_attention[4]:.2f} of its attention there."
    )
    elsewhere = replace(result, cls_attention=np.array([0.4, 0.1, 0.1, 0.1, 0.2, 0.05, 0.05]))
    assert words.attention_lesson(elsewhere).startswith(
        "[CLS] looks most at [CLS] itself (0.40), not yet at position 4 that decides the label (0.20)"
    )
    assert words.attention_lesson(elsewhere).endswith(
        "Choose another target position and train again: the attention moves there."
    )


def test_the_stale_note_names_what_changed_since_the_run(result):
    assert words.stale_note(result, SMALL) is None
    note = words.stale_note(result, replace(SMALL, target_position=2, balanced=False))
    assert note == (
        "Shown: the last run. You have since changed the target position, balanced: press Train to see the difference."
    )


def test_each_snapshot_has_its_steps_numbers_and_its_target_weight(result):
    assert words.snapshot_text(result, 0) == (
        "Before the first step. [CLS]'s weight on position 4, the mean over the 256 samples drawn: 0.14."
    )
    snapshot, entry = result.snapshots[2], result.history[1]
    assert snapshot.step == entry["step"] == 16
    text = words.snapshot_text(result, 2)
    assert text.startswith("After 16 of 48 steps (epoch 1), on the training batches since the last point: ")
    assert f"loss {entry['loss']:.3g}, accuracy {100 * entry['accuracy']:.1f} %" in text
    assert text.endswith(f"the mean over the 256 samples drawn: {snapshot.cls_attention[4]:.2f}.")


def test_the_starting_row_is_the_first_snapshot_of_the_run_uniform_before_training():
    row = words.starting_row(SMALL)
    np.testing.assert_array_equal(row, Training(SMALL).snapshots[0].cls_attention)
    np.testing.assert_allclose(row, np.full(7, 1 / 7), rtol=1e-12)  # W_q starts at zero


def test_a_sample_becomes_playground_labels_and_a_title_with_its_label():
    positive = np.array([0, 7, 13, 2, 42, 50, 1])
    assert words.sample_labels(positive) == ("[CLS]", "7", "13", "2", "42", "50", "1")
    assert words.sample_title(SMALL, positive).endswith("(42 at position 4 means 1), one sample: label 1")
    assert words.sample_title(SMALL, np.array([0, 42, 13, 2, 41, 50, 1])).endswith("label 0")


def test_settings_the_core_refuses_come_back_as_its_message():
    assert words.config_problem(SMALL) is None
    assert words.config_problem(replace(SMALL, target_position=7)) == (
        "The target position must be between 1 and 6 (index 0 is [CLS], 1 to 6 the tokens); it is 7."
    )


def test_the_progress_line_names_the_step_the_epoch_and_the_loss():
    events = list(Training(SMALL).steps())
    assert words.progress_text(events[0], SMALL) == "Step 0 of 48 · epoch 1 of 3"
    loss = events[3].history[-1]["loss"]
    assert words.progress_text(events[3], SMALL) == f"Step 24 of 48 · epoch 2 of 3 · training loss {loss:.3g}"
