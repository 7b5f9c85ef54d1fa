"""The Playground holding a head imported from a real model (opened here through a share link, as a student would
receive one): the model's tokens and weights on every view, the example selector, and the moves away and back.

The Real model page's "Open in Playground" is tested in tests/app/test_real_model.py, with the models.
"""

import numpy as np
import pytest

from attnviz.classroom.share import decode, encode
from attnviz.core.playground_state import PlaygroundState, import_head
from attnviz.playground.session import Session
from tests.reference import naive_attention
from tests.support.apptest import (
    control_key,
    control_value,
    heatmap_cells,
    open_app,
    use_control,
    views,
    views_data,
)

TOKENS = ["[CLS]", "the", "walk", "##ing", "dog", "[SEP]"]
TITLE = "all-MiniLM-L6-v2, layer 1, head 2"


def head(n=6, d=32, seed=0):
    rng = np.random.default_rng(seed)
    return tuple((rng.standard_normal((n, d)) * 3).astype(np.float32) for _ in range(3))


@pytest.fixture
def imported():
    state = import_head(PlaygroundState(), TOKENS, *head(), causal=True, title=TITLE, sentence="the walking dog")
    at = open_app(s=encode(state))
    assert at.session_state["playground"].state == state
    return at


def test_the_views_show_the_models_tokens_and_the_heads_own_weights(imported):
    at = imported
    Q, K, V = head()
    _, weights, _ = naive_attention(Q.tolist(), K.tolist(), V.tolist(), causal=True)
    view = views(at)["weights"]
    assert view["rows"] == [f"{i}: {token}" for i, token in enumerate(TOKENS)]
    cells, masked = heatmap_cells(view)
    assert set(masked) == {(i, j) for i in range(6) for j in range(6) if j > i}  # the causal mask came with it
    for (i, j), text in cells.items():
        assert text == f"{weights[i][j]:.2f}"
    assert at.slider(key=control_key("d_k")).value == 32 and control_value(at, "causal")


def test_the_example_selector_names_the_head_and_the_note_says_whose_weights(imported):
    at = imported
    selector = at.selectbox(key=control_key("example"))
    assert selector.value == "imported" and selector.options[-1] == TITLE
    assert views_data(at)["note"].startswith(f"{TITLE}: the model's own Q, K and V")


def test_random_vectors_keep_the_tokens_and_undo_brings_the_head_back(imported):
    at = imported
    at.selectbox(key=control_key("example")).set_value("random").run()
    state = at.session_state["playground"].state
    assert state.imported is None and state.tokens == tuple(TOKENS)
    assert TITLE not in at.selectbox(key=control_key("example")).options
    use_control(at, "undo")
    assert at.session_state["playground"].state.imported is not None
    assert at.selectbox(key=control_key("example")).value == "imported"


def test_a_typed_sentence_brings_its_own_tokens(imported):
    at = imported
    at.text_input(key=control_key("sentence")).input("Dogs bark").run()
    state = at.session_state["playground"].state
    assert state.tokens == ("Dogs", "bark") and state.imported is not None
    np.testing.assert_array_equal(state.matrices()[0], head()[0][:2])


def test_a_head_too_large_for_a_link_says_so_where_the_link_would_be():
    tokens = [f"t{i}" for i in range(40)]
    state = import_head(PlaygroundState(), tokens, *head(40, 64), causal=True, title="SmolLM2-135M, layer 1, head 1")
    at = open_app(s=encode(import_head(PlaygroundState(), TOKENS, *head(), causal=True, title=TITLE)))
    at.session_state["playground"] = Session(state=state)
    use_control(at, "causal", False)
    assert any(c.value.startswith("This imported head is too large to share as a link") for c in at.caption)
    assert "s" not in at.query_params


@pytest.mark.parametrize("page", ["watch_it_learn", "geometry", "multi_head"])
def test_a_head_too_large_for_a_link_is_no_warning_on_a_page_that_does_not_show_it(page):
    """The imported head's "too large to share" warning appeared on Watch it learn, which shows no head. A
    page that does not draw the Playground's vectors is shared with the head's tokens and random vectors; the head's
    own pages still say why it has no link."""
    tokens = [f"t{i}" for i in range(40)]
    state = import_head(PlaygroundState(), tokens, *head(40, 64), causal=True, title="SmolLM2-135M, layer 1, head 1")
    at = open_app(s=encode(import_head(PlaygroundState(), TOKENS, *head(), causal=True, title=TITLE)))
    at.session_state["playground"] = Session(state=state)
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception
    assert not [c.value for c in at.caption if "too large to share" in c.value]
    shared = decode(at.query_params["s"][0] if isinstance(at.query_params["s"], list) else at.query_params["s"])
    assert shared.page == page and shared.state.imported is None and shared.state.tokens == tuple(tokens)
    at.switch_page("pages/step_by_step.py").run()
    assert any(c.value.startswith("This imported head is too large to share as a link") for c in at.caption)


def test_a_heads_link_whose_sentence_is_punctuation_opens_on_the_models_tokens():
    tokens = ["[CLS]", "?", "!", "[SEP]"]
    state = import_head(PlaygroundState(), tokens, *head(n=4), causal=False, title=TITLE, sentence="?!")
    at = open_app(s=encode(state))
    assert not at.exception and not at.error
    assert at.session_state["playground"].state == state
    assert views(at)["weights"]["rows"] == [f"{i}: {token}" for i, token in enumerate(tokens)]
