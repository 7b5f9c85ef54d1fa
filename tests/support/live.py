"""A live Streamlit server and a Chromium to drive it: shared by the e2e tests and the browser benchmarks.

Nothing here asserts anything; callers decide what a failure means.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]  # tests/support/live.py → the repository
DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
# Without the networking flags Chromium keeps trying to reach hosts this machine cannot reach.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


class ServerError(RuntimeError):
    """The Streamlit server did not come up; the message carries its output."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class StreamlitServer:
    """``streamlit run <script>`` on a free localhost port. Use as a context manager: it always stops the server."""

    def __init__(
        self,
        script: str | Path = "app.py",
        *,
        cwd: Path = REPO,
        startup_timeout: float = 60.0,
        python: str | Path = sys.executable,
        env: dict[str, str] | None = None,
    ):
        self.script = str(script)
        self.python = str(
            python
        )  # another venv's interpreter serves the app as that venv has it (tests/e2e/test_cloud.py)
        self.env = env or {}  # added to this process's environment
        self.cwd = Path(cwd)
        self.startup_timeout = startup_timeout
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self._log = tempfile.TemporaryFile(mode="w+b")  # noqa: SIM115 (closed in stop()); a file, not a pipe: a full pipe would block the server

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def output(self) -> str:
        self._log.flush()
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    def start(self) -> StreamlitServer:
        command = [
            self.python,
            "-m",
            "streamlit",
            "run",
            self.script,
            "--server.headless",
            "true",
            "--server.address",
            "127.0.0.1",
            "--server.port",
            str(self.port),
            "--browser.gatherUsageStats",
            "false",
            # The server runs the code it started with. The checkout is shared and edited while tests and load runs
            # use it; a watched server re-imports edited modules under running sessions (import errors, and state
            # objects of a class that has since changed).
            "--server.fileWatcherType",
            "none",
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        self.process = subprocess.Popen(command, cwd=self.cwd, stdout=self._log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerError(
                    f"streamlit run {self.script} exited with code {self.process.returncode} before it was healthy.\n"
                    f"--- server output ---\n{self.output()}"
                )
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as response,
            ):
                if response.read().decode().strip() == "ok":
                    return self
            time.sleep(0.2)
        self.stop()
        raise ServerError(
            f"streamlit run {self.script} was not healthy after {self.startup_timeout:.0f} s.\n"
            f"--- server output ---\n{self.output()}"
        )

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)

    def rss_mb(self) -> float:
        """The server's resident memory (VmRSS) in MB."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("VmRSS not found")

    def __enter__(self) -> StreamlitServer:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()
        self._log.close()


def find_browser() -> tuple[str | None, str]:
    """(executable_path or None for Playwright's own, description), or raises FileNotFoundError with the reason."""
    if DEBIAN_CHROMIUM.exists():
        return str(DEBIAN_CHROMIUM), f"{DEBIAN_CHROMIUM}"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        own = Path(p.chromium.executable_path)
    if own.exists():
        return None, f"Playwright's chromium at {own}"
    raise FileNotFoundError(
        f"no Chromium: neither {DEBIAN_CHROMIUM} (apt-get install chromium) nor Playwright's own ({own}; "
        "python -m playwright install chromium) exists"
    )


def launch_chromium(playwright, executable: str | None):
    """A headless Chromium: Debian's when ``executable`` is given, else Playwright's own."""
    if executable:
        return playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
    return playwright.chromium.launch(args=CHROMIUM_ARGS, headless=True)


# JavaScript run in the page. A chart "draws" when its Plotly element has data and either a heatmap image with a
# data URL or at least one SVG trace/point/line; an ECharts chart when its canvas has its aria label; a Playground view
# (attnviz/ui/attention_grid) when its canvas has painted data.
CHARTS_DRAWN_JS = """
() => {
  const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"]')];
  const echarts = [...document.querySelectorAll('[data-testid="stEChartsChart"]')];
  const views = [...document.querySelectorAll('.attnviz-view')];
  if (!charts.length && !echarts.length && !views.length) return {count: 0, drawn: 0};
  let drawn = echarts.filter(e => e.querySelector('canvas') && (e.getAttribute('aria-label') || '').includes('data')).length
    + views.filter(v => v.querySelector('canvas[data-revision]')).length;
  for (const chart of charts) {
    const plot = chart.querySelector('.js-plotly-plot');
    if (!plot || !plot._fullData || !plot._fullData.length) continue;
    const image = plot.querySelector('.heatmaplayer image');
    const imageOk = image && (image.getAttribute('href') || image.getAttribute('xlink:href') || '').startsWith('data:');
    const svgOk = plot.querySelector('.scatterlayer .trace path, .scatterlayer .point, .barlayer .point, '
      + '.scatterlayer .trace text, .contourlayer path, .gl-container canvas, .heatmaplayer image');
    if (imageOk || svgOk) drawn += 1;
  }
  return {count: charts.length + echarts.length + views.length, drawn};
}
"""


def wait_for_app(page, *, timeout_ms: float = 60_000) -> None:
    """Waits until the app is connected, its script run has finished and every lazily loaded element has replaced its
    placeholder (Streamlit shows an ``stSkeleton`` while an element's code is still loading)."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout_ms)
    page.wait_for_function(
        """() => {
          const app = document.querySelector('[data-testid="stApp"]');
          return app && app.getAttribute('data-test-script-state') === 'notRunning'
            && app.getAttribute('data-test-connection-state') === 'CONNECTED'
            && document.querySelector('[data-testid="stMain"] [data-testid="stElementContainer"]') !== null
            && document.querySelector('[data-testid="stSkeleton"]') === null;
        }""",
        timeout=timeout_ms,
    )


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


def open_app_page(page, url: str, *, timeout_ms: float = 60_000) -> int:
    """Loads ``url``, waits for the first script run to finish and every chart to draw; returns the chart count."""
    page.goto(url)
    wait_for_app(page, timeout_ms=timeout_ms)
    return wait_for_charts(page, timeout_ms=timeout_ms)


# ----------------------------------------------------------------------------- views: the Playground's, and ECharts'
# A Playground view (attnviz/ui/attention_grid) is a canvas with a table for screen readers that holds every cell's
# text; an ECharts view's aria-label lists every cell: "the data for <key> is column; row; colour; text; hover" (see
# attnviz.figures.attention_charts). Both are what a screen reader hears, and what these helpers read.
_ARIA_CELL = re.compile(r"the data for .*? is (\d+); (\d+); (-?[\d.e-]+); ([^;]*); ([^;]*?)(?=; the data for |\.\s*$)")

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
  const grids = [...document.querySelectorAll('.attnviz-view')].map(view => ({
    title: view.querySelector('.attnviz-view-title').textContent,
    cells: [...view.querySelectorAll('.attnviz-sr tbody tr')].flatMap((row, i) =>
      [...row.querySelectorAll('td')].map((cell, j) => [i, j, cell.textContent, cell.dataset.masked === 'true'])),
    signature: signature(view),
    box: view.querySelector('canvas').getBoundingClientRect().toJSON(),
  }));
  const echarts = [...document.querySelectorAll('[data-testid="stEChartsChart"]')].map(chart => ({
    label: chart.getAttribute('aria-label') || '', signature: signature(chart), box: chart.getBoundingClientRect().toJSON(),
  }));
  return {grids, echarts};
}
"""


def read_views(page) -> dict[str, dict]:
    """Every view on the page, by title: its unmasked cells' texts {(row, col): text}, its pixel signature, its box."""
    found = page.evaluate(READ_VIEWS_JS)
    views = {
        grid["title"]: {
            "cells": {(i, j): text for i, j, text, masked in grid["cells"] if not masked},
            "signature": grid["signature"],
            "box": grid["box"],
        }
        for grid in found["grids"]
    }
    for chart in found["echarts"]:
        title = re.search(r'This is a chart about "(.*?)"', chart["label"])
        main = chart["label"].split("The 1 series")[0]  # series 0: the unmasked cells
        cells = {(int(row), int(col)): text for col, row, _, text, _ in _ARIA_CELL.findall(main)}
        views[title[1] if title else ""] = {"cells": cells, "signature": chart["signature"], "box": chart["box"]}
    return views


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
    return page.locator(".attnviz-control").filter(has_text=label)


def chosen_focus(page) -> str:
    """The label the Playground's focus drop-down shows."""
    return page.locator(".attnviz-choice select").evaluate("select => select.selectedOptions[0].text")
