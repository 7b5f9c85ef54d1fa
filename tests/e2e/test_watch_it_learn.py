"""Watch it learn in a real Chromium on a real server: the run trains in the server's worker process, the page shows
its progress while it trains (and stays answerable), and the curves and numbers at the end are the run's own, checked
against the same run trained here (training is reproducible bit for bit)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from attnviz.train import TrainConfig, train
from tests.support.live import open_app_page, wait_for_app

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
    return np.array([float(value) for _, value in _BAR.findall(chart_label(page, "[CLS]'s attention row"))])


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
        "Weight on position 4": f"{expected.cls_attention[4]:.2f}",
    }
    lines = curves(page)
    steps = [entry["step"] for entry in expected.history]
    for name, field in (("loss (left axis)", "loss"), ("balanced accuracy", "balanced_accuracy")):
        np.testing.assert_array_equal(lines[name][:, 0], steps)
        np.testing.assert_allclose(lines[name][:, 1], [entry[field] for entry in expected.history], atol=5e-5)
    row = cls_row(page)
    np.testing.assert_allclose(row, expected.snapshots[-1].cls_attention, atol=5e-5)
    assert row.sum() == pytest.approx(1.0, abs=1e-3) and int(np.argmax(row)) == 4
    for chart in page.locator('[data-testid="stEChartsChart"]').all():  # the slider and the charts it changes
        assert in_view(page, chart)
    assert in_view(page, page.locator('[data-testid="stSlider"]'))


def test_progress_is_drawn_while_it_trains_other_controls_answer_and_stop_stops(learning):
    page = learning  # the reference text's setting: 2,500 steps, several seconds in the worker
    page.get_by_role("button", name="Train").click()
    bar = page.locator('[data-testid="stProgress"]')
    bar.wait_for(timeout=60_000)
    seen, rows = set(), set()
    while len(seen) < 3:  # the live view redraws twice a second; three different steps prove it is live
        text = bar.inner_text(timeout=30_000)
        seen.add(int(re.search(r"Step ([\d,]+) of 2,500", text)[1].replace(",", "")))
        rows.add(tuple(cls_row(page)))
        page.wait_for_timeout(200)
    assert len(rows) >= 2  # [CLS]'s row moved too
    set_number(page, "Seed", 3)  # another control answers while the run trains
    assert page.get_by_label("Seed", exact=True).input_value() == "3"
    try:  # on a quiet machine the run (about 1.6 s of work) may already be over: then its bar is gone
        later = int(re.search(r"Step ([\d,]+) of", bar.inner_text(timeout=2_000))[1].replace(",", ""))
        assert later >= max(seen)  # still training
        page.get_by_role("button", name="Stop").click(timeout=2_000)
    except PlaywrightTimeout:
        later = max(seen)
    page.locator('[data-testid="stMetric"]').first.wait_for(timeout=30_000)
    wait_for_app(page)
    # On a quiet machine the whole run (about 1.6 s of work) can end between the last look and the click; then there
    # is nothing left to stop. Stop itself is checked step by step in tests/app/test_watch_it_learn.py.
    stopped = page.get_by_text(re.compile(r"^Stopped after ([\d,]+) of 2,500 steps"))
    finished = page.get_by_text(re.compile(r"^After all 2,500 steps"))
    assert stopped.count() + finished.count() == 1
    if stopped.count():
        assert int(re.search(r"after ([\d,]+) of", stopped.inner_text())[1].replace(",", "")) >= later
    assert page.get_by_role("button", name="Train").is_enabled()
    assert page.get_by_text("You have since changed the seed").count() == 1
