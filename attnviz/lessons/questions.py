"""Predict mode's one question object, whoever asks (the Playground's three questions, attnviz.lessons.predictions; a
guided page's "which cell of this row is the largest", ``RowQuestion``): its ``key`` (a new key is a new question),
the words on its cover, ``answer(sent)`` (a click as the browser sent it, made a guess, or None for none) and
``reveal(guess)``. ``Answers`` is the one store of a student's answers, keyed by question; the student's session
holds it (attnviz.playground.session)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from attnviz.core.limits import MAX_ANSWERS_KEPT
from attnviz.core.numbers import format_cells


class Question(Protocol):
    @property
    def key(self) -> tuple:
        """(the asker, what makes the question new): the page's name first."""

    def cover(self) -> str: ...

    def answer(self, sent) -> Any | None: ...

    def reveal(self, guess) -> str: ...


def index_below(value, size: int) -> bool:
    """Whether ``value``, as the browser sent it, is a position below ``size``: an int, and never a bool."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


@dataclass(frozen=True)
class Answers:
    """A student's answers, newest last: (question key, guess) pairs, at most ``MAX_ANSWERS_KEPT`` a page."""

    kept: tuple[tuple[tuple, Any], ...] = ()

    def of(self, key: tuple) -> Any | None:
        """The guess kept for the question ``key``, or None while it is still asked."""
        return next((guess for asked, guess in reversed(self.kept) if asked == key), None)

    def newest(self, asker: str) -> tuple[tuple, Any] | None:
        """The last answer ``asker`` (a page) was given: (its question's key, the guess), or None."""
        return next(((key, guess) for key, guess in reversed(self.kept) if key[0] == asker), None)

    def with_answer(self, key: tuple, guess) -> Answers:
        """``guess`` kept for ``key`` (replacing one before it), and only the newest ``MAX_ANSWERS_KEPT`` of its page's."""
        kept = [entry for entry in self.kept if entry[0] != key] + [(key, guess)]
        forgotten = [entry for entry in kept if entry[0][0] == key[0]][:-MAX_ANSWERS_KEPT]
        return Answers(tuple(entry for entry in kept if entry not in forgotten))


@dataclass(frozen=True, eq=False)  # its numbers are arrays: questions are told apart by their keys
class RowQuestion:
    """Which cell of ``row`` of a matrix a guided page draws (its view ``view``) will be the largest? A masked
    (``blocked``) cell never is. Any change to the numbers the row shows asks again."""

    page: str
    view: str  # the view's name: a click on it answers, a click on another view does not
    row: int
    matrix: np.ndarray  # (rows, cols), as the view draws it
    blocked: np.ndarray | None  # (rows, cols): the masked cells, or None
    row_labels: list[str]
    col_labels: list[str]
    title: str
    weights: bool = False  # a weights view: its numbers are said as weights

    @property
    def key(self) -> tuple:
        return (self.page, self.view, self.row, np.asarray(self.matrix[self.row], dtype=float).tobytes())

    def cover(self) -> str:
        row = self.row_labels[self.row]
        return f"Predict first: which cell of row {row} will be the largest in “{self.title}”? Click it."

    def answer(self, sent) -> int | None:
        """The column clicked on this question's view, or None (another view, or past the columns: no answer)."""
        if not isinstance(sent, dict) or sent.get("view") != self.view:
            return None
        col = sent.get("col")
        return col if index_below(col, self.matrix.shape[1]) else None

    def reveal(self, guess: int) -> str:
        """The answer beside the prediction, with both values as the view draws them."""
        values, row = np.asarray(self.matrix, dtype=float)[self.row], self.row
        blocked = None if self.blocked is None else np.asarray(self.blocked, bool)[row]
        if blocked is not None and blocked.all():
            return (
                f"Every cell of row {self.row_labels[row]} of “{self.title}” is masked, so none is the largest. A "
                "change asks again."
            )
        best = row_answer(self.matrix, self.blocked, row)
        masked = blocked is not None and bool(blocked[guess])
        said = format_cells(values[[guess, best]], weights=self.weights)
        yours = "masked" if masked else said[0]
        verdict = "Right" if guess == best or (not masked and values[guess] == values[best]) else "Not this time"
        return (
            f"{verdict}: you predicted {self.col_labels[guess]} ({yours}); the largest in row {self.row_labels[row]} "
            f"of “{self.title}” is {self.col_labels[best]}: {said[1]}. A change asks again."
        )


@dataclass(frozen=True)
class ChoiceQuestion:
    """A guided page's question with a few answers (Why we scale, Multi-head): asked before the move it is about,
    its ``right`` answer and its ``why`` worked out from the page's numbers by whoever makes it."""

    page: str
    name: str
    asked: str
    choices: tuple[str, ...]
    right: int  # the index of the answer the numbers give
    why: str  # what the numbers show, said once the student has answered

    @property
    def key(self) -> tuple:
        return (self.page, self.name)

    def cover(self) -> str:
        return self.asked

    def answer(self, sent) -> int | None:
        return sent if index_below(sent, len(self.choices)) else None

    def reveal(self, guess: int) -> str:
        verdict = "Right" if guess == self.right else "Not this time"
        return f"{verdict}: you predicted “{self.choices[guess]}”. {self.why}"


def row_answer(matrix, blocked, row: int) -> int:
    """The column of the largest value in ``row`` of ``matrix`` (rows, cols), never a ``blocked`` (masked) cell."""
    values = np.asarray(matrix, dtype=float)[row]
    if blocked is not None:
        values = np.where(np.asarray(blocked, bool)[row], -np.inf, values)
    return int(np.argmax(values))


def stage_target(stage) -> int:
    """The panel a Step by step stage's prediction is about: its first result (the first panel that is not an input)."""
    return next(k for k, panel in enumerate(stage.panels) if not panel.is_input)


def stage_question(page: str, stage, query: int) -> RowQuestion:
    """A stage's question: which cell of the query's row of its first result is the largest."""
    target = stage_target(stage)
    panel = stage.panels[target]
    return RowQuestion(
        page,
        f"{stage.key}-{target}",  # its picture's name (attnviz.figures.stages)
        query,
        panel.matrix,
        panel.blocked,
        panel.row_labels,
        panel.col_labels,
        panel.title,
        weights=panel.kind == "weights",
    )
