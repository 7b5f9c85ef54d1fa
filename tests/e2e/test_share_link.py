"""A share link, opened in a fresh browser, reproduces the same matrices to the last digit."""

from __future__ import annotations

import json

from attnviz.classroom.share import decode
from tests.support.live import (
    open_app_page,
    view_control,
    view_titled,
    wait_for_app,
    wait_for_charts,
    wait_for_views_to_settle,
)

WEIGHTS = "3. Weights"


def weights_shown(page) -> dict:
    return wait_for_views_to_settle(page) and view_titled(page, WEIGHTS)["cells"]


LINK_JS = "() => new URLSearchParams(window.location.search).get('s')"


def shared_view(page):
    link = page.evaluate(LINK_JS)
    return decode(link) if link else None


def test_a_copied_link_opens_the_same_setup_in_a_new_browser(page, browser, server):
    open_app_page(page, server.url)
    page.locator('[data-testid="stSelectbox"]').filter(has_text="Example").click()
    page.get_by_role("option", name="What does “it” refer to?").click()
    page.wait_for_function(f"() => ({LINK_JS})() && ({LINK_JS})().length > 0")
    wait_for_app(page)
    page.wait_for_function("() => document.querySelector('.attnviz-chips').innerText.includes('animal')")
    link_before = page.evaluate(LINK_JS)
    view_control(page, "Causal mask").click()
    page.wait_for_function(f"() => ({LINK_JS})() !== {json.dumps(link_before)}")
    wait_for_app(page)
    wait_for_charts(page)
    # The address bar holds the link: it names the example and the causal mask.
    shared = shared_view(page)
    assert shared.state.example == "pronoun_it" and shared.state.causal is True and shared.page == "playground"
    original = weights_shown(page)
    assert float(original[(0, 0)]) == 1.0 and (0, 1) not in original  # causal: the first token sees only itself

    fresh = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        other = fresh.new_page()
        open_app_page(other, page.url)
        assert weights_shown(other) == original  # the same cells
        assert view_control(other, "Causal mask").locator("input").is_checked()
        assert other.locator('[data-testid="stException"]').count() == 0
    finally:
        fresh.close()


def test_a_damaged_link_shows_a_message_and_the_defaults(page, server):
    open_app_page(page, f"{server.url}/?s=1.this-is-not-a-real-link")
    message = page.locator('[data-testid="stAlert"]').first.inner_text()
    assert "damaged or incomplete" in message and "default settings are shown instead" in message
    assert page.locator('[data-testid="stException"]').count() == 0
    assert len(weights_shown(page)) == 144  # the default sentence's 12 × 12 cells
