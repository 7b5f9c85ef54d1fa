"""Multi-head page: sizes, heads, seed, mask, the tie exercise, X edits and the costs.

Every number the page shows is checked against an independent value: the matrices against plain loops over the X
and weights the page itself shows, the counts against a loop that counts each operation, the rest by hand.
"""

import math

import numpy as np
import pytest

from attnviz.lessons import multi_head as lesson
from tests.reference import naive_attention
from tests.support.apptest import (
    as_read,
    assert_shown,
    chart,
    matrix_views,
    open_page,
    setting_key,
    shown_matrix,
    table_texts,
    texts,
    type_cell,
    type_cells,
    views_data,
)

PAGE = "pages/multi_head.py"
N = 12  # the Playground's default sentence


@pytest.fixture
def page():
    return open_page(PAGE)


def matmul(A, B) -> np.ndarray:
    """A B one product at a time."""
    return np.array([[sum(a[t] * B[t][j] for t in range(len(B))) for j in range(len(B[0]))] for a in A])


def naive_multi_head(X, W_q, W_k, W_v, W_o, n_heads, *, causal=False):
    """(Q, K, V, per-head (scores, weights), concat, output) from loops and tests.reference.naive_attention."""
    Q, K, V = matmul(X, W_q), matmul(X, W_k), matmul(X, W_v)
    d_head = Q.shape[1] // n_heads
    heads, blocks = [], []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        scores, weights, output = naive_attention(
            Q[:, cols].tolist(), K[:, cols].tolist(), V[:, cols].tolist(), causal=causal
        )
        heads.append((np.array(scores), np.array(weights)))
        blocks.append(np.array(output))
    concat = np.hstack(blocks)
    return Q, K, V, heads, concat, matmul(concat, W_o)


def shown_x(page) -> np.ndarray:
    """X as drawn: the text of each cell, read as a number (the exact number: the text is what a student types)."""
    return np.array(table_texts(page, "X", key="mh.x"), dtype=object).astype(str).astype(float)


def weights_of(X, *, seed=0, n_heads=2, causal=False, tie=False):
    """W_Q, W_K, W_V, W_O as the seed makes them (exact), each checked against the page's pictures of it below."""
    model = lesson.run(X, lesson.Setup(X.shape[1], n_heads, seed, causal, tie))
    return model.W_q, model.W_k, model.W_v, model.W_o


def check_every_matrix(page, n_heads, *, seed=0, causal=False, tie=False, X=None):
    """Each picture shows what loops make of the X the page shows and the seed's W (which the page shows too)."""
    X = shown_x(page) if X is None else X
    W = weights_of(X, seed=seed, n_heads=n_heads, causal=causal, tie=tie)
    drawn = matrix_views(page, "mh.weights") | matrix_views(page, "mh.mixing")
    for name, matrix in zip(("W_Q", "W_K", "W_V", "W_O"), W, strict=True):
        assert_shown(drawn[name], matrix)
    Q, K, V, heads, concat, output = naive_multi_head(X, *W, n_heads, causal=causal)
    drawn |= matrix_views(page, "mh.qkv")
    for name, expected in (("Q", Q), ("K", K), ("V", V), ("concat", concat), ("output", output)):
        assert_shown(drawn[name], expected)
    blocked = np.triu(np.ones((N, N), bool), 1) if causal else np.zeros((N, N), bool)
    for h, view in enumerate(matrix_views(page, "mh.heads").values()):
        weights = heads[h][1]
        assert_shown(view, weights, masked=blocked)  # masked: grey, weight 0
        assert (weights[blocked] == 0).all()
    assert_shown(matrix_views(page, "mh.scores")["scores"], heads[0][0])
    return heads


def count_flops(n, d, h):
    """Every operation of one pass counted in loops: a multiply-add is 2, each softmax step on a score is 1."""
    count = 0
    for _ in range(3 * n * d * d):  # Q, K, V: n rows × d outputs × d multiply-adds
        count += 2
    d_head = d // h
    for _ in range(h):
        for _ in range(n * n):
            count += 2 * d_head  # the score: d_head multiply-adds
            count += 1 + 1 + 1 + 1 + 1  # ÷√d_head, − row max, e^x, add to the sum, ÷ sum
            count += 2 * d_head  # its share of weights · V: d_head multiply-adds
    for _ in range(n * d * d):  # concat W_O
        count += 2
    return count


