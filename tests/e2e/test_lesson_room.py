"""A lesson presented as the room does, on a 1280 × 720 projector with a clicker (Page Down only): every
screen in presenter mode, the Playground's focus row in digits the back row reads, and what the note talks about on
screen, below the lesson's bar."""

from __future__ import annotations

import contextlib

import pytest

from attnviz.classroom import lesson_plan as plans
from attnviz.classroom.share import encode
from attnviz.core.limits import MAX_LESSON_NOTE, MAX_LESSON_QUESTION, MAX_LESSON_TITLE
from attnviz.lessons.playground import OPENING
from tests.e2e.conftest import SCREENSHOTS
from tests.support.live import open_app_page, wait_for_app

PROJECTOR = {"width": 1280, "height": 720}
# What each page's notes talk about, as the room sees it: the Playground's focus row (the lens, in presenter mode),
# Step by step's formula, Geometry's arrows, Multi-head's heads, Why we scale's spread of the scores.
SUBJECTS = {
    "playground": '.attnviz-view[data-view="weights"]',
    "step_by_step": ".st-key-stage_formula",
    "geometry": ".st-key-geometry_arrows",
    "multi_head": ".st-key-mh-heads",
    "why_scale": ".st-key-why_variance",
    "watch_it_learn": ".st-key-induction-train",
}
# A teacher's own lesson, as its link brings it: three pages, one question.
OWN = plans.LessonPlan(
    "My attention lesson",
    (
        plans.Step(encode(OPENING, "multi_head"), note="Two heads, side by side."),
        plans.Step(encode(OPENING), note="The weights of “good”.", question="Which word will “good” attend to most?"),
        plans.Step(encode(OPENING, "geometry"), note="The arrows of the query and the keys."),
    ),
)

# The bar's words (title, question, note) all shown: nothing scrolled or cut off inside the bar.
WORDS_WHOLE_JS = """() => {
  const bar = document.querySelector('.st-key-lesson_bar');
  const words = bar.querySelector('[data-testid="stColumn"] [data-testid="stMarkdownContainer"]');
  return words.scrollHeight <= words.clientHeight + 1 && words.getBoundingClientRect().bottom <= bar.getBoundingClientRect().bottom;
}"""
IN_VIEW_JS = """([subject]) => {
  const found = document.querySelector(subject), bar = document.querySelector('.st-key-lesson_bar');
  if (!found || !bar) return null;
  const box = found.getBoundingClientRect(), under = bar.getBoundingClientRect().bottom;
  return {top: box.top, bottom: box.bottom, under, inView: box.height > 0 && box.top >= under - 1 && box.bottom <= innerHeight + 1};
}"""


def screens(plan: plans.LessonPlan) -> list[tuple[int, bool]]:
    """Every screen Page Down shows, in order: (step, whether its answer is shown)."""
    return [
        (index, answered)
        for index, step in enumerate(plan.steps)
        for answered in ((False, True) if step.question else (True,))
    ]


def present(page, server, plan: plans.LessonPlan) -> None:
    if plan.title in plans.READY:
        open_app_page(page, f"{server.url}/lesson_plans")
        page.locator(f".st-key-ready-present-{list(plans.READY).index(plan.title)} button").click()
    else:  # the teacher's own: from its link, then Present
        open_app_page(page, f"{server.url}/lesson_plans?{plans.PARAM}={plans.to_link(plan)}")
        page.locator(".st-key-plan-present button").click()


