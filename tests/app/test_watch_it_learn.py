"""Watch it learn: every control, a real run in the server's worker process, and every number it shows.

AppTest runs the page's script on demand, not on the live view's timer, so these tests rerun the page (as the timer
would) until the run is over. The numbers shown are checked against the TrainResult the run kept: the four ratios
worked out from its confusion counts, the [CLS] row against its snapshots, and the Playground's weights against the
trained model's own forward pass.
"""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from attnviz.train import TrainConfig, background
from attnviz.train.model import forward
from tests.support.apptest import as_read, button, echarts, open_page, playground, runs, setting_key, texts
from tests.support.step_gate import open_gate

PAGE = "watch_it_learn"
SMALL = {"samples": 500, "epochs": 3, "balanced": True, "learning_rate": 0.01}  # 48 steps: under a second


def setting(name: str) -> str:
    return setting_key(PAGE, name)


@pytest.fixture
def page():
    return open_page(f"pages/{PAGE}.py")


def choose(at, **values):
    """Sets the page's settings, as a student would, one widget at a time."""
    for name, value in values.items():
        key = setting(name)
        if name == "balanced":
            at.toggle(key=key).set_value(value)
        elif name in ("learning_rate", "target_position"):
            at.selectbox(key=key).set_value(value)
        else:
            at.number_input(key=key).set_value(value)
        at.run()
    return at


def current_run(at):
    return runs(at).run


def rerun_until(at, done, timeout_s: float = 90.0):
    """Reruns the page (as the live view's timer does) until ``done(at)``; fails after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not done(at):
        assert time.monotonic() < deadline, "the run did not get there in time"
        time.sleep(0.05)
        at.run()
        assert not at.exception, at.exception
    return at


def train(at, **values):
    """Sets ``values``, presses Train and reruns until the run is over; returns the result it kept."""
    choose(at, **values)
    button(at, "Train").click().run()
    rerun_until(at, lambda at: current_run(at) is None)
    return runs(at).result


def bars(at) -> tuple[np.ndarray, np.ndarray]:
    """[CLS]'s rows as the chart draws them: (on the positive samples, on the negatives)."""
    positive, negative = echarts(at)["chart.cls_row"]["series"]
    return tuple(np.array([bar[1] for bar in series["data"]]) for series in (positive, negative))


def curve(at, name: str) -> list[list[float]]:
    return next(s["data"] for s in echarts(at)["chart.curves"]["series"] if s["name"] == name)


def shown_metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def as_percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %"


# ----------------------------------------------------------------------------- before training


def test_before_training_the_row_is_uniform_and_the_curves_empty(page):
    assert not page.exception
    assert [b.label for b in page.button if b.key != "share.add_to_lesson"] == ["Train"] and not button(page, "Train").disabled
    for row in bars(page):
        np.testing.assert_allclose(row, np.full(7, 1 / 7), atol=1e-4)  # W_q starts at zero: no preference
    assert echarts(page)["chart.cls_row"]["xAxis"]["data"][4] == "4\n(target)"
    assert all(s["data"] == [] for s in echarts(page)["chart.curves"]["series"])
    assert echarts(page)["chart.curves"]["xAxis"]["max"] == 2500  # the text's setting: 250 steps × 10 epochs


def test_every_setting_goes_into_the_run(page):
    choose(page, samples=1600, epochs=4, learning_rate=0.003, seed=7, target_position=2, target_value=9)
    choose(page, balanced=True)
    button(page, "Train").click().run()
    run = current_run(page)
    assert run.config == TrainConfig(
        samples=1600, epochs=4, learning_rate=0.003, seed=7, target_position=2, target_value=9, balanced=True
    )
    assert button(page, "Train").disabled  # one run at a time per student
    button(page, "Stop").click().run()
    rerun_until(page, lambda at: current_run(at) is None)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"samples": 20_000, "epochs": 10}, "20,000 samples × 10 epochs is 200,000 sample passes"),
        ({"samples": 12_000, "epochs": 50}, "this server allows 120,000"),
    ],
)
def test_bad_settings_get_a_message_and_no_train_button(page, values, message):
    choose(page, **values)
    assert not page.exception
    assert message in as_read(texts(page.error))
    assert button(page, "Train").disabled
    assert not page.get("echarts_chart")  # nothing drawn for a run that can't be


