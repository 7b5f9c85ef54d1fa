import base64

import numpy as np

from attnviz.core.playground_state import PlaygroundState, load_example
from attnviz.figures import colours
from attnviz.figures import costs as cost_figures
from attnviz.figures import geometry as geometry_figures
from attnviz.figures import scaling as scaling_figures
from attnviz.figures import stages as stage_figures
from attnviz.lessons import costs, geometry, scaling
from attnviz.lessons.stages import walkthrough


def array(value) -> np.ndarray:
    """Plotly 7 keeps numpy arrays on the Python object; its JSON form is base64 (decoded here for both)."""
    if isinstance(value, dict):
        return np.frombuffer(base64.b64decode(value["bdata"]), value["dtype"])
    return np.asarray(value, dtype=float)


PRONOUN = geometry.attend_2d(geometry.PRONOUN_QUERY, geometry.PRONOUN_KEYS, geometry.PRONOUN_VALUES)


def test_query_and_key_arrows_are_labelled_with_dot_angle_and_cos():
    figure = geometry_figures.query_key_arrows(PRONOUN, "it", geometry.PRONOUN_KEY_LABELS)
    ends = [(array(t.x)[-1], array(t.y)[-1]) for t in figure.data]
    assert ends == [(3, 1), (3, 1), (1, 4), (1.5, 0.5)]
    labels = [a.text for a in figure.layout.annotations if a.text]
    assert "q·k = 7.00" in labels[2] and "θ = 57.5°" in labels[2] and "cos θ = 0.537" in labels[2]
    assert figure.layout.yaxis.scaleanchor == "x"


def test_zero_key_gets_no_arrowhead_and_an_undefined_angle():
    result = geometry.attend_2d([1, 1], [[0, 0], [1, 0]], [[1, 0], [0, 1]])
    figure = geometry_figures.query_key_arrows(result, "q", ["zero", "x"])
    assert sum(1 for a in figure.layout.annotations if a.showarrow) == 2  # query and the non-zero key
    assert any("undefined" in (a.text or "") for a in figure.layout.annotations)


def test_score_bars_hold_raw_scaled_and_both_softmaxes():
    raw, scaled, soft_raw, soft_scaled = (
        array(t.y) for t in geometry_figures.score_bars(PRONOUN, ["a", "s", "b"]).data
    )
    np.testing.assert_array_equal(raw, [10, 7, 5])
    np.testing.assert_allclose(scaled, raw / np.sqrt(2))
    np.testing.assert_allclose(soft_scaled, [0.8703, 0.1043, 0.0254], atol=5e-5)
    assert soft_raw[0] > soft_scaled[0]


def test_value_blend_ends_at_the_context_vector():
    figure = geometry_figures.value_blend(PRONOUN, geometry.PRONOUN_KEY_LABELS)
    pieces = figure.data[3:6]
    assert (array(pieces[0].x)[0], array(pieces[0].y)[0]) == (0, 0)
    chain_end = (array(pieces[-1].x)[-1], array(pieces[-1].y)[-1])
    np.testing.assert_allclose(chain_end, PRONOUN.context)
    np.testing.assert_allclose([array(figure.data[-1].x)[-1], array(figure.data[-1].y)[-1]], PRONOUN.context)


def test_variance_and_saturation_plots_carry_the_measurements():
    curve = scaling.score_variance(scaling.DK_GRID)
    figure = scaling_figures.variance_plot(curve, 64)
    np.testing.assert_allclose(array(figure.data[2].y), curve.raw)
    np.testing.assert_allclose(array(figure.data[3].y), curve.scaled)
    saturation = scaling.saturation([1, 64, 512])
    lines = scaling_figures.saturation_plot(saturation, 64).data
    np.testing.assert_allclose(array(lines[0].y), saturation.entropy_raw)
    np.testing.assert_allclose(array(lines[3].y), saturation.max_scaled)


def test_panel_figure_outlines_changed_cells_and_the_chosen_one():
    walk = walkthrough(load_example(PlaygroundState(), "pronoun_it"))
    figure = stage_figures.panel_figure(walk.stage("mask").panels[0], (3, 0))
    boxes = [(s.line.color, s.x0 + 0.5, s.y0 + 0.5) for s in figure.layout.shapes]
    assert sorted(b for b in boxes if b[0] == colours.YELLOW) == [(colours.YELLOW, 3, i) for i in range(4)]
    assert ("black", 0, 3) in boxes
    every = stage_figures.panel_figure(walk.stage("scale").panels[0], None)  # all cells changed: no yellow noise
    assert not every.layout.shapes


def test_cost_plot_splits_linear_and_quadratic_work():
    lengths, linear, quadratic = costs.cost_curve([1, 10, 100], 8, 2)
    figure = cost_figures.cost_plot(lengths, linear, quadratic, current_n=10, crossover=512 / 42)
    # n² (2·2d + 5h) at d = 8, h = 2: scores and weighted sum 2n²d each, softmax 5 per score in each head
    np.testing.assert_array_equal(array(figure.data[1].y), [42 * 1, 42 * 100, 42 * 10_000])
    np.testing.assert_array_equal(array(figure.data[0].y), [64 * 1 * 8, 64 * 10 * 8, 64 * 100 * 8])  # 8nd²
    np.testing.assert_array_equal(array(figure.data[2].y), linear + quadratic)
    assert figure.layout.title.text == "Cost against n: the n² part takes over past n = 12.2"
    assert figure.data[-1].text[0] == "n = 12.2"  # the crossover marker says the title's number


def test_labels_at_shared_tips_are_stacked_not_piled():
    figure = geometry_figures.query_key_arrows(PRONOUN, "it", geometry.PRONOUN_KEY_LABELS)
    labelled = [a for a in figure.layout.annotations if a.text]
    shifts = {(a.x, a.y, a.yshift) for a in labelled}
    assert len(shifts) == 4  # query and "animal" share the tip (3, 1) but not the spot
    assert [a.yshift for a in labelled if (a.x, a.y) == (3, 1)] == [0, -52]


def test_chosen_width_and_length_are_marked_in_data_coordinates():
    marker = scaling_figures.variance_plot(scaling.score_variance([1, 64]), 64).data[-1]
    assert list(marker.x) == [64, 64] and marker.text[-1] == "d_k = 64"
    lengths, linear, quadratic = costs.cost_curve([1, 10, 100], 8, 2)
    now, crossover = cost_figures.cost_plot(lengths, linear, quadratic, current_n=12, crossover=16.5).data[-2:]
    assert list(now.x) == [12, 12] and list(crossover.x) == [16.5, 16.5]
