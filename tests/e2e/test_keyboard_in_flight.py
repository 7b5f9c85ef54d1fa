"""Keys pressed while a rerun is in flight: a keyboard user on a busy classroom server presses the next key
before the last one's run has ended. Each press takes effect, once, and the focus stays on the buttons.

The server holds a run at a gate the test controls (ATTNVIZ_RUN_GATE, attnviz/ui/routes.py): at its start (the page
still shows the buttons of the run before) or at its end (everything drawn, the run not over). So the key lands in
flight however fast or slow the machine is."""

from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from attnviz.classroom.share import decode
from tests.e2e.conftest import quiet_server
from tests.e2e.test_accessibility import tab_to
from tests.support.live import open_app_page, wait_for_app

STAGE = '[data-testid="stMain"] h2'
UNDO = '.attnviz-rail button[data-field="undo"]'
# The focused button's label (its text, without the shortcut Streamlit shows beside it), or "" for anything else.
FOCUSED_BUTTON = """() => document.activeElement?.tagName === 'BUTTON'
  ? document.activeElement.innerText.trim().split('\\n')[0] : ''"""


@pytest.fixture(scope="module")
def gate(browser_executable, tmp_path_factory):
    """(server, folder): a server whose runs wait at the gate in ``folder`` while the test holds it."""
    folder = tmp_path_factory.mktemp("run-gate")
    for live in quiet_server({"ATTNVIZ_RUN_GATE": str(folder)}):
        yield live, folder


@contextmanager
def run_held(folder: Path, where: str, *, timeout_s: float = 60):
    """Holds the next run that reaches ``where`` ("start", "end" or "fragment"); yields a function that waits until a
    run is held there. The run goes on when the block ends."""
    held, arrived = folder / "held", folder / "arrived"
    held.write_text(where)

    def wait_until_held() -> None:
        deadline = time.monotonic() + timeout_s
        while not arrived.exists():
            assert time.monotonic() < deadline, f"no run reached the gate at its {where}"
            time.sleep(0.02)

    try:
        yield wait_until_held
    finally:
        held.unlink(missing_ok=True)
        arrived.unlink(missing_ok=True)


def stage_shown(page, stage: int) -> None:
    page.locator(STAGE).filter(has_text=f"Stage {stage} of 5").wait_for(timeout=60_000)
    wait_for_app(page)


def test_back_pressed_while_the_last_next_is_still_running_goes_back(page, gate):
    """The last Next disables itself: the focus moves to Back as soon as it is drawn, and an Enter there, before the
    run ends, goes back once the run is over (it used to land on the page's skip link, and nothing happened)."""
    server, folder = gate
    open_app_page(page, f"{server.url}/step_by_step")
    tab_to(page, ".st-key-steps-next button")
    for stage in range(2, 5):
        page.keyboard.press("Enter")
        stage_shown(page, stage)
    with run_held(folder, "end") as wait_until_held:
        page.keyboard.press("Enter")  # Next, to the last stage: its run draws Next disabled, then waits
        wait_until_held()
        page.wait_for_function(f"() => ({FOCUSED_BUTTON})() === 'Back'", timeout=30_000)
        page.keyboard.press("Enter")  # Back, while the run is in flight
    stage_shown(page, 4)
    assert page.evaluate(FOCUSED_BUTTON) in ("Back", "Next")  # still on the stage buttons


def test_next_pressed_twice_before_the_first_run_draws_moves_twice(page, gate):
    server, folder = gate
    open_app_page(page, f"{server.url}/step_by_step")
    tab_to(page, ".st-key-steps-next button")
    with run_held(folder, "start") as wait_until_held:
        page.keyboard.press("Enter")
        wait_until_held()  # the page still shows stage 1 and its Next
        page.keyboard.press("Enter")
    stage_shown(page, 3)
    assert page.evaluate(FOCUSED_BUTTON) == "Next"


@pytest.mark.parametrize("key", ["Enter", "ArrowRight"])
def test_a_lesson_moves_once_for_each_key_pressed_in_flight(page, gate, key):
    """Answer, then Next, pressed before Answer's run has drawn the bar again: the lesson shows step 2 (a second press
    of the old Next used to answer step 1 again). The same with a clicker's arrow key."""
    server, folder = gate
    open_app_page(page, f"{server.url}/lesson_plans")
    page.locator(".st-key-ready-present-1 button").click()  # "Why the mask and the scale exist"
    bar = page.locator(".st-key-lesson_bar")
    bar.filter(has_text="step 1 of 5").wait_for(timeout=60_000)
    wait_for_app(page)
    if key == "Enter":
        page.locator(".st-key-lesson-next button").first.focus()
    else:
        page.evaluate("() => document.activeElement.blur()")
    with run_held(folder, "start") as wait_until_held:
        page.keyboard.press(key)  # Answer
        wait_until_held()
        page.keyboard.press(key)  # Next, on the bar the first run has not drawn again yet
    bar.filter(has_text="step 2 of 5").wait_for(timeout=60_000)
    wait_for_app(page)
    assert "step 2 of 5" in bar.inner_text()


def test_undo_pressed_twice_in_flight_undoes_two_moves_and_keeps_the_focus(page, gate):
    server, folder = gate
    open_app_page(page, server.url)
    slider = page.locator('.attnviz-rail [data-field="temperature"] input').first
    for value in ("1.2", "1.4", "1.6"):
        before = page.url
        slider.fill(value)
        slider.dispatch_event("change")
        page.wait_for_function("(before) => location.href !== before", arg=before)
        wait_for_app(page)
    page.locator(UNDO).focus()
    with run_held(folder, "fragment") as wait_until_held:
        page.keyboard.press("Enter")
        wait_until_held()
        page.keyboard.press("Enter")
    deadline = time.monotonic() + 60
    while temperature(page) != 1.2:  # the link the second Undo's run writes
        assert time.monotonic() < deadline, f"the temperature stayed at {temperature(page)}"
        time.sleep(0.05)
    wait_for_app(page)
    assert temperature(page) == 1.2
    page.wait_for_function("(undo) => document.activeElement?.matches(undo)", arg=UNDO, timeout=30_000)


def temperature(page) -> float:
    """The temperature in the address bar now (read from the page: Playwright's page.url waits for its next call)."""
    return decode(page.evaluate("() => location.href").split("s=", 1)[1]).state.temperature
