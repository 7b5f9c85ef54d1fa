"""Every worked example reproduces its correct numbers (see shared/reference/INDEX.md for the corrections)."""

import numpy as np
import pytest

from attnviz import PRESETS, attention, tokenize
from attnviz.lessons.examples import EXAMPLES
from tests.reference import naive_attention


def run(preset):
    n = len(preset.tokens)
    mask = np.ones((n, n), dtype=bool)
    mask[:, list(preset.blocked_keys)] = False
    return attention(preset.Q, preset.K, preset.V, causal=preset.causal, scale=preset.scale, mask=mask)


@pytest.mark.parametrize("key", PRESETS)
def test_preset_is_consistent(key):
    preset = PRESETS[key]
    n = len(preset.tokens)
    assert preset.tokens == tuple(tokenize(preset.sentence))
    assert preset.Q.shape[0] == preset.K.shape[0] == preset.V.shape[0] == n
    assert preset.Q.shape[1] == preset.K.shape[1]
    assert 0 <= preset.focus < n
    title, description = EXAMPLES[key]  # its words
    assert title and description and "\n" not in description
    allowed = [[j not in preset.blocked_keys for j in range(n)] for _ in range(n)]
    _, weights, output = naive_attention(
        preset.Q.tolist(),
        preset.K.tolist(),
        preset.V.tolist(),
        causal=preset.causal,
        scale=preset.scale,
        allowed=allowed,
    )
    result = run(preset)
    np.testing.assert_allclose(result.weights, weights, atol=1e-12)
    np.testing.assert_allclose(result.output, output, atol=1e-12)


def test_movie_review_tokens():
    assert PRESETS["movie_negation"].tokens == (
        "The",
        "movie",
        "was",
        "not",
        "good",
        ",",
        "but",
        "the",
        "soundtrack",
        "was",
        "amazing",
        ".",
    )


def test_movie_negation_good_attends_to_not_and_amazing():
    result = run(PRESETS["movie_negation"])
    good = result.weights[4]
    assert round(good[3], 2) == 0.67 and round(good[10], 2) == 0.33
    assert np.all(np.round(np.delete(good, [3, 10]), 2) == 0.0)
    np.testing.assert_allclose(result.output[4], [0.99999467, 0.33023767], atol=1e-8)


def test_pronoun_it_weights():
    preset = PRESETS["pronoun_it"]
    result = run(preset)
    np.testing.assert_array_equal(result.scores[3, :3], [10.0, 7.0, 5.0])
    np.testing.assert_allclose(result.weights[3], [0.8703, 0.1043, 0.0254, 0.0], atol=5e-5)


def test_cat_sat_has_the_corrected_weights_and_outputs():
    result = run(PRESETS["cat_sat"])
    np.testing.assert_allclose(result.scores, [[0.5, 0.6, 0.4], [0.32, 0.78, 0.22], [0.78, 0.54, 0.66]], atol=1e-12)
    np.testing.assert_allclose(
        result.weights, [[0.3328, 0.3572, 0.3101], [0.3016, 0.4175, 0.2810], [0.3620, 0.3055, 0.3325]], atol=5e-5
    )
    np.testing.assert_allclose(result.output, [[0.4430, 0.6641], [0.4765, 0.6487], [0.4136, 0.6780]], atol=5e-5)
    # The reference text's printed rows summed to 0.93, 0.93 and 0.99; ours sum to 1.
    np.testing.assert_allclose(result.weights.sum(axis=1), 1.0, rtol=1e-14)


def test_notebook_causal_matches_its_printed_weights_to_1e8():
    result = run(PRESETS["notebook_causal"])
    expected = [
        [1, 0, 0, 0],
        [0.51359112, 0.48640888, 0, 0],
        [0.53753304, 0.27144826, 0.1910187, 0],
        [0.19293995, 0.03256643, 0.57960627, 0.19488734],
    ]
    np.testing.assert_allclose(result.weights, expected, atol=1e-8)
    np.testing.assert_allclose(
        result.output[1],
        [0.41440401, -0.13671232, 0.02128364, -0.60532081, 0.49977893, -1.1936286, -0.27463831, -1.10169151],
        atol=1e-7,
    )


def test_identical_keys_are_uniform():
    result = run(PRESETS["identical_keys"])
    np.testing.assert_allclose(result.weights, np.full((4, 4), 0.25), atol=1e-15)


def test_causal_movie_first_row_is_one_hot():
    result = run(PRESETS["causal_movie"])
    assert result.weights[0].tolist() == [1.0] + [0.0] * 11
    assert np.all(np.triu(result.weights, k=1) == 0.0)
    np.testing.assert_allclose(result.weights[10, [8, 10]], [0.5, 0.5], atol=1e-12)


def test_query_good_against_three_keys_from_the_refresher():
    # q_good = [0, 1] against k_good, k_not and k_the, scaled by 1/sqrt(2): 0.46, 0.32, 0.22.
    result = attention([[0, 1]], [[0, 1], [0.5, 0.5], [0, 0]], np.eye(3))
    np.testing.assert_allclose(result.weights[0], [0.46, 0.32, 0.22], atol=5e-3)
