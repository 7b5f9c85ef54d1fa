"""What the Playground says (attnviz/lessons/playground.py), for every field of the state."""

import dataclasses

from attnviz.core.playground_state import PlaygroundState
from attnviz.lessons.playground import undone_line
from attnviz.lessons.predictions import reveal


def test_undo_has_words_for_every_field_of_the_state():
    start = PlaygroundState()
    changed = {
        "sentence": "A cat.",
        "source": "words",
        "seed": 7,
        "d_k": 3,
        "d_v": 3,
        "causal": True,
        "scale": False,
        "temperature": 0.5,
        "blocked_keys": (1,),
        "focus": 2,
        "predict": "most",
        "edits": ((("Q", 0, 0), 1.0),),
        "model_tokens": ("a", "b"),
    }
    assert set(changed) == {field.name for field in dataclasses.fields(PlaygroundState)}  # a new field needs words
    for field, value in changed.items():
        assert undone_line(dataclasses.replace(start, **{field: value}), start) != "Undone: nothing had changed.", field


def test_a_masked_prediction_is_told_it_is_masked():
    state = dataclasses.replace(PlaygroundState(), causal=True, predict="most")  # row 4 may not see key 7
    said = reveal(state, state, 7)
    assert said.startswith("Not this time: you predicted “the” (7).") and "“the” is masked, so its weight is 0" in said
