"""Memory benchmark: the Streamlit server's RSS after 1 and after 20 browser sessions have opened the Playground.

A fresh server (not the one the other browser benchmarks used), so nothing else has grown it. Each session is its own
browser context (own cookies, own websocket, so its own Streamlit session) that waits until every chart has drawn. The
contexts stay open until the last reading, so all 20 sessions are alive on the server when it is taken.
"""

from __future__ import annotations

from bench.browser import new_page, open_and_draw, wait_idle
from bench.harness.chromium import find_browser, launch_chromium
from bench.harness.server import REPO, StreamlitServer
from bench.product import PLAYGROUND_VIEWS

SESSIONS = 20
TARGET_MB = 400.0


def measure(browser, server: StreamlitServer, sessions: int = SESSIONS) -> list[dict]:
    baseline = server.rss_mb()
    readings = []
    contexts = []
    try:
        for _ in range(sessions):
            context, page = new_page(browser)
            contexts.append(context)
            open_and_draw(page, server.url, PLAYGROUND_VIEWS)
            wait_idle(page)
            readings.append(server.rss_mb())
    finally:
        for context in contexts:
            context.close()
    first, last = readings[0], readings[-1]
    per_session = (last - first) / (sessions - 1)
    kept = "all sessions kept open (one browser context each) until this reading"
    return [
        {
            "measure": "server RSS after 1 session",
            "value": first,
            "unit": "MB",
            "target": None,
            "met": None,
            "n": 1,
            "detail": f"fresh server: {baseline:.0f} MB before any session; the first session's imports "
            f"(plotly, pandas, the app) add {first - baseline:.0f} MB",
        },
        {
            "measure": f"server RSS after {sessions} sessions",
            "value": last,
            "unit": "MB",
            "target": f"≤ {TARGET_MB:.0f}",
            "met": last <= TARGET_MB,
            "n": sessions,
            "detail": f"{kept}; peak {max(readings):.0f} MB",
        },
        {
            "measure": "server RSS increase per session",
            "value": per_session,
            "unit": "MB/session",
            "target": None,
            "met": None,
            "n": sessions - 1,
            "detail": f"(after {sessions} − after 1) / {sessions - 1}",
        },
    ]


def run(sessions: int = SESSIONS) -> list[dict]:
    from playwright.sync_api import sync_playwright

    executable, _ = find_browser()
    with StreamlitServer(REPO / "app.py") as server, sync_playwright() as playwright:
        browser = launch_chromium(playwright, executable)
        try:
            return measure(browser, server, sessions)
        finally:
            browser.close()
