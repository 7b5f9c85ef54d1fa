"""attnviz.notebook's Playground without a browser: its traits are the state's fields, a trait set from Python makes
the app's move, the widget's events make the same moves, and a bad value is refused with the state kept."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys

import numpy as np
import pytest

import attnviz
from attnviz.core.errors import AttnvizInputError
from attnviz.core.numbers import format_fixed_numbers
from attnviz.lessons.playground import OPENING
from attnviz.notebook import FIELDS, Playground


def sent(widget) -> dict:
    """The component's data as the browser gets it."""
    return json.loads(widget._data)


def click(widget, name, value) -> None:
    """What widget.js sends for a control's change (``name`` a field or Undo), a click on a cell of row ``value``
    (``name`` "cell") or a click on a covered view (``name`` "guess"), counted as widget.js counts."""
    event = (
        {"cell": {"view": "weights", "row": value, "col": 0}}
        if name == "cell"
        else ({"guess": value} if name == "guess" else {"control": name, "value": value})
    )
    widget._event = {"event": event, "count": next(_COUNT)}


_COUNT = itertools.count(1)


def test_it_works_where_streamlit_cannot_be_imported():
    code = (
        "import sys; sys.modules['streamlit'] = None\n"  # any `import streamlit` now raises ImportError
        "from attnviz.notebook import Playground, show\n"
        "w = Playground(); w.causal = True; print(w.state.causal, len(w._data) > 1000)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "True True"), done.stderr


def test_its_traits_are_the_state_fields_under_their_own_names():
    widget = Playground()
    assert widget.state == OPENING
    assert {field: getattr(widget, field) for field in FIELDS} == {
        "seed": 42, "example": "movie_negation", "sentence": OPENING.sentence, "d_k": OPENING.d_k, "d_v": OPENING.d_v,
        "causal": False, "scale": True, "temperature": 1.0, "blocked_keys": [], "focus": OPENING.focus, "predict": "",
    }  # fmt: skip


def test_causal_true_gives_exactly_the_cores_causal_weights():
    widget = Playground()
    widget.causal = True
    Q, K, V = widget.state.matrices()
    expected = attnviz.attention(Q, K, V, causal=True)  # no key blocked, scaled, temperature 1: the defaults
    np.testing.assert_array_equal(widget.result.weights, expected.weights)
    assert np.all(np.triu(widget.result.weights, 1) == 0) and widget.state.causal is True
    weights_view = sent(widget)["views"][2]
    n = widget.state.n
    assert [weights_view["text"][i * n + j] for i in range(n) for j in range(i + 1, n)] == ["0"] * (n * (n - 1) // 2)


def test_a_negative_temperature_is_refused_said_in_the_widget_and_the_state_kept():
    widget = Playground(temperature=0.5)
    before = widget.state
    with pytest.raises(AttnvizInputError, match=r"temperature must be from 0\.1 to 5, not -1"):
        widget.temperature = -1.0
    assert widget.state == before and widget.temperature == 0.5
    assert "temperature must be from 0.1 to 5, not -1" in sent(widget)["warning"]
    widget.temperature = 2.0  # the next good value clears the message
    assert widget.state.temperature == 2.0 and "temperature" not in sent(widget)["warning"]


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("sentence", "   ", "the sentence has no words or punctuation to attend over; it needs at least one word."),
        ("sentence", "?!", "the sentence has only punctuation; it needs at least one word."),
        ("sentence", 3, "the sentence is not text"),
        ("d_k", 0, "d_k (the query and key size) must be a whole number from 1 to 64"),
        ("seed", -1, "seed must be a whole number from 0"),
        ("focus", 99, "focus token must be a whole number from 0 to 11, not 99"),
        ("causal", "yes", "not on or off"),
        ("example", "no such example", "the example must be one of random, words"),
    ],
)
def test_every_bad_value_is_refused_and_the_last_good_state_kept(field, value, words):
    widget = Playground(causal=True)
    before = widget.state
    with pytest.raises(AttnvizInputError, match=re.escape(words)):
        setattr(widget, field, value)
    assert widget.state == before and getattr(widget, field) == getattr(Playground(causal=True), field)


