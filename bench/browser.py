"""Browser benchmarks in one Chromium: click → redrawn heatmap (and the floor app's click → redrawn text), warm load.

Every time is taken inside the page with ``performance.now()``, so Playwright's own round trips are not counted:

- click → redraw: a capturing ``pointerdown`` listener stamps the click; a MutationObserver stamps the first DOM change
  after which the target differs from before the click (the weights heatmap's ``.heatmaplayer image`` href, or the
  floor app's "The box is on/off" text). A wrapped WebSocket stamps every message, so each sample also says when the
  rerun request left, when the server's first and last messages arrived and when the page settled.
- warm load: ``performance.now()`` counts from the navigation's start; a requestAnimationFrame poll stamps the first
  frame in which every expected chart has drawn.
"""

from __future__ import annotations

import statistics
import time

from tests.support.live import CHARTS_DRAWN_JS, REPO, StreamlitServer, find_browser, launch_chromium, wait_for_app

VIEWPORT = {"width": 1280, "height": 800}
PLAYGROUND_CHARTS = 5  # four heatmaps and the focus token's bar chart
WEIGHTS_TITLE = "3. Attention weights"
FLOOR_TEXT = "The box is"
CLICK_SIZES = (12, 128)
CLICK_SAMPLES = 15
WARM_LOADS = 5
TARGET_CLICK_12_MS = 200.0
TARGET_FLOOR_RATIO = 1.6
TARGET_CLICK_128_MS = 500.0
TARGET_WARM_LOAD_S = 1.5

# Runs before any page script: stamps every WebSocket message (Streamlit's one socket carries every rerun).
WS_LOG_INIT = """
(() => {
  const log = (window.__wsLog = []);
  const Original = window.WebSocket;
  const size = d => (d && (d.byteLength ?? d.size ?? d.length)) || 0;
  class Logged extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', ev => log.push({t: performance.now(), dir: 'in', bytes: size(ev.data)}));
    }
    send(data) {
      log.push({t: performance.now(), dir: 'out', bytes: size(data)});
      return super.send(data);
    }
  }
  window.WebSocket = Logged;
})();
"""

# What the click should change, as a string: the weights heatmap's drawn image, or the floor app's line of text.
SIGNATURE_JS = {
    "heatmap": """
      () => {
        for (const plot of document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')) {
          const title = ((plot._fullLayout && plot._fullLayout.title && plot._fullLayout.title.text) || '').replace(/<[^>]*>/g, '');
          if (title.startsWith(%(target)s)) {
            const image = plot.querySelector('.heatmaplayer image');
            return image ? (image.getAttribute('href') || image.getAttribute('xlink:href') || '') : '';
          }
        }
        return null;
      }""",
    "text": """
      () => {
        for (const el of document.querySelectorAll('[data-testid="stMarkdownContainer"]')) {
          if (el.textContent.startsWith(%(target)s)) return el.textContent;
        }
        return null;
      }""",
}

# Arms one measurement: stamps the next pointerdown, then the first mutation after which the signature differs, then
# keeps stamping the last mutation (for "settled"). Returns nothing; the result lands in window.__bench.
ARM_JS = """
([signatureSource]) => {
  const signature = eval('(' + signatureSource + ')');
  if (window.__bench && window.__bench.observer) window.__bench.observer.disconnect();
  const rec = {before: signature(), click: null, change: null, frame: null, last: null, wsFrom: window.__wsLog.length};
  window.__bench = rec;
  window.addEventListener('pointerdown', () => { if (rec.click === null) rec.click = performance.now(); },
                          {capture: true, once: true});
  rec.observer = new MutationObserver(() => {
    if (rec.click === null) return;
    const now = performance.now();
    rec.last = now;
    if (rec.change === null) {
      const after = signature();
      if (after !== null && after !== rec.before) {
        rec.change = now;
        requestAnimationFrame(() => { rec.frame = performance.now(); });
      }
    }
  });
  rec.observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}
"""

# The armed measurement, once the page has settled: times relative to the click, in ms, and the socket traffic.
COLLECT_JS = """
() => {
  const rec = window.__bench;
  rec.observer.disconnect();
  const rel = t => (t === null || t === undefined ? null : t - rec.click);
  const ws = window.__wsLog.slice(rec.wsFrom).filter(m => m.t >= rec.click);
  const incoming = ws.filter(m => m.dir === 'in');
  const sent = ws.find(m => m.dir === 'out');
  return {
    redraw: rel(rec.change), frame: rel(rec.frame), settled: rel(rec.last),
    sent: rel(sent && sent.t), firstIn: rel(incoming.length ? incoming[0].t : null),
    lastIn: rel(incoming.length ? incoming[incoming.length - 1].t : null),
    messages: incoming.length, bytesIn: incoming.reduce((s, m) => s + m.bytes, 0),
  };
}
"""

