"""The Real model page's charts: what each is given, cell by cell, and how much there is of it at the limits."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnviz.figures.matrix_view import colour_positions, hover_numbers
from attnviz.figures.real_model import (
    LINE_CUTOFFS,
    MAX_LINES_DRAWN,
    MIN_LINE_WEIGHT,
    head_map,
    head_maps,
    line_opacity,
    line_view,
    line_view_words,
    lines_not_drawn,
    next_token_bars,
    overview,
)
from attnviz.lessons.real_model import overview_side
from tests.support.apptest import decode


def random_attention(*shape, seed=0, causal=False):
    rng = np.random.default_rng(seed)
    scores = rng.standard_normal(shape) * 2
    if causal:
        scores = np.where(np.triu(np.ones(shape[-2:], bool), 1), -np.inf, scores)
    return np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)


def tokens_for(n):
    return [f"w{i}" for i in range(n)]


def grid(view: dict) -> np.ndarray:
    """A view's colour positions as a (rows, cols) array, NaN where masked."""
    return np.array([np.nan if c is None else c for c in colour_positions(view)]).reshape(
        len(view["rows"]), len(view["cols"])
    )


def test_each_small_map_is_its_heads_attention_where_every_token_fits():
    attention = random_attention(6, 12, 16, 16)
    maps = head_maps(attention, tokens_for(16), side=16)
    view, height = overview(maps, chosen=(2, 5))
    assert not maps.layers_across and view["title"] == "Every head (heads across, layers down)"
    drawn = grid(view)  # (6 · 16, 12 · 16): layer l's maps in block row l
    assert drawn.shape == (96, 192) and view["groups"] == [16, 16]
    for layer in range(6):
        for head in range(12):
            block = drawn[layer * 16 : (layer + 1) * 16, head * 16 : (head + 1) * 16]
            np.testing.assert_allclose(block, attention[layer, head], atol=0.5e-3)
    assert view["rows"][2 * 16 + 3] == "layer 3, query 3: w3" and view["cols"][5 * 16] == "key 0: w0, head 6"
    assert view["boxes"] == [[2 * 16, 5 * 16, 16, 16]]  # the chosen head, outlined
    assert maps.head_at(2 * 16 + 3, 5 * 16 + 15) == {"layer": 2, "head": 5} and maps.head_at(96, 0) is None
    assert height <= 380


def test_the_longer_of_layers_and_heads_runs_across_and_each_map_is_numbered_once():
    maps = head_maps(random_attention(30, 9, 13, 13, causal=True), tokens_for(13), side=8)
    view, _ = overview(maps, chosen=(29, 8))
    assert maps.layers_across and view["title"] == "Every head (layers across, heads down)"
    assert view["boxes"] == [[8 * 8, 29 * 8, 8, 8]]  # head 9 down, layer 30 across
    assert [t for t in view["ticks"] if t] == [str(k) for k in range(1, 31)]
    assert [t for t in view["row_ticks"] if t] == [str(k) for k in range(1, 10)]
    assert view["rows"][0] == "head 1, query tokens 0–1" and maps.head_at(0, 29 * 8) == {"layer": 29, "head": 0}


def test_the_decoders_overview_at_128_tokens_stays_small():
    n_maps, n = 30 * 9, 128
    side = overview_side(n_maps, n)
    maps = head_maps(random_attention(30, 9, n, n, causal=True), tokens_for(n), side=side)
    view, height = overview(maps, chosen=(0, 0))
    assert len(colour_positions(view)) == n_maps * side**2 <= 20_000 and view["text"] == []
    assert len(json.dumps(view)) < 150_000  # its hover numbers packed (attnviz.figures.matrix_view.packed_numbers)
    assert height <= 380