def test_a_bad_setting_refuses_the_widget():
    with pytest.raises(AttnvizInputError, match="temperature"):
        Playground(temperature=9)
    with pytest.raises(TypeError, match="not colour"):
        Playground(colour="red")


def test_a_new_sentence_moves_the_traits_it_changes():
    widget = Playground(blocked_keys=[7], focus=9)
    widget.sentence = "The cat sat."
    assert widget.state.tokens == ("The", "cat", "sat", ".")
    assert (widget.blocked_keys, widget.focus) == ([], 3)  # fitted to four tokens, as the app does
    assert sent(widget)["controls"][5]["options"] == ["0: The", "1: cat", "2: sat", "3: ."]


def test_an_example_sets_the_fields_it_owns():
    widget = Playground(example="words", seed=7, sentence="a b a")
    assert widget.state.example == "words" and widget.seed == 7
    Q, _, _ = widget.state.matrices()
    np.testing.assert_array_equal(Q[0], Q[2])  # the same word, the same vectors


def test_a_control_in_the_widget_updates_the_traits_and_undo_takes_it_back():
    widget = Playground()
    click(widget, "causal", True)
    click(widget, "blocked_keys", [3, 1])
    click(widget, "cell", 2)  # a click on row 2's cell
    assert (widget.causal, widget.blocked_keys, widget.focus) == (True, [1, 3], 2)
    assert sent(widget)["controls"][-1] == {"kind": "button", "field": "undo", "label": "Undo", "disabled": False}
    click(widget, "undo", True)
    assert widget.focus == OPENING.focus and widget.blocked_keys == [1, 3]
    assert sent(widget)["warning"].startswith("Undone")


def test_a_bad_value_from_the_widget_is_said_there_and_changes_nothing():
    widget = Playground()
    click(widget, "temperature", 50)
    assert widget.state == OPENING and "temperature" in sent(widget)["warning"]
    widget._event = {"value": True}  # no event: nothing happens
    assert widget.state == OPENING
    click(widget, "sentence", "typed")  # a field that is no control beside the views
    assert widget.state == OPENING
    click(widget, "cell", 999)  # a row past the sentence
    assert widget.state == OPENING


def test_a_change_to_most_cells_is_said_in_words_and_boxes_none():
    widget = Playground()
    widget.causal = True
    data = sent(widget)
    n = widget.state.n
    was, now = (format_fixed_numbers(s.result().weights.ravel(), decimals=2) for s in (OPENING, widget.state))
    masked = widget.state.result().blocked.ravel()  # a 0.00 now masked is drawn grey: a change too
    moved = sum(a != b or m for a, b, m in zip(was, now, masked, strict=True))
    assert 2 * moved > n * n and data["views"][2]["changed"] == []  # most cells: a box on each would say nothing
    assert data["caption"].startswith(f"The last change moved {moved} of {n * n} weights, too many to box.")


def test_predict_mode_covers_the_weights_until_a_click_then_reveals():
    widget = Playground(predict="most")
    assert sent(widget)["views"][2]["cover"]
    click(widget, "guess", {"row": widget.focus, "col": 3})
    assert "cover" not in sent(widget)["views"][2] or not sent(widget)["views"][2]["cover"]


def test_a_setting_that_is_taken_with_a_message_says_it():
    widget = Playground(sentence=" ".join(["word"] * 130), d_k=3)
    assert widget.state.n == 128 and widget.state.d_k == 3
    assert sent(widget)["warning"] == "The sentence has 130 tokens; only the first 128 are used."


def test_the_mask_question_picks_keys_then_checks_them_in_a_notebook_too():
    widget = Playground(predict="zeroed")  # the movie example: “good” (4)
    for col in (5, 6):
        click(widget, "guess", {"row": 4, "col": col})
    weights = sent(widget)["views"][2]
    assert weights["choices"] == ["Check: “,” (5), “but” (6)"] and weights["boxes"] == [[4, 5, 1, 1], [4, 6, 1, 1]]
    click(widget, "guess", {"choice": 0})
    assert widget.state.causal and "not this time" in sent(widget)["caption"]
    assert sent(widget)["views"][2]["boxes"] == [[4, 5, 1, 1], [4, 6, 1, 1]]  # the prediction, on the reveal
