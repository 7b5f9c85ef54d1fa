"""The Playground in a real Chromium: what the page draws follows every control, on one screen."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from attnviz.classroom.share import decode, encode
from attnviz.core.numbers import format_number
from attnviz.core.playground_state import PlaygroundState
from attnviz.lessons.predictions import choices
from tests.support.live import (
    StreamlitServer,
    chosen_focus,
    open_app_page,
    read_views,
    type_into,
    view_control,
    view_titled,
    wait_for_app,
    wait_for_charts,
    wait_for_view_change,
    wait_for_views_to_settle,
)

SCORES, SCALED, WEIGHTS = "1. Raw scores", "2. Scores", "3. Weights"
RANDOM_BY_POSITION = encode(PlaygroundState())  # seed 42, d_k = d_v = 4: the setup these tests take apart


@pytest.fixture
def playground(page, server):
    open_app_page(page, f"{server.url}/?s={RANDOM_BY_POSITION}")
    wait_for_views_to_settle(page)
    return page


def set_sentence(page, text: str) -> None:
    box = page.get_by_label("Sentence", exact=True).and_(page.locator("input"))
    box.fill(text)
    box.press("Enter")
    wait_for_app(page)
    wait_for_charts(page)


def inside_viewport(page, box: dict) -> bool:
    size = page.viewport_size
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )


def test_the_causal_toggle_and_every_view_share_one_laptop_screen(playground):
    page = playground
    toggle = view_control(page, "Causal mask").bounding_box()
    assert inside_viewport(page, toggle)
    for title in (SCORES, SCALED, WEIGHTS, "4. Output"):
        assert inside_viewport(page, view_titled(page, title)["box"]), title


def test_causal_toggle_redraws_the_weights_with_zeros_above_the_diagonal(playground):
    page = playground
    before = view_titled(page, WEIGHTS)
    assert len(before["cells"]) == 144
    view_control(page, "Causal mask").click()
    after = wait_for_view_change(page, WEIGHTS, before)
    assert len(after["cells"]) == 78  # the 66 future cells moved to the grey "masked" series, drawn as 0
    assert float(after["cells"][(0, 0)]) == 1.0  # "The" sees only itself
    assert all(i >= j for i, j in after["cells"])


def test_a_click_brings_the_new_data_not_the_views_script_again(playground):
    """The instrument's script and styles (64 kB, shared.js) come once a page, in the router's element: a toggle's
    messages carry the views' data and a loader of under 2 kB (they were 90 kB, the script in each)."""
    page = playground
    received = []
    cdp = page.context.new_cdp_session(page)
    cdp.on("Network.webSocketFrameReceived", lambda frame: received.append(len(frame["response"]["payloadData"])))
    cdp.send("Network.enable")
    before = view_titled(page, WEIGHTS)
    view_control(page, "Causal mask").click()
    wait_for_view_change(page, WEIGHTS, before)  # then the run is over: every message of the click is in
    assert page.locator(".st-key-instrument").count() == 1
    assert 5_000 < sum(received) < 40_000  # base64 text of binary frames: 4/3 of their bytes, still under 30 kB


def test_scaling_changes_the_scaled_scores_colours_not_the_raw_ones(playground):
    page = playground
    raw, scaled = view_titled(page, SCORES), view_titled(page, SCALED)
    view_control(page, "Scale by 1/√d_k").click()
    wait_for_view_change(page, SCALED, scaled)
    unscaled = wait_for_views_to_settle(page)[next(t for t in read_views(page) if t.startswith(SCALED))]
    assert view_titled(page, SCORES)["signature"] == raw["signature"]  # the raw view keeps its colours
    assert unscaled["cells"] == raw["cells"]  # unscaled = raw, cell for cell


def test_the_address_after_a_toggle_reopens_with_that_toggle_in_a_fresh_browser(playground, browser, server):
    page = playground
    before = view_titled(page, WEIGHTS)
    view_control(page, "Causal mask").click()
    wait_for_view_change(page, WEIGHTS, before)
    page.wait_for_function("() => new URL(location.href).searchParams.get('s') !== null")
    link = current_link(page)
    assert decode(link).state.causal is True
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        fresh = context.new_page()
        open_app_page(fresh, f"{server.url}/?s={link}")
        assert view_control(fresh, "Causal mask").locator("input").is_checked()
        assert len(view_titled(fresh, WEIGHTS)["cells"]) == 78
    finally:
        context.close()


