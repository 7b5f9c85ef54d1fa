"""The Playground under a restless student in a real Chromium: fast clicking must leave a live, consistent session.

Streamlit's client keeps a cache of large messages and the server sends a reference for a message the client said
it holds; with reruns fired faster than they finish, the client could evict a message between saying so and the
reference arriving ("Cached ForwardMsg MISS", streamlit/streamlit#11357), and the connection closed for good.
.streamlit/config.toml turns that cache off (global.minCachedMessageSize); this test is what shows it holds.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlparse

from attnviz.classroom.share import PARAM, decode
from tests.support.live import view_control, wait_for_app

# A click from Python takes a round trip (~100 ms here) and then waits GAP_MS: clicks timed inside the page, 20 ms
# apart, are merged into fewer reruns and never lost the session; these did, in 3 of 6 bursts before the fix.
CLICKS, BURSTS, GAP_MS = 50, 4, 20
CONNECTION_JS = "() => document.querySelector('[data-testid=\"stApp\"]').getAttribute('data-test-connection-state')"

# What each Playground view draws now, by its PNG name: its row labels and its masked cells, read from the table the
# view keeps for screen readers (attnviz/component), which it rewrites with every paint of new data.
VIEWS_DRAWN_JS = """
() => Object.fromEntries([...document.querySelectorAll('.attnviz-view:not([data-editable])')].map(view => [view.dataset.view, {
  rows: [...view.querySelectorAll('.attnviz-sr tbody th')].map(th => th.textContent),
  masked: [...view.querySelectorAll('.attnviz-sr tbody tr')].flatMap((row, i) =>
    [...row.querySelectorAll('td')].flatMap((cell, j) => (cell.dataset.masked === 'true' ? [[i, j]] : []))),
}]))
"""


def views_drawn(page) -> dict[str, dict]:
    return page.evaluate(VIEWS_DRAWN_JS)


def open_playground(page) -> None:
    page.goto(page.base_url)
    wait_for_app(page)
    page.wait_for_function(f"() => Object.keys(({VIEWS_DRAWN_JS})()).length === 4")


def causal_box(page):
    return view_control(page, "Causal mask")


def masked_weight_cells(page) -> set[tuple[int, int]]:
    """The (row, column) cells the weights chart draws grey: masked, weight 0."""
    return {(i, j) for i, j in views_drawn(page)["weights"]["masked"]}


def linked_causal(page) -> bool:
    links = parse_qs(urlparse(page.url).query).get(PARAM, [])
    assert len(links) == 1, page.url
    return decode(links[0]).state.causal


def assert_live_and_agreeing(page) -> bool:
    """The session is connected, and checkbox, weights chart and address all say the same; returns that."""
    assert page.evaluate(CONNECTION_JS) == "CONNECTED"
    assert page.locator('[data-testid="stException"]').count() == 0
    checked = causal_box(page).locator("input").is_checked()
    n = len(views_drawn(page)["weights"]["rows"])
    upper_triangle = {(i, j) for i in range(n) for j in range(i + 1, n)}
    assert masked_weight_cells(page) == (upper_triangle if checked else set())
    assert linked_causal(page) is checked
    return checked


def settle(page) -> None:
    """Waits until the last rerun has finished; fails at once (not after a timeout) if the session died."""
    page.wait_for_function(
        """() => {
          const app = document.querySelector('[data-testid="stApp"]');
          const connection = app.getAttribute('data-test-connection-state');
          return connection !== 'CONNECTED' || app.getAttribute('data-test-script-state') === 'notRunning';
        }"""
    )
    page.wait_for_timeout(500)  # a rerun queued by the last click starts after the previous one reports
    page.wait_for_function("() => document.querySelector('.attnviz-rail')?.dataset.sending !== 'true'")
    assert page.evaluate(CONNECTION_JS) == "CONNECTED", "the session closed during the clicks"
    wait_for_app(page)


def test_fifty_fast_clicks_on_causal_mask_leave_a_live_session_that_agrees(page):
    open_playground(page)
    assert assert_live_and_agreeing(page) is False
    box = causal_box(page).locator("input").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2  # the tick box itself
    for _ in range(BURSTS):
        for _ in range(CLICKS):
            page.mouse.click(x, y)
            page.wait_for_timeout(GAP_MS)
        settle(page)
        checked = assert_live_and_agreeing(page)
        assert checked is (CLICKS % 2 == 1)  # every click counted: an even burst ends where it began

    # Still live: one more click, at a student's pace, is applied everywhere.
    link = parse_qs(urlparse(page.url).query)[PARAM][0]
    page.mouse.click(x, y)
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('{PARAM}') !== {json.dumps(link)}")
    settle(page)
    assert assert_live_and_agreeing(page) is (not checked)


# ----------------------------------------------------------------------------- a quiet server log


def use_the_guided_pages(page) -> None:
    """Step by step and Multi-head, used as a student does, in one session: through the top navigation."""
    nav = page.locator('[data-testid="stTopNavLink"]')
    nav.filter(has_text="Step by step").click()
    wait_for_app(page)
    for _ in range(2):
        page.locator('[data-testid="stButton"]').filter(has_text="Next").locator("button").click()
        wait_for_app(page)
    page.locator('[data-testid="stCheckbox"]').filter(has_text="Start from").locator("label").click()
    wait_for_app(page)
    nav.filter(has_text="Multi-head").click()
    wait_for_app(page)
    for label in ("Causal mask (decoder)", "Tie W_K = W_Q"):
        page.locator('[data-testid="stCheckbox"]').filter(has_text=label).locator("label").click()
        wait_for_app(page)
    nav.filter(has_text="Step by step").click()  # and back: the kept settings are drawn again
    wait_for_app(page)
    nav.filter(has_text="Multi-head").click()
    wait_for_app(page)


def test_the_guided_pages_in_use_leave_the_server_log_quiet(page, server):
    """Every Multi-head and Step-by-step run once logged a "set via the Session State API" warning with a stack."""
    from tests.e2e.conftest import server_log_problems

    open_playground(page)
    use_the_guided_pages(page)
    assert page.locator('[data-testid="stException"]').count() == 0
    assert server_log_problems(server.output()) == []
