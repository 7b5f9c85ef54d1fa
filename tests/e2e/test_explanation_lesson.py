"""The ready lesson "Is attention an explanation?" presented at 1280×720 with the keyboard only. On each of
its eight stops (three steps ask first) presenter mode is on, the bar says the step's question or note, and the view
the words talk about is on screen, though the Real model page is many screens long."""

from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from attnviz.classroom.lesson_plan import READY
from tests.e2e.test_accessibility import tab_to
from tests.models.conftest import require_package
from tests.support.live import open_app_page, wait_for_app

LESSON = "Is attention an explanation?"
# (selector, the text it starts with or ""): a view or a sentence on the Real model page.
HEAD_MAP, CHECK_MAP = ('.attnviz-view[data-view="head"]', ""), ('.attnviz-view[data-view="explain"]', "")
CHANGE = ('[data-testid="stMarkdown"]', "Without")  # what taking the token away did
SINKS = ('[data-testid="stMarkdown"]', "The sinks' share")
# Waits until the first element ``selector`` starting with ``text`` lies between the page's top bar and ``bottom``.
ON_SCREEN_JS = """([selector, text, bottom]) => {
  const found = [...document.querySelectorAll(selector)].find((e) => e.textContent.trim().startsWith(text));
  const bar = document.querySelector('[data-testid="stHeader"]').getBoundingClientRect().bottom;
  const box = found?.getBoundingClientRect();
  return box && box.height > 0 && box.top >= bar - 1 && box.bottom <= bottom;
}"""
BOXES_JS = """([selector, text]) => [...document.querySelectorAll(selector)]
  .filter((e) => e.textContent.trim().startsWith(text)).map((e) => e.getBoundingClientRect().toJSON())"""
# (step, answered): what its question or note talks about, on the page.
SHOWN = {
    (1, False): [HEAD_MAP], (1, True): [CHANGE],  # the head's largest weight; the next word without its token
    (2, False): [HEAD_MAP], (2, True): [CHANGE],
    (3, False): [CHECK_MAP], (3, True): [CHECK_MAP, SINKS],  # what the sinks hand on, value-weighted
    (4, True): [CHECK_MAP, SINKS],  # rolled out
}  # fmt: skip


def test_the_explanation_lesson_walks_by_keyboard_with_each_view_on_screen(page, server):
    require_package("SmolLM2-135M")
    require_package("all-MiniLM-L6-v2")
    plan = READY[LESSON]
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app_page(page, f"{server.url}/lesson_plans")
    present = f".st-key-ready-present-{list(READY).index(LESSON)} button"
    page.locator(present).wait_for()
    tab_to(page, present)
    page.keyboard.press("Enter")
    bar = page.locator(".st-key-lesson_bar")
    walked = []
    for (step, answered), views in SHOWN.items():
        if walked:
            page.keyboard.press("ArrowRight")  # Answer, or the next step
        walked.append((step, answered))
        said = plan.steps[step - 1].note if answered else plan.steps[step - 1].question
        bar.filter(has_text=f"step {step} of {len(plan.steps)}").filter(has_text=said).wait_for(timeout=120_000)
        wait_for_app(page, timeout_ms=180_000)
        page.wait_for_function("() => location.pathname.endsWith('/real_model')")
        assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == "20px"  # presenting
        assert bar.is_visible()
        for selector, text in views:  # brought on screen once the step's page is drawn
            try:
                page.wait_for_function(ON_SCREEN_JS, arg=[selector, text, 720], timeout=180_000)
            except PlaywrightTimeout:
                boxes = page.evaluate(BOXES_JS, [selector, text])
                raise AssertionError(
                    f"step {step} (answered: {answered}): {selector} {text!r} not on screen: {boxes}"
                ) from None
    assert walked[-1] == (len(plan.steps), True)