def check_screen(page, plan: plans.LessonPlan, index: int, answered: bool) -> dict:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    step = plan.steps[index]
    words = f"step {index + 1} of {len(plan.steps)}"
    said = f"{words} · Question" if step.question and not answered else words
    page.locator(".st-key-lesson_bar").filter(has_text=said).filter(has_text=step.note if answered else said).wait_for()
    wait_for_app(page)
    where = f"{plan.title}, step {index + 1}{' (answer)' if answered else ''}"
    font = page.evaluate("() => getComputedStyle(document.documentElement).fontSize")
    assert font == "20px", f"{where}: not in presenter mode (html font {font})"
    subject = SUBJECTS[step.view.page]
    with contextlib.suppress(PlaywrightTimeout):  # the page scrolls to it once it is drawn; the assert says where not
        page.wait_for_function(f"() => ({IN_VIEW_JS})([{subject!r}])?.inView", timeout=30_000)
    seen = page.evaluate(IN_VIEW_JS, [subject])
    assert seen and seen["inView"], f"{where}: {subject} is not on screen below the bar: {seen}"
    bar = page.locator(".st-key-lesson_bar").bounding_box()
    assert bar["height"] <= 0.2 * PROJECTOR["height"], f"{where}: the bar takes {bar['height']} px of the screen"
    assert page.evaluate(WORDS_WHOLE_JS), f"{where}: the bar cuts its words"
    if step.view.page == "step_by_step":  # the chosen row, large, in sight with the formula under it
        lens = page.evaluate(IN_VIEW_JS, [".attnviz-lens:not([hidden])"])
        assert lens and lens["inView"], f"{where}: the chosen row's lens is not on screen below the bar: {lens}"
    asking = step.view.page == "playground" and step.question and not answered
    if asking:  # nothing drawn large that answers the question: the lens waits for the answer
        with contextlib.suppress(PlaywrightTimeout):  # the component takes the new data just after the run ends
            page.locator(".attnviz-lens:not([hidden])").wait_for(state="detached", timeout=30_000)
        assert page.locator(".attnviz-lens:not([hidden])").count() == 0, f"{where}: the lens shows the answer"
    elif step.view.page in ("playground", "step_by_step"):
        digits = page.evaluate(
            "() => [...document.querySelectorAll('.attnviz-view:not([data-editable]) canvas')].map(c => Number(c.dataset.focusDigitPx || 0))"
        )
        assert max(digits) >= 20, f"{where}: the focus row is drawn {max(digits)} px tall, the back row needs 20"
    return seen


@pytest.mark.parametrize("title", [*list(plans.READY)[:2], OWN.title])
def test_a_lesson_presented_with_page_down_only_holds_on_every_screen(page, server, title):
    plan = plans.READY.get(title, OWN)
    page.set_viewport_size(PROJECTOR)
    present(page, server, plan)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for number, (index, answered) in enumerate(screens(plan)):
        if number:
            page.keyboard.press("PageDown")
        check_screen(page, plan, index, answered)
        page.screenshot(
            path=str(
                SCREENSHOTS
                / f"lesson-{list(plans.READY).index(title) if title in plans.READY else 'own'}-{number + 1}.png"
            )
        )