def test_defaults_every_number_against_loops_and_hand_counts(page):
    assert page.selectbox(key=setting_key("multi_head", "heads")).options == ["1", "2", "4", "8"]
    np.testing.assert_array_equal(shown_x(page)[0], [0.13, -0.13, 0.64, 0.1, -0.54, 0.36, 1.3, 0.95])  # seed 0
    check_every_matrix(page, 2)
    assert matrix_views(page, "mh.mixing")["concat"]["groups"] == [1, 4]  # a line between the two heads' 4 columns
    markdown = texts(page.markdown)
    assert "d_head = d_model / n_heads = 8 / 2 = 4" in markdown and "√d_head = √4" in markdown
    assert "3·8·4 = 96 weights" in markdown and "Total **256**" in markdown  # 3·d·d_head; 4·8²
    flops = page.dataframe[-1].value
    # 6nd², 2n²d, 5n²h, 2n²d, 2nd² at n = 12, d = 8, h = 2
    assert flops["FLOPs"].tolist() == [4608, 2304, 1440, 2304, 1536, 12192] and count_flops(12, 8, 2) == 12192
    assert "n²·h = 288 numbers" in texts(page.caption)
    crossover = 8 * 8**2 / (4 * 8 + 5 * 2)  # 8nd² = n²(4d + 5h)
    assert f"= {crossover:.3g} the n² part is the larger" in markdown and "2·d_model = 16" in markdown
    assert chart(page, "mh_cost")["layout"]["title"]["text"].endswith(f"past n = {crossover:.3g}")


def test_width_is_d_head_everywhere_and_the_crossover_agrees(page):
    """No d_k for the head width, no "2d" title beside a "2·d_model" text."""
    page.slider(key=setting_key("multi_head", "d_model")).set_value(4).run()
    page.selectbox(key=setting_key("multi_head", "heads")).set_value(4).run()
    words = texts(page.markdown) + texts(page.header) + texts(page.caption)
    assert "d_k" not in words and "d(2" not in words
    assert (
        "each d_head = 1 wide" in texts(page.header)
        and matrix_views(page, "mh.heads")["head2"]["title"] == "head 2 (dim 2)"
    )
    crossover = 8 * 16 / (4 * 4 + 5 * 4)  # 3.56: softmax is half the quadratic work when d_head = 1
    assert f"{crossover:.3g}" in chart(page, "mh_cost")["layout"]["title"]["text"] and f"{crossover:.3g}" in words
    assert page.dataframe[-1].value["FLOPs"].tolist()[-1] == count_flops(N, 4, 4)


def test_heads_selector_offers_only_divisors_and_redraws(page):
    page.slider(key=setting_key("multi_head", "d_model")).set_value(12).run()
    assert page.selectbox(key=setting_key("multi_head", "heads")).options == ["1", "2", "3", "4", "6", "12"]
    page.selectbox(key=setting_key("multi_head", "heads")).set_value(3).run()
    assert not page.exception
    assert list(matrix_views(page, "mh.heads")) == ["head1", "head2", "head3"]
    assert "X has 12×12 = 144 numbers" in texts(page.caption)  # too big to edit: drawn instead
    X = lesson.embeddings(N, lesson.Setup(12, 3, 0, False, False))  # (12, 12) exact; the page draws it
    assert_shown(matrix_views(page, "mh.x")["X"], X)
    check_every_matrix(page, 3, X=X)
    assert "Total **576**" in texts(page.markdown)  # 4 · 12²


def test_many_heads_draws_the_first_eight(page):
    page.slider(key=setting_key("multi_head", "d_model")).set_value(16).run()
    page.selectbox(key=setting_key("multi_head", "heads")).set_value(16).run()
    assert not page.exception
    assert len(matrix_views(page, "mh.heads")) == 8
    assert "first 8 of 16 heads" in texts(page.caption)


def test_seed_and_causal(page):
    page.number_input(key=setting_key("multi_head", "seed")).set_value(5).run()
    page.checkbox(key=setting_key("multi_head", "causal")).check().run()
    assert not page.exception
    check_every_matrix(page, 2, seed=5, causal=True)


def test_masked_head_weights_read_zero_not_minus_infinity(page):
    page.checkbox(key=setting_key("multi_head", "causal")).check().run()
    text = np.array(matrix_views(page, "mh.heads")["head1"]["text"], dtype=object).reshape(N, N)  # what each says
    assert (text[np.triu_indices(N, 1)] == "0").all()  # a masked weight is 0; −∞ belongs to the scores
    assert "−∞" not in text


