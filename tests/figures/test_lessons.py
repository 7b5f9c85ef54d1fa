import base64
from dataclasses import replace

import numpy as np
import pytest

from attnviz.core.playground_state import PlaygroundState, load_example
from attnviz.figures import colours
from attnviz.figures import costs as cost_figures
from attnviz.figures import geometry as geometry_figures
from attnviz.figures import scaling as scaling_figures
from attnviz.figures import stages as stage_figures
from attnviz.figures.matrix_view import CHANGED_LIMIT, colour_positions, hover_numbers
from attnviz.lessons import costs, geometry, scaling
from attnviz.lessons.stages import walkthrough
from tests.reference import naive_attention


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


PANEL_PX = 280  # about a panel's side at 1280 × 800 (a 460 px chart in three fifths of the page, two panels)


def hidden_vectors(figure) -> list[str]:
    """The named vectors of ``figure`` less than a quarter of whose length is clear of every mark drawn over it: a
    later line in its panel that covers its whole width, or another arrow's head (a disc of 3 widths at its tip, an
    annotation's or a marker's). Lengths in px: each panel's range is PANEL_PX wide. A vector shorter than two of
    its heads can show no arrow, and is not asked to."""
    layout = figure.layout
    span = {t.xaxis or "x": np.ptp(layout[f"xaxis{(t.xaxis or 'x')[1:]}"].range) for t in figure.data}
    heads = [(a.xref, np.array([a.x, a.y]), 3 * a.arrowwidth) for a in layout.annotations if a.showarrow]
    heads += [(t.xaxis or "x", np.array([array(t.x)[-1], array(t.y)[-1]]), 3 * t.line.width)
              for t in figure.data if t.marker.symbol == "arrow"]  # fmt: skip
    hidden = []
    for k, trace in enumerate(figure.data):
        panel, start, end = trace.xaxis or "x", *(np.array([array(trace.x)[i], array(trace.y)[i]]) for i in (0, 1))
        px = PANEL_PX / span[panel]
        if px * np.linalg.norm(end - start) < 6 * trace.line.width:
            continue
        over = [(np.array([array(t.x)[0], array(t.y)[0]]), np.array([array(t.x)[1], array(t.y)[1]]),
                 (t.line.width - trace.line.width) / 2 + 0.5) for t in figure.data[k + 1 :] if (t.xaxis or "x") == panel]  # fmt: skip
        clear = 0
        for at in np.linspace(0.02, 0.98, 49):
            point = start + at * (end - start)
            lines = any(px * segment_distance(point, a, b) < width for a, b, width in over)
            caps = any(px * np.linalg.norm(point - tip) < r for ref, tip, r in heads
                       if ref == panel and not np.allclose(tip, end))  # fmt: skip
            clear += not (lines or caps)
        if clear < 49 / 4:
            hidden.append(trace.name)
    return hidden


def segment_distance(point, a, b) -> float:
    along = b - a
    t = 0.0 if not along.any() else float(np.clip((point - a) @ along / (along @ along), 0, 1))
    return float(np.linalg.norm(point - (a + t * along)))


@pytest.mark.parametrize(
    "values",
    [geometry.PRONOUN_VALUES, [[1, 0], [1, 0.2], [0, 0]], [[2, -1], [0, 1], [0.5, 0.5]], [[-1, 0], [0, -1], [1, 1]]],
)
def test_every_vector_the_values_chart_names_shows_clear_of_the_others(values):
    """"animal"'s value, [1, 0], lay under its own weighted piece and the heads at its tip."""
    result = geometry.attend_2d(geometry.PRONOUN_QUERY, geometry.PRONOUN_KEYS, values)
    figure = geometry_figures.value_blend(result, geometry.PRONOUN_KEY_LABELS)
    assert hidden_vectors(figure) == []


def test_variance_and_saturation_plots_carry_the_measurements():
    curve = scaling.score_variance(scaling.DK_GRID)
    figure = scaling_figures.variance_plot(curve, 64)
    np.testing.assert_allclose(array(figure.data[2].y), curve.raw)
    np.testing.assert_allclose(array(figure.data[3].y), curve.scaled)
    saturation = scaling.saturation([1, 64, 512])
    lines = scaling_figures.saturation_plot(saturation, 64).data
    np.testing.assert_allclose(array(lines[0].y), saturation.entropy_raw)
    np.testing.assert_allclose(array(lines[3].y), saturation.max_scaled)