# ----------------------------------------------------------------------------- a run


def test_a_small_run_shows_the_numbers_of_its_held_out_verdict(page):
    result = train(page, **SMALL)
    assert result.finished and result.steps == 48
    c = result.confusion
    total = c.true_positives + c.false_positives + c.false_negatives + c.true_negatives
    called = c.true_positives + c.false_positives
    recall_part = c.true_positives / c.positives
    specificity = c.true_negatives / (c.true_negatives + c.false_positives)
    assert shown_metrics(page) == {
        "Accuracy": as_percent(c.true_positives + c.true_negatives, total),
        "Precision": as_percent(c.true_positives, called),
        "Recall": as_percent(c.true_positives, c.positives),
        "Balanced accuracy": f"{100 * (recall_part + specificity) / 2:.1f} %",
    }
    assert total == 4000
    verdict = as_read(texts(page.caption))
    assert f"After all 48 steps, judged on 4,000 fresh samples it never trained on ({c.positives} positives)" in verdict
    lesson = as_read(texts(page.success))
    assert "Either way it looks mostly at position 4" in lesson and "Choose another target position" in lesson


def test_the_rows_shown_are_the_last_snapshot_and_sum_to_one(page):
    result = train(page, **SMALL)
    last = result.snapshots[-1].cls_rows
    for shown, row in zip(bars(page), (last.positive, last.negative), strict=True):
        assert shown.sum() == pytest.approx(1.0, abs=1e-3)  # seven weights rounded to 4 decimals
        np.testing.assert_allclose(shown, row, atol=5e-5)
        assert int(np.argmax(shown)) == 4
    for name, field in (
        ("loss (left axis)", "loss"),
        ("accuracy", "accuracy"),
        ("balanced accuracy", "balanced_accuracy"),
    ):
        points = curve(page, name)
        assert [step for step, _ in points] == [entry["step"] for entry in result.history]
        np.testing.assert_allclose([v for _, v in points], [e[field] for e in result.history], atol=5e-5)


def test_the_scrub_slider_shows_each_snapshots_numbers(page):
    result = train(page, **SMALL)
    slider = page.select_slider(key=setting("snapshot"))
    assert slider.value == 48 and list(slider.options) == [str(s.step) for s in result.snapshots]
    for index in (0, 3):
        snapshot = result.snapshots[index]
        page.select_slider(key=setting("snapshot")).set_value(snapshot.step).run()
        rows = snapshot.cls_rows
        np.testing.assert_allclose(bars(page), (rows.positive, rows.negative), atol=5e-5)
        assert echarts(page)["chart.curves"]["series"][0]["markLine"]["data"] == [{"xAxis": snapshot.step}]
        caption = as_read(texts(page.caption))
        weight = (
            f"[CLS]'s weight on position 4, on held-out samples: {rows.positive[4]:.2f} on {rows.positives} "
            f"positives, {rows.negative[4]:.2f} on 128 negatives (the same few at every step; the lesson below uses all "
        )
        if index == 0:
            assert f"Before the first step. {weight}" in caption
        else:
            entry = result.history[index - 1]
            assert entry["step"] == snapshot.step
            assert f"After {snapshot.step} of 48 steps" in caption
            assert f"loss {entry['loss']:.3g}," in caption and weight in caption


