"""A v2 component's trigger as the browser sends it, for the drivers that speak Streamlit's protocol themselves
(AppTest in bench/harness/apptest.py, the load client in bench/st_client.py). Streamlit has no public API for this:
the frontend sends one widget state per component, the "events" aggregator, holding a JSON list of {event, value}."""

from __future__ import annotations

import json

from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.proto.WidgetStates_pb2 import WidgetState


def trigger_state(component_id: str, event: str, value) -> WidgetState:
    """The widget state that fires ``event`` with ``value`` on the component whose element id is ``component_id``."""
    payload = json.dumps([{"event": event, "value": value}])
    return WidgetState(id=_make_trigger_id(component_id, "events"), json_trigger_value=payload)
