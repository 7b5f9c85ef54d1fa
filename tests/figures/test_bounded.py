"""Issue 15: the heaviest figures grow with their cells and nothing else.

Built at 32 and at 128 tokens with every option that adds ink (causal mask, blocked keys, a focus row, changed
cells, 32 heads), and checked by what was built: one data item a cell, a fixed number of series, traces and shapes,
a bounded number of bytes a cell. A return of one-shape-per-cell drawing, or of work per cell that grows with n,
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
from attnviz.figures.attention_charts import CHANGED_LIMIT, TEXT_LIMIT, playground_views
from attnviz.figures.colours import MASKED_GREY
from attnviz.figures.heatmaps import matrix_heatmap

SIZES = (32, 128)
BYTES_PER_CELL = 100  # about 72 now: the hover sentence ("12: movie → 40: good: score −1.234") and four numbers


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


def series(option: dict) -> dict[str, list]:
    return {s["name"]: s["data"] for s in option["series"]}


@pytest.fixture(scope="module", params=SIZES)
def views(request):
    n = request.param
    state, previous = heaviest_state(n)
    return n, state, {view.name: view for view in playground_views(state, previous)}


def test_playground_views_draw_one_item_a_cell_in_four_series_at_most(views):
    n, state, by_name = views
    widths = {"scores": n, "scaled": n, "weights": n, "output": MAX_DIM}
    assert list(by_name) == list(widths)
    for name, view in by_name.items():
        cols = widths[name]
        data = series(view.option)
        assert len(view.option["series"]) <= 5, name  # cells, masked cells, focus row (2 outlines), changed cells
        blocked = np.count_nonzero(state.result().blocked) if name in ("scaled", "weights") else 0
        # Above the text limit masked cells are not sent: the grid's grey background shows where no cell is drawn.
        assert len(data[name]) == n * cols - blocked and not data["masked"], name
        assert view.option["grid"].get("backgroundColor") == (MASKED_GREY if blocked else None), name
        assert len(data["focus"]) == cols, name
        assert len(data.get("changed", [])) <= CHANGED_LIMIT, name
        width = 5 if n <= TEXT_LIMIT else 4  # [col, row, colour, text, hover], or [col, row, colour, value]
        assert all(len(item) == width for item in data[name] + data["masked"]), name
        assert len(view.cells) == len(data[name]), name


def test_playground_masks_are_the_cells_left_out_not_one_shape_a_cell(views):
    _, state, by_name = views
    blocked = state.result().blocked
    weights = series(by_name["weights"].option)
    drawn = {(row, col) for col, row, *_ in weights["weights"]}
    assert drawn == {tuple(c) for c in np.argwhere(~blocked).tolist()}  # every other cell shows the grey grid
    assert "graphic" not in by_name["weights"].option and "markArea" not in str(by_name["weights"].option)
    # The causal mask just went on and changed thousands of cells: too many to box, so none is (the caption says it).
    assert "changed" not in weights


def test_a_few_changed_cells_are_boxed_at_any_size():
    n = 128
    state = PlaygroundState(sentence=" ".join(f"w{i}" for i in range(n)), focus=5)
    edited = replace(state, edits=((("Q", 5, 0), 2.5),))  # one query row: one row of scores and weights changes
    weights = series(playground_views(edited, state)[2].option)
    assert sorted(weights["changed"]) == [[j, 5, 0] for j in range(n)]


def test_playground_views_leave_cell_text_out_above_the_text_limit(views):
    n, _, by_name = views
    for view in by_name.values():
        main = view.option["series"][0]
        assert main["label"]["show"] == (n <= TEXT_LIMIT)
        assert all(len(item) == (5 if n <= TEXT_LIMIT else 4) for item in main["data"])  # no hidden text sent


def test_playground_views_cost_a_bounded_number_of_bytes_a_cell(views):
    n, _, by_name = views
    cells = 3 * n * n + n * MAX_DIM
    size = sum(len(json.dumps(view.option, ensure_ascii=False)) for view in by_name.values())
    assert size <= BYTES_PER_CELL * cells, f"{size / cells:.0f} bytes a cell"


def test_playground_items_grow_as_the_cells_do():
    counts = {}
    for n in SIZES:
        state, previous = heaviest_state(n)
        options = [view.option for view in playground_views(state, previous)]
        sent = sum(len(s["data"]) for option in options[:3] for s in option["series"][:2])
        counts[n] = sent + 2 * int(np.count_nonzero(state.result().blocked))  # masked cells: the grid behind
    assert counts[128] == (128 / 32) ** 2 * counts[32] == 3 * 128 * 128


# ----------------------------------------------------------------------------- multi-head (plotly)


@pytest.mark.parametrize("n", SIZES)
def test_multi_head_weights_are_two_traces_whatever_the_size(n):
    X = random_embeddings(n, MAX_D_MODEL, 0)  # (n, d_model)
    W_q, W_k, W_v, W_o = random_projections(MAX_D_MODEL, 0)
    result = multi_head_attention(X, W_q, W_k, W_v, W_o, MAX_D_MODEL, causal=True)
    labels = [f"{i}: word{i}" for i in range(n)]
    for head in result.heads[:8]:
        figure = matrix_heatmap(head.weights, labels, labels, kind="weights", title="head", blocked=head.blocked)
        assert len(figure.data) == 2  # the weights and one grey layer for every masked cell
        assert np.shape(figure.data[0].z) == np.shape(figure.data[1].z) == (n, n)
        assert not figure.layout.shapes
        assert figure.data[0].text is None  # above TEXT_LIMIT only the hover says the number
    dims = [f"d{c + 1}" for c in range(MAX_D_MODEL)]
    concat = matrix_heatmap(result.concat, labels, dims, kind="values", title="concat", column_groups=MAX_D_MODEL)
    assert len(concat.data) == 1 and np.shape(concat.data[0].z) == (n, MAX_D_MODEL)
    lines = concat.layout.shapes
    assert len(lines) == MAX_D_MODEL - 1  # one line between two heads
    assert [line.x0 for line in lines] == [h - 0.5 for h in range(1, MAX_D_MODEL)]


def test_column_groups_of_one_draw_no_line():
    figure = matrix_heatmap(np.eye(4), list("abcd"), list("abcd"), kind="values", title="X")
    assert not figure.layout.shapes
    grouped = matrix_heatmap(np.eye(4), list("abcd"), list("abcd"), kind="values", title="X", column_groups=2)
    assert [(line.x0, line.x1, line.yref) for line in grouped.layout.shapes] == [(1.5, 1.5, "paper")]
