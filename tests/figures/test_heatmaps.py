"""The shared heatmap and bar builders: what they hand to plotly.js, value by value."""

import json

import numpy as np
import plotly.io as pio

from attnviz.figures.heatmaps import DIVERGING_SCALE, TEXT_LIMIT, WEIGHTS_SCALE, matrix_heatmap, weights_bar

LABELS = ["0: a", "1: b", "2: c"]


def spec(figure) -> dict:
    """The JSON plotly.js receives."""
    return json.loads(pio.to_json(figure))


def test_weights_heatmap_has_a_fixed_0_to_1_range_and_values_in_cells():
    weights = np.array([[1.0, 0.0, 0.0], [0.25, 0.75, 0.0], [0.2, 0.3, 0.5]])
    figure = matrix_heatmap(weights, LABELS, LABELS, kind="weights", title="w")
    trace = figure.data[0]
    np.testing.assert_array_equal(trace.z, weights)
    assert (trace.zmin, trace.zmax) == (0.0, 1.0)
    assert trace.texttemplate == "%{text}"
    assert trace.text.tolist() == [["1.00", "0.00", "0.00"], ["0.25", "0.75", "0.00"], ["0.20", "0.30", "0.50"]]
    assert list(trace.x) == LABELS and list(trace.y) == LABELS
    assert figure.layout.yaxis.autorange == "reversed"  # row 0 at the top, as in a matrix
    assert "%{y} → %{x}: weight" in trace.hovertemplate


def test_colour_scales_are_explicit_lists_plotly_js_draws_as_given():
    # plotly.js does not know plotly.py's "_r" names; a name would silently fall back to another scale.
    for kind, scale in (("weights", WEIGHTS_SCALE), ("scores", DIVERGING_SCALE)):
        trace = spec(matrix_heatmap(np.eye(3), LABELS, LABELS, kind=kind, title="t"))["data"][0]
        assert trace["colorscale"] == [list(step) for step in scale]
    assert DIVERGING_SCALE[0][1] == "rgb(5,48,97)" and DIVERGING_SCALE[-1][1] == "rgb(103,0,31)"  # blue low, red high


def test_scores_range_is_centred_on_zero():
    trace = matrix_heatmap([[1.0, -3.0], [2.0, 0.5]], LABELS[:2], LABELS[:2], kind="scores", title="s").data[0]
    assert (trace.zmin, trace.zmax) == (-3.0, 3.0)
    zeros = matrix_heatmap(np.zeros((2, 2)), LABELS[:2], LABELS[:2], kind="values", title="v").data[0]
    assert (zeros.zmin, zeros.zmax) == (-1.0, 1.0)  # an all-zero matrix still gets a real range


def test_blocked_cells_are_grey_minus_infinity_not_a_colour():
    masked = np.array([[0.5, -np.inf], [0.1, 0.2]])
    blocked = np.isinf(masked)
    figure = matrix_heatmap(masked, LABELS[:2], LABELS[:2], kind="scores", title="m", blocked=blocked)
    main, grey = figure.data
    assert np.isnan(main.z[0, 1]) and main.z[1, 1] == 0.2
    np.testing.assert_array_equal(np.isnan(grey.z), ~blocked)
    assert main.text.tolist() == [["0.50", "−∞"], ["0.10", "0.20"]]
    assert grey.texttemplate is None  # the grey layer only colours; the main trace writes "−∞"
    assert grey.showscale is False
    assert "masked (−∞), weight 0" in grey.hovertemplate
    json.dumps(spec(figure))  # no infinity reaches JSON


def test_large_matrices_drop_cell_text_but_keep_hover():
    n = TEXT_LIMIT + 1
    trace = matrix_heatmap(
        np.ones((n, n)) / n, [str(i) for i in range(n)], [str(i) for i in range(n)], kind="weights", title="big"
    ).data[0]
    assert trace.texttemplate is None and "weight" in trace.hovertemplate
    small = matrix_heatmap(
        np.ones((TEXT_LIMIT, 2)), [str(i) for i in range(TEXT_LIMIT)], ["d1", "d2"], kind="values", title="s"
    )
    assert small.data[0].texttemplate == "%{text}"


def test_cell_text_fits_a_cell():
    values = [[-0.0606, 565.69, 14.142, -1234.5]]
    text = matrix_heatmap(values, ["q"], ["a", "b", "c", "d"], kind="scores", title="s").data[0].text
    assert text.tolist() == [["−0.06", "566", "14.14", "−1234"]]


def test_weights_bar_labels_blocked_keys():
    figure = weights_bar([0.6, 0.4, 0.0], LABELS, title="row", blocked_row=[False, False, True])
    bars = figure.data[0]
    np.testing.assert_array_equal(bars.y, [0.6, 0.4, 0.0])
    assert list(bars.text) == ["0.60", "0.40", "masked"]
    assert list(figure.layout.yaxis.range) == [0, 1.12]