def current_link(page) -> str:
    return page.evaluate("() => new URL(location.href).searchParams.get('s')")


def test_clicking_a_cell_makes_its_row_the_focus_token(playground):
    page = playground
    page.wait_for_function("() => new URL(location.href).searchParams.get('s') !== null")
    assert decode(current_link(page)).state.focus == 4
    wait_for_app(page)  # no run under way: the click's own run is the next one
    box = view_titled(page, WEIGHTS)["box"]
    page.mouse.click(box["x"] + box["width"] * 0.6, box["y"] + 8)  # a cell in row 0, at the top of the view
    page.wait_for_function(
        "() => !new URL(location.href).searchParams.get('s').endsWith('" + current_link(page)[-6:] + "')"
    )
    wait_for_app(page)
    assert decode(current_link(page)).state.focus == 0
    assert chosen_focus(page) == "0: The"
    # A row's label works too: row 2's, left of the cells, where the view laid it out.
    at = page.evaluate(
        """() => { const v = JSON.parse(document.querySelector('.attnviz-view[data-view="weights"] canvas').dataset.layout);
                    return {x: v.left / 2, y: v.top + 2.5 * v.cellH}; }"""
    )
    page.mouse.click(box["x"] + at["x"], box["y"] + at["y"])
    page.wait_for_function(
        "() => document.querySelector('.attnviz-control[data-field=focus] select').selectedOptions[0].text === '2: was'"
    )
    wait_for_app(page)
    assert decode(current_link(page)).state.focus == 2


def test_the_slider_the_key_chips_and_the_focus_list_beside_the_views_each_make_their_move(playground):
    page = playground

    def link_after(change, *, changes_cells=True) -> object:
        before, link = view_titled(page, WEIGHTS), current_link(page)
        change()
        if changes_cells:
            wait_for_view_change(page, WEIGHTS, before)
        page.wait_for_function("(old) => new URL(location.href).searchParams.get('s') !== old", arg=link)
        wait_for_app(page)
        return decode(current_link(page)).state

    temperature = view_control(page, "Temperature τ")
    slider = temperature.get_by_role("slider")
    slider.focus()
    assert link_after(lambda: slider.press("ArrowRight")).temperature == 1.05  # one step, from the keyboard
    assert temperature.locator("output").inner_text() == "1.05"
    chip = view_control(page, "Block keys").get_by_role("button", name="3 not")
    assert link_after(chip.click).blocked_keys == (3,)
    assert chip.get_attribute("aria-pressed") == "true"
    assert all(cell[1] != 3 for cell in view_titled(page, WEIGHTS)["cells"])  # key 3 is masked in every row
    focus = view_control(page, "Focus token (query)").locator("select")
    assert link_after(lambda: focus.select_option(label="7: the"), changes_cells=False).focus == 7
    assert chosen_focus(page) == "7: the"
    assert view_control(page, "Causal mask").locator("input").get_attribute("aria-description").startswith("Each token")


def test_hovering_a_cell_names_its_query_key_and_exact_weight(playground):
    page = playground
    view = page.locator('.attnviz-view[data-view="weights"]')
    shown = view_titled(page, WEIGHTS)
    box = shown["box"]
    # Row 4, column 3: found from the view's own layout, as the browser drew it (cells end at the bottom labels).
    at = page.evaluate(
        """() => { const v = JSON.parse(document.querySelector('.attnviz-view[data-view="weights"] canvas').dataset.layout);
                    return {x: v.left + 3.5 * v.cellW, y: v.top + 4.5 * v.cellH}; }"""
    )
    page.mouse.move(box["x"] + at["x"], box["y"] + at["y"])
    tip = view.locator(".attnviz-tip")
    tip.wait_for(state="visible")
    sentence = tip.inner_text()
    assert sentence.startswith("4: good → 3: not: weight ")
    assert round(float(sentence.rsplit(" ", 1)[1]), 2) == float(shown["cells"][(4, 3)])  # 4 digits, the cell's 2


def test_editing_a_query_cell_in_the_table_changes_that_scores_row(playground):
    page = playground
    before = view_titled(page, SCORES)
    type_into(page, "Q", 3, 1, "5")  # row 3 ("3: not"), column q2, in the table below the views
    after = wait_for_view_change(page, SCORES, before)
    changed = {i for (i, j), text in after["cells"].items() if before["cells"][(i, j)] != text}
    assert changed == {3}


