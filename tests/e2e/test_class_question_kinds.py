"""Every kind of class question answered from a phone, not only "which key most" (test_class_join.py):
the teacher presents "Why the mask and the scale exist", asks the class step 1 (which keys will the causal mask set
to 0?) and step 3 (switch scaling off: sharper or flatter?); a phone answers each from the short address, on the
covered view's own buttons, and the teacher's bars count it under the answer it chose."""

from __future__ import annotations

import json
import re
from dataclasses import replace

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from attnviz.lessons.playground import OPENING
from attnviz.lessons.predictions import choices
from tests.e2e.test_class_join import BARS_JS, PHONE, PROJECTOR, phone_says
from tests.e2e.test_classroom import bar_says, click_weight
from tests.support.live import open_app_page, wait_for_app, wait_for_views_to_settle

COVER = '.attnviz-view[data-view="weights"] .attnviz-cover'


def ask(teacher) -> tuple[str, str]:
    teacher.locator(".st-key-lesson-ask button").click()
    bar_says(teacher, "Class code")
    code = re.search(r"Class code\s+([A-Z0-9]{6})", teacher.locator(".st-key-lesson_bar").inner_text())[1]
    return code, teacher.locator(".st-key-lesson_bar [data-testid=stCode]").inner_text().strip()


def bars_are(teacher, counts: list[int]) -> None:
    """Waits until the teacher's bars (refreshed every 2 s) are exactly ``counts``, one a possible answer."""
    want = json.dumps(counts, separators=(",", ":"))
    try:
        teacher.wait_for_function(f"() => JSON.stringify(({BARS_JS})()) === '{want}'", timeout=30_000)
    except PlaywrightTimeout:
        raise AssertionError(f"the bars never became {counts}: {teacher.evaluate(BARS_JS)}") from None


def next_step(teacher, label: str, then: str) -> None:
    teacher.locator(".st-key-lesson-next button").filter(has_text=label, visible=True).first.click()
    bar_says(teacher, then)


def test_the_mask_and_the_sharper_questions_are_asked_of_the_class_and_answered_from_a_phone(browser, server):
    contexts = [browser.new_context(viewport=PROJECTOR), browser.new_context(viewport=PHONE)]
    try:
        teacher, phone = (context.new_page() for context in contexts)
        open_app_page(teacher, f"{server.url}/")
        open_app_page(teacher, f"{server.url}/lesson_plans")
        teacher.locator(".st-key-ready-present-1 button").click()  # "Why the mask and the scale exist"
        bar_says(teacher, "step 1 of 5")
        code, address = ask(teacher)
        bars_are(teacher, [0, 0])  # "Exactly the keys the mask sets to 0", "Another set of keys"

        open_app_page(phone, address)
        phone_says(phone, f"Your predictions count for the class question {code}")
        phone.locator(COVER).evaluate("cover => cover.scrollIntoView({block: 'center'})")
        wait_for_views_to_settle(phone)
        asked = replace(OPENING, predict="zeroed")
        for key in (5, 6):  # two of the seven keys after “good”: not the mask's set
            click_weight(phone, 4, key)
            phone.locator(COVER).get_by_role("button", name=choices(asked, tuple(range(5, key + 1)))[0]).wait_for()
            wait_for_app(phone)
        phone.locator(COVER).get_by_role("button", name=choices(asked, (5, 6))[0]).click()
        phone_says(phone, f"Counted for the class question {code}: Another set of keys.")
        bars_are(teacher, [0, 1])

        next_step(teacher, "Answer", "the causal mask sets their weights to 0")
        next_step(teacher, "Next", "step 2 of 5")
        next_step(teacher, "Next", "step 3 of 5")
        sharper_code, sharper_address = ask(teacher)
        assert sharper_code != code
        bars_are(teacher, [0, 0, 0])  # "Sharper", "Flatter", "No change"

        open_app_page(phone, sharper_address)
        phone_says(phone, f"Your predictions count for the class question {sharper_code}")
        phone.locator(COVER).evaluate("cover => cover.scrollIntoView({block: 'center'})")
        phone.locator(COVER).get_by_role("button", name="Sharper").click()
        phone_says(phone, f"Counted for the class question {sharper_code}: Sharper.")
        bars_are(teacher, [1, 0, 0])
    finally:
        for context in contexts:
            context.close()
