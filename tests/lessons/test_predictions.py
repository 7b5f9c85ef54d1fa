"""Predict mode's questions (attnviz/lessons/predictions.py): each answer checked against the naive reference's
weights, and each reveal quoting the numbers that decide it."""

from dataclasses import replace

import numpy as np
import pytest

from attnviz import AttnvizInputError
from attnviz.core.playground_state import PlaygroundState, load_example
from attnviz.lessons.playground import OPENING
from attnviz.lessons.predictions import (
    KINDS,
    PlaygroundQuestion,
    choices,
    kind_of,
    marked,
    option_of,
    options,
    outcome,
    prompt,
    right_answer,
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
    assert [kind_of(v) for v in (True, False, "", "most", "sharper", "zeroed")] == [
        "most",
        "",
        "",
        "most",
        "sharper",
        "zeroed",
    ]
    for bad in (0, 1, 4, -1, "all", None, 1.0):  # the rail sends a kind, never its position
        with pytest.raises(AttnvizInputError, match="predict mode is not one of its questions"):
            kind_of(bad)
    assert list(KINDS) == ["", "most", "sharper", "zeroed"]


def test_most_is_the_largest_weight_of_the_focus_row():
    state = replace(OPENING, predict="most")  # “good” (4) attends to “not” (3), 0.67
    assert right_answer(state) == int(np.argmax(weights_of(state)[4])) == 3 and outcome(state) == state
    assert PlaygroundQuestion(state).reveal(3).startswith(
        "Right: you predicted “not” (3), outlined in view 3. “good” attends most to “not” (3), weight 0.67"
    )
    assert PlaygroundQuestion(state).answer({"row": 4, "col": 3}) == 3 and PlaygroundQuestion(state).answer({"row": 4, "col": 12}) is None


def test_switching_scaling_off_sharpens_the_row_and_the_reveal_says_by_how_much():
    state = replace(OPENING, predict="sharper")  # d_k = 2: the scores move √2 apart
    after = outcome(state)
    assert after.scale is False and choices(state) == ["Sharper", "Flatter", "No change"]
    before_row, after_row = weights_of(state)[4], weights_of(after)[4]
    assert entropy(after_row) < entropy(before_row) and right_answer(state) == 0  # sharper
    said = PlaygroundQuestion(state).reveal(0)
    assert PlaygroundQuestion(state).cover() == "If scaling were switched off (÷ √d_k = ÷ 1.41), would “good”'s row get sharper or flatter?"
    assert said.startswith("You predicted sharper: right. Without ÷ √d_k the row has every score 1.41× further apart")
    assert f"“not” {before_row[3]:.2f} → {after_row[3]:.2f}" in said
    assert f"{entropy(before_row):.2f} → {entropy(after_row):.2f} bits" in said
    assert PlaygroundQuestion(state).reveal(1).startswith("You predicted flatter: not this time.")
    switched_on = replace(after, predict="sharper")  # the other way round: scaling on flattens
    assert right_answer(switched_on) == 1 and PlaygroundQuestion(switched_on).cover().startswith("If scaling were switched on")
    assert right_answer(replace(state, d_k=1, edits=())) == 2  # ÷ √1 changes nothing
    assert PlaygroundQuestion(state).answer({"choice": 1}) == 1 and PlaygroundQuestion(state).answer({"choice": 3}) is None
    assert PlaygroundQuestion(state).answer({"choice": True}) is None and PlaygroundQuestion(state).answer({"row": 4, "col": 3}) is None


def test_the_mask_question_is_answered_by_a_set_and_judged_right_exactly_when_it_is_the_masks():
    state = replace(OPENING, predict="zeroed", blocked_keys=(5,))  # “good” (4): “,” (5) is already blocked
    after = outcome(state)
    dropped = np.flatnonzero((weights_of(state)[4] > 0) & (weights_of(after)[4] == 0))
    assert after.causal and right_answer(state) == tuple(dropped) == tuple(range(6, 12))  # every later key, at once
    assert PlaygroundQuestion(state).cover().startswith("If the causal mask were switched on, which keys would it set to 0 in “good”'s row?")
    assert prompt(state).startswith("Predict first. If the causal mask were switched on")
    keys = ()
    for col in (6, 7, 3, 8, 9, 10, 11, 3):  # “not” (3) picked, then taken back
        keys = PlaygroundQuestion(state, keys).picked({"row": 4, "col": col})
    assert keys == tuple(range(6, 12)) and choices(state, keys)[0].startswith("Check: “but” (6), “the” (7)")
    assert PlaygroundQuestion(state, keys).answer({"choice": 0}) == keys and PlaygroundQuestion(state, keys).answer({"choice": 1}) is None
    assert marked(state, None, keys) == [(4, j, 1, 1) for j in range(6, 12)]
    said = PlaygroundQuestion(state).reveal(keys)
    assert said.startswith("You predicted “but” (6), “the” (7), “soundtrack” (8), “was” (9), “amazing” (10), “.” "
                           "(11) (outlined in view 3): right. The causal mask hides every key after the query (4), "
                           "so switching it sets to 0")  # fmt: skip
    assert "all 6 at once" in said and "the first" not in said
    assert "“,” (5): a blocked key, so its weight is 0 with the mask on or off." in said
    wrong = PlaygroundQuestion(state).reveal((5, 6))
    assert "not this time" in wrong and "left out “the” (7)" in wrong and "does not change “,” (5)" in wrong


def test_the_last_token_and_a_row_whose_later_keys_are_blocked_lose_nothing_to_the_mask():
    street = replace(OPENING, sentence="The cat crossed the street because it was tired", focus=4, predict="zeroed")
    assert right_answer(street) == (5, 6, 7, 8)  # every later key, with no "first"
    clicked = PlaygroundQuestion(street).reveal((6,))
    assert "not this time" in clicked and "the first" not in clicked and "key(s)" not in clicked
    because = replace(street, focus=5, sentence="The cat crossed the street because it", blocked_keys=(6,))
    assert right_answer(because) == ()  # “it” (6) is later, but blocked already
    for guess, verdict in (((6,), "not this time"), ((), "right")):
        said = PlaygroundQuestion(because).reveal(guess)
        assert f": {verdict}. Every key after “because” (5) is blocked already" in said
        assert "“it” (6): a blocked key" in said and "hides only later keys" not in said
    last = replace(street, focus=8)
    assert right_answer(last) == () and PlaygroundQuestion(last).answer({"choice": 0}) == ()
    assert PlaygroundQuestion(last).reveal(()).startswith("You predicted none (outlined in view 3): right. No key comes")
    off = replace(street, causal=True)  # switched off: the same keys come back
    assert right_answer(off) == (5, 6, 7, 8) and PlaygroundQuestion(off).cover().startswith("If the causal mask were switched off")
    assert "brings back from 0" in PlaygroundQuestion(off).reveal((5, 6, 7, 8))


def test_a_reveal_quotes_its_scores_at_one_precision():
    """"7.071" beside "4.95" in one sentence; both as view 2 prints them now."""
    state = replace(load_example(PlaygroundState(), "pronoun_it"), predict="most")
    said = PlaygroundQuestion(state).reveal(1)
    assert "because its score 7.07 is the largest “it” may use (“street”: 4.95)" in said


def test_a_class_counts_the_mask_question_as_the_masks_set_or_another():
    state = replace(OPENING, predict="zeroed")
    assert options(state) == ["Exactly the keys the mask sets to 0", "Another set of keys"]
    assert option_of(state, tuple(range(5, 12))) == 0 and option_of(state, (5,)) == 1 and option_of(state, ()) == 1