# ----------------------------------------------------------------------------- Step by step's stages

PRONOUN_STATE = load_example(PlaygroundState(), "pronoun_it")  # 4 tokens, key 3 blocked for every query


def stage_of(state: PlaygroundState, key: str):
    return next(stage for stage in walkthrough(state).stages if stage.key == key)


def cells(view: dict, masked: bool = False) -> dict[tuple[int, int], tuple]:
    """{(row, col): (colour position, text, hover number)} of a view's unmasked (or masked) cells."""
    cols = len(view["cols"])
    texts = view["text"] or [""] * len(colour_positions(view))
    return {
        divmod(k, cols): (colour, text, number)
        for k, (colour, text, number) in enumerate(zip(colour_positions(view), texts, hover_numbers(view), strict=True))
        if (colour is None) == masked
    }


def boxed(view: dict) -> set[tuple[int, int]]:
    """The cells inside the view's outlined regions."""
    return {(i, j) for r, c, rows, cols in view["boxes"] for i in range(r, r + rows) for j in range(c, c + cols)}


def changed(view: dict) -> set[tuple[int, int]]:
    return {divmod(k, len(view["cols"])) for k in view["changed"]}


def test_mask_stage_boxes_the_blocked_cells_and_outlines_the_chosen_cell():
    stage = stage_of(PRONOUN_STATE, "mask")
    before, after, decoder = stage_figures.stage_views(stage, (3, 0))
    assert [v["title"] for v in (before, after, decoder)] == [
        "Before: scaled scores",
        "After: the Playground's mask",
        "If it were a decoder (causal)",
    ]
    assert not before["changed"]  # the input: nothing to box
    assert changed(after) == {(row, 3) for row in range(4)}
    assert {cell: text for cell, (_, text, _) in cells(after, masked=True).items()} == {
        (row, 3): "−∞" for row in range(4)
    }
    assert boxed(before) == boxed(after) == boxed(decoder) == {(3, 0)}
    assert before["row_ticks"] == before["rows"] and after["row_ticks"] == [""] * 4  # one set of row labels
    assert "Boxed in orange: the cells this stage changed." in stage_figures.stage_notes(
        stage, [before, after, decoder]
    )


def test_a_masked_weight_reads_0_and_a_masked_score_minus_infinity():
    before, after = stage_figures.stage_views(stage_of(PRONOUN_STATE, "softmax"), (3, 0))
    assert {text for _, text, _ in cells(before, masked=True).values()} == {"−∞"}
    assert {text for _, text, _ in cells(after, masked=True).values()} == {"0"}
    assert all("∞" not in text for _, text, _ in cells(after).values())
    # the worked example: "it" puts 0.8703 on "animal"; a weight is its own colour position on 0..1
    position, text, number = cells(after)[(3, 0)]
    assert (text, number, position) == ("0.87", "0.8703", 0.8703)
    assert after["range"] == [0.0, 1.0] and after["palette"] == colours.VIRIDIS
    assert boxed(before) == {(3, j) for j in range(4)}  # the softmax reads the query's whole row


def test_scale_stage_draws_before_and_after_on_the_raw_scores_colour_scale():
    state = PlaygroundState()  # 12 tokens, d_k = 4: every score is divided by 2
    Q, K, V = state.matrices()
    raw = np.array(naive_attention(Q.tolist(), K.tolist(), V.tolist())[0])  # (12, 12)
    reach = np.abs(raw).max()

    def colour(x):  # the signed log scale, full colour at the largest |raw score|
        return np.sign(x) * np.log1p(np.abs(x)) / np.log1p(reach)

    stage = stage_of(state, "scale")
    before, after = stage_figures.stage_views(stage)
    drawn_before, drawn_after = (
        np.array(colour_positions(view), dtype=float).reshape(12, 12) for view in (before, after)
    )
    assert before["range"] == after["range"] == [-1.0, 1.0]
    np.testing.assert_allclose(drawn_before, colour(raw), atol=5e-5)
    np.testing.assert_allclose(drawn_after, colour(raw / 2), atol=5e-5)
    assert (np.abs(drawn_after) < np.abs(drawn_before)).sum() == (raw != 0).sum()  # every non-zero cell paler
    assert not after["changed"]  # every cell changed: said in words, not 144 boxes
    assert "full colour at ±5.542" in stage_figures.stage_notes(stage, [before, after])


