"""Every page, in a real Chromium: loads without a traceback, every chart draws, the title is right, a screenshot."""

from __future__ import annotations

import pytest

from attnviz.pages import PAGES as TABLE
from tests.e2e.conftest import SCREENSHOTS
from tests.support.live import (
    charts_state,
    open_app_page,
    read_plots,
    view_titled,
    wait_for_view_change,
    wait_for_views_to_settle,
)

# url path -> (title in the navigation, the page's own heading), as app.py routes them (the file is pages/<name>.py,
# the Playground's path ""); test_the_page_list_here_is_the_page_table keeps this list honest.
PAGES = {
    "": ("Playground", "Attention playground"),
    "step_by_step": ("Step by step", "Step by step"),
    "geometry": ("Geometry of dot products", "The geometry of dot products"),
    "why_scale": ("Why we scale", "Why we divide by √d_k"),
    "multi_head": ("Multi-head and projections", "Multi-head attention and projections"),
    "watch_it_learn": ("Watch it learn", "Watch attention learn"),
    "real_model": ("Real model", "A real model"),
    "challenges": ("Challenges", "Challenges"),
    "lesson_plans": ("Lesson plans", "Lesson plans"),
}
APP_TITLE = "attnviz"


def test_the_page_list_here_is_the_page_table():
    files = {f"pages/{path or 'playground'}.py": title for path, (title, _) in PAGES.items()}
    assert files == {page.file: page.title for page in TABLE}


@pytest.mark.parametrize("url_path", list(PAGES), ids=[p or "playground" for p in PAGES])
def test_page_loads_draws_and_is_titled(page, url_path):
    title, heading = PAGES[url_path]
    count = open_app_page(page, f"{page.base_url}/{url_path}")

    # No traceback on screen.
    assert page.locator('[data-testid="stException"]').count() == 0, page.locator(
        '[data-testid="stException"]'
    ).first.inner_text()

    # Every chart draws: each Plotly plot has data and drawn content; each ECharts view has a canvas and its data.
    state = charts_state(page)
    assert state == {"count": count, "drawn": count}
    # Every matrix is the one component's (a canvas a view); plotly and ECharts draw lines and bars only.
    echarts_heatmaps = page.locator('[data-testid="stEChartsChart"][aria-label*="heatmap"]').count()
    assert echarts_heatmaps == 0 and not any(t["type"] == "heatmap" for p in read_plots(page) for t in p["traces"])
    for plot in read_plots(page):
        assert plot["traces"], f"a chart on {title!r} has no traces"
        for trace in plot["traces"]:
            values = trace["z"] if trace["type"] == "heatmap" else trace["y"]
            assert values, f"trace {trace['name']!r} of chart {plot['title']!r} on {title!r} is empty"

    # The title: the browser tab names the page and the app, and the page's h1 names the page.
    assert page.title() == f"{title} · {APP_TITLE}"
    # The navigation (sidebar or top bar) marks this page as the current one.
    current = page.locator('[data-testid$="NavLink"][aria-current="page"] span[label]')
    assert current.count() == 1
    assert current.get_attribute("label") == title
    h1 = page.locator('[data-testid="stMain"] h1').first
    assert h1.count() == 1, f"{title!r} has no h1 heading"
    assert h1.inner_text() == heading

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / f"{url_path or 'playground'}.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000


def on_screen(page, locator) -> bool:
    box, size = locator.bounding_box(), page.viewport_size
    return box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and box["x"] + box["width"] <= size["width"]


def test_why_we_scale_has_its_slider_and_both_charts_it_moves_on_one_laptop_screen(page):
    """1280 × 800: the d_k slider and the two charts it moves, seen together without scrolling."""
    open_app_page(page, f"{page.base_url}/why_scale")
    assert on_screen(page, page.get_by_role("slider", name="d_k (number of dimensions of queries and keys)"))
    for chart in ("why_variance", "why_saturation"):
        assert on_screen(page, page.locator(f".st-key-{chart}")), chart


def test_multi_heads_tie_switch_sits_beside_the_scores_it_changes(page):
    open_app_page(page, f"{page.base_url}/multi_head")
    switch = page.locator('[data-testid="stCheckbox"]').filter(has_text="Tie W_K = W_Q")
    switch.scroll_into_view_if_needed()
    scores, tick = page.locator('.attnviz-view[data-view="scores"]').bounding_box(), switch.bounding_box()
    assert scores["x"] > tick["x"] + tick["width"]  # to its right
    assert scores["y"] - 60 <= tick["y"] <= scores["y"] + scores["height"]  # in the same band of the page


@pytest.mark.parametrize("url_path", list(PAGES), ids=[p or "playground" for p in PAGES])
def test_every_page_on_a_phone_draws_and_never_scrolls_sideways(browser, server, url_path):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        phone = context.new_page()
        count = open_app_page(phone, f"{server.url}/{url_path}")
        assert charts_state(phone) == {"count": count, "drawn": count}
        assert phone.locator('[data-testid="stException"]').count() == 0
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


# Marks each view's canvas, so a test can tell a canvas repainted in place from one built anew.
MARK_CANVASES_JS = "() => document.querySelectorAll('.attnviz-view canvas').forEach(c => { c.dataset.kept = 'yes'; })"
KEPT_JS = "title => [...document.querySelectorAll('.attnviz-view')].find(v => v.textContent.startsWith(title)).querySelector('canvas').dataset.kept"


@pytest.mark.parametrize(
    ("path", "stage", "switch", "title"),
    [
        ("step_by_step", "3. Mask", "Causal mask (decoder)", "After: the Playground's mask"),
        ("multi_head", None, "Causal mask (decoder)", "head 1 ("),
    ],
    ids=["step_by_step", "multi_head"],
)
def test_a_toggle_repaints_the_matrices_in_place(page, path, stage, switch, title):
    """The guided pages draw with the Playground's component, so a switch repaints the same canvases (the
    colours glide) instead of building new charts."""
    open_app_page(page, f"{page.base_url}/{path}")
    if stage:
        page.get_by_text(stage, exact=True).click()
        page.locator(".attnviz-view-title").filter(has_text=title).wait_for()
    wait_for_views_to_settle(page)
    before = view_titled(page, title)
    page.evaluate(MARK_CANVASES_JS)
    page.get_by_text(switch, exact=True).first.click()
    after = wait_for_view_change(page, title, before)
    assert after["cells"] != before["cells"]
    assert page.evaluate(KEPT_JS, title) == "yes"  # the same canvas, repainted
