"""Watch it learn's words and numbers, checked against the counts and the snapshots they come from."""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attnviz.core.limits import MAX_SAMPLES
from attnviz.lessons import training as words
from attnviz.train import Confusion, TrainConfig, Training, train
from attnviz.train.run import ClassRows
from tests.lessons.sentence_registry import covers

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
    assert list(metrics) == ["Accuracy", "Precision", "Recall", "Balanced accuracy"]
    assert metrics["Accuracy"].value == f"{100 * (c.true_positives + c.true_negatives) / total:.1f} %"
    assert metrics["Precision"].value == f"{100 * c.true_positives / (c.true_positives + c.false_positives):.1f} %"
    assert metrics["Recall"].value == f"{100 * c.true_positives / (c.true_positives + c.false_negatives):.1f} %"
    specificity = c.true_negatives / (c.true_negatives + c.false_positives)
    recall = c.true_positives / (c.true_positives + c.false_negatives)
    assert metrics["Balanced accuracy"].value == f"{100 * (recall + specificity) / 2:.1f} %"
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


def rows(positive, negative, positives=75, negatives=3925) -> ClassRows:
    return ClassRows(np.array(positive), np.array(negative), positives, negatives)


def test_the_lesson_says_where_cls_looks_for_each_label(result):
    """Where [CLS] looks is told by label, on the held-out samples, and what that means is said case by
    case: the same place for both labels, only for a positive, away from it for a positive, or not there at all."""
    positive, negative = result.cls_rows.positive, result.cls_rows.negative
    assert words.attention_lesson(result) == (
        f"On the 4,000 held-out samples, [CLS] puts {positive[4]:.2f} of its attention on position 4 when the number "
        f"there is 42 ({result.cls_rows.positives} samples) and {negative[4]:.2f} when it is not "
        f"({result.cls_rows.negatives:,} samples). Either way it looks mostly at position 4: it learned where the "
        "answer is, and the classifier reads whether the number there is 42. Choose another target position, train "
        "again, and see where it looks then."
    )
    drawn = replace(result, cls_rows=rows([0, 0, 0, 0, 0.9, 0, 0.1], [0, 0, 0.6, 0, 0.3, 0, 0.1]))
    assert "A 42 there draws its attention; otherwise it looks mostly at position 2 (0.60). Where [CLS] looks" in (
        words.attention_lesson(drawn)
    )
    away = replace(result, cls_rows=rows([0, 0, 0, 0, 0.28, 0, 0.70], [0, 0, 0, 0, 0.93, 0, 0.07]))
    assert words.attention_lesson(away).startswith(
        "On the 4,000 held-out samples, [CLS] puts 0.28 of its attention on position 4 when the number there is 42 "
        "(75 samples) and 0.93 when it is not (3,925 samples). When the number there is 42, it looks away, mostly at "
        "position 6 (0.70): it learned to look at position 4 and to turn away from a 42 there"
    )
    nowhere = replace(result, cls_rows=rows([0.4, 0.1, 0.1, 0.1, 0.2, 0.05, 0.05], [0.1, 0.1, 0.5, 0.1, 0.1, 0, 0.1]))
    assert "It looks mostly at [CLS] itself (0.40) for a positive and at position 2 (0.50) for a negative, not at " in (
        words.attention_lesson(nowhere)
    )
    same = replace(result, cls_rows=rows([0.1, 0.1, 0.5, 0.1, 0.1, 0, 0.1], [0.1, 0.1, 0.4, 0.1, 0.2, 0, 0.1]))
    assert "It looks mostly either way at position 2 (0.50 and 0.40), not at position 4: train longer" in (
        words.attention_lesson(same)
    )


def test_the_stale_note_names_what_changed_since_the_run(result):
    assert words.stale_note(result, SMALL) is None
    note = words.stale_note(result, replace(SMALL, target_position=2, balanced=False))
    assert note == (
        "Shown: the last run. You have since changed the target position, balanced: press Train to see the difference."
    )


