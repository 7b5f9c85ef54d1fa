"""Watch it learn's induction experiment: a real run in the worker, and every number and sentence the page shows
after one, checked against the InductionResult it kept."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz import AttnvizInputError
from attnviz.classroom.lesson_plan import READY
from attnviz.classroom.share import decode, encode
from attnviz.core.playground_state import PlaygroundState
from attnviz.lessons import induction as words
from attnviz.lessons.training import percent
from attnviz.train.induction import InductionConfig, train_induction
from attnviz.ui.induction import DRAWN_SEED
from attnviz.ui.training_run import RUNS, Runs
from tests.app.test_crafted_guesses import send_guess
from tests.app.test_watch_it_learn import rerun_until
from tests.classroom.test_share import pack
from tests.support.apptest import as_read, echarts, matrix_views, open_page, playground, runs, setting_key, texts

PAGE = "watch_it_learn"


@pytest.fixture(scope="module")
def trained():
    return train_induction(InductionConfig(seed=0))


def induction_page(result=None):
    at = open_page(f"pages/{PAGE}.py")
    at.session_state[setting_key(PAGE, "experiment")] = words.EXPERIMENTS[1]
    if result is not None:
        at.session_state[RUNS] = Runs(induction_result=result)
    return at.run(timeout=60)


def said(at) -> str:
    return as_read(texts([*at.success, *at.info, *at.caption, *at.markdown]))


def phase_marks(at) -> list:
    """The step each chart marks as the phase change (None where it marks none)."""
    marks = []
    for key in ("chart.induction_loss", "chart.induction_prefix"):
        lines = [s["markLine"]["data"] for s in echarts(at)[key]["series"] if "markLine" in s]
        steps = [point["xAxis"] for data in lines for point in data if "xAxis" in point]
        marks.append(steps[0] if steps else None)
    return marks


def test_a_run_trains_in_the_worker_and_its_result_is_shown():
    at = induction_page()
    at.selectbox(key=setting_key(PAGE, "induction_steps")).set_value(1000).run()
    at.button(key="induction.train").click().run()
    rerun_until(at, lambda at: runs(at).induction_run is None)
    result = runs(at).induction_result
    assert result.finished and result.steps == 1000 and result.config.layers == 2
    losses = echarts(at)["chart.induction_loss"]["series"]
    assert [point[1] for point in losses[0]["data"]] == [round(float(x), 4) for x in result.repeated_half_loss]


def test_the_charts_mark_the_phase_change_where_the_score_passed(trained):
    at = induction_page(trained)
    at_step = words.phase_step(trained.log_steps, trained.prefix_matching)
    assert at_step is not None and phase_marks(at) == [at_step, at_step]
    assert f"at step {at_step:,}" in said(at)
    scores = echarts(at)["chart.induction_prefix"]["series"]
    assert [point[1] for point in scores[-1]["data"]] == [round(float(x), 4) for x in trained.prefix_matching[:, -1, 0]]


def test_the_sentences_quote_the_measured_numbers(trained):
    text = said(induction_page(trained))
    prefix, _, duplicate = trained.head_scores()
    for share in (trained.copy_accuracy(), prefix[-1, 0], duplicate[0, 0]):
        assert percent(share) in text


def test_the_last_layers_head_is_asked_first_then_drawn(trained):
    at = induction_page(trained)
    view = matrix_views(at, "induction.last")["head"]
    assert "cover" in view and "Predict first" in view["cover"]
    shared = [c.proto for c in at.get("bidi_component") if c.proto.component_name == "attnviz_views_shared"]
    assert len(shared) == 1  # the views' script, once: the router sends it only to pages that always draw views
    first = matrix_views(at, "induction.first")["head"]
    tokens = trained.fresh(1, DRAWN_SEED, length=trained.seq_len).tokens[0]
    assert first["rows"][0].endswith(str(tokens[0])) and len(first["rows"]) == len(tokens)
    assert "An induction head looks back" not in said(at)  # it would give the answer away
    query, T = 2 * trained.seq_len - 2, trained.seq_len  # the page's query by default: the second copy's last but one
    send_guess(at, "induction.last", {"view": "head", "col": query - T + 1})
    assert not at.exception and "cover" not in matrix_views(at, "induction.last")["head"]
    weight = trained.attention(tokens)[-1, 0, query, query - T + 1]
    assert f"position {query - T}, followed by {tokens[query - T + 1]}; the head puts {percent(weight)}" in said(at)


@pytest.mark.parametrize("pair", [(1, 0), (0, 0)], ids=["induction head off", "first layer off"])
def test_knocking_a_head_out_says_the_measured_accuracy(trained, pair):
    at = induction_page(trained)
    at.toggle(key=f"induction.off.{pair[0]}.{pair[1]}").set_value(True).run()
    knocked = trained.copy_accuracy([pair])
    assert knocked < 0.5 and f"copying falls from {percent(trained.copy_accuracy())} to {percent(knocked)}" in said(at)


def test_the_challenge_is_judged_by_the_models_own_predictions(trained):
    at = induction_page(trained)
    for r in ("5 9 5 12", "3 17 40 8 22"):  # a token twice in r, and all different
        at.text_input(key="induction.challenge").set_value(r).run()
        tokens = np.array([int(t) for t in r.split()] * 2)
        solved, _ = words.challenge_text(tokens, trained.next_token(tokens))
        assert ("Solved" in said(at)) == solved


def test_the_experiment_and_its_settings_travel_in_a_share_link():
    settings = {"experiment": words.EXPERIMENTS[1], "induction_layers": 1, "induction_steps": 2000, "induction_seed": 7}
    assert dict(decode(encode(PlaygroundState(), PAGE, settings)).settings) == settings
    with pytest.raises(AttnvizInputError, match="the experiment is not one of"):
        decode(pack({"p": PAGE, "g": {"experiment": "Mind reading"}}))


def test_the_fifteen_minute_lesson_ends_on_the_induction_experiment():
    last = READY["Attention in 15 minutes"].steps[-1]
    opened = decode(last.link)
    assert opened.page == PAGE and dict(opened.settings)["experiment"] == words.EXPERIMENTS[1]


@pytest.mark.parametrize("layer", [0, 1])
def test_open_in_playground_hands_over_the_heads_weights(trained, layer):
    at = induction_page(trained)
    at.selectbox(key="induction.playground_layer").set_value(layer).run()
    at.button(key="induction.open").click().run()
    assert not at.exception
    handed = playground(at)
    tokens = trained.fresh(1, DRAWN_SEED, length=trained.seq_len).tokens[0]
    assert handed.tokens == tuple(str(token) for token in tokens) and handed.causal
    expected = trained.attention(tokens)[layer, 0]  # the Playground keeps each imported number to 9 digits or so
    np.testing.assert_allclose(handed.result().weights, expected, rtol=1e-6, atol=1e-7)


def test_new_settings_say_the_run_shown_is_the_old_one(trained):
    at = induction_page(trained)
    assert not at.warning
    at.number_input(key=setting_key(PAGE, "induction_seed")).set_value(3).run()
    assert "seed 0. Press Train" in as_read(texts(at.warning))
