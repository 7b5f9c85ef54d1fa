"""Counting right and wrong answers. With about 2 % positives, "always no" is 98 % accurate, so accuracy alone misleads."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


@dataclass(frozen=True)
class Confusion:
    """How many samples of each true label got each predicted label."""

    true_positives: int
    false_positives: int
    false_negatives: int
    true_negatives: int

    @classmethod
    def count(cls, labels, predicted) -> Confusion:
        """labels and predicted: (N,) of 0/1 (or booleans)."""
        labels, predicted = np.asarray(labels).astype(bool), np.asarray(predicted).astype(bool)
        return cls(
            true_positives=int(np.sum(labels & predicted)),
            false_positives=int(np.sum(~labels & predicted)),
            false_negatives=int(np.sum(labels & ~predicted)),
            true_negatives=int(np.sum(~labels & ~predicted)),
        )

    @property
    def positives(self) -> int:
        return self.true_positives + self.false_negatives

    @property
    def negatives(self) -> int:
        return self.true_negatives + self.false_positives

    @property
    def accuracy(self) -> float:
        return _ratio(self.true_positives + self.true_negatives, self.positives + self.negatives)

    @property
    def precision(self) -> float:
        """Of the samples called positive, the share that are (0 when none is called positive)."""
        return _ratio(self.true_positives, self.true_positives + self.false_positives)

    @property
    def recall(self) -> float:
        """Of the positive samples, the share found (0 when there is none)."""
        return _ratio(self.true_positives, self.positives)

    @property
    def specificity(self) -> float:
        """Of the negative samples, the share called negative (0 when there is none)."""
        return _ratio(self.true_negatives, self.negatives)

    @property
    def balanced_accuracy(self) -> float:
        """The mean of recall and specificity over the labels present: "always no" scores 0.5, not 0.98."""
        shares = [
            share for share, count in ((self.recall, self.positives), (self.specificity, self.negatives)) if count
        ]
        return sum(shares) / len(shares) if shares else 0.0
