"""Watch it learn in a real Chromium on a real server: the run trains in the server's worker process, the page shows
its progress while it trains (and stays answerable), and the curves and numbers at the end are the run's own, checked
against the same run trained here (training is reproducible bit for bit)."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

from attnviz.lessons.training import ROWS_TITLE
from attnviz.train import TrainConfig, train
from tests.support.live import StreamlitServer, open_app_page, wait_for_app
from tests.support.step_gate import open_gate

SMALL = TrainConfig(samples=500, epochs=3, balanced=True, learning_rate=0.01)  # 48 steps, under a second
_SERIES = re.compile(r"representing (.*?)\.The data is as follows: (.*?)(?=\. The \d+ series|\.$)")
_BAR = re.compile(r"the data for .*? is (\d+); ([\d.]+); ", re.DOTALL)


@pytest.fixture
def learning(page, server):
    open_app_page(page, f"{server.url}/watch_it_learn")
    return page


def set_number(page, label: str, value) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(str(value))
    box.press("Enter")
    wait_for_app(page)


def choose(page, label: str, option: str) -> None:
    page.get_by_label(label, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()
    wait_for_app(page)


def chart_label(page, title: str) -> str:
    for chart in page.locator('[data-testid="stEChartsChart"]').all():
        label = chart.get_attribute("aria-label") or ""
        if f'chart about "{title}"' in label:
            return label
    raise LookupError(title)


def curves(page) -> dict[str, np.ndarray]:
    """Every line of the training curves, by name: (points, 2) of step and value, read as a screen reader hears it."""
    label = chart_label(page, "Training loss and accuracy")
    lines = {}
    for name, data in _SERIES.findall(label):
        numbers = [float(x) for x in data.split("; ")] if data.strip() else []
        lines[name] = np.array(numbers).reshape(-1, 2)
    return lines


def cls_row(page) -> np.ndarray:
    """Every bar of [CLS]'s chart: the positive samples' row, then the negatives'."""
    return np.array([float(value) for _, value in _BAR.findall(chart_label(page, ROWS_TITLE))])


def metrics(page) -> dict[str, str]:
    shown = {}
    for metric in page.locator('[data-testid="stMetric"]').all():
        label = metric.locator('[data-testid="stMetricLabel"]').inner_text().strip()
        shown[label] = metric.locator('[data-testid="stMetricValue"]').inner_text().strip()
    return shown


def in_view(page, locator) -> bool:
    box, size = locator.bounding_box(), page.viewport_size
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and (box["y"] + box["height"] <= size["height"])
    )


def test_a_small_run_trains_and_shows_its_curves_and_its_numbers(learning):
    page = learning
    assert len(curves(page)["loss (left axis)"]) == 0
    set_number(page, "Samples", SMALL.samples)
    set_number(page, "Epochs", SMALL.epochs)
    choose(page, "Learning rate", "0.01")
    page.get_by_text("Balanced sampling", exact=True).click()
    wait_for_app(page)
    page.get_by_role("button", name="Train").click()
    page.locator('[data-testid="stMetric"]').first.wait_for(timeout=60_000)
    wait_for_app(page)

    expected = train(SMALL)  # the same run, trained in this process
    c = expected.confusion
    total = c.true_positives + c.false_positives + c.false_negatives + c.true_negatives
    assert metrics(page) == {
        "Accuracy": f"{100 * (c.true_positives + c.true_negatives) / total:.1f} %",
        "Precision": f"{100 * c.true_positives / (c.true_positives + c.false_positives):.1f} %",
        "Recall": f"{100 * c.true_positives / c.positives:.1f} %",
        "Balanced accuracy": f"{100 * expected.balanced_accuracy:.1f} %",
    }
    lines = curves(page)
    steps = [entry["step"] for entry in expected.history]
    for name, field in (("loss (left axis)", "loss"), ("balanced accuracy", "balanced_accuracy")):
        np.testing.assert_array_equal(lines[name][:, 0], steps)
        np.testing.assert_allclose(lines[name][:, 1], [entry[field] for entry in expected.history], atol=5e-5)
    shown = expected.snapshots[-1].cls_rows  # the held-out samples' rows, by label: positives' bars, then negatives'
    row = cls_row(page)
    np.testing.assert_allclose(row, np.concatenate([shown.positive, shown.negative]), atol=5e-5)
    negatives = row[len(shown.positive) :]
    assert negatives.sum() == pytest.approx(1.0, abs=1e-3) and int(np.argmax(negatives)) == 4
    for chart in page.locator('[data-testid="stEChartsChart"]').all():  # the slider and the charts it changes
        assert in_view(page, chart)
    assert in_view(page, page.locator('[data-testid="stSlider"]'))


@pytest.fixture(scope="module")
def gated_server(browser_executable, tmp_path_factory):
    """A server whose training worker waits at each log point for a byte from a FIFO (ATTNVIZ_TRAIN_STEP_GATE): the
    test lets the run on one step at a time, so what it sees does not depend on how fast the machine trains."""
    fifo = tmp_path_factory.mktemp("gate") / "steps"
    os.mkfifo(fifo)
    with StreamlitServer("app.py", env={"ATTNVIZ_TRAIN_STEP_GATE": str(fifo)}) as live:
        yield live, fifo


def next_step(page, after: int) -> int:
    """Waits until the progress bar shows a step other than ``after``; returns it."""
    handle = page.wait_for_function(
        """(after) => {
          const bar = document.querySelector('[data-testid="stProgress"]');
          const found = bar && bar.innerText.match(/Step ([\\d,]+) of 2,500/);
          const step = found && Number(found[1].replace(/,/g, ''));
          return found && step !== after ? {step} : null;  // an object: step 0 is falsy
        }""",
        arg=after,
        timeout=60_000,
    )
    return handle.json_value()["step"]


def test_progress_is_drawn_while_it_trains_other_controls_answer_and_stop_stops(page, gated_server):
    server, fifo = gated_server  # the reference text's setting: 2,500 steps
    open_app_page(page, f"{server.url}/watch_it_learn")
    page.get_by_role("button", name="Train").click()
    gate = open_gate(fifo)
    try:
        seen, rows = [next_step(page, after=-1)], set()
        while len(seen) < 3:  # three different steps drawn one after another prove the view is live
            rows.add(tuple(cls_row(page)))
            os.write(gate, b"s")  # the worker goes on to its next log point, and waits there
            seen.append(next_step(page, after=seen[-1]))
        rows.add(tuple(cls_row(page)))
        assert seen == sorted(seen) and len(rows) >= 2  # steps only go forward, and [CLS]'s row moved too
        set_number(page, "Seed", 3)  # another control answers while the run trains (held at its log point)
        assert page.get_by_label("Seed", exact=True).input_value() == "3"
        assert next_step(page, after=-1) == seen[-1]  # still training, where it was held
        page.get_by_role("button", name="Stop").click()
    finally:
        os.close(gate)  # the gate opens for good: the worker sees Stop at the log point it was held at
    page.locator('[data-testid="stMetric"]').first.wait_for(timeout=60_000)
    wait_for_app(page)
    stopped = page.get_by_text(re.compile(r"^Stopped after ([\d,]+) of 2,500 steps"))
    assert int(re.search(r"after ([\d,]+) of", stopped.inner_text())[1].replace(",", "")) >= seen[-1]
    assert page.get_by_role("button", name="Train").is_enabled()
    assert page.get_by_text("You have since changed the seed").count() == 1
