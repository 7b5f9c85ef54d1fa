"""WCAG 2.1 AA in a real Chromium: axe-core (npm, locked in package-lock.json) on every page, light and dark,
presenter mode off and on, and on the Playground in three states (its first screen, causal with a blocked key, and
48 tokens). The app's own content must have no violation; one inside Streamlit's own chrome (its header, menu and
navigation) is reported, not failed. axe cannot see into a canvas: the views' colours are held to their ratios by
tests/figures/test_contrast.py and tests/js/colour.test.mjs."""

from __future__ import annotations

import time
import warnings
from dataclasses import replace
from pathlib import Path

import pytest

from attnviz.classroom.share import encode
from attnviz.core.playground_state import set_sentence
from attnviz.figures.matrix_view import hover_numbers
from attnviz.lessons.playground import OPENING
from attnviz.pages import PAGES
from attnviz.playground.views import playground_views
from tests.e2e.test_playground import view_control
from tests.support.live import REPO, open_app_page, wait_for_app

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
STREAMLIT_CHROME = ('[data-testid="stHeader"]', '[data-testid="stToolbar"]', '[data-testid="stTopNavLink"]')
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AXE_RUN_JS = """async ([rules, chrome]) => {
  const result = await axe.run(document, { runOnly: rules });
  const inChrome = (selector) => chrome.some((c) => document.querySelector(selector)?.closest(c));
  return result.violations.flatMap((v) => v.nodes.map((n) => ({
    rule: v.id, impact: v.impact, target: n.target.join(' '), summary: (n.failureSummary || '').slice(0, 200),
    chrome: inChrome(n.target[n.target.length - 1]),
  })));
}"""

LONG = set_sentence(OPENING, " ".join(f"word{i}" for i in range(48)))[0]
PLAYGROUND_STATES = {
    "first screen": None,
    "causal, a key blocked": replace(OPENING, causal=True, blocked_keys=(3,)),
    "48 tokens": LONG,
}


def axe_violations(page) -> list[dict]:
    if not AXE.exists():
        pytest.skip("axe-core is not installed (run `npm ci`, as `make test` does)")
    page.add_script_tag(path=str(AXE))
    # Colours at rest: axe measures what is painted, and once, on a busy machine, measured a label still fading back in
    # after a rerun (#93969f on white: about half of the text's own colour).
    page.wait_for_function("() => !document.getAnimations().some((animation) => animation instanceof CSSTransition)")
    found = page.evaluate(AXE_RUN_JS, [RULES, list(STREAMLIT_CHROME)])
    for violation in (v for v in found if v["chrome"]):
        warnings.warn(
            f"Streamlit's own chrome: {violation['rule']} at {violation['target']}", UserWarning, stacklevel=1
        )
    return [v for v in found if not v["chrome"]]


def with_presenter(page) -> None:
    page.locator(".st-key-presenter_switch label").click()
    wait_for_app(page)


