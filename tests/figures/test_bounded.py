"""The heaviest figures grow with their cells and nothing else.

Built at 32 and at 128 tokens with every option that adds ink (causal mask, blocked keys, a focus row, changed
cells, 32 heads), and checked by what was built: one entry a cell, a fixed number of traces and shapes, a bounded
number of bytes a cell. A return of one-shape-per-cell drawing, or of work per cell that grows with n,
fails here without timing anything (times are measured in bench/worst.py).
"""

import json
from dataclasses import replace

import numpy as np
import pytest

from attnviz import multi_head_attention
from attnviz.core.limits import MAX_D_MODEL, MAX_DIM
from attnviz.core.playground_state import PlaygroundState
from attnviz.core.random import random_embeddings, random_projections
from attnviz.figures import multi_head as multi_head_figures
from attnviz.figures.matrix_view import (
    CHANGED_LIMIT,
    PACKED_STEPS,
    TEXT_LIMIT,
    colour_positions,
    hover_numbers,
    packed_numbers,
    packed_positions,
)
from attnviz.lessons.multi_head import MultiHead, Setup
from attnviz.playground.views import playground_views

SIZES = (32, 128)
BYTES_PER_CELL = 25  # about 15 now: a colour position and a hover number a cell, text only where it fits


def heaviest_state(n: int) -> tuple[PlaygroundState, PlaygroundState]:
    """(state, the state before the last move) at n tokens, d_k = d_v = 64, with everything that adds ink."""
    state = PlaygroundState(
        sentence=" ".join(f"word{i}" for i in range(n)),
        d_k=MAX_DIM,
        d_v=MAX_DIM,
        causal=True,
        blocked_keys=tuple(range(0, n, 3)),
        focus=n // 2,
    )
    return state, replace(state, causal=False)  # the mask just went on: about half the cells changed


@pytest.fixture(scope="module", params=SIZES)
def views(request):
    n = request.param
    state, previous = heaviest_state(n)
    return n, state, {view["name"]: view for view in playground_views(state, previous)}


def test_playground_views_send_one_entry_a_cell_and_nothing_per_masked_cell_beyond_it(views):
    n, state, by_name = views
    widths = {"scores": n, "scaled": n, "weights": n, "output": MAX_DIM}
    assert list(by_name) == list(widths)
    blocked = state.result().blocked
    for name, view in by_name.items():
        cells = n * widths[name]
        assert len(colour_positions(view)) == len(hover_numbers(view)) == cells, name
        masked = {k for k, colour in enumerate(colour_positions(view)) if colour is None}
        assert masked == (set(np.flatnonzero(blocked).tolist()) if name in ("scaled", "weights") else set()), name
        assert view["focus"] == n // 2 and len(view["rows"]) == n, name
        # The causal mask just went on and changed thousands of cells: too many to box, so none is (the line under
        # the views says it).
        assert view["changed"] == [], name


def test_a_few_changed_cells_are_boxed_at_any_size():
    n = 128
    state = PlaygroundState(sentence=" ".join(f"w{i}" for i in range(n)), focus=5)
    edited = replace(state, edits=((("Q", 5, 0), 2.5),))  # one query row: one row of scores and weights changes
    weights = playground_views(edited, state)[2]
    assert weights["changed"] == [5 * n + j for j in range(n)]
    assert len(weights["changed"]) <= CHANGED_LIMIT


def test_playground_views_leave_cell_text_out_above_the_text_limit(views):
    n, _, by_name = views
    for view in by_name.values():
        assert (view["text"] == []) == (n > TEXT_LIMIT)


def test_playground_views_cost_a_bounded_number_of_bytes_a_cell(views):
    n, _, by_name = views
    cells = 3 * n * n + n * MAX_DIM
    size = sum(len(json.dumps(view, ensure_ascii=False)) for view in by_name.values())
    assert size <= BYTES_PER_CELL * cells, f"{size / cells:.0f} bytes a cell"


# ----------------------------------------------------------------------------- multi-head


@pytest.mark.parametrize("n", SIZES)
def test_multi_head_views_send_each_cell_once_whatever_the_size(n):
    X = random_embeddings(n, MAX_D_MODEL, 0)  # (n, d_model)
    W_q, W_k, W_v, W_o = random_projections(MAX_D_MODEL, 0)
    result = multi_head_attention(X, W_q, W_k, W_v, W_o, MAX_D_MODEL, causal=True)
    lesson = MultiHead(X, W_q, W_k, W_v, W_o, result, Setup(MAX_D_MODEL, MAX_D_MODEL, 0, True, False))
    labels = [f"{i}: word{i}" for i in range(n)]
    for head in multi_head_figures.head_maps(lesson, labels):
        assert len(colour_positions(head)) == len(hover_numbers(head)) == n * n and head["text"] == []  # above the text limit
        assert colour_positions(head).count(None) == n * (n - 1) // 2 and head["boxes"] == [] and head["changed"] == []
    concat, _, _ = multi_head_figures.mixing_maps(lesson, labels)
    assert len(colour_positions(concat)) == n * MAX_D_MODEL and concat["groups"] == [1, 1]  # d_head = 1: a line a column


def test_a_large_views_hover_numbers_are_packed_as_their_distinct_texts_and_a_code_a_cell():
    """tests/js/colour.test.mjs decodes the same bytes in the browser's code."""
    packed = packed_numbers(["0.1", "", "0.1", "−2"])
    assert packed == {"words": ["0.1", "", "−2"], "codes": "AAABAAAAAgA="}
    assert hover_numbers({"numbers": packed}) == ["0.1", "", "0.1", "−2"]
    assert hover_numbers({"numbers": ["a", "b"]}) == ["a", "b"]  # a small view's list, as it is
    n = TEXT_LIMIT + 1
    state = PlaygroundState(sentence=" ".join(f"w{i}" for i in range(n)), causal=True)
    weights = playground_views(state)[2]
    assert set(weights["numbers"]) == {"words", "codes"} and len(hover_numbers(weights)) == n * n
    masked = state.result().blocked.ravel()
    assert {hover_numbers(weights)[k] for k in np.flatnonzero(masked)} == {""}
    shown = [float(t.replace("−", "-")) for t in np.array(hover_numbers(weights))[~masked]]
    np.testing.assert_allclose(shown, state.result().weights.ravel()[~masked], rtol=0.5e-2, atol=0)


def test_a_large_views_colours_are_packed_and_decode_to_within_a_step():
    """Above the text limit a view's colours travel as one base64 string of 16-bit codes (tests/js/colour.test.mjs
    decodes the same bytes in the browser's code)."""
    positions = np.array([[np.nan, 0.0], [1.0, 0.123456]])  # (2, 2), one cell masked
    packed = packed_positions(positions, np.isnan(positions), (0.0, 1.0))
    assert packed.startswith("AAABAP//")  # codes 0 (masked), 1 (the bottom), 65535 (the top)
    decoded = colour_positions({"colour": packed, "range": [0.0, 1.0]})
    assert decoded[:3] == [None, 0.0, 1.0] and abs(decoded[3] - 0.123456) <= 0.5 / PACKED_STEPS
    n = TEXT_LIMIT + 1
    state = PlaygroundState(sentence=" ".join(f"w{i}" for i in range(n)), causal=True)
    weights = playground_views(state)[2]
    assert isinstance(weights["colour"], str)
    np.testing.assert_allclose(
        [np.nan if p is None else p for p in colour_positions(weights)],
        np.where(state.result().blocked, np.nan, state.result().weights).ravel(),
        atol=0.5 / PACKED_STEPS,
    )
