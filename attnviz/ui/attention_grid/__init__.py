"""The Playground's instrument: the attention controls and the four views they change, drawn by one Streamlit v2
component (grid.js, rail.js, index.js and grid.css beside this file, inline, no build step).

Why one component: a toggle reruns the views' fragment, and Streamlit's frontend redraws every element the fragment
sends. Drawn as Streamlit widgets, the rail's six controls were a third of a click's time in the browser; drawn here,
a toggle redraws one element. Each control shows the value of its Playground field and reports a change as a trigger
named after the field (attnviz.ui.playground_session.views_callbacks checks it and makes the move). The views keep one canvas each
across reruns and repaint their cells in place.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from attnviz.figures.colours import CHANGED, FOCUS, MASKED_GREY
from attnviz.ui import playground_session
from attnviz.ui.text import plain

_HERE = Path(__file__).parent
_COMPONENT = st.components.v2.component(
    "attnviz_attention_views",
    js="\n".join((_HERE / name).read_text(encoding="utf-8") for name in ("grid.js", "rail.js", "index.js")),
    css=(_HERE / "grid.css").read_text(encoding="utf-8"),
    isolate_styles=False,  # the views take the page's font and theme colours
)


# ----------------------------------------------------------------------------- the controls (rail.js draws them)


def checkbox(field: str, label: str, *, help: str) -> dict:
    return {"kind": "check", "field": field, "label": label, "help": help}


def slider(field: str, label: str, low: float, high: float, *, step: float, help: str) -> dict:
    return {"kind": "range", "field": field, "label": label, "help": help, "min": low, "max": high, "step": step}


def toggles(field: str, label: str, tokens: list[str], *, help: str) -> dict:
    """One chip per token, pressed or not; the field holds the positions pressed."""
    return {"kind": "toggles", "field": field, "label": label, "help": help, "options": tokens}


def choice(field: str, label: str, options: list[str], *, help: str) -> dict:
    """A drop-down of ``options``; the field holds the position chosen."""
    return {"kind": "choice", "field": field, "label": label, "help": help, "options": options}


def button(action: str, label: str, *, disabled: bool) -> dict:
    """A button that runs one of attnviz.ui.playground_session's view actions (``undo``)."""
    return {"kind": "button", "field": action, "label": label, "disabled": disabled}


def show_attention_views(
    views: list[dict],
    controls: list[dict],
    *,
    note: str | None,
    warning: str | None,
    caption: str,
    height: int,
    font_size: int,
) -> None:
    """Draws ``controls`` (made with the functions above, in order, each showing its Playground field) in a rail left
    of ``views`` (attnviz.figures.attention_grid), two by two, each ``height`` px tall. ``note`` sits above the
    controls, ``warning`` above the views and ``caption`` under them. A click on a cell or a row label chooses that
    row as the focus token."""
    playground = playground_session.playground()
    _COMPONENT(
        key=playground_session.views_key(),
        data={
            "views": [_plain_labels(view) for view in views],
            "controls": [_with_value(control, playground) for control in controls],
            "note": plain(note or ""),
            "warning": plain(warning or ""),
            "caption": plain(caption),
            "height": height,
            "font_size": font_size,
            "colours": {"masked": MASKED_GREY, "changed": CHANGED, "focus": FOCUS},
        },
        **playground_session.views_callbacks([control["field"] for control in controls]),
    )


def _with_value(control: dict, playground) -> dict:
    """The control with its field's current value, and its user text (token labels) made plain."""
    shown = control | {"label": plain(control["label"])}
    if "options" in control:
        shown["options"] = [plain(option) for option in control["options"]]
    if control["kind"] != "button":
        value = getattr(playground, control["field"])
        shown["value"] = list(value) if isinstance(value, tuple) else value
    return shown


def _plain_labels(view: dict) -> dict:
    """The view with every piece of user text (tokens in labels, the title) made plain: no line breaks, no direction
    overrides. The component sets text, never markup, so nothing else needs escaping."""
    return view | {
        "title": plain(view["title"]),
        **{part: [plain(label) for label in view[part]] for part in ("rows", "cols", "ticks")},
    }
