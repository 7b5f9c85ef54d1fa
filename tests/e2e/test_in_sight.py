"""What must stay in sight on a long page, in a real Chromium at 1280×800: the challenge bar, its words
inside its border; a guided page's sizes, above the charts they change."""

from __future__ import annotations

import pytest

from tests.support.live import open_app_page, wait_for_app

BAR = ".st-key-challenge_bar"
BLOCK_EVERY_KEY = 5  # "Make every token's output the zero vector…": its goal and "Solved!" take two lines at 1280


def test_the_bar_holds_its_words_and_stays_in_sight_on_a_long_page(page, server):
    open_app_page(page, f"{server.url}/challenges")
    page.get_by_role("button", name="Try it").nth(BLOCK_EVERY_KEY).click()
    wait_for_app(page)
    page.get_by_role("button", name="Show me").click()
    page.wait_for_function(f"() => document.querySelector('{BAR}')?.innerText.includes('Solved!')", timeout=60_000)
    wait_for_app(page)
    words_below_the_border = page.evaluate(
        f"""() => {{
          const bar = document.querySelector('{BAR}').getBoundingClientRect();
          return [...document.querySelectorAll('{BAR} p')].map(p => p.getBoundingClientRect().bottom - bar.bottom)
            .filter(below => below > 0);
        }}"""
    )
    assert words_below_the_border == []
    scroll_to_the_bottom(page)
    top = page.locator(BAR).bounding_box()["y"]
    assert 0 <= top < page.viewport_size["height"] / 4


def scroll_to_the_bottom(page) -> None:
    page.locator('[data-testid="stMain"]').evaluate("main => main.scrollTo(0, main.scrollHeight)")
    page.wait_for_function(  # at the bottom, with the page at least half a screen taller than the window
        "() => { const m = document.querySelector('[data-testid=stMain]');"
        " return m.scrollTop > m.clientHeight / 2 && m.scrollTop + m.clientHeight >= m.scrollHeight - 1; }"
    )


@pytest.mark.parametrize("name, size", [("why_scale", "d_k"), ("multi_head", "d_model")])
def test_a_guided_pages_sizes_stay_above_the_charts_they_change(page, server, name, size):
    """Why we scale's only slider was ~900 px above its most vivid chart, Multi-head's sizes ~1,500 px above the
    heads."""
    open_app_page(page, f"{server.url}/{name}")
    scroll_to_the_bottom(page)
    slider = page.get_by_role("slider", name=size).first.bounding_box()
    assert 0 <= slider["y"] < page.viewport_size["height"] / 3
