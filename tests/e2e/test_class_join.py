"""A class joins a question as a room does: the teacher presents at 1280×720 and asks; three phones
(390×844, each its own browser) open the short address shown beside the QR code. One types a wrong code first, one
reloads and answers again, one answers on a setup it changed; the teacher's bars count each phone once, and only
answers to the asked setup."""

from __future__ import annotations

import re

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_classroom import bar_says, click_weight
from tests.support.live import open_app_page, view_control, wait_for_app, wait_for_views_to_settle

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1280, "height": 720}
CODE_BOX = ".st-key-class-join"
BARS_JS = "() => Array.from(document.querySelector('.st-key-lesson_bar .js-plotly-plot')?.data?.[0]?.x ?? [])"


def shoot(page, name: str, *, at: str | None = None) -> None:
    """A screenshot, with the element ``at`` (a selector) in the middle of the screen first."""
    if at:
        page.locator(at).first.evaluate("element => element.scrollIntoView({block: 'center'})")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def bars_become(teacher, counts: dict[int, int]) -> list[int]:
    """Waits until the teacher's bars (refreshed every 2 s) show exactly ``counts`` (key → students), the others 0."""
    teacher.wait_for_function(
        f"""() => {{
          const y = ({BARS_JS})(), want = {counts};
          return y.length === 12 && y.every((n, key) => n === (want[key] ?? 0));
        }}""",
        timeout=30_000,
    )
    return teacher.evaluate(BARS_JS)


def phone_says(phone, text: str) -> None:
    main = phone.locator('[data-testid="stMain"]')
    try:
        main.get_by_text(text).first.wait_for(timeout=30_000)
    except PlaywrightTimeout:
        said = [line for line in main.inner_text().splitlines() if "class" in line.lower() or "code" in line.lower()]
        raise AssertionError(f"the page never said {text!r}; it says: {said}") from None
    wait_for_app(phone)


def answer(phone, key: int) -> None:
    """A click on the covered weights' cell (row 4, ``key``), scrolled into view on the phone: the prediction."""
    weights = phone.locator('.attnviz-view[data-view="weights"] canvas')
    weights.evaluate("canvas => canvas.scrollIntoView({block: 'center'})")  # clear of the controls stuck at the top
    wait_for_views_to_settle(phone)
    click_weight(phone, 4, key)
    phone.locator('.attnviz-view[data-view="weights"] .attnviz-cover').wait_for(state="hidden")


def type_code(phone, code: str) -> None:
    box = phone.get_by_role("textbox", name="Class code")
    box.fill(code)
    box.press("Enter")


def ask_the_class(teacher, url: str, *, by_key: bool = False) -> tuple[str, str]:
    """The teacher presents the ready lesson's step 1 and asks the class (with the button, or a clicker's A key):
    (the code, the join address shown)."""
    open_app_page(teacher, f"{url}/")  # the Playground first: its tables import what the tally's chart uses
    open_app_page(teacher, f"{url}/lesson_plans")
    teacher.locator(".st-key-ready-present-0 button").click()  # step 1: which key will “good” attend to most?
    bar_says(teacher, "step 1 of")
    if by_key:
        teacher.locator("body").press("a")
    else:
        teacher.locator(".st-key-lesson-ask button").click()
    bar_says(teacher, "Class code")
    code = re.search(r"Class code\s+([A-Z0-9]{6})", teacher.locator(".st-key-lesson_bar").inner_text())[1]
    return code, teacher.locator(".st-key-lesson_bar [data-testid=stCode]").inner_text().strip()


def test_three_phones_join_by_the_short_address_and_only_answers_to_the_asked_setup_count(browser, server):
    contexts = [browser.new_context(viewport=PROJECTOR)] + [browser.new_context(viewport=PHONE) for _ in range(3)]
    try:
        teacher, wrong_first, reloading, wandering = (context.new_page() for context in contexts)
        code, address = ask_the_class(teacher, server.url)
        assert address == f"{server.url}/?join={code}"  # the app's own address, as the browser reached it
        qr = teacher.locator(".st-key-lesson_bar img.attnviz-qr")
        assert qr.get_attribute("alt") == f"QR code of the join address {address}"
        assert qr.bounding_box()["width"] >= 110  # 110 of 1280 px: 26 cm across a 3 m projection (large: below)
        assert bars_become(teacher, {}) == [0] * 12
        teacher.get_by_role("button", name="QR code large").click()  # for the back of the room
        large = teacher.locator('[role="dialog"] img.attnviz-qr')
        box = large.bounding_box()
        assert box["width"] >= 440 and box["y"] + box["height"] <= PROJECTOR["height"], box  # 1 m across 3 m, whole
        shoot(teacher, "class-teacher-qr-large-1280x720")
        teacher.keyboard.press("Escape")
        large.wait_for(state="detached")
        wait_for_views_to_settle(teacher)
        shoot(teacher, "class-teacher-1280x720")

        open_app_page(wrong_first, address)  # the code alone: the asked setup, asking, the code in the box
        assert wrong_first.get_by_role("textbox", name="Class code").input_value() == code
        phone_says(wrong_first, f"Your predictions count for the class question {code}")
        wrong_first.locator('.attnviz-view[data-view="weights"] .attnviz-cover').wait_for()
        shoot(wrong_first, "class-phone-joined", at=CODE_BOX)
        type_code(wrong_first, "ZZZ234")
        phone_says(wrong_first, "No open question has the code ZZZ234")  # at once, before any answer
        answer(wrong_first, 3)
        phone_says(wrong_first, "Your answer is kept: it is sent once the right code is typed.")
        shoot(wrong_first, "class-phone-wrong-code", at=CODE_BOX)
        type_code(wrong_first, code.lower())  # typed as read
        phone_says(wrong_first, f"Counted for the class question {code}: 3: not.")
        shoot(wrong_first, "class-phone-counted", at=CODE_BOX)
        assert bars_become(teacher, {3: 1})[3] == 1

        open_app_page(reloading, address)
        answer(reloading, 10)
        phone_says(reloading, f"Counted for the class question {code}: 10: amazing.")
        reloading.reload()  # a new session, the same browser
        wait_for_app(reloading)
        answer(reloading, 5)
        phone_says(reloading, f"Counted for the class question {code}: 5: ,.")
        assert bars_become(teacher, {3: 1, 5: 1})  # the reload replaced its answer: one phone, one answer

        open_app_page(wandering, address)
        view_control(wandering, "Causal mask").locator("input").click()  # another setup: another question
        phone_says(wandering, f"This is not the setup the class question {code} asks about")
        answer(wandering, 2)
        wandering.get_by_role("button", name="Back to the class question").click()
        phone_says(wandering, f"Your predictions count for the class question {code}")
        answer(wandering, 10)
        phone_says(wandering, f"Counted for the class question {code}: 10: amazing.")
        assert bars_become(teacher, {3: 1, 5: 1, 10: 1})  # key 2, answered on the other setup, is not counted
        title = teacher.evaluate("() => document.querySelector('.st-key-lesson_bar .js-plotly-plot').layout.title.text")
        assert re.sub(r"<[^>]*>", "", title) == "3 answered", title
        teacher.set_viewport_size({"width": 1280, "height": 800})
        wait_for_views_to_settle(teacher)
        shoot(teacher, "class-teacher-1280x800")
    finally:
        for context in contexts:
            context.close()


def test_an_unknown_code_in_the_short_address_is_said_at_once(page, server):
    page.set_viewport_size(PHONE)
    open_app_page(page, f"{server.url}/?join=ZZZ234")
    phone_says(page, "No open question has the code ZZZ234: check the code on the teacher's screen")

