"""Real-browser fixtures: one Streamlit server and one Chromium for the whole session, a fresh page per test.

Browser: Debian's /usr/bin/chromium when it exists, else Playwright's own. With neither, the e2e tests are skipped,
unless ATTNVIZ_REQUIRE_BROWSER=1 (set by .ci/run), where they fail.
"""

from __future__ import annotations

import os
import re
import subprocess
import warnings
from pathlib import Path

import pytest

from attnviz.models.registry import SERVED_FOLDERS
from tests.support.live import REPO, ServerError, StreamlitServer, find_browser, launch_chromium

SCREENSHOTS = REPO / "artifacts" / "screenshots"
VIEWPORT = {"width": 1280, "height": 800}

# Streamlit-internal noise, filtered on purpose. When a page is opened at a sub-path (/geometry), the frontend first
# probes <sub-path>/_stcore/health and <sub-path>/_stcore/host-config to detect a base URL, gets 404 and falls back to
# the root. Chromium logs each 404 as a console error. Only these two URLs, only 404, are ignored.
_BASE_PATH_PROBE = re.compile(r"^http://127\.0\.0\.1:\d+/[\w-]+/_stcore/(health|host-config)$")
_RESOURCE_404 = "Failed to load resource: the server responded with a status of 404 (Not Found)"
# A ":material/…:" page_icon makes Streamlit's frontend load the favicon SVG from Google's font CDN. This machine (and
# CI) has no route there, so the favicon fetch fails; the app itself is unaffected. Ignored, but reported as a warning
# so it stays visible (an emoji page_icon would need no network at all).
_MATERIAL_FAVICON = re.compile(
    r"^https://fonts\.gstatic\.com/s/i/short-term/release/materialsymbols\w+/\w+/default/\d+px\.svg$"
)


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)


def _no_browser(reason: str):
    if os.environ.get("ATTNVIZ_REQUIRE_BROWSER") == "1":
        pytest.fail(f"ATTNVIZ_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(f"e2e skipped: {reason}")


@pytest.fixture(scope="session")
def browser_executable():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _no_browser("the playwright package is not installed (pip install -r requirements-dev.txt)")
    try:
        executable, _ = find_browser()
    except FileNotFoundError as error:
        _no_browser(str(error))
    return executable


def quiet_server(env: dict | None = None):
    """``streamlit run app.py`` on a free port (with ``env`` added), yielded; stopped whatever happens, and the test
    fails if its log is not quiet."""
    live = StreamlitServer("app.py", env=env)
    try:
        live.start()
    except ServerError as error:
        live.stop()
        pytest.fail(str(error), pytrace=False)
    try:
        yield live
    finally:
        live.stop()
    if problems := server_log_problems(live.output()):
        pytest.fail("the server log of this e2e run is not quiet:\n" + "\n".join(problems), pytrace=False)


@pytest.fixture(scope="session")
def server(browser_executable):
    """The e2e session's one server; its visitors may open the tiny model folders (tests/fixtures/tiny_models)."""
    yield from quiet_server({SERVED_FOLDERS: str(REPO / "tests" / "fixtures" / "tiny_models")})


# In normal use the server log holds its start-up lines and nothing else: no traceback, no stack printed with a
# warning (Streamlit prints one with each "set via the Session State API" warning), no such warning at all.
_LOG_PROBLEM = re.compile(r'Traceback \(most recent call last\)|^\s*File ".*", line \d+|Session State API')


def server_log_problems(log: str) -> list[str]:
    """The lines of a server log that show a traceback, a stack or a Session State warning, each with its line."""
    lines = log.splitlines()
    return [f"line {number}: {line}" for number, line in enumerate(lines, 1) if _LOG_PROBLEM.search(line)]


@pytest.fixture(scope="session")
def browser(browser_executable):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright, browser_executable)
        try:
            yield chromium
        finally:
            chromium.close()


class ConsoleLog:
    """Console errors and uncaught page errors seen by one page, less the explicit noise above."""

    def __init__(self):
        self.errors: list[str] = []
        self.ignored: list[str] = []

    def on_console(self, message):
        if message.type != "error":
            return
        url = (message.location or {}).get("url", "")
        if message.text == _RESOURCE_404 and _BASE_PATH_PROBE.match(url):
            self.ignored.append(f"{message.text} {url}")
            return
        if message.text.startswith("Failed to load resource: net::") and _MATERIAL_FAVICON.match(url):
            self.ignored.append(f"{message.text} {url}")
            warnings.warn(f"favicon not loaded (no network to the font CDN): {url}", UserWarning, stacklevel=1)
            return
        self.errors.append(f"console.error: {message.text} ({url})")

    def on_pageerror(self, error):
        self.errors.append(f"uncaught page error: {error}")


@pytest.fixture
def page(browser, server, request):
    """A fresh 1280×800 page (own context, so its own Streamlit session). Console errors fail the test."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(30_000)
    log = ConsoleLog()
    page.on("console", log.on_console)
    page.on("pageerror", log.on_pageerror)
    page.console_log = log
    page.dialogs = []  # any alert/confirm/prompt is recorded and dismissed
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    page.base_url = server.url
    try:
        yield page
    finally:
        context.close()
    if log.errors:
        pytest.fail(f"{request.node.name}: browser console errors:\n" + "\n".join(log.errors), pytrace=False)


def _pin_to_one_core(pid: int, core: int) -> None:
    """Every thread of ``pid`` (and so each thread it starts later) runs on ``core`` only."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), {core})


@pytest.fixture(scope="module")
def busy_server():
    """The app on one core that a ``yes`` keeps busy: a school's small server while something else runs on it."""
    core = min(os.sched_getaffinity(0))
    hog = subprocess.Popen(["yes"], stdout=subprocess.DEVNULL, preexec_fn=lambda: os.sched_setaffinity(0, {core}))
    try:
        for server in quiet_server():
            _pin_to_one_core(server.pid, core)
            yield server
    finally:
        hog.kill()
        hog.wait()