@pytest.mark.parametrize(("n", "side"), [(6, 6), (128, 8)])  # its cells as lists, and packed
def test_while_predict_mode_asks_the_chosen_heads_small_map_is_hidden_and_no_other(n, side):
    attention = random_attention(4, 3, n, n)  # 4 layers, 3 heads
    maps = head_maps(attention, tokens_for(n), side=side)
    shown, _ = overview(maps, chosen=(1, 2))
    asking, _ = overview(maps, chosen=(1, 2), asking=True)
    hidden = np.zeros((3 * side, 4 * side), bool)  # heads down, layers across: head 3 of layer 2
    hidden[2 * side : 3 * side, 1 * side : 2 * side] = True
    assert np.isnan(grid(asking)[hidden]).all() and not np.isnan(grid(shown)).any()
    np.testing.assert_array_equal(grid(asking)[~hidden], grid(shown)[~hidden])  # every other head as it was
    numbers = np.array(hover_numbers(asking)).reshape(hidden.shape)
    assert set(numbers[hidden]) == {""} and list(numbers[~hidden]) == list(
        np.array(hover_numbers(shown))[~hidden.ravel()]
    )
    assert bool(shown["text"]) == (
        n == 6
    )  # numbers written in the cells (below the text limit): none in the hidden map
    if shown["text"]:
        assert set(np.array(asking["text"]).reshape(hidden.shape)[hidden]) == {""}
    assert asking["masked_words"] == "the chosen head: hidden until you predict"
    assert asking["title"] == "Every head (the chosen one: predict first)"  # short enough for a phone
    assert asking["boxes"] == shown["boxes"] == [[2 * side, side, side, side]]


@pytest.mark.parametrize("causal", [False, True])
def test_a_heads_map_shows_its_weights_and_the_future_masked(causal):
    tokens = ["[CLS]", "it", "\n", "[SEP]"]
    weights = random_attention(4, 4, causal=causal)
    view = head_map(weights, tokens, causal=causal, query=1, title="Layer 1, head 1: weights")
    labels = ["0: [CLS]", "1: it", "2: ⏎", "3: [SEP]"]
    assert view["rows"] == view["cols"] == labels and view["focus"] == 1 and view["value_name"] == "weight"
    future = np.triu(np.ones((4, 4), bool), 1) & causal
    drawn = grid(view)
    assert np.isnan(drawn[future]).all()
    np.testing.assert_allclose(drawn[~future], weights[~future], atol=0.5e-4)
    text = np.array(view["text"]).reshape(4, 4)
    assert (text[future] == "0").all() and text[0, 0] == f"{weights[0, 0]:.2f}"


def test_a_long_sentences_map_sends_a_colour_and_a_number_a_cell():
    n = 128
    weights = random_attention(n, n, causal=True)
    view = head_map(weights, tokens_for(n), causal=True, query=0, title="t")
    assert len(colour_positions(view)) == len(hover_numbers(view)) == n * n and view["text"] == []
    assert colour_positions(view).count(None) == n * (n - 1) // 2
    assert float(hover_numbers(view)[-1].replace("−", "-")) == pytest.approx(weights[-1, -1], rel=0.5e-2)
    assert len(json.dumps(view)) < 1_000_000


def test_the_line_view_draws_each_weight_as_a_lines_opacity():
    tokens = ["The", " cat", " sat", "."]
    weights = random_attention(4, 4, causal=True)
    weights[3] = [0.995, 0.005, 0.0, 0.0]  # a line below MIN_LINE_WEIGHT is left out
    option = line_view(weights, tokens, focus=2, title="t")
    queries, keys, focus, *groups = option["series"]
    assert (
        [item["name"] for item in queries["data"]]
        == ["The", " cat", " sat", "."]
        == [item["name"] for item in keys["data"]]
    )
    drawn = {}
    for line in focus["data"]:  # the focus query's lines: each at its own weight
        (x0, i), (x1, j) = line["coords"]
        assert (x0, x1, i) == (0, 1, 2)
        drawn[(i, j)] = line["lineStyle"]["opacity"]
    for group in groups:  # the others: one series for each rounded weight
        assert group["large"] and group["lineStyle"]["color"] != focus["lineStyle"]["color"] and focus["z"] > group["z"]
        for line in group["data"]:
            (x0, i), (x1, j) = line["coords"]
            assert (x0, x1) == (0, 1) and i != 2
            drawn[(i, j)] = group["lineStyle"]["opacity"]
    assert sorted(drawn) == [(i, j) for (i, j), w in np.ndenumerate(weights) if w >= MIN_LINE_WEIGHT]
    for (i, j), opacity in drawn.items():
        exact = round(float(weights[i, j]), 4)
        assert opacity == (exact if i == 2 else line_opacity(weights[i, j]))
        assert abs(opacity - weights[i, j]) <= (0.005 if weights[i, j] < 0.095 else 0.05)
    assert (3, 1) not in drawn and drawn[(3, 0)] == 1.0


