"""Watch it learn's induction experiment in a real Chromium on a real server: the run trains in the worker, its
charts grow while it is held at a log point, and after it the heads are drawn by the views' component."""

from __future__ import annotations

import os

import pytest

from tests.e2e.test_watch_it_learn import chart_label
from tests.support.live import StreamlitServer, open_app_page, wait_for_app
from tests.support.step_gate import open_gate

HELD_AT = 40  # log points let through: step 1,200 of the default 3,000, past the default run's phase change


@pytest.fixture(scope="module")
def gated_server(browser_executable, tmp_path_factory):
    """A server whose training worker waits at each log point for a byte from a FIFO (ATTNVIZ_TRAIN_STEP_GATE)."""
    fifo = tmp_path_factory.mktemp("gate") / "steps"
    os.mkfifo(fifo)
    with StreamlitServer("app.py", env={"ATTNVIZ_TRAIN_STEP_GATE": str(fifo)}) as live:
        yield live, fifo


def test_the_phase_change_is_drawn_live_and_the_heads_after(page, gated_server):
    server, fifo = gated_server
    open_app_page(page, f"{server.url}/watch_it_learn")
    page.locator("[data-testid=stRadio] label").filter(has_text="Induction heads").click()
    wait_for_app(page)
    page.locator(".st-key-induction-train button").click()
    gate = open_gate(fifo)
    try:
        os.write(gate, b"s" * HELD_AT)
        page.get_by_text("step 1,200 of 3,000").wait_for(timeout=120_000)  # held there: the live view shows it
        scores = chart_label(page, "Prefix-matching score of each head")
        assert "layer 1, head 1" in scores and "layer 2, head 1" in scores
    finally:
        os.close(gate)  # the gate opens for good: the run trains to its end
    page.locator(".st-key-induction-open button").wait_for(timeout=180_000)
    wait_for_app(page)
    assert page.get_by_text("The phase change: at step").count() == 1
    page.wait_for_function(  # both heads painted by the views' component: the first layer's and the last's (covered)
        """() => [...document.querySelectorAll('.attnviz-view[data-view="head"] canvas')]
                 .filter(canvas => canvas.dataset.digitPx !== undefined).length === 2""",
        timeout=60_000,
    )