def test_a_new_sentence_relabels_the_axes(playground):
    page = playground
    set_sentence(page, "Attention is all you need")
    page.wait_for_function("() => document.querySelector('.attnviz-chips').innerText.includes('need')")
    wait_for_views_to_settle(page)
    assert len(view_titled(page, WEIGHTS)["cells"]) == 25


def test_html_in_the_sentence_is_text_and_runs_nothing(playground):
    page = playground
    set_sentence(page, '<script>alert(1); window.__ran = 1</script><img src=x onerror="alert(2); window.__ran = 2"> hi')
    page.wait_for_function("() => document.querySelector('.attnviz-chips').innerText.includes('onerror')")
    chips = page.locator(".attnviz-chips").inner_text()
    assert "script" in chips and "<" in chips and "img" in chips
    assert page.locator(".attnviz-chips script, .attnviz-chips img").count() == 0
    assert page.evaluate("() => window.__ran === undefined")
    assert page.locator('[data-testid="stException"]').count() == 0


def test_a_fresh_servers_first_visit_to_a_sub_page_goes_through_the_router(browser):
    """Streamlit treats a pages/ folder as a legacy multipage app until app.py has run once; each page leaves it."""
    with StreamlitServer("app.py") as fresh:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        try:
            page = context.new_page()
            open_app_page(page, f"{fresh.url}/why_scale")
            current = page.locator('[data-testid$="NavLink"][aria-current="page"] span[label]')
            assert current.get_attribute("label") == "Why we scale"
            assert page.locator('[data-testid="stSidebarNav"]').count() == 0  # the legacy sidebar menu never shows
            assert page.get_by_text("Presenter mode").count() == 1  # app.py ran: its switch is there
        finally:
            context.close()