@pytest.mark.parametrize("presenter", [False, True], ids=["normal", "presenter"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("page_file", [page.file for page in PAGES], ids=[page.name for page in PAGES])
def test_every_page_has_no_violation_in_its_own_content(browser, server, page_file, scheme, presenter):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
    try:
        page = context.new_page()
        path = "" if Path(page_file).stem == "playground" else Path(page_file).stem
        open_app_page(page, f"{server.url}/{path}")
        if presenter:
            with_presenter(page)
        assert axe_violations(page) == []
    finally:
        context.close()


@pytest.mark.parametrize("state", list(PLAYGROUND_STATES), ids=list(PLAYGROUND_STATES))
def test_the_playground_in_use_has_no_violation(page, server, state):
    shared = PLAYGROUND_STATES[state]
    open_app_page(page, server.url + ("" if shared is None else f"/?s={encode(shared)}"))
    assert view_control(page, "Causal mask").count() == 1
    assert axe_violations(page) == []


def tab_to(page, selector: str, limit: int = 120) -> None:
    """Presses Tab until the element focused matches ``selector``, as a keyboard user moves through the page."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(selector) => document.activeElement?.matches(selector) ?? false", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def by_key(page, selector: str, key: str):
    """Tabs to ``selector``, presses ``key`` and waits for the move's run: the state the address's link now holds."""
    tab_to(page, selector)
    return pressed(page, key)


def pressed(page, key: str):
    """Presses ``key`` where the keyboard is and waits for the move's run: the state the address's link now holds."""
    from attnviz.classroom.share import decode

    before = page.url
    page.keyboard.press(key)
    page.wait_for_function("(before) => location.href !== before", arg=before)  # the run has put its link there
    wait_for_app(page)
    return decode(page.url.split("s=", 1)[1]).state


def test_the_playgrounds_tasks_by_keyboard_alone(page, server):
    """Toggle, temperature, block a key, choose the focus token, read a cell, edit a Q cell: Tab, Space, Enter, arrows
    and typing only."""
    open_app_page(page, server.url)
    assert by_key(page, '.attnviz-check[data-field="causal"] input', "Space").causal
    assert by_key(page, '.attnviz-range input[type="range"]', "ArrowRight").temperature == 1.05
    tab_to(page, ".attnviz-toggle")  # the chips are one Tab stop, walked by the arrow keys
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert pressed(page, "Enter").blocked_keys == (3,)
    assert by_key(page, ".attnviz-control[data-field=focus] select", "ArrowDown").focus == 5
    tab_to(page, '.attnviz-view[data-view="weights"] canvas')
    said = page.locator('.attnviz-view[data-view="weights"] p.attnviz-sr')
    said.filter(has_text="5: , → 0: The: weight").wait_for()
    page.keyboard.press("ArrowRight")
    said.filter(has_text="5: , → 1: movie: weight").wait_for()
    edit_a_cell_by_keyboard(page)


TABLE_CELLS_JS = """(table) => [...document.querySelectorAll(`${table} tbody tr`)]
  .flatMap((row) => [...row.cells].slice(1).map((cell) => cell.textContent))"""


def test_a_large_views_table_holds_every_cell_once_the_keyboard_is_in_the_view(page, server):
    """A view of more cells than the browser builds a table for on every move (eight 128 × 128 tables took
    seconds a move) keeps its caption alone, saying where the cells are, until the keyboard enters the view; Tab to
    its canvas, and the table holds every cell's number, as Python sent them."""
    open_app_page(page, f"{server.url}/?s={encode(LONG)}")
    table = '.attnviz-view[data-view="weights"] table'
    page.wait_for_function("(table) => document.querySelector(table)?.dataset.filled === 'false'", arg=table)
    assert page.evaluate(TABLE_CELLS_JS, table) == []
    assert "listed here when the keyboard is in the view" in page.locator(f"{table} caption").text_content()
    tab_to(page, '.attnviz-view[data-view="weights"] canvas')
    weights = next(view for view in playground_views(LONG) if view["name"] == "weights")
    assert page.evaluate(TABLE_CELLS_JS, table) == hover_numbers(weights)  # built as the focus arrived, whole


def edit_a_cell_by_keyboard(page) -> None:
    """Tab to the Q table's view, arrow to row 3's first cell, Enter, type, Enter: the edit is in the state."""
    from attnviz.classroom.share import decode

    tab_to(page, '.attnviz-view[data-view="Q"] canvas')
    for key in ("ArrowDown", "ArrowDown", "ArrowDown", "Enter"):  # the view's first key rings its first cell (0, q1)
        page.keyboard.press(key)
    editor = page.locator('.attnviz-view[data-view="Q"] .attnviz-cell-input')
    editor.wait_for()
    assert editor.get_attribute("aria-label") == "Q, row 3: not, dimension 1"
    assert editor.input_value() == "20"  # q₃ of the movie example, as the table shows it, all selected
    page.keyboard.type("5")  # over the selection
    page.keyboard.press("Enter")
    deadline = time.monotonic() + 30
    while not decode(page.url.split("s=", 1)[1]).state.edits:  # the address holds the state: wait for the edit
        assert time.monotonic() < deadline, "the typed cell never reached the state"
        page.wait_for_timeout(100)
    assert decode(page.url.split("s=", 1)[1]).state.edits == ((("Q", 3, 0), 5.0),)


UNDO_OFF_JS = "() => document.querySelector('.attnviz-button[data-field=undo]').disabled"


def test_after_the_last_undo_the_keyboard_stays_in_the_controls(page, server):
    open_app_page(page, server.url)
    tab_to(page, '.attnviz-check[data-field="causal"] input')
    page.keyboard.press("Space")
    page.wait_for_function(f"() => !({UNDO_OFF_JS})()")
    tab_to(page, ".attnviz-button[data-field=undo]")
    page.keyboard.press("Enter")  # the only move undone: Undo goes off
    page.wait_for_function(UNDO_OFF_JS)
    assert page.evaluate("() => document.activeElement.closest('.attnviz-rail') !== null")  # not the page's body


def test_streamlits_switches_and_radios_show_the_keyboards_focus(page, server):
    open_app_page(page, f"{server.url}/step_by_step")
    for control in ('[data-testid="stMain"] [data-testid="stCheckbox"] input', '[data-testid="stRadio"] input'):
        tab_to(page, control)
        ring = page.evaluate("() => getComputedStyle(document.activeElement.closest('label')).outlineStyle")
        assert ring == "solid", control


def test_the_last_next_of_step_by_step_keeps_the_keyboard_on_its_buttons(page, server):
    """Next is disabled at the last stage: the keyboard's focus moves to Back, not to the top of the page."""
    open_app_page(page, f"{server.url}/step_by_step")
    tab_to(page, ".st-key-steps-next button")
    for stage in range(2, 6):
        page.keyboard.press("Enter")
        page.locator('[data-testid="stMain"] h2').filter(has_text=f"Stage {stage} of 5").wait_for()
    page.wait_for_function("() => document.activeElement && document.activeElement.innerText.includes('Back')")
    page.keyboard.press("Enter")  # Back, from the keyboard, works at once
    page.locator('[data-testid="stMain"] h2').filter(has_text="Stage 4 of 5").wait_for()


EDITABLE_CELLS_JS = """(view) => [...document.querySelectorAll(`.attnviz-view[data-view="${view}"] table tbody td`)]
  .map((cell) => [cell.getAttribute('aria-label'), cell.textContent])"""


def test_every_cell_typed_into_has_a_name_and_a_value_and_an_open_input_passes_axe(page, server):
    """The Q, K and V tables as a screen reader reads them: each cell named as its input says it, with its value,
    and the input open over a cell (Enter on the Q view) breaks no rule."""
    open_app_page(page, server.url)
    state = OPENING
    for view, values in zip("QKV", state.matrices(), strict=True):
        cells = page.evaluate(EDITABLE_CELLS_JS, view)
        assert len(cells) == values.size
        for k, (label, text) in enumerate(cells):
            row, col = divmod(k, values.shape[1])
            assert label == f"{view}, row {state.labels[row]}, dimension {col + 1}: {text}"
            assert float(text) == values[row, col]
    tab_to(page, '.attnviz-view[data-view="Q"] canvas')
    page.keyboard.press("Enter")
    field = page.locator('.attnviz-view[data-view="Q"] .attnviz-cell-input')
    field.wait_for(state="visible")
    assert field.get_attribute("aria-label") in {f"Q, row {label}, dimension 1" for label in state.labels}
    assert field.get_attribute("inputmode") == "decimal"
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
