"""The e2e tests' reading of a page in Chromium: charts drawn, the Playground's views and controls. The live server
and the browser themselves are bench.harness's (the benchmarks stand on them too); they are named here for the tests.

Nothing here asserts anything; callers decide what a failure means.
"""

from __future__ import annotations

import time

from bench.harness.chromium import CHARTS_DRAWN_JS, find_browser, launch_chromium, wait_for_app
from bench.harness.server import REPO, ServerError, StreamlitServer, free_port

__all__ = ["REPO", "ServerError", "StreamlitServer", "find_browser", "free_port", "launch_chromium"]

# Every Plotly chart on the page as plain JSON: title, and per trace its type, name, x/y labels and z rows
# (typed arrays and NaN made JSON-safe: NaN becomes null).
READ_PLOTS_JS = """
() => [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')].map(plot => {
  const plain = v => {
    if (v === null || v === undefined) return null;
    if (ArrayBuffer.isView(v) || Array.isArray(v)) return Array.from(v, plain);
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    return v;
  };
  const layout = plot._fullLayout || plot.layout || {};
  const title = layout.title && (typeof layout.title === 'string' ? layout.title : layout.title.text);
  return {
    title: title || '',
    traces: (plot._fullData || []).map(t => ({
      type: t.type, name: t.name, x: plain(t.x), y: plain(t.y), z: plain(t.z), text: plain(t.text),
    })),
    xTicks: [...plot.querySelectorAll('.xtick text')].map(e => e.textContent),
    yTicks: [...plot.querySelectorAll('.ytick text')].map(e => e.textContent),
  };
})
"""


def read_plots(page) -> list[dict]:
    return page.evaluate(READ_PLOTS_JS)


def charts_state(page) -> dict:
    """{"count": charts on the page, "drawn": how many have drawn content}."""
    return page.evaluate(CHARTS_DRAWN_JS)


def wait_for_charts(page, *, timeout_ms: float = 30_000) -> int:
    """Waits until the page shows at least one chart and every chart has drawn; returns the number of charts.

    At least one: right after loading, the script state can read "not running" before the first run has sent
    anything, and an empty page would pass "every chart has drawn" at once. Every attnviz page has charts.
    """
    page.wait_for_function(
        f"() => {{ const s = ({CHARTS_DRAWN_JS})(); return s.count > 0 && s.drawn === s.count; }}", timeout=timeout_ms
    )
    return charts_state(page)["count"]


# The pages that draw no chart (lists and forms): for them, loaded means the script run is over.
CHARTLESS_PAGES = {"challenges", "lesson_plans"}


def open_app_page(page, url: str, *, timeout_ms: float = 60_000) -> int:
    """Loads ``url``, waits for the first script run to finish and every chart to draw; returns the chart count."""
    page.goto(url)
    wait_for_app(page, timeout_ms=timeout_ms)
    if url.split("?")[0].rstrip("/").rsplit("/", 1)[-1] in CHARTLESS_PAGES:
        return charts_state(page)["count"]
    return wait_for_charts(page, timeout_ms=timeout_ms)


# ----------------------------------------------------------------------------- views (attnviz/component)
# A view is a canvas with a table for screen readers that holds every cell's text: what a screen reader hears, and
# what these helpers read.

# The views only: a table typed into (the Playground's Q, K and V, Multi-head's X) is read by its own tests.
READ_VIEWS_JS = """
() => {
  const signature = root => {
    let s = 0;
    for (const canvas of root.querySelectorAll('canvas')) {
      if (!canvas.width || !canvas.height) continue;
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < pixels.length; i += 4) s = (s * 31 + pixels[i] + 7 * pixels[i + 1] + 13 * pixels[i + 2]) >>> 0;
    }
    return s;
  };
  const grids = [...document.querySelectorAll('.attnviz-view:not([data-editable])')].map(view => ({
    title: view.querySelector('.attnviz-view-title').textContent,
    cells: [...view.querySelectorAll('.attnviz-sr tbody tr')].flatMap((row, i) =>
      [...row.querySelectorAll('td')].map((cell, j) => [i, j, cell.textContent, cell.dataset.masked === 'true'])),
    signature: signature(view),
    box: view.querySelector('canvas').getBoundingClientRect().toJSON(),
  }));
  return grids;
}
"""


def read_views(page) -> dict[str, dict]:
    """Every view on the page, by title: its unmasked cells' texts {(row, col): text}, its pixel signature, its box."""
    return {
        grid["title"]: {
            "cells": {(i, j): text for i, j, text, masked in grid["cells"] if not masked},
            "signature": grid["signature"],
            "box": grid["box"],
        }
        for grid in page.evaluate(READ_VIEWS_JS)
    }


