"""The notebook Playground and view-only widgets (attnviz.notebook) by what a notebook user sees: every setting given
takes effect, a prediction is asked again after any change, a trait set moves the others it changes, and a decoder's
head is drawn with its mask."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

import attnviz
from attnviz.core.errors import AttnvizInputError
from attnviz.lessons.playground import OPENING
from attnviz.notebook import FIELDS, Playground, show, show_head
from tests.models.conftest import require_package

_COUNT = itertools.count(1)


def sent(widget) -> dict:
    return json.loads(widget._data)


def send(widget, event: dict) -> None:
    widget._event = {"event": event, "count": next(_COUNT)}


def covered(widget) -> bool:
    return bool(sent(widget)["views"][2].get("cover"))


SETTINGS = {
    "seed": 7,
    "d_k": 3,
    "d_v": 2,
    "causal": True,
    "scale": False,
    "temperature": 0.5,
    "blocked_keys": [9, 1],
    "focus": 2,
    "predict": "most",
}


def test_every_setting_given_to_the_widget_takes_effect_in_its_state_its_traits_and_its_drawing():
    widget = Playground(**SETTINGS)
    state = widget.state
    assert (state.seed, state.d_k, state.d_v, state.causal, state.scale) == (7, 3, 2, True, False)
    assert (state.temperature, state.blocked_keys, state.focus, state.predict) == (0.5, (1, 9), 2, "most")
    assert {field: getattr(widget, field) for field in SETTINGS} == SETTINGS | {"blocked_keys": [1, 9]}
    Q, K, V = state.matrices()
    allowed = np.ones((state.n, state.n), dtype=bool)
    allowed[:, [1, 9]] = False  # keys 1 and 9 blocked for every query
    expected = attnviz.attention(Q, K, V, causal=True, scale=False, temperature=0.5, mask=allowed)
    np.testing.assert_array_equal(widget.result.weights, expected.weights)
    assert Q.shape == (state.n, 3) and V.shape == (state.n, 2)
    assert covered(widget) and sent(widget)["views"][0]["focus"] == 2


def test_a_sentence_given_with_an_example_is_the_sentence_shown():
    widget = Playground(example="words", sentence="a b a")
    assert widget.sentence == "a b a" == widget.state.sentence and widget.state.tokens == ("a", "b", "a")
    assert sent(widget)["views"][2]["rows"] == ["0: a", "1: b", "2: a"]


def test_a_prediction_is_asked_again_after_any_change_from_python_or_the_widget():
    widget = Playground(predict="most")
    assert covered(widget)
    send(widget, {"guess": {"view": "weights", "row": widget.focus, "col": 3}})
    assert not covered(widget)
    widget.temperature = 2.0  # a change from Python
    assert covered(widget)
    send(widget, {"guess": {"view": "weights", "row": widget.focus, "col": 3}})
    assert not covered(widget)
    send(widget, {"control": "scale", "value": False})  # a change in the widget
    assert covered(widget) and widget.scale is False


def test_a_trait_set_moves_the_other_traits_it_changes_and_keeps_the_one_set():
    widget = Playground()
    widget.example = "cat_sat"
    assert widget.example == "cat_sat" and widget.sentence == widget.state.sentence != OPENING.sentence
    assert widget.focus == widget.state.focus and widget.d_k == widget.state.d_k
    widget.blocked_keys = (2, 0)
    assert widget.blocked_keys == [0, 2] and widget.state.blocked_keys == (0, 2)


def test_a_refusal_is_said_in_the_widget_and_the_next_move_clears_it():
    widget = Playground()
    send(widget, {"control": "focus", "value": 40})
    assert sent(widget)["warning"] == "the focus token must be a whole number from 0 to 11, not 40."
    send(widget, {"control": "causal", "value": True})
    assert not sent(widget)["warning"] and widget.causal is True
    send(widget, {"control": "undo", "value": True})
    assert sent(widget)["warning"] == "Undone: the causal mask is off again." and widget.causal is False


def test_the_widget_names_every_field_it_takes_when_given_another():
    with pytest.raises(TypeError) as refused:
        Playground(colour="red", causal=True, size=3)
    assert str(refused.value) == f"Playground() takes the state's fields {', '.join(FIELDS)}; not colour, size."


def test_show_labels_rows_by_number_and_scales_unless_told_not_to():
    Q, K, V = attnviz.random_qkv(n=3, d_k=4, d_v=2, seed=3)
    widget = show(Q, K, V)
    assert sent(widget)["views"][2]["rows"] == ["0: 0", "1: 1", "2: 2"]
    assert widget.state.scale is True and widget.state.causal is False and widget.state.focus == 0
    expected = attnviz.attention(*(m.astype(np.float32) for m in (Q, K, V)))
    np.testing.assert_allclose(widget.result.weights, expected.weights, rtol=1e-12)
    assert "Your Q, K and V: a click on a cell or a row label outlines its row." in sent(widget)["caption"]


def test_a_click_on_a_row_past_the_matrix_or_on_nothing_moves_nothing():
    widget = show(*attnviz.random_qkv(n=3, d_k=2, d_v=2, seed=1), title="Mine")
    before = widget._data
    send(widget, {"cell": {"view": "weights", "row": 7, "col": 0}})
    send(widget, {"cell": 1})
    assert widget.state.focus == 0 and widget._data == before
    send(widget, {"cell": {"view": "weights", "row": 1, "col": 0}})
    assert widget.state.focus == 1 and sent(widget)["views"][2]["focus"] == 1
    assert sent(widget)["caption"].startswith("Mine: a click on a cell or a row label outlines its row.")


def test_show_head_refuses_a_layer_or_head_the_model_has_not(encoder):
    require_package("all-MiniLM-L6-v2")
    run = encoder.run("The cat sat.")
    for layer, head in ((-1, 0), (0, -1), (6, 0), (0, 12)):
        with pytest.raises(AttnvizInputError) as refused:
            show_head(run, layer, head)
        assert str(refused.value) == (
            f"all-MiniLM-L6-v2 has layers 0 to 5 and heads 0 to 11, not layer {layer}, head {head}."
        )
    widget = show_head(run, 5, 11)
    np.testing.assert_allclose(widget.result.weights, run.attention[5, 11], atol=1e-6)
    first = show_head(run, 0, 0)  # the first layer and head are heads too
    np.testing.assert_allclose(first.result.weights, run.attention[0, 0], atol=1e-6)
    assert widget.state.causal is False
    assert sent(widget)["caption"].startswith("all-MiniLM-L6-v2, layer 6, head 12: a click")


def test_a_decoders_head_is_drawn_with_its_causal_mask(decoder):
    require_package("SmolLM2-135M")
    run = decoder.run("The capital of France is")
    widget = show_head(run, 3, 2)
    assert widget.state.causal is True
    np.testing.assert_allclose(widget.result.weights, run.attention[3, 2], atol=1e-5)
    n = len(run.tokens)
    weights = sent(widget)["views"][2]
    assert [weights["text"][i * n + j] for i in range(n) for j in range(i + 1, n)] == ["0"] * (n * (n - 1) // 2)


def test_an_example_given_with_a_size_takes_the_size_as_the_settings_are_listed():
    widget = Playground(example="cat_sat", d_k=5, blocked_keys=[1])
    assert widget.state.example == "cat_sat" and widget.d_k == 5 == widget.state.matrices()[0].shape[1]
    assert widget.blocked_keys == [1]


def test_the_views_are_drawn_at_the_apps_size_in_two_columns_and_say_what_enter_does():
    drawn = [sent(show(*attnviz.random_qkv(n=3, d_k=2, d_v=2, seed=1))), sent(Playground())]
    for data in drawn:
        assert (data["height"], data["font_size"], data["columns"]) == (250, 13, [1, 1])
    assert drawn[0]["enter"] == "Enter outlines its row."
    assert drawn[0]["views"][0]["tick_font"] == drawn[1]["views"][0]["tick_font"]  # the Playground's numbers' size
