"""Classroom features in a real Chromium: downloads, presenter mode and the dark theme."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

from tests.e2e.conftest import SCREENSHOTS
from tests.support.live import open_app_page, view_titled, wait_for_app, wait_for_charts, wait_for_views_to_settle

WEIGHTS = "3. Weights"


def download(page, label: str) -> bytes:
    with page.expect_download() as event:
        page.get_by_role("button", name=label).click()
    return Path(event.value.path()).read_bytes()


def test_downloads_carry_exactly_the_matrices_on_screen(page, server):
    open_app_page(page, server.url)
    shown = view_titled(page, WEIGHTS)["cells"]  # two decimals on screen
    page.get_by_role("tab", name="Download").click()
    exported = json.loads(download(page, "Download JSON"))["matrices"]["weights"]  # every digit
    assert {cell: round(exported[cell[0]][cell[1]], 2) for cell in shown} == {c: float(t) for c, t in shown.items()}
    with zipfile.ZipFile(io.BytesIO(download(page, "Download CSV tables (.zip)"))) as archive:
        names = set(archive.namelist())
        assert {"Q.csv", "K.csv", "V.csv", "weights.csv", "output.csv"} <= names
        first_row = archive.read("weights.csv").decode("utf-8-sig").splitlines()[1].split(",")
    assert first_row[0] == "0: The" and [float(x) for x in first_row[1:]] == exported[0]


def test_presenter_mode_fits_the_controls_and_the_views_on_a_projector(page, server):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app_page(page, server.url)
    assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == "16px"
    page.get_by_text("Presenter mode").click()
    page.wait_for_function("() => getComputedStyle(document.documentElement).fontSize === '20px'")
    wait_for_app(page)
    wait_for_charts(page)
    views = wait_for_views_to_settle(page)
    rail = page.locator(".attnviz-instrument[data-bare=false] .attnviz-rail").bounding_box()  # every control, Undo last
    for box in [rail, *(view["box"] for view in views.values())]:
        assert box["y"] >= 0 and box["y"] + box["height"] <= 720, box
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "presenter.png"))


def test_the_dark_theme_darkens_the_page_and_the_charts(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark")
    try:
        page = context.new_page()
        open_app_page(page, server.url)
        background = page.evaluate(
            "() => getComputedStyle(document.querySelector('[data-testid=stApp]')).backgroundColor"
        )
        assert background == "rgb(0, 0, 0)"  # theme.dark backgroundColor #000000
        wait_for_views_to_settle(page)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "dark.png"))
    finally:
        context.close()


def bar_says(page, text: str) -> None:
    page.locator(".st-key-lesson_bar").filter(has_text=text).wait_for(timeout=30_000)
    wait_for_app(page)


def test_a_lesson_is_presented_at_1280x720_with_the_keyboard_only(page, server):
    """The teacher tabs to Present, then walks the lesson with the arrow keys: the question first with the
    Playground's views covered, the answer, the next step on its own page, and back."""
    from tests.e2e.test_accessibility import tab_to

    page.set_viewport_size({"width": 1280, "height": 720})
    open_app_page(page, f"{server.url}/lesson_plans")
    present = ".st-key-ready-present-1 button"  # "Why the mask and the scale exist"
    page.locator(present).wait_for()
    tab_to(page, present)
    page.keyboard.press("Enter")
    bar_says(page, "step 1 of 5")
    wait_for_charts(page)
    assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == "20px"  # presenter mode
    assert page.locator('.attnviz-view[data-view="weights"] .attnviz-cover').is_visible()  # asked, covered
    page.keyboard.press("ArrowRight")  # Answer
    page.locator('.attnviz-view[data-view="weights"] .attnviz-cover').wait_for(state="hidden", timeout=30_000)
    bar_says(page, "the causal mask sets their weights to 0")
    page.keyboard.press("ArrowRight")  # the next step: Step by step at the Mask stage
    bar_says(page, "step 2 of 5")
    page.wait_for_url("**/step_by_step**")
    page.locator(".attnviz-view-title").filter(has_text="After: the Playground's mask").wait_for()
    page.keyboard.press("ArrowLeft")  # back to step 1's answer
    bar_says(page, "step 1 of 5")
    assert not page.locator('.attnviz-view[data-view="weights"] .attnviz-cover').is_visible()
    shot = SCREENSHOTS / "lesson-presenter-1280x720.png"
    page.screenshot(path=str(shot))


def click_weight(page, row: int, col: int) -> None:
    """A click on the covered weights' cell (row, col): the prediction."""
    box = view_titled(page, WEIGHTS)["box"]
    at = page.evaluate(
        """() => JSON.parse(document.querySelector('.attnviz-view[data-view="weights"] canvas').dataset.layout)"""
    )
    page.mouse.click(box["x"] + at["left"] + (col + 0.5) * at["cellW"], box["y"] + at["top"] + (row + 0.5) * at["cellH"])


def test_a_student_reloading_and_answering_three_times_is_one_student(browser, server):
    """The page keeps a random id in the browser's localStorage and sends it, so each reload (a new session) answers
    as the same student: the teacher's bars show one student, with the last answer."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        teacher, student = context.new_page(), context.new_page()
        open_app_page(teacher, f"{server.url}/lesson_plans")
        teacher.locator(".st-key-ready-present-0 button").click()
        bar_says(teacher, "step 1 of")
        teacher.locator(".st-key-lesson-ask button").click()
        bar_says(teacher, "Class code")
        code = re.search(r"Class code\s+([A-Z0-9]{6})", teacher.locator(".st-key-lesson_bar").inner_text())[1]
        address = teacher.locator(".st-key-lesson_bar [data-testid=stCode]").inner_text().strip()
        for key in (3, 10, 5):  # the last answer is for key 5
            open_app_page(student, address)  # the short address: the asked setup, the code in the box
            student.get_by_text(f"Your predictions count for the class question {code}").wait_for()
            wait_for_views_to_settle(student)
            click_weight(student, 4, key)
            student.locator('.attnviz-view[data-view="weights"] .attnviz-cover').wait_for(state="hidden")
        teacher.wait_for_function(
            "() => document.querySelector('.st-key-lesson_bar .js-plotly-plot')?.data?.[0]?.x?.[5] === 1",
            timeout=30_000,
        )
        title = teacher.evaluate("() => document.querySelector('.st-key-lesson_bar .js-plotly-plot').layout.title.text")
        assert re.sub(r"<[^>]*>", "", title) == "1 answered", title  # the theme wraps it in <b>
    finally:
        context.close()
