import pytest

from attnviz import AttnvizInputError
from attnviz.lessons import costs


@pytest.mark.parametrize(("d_model", "n_heads"), [(8, 1), (8, 2), (8, 8), (12, 3), (512, 8)])
def test_parameters_are_four_d_squared_whatever_the_heads(d_model, n_heads):
    params = costs.parameters(d_model, n_heads)
    assert params.qkv == 3 * d_model**2
    assert params.output == d_model**2
    assert params.total == 4 * d_model**2


def test_general_form_per_head():
    params = costs.parameters(8, 2, d_k=3, d_v=5)  # d(2 d_k + d_v) = 8 · 11
    assert params.per_head == 88 and params.qkv == 176 and params.output == 2 * 5 * 8


def test_flops_for_a_small_case():
    work = costs.flops(n=4, d_model=8, n_heads=2)
    assert work.projections == 3 * 2 * 4 * 64  # 1536
    assert work.scores == work.weighted_sum == 2 * 16 * 8  # 256
    assert work.output == 2 * 4 * 64  # 512
    assert work.total == 2560 and work.weights_stored == 2 * 16


def test_cost_grows_like_n_squared_for_long_sequences():
    lengths, linear, quadratic = costs.cost_curve([1000, 2000], 8, 2)
    assert list(lengths) == [1000, 2000]
    assert linear[1] / linear[0] == 2 and quadratic[1] / quadratic[0] == 4
    at_crossover = costs.flops(int(costs.crossover_length(8)), 8, 2)
    assert at_crossover.linear_in_n == at_crossover.quadratic_in_n


def test_divisors_and_bad_head_counts():
    assert costs.divisors(12) == [1, 2, 3, 4, 6, 12]
    with pytest.raises(AttnvizInputError, match=r"must divide d_model \(8\); try one of \[1, 2, 4, 8\]"):
        costs.parameters(8, 3)
    with pytest.raises(AttnvizInputError, match="at least one token"):
        costs.flops(0, 8, 2)
