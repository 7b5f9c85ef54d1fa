"""The Playground's fields and a share link's settings, by what a user sees: a control set from any host makes its
move, the largest imported head a link may carry opens, and a refused setting names what was wrong."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from attnviz.classroom.share import decode, encode
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_TOKENS, VECTOR_LIMIT
from attnviz.core.playground_state import PlaygroundState, apply_edits, set_sentence
from attnviz.lessons.playground import OPENING
from attnviz.playground.controls import set_field
from tests.classroom.test_share import BAD_SETTING, pack
from tests.classroom.test_share_imported import head_state, unpack


def refused(link) -> str:
    with pytest.raises(AttnvizInputError) as error:
        decode(link)
    return str(error.value)


@pytest.mark.parametrize(
    ("field", "value", "after"),
    [
        ("causal", True, {"causal": True}),
        ("scale", False, {"scale": False}),
        ("temperature", 0.5, {"temperature": 0.5}),
        ("blocked_keys", [7, 2], {"blocked_keys": (2, 7)}),
        ("focus", 3, {"focus": 3}),
        ("predict", "zeroed", {"predict": "zeroed"}),
    ],
)
def test_a_control_set_by_any_host_makes_its_move_and_says_nothing(field, value, after):
    assert set_field(OPENING, field, value) == (replace(OPENING, **after), None)
    assert set_field(PlaygroundState(), field, value)[0] == replace(PlaygroundState(), **after)


def test_a_control_refuses_a_bad_value_in_its_own_words():
    with pytest.raises(AttnvizInputError, match=r"^the focus token must be a whole number from 0 to 11, not 12\.$"):
        set_field(OPENING, "focus", 12)


def test_the_longest_imported_head_a_link_holds_opens_and_one_token_more_is_refused():
    state = head_state(MAX_TOKENS, 1)  # 128 tokens, one number a vector: 384 numbers, well inside a link
    assert decode(encode(state)).state == state
    wire = unpack(encode(state))
    longer = {**wire, "m": {**wire["m"], "q": [*wire["m"]["q"], [1.0]]}}
    assert refused(pack(longer)) == f"{BAD_SETTING}: the imported Q is not a list of 1 to 128 rows."


def test_a_word_where_an_imported_number_should_be_is_named():
    wire = unpack(encode(head_state(2, 2)))
    for name in "qkv":
        bad = {**wire, "m": {**wire["m"], name: [["a", 1.0], [1.0, 1.0]]}}
        assert refused(pack(bad)) == f"{BAD_SETTING}: a number of the imported {name.upper()} is not a number."


def test_the_geometry_pages_arrows_open_at_the_edge_of_the_plot_and_not_past_it():
    edge = {"query_x": VECTOR_LIMIT, "query_y": -VECTOR_LIMIT, "key2_x": 0.5}
    view = decode(encode(OPENING, "geometry", edge))
    assert dict(view.settings) == edge and view.page == "geometry"
    wire = unpack(encode(OPENING, "geometry", edge))
    past = {**wire, "g": {**wire["g"], "value1_y": 10.5}}
    assert refused(pack(past)) == f"{BAD_SETTING}: the value1's y is 10.5, outside −10 to 10."
    word = {**wire, "g": {**wire["g"], "key0_x": "ten"}}
    assert refused(pack(word)) == f"{BAD_SETTING}: the key0's x is not a number."


@pytest.mark.parametrize(
    ("setting", "words"),
    [
        ({"layer": -1}, "the layer must be a whole number from 0 to 10,000, not -1."),
        ({"head": "\ud800"}, "the head is not valid text."),
        ({"sentence": 5}, "the real model's sentence is not text."),
    ],
)
def test_a_real_model_setting_refused_is_named(setting, words):
    wire = unpack(encode(OPENING, "real_model", {"layer": 2}))
    assert refused(pack({**wire, "g": setting})) == f"{BAD_SETTING}: {words}"


def test_a_setup_too_large_for_a_link_says_how_to_share_it_instead():
    state = set_sentence(PlaygroundState(d_k=16), " ".join(f"w{i}" for i in range(40)))[0]
    rng = np.random.default_rng(0)
    state, _ = apply_edits(
        state, "Q", {(row, col): float(rng.uniform(-3, 3)) for row in range(40) for col in range(16)}
    )
    with pytest.raises(AttnvizInputError) as error:
        encode(state)
    said = str(error.value)
    assert said.startswith("This setup is too large to share as a link (") and said.endswith(
        " characters; the limit is 6,000). A shorter sentence or fewer edited cells will fit; the export buttons "
        "save every number."
    )


@pytest.mark.parametrize("link", [None, 42, ["1.abc"]])
def test_a_link_that_is_not_text_is_damaged_in_the_same_words(link):
    assert refused(link) == (
        "This share link is damaged or incomplete, perhaps cut off when it was copied. "
        "Copy the whole link again, or ask for a new one."
    )


def test_the_hottest_temperature_is_taken_and_a_long_bad_value_is_echoed_cut_short():
    assert set_field(OPENING, "temperature", 5.0)[0].temperature == 5.0
    with pytest.raises(AttnvizInputError) as error:
        set_field(OPENING, "seed", "1234567890" * 3)
    assert str(error.value) == "the seed must be a whole number from 0 to 2,147,483,647, not 12345678901234567890."
    with pytest.raises(AttnvizInputError) as error:
        set_field(OPENING, "example", "e" * 50)
    assert str(error.value).endswith(f", not {'e' * 40!r}.")
    wire = unpack(encode(OPENING, "geometry", {"query_x": 1.0}))
    assert refused(pack({**wire, "g": {"q" * 30: 1}})) == f"{BAD_SETTING}: the page has no setting called {'q' * 20!r}."


def test_a_broken_imported_head_is_refused_in_whole_words():
    wire = unpack(encode(head_state(2, 2)))
    not_a_head = {**wire, "m": {"t": "T", "q": [[1.0]]}}
    assert refused(pack(not_a_head)) == f"{BAD_SETTING}: the imported head is not a title with Q, K and V."
    unequal = {**wire, "m": {"t": "T", "q": [[1.0]], "k": [[1.0], [2.0]], "v": [[1.0]]}}
    assert refused(pack(unequal)) == f"{BAD_SETTING}: the imported head's Q, K and V don't fit together."
    long_token = {**wire, "o": ["a" * 100, "b"]}
    assert decode(pack(long_token)).state.tokens[0] == "a" * 100
    long_title = {**wire, "m": {**wire["m"], "t": "t" * 200}}
    assert decode(pack(long_title)).state.imported.title == "t" * 200
