"""What a Streamlit run sends, as the load client (bench.st_client) reads it: elements found by their key's words or
label, a run's result, and the numbers an attention-grid view carries (checked against the product's)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from attnviz.core.numbers import MINUS
from attnviz.figures.matrix_view import colour_positions, hover_digits, hover_numbers
from attnviz.ui.attention_grid import sent_data


class ProtocolError(RuntimeError):
    """The server closed, timed out or answered with something a browser could not show."""


@dataclass(frozen=True)
class Widget:
    id: str
    kind: str  # the element type: checkbox, text_input, bidi_component (a matrix component), ...
    label: str
    fragment_id: str  # "" outside a fragment
    element: object  # the element's protobuf, e.g. its current value

    def matches(self, *, label: str | None = None, kind=None, key_part: str | None = None) -> bool:
        """True when every criterion given holds. ``kind`` is one element type or a tuple of them; ``key_part`` is
        one word of the user key (see key_parts)."""
        return (
            (label is None or self.label == label)
            and (kind is None or self.kind in ((kind,) if isinstance(kind, str) else kind))
            and (key_part is None or key_part in key_parts(self.id))
        )


@dataclass
class RunResult:
    """What one rerun sent back."""

    elapsed_ms: float
    status: str
    elements: list[Widget] = field(default_factory=list)  # every element with an id (widgets, charts), this run only
    exceptions: list[str] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)  # the text of every st.warning, st.error, … drawn this run
    progress: list[str] = field(default_factory=list)  # the text of every progress bar drawn this run
    texts: list[str] = field(default_factory=list)  # every markdown, caption and code block's text, this run
    messages: int = 0
    largest_message: int = 0  # bytes: the largest message of this run, as it came over the websocket

    def find(self, **criteria) -> Widget | None:
        """The first element drawn in this run that matches (see Widget.matches), or None."""
        return next((e for e in self.elements if e.matches(**criteria)), None)


def user_key(widget_id: str) -> str:
    """Streamlit ids read ``$$ID-<hash>-<user key>``; the key is ``None`` when the widget has none."""
    return widget_id.split("-", 2)[-1] if widget_id.startswith("$$ID-") else widget_id


def key_parts(widget_id: str) -> list[str]:
    """The words of a user key: ``chart.weights`` and ``pg_weights`` both contain ``weights``; ``playground.tables`` has tables."""
    return re.split(r"[._-]", user_key(widget_id))


def element_id(element) -> str:
    inner = getattr(element, element.WhichOneof("type"))
    return getattr(inner, "id", "") or ""


@dataclass(frozen=True)
class Heatmap:
    """The numbers one view of the attention-grid component carries (every matrix the app draws is one)."""

    values: np.ndarray  # (rows, columns); NaN where the chart has no number
    rows: list[str]  # the row labels, top to bottom
    tolerance: float  # how exactly the chart carries each number


def heatmap(widget: Widget, view: str = "weights") -> Heatmap:
    """The view ``view`` of an attention-grid component (attnviz/component): its hover numbers, to
    ``hover_digits`` significant digits (fewer above the text limit). A masked cell (no colour) is a weight of 0 or
    a score of −∞. The tolerance holds for weights (below 1), which is what the load client checks."""
    if widget.kind != "bidi_component":
        raise ProtocolError(f"{user_key(widget.id)} is a {widget.kind}, not a matrix")
    drawn = next(v for v in sent_data(widget.element.json)["views"] if v["name"] == view)
    masked = 0.0 if drawn["value_name"] == "weight" else -np.inf
    numbers = [
        masked if colour is None else float(text.replace(MINUS, "-"))
        for text, colour in zip(hover_numbers(drawn), colour_positions(drawn), strict=True)
    ]
    values = np.array(numbers).reshape(len(drawn["rows"]), len(drawn["cols"]))  # (rows, columns)
    digits = hover_digits(bool(drawn["text"]))  # significant digits: for a weight (below 1), as many decimals at most
    return Heatmap(values, drawn["rows"], tolerance=0.5 * 10.0**-digits + 1e-12)
