"""What the attention-grid component is sent, whatever the host: a Streamlit page (attnviz.ui.attention_grid) or a
notebook widget (attnviz.notebook). Plain Python, no Streamlit: views (attnviz.figures.matrix_view), the Playground's
controls with their fields' values, and the words around the views, user text made plain."""

from __future__ import annotations

from attnviz.classroom.controls import ACTIONS, CONTROLS
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
    """The component's data (read by attnviz/ui/attention_grid/instrument.js), user text made plain.
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


def controls_of(playground, *, can_undo: bool) -> list[dict]:
    """Each control of the table (attnviz.classroom.controls) as the rail draws it, with its field's current value (a
    tuple as a list) and its user text (token labels) made plain; then the actions (Undo, off when ``can_undo`` is
    not)."""
    shown = []
    for control in CONTROLS.values():
        spec = {"kind": control.kind, "field": control.field, "label": control.label, "help": control.help}
        if control.kind == "range":
            spec |= {"min": control.low, "max": control.high, "step": control.step}
        elif control.options:  # a choice of its own options: shown by label, sent back as its value
            spec |= {"options": list(control.options.values()), "values": list(control.options)}
        elif control.kind in ("toggles", "choice"):  # a chip per token; an option per position: token label
            spec["options"] = [
                plain(option) for option in (playground.tokens if control.kind == "toggles" else playground.labels)
            ]
            spec |= {"values": list(range(len(spec["options"])))} if control.kind == "choice" else {}
        value = getattr(playground, control.field)
        shown.append(spec | {"value": list(value) if isinstance(value, tuple) else value})
    return shown + [
        {"kind": "button", "field": action, "label": label, "disabled": not can_undo}
        for action, label in ACTIONS.items()
    ]


def _line(line: tuple[str, str] | None) -> dict:
    return {"line": {"text": plain(line[0]), "tone": line[1]}} if line else {}


def plain_labels(view: dict) -> dict:
    """The view with every piece of user text (tokens in labels, the title) made plain: no line breaks, no direction
    overrides. The component sets text, never markup, so nothing else needs escaping."""
    return view | {
        "title": plain(view["title"]),
        **{part: [plain(label) for label in view[part]] for part in ("rows", "cols", "ticks", "row_ticks")},
    }
