import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import attnviz
from attnviz import AttnvizInputError, attention, causal_mask, softmax
from tests.reference import naive_attention

finite = st.floats(min_value=-10, max_value=10, allow_nan=False, allow_infinity=False)


@st.composite
def qkv(draw, max_n=6, max_d=5):
    """Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v): query and key counts drawn apart, as in cross-attention."""
    n_q, n_k = draw(st.integers(1, max_n)), draw(st.integers(1, max_n))
    d_k = draw(st.integers(1, max_d))
    d_v = draw(st.integers(1, max_d))
    Q = draw(arrays(float, (n_q, d_k), elements=finite))
    K = draw(arrays(float, (n_k, d_k), elements=finite))
    V = draw(arrays(float, (n_k, d_v), elements=finite))
    return Q, K, V


@settings(max_examples=200, deadline=None)
@given(qkv(), st.booleans(), st.booleans(), st.floats(0.25, 4.0), st.data())
def test_matches_naive_loop_implementation(matrices, causal, scale, temperature, data):
    Q, K, V = matrices
    allowed = data.draw(arrays(bool, (len(Q), len(K))))
    result = attention(Q, K, V, causal=causal, scale=scale, temperature=temperature, mask=allowed)
    scores, weights, output = naive_attention(
        Q.tolist(),
        K.tolist(),
        V.tolist(),
        causal=causal,
        scale=scale,
        temperature=temperature,
        allowed=allowed.tolist(),
    )
    np.testing.assert_allclose(result.scores, scores, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(result.weights, weights, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(result.output, output, rtol=1e-9, atol=1e-9)


@settings(max_examples=100, deadline=None)
@given(qkv(), st.booleans())
def test_rows_sum_to_one_and_blocked_weights_are_exactly_zero(matrices, causal):
    Q, K, V = matrices
    mask = np.ones((len(Q), len(K)), dtype=bool)
    mask[:, len(K) // 2] = False  # block one key for every query
    result = attention(Q, K, V, causal=causal, mask=mask)
    assert np.all(result.weights[result.blocked] == 0.0)
    live = ~result.fully_masked
    np.testing.assert_allclose(result.weights[live].sum(axis=1), 1.0, rtol=1e-12)
    assert np.all(np.isneginf(result.masked[result.blocked]))
    np.testing.assert_array_equal(result.masked[~result.blocked], result.scaled[~result.blocked])


@settings(max_examples=100, deadline=None)
@given(qkv(), st.randoms(use_true_random=False))
def test_without_mask_permuting_tokens_permutes_the_result(matrices, rnd):
    """Reordering the queries reorders the rows; reordering the keys with their values reorders the columns only."""
    Q, K, V = matrices
    queries, keys = list(range(len(Q))), list(range(len(K)))
    rnd.shuffle(queries)
    rnd.shuffle(keys)
    base = attention(Q, K, V)
    permuted = attention(Q[queries], K[keys], V[keys])
    np.testing.assert_allclose(permuted.weights, base.weights[np.ix_(queries, keys)], atol=1e-12)
    np.testing.assert_allclose(permuted.output, base.output[queries], atol=1e-9)


@settings(max_examples=100, deadline=None)
@given(qkv())
def test_scaling_equals_scaling_the_queries(matrices):
    Q, K, V = matrices
    d_k = Q.shape[1]
    scaled = attention(Q, K, V, scale=True)
    by_hand = attention(Q / math.sqrt(d_k), K, V, scale=False)  # (Q/√d_k) Kᵀ: the division done before the product
    reach = 1e-12 * (1 + np.abs(by_hand.scores).max())  # the two orders of rounding differ by a few ulps
    np.testing.assert_allclose(scaled.scaled, by_hand.scores, rtol=1e-12, atol=reach)
    np.testing.assert_allclose(scaled.weights, by_hand.weights, atol=1e-12)
    assert scaled.scale_factor == math.sqrt(d_k) and by_hand.scale_factor == 1.0


@settings(max_examples=100, deadline=None)
@given(qkv(), st.floats(0.1, 10))
def test_temperature_divides_the_scaled_scores(matrices, temperature):
    """Dividing the scores by τ is dividing the queries by τ: the same weights by another route."""
    Q, K, V = matrices
    base = attention(Q, K, V)
    warm = attention(Q, K, V, temperature=temperature)
    cooled_queries = attention(Q / temperature, K, V)
    np.testing.assert_allclose(warm.scaled, base.scaled / temperature, rtol=1e-12, atol=1e-300)
    reach = 1e-12 * (1 + np.abs(warm.scaled).max())
    np.testing.assert_allclose(warm.scaled, cooled_queries.scaled, rtol=1e-12, atol=reach)
    np.testing.assert_allclose(warm.weights, cooled_queries.weights, atol=1e-9)
    assert warm.scale_factor == pytest.approx(math.sqrt(Q.shape[1]) * temperature, rel=1e-15)


def test_temperature_extremes_flatten_or_sharpen():
    Q = np.array([[1.0, 0.0]])
    K = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    V = np.eye(3)
    hot = attention(Q, K, V, temperature=1e6).weights[0]
    cold = attention(Q, K, V, temperature=1e-3).weights[0]
    np.testing.assert_allclose(hot, [1 / 3] * 3, atol=1e-6)
    np.testing.assert_allclose(cold, [1.0, 0.0, 0.0], atol=1e-12)
    # Entropy falls as the temperature falls.
    entropies = [
        -(w * np.log(w + 1e-300)).sum() for t in (4, 1, 0.25) for w in [attention(Q, K, V, temperature=t).weights[0]]
    ]
    assert entropies[0] > entropies[1] > entropies[2]


@settings(max_examples=100, deadline=None)
@given(qkv())
def test_causal_first_row_is_one_hot(matrices):
    Q, K, V = matrices
    result = attention(Q, K, V, causal=True)
    expected = np.zeros(len(K))
    expected[0] = 1.0
    np.testing.assert_array_equal(result.weights[0], expected)
    np.testing.assert_array_equal(result.output[0], V[0])
    assert np.all(np.triu(result.weights, k=1) == 0.0)


@settings(max_examples=100, deadline=None)
@given(qkv())
def test_causal_mask_is_top_left_aligned_for_any_query_and_key_counts(matrices):
    """PyTorch's is_causal: query i may see keys 0..i, whatever n_q and n_k (torch.ones(L, S).tril(diagonal=0)),
    not the bottom-right alignment some libraries use when the counts differ (keys n_k − n_q + i and before)."""
    Q, K, V = matrices
    n_q, n_k = len(Q), len(K)
    result = attention(Q, K, V, causal=True)
    top_left = [[j <= i for j in range(n_k)] for i in range(n_q)]
    np.testing.assert_array_equal(result.blocked, np.logical_not(top_left))
    np.testing.assert_array_equal(result.fully_masked, np.zeros(n_q, dtype=bool))  # key 0 is always visible
    _, weights, output = naive_attention(Q.tolist(), K.tolist(), V.tolist(), causal=True)
    np.testing.assert_allclose(result.weights, weights, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(result.output, output, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize(
    ("n_q", "n_k", "allowed"),
    [
        (2, 4, [[1, 0, 0, 0], [1, 1, 0, 0]]),  # bottom-right would let query 0 see keys 0..2
        (4, 2, [[1, 0], [1, 1], [1, 1], [1, 1]]),  # bottom-right would leave queries 0 and 1 with no key
        (3, 3, [[1, 0, 0], [1, 1, 0], [1, 1, 1]]),
    ],
)
def test_causal_with_unequal_counts_by_hand(n_q, n_k, allowed):
    """Every score 0, so each query spreads its weight evenly over the keys it may see: 1/(i + 1) on keys 0..i."""
    result = attention(np.zeros((n_q, 1)), np.zeros((n_k, 1)), np.eye(n_k), causal=True)
    allowed = np.array(allowed, dtype=bool)
    np.testing.assert_array_equal(~result.blocked, allowed)
    np.testing.assert_allclose(result.weights, allowed / allowed.sum(axis=1, keepdims=True), rtol=1e-15)


@settings(max_examples=100, deadline=None)
@given(qkv(), arrays(float, 3, elements=finite))
def test_identical_keys_give_uniform_weights(matrices, key):
    Q, _, V = matrices
    n_q, n_k = len(Q), len(V)
    K = np.tile(np.resize(key, Q.shape[1]), (n_k, 1))
    weights = attention(Q, K, V).weights
    np.testing.assert_allclose(weights, np.full((n_q, n_k), 1 / n_k), atol=1e-12)


def test_fully_masked_row_gives_zero_weights_and_output_without_nan():
    Q = K = V = np.arange(6.0).reshape(3, 2)
    mask = np.ones((3, 3), dtype=bool)
    mask[1] = False
    result = attention(Q, K, V, mask=mask)
    assert result.fully_masked.tolist() == [False, True, False]
    np.testing.assert_array_equal(result.weights[1], [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(result.output[1], [0.0, 0.0])
    assert np.isfinite(result.weights).all() and np.isfinite(result.output).all()


def test_result_is_read_only():
    result = attention(np.eye(2), np.eye(2), np.eye(2))
    with pytest.raises(ValueError):
        result.weights[0, 0] = 5.0


def test_causal_mask_is_lower_triangular_with_diagonal():
    np.testing.assert_array_equal(causal_mask(3), [[True, False, False], [True, True, False], [True, True, True]])
    np.testing.assert_array_equal(causal_mask(1), [[True]])  # one token sees itself


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ([1e300, -1e300], [1.0, 0.0]),
        ([1.7e308, -1.7e308], [1.0, 0.0]),
        ([-np.inf, 3.0, -np.inf], [0.0, 1.0, 0.0]),
        ([-np.inf, -np.inf], [0.0, 0.0]),
        ([1000.0, 1000.0], [0.5, 0.5]),
        ([-1000.0, -1001.0], [1 / (1 + math.exp(-1)), math.exp(-1) / (1 + math.exp(-1))]),
    ],
)
def test_softmax_is_stable(row, expected):
    # pytest's filterwarnings turns any RuntimeWarning (overflow, invalid) into a failure.
    np.testing.assert_allclose(softmax(np.array(row)), expected, rtol=1e-12)


def test_softmax_axis():
    x = np.array([[0.0, 0.0], [1.0, 1.0]])
    np.testing.assert_allclose(softmax(x, axis=0), [[0.2689414213699951, 0.2689414213699951], [0.7310585786300049] * 2])


def test_softmax_shifts_each_row_by_its_own_maximum():
    """Rows far apart in level: shifting by the matrix's maximum instead of each row's would send e^(−1000) to 0."""
    x = np.array([[0.0, 0.0], [-1000.0, -1001.0], [-np.inf, -np.inf]])
    expected = [[0.5, 0.5], [1 / (1 + math.exp(-1)), math.exp(-1) / (1 + math.exp(-1))], [0.0, 0.0]]
    np.testing.assert_allclose(softmax(x), expected, rtol=1e-12)
    np.testing.assert_allclose(softmax(x.T, axis=0), np.transpose(expected), rtol=1e-12)


def test_softmax_works_in_double_precision_whatever_it_is_given():
    weights = softmax(np.array([0.0, 1.0], dtype=np.float32))
    assert weights.dtype == np.float64
    assert weights[1] == pytest.approx(1 / (1 + math.exp(-1)), rel=1e-15)  # float32 would be off by about 1e-8
    np.testing.assert_allclose(softmax([0, 1]), weights, rtol=1e-15)  # a plain list of whole numbers


# ----------------------------------------------------------------------------- input errors

ok = np.ones((2, 2))
FINITE = "has a value that is not a finite number (NaN or infinity) at row"
TOO_LARGE = (
    "Some scores are too large to compute (they overflow to infinity). Use smaller numbers in Q and K, "
    "or a higher temperature."
)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: attention(np.ones(3), ok, ok), "Q must be a table of numbers (2-D: one row a token), but it has 1 dimension(s)."),
        (lambda: attention(ok, np.ones((2, 2, 2)), ok), "K must be a table of numbers (2-D: one row a token), but it has 3 dimension(s)."),
        (
            lambda: attention(ok, np.ones((2, 3)), ok),
            "Q has 2 columns but K has 3: a query and a key must have the same length to take their dot product.",
        ),
        (lambda: attention(ok, np.ones((3, 2)), np.ones((4, 2))), "K has 3 rows but V has 4: every key needs a value."),
        (lambda: attention(np.ones((0, 2)), ok, ok), "Q has no rows: attention needs at least one token."),
        (lambda: attention(ok, ok, np.ones((2, 0))), "V has no columns: each vector needs at least one number."),
        (lambda: attention([[1, np.nan], [0, 0]], ok, ok), f"Q {FINITE} 0, column 1."),
        (lambda: attention(ok, [[1, 1], [0, np.inf]], ok), f"K {FINITE} 1, column 1."),
        (lambda: attention(ok, ok, [[1, 1], [-np.inf, 0]]), f"V {FINITE} 1, column 0."),
        (lambda: attention([["a", 1], [0, 0]], ok, ok), "Q must contain only numbers."),
        (lambda: attention(ok, ok, ok, temperature=0), "The temperature must be a positive number, not 0."),
        (lambda: attention(ok, ok, ok, temperature=-1.5), "The temperature must be a positive number, not -1.5."),
        (lambda: attention(ok, ok, ok, temperature=float("nan")), "The temperature must be a positive number, not nan."),
        (lambda: attention(ok, ok, ok, temperature=float("inf")), "The temperature must be a positive number, not inf."),
        (lambda: attention(ok, ok, ok, temperature="1"), "The temperature must be a positive number, not '1'."),
        (
            lambda: attention(ok, ok, ok, mask=np.ones((3, 3), dtype=bool)),
            "The mask has shape (3, 3) but the scores have shape (2, 2): it needs one True/False per (query, key) pair.",
        ),
        (lambda: attention(ok, ok, ok, mask=np.ones((2, 2))), "The mask must hold True/False values (True = may attend)."),
        (lambda: attention(np.full((2, 2), 1e200), np.full((2, 2), 1e200), ok), TOO_LARGE),
        (lambda: attention(ok * 1e300, ok, ok, temperature=1e-300), TOO_LARGE),
        # 1e400 − 1e400 inside the product: NaN, not infinity, and still no RuntimeWarning
        (lambda: attention([[1e200, 1e200]], [[1e200, -1e200]], [[1.0]]), TOO_LARGE),
        (lambda: causal_mask(0), "A causal mask needs at least one token."),
        (lambda: attnviz.random_qkv(0, 2, 2, seed=1), "Random vectors need at least one token and one dimension."),
        (lambda: attnviz.random_qkv(2, 2, 2, seed=-1), "The seed must be a whole number 0 or above, not -1."),
    ],
)
def test_input_errors_explain_themselves(call, message):
    with pytest.raises(AttnvizInputError) as caught:
        call()
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


# ----------------------------------------------------------------------------- random vectors


def test_random_qkv_is_reproducible_and_prefix_stable():
    Q1, K1, V1 = attnviz.random_qkv(5, 4, 3, seed=7)
    Q2, K2, V2 = attnviz.random_qkv(5, 4, 3, seed=7)
    for a, b in ((Q1, Q2), (K1, K2), (V1, V2)):
        np.testing.assert_array_equal(a, b)
    Q3, K3, V3 = attnviz.random_qkv(8, 6, 5, seed=7)
    np.testing.assert_array_equal(Q3[:5, :4], Q1)
    np.testing.assert_array_equal(K3[:5, :4], K1)
    np.testing.assert_array_equal(V3[:5, :3], V1)
    assert not np.array_equal(attnviz.random_qkv(5, 4, 3, seed=8)[0], Q1)
    assert Q1.shape == (5, 4) and V1.shape == (5, 3)


def test_random_qkv_rounds_when_asked():
    exact, _, _ = attnviz.random_qkv(3, 3, 3, seed=0)
    Q, _, _ = attnviz.random_qkv(3, 3, 3, seed=0, decimals=2)
    assert np.abs(Q - exact).max() <= 0.005 + 1e-12  # the nearest hundredth
    np.testing.assert_allclose(Q * 100, np.rint(Q * 100), rtol=0, atol=1e-9)  # whole hundredths
    assert not np.array_equal(Q, exact)


def test_import_does_not_pull_in_streamlit():
    import subprocess
    import sys

    code = "import sys, attnviz; assert 'streamlit' not in sys.modules, 'streamlit was imported'"
    subprocess.run([sys.executable, "-c", code], check=True)