def test_a_view_downloads_as_a_png_named_after_it(playground):
    page = playground
    with page.expect_download() as download:
        page.locator('.attnviz-view[data-view="weights"]').get_by_role("button", name="PNG").click()
    assert download.value.suggested_filename == "attnviz-weights.png"
    assert Path(download.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_open_arithmetic_tab_follows_a_toggle(playground):
    """The views rerun on their own (a fragment); the tab below them with the focus row's arithmetic must not be left
    showing the state before the toggle."""
    playground.get_by_role("tab", name="One token up close").click()
    wait_for_app(playground)
    captions = playground.locator('[data-testid="stCaptionContainer"]')
    playground.get_by_text("No mask: every query may attend to every key").wait_for()
    view_control(playground, "Causal mask").click()
    playground.get_by_text("M is −∞ where the key comes after the query (the causal mask)").wait_for()
    wait_for_app(playground)
    assert not captions.filter(has_text="No mask").count()  # the whole tab was drawn again, its table with it


def test_undo_brings_back_the_sentence_box_and_says_so(playground):
    """Undo sits beside the views (a fragment) but brings back data shown outside them: the whole page reruns."""
    box = playground.get_by_label("Sentence", exact=True).and_(playground.locator("input"))
    before = box.input_value()
    set_sentence(playground, "one two three")
    playground.get_by_role("button", name="Undo").click()
    playground.get_by_text("Undone: the sentence is back; “good” is the focus token again.").wait_for()
    wait_for_app(playground)
    assert box.input_value() == before
    assert len(view_titled(playground, WEIGHTS)["cells"]) == 144  # the 12 tokens are back in the views too


def test_the_share_box_shows_the_address_as_it_is_after_a_toggle(playground):
    """The box is drawn once, outside the views; it reads the address, which every toggle keeps equal to the link."""
    before = view_titled(playground, WEIGHTS)
    view_control(playground, "Causal mask").click()
    wait_for_view_change(playground, WEIGHTS, before)
    playground.wait_for_function("() => new URL(location.href).searchParams.get('s') !== null")
    playground.get_by_role("button", name="Share").click()
    shown = playground.locator(".attnviz-address")
    shown.wait_for(state="visible")
    assert shown.inner_text() == playground.url
    assert decode(current_link(playground)).state.causal is True


def palette_colour(stops: list[str], low: float, high: float, position: float) -> list[float]:
    """A position's colour on a palette of evenly spaced stops, linearly between them (an independent reckoning of
    what the view must draw)."""
    rgb = [[int(stop[i : i + 2], 16) for i in (1, 3, 5)] for stop in stops]
    t = min(max((position - low) / (high - low), 0.0), 1.0) * (len(stops) - 1)
    k = min(int(t), len(stops) - 2)
    return [a + (b - a) * (t - k) for a, b in zip(rgb[k], rgb[k + 1], strict=True)]


@pytest.mark.parametrize("view", ["weights", "scaled"])
def test_a_cell_is_drawn_in_its_values_colour_on_the_views_fixed_scale(playground, view):
    from attnviz.core.playground_state import PlaygroundState
    from attnviz.figures.matrix_view import Scale
    from attnviz.playground.views import reach_of_scores

    result = PlaygroundState().result()  # what the page shows before any move
    value, scale = {
        "weights": (result.weights[6, 3], Scale("weights")),
        "scaled": (result.scaled[6, 3], Scale("signed", reach_of_scores(result))),
    }[view]
    drawn = playground.evaluate(
        """(name) => {
          const canvas = document.querySelector(`.attnviz-view[data-view="${name}"] canvas`);
          const box = JSON.parse(canvas.dataset.layout), ratio = window.devicePixelRatio || 1;
          // Row 6, column 3, 3 px inside the cell's top left corner: away from its number and any box.
          const x = Math.round((box.left + 3 * box.cellW + 3) * ratio), y = Math.round((box.top + 6 * box.cellH + 3) * ratio);
          return Array.from(canvas.getContext('2d').getImageData(x, y, 1, 1).data.slice(0, 3));
        }""",
        view,
    )
    want = palette_colour(scale.colours, *scale.range, float(scale.positions(np.array([value]))[0]))
    assert all(abs(d - w) <= 2 for d, w in zip(drawn, want, strict=True)), (drawn, want)


def test_help_opens_with_a_click_or_a_key_not_only_a_hover(playground):
    causal = view_control(playground, "Causal mask")
    about = playground.get_by_role("button", name="About Causal mask")
    help_line = causal.locator(".attnviz-help")
    assert not help_line.is_visible() and about.get_attribute("aria-expanded") == "false"
    about.click()  # a tap on a phone is this click
    help_line.wait_for(state="visible")
    assert help_line.text_content() == "Each token sees only itself and earlier ones."
    assert not causal.locator("input").is_checked()  # the (i) sits in the label; its click does not tick the box
    about.press("Enter")  # and from the keyboard
    help_line.wait_for(state="hidden")
    assert about.get_attribute("aria-expanded") == "false"


def test_a_toggle_never_moves_the_controls(page, server):
    """The example's note changes with a toggle (its numbers follow the state); it sits below the controls, so the box
    a student just clicked stays under the pointer."""
    open_app_page(page, server.url)  # the first screen: a worked example, with its note
    wait_for_views_to_settle(page)
    box = view_control(page, "Causal mask").locator("input")
    before = box.bounding_box()
    note = page.locator('.attnviz-instrument[data-bare="false"] .attnviz-rail .attnviz-note').text_content()
    box.click()
    page.wait_for_function(
        "note => document.querySelector('.attnviz-instrument[data-bare=false] .attnviz-rail .attnviz-note').textContent !== note", arg=note
    )
    assert page.locator('.attnviz-instrument[data-bare="false"] .attnviz-rail .attnviz-note').text_content().startswith("You have moved away from the example")
    assert box.bounding_box() == before


def test_a_view_is_read_cell_by_cell_from_the_keyboard(playground):
    """One tab stop a view; the arrow keys move a cell at a time and its sentence is said; Enter focuses its row."""
    page = playground
    weights = PlaygroundState().result().weights  # the link's setup: seed 42, d_k = 4
    said = page.locator('.attnviz-view[data-view="weights"] p.attnviz-sr')
    assert said.get_attribute("aria-live") == "polite"
    page.locator('.attnviz-view[data-view="weights"] canvas').focus()  # as Tab lands on it
    said.filter(has_text=f"4: good → 0: The: weight {format_number(weights[4, 0])}").wait_for()
    for key in ("ArrowRight", "ArrowRight", "ArrowUp"):
        page.keyboard.press(key)
    said.filter(has_text=f"3: not → 2: was: weight {format_number(weights[3, 2])}").wait_for()
    before = current_link(page)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.attnviz-control[data-field=focus] select').selectedOptions[0].text === '3: not'"
    )
    # The address follows in the same run, after the views: waited for, then read.
    page.wait_for_function("(old) => new URL(location.href).searchParams.get('s') !== old", arg=before)
    assert decode(current_link(page)).state.focus == 3