@pytest.mark.parametrize(
    "title, step", [("Attention in 15 minutes", 0), ("Why the mask and the scale exist", 2), (OWN.title, 1)]
)
def test_the_class_answers_sit_beside_the_views_and_the_views_stay_on_screen(page, server, title, step):
    """*Ask the class* on a Playground question: the code and the bars in a panel over the controls (the question's
    Answer sets them), not under the bar: the lens and every view stay on the projector's screen below the bar,
    uncovered, also when the presenter had scrolled down to the tables before the clicker's Page Down and Page Up."""
    plan = plans.READY.get(title, OWN)
    page.set_viewport_size(PROJECTOR)
    present(page, server, plan)
    for number, (index, answered) in enumerate(screens(plan)[: screens(plan).index((step, False)) + 1]):
        if number:
            page.keyboard.press("PageDown")
        check_screen(page, plan, index, answered)
    page.locator('[data-testid="stMain"]').evaluate("main => main.scrollTo(0, main.scrollHeight)")
    page.keyboard.press("PageDown")  # the answer, then the question again: each arrives scrolled to its subject
    check_screen(page, plan, step, True)
    page.keyboard.press("PageUp")
    check_screen(page, plan, step, False)
    page.get_by_role("button", name="Ask the class").click()
    panel = page.locator(".st-key-lesson_tally")
    panel.filter(has_text="Class code").wait_for()
    wait_for_app(page)
    assert page.evaluate(IN_VIEW_JS, ['.attnviz-view[data-view="weights"]'])["inView"]
    boxes = page.evaluate(
        "() => [...document.querySelectorAll('.attnviz-view:not([data-editable]) canvas')].map(c => c.getBoundingClientRect().toJSON())"
    )
    under = page.locator(".st-key-lesson_bar").bounding_box()
    under = under["y"] + under["height"]
    assert len(boxes) == 4 and all(box["top"] >= under - 1 and box["bottom"] <= PROJECTOR["height"] for box in boxes), (
        under,
        boxes,
    )
    placed = panel.bounding_box()
    views = page.locator(".attnviz-instrument:not(:has([data-editable])) .attnviz-main").bounding_box()
    assert placed["y"] + placed["height"] <= PROJECTOR["height"] and placed["x"] + placed["width"] <= views["x"], (
        placed,
        views,
    )
    page.screenshot(path=str(SCREENSHOTS / f"lesson-ask-the-class-{plan.title.split()[0].lower()}-1280x720.png"))


def test_the_longest_words_a_step_may_have_show_whole_in_the_bar(page, server):
    """The editor's limits (attnviz/core/limits.py) at their most: the bar grows to show every word, and stays under a
    third of the projector's screen."""
    word = "attention "
    note = (word * 30)[: MAX_LESSON_NOTE - 4] + " END"
    step = plans.Step(encode(OPENING), note=note, question=(word * 20)[: MAX_LESSON_QUESTION - 1] + "?")
    longest = plans.LessonPlan((word * 8)[:MAX_LESSON_TITLE], (step,))
    assert (len(longest.title), len(step.note), len(step.question)) == (80, 240, 160)
    page.set_viewport_size(PROJECTOR)
    present(page, server, longest)
    page.locator(".st-key-lesson_bar").filter(has_text="step 1 of 1 · Question").wait_for()
    wait_for_app(page)
    page.keyboard.press("PageDown")  # the answer: question and note together, the most words a step shows
    page.locator(".st-key-lesson_bar").filter(has_text="END").wait_for()
    wait_for_app(page)
    assert page.evaluate(WORDS_WHOLE_JS)
    assert page.locator(".st-key-lesson_bar").bounding_box()["height"] <= PROJECTOR["height"] / 3
    page.screenshot(path=str(SCREENSHOTS / "lesson-longest-words-1280x720.png"))


def test_presenter_mode_after_a_typed_sentence_brings_no_refusal(page, server):
    """The Example box's option in use takes new words when a sentence is typed, and its value is sent to the browser
    again with them: the browser sends back the option it shows, and a switch of presenter mode then finds it (it
    was refused as unreadable, in yellow, on the projector, when only the option's words changed)."""
    page.set_viewport_size(PROJECTOR)
    open_app_page(page, f"{server.url}/")
    box = page.get_by_role("textbox", name="Sentence")
    box.fill("The cat sat on the mat")
    box.press("Enter")
    # The box names what is shown: the sentence on the example's vectors (it named the movie review).
    shown = "Your sentence, with the vectors of: Movie review: “not good”"
    page.wait_for_function("s => document.querySelector('input[aria-label=\"Example\"]')?.value === s", arg=shown)
    wait_for_app(page)
    page.get_by_text("Presenter mode").click()
    page.wait_for_function("() => getComputedStyle(document.documentElement).fontSize === '20px'")
    wait_for_app(page)
    said = page.locator('[data-testid="stMain"]').inner_text()
    assert (
        "could not be read" not in said
        and "The cat sat on the mat" in page.get_by_role("textbox", name="Sentence").input_value()
    )
    assert page.get_by_role("combobox", name="Example").input_value() == shown