def test_each_snapshot_has_its_steps_numbers_and_its_target_weight(result):
    first = result.snapshots[0].cls_rows
    assert words.snapshot_text(result, 0) == (
        "Before the first step. [CLS]'s weight on position 4, on held-out samples: 0.14 on "
        f"{first.positives} positives, 0.14 on 128 negatives (the same few at every step; the lesson below uses all "
        f"{result.cls_rows.positives + result.cls_rows.negatives:,})."
    )
    snapshot, entry = result.snapshots[2], result.history[1]
    assert snapshot.step == entry["step"] == 16
    text = words.snapshot_text(result, 2)
    assert text.startswith("After 16 of 48 steps (epoch 1), on the training batches since the last point: ")
    assert f"loss {entry['loss']:.3g}, accuracy {100 * entry['accuracy']:.1f} %" in text
    rows_ = snapshot.cls_rows
    assert text.endswith(
        f"on held-out samples: {rows_.positive[4]:.2f} on {rows_.positives} positives, "
        f"{rows_.negative[4]:.2f} on 128 negatives (the same few at every step; the lesson below uses all "
        f"{result.cls_rows.positives + result.cls_rows.negatives:,})."
    )


def test_the_starting_rows_are_the_first_snapshot_of_the_run_uniform_before_training():
    start = words.starting_rows(SMALL)
    first = Training(SMALL).snapshots[0].cls_rows
    for row, same in ((start.positive, first.positive), (start.negative, first.negative)):
        np.testing.assert_array_equal(row, same)
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


@functools.cache
def trained():
    return train(SMALL)


rows_of = st.lists(st.floats(0, 1), min_size=7, max_size=7).map(lambda w: np.array(w) / (sum(w) or 1))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@covers(words.attention_lesson, words.verdict_text, words.stale_note, words.snapshot_text, words.config_problem)
@given(rows_of, rows_of, st.integers(1, 6), st.integers(0, 40), st.integers(0, 400), st.booleans(), st.data())
def test_watch_it_learns_words_say_the_rows_and_counts_as_shown(positive, negative, target, tp, tn, finished, data):
    """A ranking only where the digits show one; every count the sentence says is the result's."""
    base = trained()
    config = replace(base.config, target_position=target)
    rows = ClassRows(positive, negative, 3, 30)
    fp, fn = data.draw(st.integers(0, 40)), data.draw(st.integers(0, 40))
    result = replace(base, config=config, cls_rows=rows, confusion=Confusion(tp, fp, fn, tn), finished=finished)
    said = words.attention_lesson(result)
    tops = []
    for row in (positive, negative):  # where each row looks most, as its two decimals show: one place, or a tie
        shown = [f"{w:.2f}" for w in row]
        best = [i for i, text in enumerate(shown) if text == max(shown, key=float)]
        tops.append(best[0] if len(best) == 1 else None)
        if len(best) > 1:  # no ranking: the tie is said as one, never as a place it looks at most
            tied = ", ".join(map(str, best[:-1])) + f" and {best[-1]}"
            assert f"no single position (positions {tied} show {shown[best[0]]} each)" in said, said
    assert ("Either way it looks mostly at position" in said) == (tops == [target, target]), said
    assert ("there draws its attention" in said) == (tops[0] == target != tops[1]), said
    assert ("it looks away" in said) == (tops[1] == target != tops[0]), said
    verdict = words.verdict_text(result)
    assert f"it called {tp + fp:,} positive, {tp:,} rightly and {fp:,} wrongly, and missed {fn:,}." in verdict
    assert verdict.startswith("After all" if finished else "Stopped after") and f"{tp + fn + fp + tn:,} fresh" in verdict
    changed = replace(config, epochs=config.epochs + data.draw(st.integers(0, 1)))
    note = words.stale_note(result, changed)
    assert (note is None) == (changed.epochs == config.epochs) and (note is None or "epochs" in note)
    at = data.draw(st.integers(0, len(base.snapshots) - 1))
    snap = words.snapshot_text(base, at)
    assert snap.startswith("Before the first step." if at == 0 else f"After {base.snapshots[at].step:,} of ")
    samples = data.draw(st.integers(-5, MAX_SAMPLES + 5))
    problem = words.config_problem(replace(config, samples=samples, epochs=1))
    assert (problem is None) == (1 <= samples <= MAX_SAMPLES), problem  # one epoch: the run's size never the reason
    assert problem is None or f"{samples:,}" in problem or str(samples) in problem, problem
