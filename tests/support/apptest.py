"""Drive the app in Streamlit's AppTest and read back the numbers its charts were given."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import numpy as np
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from attnviz.ui.state import control_key, setting_key, table_key_at, tabs_key
from tests.support.triggers import trigger_state

APP = str(Path(__file__).resolve().parents[2] / "app.py")
__all__ = ["APP", "control_key", "setting_key"]


class RouterAlreadyRan(PagesManager):
    """AppTest re-detects the pages/ folder on every run and so runs each one in Streamlit's legacy multipage mode,
    which a real server leaves for good once app.py has called st.navigation. Patched in as AppTest's
    PagesManager (tests/app/conftest.py, bench/worst.py), it makes every run go through the router as on a warmed-up
    server (see attnviz/ui/__init__.py for the same fix on a real server, and tests/app/test_router.py for its check)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        PagesManager.uses_pages_directory = False


def open_app(page: str | None = None, **query_params) -> AppTest:
    """The app after its first run, on ``page`` (a name from attnviz.pages) if given."""
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in query_params.items():
        at.query_params[name] = value
    at.run()
    if page is not None:
        at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, at.exception
    return at


def playground(at: AppTest):
    return at.session_state["playground"]


def type_cells(at: AppTest, table: str, cells: dict[tuple[int, int], object], columns: list[str]) -> AppTest:
    """Types ``{(row, column): text}`` into the editable table ``table`` (as a user would) and reruns."""
    versions = [int(k.rsplit(".", 1)[1]) for k in at.session_state if str(k).startswith(f"table.{table}.")]
    key = table_key_at(table, max(versions, default=0))
    edited: dict[int, dict[str, object]] = {}
    for (row, col), text in cells.items():
        edited.setdefault(row, {})[columns[col]] = text
    at.session_state[key] = {"edited_rows": edited, "added_rows": [], "deleted_rows": []}
    return at.run()


def open_tab(at: AppTest, page: str, name: str) -> AppTest:
    """Clicks the tab ``name`` of ``page``'s tab bar (a lazy one: only the open tab's contents run) and reruns."""
    at.session_state[tabs_key(page)] = name
    return at.run()


def button(at: AppTest, label: str):
    matches = [b for b in at.button if b.label == label]
    assert len(matches) == 1, f"expected one button {label!r}, found {[b.label for b in at.button]}"
    return matches[0]


def texts(elements) -> str:
    return "\n".join(str(e.value) for e in elements)


# ----------------------------------------------------------------------------- ECharts (guided pages, real model)


def echarts(at: AppTest) -> dict[str, dict]:
    """Every ECharts option on the page, by chart key (the key ends the element id)."""
    return {c.proto.id.rsplit("-", 1)[-1]: json.loads(c.proto.spec) for c in at.get("echarts_chart")}


# ----------------------------------------------------------------------------- the Playground's views


def views_data(at: AppTest) -> dict:
    """What the Playground sent its attention-views component (attnviz/ui/attention_grid): views, sizes, colours."""
    matches = [c for c in at.get("bidi_component") if c.proto.component_name == "attnviz_attention_views"]
    assert len(matches) == 1, f"expected one attention-views component, found {len(matches)}"
    return json.loads(matches[0].proto.json)


def controls(at: AppTest) -> dict[str, dict]:
    """The controls beside the views, by field (causal, scale, temperature, blocked_keys, focus, undo): each as the
    component was given it, with its kind, label, options and the value it shows."""
    return {control["field"]: control for control in views_data(at)["controls"]}


def control_value(at: AppTest, field: str):
    return controls(at)[field]["value"]


def use_control(at: AppTest, field: str, value=True) -> AppTest:
    """Changes the control ``field`` beside the views to ``value`` (a button: presses it) as the browser does: one
    trigger named after the field, sent with the rerun. AppTest has no API for a v2 component's triggers, so this
    adds the trigger to the widget states AppTest would send and runs with them."""
    assert field in controls(at) or field == "focus", f"no control {field!r} beside the views"
    (component,) = [c for c in at.get("bidi_component") if c.proto.component_name == "attnviz_attention_views"]
    states = at._tree.get_widget_states()
    states.widgets.append(trigger_state(component.proto.id, field, value))
    return at._run(states)


def views(at: AppTest) -> dict[str, dict]:
    """The four views by name (scores, scaled, weights, output), in reading order."""
    return {view["name"]: view for view in views_data(at)["views"]}


def heatmap_cells(view: dict) -> tuple[dict[tuple[int, int], str], dict[tuple[int, int], str]]:
    """(cell text by (row, column), masked-cell text by (row, column)) of a view small enough for cell text."""
    cols = len(view["cols"])
    cells, masked = {}, {}
    for k, (text, colour) in enumerate(zip(view["text"], view["colour"], strict=True)):
        (cells if colour is not None else masked)[divmod(k, cols)] = text
    return cells, masked


def heatmap_colour(view: dict) -> np.ndarray:
    """The colour position of every cell, as a (rows, cols) array with NaN where masked."""
    colour = [np.nan if p is None else p for p in view["colour"]]
    return np.array(colour, dtype=float).reshape(len(view["rows"]), len(view["cols"]))


def hover_number(view: dict, row: int, col: int) -> str:
    """The number the hover sentence of a cell gives ("4: good → 3: not: weight <this>")."""
    return view["numbers"][row * len(view["cols"]) + col]


# ----------------------------------------------------------------------------- plotly (the guided pages)


def decode(array):
    """Plotly 7 sends arrays as base64 typed arrays; plain lists pass through."""
    if isinstance(array, dict) and "bdata" in array:
        values = np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"])
        shape = array.get("shape")
        return values.reshape([int(s) for s in str(shape).split(",")]) if shape else values
    return np.array(array, dtype=object if array and isinstance(array[0], str) else float)


def chart(at: AppTest, key: str) -> dict:
    """The plotly spec of the chart created with ``key`` (Streamlit ends the element id with the user key)."""
    matches = [json.loads(c.proto.spec) for c in at.get("plotly_chart") if c.proto.id.endswith(f"-{key}")]
    assert len(matches) == 1, f"expected one chart with key {key!r}, found {len(matches)}"
    return matches[0]


def chart_keys(at: AppTest) -> list[str]:
    return [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")]


def trace(at: AppTest, key: str, index: int, field: str) -> np.ndarray:
    return decode(chart(at, key)["data"][index][field]).astype(float)


def open_page(file: str) -> AppTest:
    """The app opened on ``pages/<name>.py``."""
    return open_app(Path(file).stem)


def as_read(text: str) -> str:
    """Markdown text as a reader sees it: the escapes that keep user text literal removed."""
    return re.sub(r"\\(.)", r"\1", text)