def test_a_new_target_position_moves_the_learned_attention_there(page):
    train(page, **SMALL)
    choose(page, target_position=2)
    assert "You have since changed the target position" in as_read(texts(page.warning))
    result = train(page)
    assert result.config.target_position == 2
    for row in bars(page):
        assert int(np.argmax(row)) == 2 and row[2] >= 0.5
    assert "Either way it looks mostly at position 2" in as_read(texts(page.success))
    assert f"puts {result.cls_rows.positive[2]:.2f} of its attention on position 2" in as_read(texts(page.success))
    assert not page.warning


def test_an_always_no_model_gets_no_precision_and_half_balanced_accuracy(page):
    result = train(page, samples=300, epochs=1)  # 10 steps on natural samples: too few to find the positives
    assert result.confusion.true_positives + result.confusion.false_positives == 0
    metrics = shown_metrics(page)
    assert metrics["Precision"] == "—" and metrics["Recall"] == "0.0 %" and metrics["Balanced accuracy"] == "50.0 %"
    negatives = result.confusion.true_negatives
    assert metrics["Accuracy"] == as_percent(negatives, 4000)  # high, and meaningless
    rows = result.cls_rows
    lesson = as_read(texts(page.success))
    shown = [f"{w:.2f}" for w in rows.positive]  # 10 steps: [CLS] has not found the target yet
    tops = [i for i, text in enumerate(shown) if text == max(shown, key=float)]
    if len(tops) == 1:  # one place it looks at most, as the digits show
        assert tops[0] != 4 and f"at position {tops[0]} ({shown[tops[0]]}" in lesson
    else:  # "mostly at position 3 (0.15 …)" beside position 4's 0.15: no ranking where the digits show none
        assert f"no single position (positions {', '.join(map(str, tops[:-1]))} and {tops[-1]}" in lesson
    assert "not at position 4: train longer, or with balanced sampling." in lesson


def test_stop_stops_the_run_and_shows_where_it_got(page):
    button(page, "Train").click().run()  # the reference text's setting: 2,500 steps, several seconds
    rerun_until(page, lambda at: bool(at.get("progress")))
    assert "Step " in page.get("progress")[0].proto.text
    button(page, "Stop").click().run()
    rerun_until(page, lambda at: current_run(at) is None, timeout_s=30)
    result = runs(page).result
    assert not result.finished and result.steps < 2500
    assert f"Stopped after {result.steps:,} of 2,500 steps" in as_read(texts(page.caption))
    assert not button(page, "Train").disabled


@pytest.fixture
def held_worker(monkeypatch, tmp_path):
    """A fresh training worker that waits at each log point for a byte from a FIFO (ATTNVIZ_TRAIN_STEP_GATE), so a
    run is still training when the test needs it to be, however fast the machine. Yields the gate's path."""
    gate = tmp_path / "steps"
    os.mkfifo(gate)
    background.shutdown()  # the next run spawns a worker that inherits the gate
    monkeypatch.setenv("ATTNVIZ_TRAIN_STEP_GATE", str(gate))
    yield gate
    background.shutdown()  # later tests get a worker without it


def test_a_second_students_run_waits_its_turn_and_can_be_stopped(page, held_worker):
    other = open_page(f"pages/{PAGE}.py")
    button(page, "Train").click().run()
    rerun_until(page, lambda at: bool(at.get("progress")))  # the first run is held at its first log point
    writer = None
    try:
        writer = open_gate(held_worker)
        button(other, "Train").click().run()
        assert "1 run ahead of yours" in as_read(texts(other.info))
        button(other, "Stop").click().run()  # at once: it never started
        assert current_run(other) is None
        assert "Stopped before it started." in as_read(texts(other.warning))
        assert runs(other).result is None
        button(page, "Stop").click().run()
    finally:
        if writer is not None:
            os.close(writer)  # the gate opens: the first run sees Stop at the log point it was held at
    rerun_until(page, lambda at: current_run(at) is None, timeout_s=30)


# ----------------------------------------------------------------------------- after a run


