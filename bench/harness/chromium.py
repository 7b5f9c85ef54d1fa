"""A headless Chromium (Debian's, else Playwright's own) and the page states every driver waits for: the app's script
run finished, every chart drawn."""

from __future__ import annotations

from pathlib import Path

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
# data URL or at least one SVG trace/point/line; an ECharts chart when its canvas has its aria label (set as it draws
# its option: ECharts' own description, or the option's own words); a Playground view
# (attnviz/component) when its canvas has painted data.
CHARTS_DRAWN_JS = """
() => {
  const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"]')];
  const echarts = [...document.querySelectorAll('[data-testid="stEChartsChart"]')];
  const views = [...document.querySelectorAll('.attnviz-view')];
  if (!charts.length && !echarts.length && !views.length) return {count: 0, drawn: 0};
  let drawn = echarts.filter(e => e.querySelector('canvas') && (e.getAttribute('aria-label') || '').length > 0).length
    + views.filter(v => v.querySelector('canvas[data-revision]') || !v.getClientRects().length).length; // hidden: in a closed tab
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
