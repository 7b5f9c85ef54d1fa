"""Step-by-step page: Next/Back through every stage, the cell pickers, the embeddings toggle, the shared state."""

from dataclasses import replace

import numpy as np
import pytest

from attnviz.core.playground_state import PlaygroundState, load_example
from attnviz.figures import colours
from tests.support.apptest import button, chart, chart_keys, open_page, setting_key, texts, trace

PAGE = "pages/step_by_step.py"


@pytest.fixture
def page():
    return open_page(PAGE)


@pytest.fixture
def pronoun():
    at = open_page(PAGE)
    at.session_state["playground"] = load_example(PlaygroundState(), "pronoun_it")
    at.run()
    return at


def heading(at) -> str:
    return at.header[0].value


def test_next_and_back_walk_every_stage_of_the_playground_pass(page):
    state = page.session_state["playground"]
    result = state.result()
    expected = {
        "scores": result.scores,
        "scale": result.scaled,
        "softmax": result.weights,
        "output": result.output,
    }
    assert button(page, "Back").disabled
    seen = []
    for step in range(5):
        seen.append(heading(page))
        key = page.session_state[setting_key("step_by_step", "stage")]
        if key in expected:
            np.testing.assert_allclose(trace(page, f"steps_panel_{key}_0", 0, "z"), expected[key], rtol=1e-12)
        if step < 4:
            button(page, "Next").click().run()
            assert not page.exception
    assert [s.split(". ", 1)[0] for s in seen] == [f"Stage {i} of 5" for i in range(1, 6)]
    assert button(page, "Next").disabled
    button(page, "Back").click().run()
    assert page.session_state[setting_key("step_by_step", "stage")] == "softmax"
    assert "The Playground's" not in heading(page)
    assert "“The movie was not good, but the soundtrack was amazing\\.”" in texts(page.markdown)  # shown literally


def test_pronoun_formulas_with_live_numbers(pronoun):
    # focus token 3 ("it"); the key picker starts on the key it attends to most, "animal"
    assert pronoun.selectbox(key=setting_key("step_by_step", "query")).value == 3
    assert pronoun.selectbox(key=setting_key("step_by_step", "key")).value == 0
    assert r"= 3 \cdot 3 + 1 \cdot 1 = 10 \end{aligned}" in texts(pronoun.latex)
    pronoun.selectbox(key=setting_key("step_by_step", "key")).set_value(1).run()
    assert r"3 \cdot 1 + 1 \cdot 4 = 7" in texts(pronoun.latex)
    button(pronoun, "Next").click().run()
    assert r"\frac{7}{1.414} = 4.95" in texts(pronoun.latex)
    button(pronoun, "Next").click().run()  # mask: the Playground blocks key 3 ("it") for every query
    assert chart_keys(pronoun) == ["steps_panel_mask_0", "steps_panel_mask_1"]
    shapes = chart(pronoun, "steps_panel_mask_0")["layout"]["shapes"]
    assert sum(s["line"]["color"] == colours.YELLOW for s in shapes) == 4  # the four blocked cells, outlined
    assert "the 4 cells this stage changed" in texts(pronoun.caption)
    assert "Encoder" in texts(pronoun.markdown) and "Decoder" in texts(pronoun.markdown)
    assert chart(pronoun, "steps_panel_mask_1")["layout"]["title"]["text"] == "If it were a decoder (causal)"
    button(pronoun, "Next").click().run()
    assert r"= \frac{0.1199}{1.149} = 0.1043" in texts(pronoun.latex)
    pronoun.selectbox(key=setting_key("step_by_step", "query")).set_value(0).run()  # "animal" itself
    weights = trace(pronoun, "steps_panel_softmax_0", 0, "z")
    assert weights[0, 3] != weights[0, 3]  # blocked: drawn as NaN (grey, "−∞")
    button(pronoun, "Next").click().run()
    pronoun.selectbox(key=setting_key("step_by_step", "query")).set_value(3).run()
    pronoun.selectbox(key=setting_key("step_by_step", "dimension")).set_value(0).run()
    assert r"\text{out}_{3,1}" in texts(pronoun.latex) and r"= 0.8703 \end{aligned}" in texts(pronoun.latex)


def test_causal_playground_is_explained_as_a_decoder(pronoun):
    pronoun.session_state["playground"] = replace(pronoun.session_state["playground"], causal=True)
    pronoun.session_state[setting_key("step_by_step", "stage")] = "mask"
    pronoun.run()
    assert not pronoun.exception
    assert "set up as a decoder" in texts(pronoun.markdown)
    assert chart(pronoun, "steps_panel_mask_1")["layout"]["title"]["text"] == "If it were an encoder (no causal mask)"
    pronoun.selectbox(key=setting_key("step_by_step", "query")).set_value(0).run()
    pronoun.selectbox(key=setting_key("step_by_step", "key")).set_value(2).run()
    assert "key comes after the query (causal mask)" in texts(pronoun.latex)


def test_embeddings_toggle_adds_the_projection_stage(page):
    page.toggle(key=setting_key("step_by_step", "from_embeddings")).set_value(True).run()
    assert not page.exception
    assert heading(page).startswith("Stage 2 of 6. Scores")  # the student stays where they were
    button(page, "Back").click().run()
    assert heading(page).startswith("Stage 1 of 6. Project")
    assert chart_keys(page) == ["steps_panel_project_0", "steps_panel_project_1", "steps_panel_project_2"]
    assert trace(page, "steps_panel_project_0", 0, "z").shape == (12, 4)  # Q: n × d_k
    page.slider(key=setting_key("step_by_step", "d_model")).set_value(2).run()
    page.selectbox(key=setting_key("step_by_step", "dimension")).set_value(3).run()
    latex = texts(page.latex)
    assert latex.count(r"\cdot") == 2 and r"Q_{4,4}" in latex  # d_model = 2 terms; query 4, dimension 4
    page.toggle(key=setting_key("step_by_step", "from_embeddings")).set_value(False).run()
    assert heading(page).startswith("Stage 1 of 5. Scores")  # the projection stage is gone


def test_fully_masked_rows_get_a_message(pronoun):
    pronoun.session_state["playground"] = replace(pronoun.session_state["playground"], blocked_keys=(0, 1, 2, 3))
    pronoun.session_state[setting_key("step_by_step", "stage")] = "softmax"
    pronoun.run()
    assert not pronoun.exception
    assert "every key blocked" in texts(pronoun.warning)
    assert "every key is masked for this query" in texts(pronoun.latex)


def test_arrow_keys_drive_the_lesson(page):
    assert button(page, "Next").proto.shortcut == "right"
    assert button(page, "Back").proto.shortcut == "left"
