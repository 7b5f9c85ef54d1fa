"""The one way a page draws a matrix: one Streamlit v2 component, given cell models (attnviz.figures.matrix_view) and,
on the Playground, the controls beside them (``show_views``); elsewhere the views alone (``show_matrices``). It knows
no page's fields: every choice in it comes back as the one trigger "event", which is handed to the page's own
handler. This is the component's Streamlit host; the component itself, without Streamlit, is attnviz.component (its
ES modules: index.js each views element's entry, which meets the page's one instrument that shared.js brings; joined
into scripts by attnviz.component.bundle); a notebook is the other host (widget.js, attnviz.notebook.host).

Why one component: a toggle reruns the views' fragment, and Streamlit's frontend redraws every element the fragment
sends; drawn here rather than as Streamlit widgets, a toggle redraws one element. The views keep one canvas each
across reruns and repaint their cells in place.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

import streamlit as st

from attnviz.component.bundle import GRID, bundle
from attnviz.component.data import component_data
from attnviz.ui.state import widget_value

# The component's ES modules (attnviz/component), joined into the one script a component takes: the instrument and its styles in one
# element the router draws once a page (shared.js), and each views element with a script of its own of under 2 kB
# (index.js). Streamlit sends a component's script in every message that draws it: a click redraws the views, and
# Multi-head draws six (bench/README.md).
_SHARED = st.components.v2.component(
    "attnviz_views_shared",
    js=bundle(entry="shared.js"),
    css=(GRID / "grid.css").read_text(encoding="utf-8"),
    isolate_styles=False,  # the views take the page's font and theme colours, and the styles reach every views element
)
_COMPONENT = st.components.v2.component("attnviz_attention_views", js=bundle(), isolate_styles=False)


def share_the_instrument() -> None:
    """Drawn by the router on a page that draws views, outside every fragment: the instrument every views element of the
    page draws with (index.js waits for it), sent on a full run and kept by the browser through the fragment's runs."""
    _SHARED(key="instrument")  # no "views" in it: bench/load_moves.py finds the views by that word


def show_views(key: str, data: dict, on_event: Callable[[Any], None] | None = None) -> None:
    """Draws ``data`` (attnviz.component.data: views, and controls if any) under ``key``. ``on_event`` is called
    with what the browser sent (``sent_event``) after a control's change or a click."""
    # One JSON text made here once: handed a dict, Streamlit scans it for dataframes, then dumps it twice a run (to
    # send, and key-sorted, to hash it), which costs the server under a class's load (bench/README.md).
    callbacks = {"on_event_change": partial(_hand_over, key, on_event)} if on_event else {}
    _COMPONENT(key=key, data=json.dumps(data, separators=(",", ":")), **callbacks)


def _hand_over(key: str, on_event: Callable[[Any], None]) -> None:
    on_event(sent_event(key))


def sent_event(key: str):
    """What the browser sent from the component ``key`` last (instrument.js: ``{"control", "value"}``, ``{"cell"}``
    or ``{"guess"}``), as sent: anything, from a crafted message. None before anything was sent."""
    sent = widget_value(key)
    return sent.get("event") if isinstance(sent, dict) else None


def show_matrices(
    views: list[dict],
    *,
    key: str,
    height: int,
    font_size: int,
    columns: list[float] | None = None,
    on_cell=None,
    on_guess=None,
    enter: str = "",
    caption: str = "",
    lens: dict | None = None,
    labels_first: bool = False,
) -> None:
    """Draws ``views`` (attnviz.figures.matrix_view) side by side in ``columns`` (relative widths; one view a column by
    default, more views than columns wrap), each ``height`` px tall, updated in place on every rerun: a view keeps
    its canvas and its colours glide to the new values. ``on_cell``, if given, is called after a click (or Enter) on a
    cell; ``clicked_cell(key)`` then tells which. ``on_guess``, after a click on a covered view (predict mode), which
    arrives as the event "guess". ``enter`` says in words what Enter on a cell does; ``lens`` (presenter mode's,
    attnviz.figures.lens) draws one row again under the views, large. ``labels_first``: only the first view labels
    the rows the views share (its labels then get their own width, not its cells')."""
    data = component_data(
        views,
        caption=caption,
        height=height,
        font_size=font_size,
        columns=columns or [1] * max(1, len(views)),
        enter=enter,
        labels_first=labels_first,
    ) | {"lens": lens}

    def on_event(event) -> None:  # a click on a cell, or on a covered view: anything else is no click
        if isinstance(event, dict) and "cell" in event and on_cell:
            on_cell()
        elif isinstance(event, dict) and "guess" in event and on_guess:
            on_guess()

    show_views(key, data, on_event if on_cell or on_guess else None)


def sent_data(element_json: str) -> dict:
    """What a page sent the component, read back from its element's ``json`` field: for the tests and the load
    client, which read the views as the browser gets them."""
    return json.loads(json.loads(element_json))


def clicked_cell(key: str) -> tuple[str, int, int | None] | None:
    """(view name, row, column) of the cell just clicked in the views drawn with ``key`` (column None for a row
    label), or None. It arrives from the browser as sent: anything but a name and positions is no click (a position
    past the view is the caller's to refuse)."""
    event = sent_event(key)
    cell = event.get("cell") if isinstance(event, dict) else None
    if not isinstance(cell, dict) or not isinstance(cell.get("view"), str) or not _position(cell.get("row")):
        return None
    col = cell.get("col")
    return (cell["view"], cell["row"], col) if col is None or _position(col) else None


def _position(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
