"""Open a model on the Real model page in a real Chromium, on a laptop and on a phone: a tiny GPT-2 and a tiny Llama
(tests/fixtures/tiny_models) typed in by their folders are drawn with every head; the screenshots are written to
artifacts/screenshots/real-model-<family>-<width>x<height>.png to be looked at."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SCREENSHOTS, ConsoleLog
from tests.models.test_open import TINY
from tests.support.live import wait_for_app, wait_for_charts, wait_for_views_to_settle


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)], ids=["laptop", "phone"])
@pytest.mark.parametrize(("family", "design"), [("gpt2", "GPT-2"), ("llama", "Llama")])
def test_an_opened_model_is_drawn(browser, server, family, design, viewport):
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    log = ConsoleLog()
    page.on("console", log.on_console)
    page.on("pageerror", log.on_pageerror)
    try:
        page.goto(f"{server.url}/real_model")
        wait_for_app(page, timeout_ms=120_000)
        box = page.get_by_role("textbox", name="Open a model")
        box.fill(str(TINY / family))
        box.press("Enter")
        caption = f"{family} is a decoder ({design} design)"
        page.wait_for_function(f"() => document.body.innerText.includes({caption!r})", timeout=60_000)
        wait_for_app(page)
        wait_for_charts(page)
        views = wait_for_views_to_settle(page)
        assert "Layer 1, head 1: weights" in views  # the chosen head's map; the overview holds all 8 heads
        assert page.locator('[data-testid="stException"]').count() == 0
        chosen = page.locator('[data-testid="stSelectbox"]').first.locator("input").input_value()
        assert chosen == family  # the Model selector names the opened model by its folder's name
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"real-model-{family}-{width}x{height}.png"))
        assert log.errors == []
    finally:
        context.close()
