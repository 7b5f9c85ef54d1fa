"""Browser benchmarks in one Chromium: click → the changed views shown (against two floors), warm load.

Every time is taken inside the page with ``performance.now()``, so Playwright's own round trips are not counted:

- click → shown: a capturing ``pointerdown`` listener stamps the click; every canvas draw call stamps its canvas, and
  a requestAnimationFrame loop takes a signature of the pixels of each view that painted (the Playground's views,
  attnviz/component, and the chart floor's ECharts). "Shown" is the paint by which every view the click
  changed shows its new data: for a Playground view the first paint of its new data (it stamps each paint with the
  revision it draws; its numbers are all new in that paint, its colours most of the way, gliding about 0.1 s more), for an ECharts
  view its final picture, whole. "Quiet" is the last paint that changed any view, glides included. (Streamlit marks
  stale elements at once, so the first DOM mutation says nothing about when the new numbers are on screen.) A wrapped
  WebSocket stamps every message, so each sample also says when the rerun left and when the replies arrived.
- Floors, measured in the same run: a one-checkbox app (bench/floor_app.py) and a chart floor with one checkbox and
  as many heatmaps of the first screen's size as the Playground has views, ECharts with a number in every cell, and
  nothing else (bench/chart_floor_app.py).
- warm load: ``performance.now()`` counts from the navigation's start; a requestAnimationFrame poll stamps the first
  frame in which every expected chart has drawn.
"""

from __future__ import annotations

import statistics
import time

from attnviz.core.limits import MAX_TOKENS
from bench.browser_probes import (
    ALL_DRAWN_JS,
    ARM_JS,
    COLLECT_JS,
    PAINT_LOG_INIT,
    SCRIPT_IDLE_JS,
    TOKENS_SHOWN_JS,
    WS_LOG_INIT,
)
from bench.harness.chromium import wait_for_app
from bench.product import FIRST_SCREEN_TOKENS, PLAYGROUND_VIEWS, one_word_tokens

VIEWPORT = {"width": 1280, "height": 800}
CLICK_SIZES = (FIRST_SCREEN_TOKENS, MAX_TOKENS)
CLICK_SAMPLES = 15
WARM_LOADS = 5
TARGET_CHART_FLOOR_RATIO = 1.3  # the first screen: every changed view shows its new data within 1.3 × the chart floor …
TARGET_CHECKBOX_FLOOR_RATIO = 3.0  # … and within 3 × the one-checkbox floor
TARGET_QUIET_MS = 400.0  # the first screen's tokens: the last view stops changing
TARGET_CLICK_LARGEST_MS = 600.0  # at MAX_TOKENS (any size but the first screen's): every changed view shown
TARGET_WARM_LOAD_S = 1.5


def new_page(browser):
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(WS_LOG_INIT)
    context.add_init_script(PAINT_LOG_INIT)
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
    """The checkbox ``label``: a Streamlit st.checkbox (the floors) or one drawn by the Playground's views component."""
    return page.locator('[data-testid="stCheckbox"], .attnviz-check').filter(has_text=label)


def click_samples(page, label: str, samples: int, on_sample=None) -> list[dict]:
    """``samples`` clicks on the checkbox ``label``, alternating on/off; per click the in-page times (ms)."""
    box = checkbox(page, label)
    click_target = box.get_by_text(label, exact=True)
    box_input = box.locator("input[type=checkbox]")
    results = []
    for _ in range(samples):
        was = box_input.is_checked()
        page.evaluate(ARM_JS)
        if on_sample:
            on_sample("before")
        click_target.click()
        wait_idle(page, quiet_ms=1000)  # long enough that the last frame is the final picture
        result = page.evaluate(COLLECT_JS)
        if box_input.is_checked() == was or result["shown"] is None:
            raise RuntimeError(f"clicking {label!r} did not toggle it, or nothing was drawn")
        if on_sample:
            result.update(on_sample("after") or {})
        results.append(result)
    return results


def set_sentence(page, n: int) -> None:
    """Types an ``n``-word sentence into the Playground and waits until its n tokens and every view are drawn."""
    field = page.get_by_role("textbox", name="Sentence", exact=True)
    field.fill(one_word_tokens(n))
    field.press("Enter")
    page.wait_for_function(f"() => ({TOKENS_SHOWN_JS})() === {n}")
    page.wait_for_function(ALL_DRAWN_JS, arg=PLAYGROUND_VIEWS)
    wait_idle(page, quiet_ms=500)


def _median(results: list[dict], field: str) -> float | None:
    values = [r[field] for r in results if r[field] is not None]
    return statistics.median(values) if values else None


def _breakdown(results: list[dict]) -> str:
    """Medians after the click: request sent, the server's first and last message as the page received them (a busy
    page receives them late), the first new pixels of the slowest view, and the last frame in which a view changed."""
    parts = [
        f"request sent {_median(results, 'sent'):.0f}",
        f"first reply {_median(results, 'firstIn'):.0f}",
        f"last reply {_median(results, 'lastIn'):.0f}",
        f"first new pixels {_median(results, 'started'):.0f}",
        f"last view changed {_median(results, 'settled'):.0f}",
    ]
    kib = statistics.median(r["bytesIn"] for r in results) / 1024
    messages = statistics.median(r["messages"] for r in results)
    return "ms after click (medians): " + ", ".join(parts) + f"; {messages:.0f} messages, {kib:.0f} KiB per click"