def test_tying_wq_and_wk_makes_the_scores_symmetric(page):
    assert "Scores are not symmetric now" in texts(page.markdown)
    page.checkbox(key=setting_key("multi_head", "tie")).check().run()
    assert not page.exception
    drawn = matrix_views(page, "mh.weights")
    np.testing.assert_array_equal(shown_matrix(drawn["W_Q"]), shown_matrix(drawn["W_K"]))
    heads = check_every_matrix(page, 2, tie=True)
    for scores, weights in heads:
        np.testing.assert_allclose(scores, scores.T, atol=1e-12)
        assert not np.allclose(weights, weights.T)
    assert "symmetric: the largest |S − Sᵀ| over all heads is 0. " in texts(page.success)


def test_the_exercise_quotes_the_asymmetry_of_the_matrix_it_shows(page):
    """The sentence above head 1's scores quotes head 1's largest |S − Sᵀ|, read off that matrix, and says
    which head holds the largest of all (read off every head's scores, worked out by loops)."""
    shown = shown_matrix(matrix_views(page, "mh.scores")["scores"])  # the matrix under the sentence: head 1's scores
    asymmetries = [np.abs(scores - scores.T).max() for scores, _ in check_every_matrix(page, 2)]
    assert np.abs(shown - shown.T).max() == pytest.approx(asymmetries[0], abs=1e-3 * np.abs(shown).max())
    words = as_read(texts(page.markdown))
    # to the chart's own precision ("5.805" beside cells drawn to 2 decimals)
    assert f"In head 1's raw scores (the chart beside), the largest |S − Sᵀ| is {asymmetries[0]:.2f} " in words
    assert asymmetries[1] > asymmetries[0]  # seed 0: head 2 holds the largest, and is named
    assert f"(head 2's is the largest of the 2 heads: {asymmetries[1]:.2f})" in words


def test_random_heads_are_not_said_to_have_roles(page):
    """With random projections no head follows the previous word or the subject; the page says the heads
    differ by chance. Read off the drawn maps: the heads differ, and none puts half its weight on the previous word."""
    drawn = [shown_matrix(view) for view in matrix_views(page, "mh.heads").values()]
    assert np.abs(drawn[0] - drawn[1]).max() > 0.1
    for weights in drawn:
        assert np.mean([weights[i, i - 1] for i in range(1, N)]) < 0.5  # the Real model's "previous token" bar
    words = as_read(texts(page.markdown))
    assert "follow the previous word" not in words and "follows the subject" not in words
    assert "Here the projections are random, so the heads have no roles yet" in words


def type_x(page, row: int, col: int, text: str):
    return type_cell(page, "X", row, col, text, key="mh.x")


def x_said(page) -> str:
    """What is said at X (why the last cell typed into it was refused), as the component was given it."""
    return views_data(page, "mh.x")["warning"]


def test_editing_x_flows_through_and_bad_cells_are_explained(page):
    type_x(page, 0, 0, "2.5")
    type_x(page, 1, 1, "")
    assert not page.exception
    assert x_said(page) == "X[1: movie, dimension 2]: a cell was left empty; the previous value is kept."
    X = shown_x(page)
    assert X[0, 0] == 2.5 and X[1, 1] == -1.27  # the empty cell keeps its value
    check_every_matrix(page, 2)
    page.checkbox(key=setting_key("multi_head", "causal")).check().run()  # the next move: the refusal is gone
    assert x_said(page) == "" and shown_x(page)[0, 0] == 2.5


def test_a_block_pasted_into_x_lands_whole_or_not_at_all(page):
    """A 2 × 3 block lands from the cell named, exactly as typed (−0 kept); one with a bad cell or past X's edge is
    refused whole, saying why, and changes nothing; the same edit sent again does nothing more."""
    drawn = views_data(page, "mh.x")["views"][0]
    type_cells(page, "X", drawn["rows"][10], "x6", [["1", "-0", "1e-3"], ["−2", "0.125", "7"]], key="mh.x", id="p-1")
    X = shown_x(page)
    assert X[10, 5:].tolist() == [1.0, -0.0, 0.001] and X[11, 5:].tolist() == [-2.0, 0.125, 7.0]
    assert np.copysign(1, X[10, 6]) == -1 and x_said(page) == ""
    type_cells(page, "X", drawn["rows"][11], "x1", [["5"], ["6"]], key="mh.x", id="p-2")  # one row left
    assert "The pasted block is 2 rows × 1 column" in x_said(page)
    type_cells(page, "X", drawn["rows"][0], "x1", [["5", "abc"]], key="mh.x", id="p-3")
    assert x_said(page).startswith("Nothing was pasted: X[0: The, dimension 2]: “abc” is not a number")
    np.testing.assert_array_equal(shown_x(page), X)
    assert views_data(page, "mh.x")["edited"] == "p-3"  # refused, and echoed: the browser's queue moves on
    type_cells(page, "X", drawn["rows"][0], "x1", [["9"]], key="mh.x", id="p-3")  # a resend: nothing more
    np.testing.assert_array_equal(shown_x(page), X)


