"""The task's samples, and precision, recall and balanced accuracy against confusion matrices counted by hand."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz.train import Confusion
from attnviz.train.data import make_samples


def test_unbalanced_samples_follow_the_reference_text():
    tokens, labels = make_samples(np.random.default_rng(0), 50_000, 4, 42, balanced=False)
    assert tokens.shape == (50_000, 7) and np.issubdtype(tokens.dtype, np.integer)
    assert (tokens[:, 0] == 0).all()
    assert tokens[:, 1:].min() == 1 and tokens[:, 1:].max() == 50
    np.testing.assert_array_equal(labels, (tokens[:, 4] == 42).astype(float))
    assert 800 < labels.sum() < 1200  # 1 in 50 of 50,000 is 1,000 (standard deviation 31)


def test_balanced_samples_are_half_positive_with_decoys_elsewhere():
    tokens, labels = make_samples(np.random.default_rng(0), 3001, 2, 7, balanced=True)
    assert labels.sum() == 1500
    np.testing.assert_array_equal(labels, (tokens[:, 2] == 7).astype(float))
    negatives = tokens[labels == 0]
    assert set(np.unique(negatives[:, 2])) == set(range(1, 51)) - {7}  # every other value, never the target
    assert (negatives[:, [1, 3, 4, 5, 6]] == 7).any(axis=1).sum() > 0  # the value still turns up elsewhere
    assert tokens[:, 1:].min() == 1 and tokens[:, 1:].max() == 50


@pytest.mark.parametrize("target_value", [1, 50])
def test_balanced_negatives_use_every_other_value_at_the_edges_too(target_value):
    tokens, labels = make_samples(np.random.default_rng(1), 2000, 6, target_value, balanced=True)
    negatives_at_target = tokens[labels == 0, 6]
    assert set(np.unique(negatives_at_target)) == set(range(1, 51)) - {target_value}


def test_metrics_from_a_hand_counted_confusion_matrix():
    labels = [1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    predicted = [1, 1, 0, 1, 0, 0, 0, 0, 0, 0]  # TP 2, FN 1, FP 1, TN 6
    confusion = Confusion.count(labels, predicted)
    assert confusion == Confusion(true_positives=2, false_positives=1, false_negatives=1, true_negatives=6)
    assert confusion.accuracy == pytest.approx(8 / 10)
    assert confusion.precision == pytest.approx(2 / 3)
    assert confusion.recall == pytest.approx(2 / 3)
    assert confusion.specificity == pytest.approx(6 / 7)
    assert confusion.balanced_accuracy == pytest.approx((2 / 3 + 6 / 7) / 2)


def test_always_no_is_98_percent_accurate_but_balanced_accuracy_says_one_half():
    labels = np.array([1] * 2 + [0] * 98)
    confusion = Confusion.count(labels, np.zeros(100))
    assert confusion.accuracy == pytest.approx(0.98)
    assert (confusion.precision, confusion.recall, confusion.balanced_accuracy) == (0.0, 0.0, 0.5)


def test_a_missing_label_leaves_balanced_accuracy_to_the_label_present():
    confusion = Confusion.count([0, 0, 0, 0], [0, 1, 0, 0])
    assert confusion.balanced_accuracy == pytest.approx(3 / 4)  # the specificity; there is no recall to average
    assert Confusion.count([1, 1], [1, 0]).balanced_accuracy == pytest.approx(1 / 2)
    assert Confusion.count([], []).balanced_accuracy == 0.0
