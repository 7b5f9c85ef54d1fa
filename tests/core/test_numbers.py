"""One way to print a number and one way to read a typed cell."""

import math

import numpy as np
import pytest

from attnviz import AttnvizInputError
from attnviz.core.numbers import (
    cell_text,
    format_fixed,
    format_fixed_numbers,
    format_number,
    format_numbers,
    format_vector,
    latex_number,
    parse_cells,
    parse_number,
    with_cells,
)


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.0, "0"), (-0.0, "0"), (-1e-9, "−1e−9"), (0.66524, "0.6652"), (-3.0, "−3"), (1234567.0, "1.235e6"), (-math.inf, "−∞")],
)
def test_format_number_uses_one_minus_sign_and_no_minus_zero(value, text):
    assert format_number(value) == text


@pytest.mark.parametrize(("value", "text"), [(-0.001, "0.00"), (-0.0, "0.00"), (-0.005001, "−0.01"), (0.666, "0.67")])
def test_format_fixed_never_prints_minus_zero(value, text):
    assert format_fixed(value) == text
    assert "−0.00" not in format_fixed(value) and "-" not in format_fixed(value)


def test_vectors_and_latex():
    assert format_vector([0.5, -0.25, 0]) == "[0.5, −0.25, 0]"
    assert latex_number(-2.5) == "(-2.5)" and latex_number(-2.5, bracket=False) == "-2.5"
    assert latex_number(1.5e-7) == r"1.5\times 10^{-7}"


@pytest.mark.parametrize("value", [0.3, -1.04, 20.0, 0.1 + 0.2, 1 / 3, 1e-320, -123.456789012345, 1e-6])
def test_cell_text_reads_back_exactly_and_stays_short(value):
    assert float(cell_text(value)) == value
    assert len(cell_text(value)) <= 24  # 1e-320 is "1e-320", not 320 digits


def test_cell_text_keeps_the_sign_of_minus_zero():
    assert cell_text(-0.0) == "-0"
    assert math.copysign(1, parse_number(cell_text(-0.0))) == -1


@pytest.mark.parametrize(("raw", "value"), [("0.5", 0.5), (" -2 ", -2.0), ("1e-3", 0.001), (".5", 0.5), ("−1.5", -1.5), ("3.", 3.0), (2, 2.0)])
def test_plain_decimals_are_accepted(raw, value):
    assert parse_number(raw) == value


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "left empty"),
        (None, "left empty"),
        ("0_5", "“0_5” is not a number; use plain decimals"),
        ("1_000", "is not a number"),
        ("１２", "is not a number"),  # full-width digits
        ("٣", "is not a number"),  # Arabic-Indic digit
        ("1\u00a0000", "is not a number"),  # a non-breaking space inside
        ("1,5", "write decimals with a dot"),
        ("nan", "is not a number"),
        ("inf", "is not a number"),
        ("1e400", "outside the allowed range"),
        ("1000.0000000001", "1000.0000000001 is outside the allowed range −1000 to 1000"),
        (True, "is not a number"),
    ],
)
def test_everything_else_is_refused_with_a_reason(raw, message):
    with pytest.raises(AttnvizInputError, match=message.replace("(", r"\(").replace(".", r"\.")):
        parse_number(raw)


def test_typed_cells_are_checked_one_by_one():
    typed = {(0, 2): "1.5", (1, 0): "abc", (1, 1): 5000, (9, 0): 1}
    values, problems = parse_cells(typed, (2, 3), lambda r, c: f"X[{r}, {c}]")
    assert values == {(0, 2): 1.5}
    assert problems == [
        "X[1, 0]: “abc” is not a number; use plain decimals such as 0.5, -2 or 1e-3; the previous value is kept.",
        "X[1, 1]: 5000.0 is outside the allowed range −1000 to 1000; the previous value is kept.",
    ]
    np.testing.assert_array_equal(with_cells(np.zeros((2, 3)), values), [[0, 0, 1.5], [0, 0, 0]])