SCRIPT_IDLE_JS = """
() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return app && app.getAttribute('data-test-script-state') === 'notRunning'
    && app.getAttribute('data-test-connection-state') === 'CONNECTED';
}
"""

# True once every chart on the page has drawn and there are ``expected`` of them; stamps that moment in the page.
ALL_DRAWN_JS = f"""
(expected) => {{
  const s = ({CHARTS_DRAWN_JS})();
  if (s.count >= expected && s.drawn === s.count) {{
    if (window.__allDrawn === undefined) window.__allDrawn = performance.now();
    return true;
  }}
  return false;
}}
"""

WEIGHTS_SIZE_JS = f"""
() => {{
  for (const plot of document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')) {{
    const title = ((plot._fullLayout && plot._fullLayout.title && plot._fullLayout.title.text) || '').replace(/<[^>]*>/g, '');
    if (title.startsWith({WEIGHTS_TITLE!r}) && plot._fullData && plot._fullData.length) {{
      return plot._fullData[0].z.length;
    }}
  }}
  return null;
}}
"""


def new_page(browser):
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(WS_LOG_INIT)
    page = context.new_page()
    page.set_default_timeout(60_000)
    return context, page


def wait_idle(page, *, quiet_ms: int = 250) -> None:
    """The script run is over and the page has had ``quiet_ms`` to finish drawing, so samples don't overlap."""
    page.wait_for_function(SCRIPT_IDLE_JS)
    page.wait_for_timeout(quiet_ms)
    page.wait_for_function(SCRIPT_IDLE_JS)


def open_and_draw(page, url: str, expected_charts: int) -> None:
    page.goto(url)
    wait_for_app(page)
    page.wait_for_function(ALL_DRAWN_JS, arg=expected_charts)


def checkbox(page, label: str):
    return page.locator('[data-testid="stCheckbox"]').filter(has_text=label)


def click_samples(page, label: str, kind: str, target: str, samples: int, on_sample=None) -> list[dict]:
    """``samples`` clicks on the checkbox ``label``, alternating on/off; per click the in-page times (ms)."""
    box = checkbox(page, label)
    click_target = box.locator('[data-testid="stWidgetLabel"] p')
    box_input = box.locator("input[type=checkbox]")
    signature = SIGNATURE_JS[kind] % {"target": repr(target)}
    results = []
    for _ in range(samples):
        was = box_input.is_checked()
        page.evaluate(ARM_JS, [signature])
        if on_sample:
            on_sample("before")
        click_target.click()
        page.wait_for_function("() => window.__bench.change !== null && window.__bench.frame !== null")
        wait_idle(page)
        result = page.evaluate(COLLECT_JS)
        if box_input.is_checked() == was:
            raise RuntimeError(f"clicking {label!r} did not toggle it")
        if on_sample:
            result.update(on_sample("after") or {})
        results.append(result)
    return results


def set_sentence(page, n: int) -> None:
    """Types an ``n``-word sentence into the Playground and waits until the weights heatmap is n × n."""
    field = page.get_by_role("textbox", name="Sentence", exact=True)
    field.fill(" ".join(f"w{i}" for i in range(n)))
    field.press("Enter")
    page.wait_for_function(f"() => ({WEIGHTS_SIZE_JS})() === {n}")
    page.wait_for_function(ALL_DRAWN_JS, arg=PLAYGROUND_CHARTS)
    wait_idle(page, quiet_ms=500)


def _median(results: list[dict], field: str) -> float | None:
    values = [r[field] for r in results if r[field] is not None]
    return statistics.median(values) if values else None


def _breakdown(results: list[dict]) -> str:
    """Medians after the click: request sent, the server's first and last message as the page received them (a busy
    page receives them late), the first frame after the redraw, and the page's last DOM change."""
    parts = [
        f"request sent {_median(results, 'sent'):.0f}",
        f"first reply {_median(results, 'firstIn'):.0f}",
        f"last reply {_median(results, 'lastIn'):.0f}",
        f"next frame after redraw {_median(results, 'frame'):.0f}",
        f"page settled {_median(results, 'settled'):.0f}",
    ]
    kib = statistics.median(r["bytesIn"] for r in results) / 1024
    messages = statistics.median(r["messages"] for r in results)
    return "ms after click (medians): " + ", ".join(parts) + f"; {messages:.0f} messages, {kib:.0f} KiB per click"


