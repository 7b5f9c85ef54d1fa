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


# ----------------------------------------------------------------------------- ECharts (the Playground)


def echarts(at: AppTest) -> dict[str, dict]:
    """Every ECharts option on the page, by chart key (the key ends the element id)."""
    return {c.proto.id.rsplit("-", 1)[-1]: json.loads(c.proto.spec) for c in at.get("echarts_chart")}


def heatmap_cells(option: dict) -> tuple[dict[tuple[int, int], str], dict[tuple[int, int], str]]:
    """(cell text by (row, column), masked-cell text by (row, column)) of an attention_charts heatmap."""
    main, masked = option["series"][0]["data"], option["series"][1]["data"]
    return {(y, x): text for x, y, _, text, _ in main}, {(y, x): text for x, y, _, text, _ in masked}


def heatmap_colour(option: dict) -> np.ndarray:
    """The colour position of every unmasked cell, as a (rows, cols) array with NaN where masked."""
    rows, cols = len(option["yAxis"]["data"]), len(option["xAxis"]["data"])
    colour = np.full((rows, cols), np.nan)
    for x, y, position, *_ in option["series"][0]["data"]:
        colour[y, x] = position
    return colour


def hover(option: dict, row: int, col: int) -> str:
    for series in option["series"][:2]:
        for x, y, _, _, sentence in series["data"]:
            if (y, x) == (row, col):
                return sentence
    raise KeyError((row, col))


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
