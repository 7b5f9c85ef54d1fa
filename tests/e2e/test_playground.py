"""The Playground in a real Chromium: what the page draws follows every control."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.live import StreamlitServer, open_app_page, read_plots, wait_for_app, wait_for_charts

SCORES, WEIGHTS = "1. Raw scores", "3. Attention weights"


def plot(page, title: str) -> dict:
    plots = read_plots(page)
    found = [p for p in plots if title in p["title"]]
    assert len(found) == 1, [p["title"] for p in plots]
    return found[0]


def z(page, title: str) -> list[list[float]]:
    return plot(page, title)["traces"][0]["z"]


def wait_for_change(page, title: str, before) -> None:
    """Waits until the chart titled ``title`` draws data different from ``before``."""
    page.wait_for_function(
        """([title, before]) => {
          const p = [...document.querySelectorAll('.js-plotly-plot')]
            .find(p => ((p._fullLayout || {}).title || {}).text && p._fullLayout.title.text.includes(title));
          if (!p || !p._fullData) return false;
          const now = JSON.stringify(Array.from(p._fullData[0].z, row => Array.from(row)));
          return now !== before;
        }""",
        arg=[title, json.dumps(before, separators=(",", ":"))],
    )
    wait_for_app(page)


@pytest.fixture
def playground(page, server):
    open_app_page(page, server.url)
    return page


def set_sentence(page, text: str) -> None:
    box = page.get_by_label("Sentence", exact=True).and_(page.locator("input"))
    box.fill(text)
    box.press("Enter")
    wait_for_app(page)
    wait_for_charts(page)


def test_causal_toggle_redraws_the_weights_with_a_zero_upper_triangle(playground):
    page = playground
    before = z(page, WEIGHTS)
    assert any(before[i][j] > 0 for i in range(12) for j in range(i + 1, 12))
    page.locator('[data-testid="stCheckbox"]').filter(has_text="Causal mask").click()
    wait_for_change(page, WEIGHTS, before)
    after = z(page, WEIGHTS)
    assert all(after[i][j] == 0 for i in range(12) for j in range(i + 1, 12))
    assert all(abs(sum(row) - 1) < 1e-12 for row in after)
    assert after[0] == [1] + [0] * 11


def test_editing_a_query_cell_in_the_table_changes_that_scores_row(playground):
    page = playground
    before = z(page, SCORES)
    editor = page.locator('[data-testid="stDataFrame"]').first  # the Q table
    editor.scroll_into_view_if_needed()
    box = editor.bounding_box()
    page.mouse.click(box["x"] + 30, box["y"] + 35 + 3 * 35 + 17)  # the label cell of row 3 ("3: not")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # column q2
    page.keyboard.press("Enter")
    overlay = page.locator("#portal input, .gdg-input").first
    overlay.fill("5")  # fill, not typing key by key, which drops the "."
    page.keyboard.press("Enter")
    wait_for_change(page, SCORES, before)
    after = z(page, SCORES)
    changed = [i for i in range(12) if after[i] != before[i]]
    assert changed == [3]


def test_a_new_sentence_relabels_the_axes(playground):
    page = playground
    set_sentence(page, "Attention is all you need")
    page.wait_for_function("() => document.body.innerText.includes('4: need')")
    weights = plot(page, WEIGHTS)
    assert weights["traces"][0]["x"] == ["0: Attention", "1: is", "2: all", "3: you", "4: need"]
    assert weights["traces"][0]["y"] == weights["traces"][0]["x"]
    assert len(weights["traces"][0]["z"]) == 5


def test_html_in_the_sentence_is_text_and_runs_nothing(playground):
    page = playground
    set_sentence(page, '<script>alert(1); window.__ran = 1</script><img src=x onerror="alert(2); window.__ran = 2"> hi')
    page.wait_for_function("() => document.querySelector('.attnviz-chips').innerText.includes('onerror')")
    chips = page.locator(".attnviz-chips").inner_text()
    assert "script" in chips and "<" in chips and "img" in chips
    assert page.locator(".attnviz-chips script, .attnviz-chips img").count() == 0
    assert page.evaluate("() => window.__ran === undefined")
    assert page.dialogs == []
    assert page.locator('[data-testid="stException"]').count() == 0


def test_a_fresh_servers_first_visit_to_a_sub_page_goes_through_the_router(browser):
    """Streamlit treats a pages/ folder as a legacy multipage app until app.py has run once; attnviz.ui undoes it."""
    with StreamlitServer("app.py") as fresh:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        try:
            page = context.new_page()
            open_app_page(page, f"{fresh.url}/why_scale")
            current = page.locator('[data-testid$="NavLink"][aria-current="page"] span[label]')
            assert current.get_attribute("label") == "Why we scale"
            assert page.locator('[data-testid="stSidebarNav"]').count() == 0  # the legacy sidebar menu never shows
            assert page.get_by_text("Presenter mode").count() == 1  # app.py ran: its switch is there
        finally:
            context.close()


def test_a_chart_downloads_as_a_png_named_after_it(playground):
    page = playground
    chart = page.locator('[data-testid="stPlotlyChart"]').filter(has_text="3. Attention weights")
    chart.scroll_into_view_if_needed()
    chart.hover()
    with page.expect_download() as download:
        chart.locator('.modebar-btn[data-title="Download plot as a PNG"]').click()
    assert download.value.suggested_filename == "attnviz-weights.png"
    assert Path(download.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
