import math

import numpy as np
import pytest

from attnviz import AttnvizInputError
from attnviz.lessons import geometry as geo


def test_refresher_rows_give_the_textbook_angles_and_the_worked_sum():
    rows = {row.name: row.comparison for row in geo.refresher_rows()}
    same, right, opposite = rows["same direction (0°)"], rows["perpendicular (90°)"], rows["opposite (180°)"]
    assert (same.angle_deg, same.dot) == (0.0, 10.0) and same.cos == pytest.approx(1.0)
    assert (right.angle_deg, right.dot, right.cos) == (90.0, 0.0, 0.0)
    assert (opposite.angle_deg, opposite.dot) == (180.0, -10.0) and opposite.cos == pytest.approx(-1.0)
    worked = rows["worked example"]  # [2, 3]·[5, −1] = 10 − 3
    assert worked.dot == 7.0
    # |a| = √(4 + 9), |b| = √(25 + 1), cos θ = 7 / √338 = 0.38075…, θ = 67.62°: each from the coordinates by hand
    assert worked.query_length == pytest.approx(math.sqrt(13)) and worked.key_length == pytest.approx(math.sqrt(26))
    assert worked.cos == pytest.approx(0.3807498, abs=1e-7)
    assert worked.angle_deg == pytest.approx(67.6198649, abs=1e-7)


def test_pronoun_example_scores_weights_and_angles():
    result = geo.attend_2d(geo.PRONOUN_QUERY, geo.PRONOUN_KEYS, geo.PRONOUN_VALUES)
    assert geo.PRONOUN_KEY_LABELS == ("animal", "street", "because")
    np.testing.assert_array_equal(result.scores, [10, 7, 5])
    np.testing.assert_allclose(result.scaled, np.array([10, 7, 5]) / math.sqrt(2))
    np.testing.assert_allclose(result.weights, [0.8703, 0.1043, 0.0254], atol=5e-5)
    assert [c.angle_deg for c in result.comparisons][0::2] == [0.0, 0.0]  # animal and because point like "it"
    assert result.comparisons[1].angle_deg == pytest.approx(57.5288, abs=1e-4)
    assert result.comparisons[1].cos == pytest.approx(7 / (math.sqrt(10) * math.sqrt(17)))
    # The Playground's example: values animal [1, 0], street [0, 1], because [0, 0], so the context vector is
    # [w_animal, w_street], worked out here with math.exp alone.
    assert geo.PRONOUN_VALUES == ((1, 0), (0, 1), (0, 0))
    exps = [math.exp(s / math.sqrt(2)) for s in (10, 7, 5)]
    np.testing.assert_allclose(result.context, [exps[0] / sum(exps), exps[1] / sum(exps)], rtol=1e-12)
    np.testing.assert_allclose(result.context, [0.8703, 0.1043], atol=5e-5)
    # without the √2 the same order, but sharper: e^10 / (e^10 + e^7 + e^5)
    assert result.unscaled_weights[0] == pytest.approx(math.exp(10) / (math.exp(10) + math.exp(7) + math.exp(5)))


def test_magnitude_problem_street_beats_because():
    wins = geo.magnitude_wins(geo.PRONOUN_QUERY, geo.PRONOUN_KEYS)
    assert wins == [geo.MagnitudeWin(longer=1, aligned=2)]  # street (7.0, 57.5°) beats because (5.0, 0°)
    assert geo.magnitude_wins([1, 0], [[1, 0], [2, 0]]) == []  # same direction: no paradox


def test_zero_vectors_have_no_angle_and_do_not_divide_by_zero():
    comparison = geo.compare([0, 0], [1, 2])
    assert comparison.dot == 0 and comparison.angle_deg is None and comparison.cos is None
    assert "undefined" in geo.angle_text(comparison)
    result = geo.attend_2d([0, 0], geo.PRONOUN_KEYS, geo.PRONOUN_VALUES)
    np.testing.assert_allclose(result.weights, [1 / 3] * 3)  # every score 0: uniform weights
    assert geo.magnitude_wins([1, 1], [[0, 0], [3, 0]]) == []