def drawn_lines(option: dict) -> dict[tuple[int, int], float]:
    """(query, key) → opacity of every line the option draws."""
    return {
        (line["coords"][0][1], line["coords"][1][1]): line.get("lineStyle", series["lineStyle"]).get("opacity")
        for series in option["series"][2:]
        for line in series["data"]
    }


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 128),
    spread=st.sampled_from([0.05, 0.5, 2.0, 6.0]),
    causal=st.booleans(),
    seed=st.integers(0, 2**16),
    focus_at=st.floats(0, 1, exclude_max=True),
)
def test_long_sentences_draw_at_most_the_line_budget_and_say_which_lines_are_left_out(
    n, spread, causal, seed, focus_at
):
    weights = random_attention(n, n, seed=seed, causal=causal) ** (1 / spread)  # sharper or flatter rows
    weights /= weights.sum(axis=1, keepdims=True)
    focus = int(focus_at * n)
    option = line_view(weights, tokens_for(n), focus=focus, title="t")
    drawn = drawn_lines(option)
    others = np.delete(weights, focus, axis=0)
    # the cut-off for the other queries: the first step that keeps their lines within the budget
    cutoff = next(cut for cut in LINE_CUTOFFS if (others >= cut).sum() <= MAX_LINES_DRAWN)
    expected = {(i, j) for (i, j), w in np.ndenumerate(weights) if w >= (MIN_LINE_WEIGHT if i == focus else cutoff)}
    assert set(drawn) == expected
    assert len(drawn) - (weights[focus] >= MIN_LINE_WEIGHT).sum() <= MAX_LINES_DRAWN
    said = lines_not_drawn(weights, focus)
    assert said in option["aria"]["label"]["description"]
    if cutoff == MIN_LINE_WEIGHT:
        assert said == "below 1%: not drawn"
    else:
        assert said.startswith(f"below 1% for the orange query and below {cutoff:.0%} for the others: not drawn")


def test_a_long_flat_sentence_draws_its_strongest_lines_and_says_so():
    n = 120
    weights = np.tril(np.ones((n, n)))  # every query spreads its attention evenly over itself and the keys before it
    weights /= weights.sum(axis=1, keepdims=True)
    option = line_view(weights, tokens_for(n), focus=n - 1, title="t")
    drawn = drawn_lines(option)
    assert not [i for i, _ in drawn if i == n - 1]  # the last query's weights are all 1/120 < 1%
    # At 2% the queries with up to 50 keys would keep 1 + 2 + … + 50 = 1,275 lines: too many. At 5%, 1 + … + 20.
    assert len(drawn) == sum(range(1, 21)) == 210
    assert lines_not_drawn(weights, n - 1) == (
        "below 1% for the orange query and below 5% for the others: not drawn, so that at most 1,000 lines are"
    )


def test_a_lines_opacity_is_its_weight_rounded_finer_where_lines_are_faint():
    assert [line_opacity(w) for w in (0.01, 0.0149, 0.094, 0.095, 0.149, 0.151, 0.96)] == [
        0.01, 0.01, 0.09, 0.1, 0.1, 0.2, 1.0
    ]  # fmt: skip


def test_next_token_bars_add_up_to_one():
    figure = next_token_bars(["“ The”", "“⏎”", "every other token"], [0.5, 0.2, 0.3], temperature=0.7)
    bar = figure.data[0]
    assert list(bar.y) == ["“ The”", "“⏎”", "every other token"]
    assert decode(figure.to_plotly_json()["data"][0]["x"]).sum() == pytest.approx(1.0)
    assert list(bar.text) == ["50.0%", "20.0%", "30.0%"] and "τ = 0.7" in figure.layout.title.text


def test_the_line_view_says_in_words_what_its_focus_query_looks_at():
    weights = np.array([[1.0, 0.0, 0.0], [0.25, 0.7, 0.05], [0.0, 0.0, 0.0]])
    said = line_view(weights, ["The", "cat", "sat"], focus=1, title="Head 1")["aria"]["label"]["description"]
    assert said == line_view_words(weights, ["The", "cat", "sat"], 1, title="Head 1")
    assert said.startswith("Head 1: every query on the left joined to the keys on the right")
    assert said.endswith("Query 1: cat looks most at 1: cat (0.70), 0: The (0.25), 2: sat (0.05).")
    assert len(said) < 400 and "NaN" not in said  # the whole name: ECharts lists no series or point after it
    assert line_view_words(weights, ["The", "cat", "sat"], 2, title="t").endswith("Query 2: sat looks most at no key.")


def test_the_overview_is_read_by_layer_not_cell_by_cell():
    view, _ = overview(head_maps(random_attention(2, 3, 8, 8), tokens_for(8), side=8), chosen=(0, 0))
    assert view["reader"] is False
