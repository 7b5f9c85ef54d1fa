"""Watch it learn's charts carry the run's own numbers: every logged point, every [CLS] weight, the target marked."""

from __future__ import annotations

import json

import numpy as np
import pytest

from attnviz.figures.colours import BLUE, ORANGE
from attnviz.figures.training import cls_rows_option, curves_option
from attnviz.lessons.training import POSITION_LABELS
from attnviz.train import TrainConfig, train

HISTORY = [
    {"step": 10, "epoch": 0.5, "loss": 0.6931, "accuracy": 0.98, "balanced_accuracy": 0.5},
    {"step": 20, "epoch": 1.0, "loss": 0.01234567, "accuracy": 1.0, "balanced_accuracy": 0.975},
]


def test_every_logged_point_is_a_point_of_its_curve():
    option = curves_option(HISTORY, 40)
    series = {s["name"]: s for s in option["series"]}
    assert series["loss (left axis)"]["data"] == [[10, 0.6931], [20, 0.0123]]
    assert series["accuracy"]["data"] == [[10, 0.98], [20, 1.0]]
    assert series["balanced accuracy"]["data"] == [[10, 0.5], [20, 0.975]]
    assert [s["yAxisIndex"] for s in option["series"]] == [0, 1, 1]
    assert option["yAxis"][0]["type"] == "log" and (option["yAxis"][1]["min"], option["yAxis"][1]["max"]) == (0, 1)
    assert (option["xAxis"]["min"], option["xAxis"]["max"]) == (0, 40)  # the whole run, from the first point
    assert "markLine" not in option["series"][0]
    json.dumps(option)  # plain JSON, as st.echarts_chart sends it


def test_a_chosen_snapshot_is_a_vertical_line_at_its_step():
    option = curves_option(HISTORY, 40, at_step=20)
    assert option["series"][0]["markLine"]["data"] == [{"xAxis": 20}]
    assert option["series"][0]["markLine"]["label"]["formatter"] == "step 20"


def test_before_training_the_curves_are_empty_but_the_axes_span_the_run():
    option = curves_option((), 2500)
    assert all(s["data"] == [] for s in option["series"]) and option["xAxis"]["max"] == 2500


def test_the_cls_rows_have_a_bar_a_position_for_each_label_and_name_the_target():
    rows = train(TrainConfig(samples=500, epochs=3, balanced=True, log_points=6)).cls_rows
    option = cls_rows_option(rows, 4, POSITION_LABELS, title="[CLS]'s attention on held-out samples")
    positive, negative = option["series"]
    assert (positive["name"], negative["name"]) == (f"positive samples ({rows.positives})", "negative samples (3,925)")
    assert (positive["itemStyle"]["color"], negative["itemStyle"]["color"]) == (ORANGE, BLUE)
    for series, weights in ((positive, rows.positive), (negative, rows.negative)):
        assert [bar[0] for bar in series["data"]] == list(range(7))
        np.testing.assert_allclose([bar[1] for bar in series["data"]], weights, atol=5e-5)
        assert sum(bar[1] for bar in series["data"]) == pytest.approx(1.0, abs=1e-3)  # seven weights, 4 decimals
        assert [bar[2] for bar in series["data"]] == [f"{w:.2f}" for w in weights]
    assert option["xAxis"]["data"] == ["[CLS]", "1", "2", "3", "4\n(target)", "5", "6"]
    assert (option["yAxis"]["min"], option["yAxis"]["max"]) == (0, 1)
    assert positive["markLine"]["data"] == [{"yAxis": round(1 / 7, 4)}]
    assert option["aria"]["label"]["data"]["maxCount"] == 14  # a screen reader hears every bar of both
    json.dumps(option)
