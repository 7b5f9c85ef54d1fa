"""The Playground's focus row worked out by hand: the formula, the focus table, its caption and the blend table.

Numbers are the "it" example's (query [3, 1]; keys animal [3, 1], street [1, 4], because [1.5, 0.5], it [3, 1];
d_k = 2, so s = q·k / √2), checked against math.exp and sums written out here, not against the core.
"""

import math
import warnings
from dataclasses import replace

import numpy as np
import pytest

from attnviz import attention
from attnviz.core.playground_state import PlaygroundState, load_example
from attnviz.lessons.row_arithmetic import (
    arithmetic_columns,
    blend_columns,
    divisor_text,
    formula_latex,
    mask_explanation,
    row_arithmetic,
    row_summary,
    weighted_sum_terms,
)

PRONOUN = load_example(PlaygroundState(), "pronoun_it")  # key 3 ("it" itself) blocked, focus 3
ROOT2 = math.sqrt(2)


def focus_row(state, i=3):
    Q, K, _ = state.matrices()
    return row_arithmetic(Q, K, state.result(), state.labels, i)


# ----------------------------------------------------------------------------- the formula


@pytest.mark.parametrize(
    ("settings", "inside"),
    [
        (
            {"causal": False, "scale": True, "temperature": 1.0, "has_blocked_keys": False},
            r"\frac{Q K^\top}{\sqrt{d_k}}",
        ),
        ({"causal": False, "scale": False, "temperature": 1.0, "has_blocked_keys": False}, r"Q K^\top"),
        (
            {"causal": True, "scale": True, "temperature": 1.0, "has_blocked_keys": False},
            r"\frac{Q K^\top}{\sqrt{d_k}} + M",
        ),
        # only padding (blocked) keys, no causal mask: the mask term must still be there
        (
            {"causal": False, "scale": True, "temperature": 1.0, "has_blocked_keys": True},
            r"\frac{Q K^\top}{\sqrt{d_k}} + M",
        ),
        ({"causal": False, "scale": False, "temperature": 1.0, "has_blocked_keys": True}, r"Q K^\top + M"),
        (
            {"causal": True, "scale": True, "temperature": 0.5, "has_blocked_keys": True},
            r"\frac{Q K^\top}{\sqrt{d_k} \cdot 0.5} + M",
        ),
        ({"causal": False, "scale": False, "temperature": 2.0, "has_blocked_keys": False}, r"\frac{Q K^\top}{2}"),
    ],
)
def test_the_formula_has_each_term_exactly_when_its_setting_is_on(settings, inside):
    assert formula_latex(**settings) == (rf"\mathrm{{Attention}}(Q, K, V) = \mathrm{{softmax}}\left({inside}\right) V")


def test_the_mask_is_explained_for_what_blocks_keys():
    assert mask_explanation(causal=False, has_blocked_keys=False) == (
        "No mask: every query may attend to every key (as in an encoder)."
    )
    assert mask_explanation(causal=False, has_blocked_keys=True) == (
        "M is −∞ in the columns of blocked keys, and 0 elsewhere. Since exp(−∞) = 0, those keys get weight 0."
    )
    assert mask_explanation(causal=True, has_blocked_keys=True) == (
        "M is −∞ where the key comes after the query (the causal mask) and in the columns of blocked keys, "
        "and 0 elsewhere. Since exp(−∞) = 0, those keys get weight 0."
    )


@pytest.mark.parametrize(
    ("scale", "d_k", "temperature", "text"),
    [
        (True, 2, 1.0, "√2 = 1.414"),
        (True, 4, 0.5, "√4 × τ = √4 × 0.5 = 1"),
        (False, 4, 1.0, "1"),
        (False, 4, 0.35, "τ = 0.35"),  # was "τ 0.35 = 0.35"
    ],
)
def test_the_divisor_says_where_it_comes_from(scale, d_k, temperature, text):
    Q = np.ones((2, d_k))
    result = attention(Q, Q, Q, scale=scale, temperature=temperature)
    assert divisor_text(result, d_k, scale, temperature) == text


