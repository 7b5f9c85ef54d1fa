"""The multi-head lesson: the layer against loops, and the words against hand-worked numbers."""

import numpy as np
import pytest

from attnviz import AttnvizInputError
from attnviz.lessons import multi_head as lesson
from tests.reference import naive_attention

X = [[1.0, 0.0, 2.0, -1.0], [0.5, 1.0, 0.0, 0.0], [0.0, -2.0, 1.0, 1.0]]  # 3 tokens, d_model = 4


def matmul(A, B):
    return [[sum(a[t] * B[t][j] for t in range(len(B))) for j in range(len(B[0]))] for a in A]


@pytest.mark.parametrize(("n_heads", "causal"), [(1, False), (2, False), (2, True), (4, True)])
def test_the_layer_matches_loops_over_its_own_weights(n_heads, causal):
    model = lesson.run(X, lesson.Setup(d_model=4, n_heads=n_heads, seed=3, causal=causal))
    Q, K, V = matmul(X, model.W_q.tolist()), matmul(X, model.W_k.tolist()), matmul(X, model.W_v.tolist())
    d_head = 4 // n_heads
    blocks = []
    for h, head in enumerate(model.result.heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        part = [[row[cols] for row in M] for M in (Q, K, V)]
        scores, weights, output = naive_attention(*part, causal=causal)
        np.testing.assert_allclose(head.scores, scores, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(head.weights, weights, rtol=1e-12, atol=1e-14)
        blocks.append(np.array(output))
    concat = np.hstack(blocks)
    np.testing.assert_allclose(model.result.concat, concat, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(model.result.output, matmul(concat.tolist(), model.W_o.tolist()), rtol=1e-12, atol=1e-14)
    asymmetry = max(
        abs(scores_ij - scores_ji)
        for head in model.result.heads
        for scores_ij, scores_ji in zip(head.scores.ravel(), head.scores.T.ravel(), strict=True)
    )
    assert model.largest_asymmetry == asymmetry > 0.01


def test_tied_projections_give_symmetric_scores_and_say_so():
    tied = lesson.run(X, lesson.Setup(4, 2, seed=1, tie_qk=True))
    assert tied.W_k is tied.W_q and tied.largest_asymmetry < 1e-12
    assert "each head's score matrix is symmetric: the largest |S − Sᵀ| over all heads is " in lesson.tie_text(tied)
    untied = lesson.run(X, lesson.Setup(4, 2, seed=1))
    first, second = (np.abs(h.scores - h.scores.T).max() for h in untied.result.heads)
    np.testing.assert_array_equal(untied.asymmetries, [first, second])
    largest = "the largest of the 2 heads"
    expected = f"{first:.2f}, {largest}." if first >= second else f"{first:.2f} (head 2's is {largest}: {second:.2f})."
    assert f"In head 1's raw scores (the chart beside), the largest |S − Sᵀ| is {expected}" in lesson.tie_text(untied)
    one = lesson.run(X, lesson.Setup(4, 1, seed=1))
    assert f"the largest |S − Sᵀ| is {one.largest_asymmetry:.2f}. Tick" in lesson.tie_text(one)  # as the chart draws


def test_heads_are_named_by_their_dimensions():
    assert lesson.head_columns(0, 4) == (1, 4) and lesson.head_columns(2, 3) == (7, 9)
    assert lesson.head_title(1, 4) == "head 2 (dims 5–8)" and lesson.head_title(3, 1) == "head 4 (dim 4)"
    setup = lesson.Setup(d_model=12, n_heads=3, seed=0)
    assert setup.d_head == 4 and lesson.heads_heading(setup) == "2. 3 heads, each d_head = 4 wide"
    assert "d_head = d_model / n_heads = 12 / 3 = 4" in lesson.heads_text(setup)
    assert "uses dimensions 4·(h−1)+1 … 4·h" in lesson.heads_text(setup) and "√d_head = √4" in lesson.heads_text(setup)
    assert lesson.heads_heading(lesson.Setup(5, 1, 0)) == "2. 1 head, each d_head = 5 wide"


def test_small_x_is_editable_and_large_is_drawn():
    assert lesson.x_is_editable(np.zeros((12, 8))) and not lesson.x_is_editable(np.zeros((12, 9)))
    np.testing.assert_array_equal(lesson.embeddings(2, lesson.Setup(3, 1, seed=7)).shape, (2, 3))


def test_a_head_count_that_does_not_divide_d_model_is_refused():
    with pytest.raises(AttnvizInputError, match="must divide"):
        lesson.run(X, lesson.Setup(4, 3, seed=0))
