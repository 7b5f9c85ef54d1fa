"""The Real model page in a real Chromium: a click on the overview picks a head, and Open in Playground shows that
head's own weights on the Playground."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz.core.numbers import format_fixed
from attnviz.figures.real_model import head_maps, overview
from attnviz.lessons.real_model import overview_side
from attnviz.models import load_model
from tests.models.conftest import require_package
from tests.support.live import view_titled, wait_for_app, wait_for_charts, wait_for_views_to_settle

SENTENCE = "The animal didn't cross the street because it was too tired."
MODEL = "all-MiniLM-L6-v2"

# Where the overview's cells are on the page: its canvas's box and the layout the component drew it with (CSS px).
CELLS_JS = """
() => {
  const canvas = document.querySelector('.attnviz-view[data-view="heads"] canvas');
  const box = canvas.getBoundingClientRect();
  return {x: box.x, y: box.y, ...JSON.parse(canvas.dataset.layout)};
}
"""


@pytest.fixture
def real_model(page, server):
    require_package(MODEL)
    page.goto(f"{server.url}/real_model")
    wait_for_app(page, timeout_ms=120_000)
    wait_for_charts(page, timeout_ms=120_000)  # the encoder loads on the server's worker thread first
    wait_for_views_to_settle(page)
    return page


def test_the_overview_reads_as_a_table_a_layer_not_its_thousands_of_cells(real_model):
    """The overview's 4,608 cells travel packed (a code a cell) for the picture and its hover; a screen reader gets a
    table a layer instead (each head's shares and pattern), not the picture's cells one by one."""
    run = load_model(MODEL).run(SENTENCE)
    n_layers, n_heads = run.attention.shape[:2]
    side = overview_side(n_layers * n_heads, len(run.tokens))
    view, _ = overview(head_maps(run.attention, run.tokens, side=side), chosen=(0, 0))
    assert isinstance(view["numbers"], dict)  # packed
    real_model.locator('.attnviz-view[data-view="heads"] canvas').focus()
    read = real_model.evaluate(
        """() => ({
             picture: document.querySelector('.attnviz-view[data-view="heads"] table')?.rows.length ?? 0,
             layers: [...document.querySelectorAll('.attnviz-unseen table')].map((table) => [
               table.caption.textContent, table.tBodies[0].rows.length]),
           })"""
    )
    assert read["picture"] == 0
    assert read["layers"] == [[f"Layer {layer + 1}: what each head does", n_heads] for layer in range(n_layers)]


def test_a_click_on_the_overview_picks_that_head_and_it_opens_in_the_playground(real_model):
    page = real_model
    assert view_titled(page, "Layer 1, head 1: weights")
    cells = page.evaluate(CELLS_JS)  # 16 tokens: a map of 16 × 16 cells a head
    # The encoder's 12 heads run across and its 6 layers down: layer 2, head 4 is one map down, three across.
    row, col = 1 * 16 + 8, 3 * 16 + 8
    page.mouse.click(
        cells["x"] + cells["left"] + (col + 0.5) * cells["cellW"],
        cells["y"] + cells["top"] + (row + 0.5) * cells["cellH"],
    )
    page.wait_for_function(
        """() => [...document.querySelectorAll('.attnviz-view-title')].some(t => t.textContent === 'Layer 2, head 4: weights')""",
        timeout=30_000,
    )
    wait_for_app(page)
    assert "Layer 2, head 4." in page.locator('[data-testid="stMarkdown"]').filter(has_text="Of the attention of this sentence").inner_text()

    page.get_by_role("button", name="Open in Playground").click()
    page.wait_for_function("() => location.pathname === '/' || location.pathname.endsWith('/')", timeout=30_000)
    wait_for_app(page)
    wait_for_charts(page)
    weights = wait_for_views_to_settle(page)
    title = next(t for t in weights if t.startswith("3. Weights"))
    run = load_model(MODEL).run(SENTENCE)
    expected = {(i, j): float(format_fixed(float(w))) for (i, j), w in np.ndenumerate(run.attention[1, 3])}
    shown = {cell: float(text) for cell, text in weights[title]["cells"].items()}  # the aria label drops "0.20"'s 0
    assert shown == expected  # the model's own weights, to the digits the Playground shows
    assert page.get_by_text(f"{MODEL}, layer 2, head 4 is on the Playground").count() == 1
    assert page.locator(".attnviz-chips").inner_text().count("[CLS]") == 1


HEAD_MAP, CHECK_MAP = '.attnviz-view[data-view="head"]', '.attnviz-view[data-view="explain"]'


def box(page, shown: str) -> dict:
    """The bounding box of a view (by selector) or of the switch between the views."""
    if shown == "switch":
        return page.get_by_role("radiogroup", name="Show the chosen head as").bounding_box()
    return page.locator(shown).first.bounding_box()


def test_the_check_sits_beside_the_chosen_heads_map(real_model):
    """The head's three views, the sinks' share and Take this token away in a column beside its map."""
    page = real_model
    head = box(page, HEAD_MAP)
    sinks_line = page.locator('[data-testid="stMarkdown"]').filter(has_text="The sinks' share").first.bounding_box()
    take_away = page.locator('[data-testid="stSelectbox"]').filter(has_text="Take this token away").bounding_box()
    for beside in (box(page, "switch"), box(page, CHECK_MAP), sinks_line, take_away):
        assert beside["x"] >= head["x"] + head["width"], (head, beside)  # right of the map, not under it
    check = box(page, CHECK_MAP)
    assert check["y"] < head["y"] + head["height"] and head["y"] < check["y"] + check["height"]  # level with it


def test_on_a_projector_the_switch_and_its_map_are_on_screen_with_the_chosen_head(real_model):
    """At 1280×720 presenting, the chosen head's map scrolled to the top of the screen brings the switch and the map
    it changes with it: no scrolling between the head and its check."""
    page = real_model
    page.set_viewport_size({"width": 1280, "height": 720})
    page.get_by_text("Presenter mode").click()
    page.wait_for_function("() => getComputedStyle(document.documentElement).fontSize === '20px'")
    wait_for_app(page)
    wait_for_views_to_settle(page)
    top = page.locator('[data-testid="stHeader"]').bounding_box()
    below_bar = top["y"] + top["height"]  # the page's own top bar covers what is under it
    page.locator(HEAD_MAP).evaluate(
        "(map, margin) => { map.style.scrollMarginTop = `${margin}px`; map.scrollIntoView({block: 'start'}); }",
        below_bar,
    )
    for shown in (HEAD_MAP, "switch", CHECK_MAP):
        where = box(page, shown)
        assert below_bar - 1 <= where["y"] and where["y"] + where["height"] <= 720, (shown, where)


def test_the_line_view_is_named_in_one_sentence_not_by_its_points(real_model):
    """Its name was about 1,800 characters of ECharts' own listing of series and points, "NaN" among them."""
    chart = real_model.locator('.st-key-rm-lines [data-testid="stEChartsChart"]')
    real_model.wait_for_function(
        """() => document.querySelector('.st-key-rm-lines [data-testid="stEChartsChart"]')?.getAttribute('aria-label')"""
    )
    label = chart.get_attribute("aria-label")
    assert "who looks at whom: every query on the left joined to the keys on the right" in label, label
    assert len(label) < 400 and "NaN" not in label and "series" not in label, label
