"""The Playground on a touch-only phone (Chromium with touch and a mobile viewport, 390 × 844): the words say how to
read a cell by touch, a tap on a cell reads it as a hover does, and only a row's label moves the focus (the
page said "hovering", and a tap on a cell moved the focus row without a word)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import ConsoleLog
from tests.support.live import chosen_focus, open_app_page, wait_for_app, wait_for_views_to_settle

WEIGHTS = '.attnviz-view[data-view="weights"]'


@pytest.fixture
def phone(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    log = ConsoleLog()
    page.on("console", log.on_console)
    page.on("pageerror", log.on_pageerror)
    open_app_page(page, f"{server.url}/")
    wait_for_views_to_settle(page)
    try:
        yield page
    finally:
        context.close()
    assert log.errors == []


def tap_in_weights(page, column: float, row: float) -> None:
    """A tap at (column, row) of the weights view, in cells from its top left (a negative column: the row label)."""
    view = page.locator(f"{WEIGHTS} canvas")
    view.evaluate("canvas => canvas.scrollIntoView({block: 'end'})")  # its last rows clear of the sticky controls
    box = view.bounding_box()
    at = view.evaluate("c => JSON.parse(c.dataset.layout)")
    x = at["left"] / 2 if column < 0 else at["left"] + column * at["cellW"]
    page.touchscreen.tap(box["x"] + x, box["y"] + at["top"] + row * at["cellH"])


def test_the_words_say_how_to_read_a_cell_by_touch(phone):
    caption = phone.locator(".attnviz-instrument:not(:has([data-editable])) .attnviz-caption").inner_text()
    assert "hover" not in caption and "arrow keys" not in caption
    assert "Tap a cell to read it; tap a row's label to make it the focus token." in caption


def test_a_tap_on_a_cell_reads_it_and_leaves_the_focus_where_it_was(phone):
    page = phone
    before = chosen_focus(page)
    assert before == "4: good"
    tap_in_weights(page, 3.5, 10.5)  # row 10 ("amazing"), column 3 ("not")
    tip = page.locator(f"{WEIGHTS} .attnviz-tip")
    tip.wait_for(state="visible")
    assert tip.inner_text().startswith("10: amazing → 3: not: weight ")
    wait_for_app(page)
    assert chosen_focus(page) == before
    tap_in_weights(page, -1, 9.5)  # row 9's label: the focus, as with a mouse
    page.wait_for_function(
        "() => document.querySelector('.attnviz-control[data-field=focus] select').selectedOptions[0].text === '9: was'"
    )


def test_a_cells_words_stay_on_the_screen_wherever_it_is_tapped(phone):
    tip = phone.locator(f"{WEIGHTS} .attnviz-tip")
    for column in (4, 0, 11):  # 4: left of the middle, so its words open to the right with the least room of all
        tap_in_weights(phone, column + 0.5, 10.5)
        phone.wait_for_function(
            f"() => document.querySelector('{WEIGHTS} .attnviz-tip').textContent.includes('→ {column}: ')"
        )
        box = tip.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (column, tip.inner_text(), box)
