"""The views name every row where there is room to read the names (at 14 tokens they named every other)."""

from __future__ import annotations

from tests.support.live import open_app_page, wait_for_app, wait_for_views_to_settle

FOURTEEN = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"


def test_at_14_tokens_on_a_laptop_every_row_of_every_view_has_its_label(page, server):
    open_app_page(page, f"{server.url}/")
    box = page.get_by_label("Sentence", exact=True).and_(page.locator("input"))
    box.fill(FOURTEEN)
    box.press("Enter")
    wait_for_app(page)
    page.wait_for_function("() => document.querySelector('.attnviz-chips').innerText.includes('fourteen')")
    wait_for_views_to_settle(page)
    drawn = page.evaluate(
        "() => [...document.querySelectorAll('.attnviz-view:not([data-editable]) canvas')].map(c => JSON.parse(c.dataset.rowLabels))"
    )
    rows = [f"{i}: {word}" for i, word in enumerate(FOURTEEN.split())]
    assert drawn == [rows] * 4
    cell = page.evaluate("() => JSON.parse(document.querySelector('.attnviz-view canvas').dataset.layout).cellH")
    assert cell < 16  # a tight row, where the old rule (a label's size × 1.15 a row) named every other one