@pytest.mark.parametrize(
    ("query", "message"),
    [([1, 2, 3], "two numbers"), ([11, 0], "between"), ([math.nan, 0], "finite"), (["a", 1], "two numbers")],
)
def test_bad_vectors_get_plain_messages(query, message):
    with pytest.raises(AttnvizInputError, match=message):
        geo.attend_2d(query, geo.PRONOUN_KEYS, geo.PRONOUN_VALUES)


def pronoun() -> geo.GeometryResult:
    """Computed inside each test, never at import: a module-level result would be made before a test (or a mutant
    under `make mutate`) could see the code that makes it."""
    return geo.attend_2d(geo.PRONOUN_QUERY, geo.PRONOUN_KEYS, geo.PRONOUN_VALUES)


def test_refresher_table_writes_both_ways_out_with_true_minus_signs():
    table = geo.refresher_table(geo.refresher_rows())
    assert table["a₁b₁ + a₂b₂"][1:] == ["2·(−1) + 1·2 = 0", "2·(−4) + 1·(−2) = −10", "2·5 + 3·(−1) = 7"]
    assert table["b"] == ["[4, 2]", "[−1, 2]", "[−4, −2]", "[5, −1]"]
    assert table["θ"] == ["0.0°", "90.0°", "180.0°", "67.6°"]  # acos(7 / √338) = 67.62°
    assert table["cos θ"] == ["1.000", "0.000", "−1.000", "0.381"]
    assert table["|a| |b| cos θ"][2] == "2.236 × 4.472 × (−1.000) = −10.000"  # √5 × √20 × cos 180°


def test_key_table_and_sentences_by_hand():
    result = pronoun()
    table = geo.key_table(result, geo.PRONOUN_KEY_LABELS)
    assert table["key"] == ["animal", "street", "because"]
    assert table["q·k"] == [10, 7, 5] and table["θ"] == ["0.0°", "57.5°", "0.0°"]
    assert table["|k|"] == pytest.approx([math.sqrt(10), math.sqrt(17), math.sqrt(2.5)])
    assert table["cos θ"] == ["1.000", "0.537", "1.000"]  # 7 / (√10 √17) = 0.5369
    (sentence,) = geo.magnitude_sentences(result, geo.PRONOUN_KEY_LABELS)  # "street" beats "because", not the row
    assert "wins" not in sentence  # "It wins" over a row that "animal" wins
    assert sentence == (
        "**“street”** points 57.5° away from the query, yet scores **7.0**, more than **“because”** (5.0), "
        "which points 0.0° away. It outscores “because” only because it is longer: |k| = 4.12 against 1.58."
    )
    assert geo.weights_text(result, "abc") == "“a”: **0.8703** · “b”: **0.1043** · “c”: **0.0254** (sum 1.0000)"
    assert geo.context_text(result) == "context = 0.8703·[1, 0] + 0.1043·[0, 1] + 0.0254·[0, 0] = **[0.8703, 0.1043]**"


def test_zero_vectors_read_undefined_in_the_tables():
    result = geo.attend_2d([0, 0], geo.PRONOUN_KEYS, geo.PRONOUN_VALUES)
    assert geo.key_table(result, "abc")["θ"] == ["undefined"] * 3
    assert geo.magnitude_sentences(result, "abc") == []
    row = geo.RefresherRow("zero", (0.0, 0.0), (1.0, 2.0), geo.compare((0, 0), (1, 2)))
    assert row.length_product.startswith("undefined") and row.coordinate_sum == "0·1 + 0·2 = 0"


