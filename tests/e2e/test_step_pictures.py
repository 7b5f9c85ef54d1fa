"""Step by step's pictures in a real Chromium: every picture of a stage draws its numbers where they fit, the first
(which also holds the row labels the pictures share) as the others do (stage 3's "Before" drew none)."""

from __future__ import annotations

import pytest

from tests.support.live import open_app_page, wait_for_app, wait_for_views_to_settle


@pytest.mark.parametrize("stage, pictures", [("1. Scores", 3), ("2. Scale", 2), ("3. Mask", 3), ("4. Softmax", 2)])
def test_every_picture_of_a_stage_draws_its_numbers(page, server, stage, pictures):
    open_app_page(page, f"{server.url}/step_by_step")
    page.get_by_text(stage, exact=True).click()
    wait_for_app(page)
    page.wait_for_function("(n) => document.querySelectorAll('.attnviz-view').length === n", arg=pictures)
    wait_for_views_to_settle(page)
    drawn = page.evaluate(
        """() => [...document.querySelectorAll('.attnviz-view')].map(v =>
             [v.querySelector('.attnviz-view-title').textContent, Number(v.querySelector('canvas').dataset.digitPx)])"""
    )
    assert [title for title, digits in drawn if not digits] == []  # a picture whose cells hold no number
    first = page.evaluate("() => JSON.parse(document.querySelector('.attnviz-view canvas').dataset.layout).cellW")
    others = page.evaluate(
        "() => [...document.querySelectorAll('.attnviz-view canvas')].slice(1).map(c => JSON.parse(c.dataset.layout).cellW)"
    )
    assert first >= min(others) - 1  # its labels take their own width, not its cells'