# ----------------------------------------------------------------------------- the focus row


def test_the_focus_row_by_hand():
    row = focus_row(PRONOUN)
    scores = [3 * 3 + 1 * 1, 3 * 1 + 1 * 4, 3 * 1.5 + 1 * 0.5, 3 * 3 + 1 * 1]  # 10, 7, 5, 10
    largest = 10 / ROOT2  # the largest s among the keys "it" may see (key 3 is blocked)
    exps = [math.exp(s / ROOT2 - largest) for s in scores[:3]]  # 1, e^(−3/√2), e^(−5/√2)
    assert row.query == "3: it" and [s.key for s in row.steps] == ["0: animal", "1: street", "2: because", "3: it"]
    assert [s.product for s in row.steps] == ["3×3 + 1×1", "3×1 + 1×4", "3×1.5 + 1×0.5", "3×3 + 1×1"]
    assert [s.score for s in row.steps] == scores
    assert [s.scaled for s in row.steps] == pytest.approx([s / ROOT2 for s in scores], rel=1e-15)
    assert [s.blocked for s in row.steps] == [False, False, False, True]
    assert row.divisor == pytest.approx(ROOT2, rel=1e-15) and row.row_max == pytest.approx(largest, rel=1e-15)
    assert [s.shifted_exp for s in row.steps] == pytest.approx([*exps, 0.0], rel=1e-13)
    assert row.exp_sum == pytest.approx(sum(exps), rel=1e-13)
    assert [s.weight for s in row.steps] == pytest.approx([e / sum(exps) for e in exps] + [0.0], rel=1e-13)
    np.testing.assert_allclose(row.output, [exps[0] / sum(exps), exps[1] / sum(exps)], rtol=1e-13)


def test_the_row_maximum_ignores_blocked_keys():
    """Block animal too: the largest score (10, animal's) is out of reach, so the shift is street's 7/√2 and street's
    e^(s − max s) is exactly 1. Subtracting 0, or the maximum over blocked keys too, gives other numbers."""
    row = focus_row(replace(PRONOUN, blocked_keys=(0, 3)))
    assert row.row_max == pytest.approx(7 / ROOT2, rel=1e-15)
    assert [s.shifted_exp for s in row.steps] == pytest.approx([0.0, 1.0, math.exp(-2 / ROOT2), 0.0], rel=1e-13)
    assert row.exp_sum == pytest.approx(1 + math.exp(-2 / ROOT2), rel=1e-13)


