"""The Playground's instrument: the attention controls and the four views they change, drawn by one Streamlit v2
component. Its browser side is ES modules beside this file (index.js the entry; view.js, paint.js, layout.js,
colour.js, reader.js the views; rail.js the controls; dom.js; grid.css), joined into one script by bundle.py.

Why one component: a toggle reruns the views' fragment, and Streamlit's frontend redraws every element the fragment
sends. Drawn as Streamlit widgets, the rail's six controls were a third of a click's time in the browser; drawn here,
a toggle redraws one element. Each control shows the value of its Playground field and reports a change as a trigger
named after the field (attnviz.ui.playground_session.views_callbacks checks it and makes the move). The views keep one
canvas each across reruns and repaint their cells in place.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from attnviz.classroom.controls import ACTIONS, CONTROLS
from attnviz.figures.colours import CHANGED, FOCUS, MASKED_GREY
from attnviz.ui import playground_session
from attnviz.ui.attention_grid.bundle import bundle
from attnviz.ui.text import plain

_HERE = Path(__file__).parent
_COMPONENT = st.components.v2.component(
    "attnviz_attention_views",
    js=bundle(_HERE),  # the ES modules beside this file, joined into the one script a component takes
    css=(_HERE / "grid.css").read_text(encoding="utf-8"),
    isolate_styles=False,  # the views take the page's font and theme colours
)


def show_attention_views(
    views: list[dict],
    *,
    note: str | None,
    warning: str | None,
    caption: str,
    height: int,
    font_size: int,
) -> None:
    """Draws the Playground's controls (attnviz.classroom.controls, in order, each showing its field, then Undo) in a
    rail left of ``views`` (attnviz.figures.attention_grid), two by two, each ``height`` px tall. ``note`` sits above
    the controls, ``warning`` above the views and ``caption`` under them. A click on a cell or a row label chooses
    that row as the focus token."""
    playground = playground_session.playground()
    _COMPONENT(
        key=playground_session.views_key(),
        data={
            "views": [_plain_labels(view) for view in views],
            "controls": _controls(playground),
            "note": plain(note or ""),
            "warning": plain(warning or ""),
            "caption": plain(caption),
            "height": height,
            "font_size": font_size,
            "colours": {"masked": MASKED_GREY, "changed": CHANGED, "focus": FOCUS},
        },
        **playground_session.views_callbacks(),
    )


def _controls(playground) -> list[dict]:
    """Each control of the table as the rail draws it, with its field's current value (a tuple as a list) and its
    user text (token labels) made plain; then the actions."""
    shown = []
    for control in CONTROLS.values():
        spec = {"kind": control.kind, "field": control.field, "label": control.label, "help": control.help}
        if control.kind == "range":
            spec |= {"min": control.low, "max": control.high, "step": control.step}
        elif control.kind in ("toggles", "choice"):  # a chip per token; an option per position: token label
            spec["options"] = [
                plain(option) for option in (playground.tokens if control.kind == "toggles" else playground.labels)
            ]
        value = getattr(playground, control.field)
        shown.append(spec | {"value": list(value) if isinstance(value, tuple) else value})
    can_undo = playground_session.can_undo()
    return shown + [
        {"kind": "button", "field": action, "label": label, "disabled": not can_undo}
        for action, label in ACTIONS.items()
    ]


def _plain_labels(view: dict) -> dict:
    """The view with every piece of user text (tokens in labels, the title) made plain: no line breaks, no direction
    overrides. The component sets text, never markup, so nothing else needs escaping."""
    return view | {
        "title": plain(view["title"]),
        **{part: [plain(label) for label in view[part]] for part in ("rows", "cols", "ticks")},
    }
