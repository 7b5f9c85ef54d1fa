"""Two hundred values typed into random cells of Q, K and V on a server whose one core a busy process shares, in the
four ways students type: keyboard only, a click then the number, a quick double-click then the number, and a tap on a
phone then the number. Between them, the moves that used to drop or move an edit in flight: toggles (a run of the
views' fragment) and focus clicks, with a class question open on the same server and phones answering it. Every value must land in the
cell it was aimed at, none lost and none elsewhere: read back from the session (the share link in the address) and
from the tables screen readers read."""

from __future__ import annotations

import random

import numpy as np

from attnviz.classroom.share import decode
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_class_join import PHONE, PROJECTOR, ask_the_class
from tests.e2e.test_class_room import tap_key
from tests.e2e.test_playground import RANDOM_BY_POSITION, current_link
from tests.support.live import open_app_page, view_control, wait_for_app, wait_for_views_to_settle

VALUES = 200
DESKTOP = {"width": 1280, "height": 800}
MATRICES = ("Q", "K", "V")
WAIT_MS = 180_000  # a bound for a state a busy core reaches late; every wait ends as soon as the state is there

CURSOR_JS = """(view) => {
  const said = document.querySelector(`.attnviz-view[data-view="${view}"] p.attnviz-sr`)?.textContent ?? '';
  const match = said.match(/row (\\d+):.*?, dimension (\\d+)/);
  return match && document.activeElement?.closest?.('.attnviz-view')?.dataset.view === view
    ? [Number(match[1]), Number(match[2]) - 1] : null;
}"""
FOCUSED_JS = "(selector) => document.activeElement?.matches(selector) ?? false"
READER_JS = """(view) => [...document.querySelectorAll(`.attnviz-view[data-view="${view}"] .attnviz-sr tbody tr`)]
  .map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent))"""
SETTLED_JS = """() => [...document.querySelectorAll('.attnviz-instrument')]
  .every((instrument) => instrument.dataset.pending !== undefined ? instrument.dataset.pending === '0'
    && instrument.dataset.editing !== 'true' : true)"""


def number_text(rng: random.Random) -> str:
    """A number a student might type: up to three decimals, either sign, within the tables' ±1000."""
    return f"{rng.choice((-1, 1)) * rng.uniform(0, 999):.{rng.randint(0, 3)}f}"


def canvas_of(page, view: str):
    canvas = page.locator(f'.attnviz-view[data-view="{view}"] canvas').first
    # In the middle of the screen: a lesson's bar stays over the top of the page as it scrolls.
    canvas.evaluate("canvas => canvas.scrollIntoView({block: 'center'})")
    page.wait_for_function("(canvas) => !!canvas.dataset.layout", arg=canvas.element_handle(), timeout=WAIT_MS)
    return canvas


def tab_to(page, selector: str, *, key: str = "Tab", limit: int = 120) -> None:
    """Presses ``key`` until the element focused matches ``selector``, as a keyboard user moves through the page."""
    for _ in range(limit):
        if page.evaluate(FOCUSED_JS, selector):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {selector}")


def cell_point(canvas, i: int, j: int) -> dict:
    at = canvas.evaluate("canvas => JSON.parse(canvas.dataset.layout)")
    return {"x": at["left"] + (j + 0.5) * at["cellW"], "y": at["top"] + (i + 0.5) * at["cellH"]}


def type_then_enter(page, view: str, text: str, *, opened: bool) -> None:
    """The number typed (its first key opens the input, unless a double-click or tap ``opened`` it), then Enter."""
    field = page.locator(f'.attnviz-view[data-view="{view}"] .attnviz-cell-input')
    if opened:
        field.wait_for(state="visible", timeout=WAIT_MS)
    page.keyboard.type(text[0])
    field.wait_for(state="visible", timeout=WAIT_MS)
    page.keyboard.type(text[1:])
    page.keyboard.press("Enter")


def by_keyboard(page, view: str, i: int, j: int, text: str) -> None:
    """Tab to the table (Shift+Tab back), the arrow keys to the cell (the cell said as the cursor moves), the number,
    Enter. Each key is pressed only where it is meant to go: a key that found the focus elsewhere fails the test."""
    canvas = f'.attnviz-view[data-view="{view}"] canvas'
    here = page.evaluate("() => document.activeElement?.closest?.('.attnviz-view')?.dataset.view ?? ''")
    back = here in MATRICES and MATRICES.index(here) > MATRICES.index(view)
    tab_to(page, canvas, key="Shift+Tab" if back else "Tab")
    row, col = page.evaluate(CURSOR_JS, view)
    for key, steps in (("ArrowDown", i - row), ("ArrowUp", row - i), ("ArrowRight", j - col), ("ArrowLeft", col - j)):
        for _ in range(max(0, steps)):
            assert page.evaluate(FOCUSED_JS, canvas), f"the focus left {view} before {key}"
            page.keyboard.press(key)
    assert page.evaluate(CURSOR_JS, view) == [i, j]
    type_then_enter(page, view, text, opened=False)


def by_click(page, view: str, i: int, j: int, text: str) -> None:
    canvas = canvas_of(page, view)
    canvas.click(position=cell_point(canvas, i, j))
    type_then_enter(page, view, text, opened=False)


