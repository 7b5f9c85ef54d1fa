"""Presenter mode's lens (attnviz/component/lens.js): one row of a view drawn a second time, under the views,
with digits the back of a room reads, and the formula that row feeds: the Playground's focus row, Step by step's
chosen row. Built from the views' own numbers (the cell texts, or above the text limit the numbers the hover says),
so the lens and the grid say the same numbers. Above the text limit the row is summarised, and the lens says so."""

from __future__ import annotations

from attnviz.core.numbers import MINUS, format_fixed
from attnviz.core.text import plain
from attnviz.figures.matrix_view import hover_numbers

TERMS_SHOWN = 3  # a formula with more terms names the largest this many and counts the rest
TOP_SHOWN = 8  # above the text limit the lens draws a row's largest this many numbers and sums up the rest
GRID = "The grid's other numbers are smaller or left out: hover or arrow keys read them."


def lens_of(views: list[dict]) -> dict | None:
    """The lens of the Playground's views (attnviz.playground.views.playground_views): the weights' focus row and
    the output it makes. None when the views have no focus row. Never drawn while the weights are covered: any row of
    numbers before the weights (the scores, their mask) would give predict mode's answer away."""
    by_name = {view["name"]: view for view in views}
    weights, output = by_name["weights"], by_name["output"]
    if weights["focus"] is None:
        return None
    return row_lens(weights, weights["focus"], formula=output_formula(weights, output))


def row_lens(view: dict, row: int, *, chosen: int | None = None, formula: str = "", then: str = "") -> dict:
    """The lens of ``view``'s ``row``: every cell while the view has text, else its TOP_SHOWN largest numbers (and the
    ``chosen`` column) with the rest summed up (weights) or spanned (other values) in words. ``chosen`` is outlined;
    ``then`` ends the caption (where the formula is, when it is not the lens's own)."""
    numbers = row_numbers(view, row)
    caption = f"{view['title']}: row “{view['rows'][row]}”, large. {GRID}"
    columns, rest = list(range(len(numbers))), ""
    if not view["text"]:  # above the text limit: the largest few, the rest in words
        columns = _largest(numbers)
        added = chosen is not None and chosen not in columns
        columns += [chosen] if added else []
        rest = _rest(view, numbers, columns)
        caption = (  # the rest is said in the lens itself, as large as its numbers
            f"{view['title']}: row “{view['rows'][row]}”, large: too many {_noun(view)} for every number, so its "
            f"{len(columns) - added} largest {view['value_name']}s{', then the chosen one' if added else ''}, and the rest in words."
        )
    if chosen is not None:
        caption += f" Outlined: the chosen cell, column “{view['cols'][chosen]}”."
    shown = {"view": view["name"], "row": row, "columns": columns, "texts": [numbers[j] for j in columns]}
    words = {"rest": rest, "caption": f"{caption} {then}".strip(), "formula": formula}
    return shown | {"chosen": chosen} | {name: plain(text) for name, text in words.items()}  # tokens: user text


def _largest(numbers: list[str]) -> list[int]:
    """The columns of the TOP_SHOWN largest numbers (masked cells: never), largest first."""
    values = {j: _value(text) for j, text in enumerate(numbers)}
    return sorted((j for j in values if values[j] is not None), key=lambda j: -values[j])[:TOP_SHOWN]


def _rest(view: dict, numbers: list[str], shown: list[int]) -> str:
    """The columns not ``shown`` in words: the weights' sum (a masked weight is 0), or the other values' span and how
    many are masked."""
    others = [_value(text) for j, text in enumerate(numbers) if j not in shown]
    noun = _noun(view)
    finite = [value for value in others if value is not None]
    if not others:
        return f"no other {noun}"
    if view["value_name"] == "weight":
        return f"the other {len(others)} {noun}: {_said(sum(finite))} together"
    span = f"from {_said(min(finite))} to {_said(max(finite))}" if finite else ""
    masked = f"{len(others) - len(finite)} masked" if len(finite) < len(others) else ""
    return f"the other {len(others)} {noun}: " + ", ".join(part for part in (span, masked) if part)


def _noun(view: dict) -> str:
    return "dimensions" if view["value_name"] == "value" else "keys"


def _value(text: str) -> float | None:
    """A number as a view says it ("−1.2", "3.4e−5"), or None for a masked cell ("", "−∞")."""
    try:
        return float(text.replace(MINUS, "-"))
    except ValueError:
        return None


def _said(x: float) -> str:
    return format_fixed(x, decimals=2)


def row_numbers(view: dict, row: int) -> list[str]:
    """The numbers ``view`` says in ``row``: its cell texts, or above the text limit what its hover says."""
    cols = len(view["ticks"])
    said = view["text"] or hover_numbers(view)
    return said[row * cols : (row + 1) * cols]


def output_formula(weights: dict, output: dict) -> str:
    """“output(good) = 0.67 × v(not) + 0.33 × v(amazing) = (1.00, 0.33)”: the focus row's weights that show as more
    than 0 (the largest TERMS_SHOWN, the rest counted), each times its key's value vector, and the output row."""
    focus = weights["focus"]
    terms = [(text, key) for text, key in zip(row_numbers(weights, focus), weights["ticks"], strict=True) if _above_0(text)]
    shown = sorted(sorted(terms, key=lambda term: -_value(term[0]))[:TERMS_SHOWN], key=terms.index)
    said = " + ".join(f"{text} × v({key})" for text, key in shown)
    if len(terms) > len(shown):
        said += f" + {len(terms) - len(shown)} more terms"
    values = row_numbers(output, focus)
    vector = ", ".join(values) if len(values) <= 4 else ", ".join(values[:3]) + f", … ({len(values)} values)"
    token = weights["rows"][focus].split(": ", 1)[-1]
    return f"output({token}) = {said} = ({vector})"


def _above_0(text: str) -> bool:
    value = _value(text)  # a masked weight says "0" (or nothing above the text limit); any other text is no weight
    return value is not None and value > 0
