"""The app on a 390×844 phone: what stays at the top leaves most of the screen to the page, a chart's
toolbar covers neither its title nor its labels, a student who joins sees the class code's box at once, the Real model
page ends with its last view, and the keyboard reaches the first view in 15 Tabs, as at 1280.

The bars' budget is 30 % of the screen's height, Streamlit's own header included (253 of 844 px): below them a whole
Playground view (330 px and its title) is in sight while the page scrolls, with room to spare."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_class_join import PHONE, PROJECTOR, ask_the_class
from tests.e2e.test_in_sight import scroll_to_the_bottom
from tests.e2e.test_keyboard_walk import tab_to_the_first_view
from tests.support.live import open_app_page, wait_for_app

TOP_SHARE = 0.30
# The lowest edge, in the window, of anything that stays at the top (sticky or fixed) while the page scrolls.
STUCK_BOTTOM_JS = """() => Math.max(0, ...[...document.querySelectorAll('[data-testid="stApp"] *')].filter((e) => {
  const style = getComputedStyle(e);
  return ['sticky', 'fixed'].includes(style.position) && style.display !== 'none' && e.getBoundingClientRect().height > 1;
}).map((e) => Math.round(e.getBoundingClientRect().bottom)).filter((bottom) => bottom < innerHeight))"""


@pytest.fixture
def phone(browser, server):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        yield page
    finally:
        context.close()


def scrolled_by(page, px: int) -> None:
    page.locator('[data-testid="stMain"]').evaluate(f"main => main.scrollTo(0, {px})")
    page.wait_for_function(f"() => document.querySelector('[data-testid=stMain]').scrollTop >= {px}")


@pytest.mark.parametrize("screen", ["playground", "lesson", "challenge", "multi_head", "why_scale"])
def test_what_stays_at_the_top_leaves_most_of_a_phones_screen(phone, server, screen):
    if screen == "lesson":
        open_app_page(phone, f"{server.url}/lesson_plans")
        phone.locator(".st-key-ready-present-0 button").click()
        phone.locator(".st-key-lesson_bar").filter(has_text="step 1 of").wait_for()
    elif screen == "challenge":
        open_app_page(phone, f"{server.url}/challenges")
        phone.get_by_role("button", name="Try it").first.click()
        phone.locator(".st-key-challenge_bar").wait_for()
    else:
        open_app_page(phone, f"{server.url}/{'' if screen == 'playground' else screen}")
    wait_for_app(phone)
    scrolled_by(phone, 1500)
    assert phone.evaluate(STUCK_BOTTOM_JS) <= TOP_SHARE * PHONE["height"]


def boxes(page, selector: str) -> list[dict]:
    return page.locator(selector).evaluate_all(
        "found => found.map((e) => { const r = e.getBoundingClientRect();"
        " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; })"
    )


def overlap(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def test_a_charts_toolbar_covers_neither_its_title_nor_its_labels_on_a_phone(phone, server):
    open_app_page(phone, f"{server.url}/geometry")
    chart = phone.locator(".st-key-geometry_arrows")
    chart.evaluate("chart => chart.scrollIntoView({block: 'center'})")
    chart.locator(".main-svg").first.hover()
    phone.locator(".st-key-geometry_arrows .modebar").wait_for(state="visible")
    (toolbar,) = boxes(phone, ".st-key-geometry_arrows .modebar")
    words = boxes(phone, ".st-key-geometry_arrows :is(.gtitle, .annotation)")
    assert len(words) >= 5  # the title, the query's label and each key's
    assert [box for box in words if overlap(box, toolbar)] == []


def test_a_student_who_joins_sees_the_class_codes_box_on_the_first_screen(browser, server):
    contexts = [browser.new_context(viewport=PROJECTOR), browser.new_context(viewport=PHONE)]
    try:
        teacher, student = (context.new_page() for context in contexts)
        _, address = ask_the_class(teacher, server.url)
        open_app_page(student, address)
        wait_for_app(student)
        (box,) = boxes(student, ".st-key-class-join")
        assert box["top"] >= 0 and box["bottom"] <= PHONE["height"]
    finally:
        for context in contexts:
            context.close()


def test_the_real_model_page_ends_with_its_last_view_on_a_phone(phone, server):
    open_app_page(phone, f"{server.url}/real_model")
    wait_for_app(phone)
    scroll_to_the_bottom(phone)
    blank = phone.evaluate(
        """() => { const main = document.querySelector('[data-testid="stMain"]');
          const last = Math.max(...[...main.querySelectorAll('.stElementContainer')]
            .filter((e) => e.getBoundingClientRect().height > 0).map((e) => e.getBoundingClientRect().bottom));
          return Math.round(main.getBoundingClientRect().bottom - last); }"""
    )
    assert blank < PHONE["height"] / 4  # the page's own bottom padding, not screens of nothing


def test_the_first_view_is_within_15_tabs_on_a_phone(phone, server):
    open_app_page(phone, server.url)
    tab_to_the_first_view(phone)  # 14 here (12 at 1280: the navigation shows two more pages)


def in_sight(page, words: str) -> dict:
    """Where the message ``words`` is drawn in the window, and whether the window holds all of it."""
    box = page.get_by_text(words).first.bounding_box()
    return box | {"in_sight": box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]}


def test_a_confirmation_is_drawn_where_the_student_scrolled_to(phone, server):
    """Randomise's and Undo's confirmations were drawn at the top of the page, out of sight of a phone scrolled down
    to the Q, K and V tab or to the views."""
    open_app_page(phone, f"{server.url}/")
    wait_for_app(phone)
    randomise = phone.get_by_role("button", name="Randomise")
    randomise.scroll_into_view_if_needed()
    randomise.click()
    phone.get_by_text("New random vectors from seed").wait_for()
    wait_for_app(phone)
    assert phone.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTop") > PHONE["height"]
    assert in_sight(phone, "New random vectors from seed")["in_sight"]
    phone.locator('.attnviz-view[data-view="weights"] canvas').scroll_into_view_if_needed()  # the rail stays on top
    phone.get_by_role("button", name="Undo").click()
    phone.get_by_text("Undone:").wait_for()
    wait_for_app(phone)
    assert phone.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTop") > PHONE["height"] / 2
    assert in_sight(phone, "Undone:")["in_sight"]
    phone.screenshot(path=str(SCREENSHOTS / "phone-undo-confirmed-390x844.png"))