def view_titled(page, title_start: str) -> dict:
    found = [view for title, view in read_views(page).items() if title.startswith(title_start)]
    if len(found) != 1:
        raise LookupError(f"expected one view titled {title_start!r}, found {list(read_views(page))}")
    return found[0]


def wait_for_view_change(page, title_start: str, before: dict, *, timeout_ms: float = 30_000) -> dict:
    """Waits until the view titled ``title_start`` draws different pixels and different cells than ``before``."""
    deadline = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < deadline:
        now = view_titled(page, title_start)
        if now["signature"] != before["signature"] and now["cells"] != before["cells"]:
            wait_for_app(page)
            wait_for_views_to_settle(page)  # the colours' glide is over
            return view_titled(page, title_start)
        page.wait_for_timeout(50)
    raise AssertionError(f"{title_start!r} did not change")


def wait_for_views_to_settle(page, *, timeout_ms: float = 30_000) -> dict[str, dict]:
    """Waits until no view's pixels change for half a second (fonts loaded, glides done); returns the views."""
    deadline = time.monotonic() + timeout_ms / 1000
    last = None
    while time.monotonic() < deadline:
        now = {title: view["signature"] for title, view in read_views(page).items()}
        if now == last:
            return read_views(page)
        last = now
        page.wait_for_timeout(500)
    raise TimeoutError("the charts kept changing")


def view_control(page, label: str):
    """A control beside the Playground's views, by its label: drawn by the views' component, not a Streamlit widget
    (a checkbox's ``locator("input")`` is its box; a click on it toggles it)."""
    from attnviz.playground.controls import CONTROLS

    field = next(control.field for control in CONTROLS.values() if control.label.startswith(label))
    return page.locator(f'.attnviz-control[data-field="{field}"]')


def chosen_focus(page) -> str:
    """The label the Playground's focus drop-down shows."""
    return page.locator('.attnviz-control[data-field="focus"] select').evaluate(
        "select => select.selectedOptions[0].text"
    )


# ----------------------------------------------------------------------------- tables typed into (attnviz/component)
VIEW_CANVAS = ".attnviz-view:not([data-editable]) canvas"  # a view's canvas, not a table's typed into
Q_VIEW = '.attnviz-view[data-view="Q"]'  # the Playground's Q table, drawn and typed into by the matrix component
CELL_INPUT = ".attnviz-cell-input"  # the input the component opens over the cell typed into
NUMBER_KEYS = set("0123456789.-+eE−")  # a key of these on a focused view opens the input holding it


def table_view(page, view: str = "Q"):
    """The canvas of the editable view ``view`` (the Playground's Q, K or V, Multi-head's X), scrolled into sight."""
    canvas = page.locator(f'.attnviz-view[data-view="{view}"] canvas').first
    canvas.scroll_into_view_if_needed()
    return canvas


def click_table_cell(page, view: str, row: int, column: int) -> None:
    """Clicks the cell (row, column) of ``view``, found from the view's own layout as the browser drew it: the
    keyboard's cursor goes there and the canvas takes the keyboard (nothing is sent to Python)."""
    canvas = table_view(page, view)
    page.wait_for_function("(canvas) => !!canvas.dataset.layout", arg=canvas.element_handle())
    at = canvas.evaluate("canvas => JSON.parse(canvas.dataset.layout)")
    canvas.click(position={"x": at["left"] + (column + 0.5) * at["cellW"], "y": at["top"] + (row + 0.5) * at["cellH"]})


def type_into(page, view: str, row: int, column: int, text: str) -> None:
    """Types ``text`` into the cell (row, column) of ``view`` as a student does: a click on the cell, the text typed
    (its first key opens the input over the cell holding it; a text that does not begin a number opens it with
    Enter, the cell's text selected, and replaces that), then Enter, which sends it and moves the cursor down."""
    click_table_cell(page, view, row, column)
    cell_input = page.locator(f'.attnviz-view[data-view="{view}"] {CELL_INPUT}')  # each editable view has its own
    if text[:1] in NUMBER_KEYS:
        page.keyboard.type(text[0])
        cell_input.wait_for(state="visible")
        cell_input.press_sequentially(text[1:])
    else:
        page.keyboard.press("Enter")
        cell_input.wait_for(state="visible")
        cell_input.fill(text)  # over the selected text (an empty text clears it)
    cell_input.press("Enter")


def paste_into(page, view: str, row: int, column: int, text: str) -> None:
    """Pastes ``text`` (lines of tab-separated cells, as a spreadsheet copies them) on the cell (row, column) of
    ``view``: one block, filling down and right from it."""
    click_table_cell(page, view, row, column)
    table_view(page, view).evaluate(
        """(canvas, text) => { const data = new DataTransfer(); data.setData('text/plain', text);
             canvas.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true})); }""",
        text,
    )
