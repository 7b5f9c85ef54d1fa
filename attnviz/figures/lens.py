"""Presenter mode's lens (attnviz/ui/attention_grid/lens.js): the Playground's focus row drawn a second time, under the
views, with digits the back of a room reads, and the formula that row feeds. Built from the views' own cell texts, so
the lens and the grid say the same numbers."""

from __future__ import annotations

from attnviz.core.text import plain

TERMS_SHOWN = 3  # a formula with more terms names the largest this many and counts the rest


def lens_of(views: list[dict]) -> dict | None:
    """The lens of the Playground's views (attnviz.figures.attention_grid.playground_views): the weights' focus row and
    the output it makes; while the weights are covered (predict mode), the scaled scores' row, with no formula (it
    would give the answer away). None when the views have no focus row or no numbers (above the text limit)."""
    by_name = {view["name"]: view for view in views}
    weights, output = by_name["weights"], by_name["output"]
    read = by_name["scaled"] if weights.get("cover") else weights
    if read["focus"] is None or not read["text"]:
        return None
    label = read["rows"][read["focus"]]
    caption = (
        f"{read['title']}: row “{label}”, large. The grid's other numbers are smaller or left out: hover or arrow "
        "keys read them."
    )
    formula = "" if read is not weights or output.get("cover") else output_formula(weights, output)
    return {"view": read["name"], "caption": plain(caption), "formula": plain(formula)}  # tokens: user text


def row_texts(view: dict, row: int) -> list[str]:
    cols = len(view["ticks"])
    return view["text"][row * cols : (row + 1) * cols]


def output_formula(weights: dict, output: dict) -> str:
    """“output(good) = 0.67 × v(not) + 0.33 × v(amazing) = (1.00, 0.33)”: the focus row's weights that show as more
    than 0 (the largest TERMS_SHOWN, the rest counted), each times its key's value vector, and the output row."""
    focus = weights["focus"]
    terms = [(text, key) for text, key in zip(row_texts(weights, focus), weights["ticks"], strict=True) if _above_0(text)]
    shown = sorted(sorted(terms, key=lambda term: -float(term[0]))[:TERMS_SHOWN], key=terms.index)
    said = " + ".join(f"{text} × v({key})" for text, key in shown)
    if len(terms) > len(shown):
        said += f" + {len(terms) - len(shown)} more terms"
    values = row_texts(output, focus)
    vector = ", ".join(values) if len(values) <= 4 else ", ".join(values[:3]) + f", … ({len(values)} values)"
    token = weights["rows"][focus].split(": ", 1)[-1]
    return f"output({token}) = {said} = ({vector})"


def _above_0(text: str) -> bool:
    try:
        return float(text) > 0
    except ValueError:  # a masked weight says "0"; any other text is no weight
        return False
