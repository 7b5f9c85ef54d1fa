"""What a challenge is: a goal on the real state of a page, checked by the core's numbers (never by matching text),
a hint for after a miss, and a solution that can be played as moves (attnviz.lessons.challenges lists them).

A situation is the Playground's state and one page's own settings (as a share link carries them). A challenge starts
from a situation, says when a situation solves it, and plays its solution as a list of situations, one a move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from attnviz.core.limits import VALUE_LIMIT
from attnviz.core.playground_state import PlaygroundState

ONE_HOT = 0.99  # a row is one-hot when its largest weight is at least this


@dataclass(frozen=True)
class Situation:
    state: PlaygroundState
    settings: dict  # the challenge's page's own settings, by name


@dataclass(frozen=True)
class Challenge:
    key: str
    page: str
    goal: str
    hint: str
    start: Callable[[], Situation]
    solved: Callable[[Situation], bool]
    solution: Callable[[Situation], list[tuple[str, Situation]]]  # (what the move does, the situation after it)


def edit(state: PlaygroundState, cells: dict[tuple[str, int, int], float]) -> PlaygroundState:
    """``state`` with ``cells`` ((matrix, row, column) → value) typed in, as the tables would."""
    edits = dict(state.edits) | {
        cell: float(np.clip(value, -VALUE_LIMIT, VALUE_LIMIT)) for cell, value in cells.items()
    }
    return replace(state, edits=tuple(sorted(edits.items())))


def edited(state: PlaygroundState, matrices: str) -> bool:
    """Whether any cell outside ``matrices`` (e.g. "K") was typed in."""
    return any(matrix not in matrices for (matrix, _, _), _ in state.edits)


def at(situation: Situation, state: PlaygroundState | None = None, **settings) -> Situation:
    return Situation(state or situation.state, situation.settings | settings)