def by_double_click(page, view: str, i: int, j: int, text: str) -> None:
    canvas = canvas_of(page, view)
    canvas.dblclick(position=cell_point(canvas, i, j))  # two clicks as fast as Chromium takes them
    type_then_enter(page, view, text, opened=True)


def still_box(page, canvas) -> dict:
    """The canvas's box on the screen once it stands still (a tap goes to a point, not to an element, so it is aimed
    where the canvas is, not where it was a frame ago while the page scrolled)."""
    box = None
    while box != (box := canvas.bounding_box()):
        page.evaluate("() => new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)))")
    return box


def by_tap(page, view: str, i: int, j: int, text: str) -> None:
    canvas = canvas_of(page, view)
    box, point = still_box(page, canvas), cell_point(canvas, i, j)
    page.touchscreen.tap(box["x"] + point["x"], box["y"] + point["y"])
    type_then_enter(page, view, text, opened=True)


def session_matrices(page) -> list[np.ndarray]:
    page.wait_for_function("() => new URL(location.href).searchParams.get('s') !== null", timeout=WAIT_MS)
    return [m.copy() for m in decode(current_link(page)).state.matrices()]


def settled(page) -> None:
    """Every edit echoed and no input open, and the run that drew it over."""
    page.wait_for_function(SETTLED_JS, timeout=WAIT_MS)
    wait_for_app(page, timeout_ms=WAIT_MS)


def open_tables(page) -> None:
    page.get_by_role("tab", name="Q, K and V").click()
    canvas_of(page, "Q")


def read_back(page, expected: list[np.ndarray]) -> None:
    settled(page)
    page.wait_for_function(
        "(want) => want.every(([view, rows]) => document.querySelectorAll("
        '`.attnviz-view[data-view="${view}"] .attnviz-sr tbody tr`).length === rows)',
        arg=[[view, m.shape[0]] for view, m in zip(MATRICES, expected, strict=True)],
        timeout=WAIT_MS,
    )
    for view, want, got in zip(MATRICES, expected, session_matrices(page), strict=True):
        assert np.array_equal(got, want), f"{view} in the session differs at {np.argwhere(got != want).tolist()}"
        shown = np.array([[float(t.replace("−", "-")) for t in row] for row in page.evaluate(READER_JS, view)])
        assert np.array_equal(shown, want), f"{view}'s table for screen readers differs at {np.argwhere(shown != want)}"


def test_two_hundred_values_typed_four_ways_on_a_busy_server_each_land_in_their_cell(browser, busy_server):
    rng = random.Random(53)
    desk_context, teacher_context = browser.new_context(viewport=DESKTOP), browser.new_context(viewport=PROJECTOR)
    phone_context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    answering = [browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True) for _ in range(4)]
    try:
        teacher = teacher_context.new_page()  # a class question open on the same server, its bars refreshing
        _, address = ask_the_class(teacher, busy_server.url)
        desk, phone = desk_context.new_page(), phone_context.new_page()
        for page in (desk, phone):
            open_app_page(page, f"{busy_server.url}/?s={RANDOM_BY_POSITION}", timeout_ms=WAIT_MS)
            wait_for_views_to_settle(page, timeout_ms=WAIT_MS)
            open_tables(page)
        expected = {page: session_matrices(page) for page in (desk, phone)}
        ways = [(desk, by_keyboard)] * 50 + [(desk, by_click)] * 50 + [(desk, by_double_click)] * 50
        ways += [(phone, by_tap)] * 50
        rng.shuffle(ways)
        assert len(ways) == VALUES
        for number, (page, way) in enumerate(ways):
            view = rng.choice(MATRICES)
            rows, cols = expected[page][MATRICES.index(view)].shape
            i, j, text = rng.randrange(rows), rng.randrange(cols), number_text(rng)
            try:
                way(page, view, i, j, text)
            except Exception as error:  # what each screen showed, for the report
                for name, shown in (("desk", desk), ("phone", phone)):
                    shown.screenshot(path=str(SCREENSHOTS / f"typing-failed-{name}.png"))
                raise AssertionError(f"value {number}: {way.__name__} {text} into {view}[{i}, {j}]") from error
            expected[page][MATRICES.index(view)][i, j] = float(text)
            shapes = [m.shape for m in session_matrices(page)]
            if shapes != [m.shape for m in expected[page]]:
                page.screenshot(path=str(SCREENSHOTS / "typing-reshaped.png"))
                raise AssertionError(
                    f"value {number} ({way.__name__} {text} into {view}[{i}, {j}]) reshaped to {shapes}"
                )
            if number % 10 == 7:  # a toggle (a run of the views' fragment), then a focus click, an edit in flight
                view_control(page, "Causal mask").locator("input").click()
                weights = canvas_of(page, "weights")
                weights.click(position=cell_point(weights, rng.randrange(rows), 0))
            if number % 50 == 20:  # a student answers the class question: the store and the server get busier
                student = answering[number // 50].new_page()
                open_app_page(student, address, timeout_ms=WAIT_MS)
                tap_key(student, rng.randrange(3))
        for page in (desk, phone):
            read_back(page, expected[page])
    finally:
        for context in (desk_context, teacher_context, phone_context, *answering):
            context.close()
