"""Training end to end: it learns the task and where to look, reproducibly, and can be watched, stopped and resumed."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz import AttnvizInputError, attention
from attnviz.train import Progress, TrainConfig, Training, train
from attnviz.train.model import Adam, forward
from attnviz.train.run import HOLDOUT_SAMPLES, PROBE_PER_LABEL

# Balanced sampling, 315 steps: a fraction of the reference text's 2,500, a fraction of a second.
SMALL = {"samples": 2000, "epochs": 5, "balanced": True, "seed": 0}


@pytest.fixture(scope="module")
def small_results():
    return {position: train(TrainConfig(**SMALL, target_position=position)) for position in (4, 2)}


@pytest.mark.parametrize("position", [4, 2])
def test_learns_the_task_and_looks_at_the_target_position(small_results, position):
    result = small_results[position]
    assert result.finished and result.steps == 315
    assert result.balanced_accuracy >= 0.99
    assert result.cls_attention.shape == (7,)
    assert result.cls_attention.sum() == pytest.approx(1.0, abs=1e-12)
    assert result.cls_attention[position] >= 0.5
    assert int(np.argmax(result.cls_attention)) == position
    assert result.history[-1]["balanced_accuracy"] >= 0.99  # the training batches agree


def test_held_out_metrics_come_from_the_held_out_predictions(small_results):
    result = small_results[4]
    assert result.holdout_tokens.shape == (HOLDOUT_SAMPLES, 7)
    np.testing.assert_array_equal(result.holdout_labels, result.holdout_tokens[:, 4] == 42)
    loss, probabilities, weights, _ = forward(result.params, result.holdout_tokens, result.holdout_labels)
    predicted, actual = probabilities >= 0.5, result.holdout_labels == 1
    assert result.confusion.true_positives == np.sum(predicted & actual)
    assert result.confusion.false_positives == np.sum(predicted & ~actual)
    assert result.confusion.positives == np.sum(actual) > 0  # held-out samples are natural: about 2 % positive
    assert result.accuracy == np.mean(predicted == actual)
    assert result.precision == np.sum(predicted & actual) / np.sum(predicted)
    assert result.recall == np.sum(predicted & actual) / np.sum(actual)
    specificity = np.sum(~predicted & ~actual) / np.sum(~actual)
    assert result.balanced_accuracy == pytest.approx((result.recall + specificity) / 2, rel=1e-15)
    assert result.loss == loss
    np.testing.assert_array_equal(result.cls_attention, weights.mean(axis=0))
    rows, positive = result.cls_rows, result.holdout_labels == 1
    np.testing.assert_array_equal(rows.positive, weights[positive].mean(axis=0))
    np.testing.assert_array_equal(rows.negative, weights[~positive].mean(axis=0))
    assert (rows.positives, rows.negatives) == (positive.sum(), HOLDOUT_SAMPLES - positive.sum())


def test_one_seed_reproduces_bit_for_bit():
    config = TrainConfig(samples=600, epochs=2, seed=7, balanced=True, log_points=5)
    first, second = train(config), train(config)
    assert first.history == second.history
    for name in first.params:
        np.testing.assert_array_equal(first.params[name], second.params[name])
    np.testing.assert_array_equal(first.cls_attention, second.cls_attention)
    for a, b in zip(first.snapshots, second.snapshots, strict=True):
        assert a.step == b.step
        np.testing.assert_array_equal(a.cls_rows.positive, b.cls_rows.positive)
        np.testing.assert_array_equal(a.cls_rows.negative, b.cls_rows.negative)
    other = train(TrainConfig(samples=600, epochs=2, seed=8, balanced=True, log_points=5))
    assert other.history != first.history


def test_progress_starts_uniform_and_ends_at_the_last_step():
    config = TrainConfig(samples=320, epochs=3, batch_size=32, seed=1, log_points=4)  # 30 steps
    events = list(Training(config).steps())
    assert [event.step for event in events] == [0, 8, 15, 22, 30]  # 30 steps split into 4 nearly equal parts
    assert [event.epoch for event in events] == [0, 1, 2, 3, 3]
    assert events[0].history == ()
    for row in (events[0].cls_rows.positive, events[0].cls_rows.negative):
        np.testing.assert_allclose(row, np.full(7, 1 / 7), rtol=1e-14)  # W_q starts at zero
    assert events[-1].fraction == 1.0 and events[-1].total_steps == 30
    last = events[-1].history
    assert [entry["step"] for entry in last] == [8, 15, 22, 30]
    assert set(last[0]) == {"step", "epoch", "loss", "accuracy", "balanced_accuracy"}
    assert last[-1]["epoch"] == 3.0
    assert all(np.isfinite(entry["loss"]) and 0 <= entry["accuracy"] <= 1 for entry in last)


def test_snapshots_follow_the_log_points_and_average_the_probe_samples_by_label():
    training = Training(TrainConfig(samples=320, epochs=1, seed=1, log_points=2))
    events = list(training.steps())
    result = training.result()
    assert [snapshot.step for snapshot in result.snapshots] == [0, 5, 10]
    assert [entry["step"] for entry in result.history] == [5, 10]  # snapshot i + 1 goes with history entry i
    for event, snapshot in zip(events, result.snapshots, strict=True):
        assert event.cls_rows is snapshot.cls_rows
    _, _, weights, _ = forward(result.params, result.holdout_tokens, result.holdout_labels)
    positives = [i for i, label in enumerate(result.holdout_labels) if label == 1][:PROBE_PER_LABEL]
    negatives = [i for i, label in enumerate(result.holdout_labels) if label == 0][:PROBE_PER_LABEL]
    last = result.snapshots[-1].cls_rows
    assert (last.positives, last.negatives) == (len(positives), PROBE_PER_LABEL) and 0 < len(positives) < 128
    np.testing.assert_allclose(last.positive, weights[positives].mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(last.negative, weights[negatives].mean(axis=0), rtol=1e-12)


def test_stopping_and_resuming_ends_where_one_uninterrupted_run_ends():
    config = TrainConfig(samples=640, epochs=2, seed=3, balanced=True, log_points=8)  # 40 steps
    training = Training(config)
    for event in training.steps():
        if event.step >= 15:
            break  # what a page does when its Stop button is pressed
    stopped = training.result()
    assert stopped.steps == 15 and not stopped.finished
    for _ in training.steps():
        pass
    resumed, whole = training.result(), train(config)
    assert resumed.finished and resumed.history == whole.history
    for name in whole.params:
        np.testing.assert_array_equal(resumed.params[name], whole.params[name])


def test_stop_method_and_callback_end_training_between_steps():
    config = TrainConfig(samples=640, epochs=2, seed=3, log_points=8)
    seen: list[Progress] = []

    def on_progress(progress: Progress):
        seen.append(progress)
        return False if progress.step >= 10 else None

    result = train(config, on_progress)
    assert [event.step for event in seen] == [0, 5, 10]
    assert result.steps == 10 and not result.finished and len(result.history) == 2

    training = Training(config)
    for event in training.steps():
        if event.step == 5:
            training.stop()
    assert training.step == 5 and not training.done


def test_qkv_of_one_sample_gives_the_models_cls_row(small_results):
    result = small_results[2]
    sample = result.example(positive=True)
    assert sample[0] == 0 and sample[2] == 42
    assert result.example(positive=False)[2] != 42
    Q, K, V = result.qkv(sample)
    p = result.params
    X = p["token_embedding"][sample] + p["position_embedding"]  # (7, 8)
    np.testing.assert_array_equal(Q, X @ p["W_q"])
    np.testing.assert_array_equal(K, X @ p["W_k"])
    np.testing.assert_array_equal(V, X @ p["W_v"])
    _, _, weights, _ = forward(p, sample[None, :], np.ones(1))
    np.testing.assert_allclose(attention(Q, K, V).weights[0], weights[0], rtol=1e-12, atol=1e-15)
    assert attention(Q, K, V).weights[0, 2] >= 0.5


@pytest.mark.parametrize(
    ("tokens", "message"),
    [
        ([0, 1, 2], "A sample must be 7 whole numbers: [CLS] (0) then six tokens from 1 to 50."),
        ([0, 1, 2, 3, 4, 5, 6.5], "A sample must be 7 whole numbers: [CLS] (0) then six tokens from 1 to 50."),
        (
            [3, 1, 2, 3, 4, 5, 6],
            "A sample starts with [CLS] (0) and continues with six tokens from 1 to 50; got [3, 1, 2, 3, 4, 5, 6].",
        ),
        (
            [0, 1, 2, 3, 4, 5, 51],
            "A sample starts with [CLS] (0) and continues with six tokens from 1 to 50; got [0, 1, 2, 3, 4, 5, 51].",
        ),
    ],
)
def test_qkv_refuses_a_malformed_sample(small_results, tokens, message):
    with pytest.raises(AttnvizInputError) as error:
        small_results[4].qkv(tokens)
    assert str(error.value) == message


def test_adam_matches_the_papers_algorithm_and_updates_the_params_in_place():
    rng = np.random.default_rng(5)
    params = {"W": rng.normal(size=(3, 2)), "b": rng.normal(size=1)}
    reference = {name: value.copy() for name, value in params.items()}
    optimiser = Adam(params, learning_rate=0.01)
    first = {name: np.zeros_like(value) for name, value in reference.items()}
    second = {name: np.zeros_like(value) for name, value in reference.items()}
    for t in (1, 2, 3):
        grads = {name: rng.normal(size=value.shape) for name, value in reference.items()}
        optimiser.update(grads)
        for name, g in grads.items():  # Kingma & Ba, Algorithm 1, written out plainly
            first[name] = 0.9 * first[name] + 0.1 * g
            second[name] = 0.999 * second[name] + 0.001 * g**2
            first_hat, second_hat = first[name] / (1 - 0.9**t), second[name] / (1 - 0.999**t)
            # attnviz's 1e-8 sits in the paper's faster form (end of its section 2); Algorithm 1 then needs this ε
            epsilon = 1e-8 / np.sqrt(1 - 0.999**t)
            reference[name] -= 0.01 * first_hat / (np.sqrt(second_hat) + epsilon)
            np.testing.assert_allclose(params[name], reference[name], rtol=1e-12)