def test_on_a_phone_the_controls_stay_beside_the_view_they_change_and_nothing_scrolls_sideways(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        open_app_page(page, server.url)
        wait_for_views_to_settle(page)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        output = page.locator('.attnviz-view[data-view="output"] canvas')
        output.scroll_into_view_if_needed()  # the last view, far down the page
        causal = view_control(page, "Causal mask").locator("input")
        assert inside_viewport(page, causal.bounding_box())  # the bar of controls came along
        box = output.bounding_box()
        assert box["width"] >= 300 and box["y"] < 844  # one view a row, as wide as the phone
        causal.tap()
        page.locator(".attnviz-note-below").filter(
            has_text="You have moved away from the example (causal mask on)"
        ).wait_for()
    finally:
        context.close()


def test_on_a_laptop_nothing_scrolls_sideways(playground):
    assert playground.evaluate("() => document.documentElement.scrollWidth") <= 1280


def test_predict_mode_asks_then_reveals_with_a_click_on_the_covered_view(playground):
    page = playground
    view_control(page, "Predict first").locator("select").select_option(index=1)  # which key gets the most?
    cover = page.locator('.attnviz-view[data-view="weights"] .attnviz-cover')
    cover.filter(has_text="Which key will “good” attend to most?").wait_for()
    wait_for_app(page)
    box = view_titled(page, WEIGHTS)["box"]
    at = page.evaluate(
        """() => JSON.parse(document.querySelector('.attnviz-view[data-view="weights"] canvas').dataset.layout)"""
    )
    weights = PlaygroundState(predict="most").result().weights
    best = int(np.argmax(weights[4]))
    page.mouse.click(box["x"] + at["left"] + (best + 0.5) * at["cellW"], box["y"] + at["top"] + 4.5 * at["cellH"])
    cover.wait_for(state="hidden")
    page.locator(".attnviz-caption").filter(has_text="Right: you predicted").wait_for()
    assert decode(current_link(page)).state.predict  # in the link: a teacher can share a setup that asks first


def test_the_mask_question_is_answered_by_clicking_keys_then_check(playground):
    page = playground
    view_control(page, "Predict first").locator("select").select_option(index=3)
    cover = page.locator('.attnviz-view[data-view="weights"] .attnviz-cover')
    cover.filter(has_text="which keys would it set to 0 in “good”'s row?").wait_for()
    wait_for_app(page)
    box = view_titled(page, WEIGHTS)["box"]
    at = page.evaluate(
        """() => JSON.parse(document.querySelector('.attnviz-view[data-view="weights"] canvas').dataset.layout)"""
    )
    asked = PlaygroundState(predict="zeroed")
    for col in range(5, 12):  # every key after “good” (4), each drawn as picked before the next click
        page.mouse.click(box["x"] + at["left"] + (col + 0.5) * at["cellW"], box["y"] + at["top"] + 4.5 * at["cellH"])
        cover.get_by_role("button", name=choices(asked, tuple(range(5, col + 1)))[0], exact=True).wait_for()
        wait_for_app(page)
    cover.get_by_role("button", name=choices(asked, tuple(range(5, 12)))[0], exact=True).click()
    cover.wait_for(state="hidden")
    page.locator(".attnviz-caption").filter(has_text="(outlined in view 3): right.").wait_for()


def test_sharper_or_flatter_is_answered_with_a_button_on_the_cover(playground):
    page = playground
    view_control(page, "Predict first").locator("select").select_option(index=2)
    cover = page.locator('.attnviz-view[data-view="weights"] .attnviz-cover')
    cover.filter(has_text="If scaling were switched off (÷ √d_k = ÷ ").filter(
        has_text="would “good”'s row get sharper"
    ).wait_for()
    wait_for_app(page)
    cover.get_by_role("button", name="Sharper").click()
    cover.wait_for(state="hidden")
    page.locator(".attnviz-caption").filter(has_text="You predicted sharper: right.").wait_for()
    assert not view_control(page, "Scale by 1/√d_k").locator("input").is_checked()  # the switch was made
