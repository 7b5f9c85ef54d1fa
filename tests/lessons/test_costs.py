"""Parameter and FLOP counts, checked by hand and by a loop that counts each operation of one pass."""

import pytest

from attnviz import AttnvizInputError
from attnviz.lessons import costs


def counted(n: int, d: int, h: int) -> dict[str, int]:
    """Each step of one pass done as loops, counting operations: a multiply-add is 2, a softmax step is 1."""
    d_head = d // h
    count = dict.fromkeys(("projections", "scores", "softmax", "weighted_sum", "output"), 0)
    for _matrix in range(3):
        for _row in range(n):
            for _column in range(d):
                count["projections"] += 2 * d  # a row of X times a column of W: d multiply-adds
    for _head in range(h):
        for _query in range(n):
            for _key in range(n):
                count["scores"] += 2 * d_head
                count["softmax"] += 5  # ÷√d_head, − the row's largest, e^x, + to the row's sum, ÷ the sum
            for _column in range(d_head):
                count["weighted_sum"] += 2 * n  # n weights times n values
    for _row in range(n):
        for _column in range(d):
            count["output"] += 2 * d
    return count


@pytest.mark.parametrize(("n", "d_model", "n_heads"), [(4, 8, 2), (12, 8, 2), (3, 4, 4), (5, 12, 3), (1, 1, 1)])
def test_flops_match_an_operation_count(n, d_model, n_heads):
    work = costs.flops(n, d_model, n_heads)
    expected = counted(n, d_model, n_heads)
    assert {step: getattr(work, step) for step in expected} == expected
    assert work.total == sum(expected.values())
    assert work.weights_stored == n_heads * n * n


def test_flops_for_a_small_case_by_hand():
    work = costs.flops(n=4, d_model=8, n_heads=2)
    assert (work.projections, work.scores, work.softmax, work.weighted_sum, work.output) == (1536, 256, 160, 256, 512)
    assert work.linear_in_n == 2048 and work.quadratic_in_n == 672 and work.total == 2720


def test_softmax_outweighs_the_scores_for_one_dimensional_heads():
    """The old docstring called softmax small beside the d_head multiply-adds: false at d_head = 1."""
    narrow = costs.flops(n=10, d_model=8, n_heads=8)  # d_head = 1: 2 FLOPs a score, 5 for its softmax
    assert narrow.softmax == 5 * 100 * 8 and narrow.scores == 2 * 100 * 8 and narrow.softmax > narrow.scores
    wide = costs.flops(n=10, d_model=64, n_heads=1)
    assert wide.softmax < wide.scores / 25


@pytest.mark.parametrize(("d_model", "n_heads"), [(8, 1), (8, 2), (8, 8), (12, 3), (512, 8)])
def test_parameters_are_four_d_squared_whatever_the_heads(d_model, n_heads):
    params = costs.parameters(d_model, n_heads)
    assert params.d_head * n_heads == d_model
    assert params.per_head == 3 * d_model * (d_model // n_heads)
    assert params.qkv == 3 * d_model**2 and params.output == d_model**2 and params.total == 4 * d_model**2


def test_crossover_is_where_the_two_parts_meet():
    # 8 n d² = n² (4d + 5h): d = 8, h = 2 gives n = 512 / 42
    assert costs.crossover_length(8, 2) == pytest.approx(512 / 42)
    assert costs.crossover_length(512, 1) == pytest.approx(2 * 512, rel=0.01)  # wide heads: about 2·d_model
    for d_model, n_heads in ((8, 2), (6, 3), (4, 4)):
        n = costs.crossover_length(d_model, n_heads)
        linear = 8 * n * d_model**2
        quadratic = n * n * (4 * d_model + 5 * n_heads)
        assert linear == pytest.approx(quadratic)
        below, above = costs.flops(int(n), d_model, n_heads), costs.flops(int(n) + 1, d_model, n_heads)
        assert below.quadratic_in_n <= below.linear_in_n and above.quadratic_in_n > above.linear_in_n


def test_cost_grows_like_n_squared_for_long_sequences():
    lengths, linear, quadratic = costs.cost_curve([2000, 1000, 1000], 8, 2)
    assert list(lengths) == [1000, 2000]
    assert linear[1] / linear[0] == 2 and quadratic[1] / quadratic[0] == 4


def test_divisors_and_bad_head_counts():
    assert costs.divisors(12) == [1, 2, 3, 4, 6, 12]
    with pytest.raises(AttnvizInputError, match=r"must divide d_model \(8\); try one of \[1, 2, 4, 8\]"):
        costs.parameters(8, 3)
    with pytest.raises(AttnvizInputError, match="at least one token"):
        costs.flops(0, 8, 2)
    with pytest.raises(AttnvizInputError, match="at least 1"):
        costs.crossover_length(0, 1)


def test_page_words_use_d_head_and_one_crossover():
    text = costs.parameters_text(costs.parameters(8, 2))
    assert "d_head = d_model / n_heads = 8 / 2 = 4" in text and "3·8·4 = 96 weights" in text
    assert "2 heads make 192 = 3·d_model² = 3·8²" in text and "Total **256**" in text and "d_k" not in text
    assert "1 head makes 192" in costs.parameters_text(costs.parameters(8, 1))
    assert "= 12.2 the n² part is the larger" in costs.crossover_text(8, 2)  # 512 / 42
    assert "2·d_model = 16" in costs.crossover_text(8, 2)
    table = costs.flops_table(costs.flops(12, 8, 2))
    assert table["FLOPs"] == [4608, 2304, 1440, 2304, 1536, 12192]
    assert table["grows like"][2] == "n² h"
    assert "n²·h = 288 numbers" in costs.flops_caption(12, costs.flops(12, 8, 2))