EXTREMES = [0.0, -0.0, math.inf, -math.inf, math.nan, -0.001, -0.005, 0.004999, 99.995, -99.995, 1e-320, -1.5e-7, 1234567.0]


def spread(seed: int, lowest: int, highest: int) -> np.ndarray:
    """Random values over many orders of magnitude, and the awkward ones."""
    magnitudes = 10.0 ** np.random.default_rng(seed).integers(lowest, highest, 500)
    return np.concatenate([np.random.default_rng(seed).standard_normal(500) * magnitudes, EXTREMES])


@pytest.mark.parametrize("digits", [1, 3, 4])
def test_format_numbers_prints_each_value_as_format_number_does(digits):
    values = spread(digits, -8, 9)
    assert format_numbers(values.reshape(-1, 1), digits=digits) == [format_number(v, digits=digits) for v in values]


@pytest.mark.parametrize("decimals", [0, 2, 4])
def test_format_fixed_numbers_prints_each_value_as_format_fixed_does(decimals):
    values = spread(decimals, -4, 5)
    assert format_fixed_numbers(values, decimals=decimals) == [format_fixed(v, decimals=decimals) for v in values]
    assert format_fixed_numbers([[-0.001, 2.5]]) == ["0.00", "2.50"]


def test_infinities_keep_their_sign_in_text_and_latex():
    assert (format_number(math.inf), format_number(-math.inf)) == ("∞", "−∞")
    assert (format_fixed(math.inf), format_fixed(-math.inf)) == ("∞", "−∞")
    assert (latex_number(math.inf), latex_number(-math.inf)) == (r"\infty", r"-\infty")


def test_default_and_chosen_digits():
    assert format_numbers([0.123456, -98765.4]) == ["0.1235", "−9.877e4"]  # 4 significant digits unless asked
    assert format_vector([0.1234567, -2], digits=6) == "[0.123457, −2]"
    assert format_vector([0.1234567]) == "[0.1235]"


@pytest.mark.parametrize(("value", "text"), [(100.0, "100"), (-3.0, "-3"), (1e16, "1e+16"), (-0.5, "-0.5")])
def test_cell_text_drops_only_a_trailing_point_zero(value, text):
    assert cell_text(value) == text


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "a cell was left empty"),
        ("1,5", "“1,5” is not a number: write decimals with a dot, like 1.5"),
        ("a" * 20, f"“{'a' * 20}” is not a number; use plain decimals such as 0.5, -2 or 1e-3"),  # shown whole
        ("a" * 21, f"“{'a' * 20}…” is not a number; use plain decimals such as 0.5, -2 or 1e-3"),  # cut at 20
        ("1" * 25, f"{'1' * 20}… is outside the allowed range −1000 to 1000"),
    ],
)
def test_refusals_read_exactly(raw, message):
    with pytest.raises(AttnvizInputError) as caught:
        parse_number(raw)
    assert str(caught.value) == message


def test_the_limit_itself_is_allowed():
    assert parse_number("1000") == 1000.0 and parse_number("−1000") == -1000.0
    assert parse_number("2.5", limit=2.5) == 2.5


def test_cells_outside_the_table_are_dropped_wherever_they_come():
    typed = {(2, 0): "7", (0, 3): "8", (0, 0): "1", (1, 2): "2"}  # (2, 0) and (0, 3) are one past the edge
    values, problems = parse_cells(typed, (2, 3), lambda r, c: f"X[{r}, {c}]")
    assert values == {(0, 0): 1.0, (1, 2): 2.0} and problems == []


def test_with_cells_writes_floats_into_a_copy_and_skips_cells_outside():
    whole_numbers = [[0, 0], [0, 0], [0, 0]]  # 3 × 2: more rows than columns
    out = with_cells(whole_numbers, {(0, 0): 1.5, (2, 1): -2.25, (3, 0): 9.0, (0, 2): 9.0, (5, 5): 9.0})
    np.testing.assert_array_equal(out, [[1.5, 0], [0, 0], [0, -2.25]])
    assert whole_numbers == [[0, 0], [0, 0], [0, 0]]