def test_the_default_run_says_where_cls_looks_by_label_on_held_out_samples(page):
    """After the page's own run, [CLS] was said to have "learned to look at position 4 … 0.92 of its
    attention": a mean over every held-out sample, 98 % of them negative, while on the positives it looks mostly at
    position 6. Worked out here from the trained model's own forward pass, label by label, and read back from the
    lesson, the chart and its caption (both said to be held out), and the sample Open in Playground hands over."""
    result = train(page)  # the reference text's setting, 2,500 steps, unbalanced
    _, _, weights, _ = forward(result.params, result.holdout_tokens, result.holdout_labels)
    positive = result.holdout_labels == 1
    on_positives, on_negatives = weights[positive].mean(axis=0), weights[~positive].mean(axis=0)
    top = int(np.argmax(on_positives))
    assert on_positives[4] < 0.5 < on_negatives[4] and top != 4  # a positive pushes [CLS]'s attention away
    lesson = as_read(texts(page.success))
    assert lesson.startswith(
        f"On the 4,000 held-out samples, [CLS] puts {on_positives[4]:.2f} of its attention on position 4 when the "
        f"number there is 42 ({positive.sum()} samples) and {on_negatives[4]:.2f} when it is not "
        f"({(~positive).sum():,} samples). When the number there is 42, it looks away, mostly at position {top} "
        f"({on_positives[top]:.2f})"
    )
    assert "learned to look at position 4, the only one" not in lesson
    assert "held-out" in echarts(page)["chart.cls_row"]["title"]["text"]
    probe = [np.flatnonzero(positive)[:128], np.flatnonzero(~positive)[:128]]  # the chart's samples of each label
    shown = bars(page)
    for row, samples in zip(shown, probe, strict=True):
        np.testing.assert_allclose(row, weights[samples].mean(axis=0), atol=5e-5)
    assert (
        f"[CLS]'s weight on position 4, on held-out samples: {shown[0][4]:.2f} on {len(probe[0])} positives, "
        f"{shown[1][4]:.2f} on 128 negatives (the same few at every step; the lesson below uses all "
    ) in as_read(texts(page.caption))
    assert not [label for label in shown_metrics(page) if label.startswith("Weight")]  # no mean over both labels
    button(page, "Open in Playground").click().run()  # a positive sample, the switch's default
    handed = playground(page).result().weights[0]  # [CLS]'s row
    assert handed[4] < 0.5 and int(np.argmax(handed)) == top  # as the lesson says for a positive


@pytest.mark.parametrize("positive", [True, False])
def test_open_in_playground_brings_one_samples_q_k_v_and_the_models_weights(page, positive):
    result = train(page, **SMALL)
    if not positive:
        page.toggle(key=setting("positive_sample")).set_value(False).run()
    button(page, "Open in Playground").click().run()
    assert not page.exception
    state = playground(page)
    tokens = result.example(positive)
    assert bool(tokens[4] == 42) is positive
    assert state.tokens == ("[CLS]", *(str(t) for t in tokens[1:]))
    assert (state.causal, state.scale, state.temperature, state.focus) == (False, True, 1.0, 0)  # [CLS]'s row
    _, _, model_weights, _ = forward(result.params, tokens[None, :], np.array([float(positive)]))
    np.testing.assert_allclose(state.result().weights[0], model_weights[0], atol=1e-5)  # float32 in the Playground
    assert f"label {int(positive)}" in state.imported.title


def test_settings_and_the_last_run_survive_a_visit_to_another_page(page):
    result = train(page, **SMALL)
    choose(page, seed=5)
    page.switch_page("pages/playground.py").run()
    page.switch_page(f"pages/{PAGE}.py").run()
    assert page.number_input(key=setting("seed")).value == 5
    assert page.number_input(key=setting("samples")).value == 500
    assert runs(page).result is result
    assert f"puts {result.cls_rows.positive[4]:.2f} of its attention on position 4" in as_read(texts(page.success))
