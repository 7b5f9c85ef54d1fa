"""show_model() as a notebook user calls it: a model's folder (here the tiny Llama of tests/fixtures) opens on the
documented sentence, layer and head when only the model is named, on the ones given otherwise, and a folder that
holds no model is refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from attnviz.core.errors import AttnvizInputError
from attnviz.lessons.real_model import visible_token
from attnviz.models import load_model
from attnviz.notebook import show_model

TINY = str(Path(__file__).parents[1] / "fixtures" / "tiny_models" / "llama")
SENTENCE = "The animal didn't cross the street because it was too tired."


def caption(widget) -> str:
    return json.loads(widget._data)["caption"]


def test_a_model_named_alone_shows_the_first_head_on_the_documented_sentence():
    widget = show_model(TINY)
    run = load_model(TINY).run(SENTENCE)
    assert list(widget.state.tokens) == [visible_token(t) for t in run.tokens] and len(run.tokens) > 10
    np.testing.assert_allclose(widget.result.weights, run.attention[0, 0], atol=1e-6)
    assert caption(widget).startswith(f"{TINY}, layer 1, head 1: a click")
    assert widget.state.causal is True  # a decoder's head keeps its mask


def test_the_sentence_layer_and_head_given_are_the_ones_shown():
    widget = show_model(TINY, "The cat sat.", layer=1, head=3)
    run = load_model(TINY).run("The cat sat.")
    assert list(widget.state.tokens) == [visible_token(t) for t in run.tokens]
    np.testing.assert_allclose(widget.result.weights, run.attention[1, 3], atol=1e-6)
    assert caption(widget).startswith(f"{TINY}, layer 2, head 4: a click")
    only_head = show_model(TINY, "The cat sat.", head=2)  # the layer left to its default: the first
    np.testing.assert_allclose(only_head.result.weights, run.attention[0, 2], atol=1e-6)


def test_a_folder_without_a_model_is_refused_in_one_line(tmp_path):
    with pytest.raises(AttnvizInputError, match=r"has no config\.json") as refused:
        show_model(str(tmp_path))
    assert "\n" not in str(refused.value)
