"""What the attention-grid component is sent, whatever the host: a Streamlit page (attnviz.ui.attention_grid) or a
notebook widget (attnviz.notebook). Plain Python, no Streamlit: views (attnviz.figures.matrix_view), the controls of a
rail as a page gives them (the Playground's: attnviz.playground.views), and the words around the views, user text made
plain. It knows no page's fields."""

from __future__ import annotations

from attnviz.core.text import plain
from attnviz.figures.colours import CHANGED, FOCUS, MASKED_GREY

COLOURS = {"masked": MASKED_GREY, "changed": CHANGED, "focus": FOCUS}


def component_data(
    views: list[dict],
    *,
    caption: str,
    height: int,
    font_size: int,
    columns: list[float],
    enter: str,
    controls: list[dict] = (),
    note: str = "",
    warning: str = "",
    labels_first: bool = False,
    touch_caption: str = "",
    lines: dict[str, tuple[str, str]] | None = None,
) -> dict:
    """The component's data (read by attnviz/component/instrument.js), user text made plain.
    ``labels_first``: the first view labels the rows every view shares (its labels get their own width);
    ``touch_caption``: the caption on a touch-only screen, where it differs; ``lines``: a line under a view, by the
    view's name: (its words, its tone: "ok", "warn" or "info"), where a student looks after a click on that view."""
    lines = lines or {}
    return {
        "views": [plain_labels(view) | _line(lines.get(view["name"])) for view in views],
        "controls": list(controls),
        "note": plain(note),
        "warning": plain(warning),
        "caption": plain(caption),
        "touch_caption": plain(touch_caption),
        "height": height,
        "font_size": font_size,
        "colours": COLOURS,
        "columns": columns,
        "enter": enter,
        "labels_first": labels_first,
    }


def _line(line: tuple[str, str] | None) -> dict:
    return {"line": {"text": plain(line[0]), "tone": line[1]}} if line else {}


def plain_labels(view: dict) -> dict:
    """The view with every piece of user text (tokens in labels, the title) made plain: no line breaks, no direction
    overrides. The component sets text, never markup, so nothing else needs escaping."""
    return view | {
        "title": plain(view["title"]),
        **{part: [plain(label) for label in view[part]] for part in ("rows", "cols", "ticks", "row_ticks")},
    }
