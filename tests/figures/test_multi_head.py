"""The multi-head page's matrices as cell models: what each view holds, how it is titled and sized."""

import numpy as np

from attnviz.figures import multi_head as figs
from attnviz.lessons import multi_head as lesson
from tests.support.apptest import shown_matrix

LABELS = ["a", "b", "c"]
X = np.array([[1.0, 0.0, 2.0, -1.0], [0.5, 1.0, 0.0, 0.0], [0.0, -2.0, 1.0, 1.0]])  # (3, 4)


def test_sizes_follow_the_token_count_and_heads():
    assert figs.Sizes.of(12, 2) == figs.Sizes(412, 2, 432)  # 100 + 26·12; 120 + 26·12
    assert figs.Sizes.of(2, 1) == figs.Sizes(260, 1, 260)  # never shorter than 260
    assert figs.Sizes.of(40, 16) == figs.Sizes(720, 4, 560)  # never taller than 720 and 560; four heads a row


def test_heads_are_titled_by_dimensions_and_masked_cells_read_zero():
    model = lesson.run(X, lesson.Setup(4, 2, seed=0, causal=True))
    first, second = figs.head_maps(model, LABELS)
    assert [first["title"], second["title"]] == ["head 1 (dims 1–2)", "head 2 (dims 3–4)"]
    assert second["text"][:3] == [f"{model.result.heads[1].weights[0, 0]:.2f}", "0", "0"]
    assert second["colour"][1:3] == [None, None] and second["palette"][0] == "#440154"  # masked; Viridis


def test_only_eight_heads_are_drawn():
    model = lesson.run(np.ones((2, 16)), lesson.Setup(16, 16, seed=0))
    assert len(figs.head_maps(model, ["a", "b"])) == lesson.MAX_HEADS_DRAWN


def test_matrices_are_titled_and_the_concatenation_marks_head_boundaries():
    model = lesson.run(X, lesson.Setup(4, 4, seed=2))
    assert [view["name"] for view in figs.weight_maps(model)] == ["W_Q", "W_K", "W_V"]
    q_map, *_ = figs.projected_maps(model, LABELS)
    assert q_map["title"] == "Q = X W_Q" and q_map["rows"] == LABELS
    np.testing.assert_allclose(shown_matrix(q_map), model.result.Q, rtol=5.001e-4)
    concat, w_o, output = figs.mixing_maps(model, LABELS)
    assert concat["groups"] == [1, 1]  # d_head = 1: a line between every column
    assert w_o["rows"][:2] == ["in d1", "in d2"] and w_o["ticks"][:2] == ["d1", "d2"]
    np.testing.assert_allclose(shown_matrix(w_o), model.W_o, rtol=5.001e-4)
    assert output["title"] == "output = concat W_O"
    assert figs.x_map(X, LABELS)["cols"] == ["x1", "x2", "x3", "x4"]
    assert figs.scores_map(model, LABELS)["title"] == "head 1: raw scores Q Kᵀ"
