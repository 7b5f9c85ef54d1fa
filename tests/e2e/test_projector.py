"""What the back row of a room reads on a 1280 × 720 projector in presenter mode: Step by step's chosen row in
the lens, with digits at least 20 px tall, at 12 and 24 tokens, and its formula inside the screen's width; the
Playground's lens at any token count up to the limit, summarised in words above the text limit, its numbers the
views' own."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from attnviz.classroom.share import PARAM, encode
from attnviz.core.limits import MAX_TOKENS
from attnviz.core.playground_state import PlaygroundState, load_example, set_sentence
from attnviz.lessons.playground import OPENING
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_class_join import PHONE
from tests.e2e.test_phone import STUCK_BOTTOM_JS, TOP_SHARE
from tests.support.live import VIEW_CANVAS, open_app_page

PROJECTOR = {"width": 1280, "height": 720}
BACK_ROW_PX = 20  # a digit's height the back of a room reads at 1280 × 720

LENS_JS = """() => {
  const lens = document.querySelector('.attnviz-lens:not([hidden])');
  if (!lens) return null;
  const canvas = lens.querySelector('canvas');
  return {caption: lens.querySelector('figcaption').textContent, digits: Number(canvas.dataset.focusDigitPx || 0),
          drawn: JSON.parse(canvas.dataset.drawn || 'null'), box: canvas.getBoundingClientRect().toJSON()};
}"""
# A view's row as its table for screen readers holds it (every cell: its text, or its hover number above the text
# limit, filled while the keyboard is in the view).
ROW_JS = """([name, row]) => [...document.querySelectorAll(`.attnviz-view[data-view="${name}"] .attnviz-sr tbody tr`)][row]
  ?.querySelectorAll('td') ?? []"""


def of(count: int) -> PlaygroundState:
    state, _ = set_sentence(PlaygroundState(), " ".join(f"w{i}" for i in range(count)))
    return state


def presented(page, server, link: str) -> dict:
    page.set_viewport_size(PROJECTOR)
    open_app_page(page, f"{server.url}/?{PARAM}={link}")
    page.wait_for_function(f"() => ({LENS_JS})()?.drawn")
    return page.evaluate(LENS_JS)


def row_of(page, view: str, row: int) -> list[str]:
    page.locator(f'.attnviz-view[data-view="{view}"] canvas').focus()  # a large view's table fills while focused
    page.wait_for_function(f"() => ({ROW_JS})({json.dumps([view, row])}).length")
    return page.evaluate(f"(at) => [...({ROW_JS})(at)].map(cell => cell.textContent)", [view, row])


@pytest.mark.parametrize("tokens", [12, 24])
def test_step_by_step_draws_its_chosen_row_large_and_its_formula_fits_the_screen(page, server, tokens):
    state = OPENING if tokens == 12 else of(tokens)
    link = encode(state, "step_by_step", {"stage": "softmax", "query": 4, "key": 3}, presenter=True)
    lens = presented(page, server, link)
    assert lens["digits"] >= BACK_ROW_PX, f"the chosen row is drawn {lens['digits']} px tall"
    assert lens["drawn"]["view"] == "softmax-1" and lens["drawn"]["row"] == 4  # the weights, “good”'s row (4)
    assert lens["drawn"]["columns"] == list(range(tokens))  # every key: the row has room at 24
    assert lens["drawn"]["texts"] == row_of(page, "softmax-1", 4)  # the numbers the picture draws
    assert "Outlined: the chosen cell" in lens["caption"] and "formula below" in lens["caption"]
    weights = page.locator('.attnviz-view[data-view="softmax-1"] canvas').get_attribute("data-focus-digit-px")
    assert int(weights) >= BACK_ROW_PX  # the picture says its chosen row is drawn large (in the lens)
    formula = page.locator(".st-key-stage_formula")
    formula.scroll_into_view_if_needed()
    fits = formula.evaluate(
        """f => { const display = f.querySelector('.katex-display'), html = f.querySelector('.katex-html');
          return {width: html.getBoundingClientRect().width, room: display.clientWidth,
                  right: html.getBoundingClientRect().right}; }"""
    )
    assert fits["width"] <= fits["room"] + 1 and fits["right"] <= PROJECTOR["width"], fits  # no sideways scroll
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PROJECTOR["width"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"step-by-step-softmax-{tokens}-1280x720.png"))


@pytest.mark.parametrize("tokens", [30, MAX_TOKENS])
def test_above_the_text_limit_the_lens_sums_up_the_focus_row_in_the_views_numbers(page, server, tokens):
    lens = presented(page, server, encode(of(tokens), presenter=True))
    assert lens["digits"] >= BACK_ROW_PX
    drawn = lens["drawn"]
    assert drawn["view"] == "weights" and 0 < len(drawn["columns"]) < tokens
    row = row_of(page, "weights", drawn["row"])
    assert drawn["texts"] == [row[j] for j in drawn["columns"]]  # the views' own numbers
    weights = [float(text.replace("−", "-")) if text != "masked" else 0.0 for text in row]
    assert [weights[j] for j in drawn["columns"]] == sorted(weights, reverse=True)[: len(drawn["columns"])]
    others = sum(weight for j, weight in enumerate(weights) if j not in drawn["columns"])
    rest = f"the other {tokens - len(drawn['columns'])} keys: {others:.2f} together"
    assert drawn["rest"] == rest  # said in the lens, large, and in its caption
    assert f"large: too many keys for every number, so its {len(drawn['columns'])} largest weights" in lens["caption"]
    assert lens["caption"].endswith("and the rest in words.")
    assert lens["box"]["bottom"] <= PROJECTOR["height"], lens["box"]  # on the projector's screen, not below it
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"playground-lens-{tokens}-1280x720.png"))


def test_multi_heads_sticky_sizes_take_one_row_and_hide_no_head_the_keyboard_reaches(page, server):
    """On the projector the sizes stay at the top as the heads scroll by: one row of widgets (two, with the divisors'
    line in it, hid the heads' first five rows, the focus token's included), and a head the keyboard moves to is
    scrolled below them, its title too."""
    page.set_viewport_size(PROJECTOR)
    open_app_page(page, f"{server.url}/multi_head?{PARAM}={encode(OPENING, 'multi_head', {}, presenter=True)}")
    head = page.locator(".attnviz-view", has_text="head 1 (dims 1–4)")
    head.locator("canvas").focus()  # as Tab does: the browser scrolls it into view
    page.wait_for_function("() => document.querySelector('[data-testid=stMain]').scrollTop > 0")
    stuck = page.evaluate(STUCK_BOTTOM_JS)
    assert stuck <= TOP_SHARE * PROJECTOR["height"], f"what stays at the top ends {stuck} px down"
    assert head.bounding_box()["y"] >= stuck  # the head's title, and every row under it, in sight


# On a projector the Playground's covers keep only their buttons: the "sharper or flatter" question has some. On a
# phone the mask question's words are the longest, and rows 5 and 6 are the last in the top half and the first below.
# The pronoun example's four rows make short views: a question taller than half of one covered “street” (1).
PRONOUN = load_example(PlaygroundState(), "pronoun_it")
LAPTOP = {"width": 1280, "height": 800}


@pytest.mark.parametrize(
    ("screen", "kind", "opening", "focus"),
    [
        *[(PROJECTOR, "sharper", OPENING, focus) for focus in (4, 10)],
        *[(LAPTOP, "most", OPENING, focus) for focus in (4, 10)],
        *[(PHONE, "zeroed", OPENING, focus) for focus in (5, 6)],
        *[(LAPTOP, kind, PRONOUN, 1) for kind in ("most", "zeroed")],
        (LAPTOP, "most", PRONOUN, 2),
        (PHONE, "zeroed", PRONOUN, 1),
    ],
)
def test_a_covered_views_question_hides_neither_its_title_nor_the_row_it_asks_about(
    page, server, screen, kind, opening, focus
):
    """Predict mode asks for a click in the outlined row of a covered view: the question's box sits clear of that row
    (on the side of the view away from it, starting at the row's edge) and of the view's title."""
    page.set_viewport_size(screen)
    state = replace(opening, predict=kind, focus=focus)
    open_app_page(page, f"{server.url}/?{PARAM}={encode(state, presenter=screen == PROJECTOR)}")
    weights = page.locator('.attnviz-view[data-view="weights"]')
    cover = weights.locator(".attnviz-cover")
    cover.wait_for()
    weights.locator("canvas").evaluate("canvas => canvas.scrollIntoView()")  # a phone's weights are below the fold
    row = weights.locator("canvas").evaluate(
        f"""canvas => {{ const at = JSON.parse(canvas.dataset.layout), top = canvas.getBoundingClientRect().top;
                        return {{top: top + at.top + {focus} * at.cellH, bottom: top + at.top + {focus + 1} * at.cellH}}; }}"""
    )
    if kind == "sharper":  # its answers are buttons on the cover, on a projector too
        cover.get_by_role("button", name="Flatter").wait_for()
    title, box = weights.locator("figcaption").bounding_box(), cover.bounding_box()
    assert box["y"] >= title["y"] + title["height"], (title, box)
    assert box["y"] >= row["bottom"] or box["y"] + box["height"] <= row["top"], (row, box)


@pytest.mark.parametrize("query", [3, 8])
def test_step_by_steps_question_hides_not_the_row_it_asks_about(page, server, query):
    """Step by step's question box covered row 8, the very row it asks about."""
    page.set_viewport_size({"width": 1280, "height": 800})
    state = replace(OPENING, predict="most")
    open_app_page(page, f"{server.url}/step_by_step?{PARAM}={encode(state, 'step_by_step', {'query': query})}")
    view = page.locator(".attnviz-view:has(.attnviz-cover:not([hidden]))").first
    cover = view.locator(".attnviz-cover")
    cover.wait_for()
    view.locator("canvas").evaluate("canvas => canvas.scrollIntoView()")
    row = view.locator("canvas").evaluate(
        f"""canvas => {{ const at = JSON.parse(canvas.dataset.layout), top = canvas.getBoundingClientRect().top;
                        return {{top: top + at.top + {query} * at.cellH, bottom: top + at.top + {query + 1} * at.cellH}}; }}"""
    )
    box = cover.bounding_box()
    assert box["y"] >= row["bottom"] or box["y"] + box["height"] <= row["top"], (row, box)


def test_on_a_projector_the_playgrounds_question_is_said_under_its_short_views_not_over_them(page, server):
    page.set_viewport_size(PROJECTOR)
    open_app_page(page, f"{server.url}/?{PARAM}={encode(replace(OPENING, predict='most'), presenter=True)}")
    question = "Predict first: which key will “good” (4) attend to most? Click that key's cell in view 3"
    page.locator(".attnviz-caption").filter(has_text=question).wait_for()
    assert page.locator(VIEW_CANVAS).count() == 4
    assert page.locator(".attnviz-cover").evaluate_all("covers => covers.filter((c) => c.offsetParent).length") == 0


# Each stage's inputs and result of two columns (d_k = d_v = 2): its narrowest views.
@pytest.mark.parametrize(
    "settings", [{"stage": "project", "from_embeddings": True}, {"stage": "scores"}, {"stage": "output"}]
)
@pytest.mark.parametrize(("screen", "presenter"), [(PROJECTOR, True), ({"width": 1280, "height": 800}, False)])
def test_every_view_of_a_stage_shows_its_whole_title(page, server, settings, screen, presenter):
    page.set_viewport_size(screen)
    link = encode(OPENING, "step_by_step", settings, presenter=presenter)
    open_app_page(page, f"{server.url}/step_by_step?{PARAM}={link}")
    titles = page.locator(".attnviz-view-title")
    titles.first.wait_for()
    cut = titles.evaluate_all("found => found.filter((t) => t.scrollWidth > t.clientWidth).map((t) => t.textContent)")
    assert titles.count() >= 3 and cut == []


DRAWN_JS = """(name) => {
  const canvas = document.querySelector(`.attnviz-view[data-view="${name}"] canvas`);
  const box = canvas.getBoundingClientRect();
  return {rowLabels: JSON.parse(canvas.dataset.rowLabels), font: Number(canvas.dataset.cellFontPx), width: box.width,
          height: box.height, visible: box.height > 0};
}"""


def test_a_teacher_makes_one_view_large_with_every_label_and_a_number_in_every_cell(page, server):
    """Presenter mode's grids carried no numbers and every other row label. Any one view can be made large
    (its Large button, or L on its cells): all 12 row labels and a number in every cell, its text at 14 px or more."""
    presented(page, server, encode(OPENING, presenter=True))
    weights = page.locator('.attnviz-view[data-view="weights"]')
    weights.get_by_role("button", name="Large").click()
    page.wait_for_function(f"() => ({DRAWN_JS})('weights').font >= 14")
    drawn = page.evaluate(DRAWN_JS, "weights")
    assert len(drawn["rowLabels"]) == 12 and drawn["font"] >= 14, drawn  # every label; every number at 14 px
    assert drawn["height"] <= PROJECTOR["height"] and not page.evaluate(DRAWN_JS, "scores")["visible"]
    assert page.evaluate("() => document.querySelector('.attnviz-views').dataset.large") == "weights"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "presenter-view-large-1280x720.png"))
    weights.get_by_role("button", name="All four").click()
    page.wait_for_function(f"() => ({DRAWN_JS})('scores').visible")
    page.locator('.attnviz-view[data-view="output"] canvas').focus()
    page.keyboard.press("l")  # from the keyboard: the output large
    page.wait_for_function("() => document.querySelector('.attnviz-views').dataset.large === 'output'")
    page.wait_for_function(f"() => ({DRAWN_JS})('output').font >= 14")


def test_at_1280x720_without_presenter_mode_every_view_ends_on_screen(page, server):
    """At 1280 × 720 (a projector, presenter mode off) the last row of views 3 and 4 was cut off."""
    page.set_viewport_size(PROJECTOR)
    open_app_page(page, f"{server.url}/")
    bottoms = page.evaluate(
        "() => [...document.querySelectorAll('.attnviz-view:not([data-editable]) canvas')].map(c => c.getBoundingClientRect().bottom)"
    )
    line = page.locator(".attnviz-instrument:not(:has([data-editable])) .attnviz-caption").bounding_box()
    assert len(bottoms) == 4 and max(bottoms) <= PROJECTOR["height"], bottoms
    assert line["y"] + line["height"] <= PROJECTOR["height"] + 1, line  # and the line saying what the last move did
