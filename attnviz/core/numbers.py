"""Numbers as a student reads and types them: one way to print them, one way to parse a typed cell.

Printing: a true minus sign (−), never "−0" (a value that rounds to zero is printed "0").
Parsing: plain ASCII decimals only (0.5, -2, 1e-3, .5, 3.), so what a cell shows is what the app uses.
"""

from __future__ import annotations

import math
import re

import numpy as np

from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import VALUE_LIMIT

MINUS = "−"
# Accepted number forms. Not accepted, on purpose: "1_000" (Python reads it as 1000, a typo would slip through),
# full-width or other scripts' digits, spaces inside the number, "inf" and "nan".
_NUMBER = re.compile(r"[+\-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+\-]?[0-9]+)?")
ACCEPTED_FORMS = "plain decimals such as 0.5, -2 or 1e-3"


def _unsigned_zero(text: str) -> str:
    return text[1:] if text.startswith("-") and not any(c in "123456789" for c in text.split("e")[0]) else text


def format_number(x: float, *, digits: int = 4) -> str:
    """``digits`` significant digits: 0.6652, 1.2e−05, −3. A value that rounds to 0 prints as 0."""
    if x == 0:
        return "0"
    if math.isinf(x):
        return "∞" if x > 0 else f"{MINUS}∞"
    text = _unsigned_zero(f"{x:.{digits}g}")
    mantissa, _, exponent = text.partition("e")
    if exponent:
        text = f"{mantissa}e{int(exponent)}"
    return text.replace("-", MINUS)


def format_fixed(x: float, *, decimals: int = 2) -> str:
    """Exactly ``decimals`` decimals (0.67, 0.00, −1.25): for cells whose numbers line up."""
    if math.isinf(x):
        return "∞" if x > 0 else f"{MINUS}∞"
    return _unsigned_zero(f"{x:.{decimals}f}").replace("-", MINUS)


def format_numbers(values, *, digits: int = 4) -> list[str]:
    """``format_number`` of every value, in reading order. A chart prints thousands of numbers, so the usual case
    (finite, not 0, no exponent) only needs the minus sign swapped; the rest go through ``format_number``."""
    flat = np.asarray(values, dtype=float).ravel().tolist()
    texts = map(f"{{:.{digits}g}}".format, flat)
    return [
        text.replace("-", MINUS) if x and text[-1].isdigit() and "e" not in text else format_number(x, digits=digits)
        for x, text in zip(flat, texts, strict=True)
    ]


def format_fixed_numbers(values, *, decimals: int = 2) -> list[str]:
    """``format_fixed`` of every value, in reading order; only a "−0.00" or a non-finite value takes the slow path."""
    flat = np.asarray(values, dtype=float).ravel().tolist()
    texts = map(f"{{:.{decimals}f}}".format, flat)
    return [
        text.replace("-", MINUS) if text[-1].isdigit() and text.strip("-0.") else format_fixed(x, decimals=decimals)
        for x, text in zip(flat, texts, strict=True)
    ]


CELL_DECIMALS = 2  # every grid's cells: weights, scores, vectors, outputs


def cell_decimals(divisor: float = 1.0) -> int:
    """THE digits rule of every grid: the decimals a view's cells carry so that the next view, these numbers ÷
    ``divisor`` (1 when it only copies them), can be worked out from the digits shown to within one unit of its
    own last digit. ÷ 1.414 needs 2, like every view; ÷ 0.1 needs 3."""
    return CELL_DECIMALS + max(0, math.ceil(-math.log10(divisor) - 1e-9)) if divisor < 1 else CELL_DECIMALS


def format_cells(values, *, weights: bool, decimals: int = CELL_DECIMALS) -> list[str]:
    """What a view's cells say, in reading order: weights to 2 decimals, every other value (scores, vectors) to
    ``decimals`` (``cell_decimals``), large or small ("104.49", "800.00": a number to check by hand has every digit
    the next view needs). A sentence that quotes a cell quotes it this way."""
    flat = np.ravel(np.asarray(values, dtype=float))
    return format_fixed_numbers(flat, decimals=CELL_DECIMALS if weights else decimals)


