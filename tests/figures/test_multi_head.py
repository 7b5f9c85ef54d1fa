"""Figures of the multi-head page: what each heatmap holds, how it is titled and sized."""

import numpy as np

from attnviz.figures import multi_head as figs
from attnviz.lessons import multi_head as lesson

LABELS = ["a", "b", "c"]
X = np.array([[1.0, 0.0, 2.0, -1.0], [0.5, 1.0, 0.0, 0.0], [0.0, -2.0, 1.0, 1.0]])  # (3, 4)


def test_sizes_follow_the_token_count_and_widths():
    assert figs.Sizes.of(12, 8, 2) == figs.Sizes(False, 452, 2, True)  # 140 + 26·12 = 452
    assert figs.Sizes.of(2, 4, 1) == figs.Sizes(True, 300, 1, True)  # never shorter than 300
    assert figs.Sizes.of(40, 16, 16) == figs.Sizes(False, 720, 4, False)  # never taller than 720; four a row
    assert not figs.Sizes.of(12, 8, 2, large_text=True).head_text  # presenter-sized numbers overflow 12 × 12 cells
    assert figs.Sizes.of(8, 8, 2, large_text=True).head_text


def test_heads_are_titled_by_dimensions_and_masked_cells_read_zero():
    model = lesson.run(X, lesson.Setup(4, 2, seed=0, causal=True))
    maps = figs.head_maps(model, LABELS, figs.Sizes.of(3, 4, 2))
    assert [m.layout.title.text for m in maps] == ["head 1 (dims 1–2)", "head 2 (dims 3–4)"]
    main = maps[1].data[0]
    assert main.text[0].tolist() == [f"{model.result.heads[1].weights[0, 0]:.2f}", "0.00", "0.00"]
    assert np.isnan(main.z[0, 1]) and maps[1].data[1].name == "masked"


def test_only_eight_heads_are_drawn():
    model = lesson.run(np.ones((2, 16)), lesson.Setup(16, 16, seed=0))
    assert len(figs.head_maps(model, ["a", "b"], figs.Sizes.of(2, 16, 16))) == lesson.MAX_HEADS_DRAWN


def test_matrices_are_titled_and_the_concatenation_marks_head_boundaries():
    model = lesson.run(X, lesson.Setup(4, 4, seed=2))
    sizes = figs.Sizes.of(3, 4, 4)
    assert [name for name, _ in figs.weight_maps(model, sizes)] == ["W_Q", "W_K", "W_V"]
    (q_name, q_map), *_ = figs.projected_maps(model, LABELS, sizes)
    assert q_name == "Q" and q_map.layout.title.text == "Q = X W_Q"
    np.testing.assert_array_equal(q_map.data[0].z, model.result.Q)
    (_, concat), (_, w_o), (_, output) = figs.mixing_maps(model, LABELS, sizes)
    assert [shape.x0 for shape in concat.layout.shapes] == [0.5, 1.5, 2.5]  # between dims 1|2, 2|3, 3|4
    np.testing.assert_array_equal(w_o.data[0].z, model.W_o)
    assert output.layout.title.text == "output = concat W_O"
    assert list(figs.x_map(X, LABELS).data[0].x) == ["x1", "x2", "x3", "x4"]
    assert figs.scores_map(model, LABELS).layout.title.text == "head 1: raw scores Q Kᵀ"
