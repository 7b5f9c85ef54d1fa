"""The app as a keyboard user, a screen reader user and a phone meet it: every page walked by the keyboard
and read from Chromium's accessibility tree (what a screen reader is given), at a laptop's, a small laptop's and a
phone's size. axe (tests/e2e/test_accessibility.py) does not catch a doubled name or a page that slides sideways."""

from __future__ import annotations

import re
from itertools import pairwise

import numpy as np
import pytest

from attnviz.lessons.playground import MATRIX_ROLES, OPENING
from attnviz.pages import PAGES
from tests.e2e.test_accessibility import tab_to
from tests.figures.test_contrast import ratio
from tests.support.live import VIEW_CANVAS, open_app_page, view_control, wait_for_app

SIZES = {"laptop": (1280, 800), "small laptop": (1024, 768), "phone": (390, 844)}
PATHS = {page.name: "" if page.name == "playground" else page.name for page in PAGES}
# Sideways: the page, its main block, and any formula box (KaTeX scrolls a wide one inside itself; its box, shrunk to
# fit, comes out up to 2 px narrower than what it holds, which no one can see or scroll by).
SIDEWAYS_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const formulas = [...document.querySelectorAll('.katex-display')].filter((box) => box.scrollWidth > box.clientWidth + 2);
  return { page: document.documentElement.scrollWidth - innerWidth, main: main.scrollWidth - main.clientWidth,
    formulas: formulas.map((box) => box.scrollWidth - box.clientWidth) };
}"""
# What a screen reader can land on and act on: each must have a name, said once.
CONTROL_ROLES = {
    "button", "checkbox", "combobox", "slider", "textbox", "spinbutton", "radio", "switch", "link", "tab", "menuitem",
    "searchbox", "listbox",
}  # fmt: skip
FIRST_VIEW = VIEW_CANVAS


def opened(browser, server, page_name: str, size: tuple[int, int]):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.set_default_timeout(60_000)
    open_app_page(page, f"{server.url}/{PATHS[page_name]}")
    return context, page


def arrows_in_the_first_view(page) -> None:
    """Tab's way into the first view (as the keyboard gets there, so the browser scrolls it into sight), then arrows."""
    first = page.locator(".attnviz-view canvas")  # a view, or a table typed into (Multi-head's X)
    if not first.count():
        return
    first.first.focus()
    for key in ("ArrowDown", "ArrowRight", "ArrowRight", "End", "PageDown", "ArrowLeft"):
        page.keyboard.press(key)
    said = re.compile("→|, dimension ")  # a view's cell, or a table's
    page.locator(".attnviz-view p.attnviz-sr").first.filter(has_text=said).wait_for()  # the cell said


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
@pytest.mark.parametrize("page_name", list(PATHS), ids=list(PATHS))
def test_no_page_scrolls_sideways_before_or_after_the_keyboard(browser, server, page_name, size):
    context, page = opened(browser, server, page_name, SIZES[size])
    try:
        assert page.evaluate(SIDEWAYS_JS) == {"page": 0, "main": 0, "formulas": []}
        arrows_in_the_first_view(page)
        assert page.evaluate(SIDEWAYS_JS) == {"page": 0, "main": 0, "formulas": []}
    finally:
        context.close()


def test_step_by_steps_last_formula_fits_a_phone(browser, server):
    context, page = opened(browser, server, "step_by_step", SIZES["phone"])
    try:
        for stage in range(2, 6):
            page.locator(".st-key-steps-next button").click()
            page.locator('[data-testid="stMain"] h2').filter(has_text=f"Stage {stage} of 5").wait_for()
            wait_for_app(page)
        assert page.locator(".katex-display").filter(has_text="out").count() == 1
        assert page.evaluate(SIDEWAYS_JS) == {"page": 0, "main": 0, "formulas": []}
    finally:
        context.close()