def test_the_chosen_cell_outlines_what_its_formula_reads():
    walk = walkthrough(PRONOUN_STATE)
    q, k, s = stage_figures.stage_views(walk.stages[0], (3, 1))  # S[3, 1] = q_3 · k_1
    assert boxed(q) == {(3, 0), (3, 1)} and boxed(k) == {(1, 0), (1, 1)} and boxed(s) == {(3, 1)}
    weights, values, output = stage_figures.stage_views(walk.stages[-1], (3, 1))  # out[3, dim 2]
    assert boxed(weights) == {(3, j) for j in range(4)} and boxed(values) == {(j, 1) for j in range(4)}
    assert boxed(output) == {(3, 1)}


def test_a_click_chooses_the_query_and_column_whose_formula_reads_the_cell():
    q, k, s = walkthrough(PRONOUN_STATE).stages[0].panels
    assert stage_figures.chosen_by_click(s, 2, 1) == {"query": 2, "column": 1}
    assert stage_figures.chosen_by_click(q, 2, 1) == {"query": 2}  # any cell of q₂
    assert stage_figures.chosen_by_click(k, 3, None) == {"column": 3}  # k₃'s row label


def test_a_causal_mask_boxes_the_future_at_12_tokens():
    state = replace(PlaygroundState(), causal=True)  # 12 tokens
    mask = stage_of(state, "mask")
    before, after, encoder = views = stage_figures.stage_views(mask)
    assert changed(after) == set(map(tuple, np.argwhere(np.triu(np.ones((12, 12)), 1)).tolist()))
    assert not before["changed"] and not encoder["changed"]  # the encoder masks nothing here
    assert "Boxed in orange: the cells this stage changed." in stage_figures.stage_notes(mask, views)


@pytest.mark.parametrize("n", [32, 128])
def test_heaviest_stages_send_every_cell_once_and_box_no_dense_mask(n):
    """Above the text limit no cell text is sent, every cell's number once, and a causal mask (hundreds of changed
    cells) is said in words instead of boxed; one blocked key's column still is."""
    state = PlaygroundState(sentence=" ".join(f"w{i}" for i in range(n)), causal=True, blocked_keys=(1,))
    for key in ("mask", "softmax", "output"):
        stage = stage_of(state, key)
        views = stage_figures.stage_views(stage, (n - 1, 0))
        for panel, view in zip(stage.panels, views, strict=True):
            rows, cols = panel.matrix.shape
            assert len(colour_positions(view)) == len(hover_numbers(view)) == rows * cols and not view["text"]
            masked = 0 if panel.blocked is None else int(np.count_nonzero(panel.blocked))
            assert colour_positions(view).count(None) == masked and len(view["changed"]) <= CHANGED_LIMIT
    notes = stage_figures.stage_notes(stage_of(state, "mask"), stage_figures.stage_views(stage_of(state, "mask")))
    assert "Where too many cells changed to box them, the changed ones are the grey, masked cells." in notes


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


def test_the_saturation_charts_words_keep_clear_of_each_other():
    """At presenter-sized text the d_k marker's label sat on the reference lines' words and the panel's
    title, and the legend on the axis title. The marker is labelled at its foot, "all weight on one key" under its
    line, the legend below the axis title."""
    figure = scaling_figures.saturation_plot(scaling.saturation([1, 4, 16, 64]), 16)
    markers = [trace for trace in figure.data if trace.name == "d_k = 16"]
    assert len(markers) == 2 and all(list(m.text) == ["d_k = 16", ""] for m in markers)  # the text at the foot
    assert [a.yanchor for a in figure.layout.annotations if a.text == "all weight on one key"] == ["top"]
    assert figure.layout.legend.y == -0.4


def test_the_arrows_labels_sit_towards_the_middle_so_a_phone_shows_them_whole():
    """At 390 px the label of a key in the plot's right half ran past its right edge."""
    figure = geometry_figures.query_key_arrows(PRONOUN, "it", geometry.PRONOUN_KEY_LABELS)
    sides = {(bool(a.x > 0), a.xanchor) for a in figure.layout.annotations if a.x != 0 and a.bgcolor}  # the labels
    assert sides <= {(True, "right"), (False, "left")} and (True, "right") in sides