def measure_clicks(browser, app_url: str, floor_url: str, *, sizes=CLICK_SIZES, samples=CLICK_SAMPLES) -> list[dict]:
    rows = []
    context, page = new_page(browser)
    try:
        open_and_draw(page, floor_url, 0)
        page.wait_for_function(f"() => ({SIGNATURE_JS['text'] % {'target': repr(FLOOR_TEXT)}})() !== null")
        wait_idle(page)
        click_samples(page, "Toggle", "text", FLOOR_TEXT, 2)  # warm-up, not counted
        floor = click_samples(page, "Toggle", "text", FLOOR_TEXT, samples)
    finally:
        context.close()
    floor_ms = _median(floor, "redraw")
    rows.append(
        {
            "measure": "browser click → redraw, floor app",
            "value": floor_ms,
            "unit": "ms",
            "target": None,
            "met": None,
            "n": len(floor),
            "detail": "bench/floor_app.py: one checkbox → its line of text; " + _breakdown(floor),
        }
    )

    context, page = new_page(browser)
    try:
        open_and_draw(page, app_url, PLAYGROUND_CHARTS)
        wait_idle(page, quiet_ms=500)
        for n in sizes:
            set_sentence(page, n)
            click_samples(page, "Causal mask", "heatmap", WEIGHTS_TITLE, 2)  # warm-up, not counted
            results = click_samples(page, "Causal mask", "heatmap", WEIGHTS_TITLE, samples)
            value = _median(results, "redraw")
            if n == 12:
                ratio = value / floor_ms
                met = value <= TARGET_CLICK_12_MS and ratio <= TARGET_FLOOR_RATIO
                target = f"≤ {TARGET_CLICK_12_MS:.0f} and ≤ {TARGET_FLOOR_RATIO} × floor"
                ratio_text = f"{ratio:.2f} × floor ({floor_ms:.0f} ms); "
            else:
                met = value <= TARGET_CLICK_128_MS
                target = f"≤ {TARGET_CLICK_128_MS:.0f}"
                ratio_text = f"{value / floor_ms:.2f} × floor; "
            rows.append(
                {
                    "measure": f"browser click → weights redraw, n={n}",
                    "value": value,
                    "unit": "ms",
                    "target": target,
                    "met": met,
                    "n": len(results),
                    "detail": ratio_text + _breakdown(results),
                }
            )
    finally:
        context.close()
    return rows


def measure_warm_load(browser, app_url: str, *, loads: int = WARM_LOADS) -> list[dict]:
    """A cold first load, then ``loads`` more loads in the same context (cached assets), each to every chart drawn."""
    context, page = new_page(browser)
    try:
        cold_started = time.perf_counter()
        open_and_draw(page, app_url, PLAYGROUND_CHARTS)
        cold_s = time.perf_counter() - cold_started
        times = []
        for _ in range(loads):
            page.goto(app_url)
            page.wait_for_function(ALL_DRAWN_JS, arg=PLAYGROUND_CHARTS, polling="raf")
            times.append(page.evaluate("() => window.__allDrawn") / 1000)
            wait_idle(page)
    finally:
        context.close()
    value = statistics.median(times)
    return [
        {
            "measure": "browser warm load → all charts drawn",
            "value": value,
            "unit": "s",
            "target": f"≤ {TARGET_WARM_LOAD_S}",
            "met": value <= TARGET_WARM_LOAD_S,
            "n": len(times),
            "detail": f"from navigation start to {PLAYGROUND_CHARTS} charts drawn, same context after a cold load "
            f"(cold: {cold_s:.1f} s incl. Playwright); min {min(times):.2f}, max {max(times):.2f} s",
        }
    ]


def run(*, samples: int = CLICK_SAMPLES, loads: int = WARM_LOADS) -> list[dict]:
    from playwright.sync_api import sync_playwright

    executable, _ = find_browser()
    with (
        StreamlitServer(REPO / "app.py") as app,
        StreamlitServer(REPO / "bench" / "floor_app.py") as floor,
        sync_playwright() as playwright,
    ):
        browser = launch_chromium(playwright, executable)
        try:
            rows = measure_clicks(browser, app.url, floor.url, samples=samples)
            rows += measure_warm_load(browser, app.url, loads=loads)
        finally:
            browser.close()
    return rows
