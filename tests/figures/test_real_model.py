"""The Real model page's charts: what each is given, cell by cell, and how much there is of it at the limits."""

import json

import numpy as np
import pytest

from attnviz.figures.colours import MASKED_GREY
from attnviz.figures.real_model import MIN_LINE_WEIGHT, head_map, head_maps, line_view, next_token_bars, overview
from attnviz.lessons.real_model import PATTERNS, overview_side
from tests.support.apptest import decode


def random_attention(*shape, seed=0, causal=False):
    rng = np.random.default_rng(seed)
    scores = rng.standard_normal(shape) * 2
    if causal:
        scores = np.where(np.triu(np.ones(shape[-2:], bool), 1), -np.inf, scores)
    return np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)


def labels_for(n_layers, n_heads):
    names = list(PATTERNS)
    return np.array([[names[(layer + head) % 4] for head in range(n_heads)] for layer in range(n_layers)])


def test_each_small_map_is_its_heads_attention_where_every_token_fits():
    attention = random_attention(6, 12, 16, 16)
    drawn = overview(head_maps(attention, labels_for(6, 12), side=16), chosen=(2, 5))
    assert not drawn.layers_across  # 12 heads run across, 6 layers down
    assert len(drawn.option["series"]) == 72 + 1  # one a head, then the chosen head's frame
    for index, (layer, head) in enumerate(drawn.heads):
        series = drawn.option["series"][index]
        assert series["name"] == f"Layer {layer + 1}, head {head + 1}: {PATTERNS[labels_for(6, 12)[layer, head]]}"
        x0, y0 = 1 + head * 17, 1 + layer * 17
        shown = np.full((16, 16), np.nan)
        for x, y, value in series["data"]:
            shown[y - y0, x - x0] = value
        np.testing.assert_array_equal(shown, np.round(attention[layer, head], 3))
    assert drawn.head_at(drawn.heads.index((2, 5))) == {"layer": 2, "head": 5}


def test_the_chosen_head_is_framed_by_the_empty_cells_around_its_map():
    drawn = overview(head_maps(random_attention(30, 9, 13, 13, causal=True), labels_for(30, 9), side=8), chosen=(29, 8))
    assert drawn.layers_across and drawn.option["xAxis"]["name"] == "Layer" and drawn.option["yAxis"]["name"] == "Head"
    frame = {(x, y) for x, y, _ in drawn.option["series"][-1]["data"]}
    x0, y0 = 1 + 29 * 9, 1 + 8 * 9
    assert frame == {(x, y) for x in range(x0 - 1, x0 + 9) for y in range(y0 - 1, y0 + 9)} - {
        (x, y) for x in range(x0, x0 + 8) for y in range(y0, y0 + 8)
    }
    assert len(drawn.option["xAxis"]["data"]) == x0 + 9 and drawn.option["visualMap"]["seriesIndex"] == list(range(270))


def test_the_decoders_overview_at_128_tokens_stays_small():
    n_maps, n = 30 * 9, 128
    side = overview_side(n_maps, n)
    drawn = overview(head_maps(random_attention(30, 9, n, n, causal=True), labels_for(30, 9), side=side), chosen=(0, 0))
    cells = sum(len(series["data"]) for series in drawn.option["series"][:-1])
    assert cells == n_maps * side**2 <= 20_000
    assert len(json.dumps(drawn.option)) < 500_000
    assert drawn.height <= 380


@pytest.mark.parametrize("causal", [False, True])
def test_a_heads_map_shows_its_weights_with_hovers_in_words(causal):
    tokens = ["[CLS]", "it", "\n", "[SEP]"]
    weights = random_attention(4, 4, causal=causal)
    option = head_map(weights, tokens, causal=causal, title="Layer 1, head 1: weights")
    labels = ["0: [CLS]", "1: it", "2: ⏎", "3: [SEP]"]
    assert option["yAxis"]["data"] == labels
    main, masked = option["series"][0]["data"], option["series"][1]["data"]
    assert len(main) == (10 if causal else 16) and len(masked) == (6 if causal else 0)
    for key, query, colour, text, hover in main:
        assert colour == pytest.approx(weights[query, key], abs=1e-4) and text == f"{weights[query, key]:.2f}"
        assert hover == f"{labels[query]} → {labels[key]}: weight {weights[query, key]:.3f}, " + (
            f"{round(100 * weights[query, key])}% of its attention"
        )
    for key, query, *_, hover in masked:
        assert key > query and hover.startswith(f"{labels[query]} can't see {labels[key]}")


def test_a_long_sentences_map_sends_positions_and_weights_not_a_sentence_a_cell():
    n = 128
    weights = random_attention(n, n, causal=True)
    option = head_map(weights, [f"w{i}" for i in range(n)], causal=True, title="t")
    main, masked = option["series"][0]["data"], option["series"][1]["data"]
    assert len(main) == n * (n + 1) // 2 and not masked  # the future is the grid's grey, not 8,128 grey cells
    assert option["grid"]["backgroundColor"] == MASKED_GREY
    assert all(len(cell) == 4 for cell in main)
    key, query, colour, _ = main[-1]
    assert (key, query) == (n - 1, n - 1) and colour == pytest.approx(weights[-1, -1], abs=0.5e-3)
    assert len(json.dumps(option)) < 1_000_000


def test_the_line_view_draws_each_weight_as_a_lines_opacity():
    tokens = ["The", " cat", " sat", "."]
    weights = random_attention(4, 4, causal=True)
    weights[3] = [0.995, 0.005, 0.0, 0.0]  # a line below MIN_LINE_WEIGHT is left out
    option = line_view(weights, tokens, focus=2, title="t")
    queries, keys, lines, focus = option["series"]
    assert (
        [item["name"] for item in queries["data"]]
        == ["The", " cat", " sat", "."]
        == [item["name"] for item in keys["data"]]
    )
    drawn = {}
    for series, is_focus in ((lines, False), (focus, True)):
        for line in series["data"]:
            (x0, i), (x1, j) = line["coords"]
            assert (x0, x1) == (0, 1) and (i == 2) == is_focus
            drawn[(i, j)] = line["lineStyle"]["opacity"]
    expected = {(i, j): round(float(w), 4) for (i, j), w in np.ndenumerate(weights) if w >= MIN_LINE_WEIGHT}
    assert drawn == expected and (3, 1) not in drawn
    assert focus["lineStyle"]["color"] != lines["lineStyle"]["color"] and focus["z"] > lines["z"]


def test_next_token_bars_add_up_to_one():
    figure = next_token_bars(["“ The”", "“⏎”", "every other token"], [0.5, 0.2, 0.3], temperature=0.7)
    bar = figure.data[0]
    assert list(bar.y) == ["“ The”", "“⏎”", "every other token"]
    assert decode(figure.to_plotly_json()["data"][0]["x"]).sum() == pytest.approx(1.0)
    assert list(bar.text) == ["50.0%", "20.0%", "30.0%"] and "τ = 0.7" in figure.layout.title.text
