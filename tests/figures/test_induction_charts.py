"""The induction experiment's two charts: every point is the history's, and the phase change is marked on both."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz.figures.induction import losses_option, prefix_scores_option

HISTORY = tuple(
    {"step": step, "first_half_loss": 4.2 + step / 1e4, "repeated_half_loss": 4.2 - step / 300,
     "prefix": np.array([[0.05, 0.1], [step / 1000, 0.02]])}
    for step in (0, 100, 200, 300, 400, 500)
)  # fmt: skip


def phase_steps(option) -> list:
    return [p["xAxis"] for s in option["series"] for p in s.get("markLine", {}).get("data", []) if "xAxis" in p]


@pytest.mark.parametrize("at", [300, None])
def test_both_charts_mark_the_phase_change_or_none(at):
    for option in (losses_option(HISTORY, 600, at), prefix_scores_option(HISTORY, 600, at, 0.3)):
        assert phase_steps(option) == ([at] if at else [])
        assert option["xAxis"]["max"] == 600


def test_the_losses_are_the_historys():
    repeated, first = losses_option(HISTORY, 600, None)["series"]
    assert repeated["name"] == "repeated half" and first["name"] == "first half"
    assert repeated["data"] == [[e["step"], round(e["repeated_half_loss"], 4)] for e in HISTORY]
    assert first["data"] == [[e["step"], round(e["first_half_loss"], 4)] for e in HISTORY]


def test_every_head_has_its_scores_and_the_mark_is_drawn():
    option = prefix_scores_option(HISTORY, 600, 300, 0.3)
    names = [s["name"] for s in option["series"]]
    assert names == ["layer 1, head 1", "layer 1, head 2", "layer 2, head 1", "layer 2, head 2"]
    assert option["series"][2]["data"] == [[e["step"], round(e["step"] / 1000, 4)] for e in HISTORY]
    assert [s["lineStyle"]["type"] for s in option["series"]] == ["dashed", "dashed", "solid", "solid"]
    assert {"yAxis": 0.3, "label": {"formatter": "0.3"}} in option["series"][-1]["markLine"]["data"]
    assert prefix_scores_option((), 600, None, 0.3)["series"] == []  # before the first progress