def doubled(name: str) -> str | None:
    """A run of two or more words (six characters or more) said twice in ``name``, as in "Causal mask About Causal
    mask", or None."""
    words = name.split()
    for length in range(2, len(words) // 2 + 1):
        for start in range(len(words) - length + 1):
            run = words[start : start + length]
            later = (words[k : k + length] for k in range(start + length, len(words) - length + 1))
            if len(" ".join(run)) >= 6 and run in later:
                return " ".join(run)
    return None


def test_doubled_finds_a_name_said_twice():
    assert doubled("Causal mask About Causal mask") == "Causal mask"
    assert doubled("d_k (size of queries and keys) d_k (size of queries and keys)") == "d_k (size"
    assert doubled("Save Layer 1, head 1: weights as PNG") is None


def controls(page) -> list[tuple[str, str]]:
    """(role, name) of every control in Chromium's accessibility tree, of every focusable image (a view) or canvas
    (a data grid: st.dataframe), and of every grid (the table a data grid holds for readers)."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    found = []
    for node in nodes:
        role = node.get("role", {}).get("value")
        focusable = any(p["name"] == "focusable" and p["value"].get("value") for p in node.get("properties", []))
        if not node.get("ignored") and (
            role in CONTROL_ROLES | {"grid"} or (role in ("image", "Canvas") and focusable)
        ):
            found.append((role, node.get("name", {}).get("value", "").strip()))
    return found


@pytest.mark.parametrize("page_name", list(PATHS), ids=list(PATHS))
def test_every_control_has_one_name_said_once(browser, server, page_name):
    context, page = opened(browser, server, page_name, SIZES["laptop"])
    try:
        found = controls(page)
        assert found
        assert [role for role, name in found if not name] == []
        assert [(role, name) for role, name in found if doubled(name)] == []
        if page_name == "playground":  # the two the label's (i) used to take, and one it doubled
            assert {("combobox", "Predict first"), ("combobox", "Focus token (query)")} <= set(found)
            assert ("checkbox", "Causal mask") in found
            views = {name for role, name in found if role in ("image", "Canvas")}  # the Q, K and V tables are views
            for matrix in "QKV":  # each named by its heading, as its view's title says it
                assert any(name.startswith(f"{matrix}: {MATRIX_ROLES[matrix]}, one row a token") for name in views)
    finally:
        context.close()


def focused(page) -> str:
    return page.evaluate("() => document.activeElement?.matches('.attnviz-view canvas') ? 'view' : "
                         "(document.activeElement?.className || document.activeElement?.tagName || '')")  # fmt: skip


def tab_to_the_first_view(page, most: int = 15) -> None:
    """Tabs from load to the first view, pressing Enter on "Skip to the views"; fails past ``most`` Tabs."""
    tabs = 0
    while focused(page) != "view":
        assert tabs < most, f"the first view is not reached in {most} Tabs (now on {focused(page)!r})"
        page.keyboard.press("Tab")
        tabs += 1
        if focused(page) == "attnviz-skip":
            page.keyboard.press("Enter")


def test_the_playground_by_keyboard_tabs_undo_and_views(page, server):
    """From load, the first view within 15 Tabs (Enter on "Skip to the views" allowed); one Tab stop a view; after
    Undo by keyboard the focus stays in the controls."""
    open_app_page(page, server.url)
    tab_to_the_first_view(page)
    canvases = page.locator(FIRST_VIEW)
    assert page.evaluate("(c) => document.activeElement === c", canvases.nth(0).element_handle())
    for k in range(1, canvases.count()):  # each view is one stop: Tab goes from canvas to canvas
        page.keyboard.press("Tab")
        assert page.evaluate("(c) => document.activeElement === c", canvases.nth(k).element_handle())
    tab_to(page, '.attnviz-check[data-field="causal"] input')
    page.keyboard.press("Space")
    undo = page.locator(".attnviz-rail button[data-field=undo]")
    page.wait_for_function("(undo) => !undo.disabled", arg=undo.element_handle())
    tab_to(page, ".attnviz-rail button[data-field=undo]")
    page.keyboard.press("Enter")
    page.wait_for_function("(undo) => undo.disabled", arg=undo.element_handle())  # the one move undone
    page.wait_for_function("() => document.activeElement?.closest('.attnviz-rail') !== null")
    assert not view_control(page, "Causal mask").locator("input").is_checked()


def test_the_block_keys_chips_are_one_tab_stop_walked_by_the_arrows(page, server):
    open_app_page(page, server.url)
    tab_to(page, ".attnviz-toggle")
    assert page.evaluate("() => document.activeElement.value") == "0"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.value") == "2"
    page.keyboard.press("Tab")
    assert not page.evaluate("() => document.activeElement.matches('.attnviz-toggle')")


def rgba(css: str) -> tuple[np.ndarray, float]:
    numbers = [float(x) for x in re.findall(r"[\d.]+", css)]
    return np.array(numbers[:3]), numbers[3] if len(numbers) > 3 else 1.0


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_navigations_focus_on_the_current_page_stands_out(browser, server, scheme):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
    try:
        page = context.new_page()
        open_app_page(page, server.url)
        tab_to(page, '[data-testid="stTopNavLink"][aria-current="page"]')
        ring = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
          return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), colour: s.outlineColor,
            background: getComputedStyle(document.querySelector('[data-testid="stHeader"]')).backgroundColor }; }""")
        (colour, alpha), (background, _) = rgba(ring["colour"]), rgba(ring["background"])
        assert ring["style"] == "solid" and ring["width"] >= 2
        assert ratio(colour * alpha + background * (1 - alpha), background) >= 3  # WCAG 1.4.11
    finally:
        context.close()