def _row(measure: str, results: list[dict], field: str, target, met, detail: str) -> dict:
    return {
        "measure": measure,
        "value": _median(results, field),
        "unit": "ms",
        "target": target,
        "met": met,
        "n": len(results),
        "detail": detail,
    }


def _open(browser, url: str, charts: int, label: str, sentence_tokens: int | None = None):
    """A page of its own, drawn and quiet, ready to take clicks on ``label``: (context, page, label)."""
    context, page = new_page(browser)
    open_and_draw(page, url, charts)
    wait_idle(page, quiet_ms=500)
    if sentence_tokens is not None:
        set_sentence(page, sentence_tokens)
    return context, page, label


def _in_turn(opened: dict, samples: int) -> dict[str, list[dict]]:
    """Clicks each opened tab once a round, ``samples`` counted rounds after two warm-up ones, then closes them all."""
    results: dict = {name: [] for name in opened}
    try:
        for round_ in range(samples + 2):
            for name, (_, page, label) in opened.items():
                page.bring_to_front()
                clicked = click_samples(page, label, 1)
                if round_ >= 2:
                    results[name] += clicked
    finally:
        for context, _, _ in opened.values():
            context.close()
    return results


def measure_clicks(browser, urls: dict[str, str], *, sizes=CLICK_SIZES, samples=CLICK_SAMPLES):
    """The one-checkbox floor, the chart floor (the same number and size of heatmaps, nothing else) and the
    Playground's causal toggle at the first screen's size, clicked in turn, one click each a round, so that a slower or faster minute
    of this shared machine falls on the floors and the Playground alike; then each larger size on its own (its target
    is absolute, and its heavy page would slow the others). ``urls``: "app", "floor" and "chart_floor"."""
    results = _in_turn(
        {
            "checkbox": _open(browser, urls["floor"], 0, "Toggle"),
            "chart": _open(browser, urls["chart_floor"], PLAYGROUND_VIEWS, "Toggle"),
            FIRST_SCREEN_TOKENS: _open(
                browser, urls["app"], PLAYGROUND_VIEWS, "Causal mask", sentence_tokens=FIRST_SCREEN_TOKENS
            ),
        },
        samples,
    )
    for n in sizes:
        if n != FIRST_SCREEN_TOKENS:
            results |= _in_turn(
                {n: _open(browser, urls["app"], PLAYGROUND_VIEWS, "Causal mask", sentence_tokens=n)}, samples
            )
    checkbox_floor, chart_floor = results["checkbox"], results["chart"]
    box_ms, chart_ms = _median(checkbox_floor, "shown"), _median(chart_floor, "shown")
    rows = [
        _row(
            "browser click → text shown, one-checkbox floor",
            checkbox_floor,
            "shown",
            None,
            None,
            "bench/floor_app.py; " + _breakdown(checkbox_floor),
        ),
        _row(
            f"browser click → {PLAYGROUND_VIEWS} views shown, chart floor",
            chart_floor,
            "shown",
            None,
            None,
            f"bench/chart_floor_app.py: one checkbox, {PLAYGROUND_VIEWS} ECharts heatmaps of "
            f"{FIRST_SCREEN_TOKENS} × {FIRST_SCREEN_TOKENS}; " + _breakdown(chart_floor),
        ),
    ]
    for n in sizes:
        rows += _playground_rows(n, results[n], box_ms, chart_ms)
    return rows


def _playground_rows(n: int, results: list[dict], box_ms: float, chart_ms: float) -> list[dict]:
    shown, quiet = _median(results, "shown"), _median(results, "settled")
    ratios = f"{shown / chart_ms:.2f} × chart floor, {shown / box_ms:.2f} × checkbox floor; "
    measure = f"browser click → changed views shown, n={n}"
    if n != FIRST_SCREEN_TOKENS:
        target = f"≤ {TARGET_CLICK_LARGEST_MS:.0f}"
        return [_row(measure, results, "shown", target, shown <= TARGET_CLICK_LARGEST_MS, ratios + _breakdown(results))]
    met = shown <= TARGET_CHART_FLOOR_RATIO * chart_ms and shown <= TARGET_CHECKBOX_FLOOR_RATIO * box_ms
    target = f"≤ {TARGET_CHART_FLOOR_RATIO} × chart floor and ≤ {TARGET_CHECKBOX_FLOOR_RATIO:.0f} × checkbox floor"
    return [
        _row(measure, results, "shown", target, met, ratios + _breakdown(results)),
        _row(
            f"browser click → page quiet, n={n}",
            results,
            "settled",
            f"≤ {TARGET_QUIET_MS:.0f}",
            quiet <= TARGET_QUIET_MS,
            "the last frame in which any view changed",
        ),
    ]


def measure_warm_load(browser, app_url: str, *, loads: int = WARM_LOADS) -> list[dict]:
    """A cold first load, then ``loads`` more loads in the same context (cached assets), each to every chart drawn."""
    context, page = new_page(browser)
    try:
        cold_started = time.perf_counter()
        open_and_draw(page, app_url, PLAYGROUND_VIEWS)
        cold_s = time.perf_counter() - cold_started
        times = []
        for _ in range(loads):
            page.goto(app_url)
            page.wait_for_function(ALL_DRAWN_JS, arg=PLAYGROUND_VIEWS, polling="raf")
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
            "detail": f"from navigation start to {PLAYGROUND_VIEWS} charts drawn, same context after a cold load "
            f"(cold: {cold_s:.1f} s incl. Playwright); min {min(times):.2f}, max {max(times):.2f} s",
        }
    ]