def test_the_focus_row_warns_nothing():
    """Any warning would land in the server's log, which must stay quiet (numpy warns, for one, when only some
    cells of an exponential are computed and the rest are left as whatever the memory held)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        row = focus_row(PRONOUN)
    assert row.steps[3].shifted_exp == 0.0


def test_a_query_that_sees_no_key_has_a_row_of_zeros():
    state = replace(PRONOUN, blocked_keys=(0, 1, 2, 3))
    row = focus_row(state)
    assert row.row_max == 0.0 and row.exp_sum == 0.0
    assert [(s.shifted_exp, s.weight) for s in row.steps] == [(0.0, 0.0)] * 4
    assert row_summary(state.result(), 3) == (
        "Every key is blocked for this query, so all its weights are 0 and its output is zero."
    )


def test_products_are_written_out_up_to_four_dimensions_with_negatives_bracketed():
    Q = np.array([[-1.0, 2.0, 0.0, 1.0]])
    K = np.array([[0.5, -3.0, 7.0, 1.0]])
    (step,) = row_arithmetic(Q, K, attention(Q, K, K), ["a"], 0).steps
    assert step.product == "(−1)×0.5 + 2×(−3) + 0×7 + 1×1" and step.score == -5.5  # 0 is not bracketed
    wide = np.ones((1, 5))
    assert row_arithmetic(wide, wide, attention(wide, wide, wide), ["a"], 0).steps[0].product == ""
    columns = arithmetic_columns(wide, wide, attention(wide, wide, wide), ["a"], 0, scale=True, temperature=1.0)
    assert columns["q·k"] == ["5"]  # too wide to write out: the score alone


def test_a_blocked_key_far_above_the_row_maximum_does_not_overflow():
    """A blocked key's s may be far above the largest visible one; e^(s − max s) must not be taken for it
    (e^999 overflows, and pytest turns the RuntimeWarning into a failure)."""
    Q, K = np.array([[1.0]]), np.array([[1000.0], [1.0]])
    result = attention(Q, K, K, scale=False, mask=np.array([[False, True]]))
    row = row_arithmetic(Q, K, result, ["loud", "quiet"], 0)
    assert row.row_max == 1.0 and [s.shifted_exp for s in row.steps] == [0.0, 1.0]


# ----------------------------------------------------------------------------- the tables and the caption


def test_the_focus_table_and_its_caption():
    Q, K, _ = PRONOUN.matrices()
    result = PRONOUN.result()
    table = arithmetic_columns(Q, K, result, PRONOUN.labels, 3, scale=True, temperature=1.0)
    assert table == {
        "key": ["0: animal", "1: street", "2: because", "3: it"],
        "q·k": ["10 = 3×3 + 1×1", "7 = 3×1 + 1×4", "5 = 3×1.5 + 1×0.5", "10 = 3×3 + 1×1"],  # the score never cut
        "s = q·k ÷ (√2 = 1.414)": ["7.071", "4.95", "3.536", "−∞ (masked)"],  # 10/√2, 7/√2, 5/√2
        "e^(s − max s)": ["1", "0.1199", "0.02914", "0"],  # e^0, e^(−3/√2), e^(−5/√2)
        "weight": ["0.8703", "0.1043", "0.02536", "0"],
    }
    assert row_summary(result, 3) == (
        "The largest s in this row is 7.071. Subtracting it before taking e^s avoids overflow and leaves every "
        "weight unchanged. The e^(s − max s) column sums to 1.149, and each weight is its entry divided by that sum."
    )  # 1 + 0.1199 + 0.02914 = 1.149


def test_the_caption_names_the_largest_visible_s():
    state = replace(PRONOUN, blocked_keys=(0, 3))  # animal's 7.071 is blocked: street's 7/√2 = 4.95 is the largest
    summary = row_summary(state.result(), 3)
    assert summary.startswith("The largest s in this row is 4.95. ")
    assert "column sums to 1.243" in summary  # 1 + e^(−2/√2) = 1.2431


def test_the_blend_table_lists_keys_by_weight_and_drops_zero_weights():
    _, _, V = PRONOUN.matrices()
    assert blend_columns(PRONOUN.result(), V, PRONOUN.labels, 3) == {
        "key": ["0: animal", "1: street", "2: because", "output (the sum)"],
        "weight wⱼ": ["0.8703", "0.1043", "0.02536", ""],
        "value vⱼ": ["[1, 0]", "[0, 1]", "[0, 0]", ""],
        "wⱼ · vⱼ": ["[0.8703, 0]", "[0, 0.1043]", "[0, 0]", "[0.8703, 0.1043]"],
    }
    terms = weighted_sum_terms([0.25, 0.0, 0.75], [[4.0, 0.0], [9.0, 9.0], [0.0, -2.0]], ["a", "b", "c"])
    assert [(t.key, t.weight) for t in terms] == [("c", 0.75), ("a", 0.25)]
    np.testing.assert_array_equal(terms[0].contribution, [0.0, -1.5])
    np.testing.assert_array_equal(terms[1].value, [4.0, 0.0])
    np.testing.assert_array_equal(terms[1].contribution, [1.0, 0.0])
    ties = weighted_sum_terms([0.5, 0.5], [[1.0], [2.0]], ["first", "second"])
    assert [t.key for t in ties] == ["first", "second"]  # equal weights keep the keys' order
    labels = [f"k{j}" for j in range(32)]
    many = weighted_sum_terms([0.02, 0.04] * 16, np.zeros((32, 1)), labels)  # long rows of ties: still in order
    assert [t.key for t in many] == labels[1::2] + labels[0::2]
