"""The one table of the Playground's fields (attnviz.playground.controls): every field a user sets has one entry,
and a notebook, a share link and the app's widgets refuse a bad value in that entry's words."""

import dataclasses

import pytest

from attnviz.classroom.share import decode
from attnviz.core.errors import AttnvizInputError
from attnviz.core.playground_state import PlaygroundState
from attnviz.notebook.playground import FIELDS, moved
from attnviz.playground.controls import CONTROLS, SETTINGS, set_field
from tests.classroom.test_share import BAD_SETTING, pack

WIRE_KEYS = {"seed": "r", "d_k": "k", "d_v": "v", "sentence": "s", "example": "x"}


def test_every_field_a_user_sets_has_one_entry():
    held = {field.name for field in dataclasses.fields(PlaygroundState)}
    derived = {"source", "edits", "model_tokens"}  # the example names the source; cells and a model's tokens: not set
    assert set(CONTROLS) | set(SETTINGS) == held - derived | {"example"} == set(FIELDS)
    assert not set(CONTROLS) & set(SETTINGS)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("seed", -1, "the seed must be a whole number from 0 to 2,147,483,647, not -1."),
        ("d_k", 0, "d_k (the query and key size) must be a whole number from 1 to 64, not 0."),
        ("d_v", 65, "d_v (the value size) must be a whole number from 1 to 64, not 65."),
        ("sentence", 3, "the sentence is not text."),
        ("sentence", "a" * 5_001, "the sentence is 5,001 characters long; the limit is 5,000."),
        ("example", "transformer", "the example must be one of random, words, movie_negation, pronoun_it, cat_sat, "
                                   "notebook_causal, identical_keys, causal_movie, not 'transformer'."),
    ],
)  # fmt: skip
def test_a_bad_value_is_refused_in_the_same_words_everywhere(field, value, words):
    state = PlaygroundState()
    for host in (set_field, moved):  # the app's widgets and controls, and a notebook
        with pytest.raises(AttnvizInputError) as refused:
            host(state, field, value)
        assert str(refused.value) == words
    with pytest.raises(AttnvizInputError) as refused:
        decode(pack({WIRE_KEYS[field]: value}))
    assert str(refused.value) == f"{BAD_SETTING}: {words}"


def test_each_setting_makes_its_own_move():
    state = PlaygroundState()
    assert set_field(state, "d_k", 2)[0].matrices()[0].shape == (state.n, 2)
    assert set_field(state, "seed", 7)[0].seed == 7
    assert set_field(state, "example", "cat_sat")[0].sentence != state.sentence
    assert set_field(state, "sentence", "Dogs bark.") == (
        dataclasses.replace(state, sentence="Dogs bark.", focus=2),
        None,
    )
