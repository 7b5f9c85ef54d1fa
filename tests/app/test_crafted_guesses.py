"""A predict-mode click ("guess") crafted in the browser's developer tools, on every guided page that asks (Step by
step, Multi-head, Real model): no traceback, no prediction kept, the page as it was. The Playground's own
guesses: tests/app/test_playground.py."""

from __future__ import annotations

import pytest

from bench.harness.triggers import trigger_state
from tests.app.test_real_model import ready
from tests.support.apptest import button, open_app, use_control, views_data

CRAFTED = [
    {"view": ["softmax-1"], "col": 0},  # a list for a view's name: unhashable, it raised TypeError
    {"view": {"softmax-1": 1}, "col": 0},
    {"view": "softmax-1", "col": [0]},
    {"view": "softmax-1", "col": True},
    {"view": None, "col": 0},
    ["softmax-1", 0],
    "softmax-1",
    7,
]


def send_guess(at, key: str, sent):
    (component,) = [c for c in at.get("bidi_component") if c.proto.id.endswith(f"-{key}")]
    states = at._tree.get_widget_states()
    states.widgets.append(trigger_state(component.proto.id, "event", {"guess": sent}))
    return at._run(states)


def asking(page: str):
    at = open_app()
    use_control(at, "predict", "most")  # the Playground's predict mode holds on the guided pages
    at.switch_page(f"pages/{page}.py").run()
    return at


def covers(at, key: str) -> list[bool]:
    return [bool(view.get("cover")) for view in views_data(at, key)["views"]]


@pytest.mark.parametrize("sent", CRAFTED, ids=repr)
def test_a_crafted_guess_on_step_by_step_is_no_guess(sent):
    at = asking("step_by_step")
    for _ in range(3):  # the Softmax stage: its weights are covered
        button(at, "Next").click().run()
    before = covers(at, "steps.views")
    send_guess(at, "steps.views", sent)
    assert not at.exception
    assert covers(at, "steps.views") == before == [False, True]


@pytest.mark.parametrize("sent", CRAFTED, ids=repr)
def test_a_crafted_guess_on_multi_head_is_no_guess(sent):
    at = asking("multi_head")
    before = covers(at, "mh.heads")
    send_guess(at, "mh.heads", sent)
    assert not at.exception
    assert covers(at, "mh.heads") == before and any(before)


@pytest.mark.parametrize("sent", CRAFTED, ids=repr)
def test_a_crafted_guess_on_real_model_is_no_guess(sent, encoder):
    at = ready(asking("real_model"))
    before = covers(at, "rm.head")
    send_guess(at, "rm.head", sent)
    assert not at.exception
    assert covers(at, "rm.head") == before == [True]
