"""The attention-grid component (attnviz/component) as an anywidget: the same ES modules, joined once with
widget.js as the entry, and its stylesheet, which the module puts inside the widget's own element.

Python holds the state and sends the component's data (attnviz.component.data) as one JSON text in the trait
"_data", as the Streamlit host does; the browser sends a control's change, a click or a typed cell back, the event as
the Streamlit host gets it (attnviz.playground.session says its shapes), in either or both of two ways:

- a message ``{"event": ..., "id": ...}`` (anywidget's model.send). Every message arrives, in order: until the kernel
  has answered one change of a trait, JupyterLab's widget manager holds the next ones and sends only the last value,
  so of a toggle and a typed cell's edit sent one after the other in a trait, the toggle would be lost;
- the trait "_event", ``{"event": ..., "id" or "count": ...}``: a change of a trait is what makes marimo run the
  cells that read the widget again.

An event is handled once, by its ``id`` (unique per page load and event), whichever way comes first."""

from __future__ import annotations

import json
from collections import deque

import anywidget
import traitlets

from attnviz.component.bundle import GRID, bundle
from attnviz.core.playground_state import PlaygroundState

HEIGHT, FONT_SIZE = 250, 13  # a view's least height (px) and its numbers' size, as on the app's Playground
SEEN_IDS = 256  # an event's second way arrives within a few events of its first: far fewer than this


class GridWidget(anywidget.AnyWidget):
    _esm = bundle(entry="widget.js")
    _grid_css = traitlets.Unicode((GRID / "grid.css").read_text(encoding="utf-8")).tag(sync=True)
    _data = traitlets.Unicode("").tag(sync=True)
    _event = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs) -> None:
        self._seen: deque[str] = deque(maxlen=SEEN_IDS)  # the ids of the events handled last
        super().__init__(**kwargs)
        self.on_msg(lambda _widget, content, _buffers: self._receive(content))

    @traitlets.observe("_event")
    def _on_event(self, change) -> None:
        self._receive(change["new"])

    def _receive(self, sent) -> None:
        """An event as the browser sent it, by message or in "_event": handled unless its id was handled already."""
        if not isinstance(sent, dict) or not isinstance(sent.get("event"), dict):  # anything else is no event
            return
        id = sent.get("id")
        if isinstance(id, str):
            if id in self._seen:
                return
            self._seen.append(id)
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
