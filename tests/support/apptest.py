"""Drive the app in Streamlit's AppTest and read back the numbers its charts were given (opening it, its buttons and
the Playground's controls are bench.harness.apptest's, named here too)."""

from __future__ import annotations

import base64
import itertools
import json
import re
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from attnviz.figures.matrix_view import colour_positions, hover_numbers
from attnviz.ui.state import TABLES, control_key, setting_key, tabs_key
from attnviz.ui.text import WORD_JOINER
from attnviz.ui.training_run import RUNS, Runs
from bench.harness.apptest import (
    APP,
    RouterAlreadyRan,
    button,
    click_cell,
    control_value,
    controls,
    open_app,
    use_control,
    views_data,
)
from bench.harness.triggers import trigger_state

# Named here for the tests; they live in bench.harness.apptest (the server benchmarks use them too).
__all__ = [
    "APP",
    "RouterAlreadyRan",
    "button",
    "click_cell",
    "control_key",
    "control_value",
    "controls",
    "open_app",
    "setting_key",
    "use_control",
    "views_data",
]


def playground(at: AppTest):
    return at.session_state["playground"].state


_edits = itertools.count(1)  # each edit its own id, as the browser numbers them


def type_cells(
    at: AppTest, view: str, row: str, col: str, cells: list[list[str]], *, key: str = TABLES, id: str | None = None
) -> AppTest:
    """Types ``cells`` (rows of texts; one cell: ``[["0.5"]]``) into ``view`` of the component drawn with ``key``
    (the Playground's Q, K and V tables by default), from the cell named ``row`` and ``col``, as the browser sends
    it: the event {"edit": {"view", "row", "col", "cells", "id"}} with the rerun (attnviz.component.edits)."""
    (component,) = [c for c in at.get("bidi_component") if c.proto.id.endswith(f"-{key}")]
    states = at._tree.get_widget_states()
    sent = {"view": view, "row": row, "col": col, "cells": cells, "id": id or f"apptest-{next(_edits)}"}
    states.widgets.append(trigger_state(component.proto.id, "event", {"edit": sent}))
    return at._run(states)


def type_cell(at: AppTest, view: str, row: int, col: int, text: str, *, key: str = TABLES) -> AppTest:
    """Types ``text`` into the cell (row, col), by position, of ``view`` as drawn (its names sent)."""
    drawn = views_data(at, key)["views"]
    (shown,) = [v for v in drawn if v["name"] == view]
    return type_cells(at, view, shown["rows"][row], shown["cols"][col], [[text]], key=key)


def table_texts(at: AppTest, view: str, *, key: str = TABLES) -> list[list[str]]:
    """The texts the cells of ``view`` (drawn with ``key``) say, as rows: what a student would type back."""
    (shown,) = [v for v in views_data(at, key)["views"] if v["name"] == view]
    cols = len(shown["cols"])
    return [shown["text"][i : i + cols] for i in range(0, len(shown["text"]), cols)]


def runs(at: AppTest) -> Runs:
    """Watch it learn's runs and results as the session keeps them (attnviz.ui.training_run)."""
    return at.session_state[RUNS] if RUNS in at.session_state else Runs()


def open_tab(at: AppTest, page: str, name: str) -> AppTest:
    """Clicks the tab ``name`` of ``page``'s tab bar (a lazy one: only the open tab's contents run) and reruns."""
    at.session_state[tabs_key(page)] = name
    return at.run()


def texts(elements) -> str:
    return "\n".join(str(e.value) for e in elements)


# ------------------------------------------------------------------------- ECharts (Real model's lines, Watch it learn)


def echarts(at: AppTest) -> dict[str, dict]:
    """Every ECharts option on the page, by chart key (the key ends the element id)."""
    return {c.proto.id.rsplit("-", 1)[-1]: json.loads(c.proto.spec) for c in at.get("echarts_chart")}


# ----------------------------------------------------------------------------- matrices (attnviz.figures.matrix_view)
SHOWN_RTOL = 5.001e-4  # a hover number has 4 significant digits (3 above the text limit: 5e-3)


def matrix_views(at: AppTest, key: str) -> dict[str, dict]:
    """The views drawn by the attention-grid component with ``key``, by view name, in reading order."""
    return {view["name"]: view for view in views_data(at, key)["views"]}


def shown_matrix(view: dict) -> np.ndarray:
    """A view's numbers as its hovers give them, as a (rows, cols) array; NaN where masked."""
    numbers = [np.nan if colour is None else float(text.replace("−", "-")) for text, colour in zip(
        hover_numbers(view), colour_positions(view), strict=True)]  # fmt: skip
    return np.array(numbers).reshape(len(view["rows"]), len(view["cols"]))


def assert_shown(view: dict, expected, *, masked=None) -> None:
    """``view`` shows ``expected`` (rows, cols) to its hover's digits, and ``masked`` cells (bool) as masked."""
    drawn, expected = shown_matrix(view), np.asarray(expected, dtype=float)
    masked = np.zeros(expected.shape, bool) if masked is None else np.asarray(masked, bool)
    assert drawn.shape == expected.shape and np.isnan(drawn[masked]).all()
    rtol = SHOWN_RTOL if view["text"] else 10 * SHOWN_RTOL
    np.testing.assert_allclose(drawn[~masked], expected[~masked], rtol=rtol, atol=1e-12)


# ----------------------------------------------------------------------------- the Playground's views


def views(at: AppTest) -> dict[str, dict]:
    """The four views by name (scores, scaled, weights, output), in reading order."""
    return {view["name"]: view for view in views_data(at)["views"]}


def answer_said(at: AppTest) -> str:
    """Where the student's class answer stands: the line under the weights view ("" where there is none)."""
    return views(at)["weights"].get("line", {}).get("text", "")


def heatmap_cells(view: dict) -> tuple[dict[tuple[int, int], str], dict[tuple[int, int], str]]:
    """(cell text by (row, column), masked-cell text by (row, column)) of a view small enough for cell text."""
    cols = len(view["cols"])
    cells, masked = {}, {}
    for k, (text, colour) in enumerate(zip(view["text"], view["colour"], strict=True)):
        (cells if colour is not None else masked)[divmod(k, cols)] = text
    return cells, masked


def heatmap_colour(view: dict) -> np.ndarray:
    """The colour position of every cell, as a (rows, cols) array with NaN where masked."""
    colour = [np.nan if p is None else p for p in colour_positions(view)]
    return np.array(colour, dtype=float).reshape(len(view["rows"]), len(view["cols"]))


def hover_number(view: dict, row: int, col: int) -> str:
    """The number the hover sentence of a cell gives ("4: good → 3: not: weight <this>")."""
    return hover_numbers(view)[row * len(view["cols"]) + col]


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
    """Markdown text as a reader sees it: the escapes that keep user text literal removed, and the word joiners that
    keep a URL from becoming a link (invisible) too."""
    return re.sub(r"\\(.)", r"\1", text).replace(WORD_JOINER, "")
