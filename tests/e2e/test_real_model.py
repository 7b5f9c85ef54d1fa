"""The Real model page in a real Chromium: a click on the overview picks a head, and Open in Playground shows that
head's own weights on the Playground."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz.core.numbers import format_fixed
from attnviz.models import load_model
from tests.models.conftest import require_package
from tests.support.live import view_titled, wait_for_app, wait_for_charts, wait_for_views_to_settle

SENTENCE = "The animal didn't cross the street because it was too tired."
MODEL = "all-MiniLM-L6-v2"

# The overview's first canvas, scanned for the chosen head's black frame: its box in CSS pixels.
FRAME_JS = """
() => {
  let found = null;
  for (const canvas of document.querySelector('[data-testid="stEChartsChart"]').querySelectorAll('canvas')) {
    const ratio = canvas.width / canvas.getBoundingClientRect().width;
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let left = Infinity, top = Infinity, right = -1, bottom = -1;
    for (let y = 0; y < canvas.height; y++) for (let x = 0; x < canvas.width; x++) {
      const i = 4 * (y * canvas.width + x);
      if (pixels[i + 3] > 200 && pixels[i] < 20 && pixels[i + 1] < 20 && pixels[i + 2] < 20) {
        left = Math.min(left, x); right = Math.max(right, x); top = Math.min(top, y); bottom = Math.max(bottom, y);
      }
    }
    if (right < 0) continue;  // a layer of the chart without the frame (ECharts draws on more than one canvas)
    const box = canvas.getBoundingClientRect();
    found = {x: box.x + left / ratio, y: box.y + top / ratio, width: (right - left + 1) / ratio,
             height: (bottom - top + 1) / ratio};
  }
  return found;
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


def test_a_click_on_the_overview_picks_that_head_and_it_opens_in_the_playground(real_model):
    page = real_model
    assert view_titled(page, "Layer 1, head 1: weights")
    frame = page.evaluate(FRAME_JS)  # around layer 1, head 1; 16 tokens: 16 cells a map, one empty between maps
    cell = frame["width"] / 18
    pitch = 17 * cell
    # The encoder's 12 heads run across and its 6 layers down: layer 2, head 4 is one block down, three across.
    page.mouse.click(frame["x"] + cell + 3 * pitch + 8 * cell, frame["y"] + cell + 1 * pitch + 8 * cell)
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stEChartsChart"]')]
              .some(c => (c.getAttribute('aria-label') || '').includes('Layer 2, head 4: weights'))""",
        timeout=30_000,
    )
    wait_for_app(page)
    assert "Layer 2, head 4." in page.locator('[data-testid="stMarkdown"]').filter(has_text="On average").inner_text()

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