def shown_values(matrix, decimals: int = CELL_DECIMALS) -> np.ndarray:
    """``matrix`` as its cells show it, read back: the numbers a reader sees (−∞ stays −∞)."""
    matrix = np.asarray(matrix, dtype=float)
    texts = format_cells(matrix, weights=False, decimals=decimals)
    return np.array([float(t.replace(MINUS, "-").replace("∞", "inf")) for t in texts]).reshape(matrix.shape)


def cell_name(matrix: str, row: int, col: int, token: str | None = None) -> str:
    """The one way a cell is named in words: ``Q[10: amazing, dimension 2]`` (row from 0 as the tables count tokens,
    dimension from 1 as their headings do); ``X[3, dimension 2]`` where the row has no token."""
    return f"{matrix}[{row}{f': {token}' if token is not None else ''}, dimension {col + 1}]"


def format_vector(values, *, digits: int = 4) -> str:
    return "[" + ", ".join(format_numbers(values, digits=digits)) + "]"


def latex_number(x: float, *, bracket: bool = True) -> str:
    """A number inside a LaTeX formula: 4 significant digits, ×10^k for exponents, negatives bracketed after an
    operator."""
    if math.isinf(x):
        return r"-\infty" if x < 0 else r"\infty"
    text = format_number(x).replace(MINUS, "-")
    mantissa, _, exponent = text.partition("e")
    if exponent:
        text = rf"{mantissa}\times 10^{{{exponent}}}"
    return f"({text})" if text.startswith("-") and bracket else text


def cell_text(value: float) -> str:
    """The shortest text that reads back as exactly this number (0.3, -1.04, 20, 1e-320): for editable cells."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def parse_number(raw, *, limit: float = VALUE_LIMIT) -> float:
    """A typed cell as a number, or AttnvizInputError saying why not. −0 keeps its sign."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise AttnvizInputError("a cell was left empty")
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        raise AttnvizInputError(f"{raw!r} is not a number")
    text = raw.strip().replace(MINUS, "-") if isinstance(raw, str) else repr(float(raw))
    shown = text[:20] + ("…" if len(text) > 20 else "")
    if not _NUMBER.fullmatch(text):
        hint = ": write decimals with a dot, like 1.5" if "," in text else f"; use {ACCEPTED_FORMS}"
        raise AttnvizInputError(f"“{shown}” is not a number{hint}")
    value = float(text)
    if not math.isfinite(value) or abs(value) > limit:
        raise AttnvizInputError(f"{shown} is outside the allowed range −{limit:g} to {limit:g}")
    return value


def parse_cells(typed: dict, shape: tuple[int, int], describe) -> tuple[dict[tuple[int, int], float], list[str]]:
    """Typed cells ``{(row, column): raw}`` as numbers, and a message for each refused one.

    ``describe(row, column)`` names a cell for the message ("Q[4: good, dimension 2]"). Cells outside ``shape``
    (left over from a table of another size) are dropped: there is nothing for them to land on.
    """
    rows, cols = shape
    values, problems = {}, []
    for (row, col), raw in typed.items():
        if not (0 <= row < rows and 0 <= col < cols):
            continue
        try:
            values[(row, col)] = parse_number(raw)
        except AttnvizInputError as error:
            problems.append(f"{describe(row, col)}: {error}; the previous value is kept.")
    return values, problems


def with_cells(matrix, cells: dict) -> np.ndarray:
    """A copy of ``matrix`` with ``{(row, column): value}`` written in; cells outside its shape are skipped."""
    out = np.array(matrix, dtype=float)
    for (row, col), value in cells.items():
        if row < out.shape[0] and col < out.shape[1]:
            out[row, col] = value
    return out
