"""A whole class answers at once: the teacher asks; 16 phones (390×844, touch) open the QR code's address together on a
server whose one core is shared with a busy process, and each taps once. Every first tap counts: the teacher's bars
show exactly 16, and each phone says "Counted" beside the view it tapped, on the screen the student is looking at."""

from __future__ import annotations

import json
import re

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_class_join import BARS_JS, PHONE, PROJECTOR, ask_the_class
from tests.support.live import wait_for_app

PHONES = 16
ASKED_ROW = 4  # the ready lesson's step 1 asks about "good" (row 4)


def tap_key(phone, key: int) -> dict:
    """A finger on the covered weights' cell (row 4, ``key``), with the view scrolled into sight first; returns the
    view's box on the screen at the tap."""
    canvas = phone.locator('.attnviz-view[data-view="weights"] canvas')
    canvas.evaluate("canvas => canvas.scrollIntoView({block: 'center'})")
    # The grid is drawn once the cells' layout is known: the tap needs it to find the cell.
    phone.wait_for_function(
        "() => document.querySelector('.attnviz-view[data-view=\"weights\"] canvas')?.dataset.layout", timeout=180_000
    )
    at = canvas.evaluate("canvas => JSON.parse(canvas.dataset.layout)")
    box = canvas.bounding_box()
    phone.touchscreen.tap(
        box["x"] + at["left"] + (key + 0.5) * at["cellW"], box["y"] + at["top"] + (ASKED_ROW + 0.5) * at["cellH"]
    )
    return box


def said_beside_the_view(phone, text: str) -> dict:
    """Waits until ``text`` is shown next to the tapped view, on the screen as it is (no scrolling); returns its box."""
    handle = phone.wait_for_function(
        """(text) => {
          const line = [...document.querySelectorAll('.attnviz-view[data-view="weights"] .attnviz-view-line')]
            .find((element) => !element.hidden && element.textContent.includes(text));
          if (!line) return null;
          const box = line.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0 ? box.toJSON() : null;
        }""",
        arg=text,
        timeout=180_000,
    )
    return handle.json_value()


def test_sixteen_phones_joining_by_the_qr_address_on_a_busy_server_each_count_their_first_tap(browser, busy_server):
    teacher_context = browser.new_context(viewport=PROJECTOR)
    phones = [browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True) for _ in range(PHONES)]
    try:
        teacher = teacher_context.new_page()
        code, address = ask_the_class(teacher, busy_server.url)
        pages = [context.new_page() for context in phones]
        for phone in pages:  # the room scans the code together: every page loads at once
            phone.goto(address, wait_until="commit", timeout=180_000)
        for phone in pages:
            wait_for_app(phone, timeout_ms=240_000)
            assert phone.get_by_role("textbox", name="Class code").input_value() == code
        taps = [tap_key(phone, number % 12) for number, phone in enumerate(pages)]  # 16 taps, none waiting for another
        for number, (phone, view) in enumerate(zip(pages, taps, strict=True)):
            line = said_beside_the_view(phone, f"Counted for the class question {code}")
            assert line["top"] >= view["y"] - 5 and line["top"] - (view["y"] + view["height"]) < 120, (
                number,
                line,
                view,
            )
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pages[0].screenshot(path=str(SCREENSHOTS / "class-room-phone-counted-390x844.png"))
        want = [sum(1 for number in range(PHONES) if number % 12 == key) for key in range(12)]
        wanted = json.dumps(want, separators=(",", ":"))
        teacher.wait_for_function(f"() => JSON.stringify(({BARS_JS})()) === '{wanted}'", timeout=180_000)
        assert teacher.evaluate(BARS_JS) == want and sum(want) == PHONES
    finally:
        for context in [teacher_context, *phones]:
            context.close()


PANEL = ".st-key-lesson_tally"
WORDS = ["The", "movie", "was", "not", "good", ",", "but", "the", "soundtrack", "was", "amazing", "."]
TALLY = f"{PANEL} .js-plotly-plot"