def test_a_covered_view_keeps_the_keyboard_on_the_row_asked(page, server):
    open_app_page(page, server.url)
    view_control(page, "Predict first").locator("select").select_option(index=1)  # which key gets the most?
    weights = page.locator('.attnviz-view[data-view="weights"]')
    weights.locator(".attnviz-cover").filter(has_text="Which key will “good” attend to most?").wait_for()
    wait_for_app(page)
    tab_to(page, '.attnviz-view[data-view="weights"] canvas')
    said = weights.locator("p.attnviz-sr")
    said.filter(has_text="4: good → 0: The: press Enter to predict this key").wait_for()
    best = int(np.argmax(OPENING.result().weights[4]))  # the opening's weights: what the cover hides
    for key in ["ArrowUp", "ArrowUp"] + ["ArrowRight"] * best:  # up a row: the keyboard stays on the row asked
        page.keyboard.press(key)
    said.filter(has_text=re.compile(rf"^4: good → {best}: .*: press Enter to predict this key$")).wait_for()
    page.keyboard.press("Enter")  # the answer, for the row asked
    page.locator(".attnviz-caption").filter(
        has_text=f"Right: you predicted “{OPENING.tokens[best]}” ({best})"
    ).wait_for()


def test_the_real_model_reads_by_layer_and_says_the_sink_switch(page, server):
    open_app_page(page, f"{server.url}/real_model")
    overview = page.locator('.attnviz-view[data-view="heads"]')
    assert overview.locator("table").evaluate("table => table.hidden && !table.rows.length")  # not 18,432 cells
    shape = re.search(
        r"(\d+) layers × (\d+) heads", page.locator('[data-testid="stCaptionContainer"]').first.inner_text()
    )
    layers = page.locator(".attnviz-unseen table")
    assert layers.count() == int(shape[1])  # a table a layer
    assert layers.first.locator("caption").inner_text() == "Layer 1: what each head does"
    assert layers.first.locator("tbody tr").count() == int(shape[2])  # a head a row
    status = page.locator('[role="status"]').filter(has_text="Sinks")
    assert status.inner_text().startswith("Sinks shown")
    page.get_by_text("Hide the attention sinks").click()
    status.filter(has_text="Sinks hidden: the columns of").wait_for()
    assert status.count() == 1  # the same live region, its words changed: a screen reader says them
    lines = page.locator('[data-testid="stEChartsChart"][aria-label*="who looks at whom"]')
    assert "looks most at" in lines.get_attribute("aria-label")


def test_pages_with_views_have_h2_after_h1(browser, server):
    """heading-order: no h3 straight after the h1 on Step by step and Lesson plans."""
    for page_name in ("step_by_step", "lesson_plans"):
        context, page = opened(browser, server, page_name, SIZES["laptop"])
        try:
            levels = page.evaluate(
                "() => [...document.querySelectorAll('[data-testid=stMain] h1, [data-testid=stMain] h2, "
                "[data-testid=stMain] h3')].map((h) => Number(h.tagName[1]))"
            )
            assert all(b - a <= 1 for a, b in pairwise(levels)), (page_name, levels)
        finally:
            context.close()


def test_tab_never_stops_on_main_or_a_headings_link(page, server):
    """<main> (no visible focus) and each heading's "Link to heading" were Tab stops that lead nowhere."""
    open_app_page(page, f"{server.url}/geometry")
    stops = []
    for _ in range(40):
        page.keyboard.press("Tab")
        stops.append(page.evaluate(
            "() => [document.activeElement.tagName, document.activeElement.getAttribute('aria-label') || '']"
        ))  # fmt: skip
    assert ["MAIN", ""] not in stops and not [stop for stop in stops if stop[1] == "Link to heading"], stops
    assert any(tag == "INPUT" for tag, _ in stops)  # the walk reached the page's own controls
