"""A whole class answers at once: the teacher asks; 16 phones (390×844, touch) open the QR code's address together on a
server whose one core is shared with a busy process, and each taps once. Every first tap counts: the teacher's bars
show exactly 16, and each phone says "Counted" beside the view it tapped, on the screen the student is looking at."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import SCREENSHOTS, quiet_server
from tests.e2e.test_class_join import BARS_JS, PHONE, PROJECTOR, ask_the_class
from tests.support.live import wait_for_app

PHONES = 16
ASKED_ROW = 4  # the ready lesson's step 1 asks about "good" (row 4)


def _pin_to_one_core(pid: int, core: int) -> None:
    """Every thread of ``pid`` (and so each thread it starts later) runs on ``core`` only."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), {core})


@pytest.fixture(scope="module")
def busy_server():
    """The app on one core that a ``yes`` keeps busy: a school's small server while something else runs on it."""
    core = min(os.sched_getaffinity(0))
    hog = subprocess.Popen(["yes"], stdout=subprocess.DEVNULL, preexec_fn=lambda: os.sched_setaffinity(0, {core}))
    try:
        for server in quiet_server():
            _pin_to_one_core(server.pid, core)
            yield server
    finally:
        hog.kill()
        hog.wait()


def tap_key(phone, key: int) -> dict:
    """A finger on the covered weights' cell (row 4, ``key``), with the view scrolled into sight first; returns the
    view's box on the screen at the tap."""
    canvas = phone.locator('.attnviz-view[data-view="weights"] canvas')
    canvas.evaluate("canvas => canvas.scrollIntoView({block: 'center'})")
    # The grid is drawn once the cells' layout is known: the tap needs it to find the cell.
    phone.wait_for_function(
        "() => document.querySelector('.attnviz-view[data-view=\"weights\"] canvas')?.dataset.layout", timeout=60_000
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
        timeout=90_000,
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
            phone.goto(address, wait_until="commit", timeout=90_000)
        for phone in pages:
            wait_for_app(phone, timeout_ms=120_000)
            assert phone.get_by_role("textbox", name="Class code").input_value() == code
        taps = [tap_key(phone, number % 12) for number, phone in enumerate(pages)]  # 16 taps, none waiting for another
        for number, (phone, view) in enumerate(zip(pages, taps, strict=True)):
            line = said_beside_the_view(phone, f"Counted for the class question {code}")
            assert line["top"] >= view["y"] - 5 and line["top"] - (view["y"] + view["height"]) < 120, (number, line, view)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pages[0].screenshot(path=str(SCREENSHOTS / "class-room-phone-counted-390x844.png"))
        want = [sum(1 for number in range(PHONES) if number % 12 == key) for key in range(12)]
        wanted = json.dumps(want, separators=(",", ":"))
        teacher.wait_for_function(f"() => JSON.stringify(({BARS_JS})()) === '{wanted}'", timeout=60_000)
        assert teacher.evaluate(BARS_JS) == want and sum(want) == PHONES
    finally:
        for context in [teacher_context, *phones]:
            context.close()