def wait_for_bars(teacher, counts: list[int]) -> None:
    wanted = json.dumps(counts, separators=(",", ":"))
    teacher.wait_for_function(f"() => JSON.stringify(({BARS_JS})()) === '{wanted}'", timeout=180_000)


def test_the_bars_are_readable_from_the_back_and_stay_beside_the_answer(browser, server):
    """At 1280×720 presenting: A asks (a clicker's key), the QR code is whole in the panel with the code at 40 px,
    every answer is labelled in full at 16 px and more; Q shows the code large; after Answer (→) the bars stay, the
    right answer marked."""
    teacher = browser.new_context(viewport=PROJECTOR).new_page()
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    try:
        code, address = ask_the_class(teacher, server.url, by_key=True)
        wait_for_bars(teacher, [0] * 12)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        teacher.screenshot(path=str(SCREENSHOTS / "class-asking-1280x720.png"))
        panel = teacher.locator(PANEL).bounding_box()
        qr = teacher.locator(f"{PANEL} img.attnviz-qr").bounding_box()
        inside = panel["y"] <= qr["y"] and qr["y"] + qr["height"] <= min(panel["y"] + panel["height"], 720)
        assert (
            qr["width"] >= 110
            and inside
            and panel["x"] <= qr["x"]
            and qr["x"] + qr["width"] <= panel["x"] + panel["width"]
        ), (panel, qr)
        code_px = teacher.locator(".st-key-lesson_code strong").evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert teacher.locator(".st-key-lesson_code strong").inner_text() == code and code_px >= 40
        wait_for_bars(teacher, [0] * 12)
        ticks = teacher.evaluate(
            f"""() => [...document.querySelectorAll('{TALLY} .ytick text')].map(t =>
                  [t.textContent, parseFloat(getComputedStyle(t).fontSize), t.getBoundingClientRect().left])"""
        )
        labels = [label for label, _, _ in ticks]
        assert labels == [f"{k}: {word}" for k, word in enumerate(WORDS)], labels  # every answer, whole
        assert all(px >= 16 for _, px, _ in ticks) and all(left >= panel["x"] for _, _, left in ticks), ticks
        bars = teacher.locator(TALLY).bounding_box()  # whole on the screen: a clicker cannot scroll the panel
        assert bars["y"] + bars["height"] <= min(panel["y"] + panel["height"], PROJECTOR["height"]), (bars, panel)
        title = teacher.evaluate(f"() => document.querySelector('{TALLY}').layout.title.text")
        assert re.sub(r"<[^>]*>", "", title) == "0 answered"  # the theme wraps it in <b>: whole, not cut
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        teacher.screenshot(path=str(SCREENSHOTS / "class-asking-1280x720.png"))

        teacher.keyboard.press("q")  # the code large, for the back row, from the keyboard
        large = teacher.locator('[role="dialog"] img.attnviz-qr')
        assert large.bounding_box()["width"] >= 440
        teacher.screenshot(path=str(SCREENSHOTS / "class-qr-large-1280x720.png"))
        teacher.keyboard.press("Escape")
        large.wait_for(state="detached")

        phone.goto(address)
        wait_for_app(phone)
        tap_key(phone, 3)
        said_beside_the_view(phone, f"Counted for the class question {code}: 3: not.")
        wait_for_bars(teacher, [0, 0, 0, 1] + [0] * 8)
        teacher.locator("body").press("ArrowRight")  # Answer, from a clicker
        teacher.locator(".st-key-lesson_bar").filter(has_text="Next").wait_for()
        teacher.wait_for_function(
            f"() => document.querySelector('{TALLY}')?.data?.[0]?.y?.includes('✓ 3: not')", timeout=180_000
        )
        assert teacher.evaluate(BARS_JS) == [0, 0, 0, 1] + [0] * 8  # the class's answers, beside the revealed weights
        assert "Right answer: 3: not" in teacher.locator(PANEL).inner_text()
        teacher.screenshot(path=str(SCREENSHOTS / "class-answered-1280x720.png"))
    finally:
        teacher.context.close()
        phone.context.close()
