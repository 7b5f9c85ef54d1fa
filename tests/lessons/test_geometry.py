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


PRONOUN = geo.attend_2d(geo.PRONOUN_QUERY, geo.PRONOUN_KEYS, geo.PRONOUN_VALUES)


def test_refresher_table_writes_both_ways_out_with_true_minus_signs():
    table = geo.refresher_table(geo.refresher_rows())
    assert table["a₁b₁ + a₂b₂"][1:] == ["2·(−1) + 1·2 = 0", "2·(−4) + 1·(−2) = −10", "2·5 + 3·(−1) = 7"]
    assert table["b"] == ["[4, 2]", "[−1, 2]", "[−4, −2]", "[5, −1]"]
    assert table["θ"] == ["0.0°", "90.0°", "180.0°", "67.6°"]  # acos(7 / √338) = 67.62°
    assert table["cos θ"] == ["1.000", "0.000", "−1.000", "0.381"]
    assert table["|a| |b| cos θ"][2] == "2.236 × 4.472 × (−1.000) = −10.000"  # √5 × √20 × cos 180°


def test_key_table_and_sentences_by_hand():
    table = geo.key_table(PRONOUN, geo.PRONOUN_KEY_LABELS)
    assert table["q·k"] == [10, 7, 5] and table["θ"] == ["0.0°", "57.5°", "0.0°"]
    assert table["|k|"] == pytest.approx([math.sqrt(10), math.sqrt(17), math.sqrt(2.5)])
    assert table["cos θ"] == ["1.000", "0.537", "1.000"]  # 7 / (√10 √17) = 0.5369
    (sentence,) = geo.magnitude_sentences(PRONOUN, geo.PRONOUN_KEY_LABELS)
    assert sentence == (
        "**“street”** points 57.5° away from the query, yet scores **7.0**, more than **“because”** (5.0), "
        "which points 0.0° away. It wins only because it is longer: |k| = 4.12 against 1.58."
    )
    assert geo.weights_text(PRONOUN, "abc") == "“a”: **0.8703** · “b”: **0.1043** · “c”: **0.0254** (sum 1.0000)"
    assert geo.context_text(PRONOUN) == "context = 0.8703·[1, 0] + 0.1043·[0, 1] + 0.0254·[0, 0] = **[0.8703, 0.1043]**"


def test_zero_vectors_read_undefined_in_the_tables():
    result = geo.attend_2d([0, 0], geo.PRONOUN_KEYS, geo.PRONOUN_VALUES)
    assert geo.key_table(result, "abc")["θ"] == ["undefined"] * 3
    assert geo.magnitude_sentences(result, "abc") == []
    row = geo.RefresherRow("zero", (0.0, 0.0), (1.0, 2.0), geo.compare((0, 0), (1, 2)))
    assert row.length_product.startswith("undefined") and row.coordinate_sum == "0·1 + 0·2 = 0"
