"""The attention-grid component (attnviz/component) as an anywidget: the same ES modules, joined once with
widget.js as the entry, and its stylesheet, which the module puts inside the widget's own element.

Python holds the state and sends the component's data (attnviz.component.data) as one JSON text in the trait
"_data", as the Streamlit host does; the browser sends a control's change or a click back in "_event", ``{"event": ...,
"count": ...}``, the event as the Streamlit host gets it (attnviz.playground.session says its shapes)."""

from __future__ import annotations

import json

import anywidget
import traitlets

from attnviz.component.bundle import GRID, bundle
from attnviz.core.playground_state import PlaygroundState

HEIGHT, FONT_SIZE = 250, 13  # a view's least height (px) and its numbers' size, as on the app's Playground


class GridWidget(anywidget.AnyWidget):
    _esm = bundle(entry="widget.js")
    _grid_css = traitlets.Unicode((GRID / "grid.css").read_text(encoding="utf-8")).tag(sync=True)
    _data = traitlets.Unicode("").tag(sync=True)
    _event = traitlets.Dict().tag(sync=True)

    @traitlets.observe("_event")
    def _on_event(self, change) -> None:
        sent = change["new"]
        if isinstance(sent, dict) and isinstance(sent.get("event"), dict):  # anything else is no event
            self._handle(sent["event"])

    _state: PlaygroundState  # what the widget shows, set by each kind of widget

    @property
    def state(self) -> PlaygroundState:
        return self._state

    @property
    def result(self):
        """The state's attention result: every intermediate, as attnviz.attention returns it."""
        return self._state.result()

    def _handle(self, event: dict) -> None:
        raise NotImplementedError

    def _draw(self, data: dict) -> None:
        self._data = json.dumps(data, separators=(",", ":"))
