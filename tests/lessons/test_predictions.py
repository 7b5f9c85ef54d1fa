"""Predict mode's questions (attnviz/lessons/predictions.py): each answer checked against the naive reference's
weights, and each reveal quoting the numbers that decide it."""

from dataclasses import replace

import numpy as np
import pytest

from attnviz import AttnvizInputError
from attnviz.lessons.playground import OPENING
from attnviz.lessons.predictions import (
    KINDS,
    NO_KEY,
    answer,
    choices,
    cover,
    guess_of,
    kind_of,
    outcome,
    prompt,
    reveal,
)
from tests.reference import naive_attention


def weights_of(state) -> np.ndarray:
    Q, K, V = state.matrices()
    allowed = [[j not in state.blocked_keys for j in range(state.n)] for _ in range(state.n)]
    _, weights, _ = naive_attention(
        Q.tolist(), K.tolist(), V.tolist(), causal=state.causal, scale=state.scale, allowed=allowed
    )
    return np.array(weights)


def entropy(row) -> float:
    row = row[row > 0]
    return float(-(row * np.log2(row)).sum())


def test_kinds_come_from_links_old_and_new_and_from_the_rail():
    assert [kind_of(v) for v in (True, False, 0, 1, 2, 3, "sharper")] == [
        "most",
        "",
        "",
        "most",
        "sharper",
        "zeroed",
        "sharper",
    ]
    for bad in (4, -1, "all", None, 1.0):
        with pytest.raises(AttnvizInputError, match="predict mode is not one of its questions"):
            kind_of(bad)
    assert list(KINDS) == ["", "most", "sharper", "zeroed"]


def test_most_is_the_largest_weight_of_the_focus_row():
    state = replace(OPENING, predict="most")  # “good” (4) attends to “not” (3), 0.67
    assert answer(state) == int(np.argmax(weights_of(state)[4])) == 3 and outcome(state) == state
    assert reveal(state, state, 3).startswith(
        "Right: you predicted “not” (3). “good” attends most to “not” (3), weight 0.67"
    )
    assert guess_of(state, {"row": 4, "col": 3}) == 3 and guess_of(state, {"row": 4, "col": 12}) is None


def test_switching_scaling_off_sharpens_the_row_and_the_reveal_says_by_how_much():
    state = replace(OPENING, predict="sharper")  # d_k = 2: the scores move √2 apart
    after = outcome(state)
    assert after.scale is False and choices(state) == ["Sharper", "Flatter", "No change"]
    before_row, after_row = weights_of(state)[4], weights_of(after)[4]
    assert entropy(after_row) < entropy(before_row) and answer(state) == 0  # sharper
    said = reveal(state, after, 0)
    assert said.startswith("You predicted sharper: right. Without ÷ √d_k the row has every score 1.414× further apart")
    assert f"“not” {before_row[3]:.2f} → {after_row[3]:.2f}" in said
    assert f"{entropy(before_row):.2f} → {entropy(after_row):.2f} bits" in said
    assert reveal(state, after, 1).startswith("You predicted flatter: not this time.")
    switched_on = replace(after, predict="sharper")  # the other way round: scaling on flattens
    assert answer(switched_on) == 1 and cover(switched_on).startswith("Scaling on: will “good”'s row")
    assert answer(replace(state, d_k=1, edits=())) == 2  # ÷ √1 changes nothing
    assert guess_of(state, {"choice": 1}) == 1 and guess_of(state, {"choice": 3}) is None
    assert guess_of(state, {"choice": True}) is None and guess_of(state, {"row": 4, "col": 3}) is None


def test_the_causal_mask_zeroes_every_key_after_the_query_and_the_first_is_the_answer():
    state = replace(OPENING, predict="zeroed", blocked_keys=(5,))  # “good” (4): “,” (5) is already blocked
    after = outcome(state)
    assert after.causal and answer(state) == 6  # the first key that drops to 0: “but”
    dropped = np.flatnonzero((weights_of(state)[4] > 0) & (weights_of(after)[4] == 0))
    assert dropped.tolist() == list(range(6, 12)) and dropped[0] == answer(state)
    said = reveal(state, after, 6)
    assert said.startswith("You predicted “but” (6): right. The causal mask hides every key after the query (4), so 6")
    last = replace(state, focus=11)  # the last token loses nothing: a click on its row label says "none"
    assert answer(last) == NO_KEY and guess_of(last, {"row": 11, "col": None}) == NO_KEY
    assert reveal(last, outcome(last), NO_KEY).startswith("You predicted none: right.")
    assert prompt(state).startswith("Predict first: switch the causal mask on. Which key of “good”'s row")