def test_zero_vectors_keep_their_lengths_and_read_undefined():
    comparison = geo.compare([0, 0], [1, 2])
    assert comparison.query_length == 0.0 and comparison.key_length == pytest.approx(math.sqrt(5))
    assert geo.compare([3, 4], [0, 0]).query_length == 5.0
    assert geo.cos_text(comparison) == "undefined" and geo.degrees_text(comparison) == "undefined"
    assert geo.angle_text(comparison) == "angle undefined (a zero-length vector has no direction)"
    assert geo.angle_text(geo.compare([1, 0], [1, 1])) == "θ = 45.0°, cos θ = 0.707"  # cos 45° = 1/√2


def test_cos_stays_within_one_when_rounding_steps_past_it():
    """For these parallel vectors a·b / (|a||b|) rounds to 1.0000000000000002; cos θ is clipped to exactly ±1."""
    a, b = (2.74, -4.6), (0.6028, -1.012)  # b = 0.22 a
    assert geo.compare(a, b).cos == 1.0 and geo.compare(a, (-b[0], -b[1])).cos == -1.0


def test_magnitude_wins_need_a_strictly_larger_angle_and_score():
    half_degree = (2 * math.cos(math.radians(0.5)), 2 * math.sin(math.radians(0.5)))  # twice as long, 0.5° off
    assert geo.magnitude_wins([1, 0], [[1, 0], half_degree]) == [geo.MagnitudeWin(longer=1, aligned=0)]
    assert geo.magnitude_wins([1, 0], [[1, 0], [1, 1]]) == []  # a tie on the score (1 = 1) is not a win
    # a zero key has no angle and is skipped, without hiding the pairs after it
    assert geo.magnitude_wins([1, 0], [[0, 0], [1, 0], [3, 1]]) == [geo.MagnitudeWin(longer=2, aligned=1)]


@pytest.mark.parametrize(
    ("query", "keys", "values", "message"),
    [
        ([11, 0], geo.PRONOUN_KEYS, geo.PRONOUN_VALUES, "The query must stay between −10 and 10 in each coordinate."),
        ([1, 0], [[1, 0], [1, 10.5]], [[0, 0], [0, 0]], "Key 2 must stay between −10 and 10 in each coordinate."),
        ([1, 0], [[1, 0], [1, 1]], [[0, 0], [0, "x"]], "Value 2 must be two numbers."),
    ],
)
def test_a_bad_vector_is_named(query, keys, values, message):
    with pytest.raises(AttnvizInputError) as caught:
        geo.attend_2d(query, keys, values)
    assert str(caught.value) == message


def test_the_limit_itself_is_allowed():
    assert geo.attend_2d([10, -10], [[10, 10]], [[-10, 10]]).scores.tolist() == [0.0]


def test_tables_print_six_significant_digits():
    a, b = (1.234567, 2.0), (0.5, -3.7654321)
    table = geo.refresher_table([geo.RefresherRow("mine", a, b, geo.compare(a, b))])
    assert table == {
        "case": ["mine"],
        "a": ["[1.23457, 2]"],
        "b": ["[0.5, −3.76543]"],
        "a₁b₁ + a₂b₂": ["1.23457·0.5 + 2·(−3.76543) = −6.91358"],  # 0.6172835 − 7.5308642
        "θ": ["140.7°"],
        "cos θ": ["−0.774"],
        "|a| |b| cos θ": ["2.350 × 3.798 × (−0.774) = −6.914"],
    }
    result = geo.attend_2d([1, 0], [[1, 0], [0, 1]], [[1.234567, 0], [0, -2.5]])
    e = math.exp(1 / math.sqrt(2))  # scores 1 and 0, divided by √2
    assert [round(w, 4) for w in result.weights] == [round(e / (e + 1), 4), round(1 / (e + 1), 4)] == [0.6698, 0.3302]
    assert geo.context_text(result) == "context = 0.6698·[1.23457, 0] + 0.3302·[0, −2.5] = **[0.8269, −0.8256]**"