def test_x_edits_survive_other_pages_and_other_sizes(page):
    """Edits come back after another page, another seed and another d_model."""
    type_x(page, 0, 0, "2.5")
    type_x(page, 11, 7, "-3")
    moves = [
        lambda: page.number_input(key=setting_key("multi_head", "seed")).set_value(3).run(),
        lambda: page.number_input(key=setting_key("multi_head", "seed")).set_value(0).run(),
        lambda: page.slider(key=setting_key("multi_head", "d_model")).set_value(4).run(),
        lambda: page.slider(key=setting_key("multi_head", "d_model")).set_value(8).run(),
        lambda: page.switch_page("pages/geometry.py").run(),
        lambda: page.switch_page("pages/multi_head.py").run(),
    ]
    for move in moves:
        move()
    assert not page.exception
    X = shown_x(page)
    assert (X[0, 0], X[11, 7]) == (2.5, -3.0)
    check_every_matrix(page, 2)
    page.number_input(key=setting_key("multi_head", "seed")).set_value(3).run()
    assert shown_x(page)[0, 0] != 2.5  # seed 3 has its own X, without seed 0's edits


@pytest.mark.parametrize("typed", ["**x**", "$x^2$", ":red[x]", "[a](http://b)"])
def test_cell_warnings_show_typed_markup_literally(page, typed):
    """What the user typed is said as typed (the component sets text, never markup), and nothing else warns."""
    type_x(page, 0, 0, typed)
    assert f"“{typed}” is not a number" in x_said(page) and not page.warning
    assert shown_x(page)[0, 0] == 0.13


def test_default_head_count_follows_d_model(page):
    page.slider(key=setting_key("multi_head", "d_model")).set_value(7).run()
    assert page.selectbox(key=setting_key("multi_head", "heads")).value == 1  # 7 is prime: one head of width 7
    assert "each d_head = 7 wide" in texts(page.header)
    assert math.isclose(float(page.dataframe[-1].value["FLOPs"].iloc[2]), 5 * N * N * 1)


def test_presenter_mode_sends_larger_numbers_for_the_browser_to_fit(page):
    """The browser sizes the numbers to their cells (layout.js cellFont): Python sends them at any font size."""
    page.session_state["presenter"] = True  # the switch itself lives in app.py
    page.run()
    heads = views_data(page, "mh.heads")
    assert heads["font_size"] == 18 and all(len(view["text"]) == N * N for view in heads["views"])


def test_predict_mode_covers_each_head_until_its_focus_row_is_clicked():
    from tests.support.apptest import click_cell, open_app, use_control

    at = open_app()
    use_control(at, "predict", "most")  # the Playground's predict mode holds here too
    at.switch_page(PAGE).run()
    heads = matrix_views(at, "mh.heads")
    assert all(view["cover"].startswith("Predict first: which cell of row 4: good") for view in heads.values())
    click_cell(at, "mh.heads", "head2", 4, 3, covered=True)
    heads = matrix_views(at, "mh.heads")
    assert "cover" not in heads["head2"] and heads["head1"]["cover"]  # each head asks on its own
    weights = shown_matrix(heads["head2"])[4]
    best = int(np.argmax(weights))
    said = texts(at.info)
    assert ("Right" if best == 3 else "Not this time") + ": you predicted 3: not (" in said
    assert f"is {heads['head2']['cols'][best]}: " in said


def test_in_predict_mode_the_tie_waits_for_a_guess():
    """The tie exercise's "Predict first" had nothing to commit a guess to."""
    from tests.support.apptest import open_app, use_control

    at = open_app()
    use_control(at, "predict", "most")
    at.switch_page("pages/multi_head.py").run()
    tie = at.checkbox(key=setting_key("multi_head", "tie"))
    guess = at.radio(key="ask.multi_head.tie")
    assert tie.disabled and guess.value is None and "what must be true of the scores S" in guess.label
    guess.set_value(0).run()
    assert not at.checkbox(key=setting_key("multi_head", "tie")).disabled
    assert texts(at.info).startswith("Right: you predicted “S is symmetric: S[i, j] = S[j, i]”. Tied, the largest")
