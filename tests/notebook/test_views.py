"""attnviz.notebook's view-only widgets: show() of any matrices, show_head() of a real model's head."""

from __future__ import annotations

import json

import numpy as np
import pytest

import attnviz
from attnviz.core.errors import AttnvizInputError
from attnviz.notebook import show, show_head
from tests.models.conftest import require_package


def test_show_draws_the_four_views_of_the_cores_numbers_and_no_controls():
    Q, K, V = attnviz.random_qkv(n=5, d_k=4, d_v=3, seed=0)
    widget = show(Q, K, V, tokens=["a", "b", "c", "d", "e"], causal=True, scale=False)
    expected = attnviz.attention(Q.astype(np.float32), K.astype(np.float32), V.astype(np.float32), causal=True, scale=False)
    np.testing.assert_allclose(widget.result.weights, expected.weights, rtol=1e-12)
    data = json.loads(widget._data)
    assert data["controls"] == [] and [view["name"] for view in data["views"]] == ["scores", "scaled", "weights", "output"]
    assert data["views"][2]["rows"] == ["0: a", "1: b", "2: c", "3: d", "4: e"] and len(data["views"][3]["ticks"]) == 3


def test_a_click_on_a_row_outlines_it_and_nothing_else_moves():
    widget = show(*attnviz.random_qkv(n=4, d_k=2, d_v=2, seed=1))
    widget._event = {"event": {"cell": {"view": "weights", "row": 2, "col": 1}}, "count": 1}
    assert widget.state.focus == 2 and json.loads(widget._data)["views"][0]["focus"] == 2
    widget._event = {"event": {"control": "causal", "value": True}, "count": 2}  # no controls: nothing to change
    assert widget.state.causal is False


def test_show_refuses_matrices_that_do_not_fit():
    Q, K, V = attnviz.random_qkv(n=3, d_k=2, d_v=2, seed=0)
    with pytest.raises(AttnvizInputError, match="3 rows of vectors but 2 tokens"):
        show(Q, K, V, tokens=["a", "b"])


def test_show_head_is_the_models_own_head(encoder):
    require_package("all-MiniLM-L6-v2")
    run = encoder.run("The animal didn't cross the street because it was too tired.")
    widget = show_head(run, 2, 5)
    assert widget.result.weights.shape == (len(run.tokens), len(run.tokens))
    np.testing.assert_allclose(widget.result.weights, run.attention[2, 5], atol=1e-6)
    assert widget.state.d_k == run.q.shape[-1] and widget.state.tokens[0] == "[CLS]"
    with pytest.raises(AttnvizInputError, match="layers 0 to 5 and heads 0 to 11"):
        show_head(run, 6, 0)
