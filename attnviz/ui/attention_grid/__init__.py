"""The Playground's four attention views on the page: a Streamlit v2 component (grid.js and grid.css beside this file,
inline, no build step) that keeps one canvas a view across reruns and repaints its cells in place."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from attnviz.figures.colours import CHANGED, FOCUS, MASKED_GREY
from attnviz.ui import state
from attnviz.ui.text import plain

_HERE = Path(__file__).parent
_COMPONENT = st.components.v2.component(
    "attnviz_attention_views",
    js=(_HERE / "grid.js").read_text(encoding="utf-8"),
    css=(_HERE / "grid.css").read_text(encoding="utf-8"),
    isolate_styles=False,  # the views take the page's font and theme colours
)


def show_attention_views(views: list[dict], *, height: int, font_size: int) -> None:
    """Draws ``views`` (attnviz.figures.attention_grid) two by two, each ``height`` px tall; a click on a cell or a
    row label makes its row the focus token."""
    _COMPONENT(
        key=state.views_key(),
        data={
            "views": [_plain_labels(view) for view in views],
            "height": height,
            "font_size": font_size,
            "colours": {"masked": MASKED_GREY, "changed": CHANGED, "focus": FOCUS},
        },
        on_focus_change=state.focus_from_views,
    )


def _plain_labels(view: dict) -> dict:
    """The view with every piece of user text (tokens in labels, the title) made plain: no line breaks, no direction
    overrides. The component sets text, never markup, so nothing else needs escaping."""
    return view | {
        "title": plain(view["title"]),
        **{part: [plain(label) for label in view[part]] for part in ("rows", "cols", "ticks")},
    }
